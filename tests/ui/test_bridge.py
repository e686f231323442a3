"""The timeline bridge: timeline events become Textual messages named in the past tense, until it is closed."""

from __future__ import annotations

from textual.app import App
from textual.message import Message
from ui_support import wait_for

from inspector.session import records
from inspector.session.builder import TimelineBuilder
from inspector.ui.bridge import CallWasFinished, CallWasStarted, ConsoleWasAppended, TimelineBridge


class Sink(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.got: list[Message] = []

    def on_call_was_started(self, message: CallWasStarted) -> None:
        self.got.append(message)

    def on_call_was_finished(self, message: CallWasFinished) -> None:
        self.got.append(message)

    def on_console_was_appended(self, message: ConsoleWasAppended) -> None:
        self.got.append(message)


async def test_bridge_posts_past_tense_messages_until_closed() -> None:
    app = Sink()
    async with app.run_test() as pilot:
        builder = TimelineBuilder()
        bridge = TimelineBridge(builder.timeline, app)
        builder.apply(records.stderr(0.1, "hello"))
        builder.apply(records.call_started(0.2, 1, "tools/list", {}))
        builder.apply(records.call_ended(0.3, 1, "complete"))
        await wait_for(pilot, lambda: len(app.got) == 3)
        assert [type(m).__name__ for m in app.got] == ["ConsoleWasAppended", "CallWasStarted", "CallWasFinished"]
        bridge.close()
        builder.apply(records.stderr(0.4, "after close"))
        await pilot.pause()
        assert len(app.got) == 3
