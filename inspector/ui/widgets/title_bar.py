"""``TitleBar``: the one-line bar that names a full screen (the login screen's, the lab's), styled in one place."""

from __future__ import annotations

from textual.widgets import Static


class TitleBar(Static):
    """A screen's title, bold on the panel colour across the top."""

    DEFAULT_CSS = """
    TitleBar { height: 1; padding: 0 1; background: $panel; color: $text; text-style: bold; }
    """
