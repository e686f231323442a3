"""``AppSettings``: what the composition root chose for one run of the TUI, handed to the app as one object.

Plain data (no textual), so ``inspector.cli`` builds it without importing the TUI. What the app is opened on (a
target and the factory of its sessions, a preset session, or a recording) is not a setting: the app takes those
beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from inspector.ui.lab_port import LabFactory
    from inspector.ui.login.tui_login import ScreenLogin


@dataclass(frozen=True, slots=True)
class AppSettings:
    """The TUI's options; every one has the default the TUI runs with when it is not given."""

    theme: str | None = None
    """The theme to start with (None, or an unknown name: the inspector's default theme)."""
    record_path_text: str | None = None
    """Where the sessions record, as the header shows it (None: they do not record)."""
    config_dir: Path | None = None
    """Themes, recent targets and logins (None: the user's config folder)."""
    home: Path | None = None
    cwd: Path | None = None
    """Where the connect screen looks for other clients' server lists (None: the user's home, the current folder)."""
    roots: tuple[str | Path, ...] | None = None
    """The roots offered for roots/list (None: the current folder)."""
    stub_sampling: bool = False
    """Every sampling request is answered by the stub model without asking."""
    lab_factory: LabFactory | None = None
    """Makes the Lab screen's runs (None: no lab here)."""
    login: ScreenLogin | None = None
    """How a person logs in to a server behind OAuth (the sessions' factory was given the same one)."""
