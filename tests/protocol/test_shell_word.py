"""``sanitize.shell_word``: what ``export --as curl`` prints of a recording is one POSIX shell word that gives back
exactly the recorded bytes and shows a terminal nothing hidden (every class of ``tests_hostile.HOSTILE``)."""

from __future__ import annotations

import shlex
import subprocess

import pytest
from tests_hostile import HOSTILE

from inspector.protocol.sanitize import clean, has_hidden, shell_word

CASES = {
    **HOSTILE,
    "quotes, backslashes and printf's own": "it's a \\'quoted\\' \\033 %s %% \\x1b\x1b%d",
    "emoji and accents": "é 🚀",
    "only hidden": "\x1b\u202e",
    "tab and newline": "a\tb\nc",
}
RUN = {name: value for name, value in CASES.items() if "\x00" not in value}
"""NUL aside: no command line can carry it, quoted or not."""


@pytest.mark.parametrize("value", list(CASES.values()), ids=list(CASES))
def test_a_word_shows_nothing_hidden_and_plain_text_is_quoted_as_shlex_does(value: str) -> None:
    word = shell_word(value)
    assert clean(word) == word, f"a hidden character in {word!r}"
    if clean(value) == value:  # (tabs and newlines are layout: single quotes keep them)
        assert word == shlex.quote(value)
    else:
        assert has_hidden(value) and "\"$(printf '\\" in word


@pytest.mark.external  # (it runs the shells)
@pytest.mark.parametrize("shell", ["sh", "bash"])
@pytest.mark.parametrize("value", list(RUN.values()), ids=list(RUN))
def test_a_posix_shell_reads_the_word_back_as_exactly_the_bytes(value: str, shell: str) -> None:
    given = subprocess.run([shell, "-c", f"printf %s {shell_word(value)}"], capture_output=True, timeout=30, check=True)
    assert given.stdout == value.encode("utf-8")
