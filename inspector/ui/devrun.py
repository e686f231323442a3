"""``python -m inspector.ui.devrun``: the TUI on a scripted session (no server), for looking at the UI by hand."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from inspector.ui.app import InspectorApp
from inspector.ui.scripted import ScriptedSession
from inspector.ui.target import Target

if TYPE_CHECKING:
    from inspector.answers.base import AnswerSource
    from inspector.ui.session_port import SessionPort


def factory(target: Target, answers: AnswerSource) -> SessionPort:
    """A scripted session with a hostile tool and a screen-clearing stderr line, to check they show literally."""
    return ScriptedSession(
        answers, hostile=True, stderr=("demo server starting", "\x1b[2J\x1b[31m[bold red]not red[/]"), delay=0.05
    )


def main() -> int:
    """Run the app on the scripted session."""
    theme = sys.argv[1] if len(sys.argv) > 1 else None
    app = InspectorApp(factory, Target.from_spec("python -m inspector.demo", name="scripted demo"), theme)
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
