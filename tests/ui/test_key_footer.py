"""The footer shows the keys that work where you are, and is rebuilt only when they change (each rebuild makes and
styles every key widget again, on the loop that reads the keys typed)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Button
from textual.widgets._footer import FooterKey

from inspector.ui.widgets.key_footer import KeyFooter


class TwoButtons(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "unfold", "unfold"), Binding("k", "cancel", "cancel")]

    def __init__(self) -> None:
        super().__init__()
        self.running = False

    def compose(self) -> ComposeResult:
        yield Button("one", id="one")
        yield Button("two", id="two")
        yield KeyFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.running if action == "cancel" else True


def shown(app: App[None]) -> list[str]:
    return [key.description for key in app.screen.query(FooterKey)]


async def test_moving_the_focus_keeps_the_keys_and_a_change_of_keys_shows() -> None:
    app = TwoButtons()
    async with app.run_test() as pilot:
        footer = app.screen.query_one(KeyFooter)
        await pilot.pause()
        assert "unfold" in shown(app) and "cancel" not in shown(app)
        before = footer.rebuilds
        for _ in range(4):
            await pilot.press("tab")
            await pilot.pause()
        assert footer.rebuilds == before, "the same keys after each focus move: nothing rebuilt"
        app.running = True
        app.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert "cancel" in shown(app) and footer.rebuilds == before + 1
