"""Where the detail pane breaks a long line: at a space near the edge, else at the edge, continuations indented under
the line; nothing is lost. Pure."""

from __future__ import annotations

import pytest

from inspector.ui.widgets.wrapping import continuation_indent, wrap_points

RESULT = '      "text": "Weather in Paris for @octocat: 22°C, clear skies, light breeze from the west."'


def pieces(text: str, width: int) -> list[str]:
    starts = wrap_points(text, width)
    return [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]


def test_a_line_that_fits_is_one_piece() -> None:
    assert wrap_points("short", 40) == [0]


@pytest.mark.parametrize("width", [20, 33, 50, 79])
def test_a_long_line_breaks_at_spaces_and_keeps_every_character(width: int) -> None:
    parts = pieces(RESULT, width)
    assert "".join(parts) == RESULT
    indent = continuation_indent(RESULT, width)
    # (a space that ends a piece may sit just past the edge: it draws nothing)
    assert len(parts[0].rstrip()) <= width and all(len(part.rstrip()) <= width - indent for part in parts[1:])
    assert all(part.endswith(" ") for part in parts[:-1] if " " in part[1:])  # broken after a word


def test_a_word_longer_than_the_pane_is_cut_at_the_edge() -> None:
    token = "eyJ" + "x" * 100
    parts = pieces(token, 30)
    assert "".join(parts) == token and len(parts[0]) == 30


def test_wide_characters_count_as_two_cells() -> None:
    parts = pieces("天气" * 30, 20)
    assert "".join(parts) == "天气" * 30 and len(parts[0]) == 10


def test_a_number_keeps_its_unit() -> None:
    line = "complete · 2 rounds · server 215 ms · waited for you 6.0 s · 6.2 s in all"
    assert not any(part.startswith(("s ", "ms ", "rounds")) for part in pieces(line, 58)[1:])
