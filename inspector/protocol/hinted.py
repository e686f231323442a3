"""``HintedError``: the one shape of an error a person can act on, whichever layer raises it."""

from __future__ import annotations


class HintedError(Exception):
    """What went wrong (``message``) and what to try (``hint``): every face prints both, the hint on its own line
    (the CLI's error lines, the TUI's error modal), so each error that reaches a person carries its way out."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
