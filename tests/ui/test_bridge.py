"""The timeline bridge: each timeline event reaches Textual as one message carrying it, until the bridge is closed."""

from __future__ import annotations

from textual.app import App
from ui_support import wait_for

from inspector.timeline import records
from inspector.timeline.build.builder import TimelineBuilder
from inspector.ui.bridge import TimelineBridge, TimelineChanged


class Sink(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.got: list[TimelineChanged] = []

    def on_timeline_changed(self, message: TimelineChanged) -> None:
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
        assert [type(m.event).__name__ for m in app.got] == ["ConsoleAppended", "CallStarted", "CallFinished"]
        assert all(m.timeline is builder.timeline for m in app.got)
        bridge.close()
        builder.apply(records.stderr(0.4, "after close"))
        await pilot.pause()
        assert len(app.got) == 3
