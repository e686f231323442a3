"""Keys typed while a dialog opens wait for it: none is lost, none goes to the screen behind.

Textual gives a key to whatever has the focus at the moment the app reads it. A dialog is built in its own task
after it is pushed, and its first field gets the focus only then; a key read in between went to the screen behind
(where ``q`` quits and ``t`` changes the theme) or to a dialog with nothing focused (lost), and the slower the
machine, the more keys that is. So the app holds keys from the moment a dialog is on its way (``hold``: the key
that asks for it, or the push) until the dialog's first field has the focus (``release``), then hands them on in
the order they were typed, as if typed a moment later.
"""

from __future__ import annotations

from collections import deque
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from textual import events


class Hold:
    """One hold on the keys; ``release`` gives it back (once: a second call does nothing)."""

    def __init__(self, owner: KeyHold) -> None:
        self._owner = owner
        self.released = False

    def release(self) -> None:
        """The dialog it was taken for has the focus (or will not open)."""
        if not self.released:
            self.released = True
            self._owner._released()


class KeyHold:
    """Counts the dialogs on their way and keeps the keys typed meanwhile (see the module docstring)."""

    def __init__(self, replay: Callable[[], None]) -> None:
        self.holds = 0
        """How many holds are taken and not released yet."""
        self.keys: deque[events.Key] = deque()
        """The keys kept, oldest first."""
        self._replay = replay
        """Asks the app to hand the kept keys on (once every hold is released)."""

    def hold(self) -> Hold:
        """A dialog is on its way: keep the keys typed from now on, until the hold is released."""
        self.holds += 1
        return Hold(self)

    def _released(self) -> None:
        self.holds -= 1
        if self.holds == 0 and self.keys:
            self._replay()

    def take(self, key: events.Key) -> bool:
        """Keep ``key`` if keys are held, or if kept keys still wait to be handed on (a later key never overtakes
        an earlier one); False: the key goes on as usual."""
        if self.holds or self.keys:
            self.keys.append(key)
            return True
        return False

    def next_key(self) -> events.Key | None:
        """The oldest kept key to hand on now (None when there is none, or a new hold started meanwhile: a kept
        key opened another dialog, which the keys after it are for)."""
        return self.keys.popleft() if self.keys and not self.holds else None


@runtime_checkable
class HoldsKeys(Protocol):
    """An app that holds keys while a dialog opens (the inspector's app; a bare test host may not)."""

    key_hold: KeyHold


def hold_keys(app: object) -> Hold | None:
    """Hold the keys for a dialog about to open (None: this app does not hold keys). A key's action that asks for
    a dialog takes the hold and hands it on with its message; whoever opens the dialog (or decides not to)
    releases it."""
    return app.key_hold.hold() if isinstance(app, HoldsKeys) else None


@contextmanager
def released(hold: Hold | None) -> Iterator[None]:
    """Release ``hold`` when the block ends, however it ends: the dialog it was taken for is open, or will not be."""
    try:
        yield
    finally:
        if hold is not None:
            hold.release()
