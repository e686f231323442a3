"""The names of the demo's flaws and of the state key's variable, apart from the flaws themselves (which load the
MCP server SDK): the CLI names them in its help and checks its options without importing a server."""

from __future__ import annotations

from typing import Final

STATE_KEY_ENV: Final = "INSPECTOR_DEMO_STATE_KEY"
"""The secret every instance seals requestState with (at least 32 characters); unset: each process makes its own."""
TASK_DIR_ENV: Final = "INSPECTOR_DEMO_TASK_DIR"
"""The folder every instance keeps its tasks in (``demo/task_share.py``); unset: each process keeps its own."""
FLAWS: Final = (
    "sticky-state", "session-capabilities", "trusting-state", "own-key", "own-tasks", "unstable-order",
)  # fmt: skip
