"""The footer of every screen: Textual's ``Footer``, rebuilt only when the keys it shows change.

Why: ``Footer`` rebuilds all its key widgets (and restyles each) on every bindings update of its screen, and a
screen's bindings are updated on each focus move, each highlighted call, each state change of a running call,
whether or not a shown key changed. Profiled on two main-screen tests, the footer was rebuilt 44 times, 1,438 key
widgets made and styled: 3.8 s of 15 s (about 40 ms a rebuild without the profiler), on the loop that also reads
the keys typed. ``tests/ui/test_units.py`` checks that a change of keys still shows and that an unchanged set does
not rebuild.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

KeysShown = tuple[tuple[str, str, str, str, bool, str, str | None], ...]
"""Each shown binding: key, its display, description, action, enabled, tooltip, and its group's description."""


class KeyFooter(Footer):
    """A ``Footer`` that skips a rebuild when the bindings it would show are those it shows."""

    _shown: KeysShown | None = None
    """The keys laid out by the last rebuild (None: none yet)."""
    rebuilds = 0
    """How many times the keys were laid out anew (what the tests count)."""
    _rebuild_pending = False
    """A rebuild is scheduled for after the next refresh."""

    def keys_shown(self) -> KeysShown:
        """What ``compose`` would show now, as plain values to compare."""
        app = self.app
        shown = [
            (
                binding.key,
                app.get_key_display(binding),
                binding.description,
                binding.action,
                enabled,
                tooltip,
                binding.group.description if binding.group is not None else None,
            )
            for (_node, binding, enabled, tooltip) in self.screen.active_bindings.values()
            if binding.show
        ]
        return tuple(shown)

    def compose(self) -> ComposeResult:
        if self._bindings_ready:
            self._shown = self.keys_shown()
            self.rebuilds += 1
        composed: Iterable[Widget] = super().compose()
        for widget in composed:
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                # (a FooterKey starts compact and is bound to the footer's: each of them was restyled twice on every
                # rebuild, to "-compact" and back; set to the footer's value before it mounts, it is styled once.
                # The command palette's key is not bound: it stays as Textual has it)
                widget.set_reactive(FooterKey.compact, self.compact)
            yield widget

    def bindings_changed(self, screen: Screen[object]) -> None:
        # (Footer schedules a rebuild after the next refresh for each change; three changes before that refresh,
        # as connecting makes, rebuilt the keys three times. One rebuild is pending at most, and it compares the
        # keys when it runs: a burst of changes costs one rebuild, or none when the keys came back as they were)
        self._bindings_ready = True
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen or self._rebuild_pending:
            return
        self._rebuild_pending = True
        self.call_after_refresh(self._rebuild_if_changed)

    async def _rebuild_if_changed(self) -> None:
        self._rebuild_pending = False
        if not self.is_attached:
            return  # (its screen closed meanwhile)
        if self._shown is not None and self.keys_shown() == self._shown:
            return  # (the same keys: nothing to rebuild)
        await self.recompose()
