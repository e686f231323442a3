"""The one sanitizer for server text: what reaches a terminal, a printed line, an error message or the clipboard.

Rich markup is never interpreted because every face builds ``rich.text.Text`` objects from server text; this module
takes care of what ``Text`` would still pass to the terminal, and of what a person could not see:

- C0 and C1 control characters, DEL, and so every escape sequence (ESC is shown as ``␛``, the rest of the sequence
  stays as the visible characters it is): nothing can clear the screen, move the cursor, set a title, or
  overwrite a line with a carriage return;
- format characters (Unicode category Cf): the bidi embeddings, overrides, isolates and marks that reorder what
  is shown ("trojan source"), zero-width spaces and joiners, the word joiner, the byte-order mark, soft hyphens,
  tag characters;
- line and paragraph separators (U+2028, U+2029), which some terminals and editors break lines on;
- characters that draw nothing but are letters or marks to Unicode (the Hangul fillers, the braille blank,
  variation selectors, the combining grapheme joiner), so that two names that look the same can be told apart.

Each is replaced by a visible stand-in: a control picture for C0 controls (``␛``, ``␍``, ``␀``), ``␡`` for DEL,
``⟨U+202E⟩`` for the others. Tabs are kept; newlines are kept in multi-line text and shown as ``⏎`` on one line.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Final

# Unicode's Cc, Cf, Zl and Zp (checked against ``unicodedata`` by tests/protocol/test_sanitize.py, with room for
# later Unicode versions), and the invisible letters and marks named in the module docstring.
_HIDDEN_RANGES: Final = (
    "\x7f-\x9f\xad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2"
    "\u115f\u1160\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u2800\u3164"
    "\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f\U000e0100-\U000e01ef"
)
_HIDDEN: Final = re.compile(f"[\x00-\x1f{_HIDDEN_RANGES}]")
_HIDDEN_BUT_LINES: Final = re.compile(f"[\x00-\x08\x0b-\x1f{_HIDDEN_RANGES}]")
"""Everything hidden but tab and newline (a carriage return is hidden: it would overwrite the line)."""
_NEWLINES: Final = re.compile("\r\n|\n")


def _stand_in(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode "control picture": ␛ for ESC, ␍ for CR, ␀ for NUL
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"⟨U+{code:04X}⟩"


def clean(text: str, *, keep_newlines: bool = True) -> str:
    """``text`` with every hidden or controlling character made visible; tabs are kept, and newlines (a CRLF is
    one newline) unless ``keep_newlines`` is False, when each is ``⏎``."""
    if _HIDDEN.search(text) is None:  # the common case: one scan, no copy
        return text
    if keep_newlines:
        return _HIDDEN_BUT_LINES.sub(_stand_in, text.replace("\r\n", "\n"))
    return _HIDDEN_BUT_LINES.sub(_stand_in, _NEWLINES.sub("⏎", text))


def one_line(text: str, limit: int | None = 200) -> str:
    """``clean(text)`` on one line (newlines as ⏎, tabs as spaces), cut to ``limit`` characters with an ellipsis."""
    flat = clean(text, keep_newlines=False).replace("\t", " ")
    if limit is not None and len(flat) > limit:
        return flat[: max(limit - 1, 0)] + "…"
    return flat


def has_hidden(text: str) -> bool:
    """True when ``text`` holds a character ``clean`` would replace (tabs and newlines count: a URL or a name has
    no business holding one)."""
    return _HIDDEN.search(text) is not None


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # (above the BMP: JSON spells it as its UTF-16 surrogate pair)
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def json_text(value: object, *, indent: int | None = 2) -> str:
    """``value`` as JSON text for a terminal or a pipe: every hidden character escaped as ``\\uXXXX``, so the text
    parses to exactly ``value`` and shows nothing that could style, move or disguise (``json.dumps`` with
    ``ensure_ascii=False`` passes C1 controls, bidi overrides, zero-width characters and U+2028 through raw).
    Outside strings JSON has only ASCII, so every such character is inside a string, where the escape is valid."""
    return _HIDDEN_IN_JSON.sub(_json_escape, json.dumps(value, ensure_ascii=False, indent=indent))


_HIDDEN_IN_JSON: Final = re.compile(f"[{_HIDDEN_RANGES}]")
"""What ``json.dumps`` leaves raw of the hidden characters (it escapes C0 itself; its own newlines are layout)."""


def shell_word(value: str) -> str:
    """``value`` as one POSIX shell word that gives back exactly its bytes and shows a terminal nothing hidden: the
    word ``shlex.quote`` makes when ``value`` holds no hidden character but tabs and newlines (layout, as in
    ``clean``); else single-quoted runs of its visible text joined to ``"$(printf '\\ooo...')"`` for each run of
    hidden characters, their UTF-8 bytes in octal (``printf`` is a builtin of every POSIX shell; its format holds
    nothing but those escapes). In single quotes a carriage return or an escape sequence would reach the terminal
    the command is printed to, and overwrite a line or set its clipboard. What ``export --as curl`` prints of a
    recording, all of it chosen by whoever wrote the recording. (NUL: no command line carries one, quoted or not.)"""
    if _HIDDEN_BUT_LINES.search(value) is None:
        return shlex.quote(value)
    words = []
    for position, run in enumerate(_HIDDEN_RUNS.split(value)):
        if position % 2:  # (split on a group: the hidden runs are the odd pieces)
            octal = "".join(f"\\{byte:03o}" for byte in run.encode("utf-8", "surrogatepass"))
            words.append(f"\"$(printf '{octal}')\"")
        elif run:
            words.append(shlex.quote(run))
    return "".join(words)


_HIDDEN_RUNS: Final = re.compile(f"({_HIDDEN_BUT_LINES.pattern}+)")
