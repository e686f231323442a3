"""The one sanitizer: no character a server sends may style, move, reorder or hide anything, in any face.

The classes, each with several members (a hostile suite tries more than one of each): C0 and C1 controls and so
escape sequences, bidi embeddings/overrides/isolates/marks, zero-width characters, line and paragraph separators,
and the invisible letters and marks. ``HOSTILE`` (tests_hostile.py) is shared with the tests of the faces
(headless printer, error reporter, TUI widgets), which must show every one of them through this sanitizer.
"""

from __future__ import annotations

import sys
import unicodedata

import pytest
from tests_hostile import HOSTILE

from inspector.protocol.sanitize import clean, has_hidden, one_line


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_nothing_hidden_or_controlling_survives(text: str) -> None:
    for shown in (clean(text), clean(text, keep_newlines=False), one_line(text)):
        assert not has_hidden(shown.replace("\n", "").replace("\t", "")), repr(shown)
        assert "\x1b" not in shown and "\r" not in shown
    assert has_hidden(text), "the raw text is recognised as hostile"


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_every_hidden_character_becomes_a_visible_stand_in(text: str) -> None:
    shown = clean(text)
    hidden = [c for c in text if has_hidden(c) and c not in "\n\t"]
    assert len(shown) >= len(text) - text.count("\r\n"), "nothing was dropped silently"
    for char in hidden:
        code = ord(char)
        stand_in = chr(0x2400 + code) if code < 0x20 else "\u2421" if code == 0x7F else f"⟨U+{code:04X}⟩"
        assert stand_in in shown, (char, shown)


def test_two_names_that_look_alike_are_shown_differently() -> None:
    assert clean("add") != clean("ad\u200bd") != clean("add\u3164")


def test_ordinary_text_is_left_as_it_is() -> None:
    for text in ["plain", "é ü 漢字 😀 👍🏽", "tab\tand\nlines", "a b c", ""]:
        assert clean(text) == text
    assert clean("a\r\nb") == "a\nb", "a CRLF is one newline"


def test_one_line_never_breaks_and_is_cut() -> None:
    line = one_line("first\nsecond\r\nthird\u2028fourth\rfifth\tsixth", 30)
    assert "\n" not in line and "\u2028" not in line
    assert line.startswith("first⏎second⏎third⟨U+2028⟩") and line.endswith("…") and len(line) == 30


@pytest.mark.skipif(sys.maxunicode < 0x10FFFF, reason="a narrow build")
def test_every_control_format_and_separator_character_is_hidden() -> None:
    """Cc, Cf, Zl and Zp of the Unicode this Python knows are all in the sanitizer's class."""
    missed = [
        f"U+{cp:04X}"
        for cp in range(0x110000)
        if unicodedata.category(chr(cp)) in ("Cc", "Cf", "Zl", "Zp") and not has_hidden(chr(cp))
    ]
    assert missed == []
