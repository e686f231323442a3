"""Keys typed while the focus is on its way somewhere wait for it: none is lost, none goes to the wrong widget.

Textual gives a key to whatever has the focus at the moment the app reads it, and the focus moves later than the
key that moves it: a dialog is built in its own task after it is pushed, and its first field gets the focus only
then; ``Widget.focus()`` moves the focus one turn of the app later; a key that closes a dialog or submits a form
travels from the field up through its parents (a queue each) before the dialog's handler dismisses it. A key
read in between went to the screen behind (where ``q`` quits and ``s`` resends the highlighted call), to the field
being closed, or to nothing (lost), and the slower the machine, the more keys that is. So the app holds keys from
the moment the focus is on its way (``hold``: the key that asks for a dialog, the push, a key whose action runs)
until it has arrived (``release``), then hands them on in the order they were typed, as if typed a moment later.
``Settling`` is the app's side of the rule for keys: after which key it holds the next ones, and until when.
"""

from __future__ import annotations

import asyncio
from collections import deque
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final, Protocol, runtime_checkable

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from textual import events
    from textual.dom import DOMNode
    from textual.message_pump import MessagePump

PUSH_WAIT_S: Final = 5.0
"""A pushed screen that never ran (the app closing meanwhile) gives the keys back after this long."""
SETTLE_TURNS: Final = 500
"""At most this many turns of the event loop wait for a key to be handled, or for one round (then the keys go
on anyway: a screen flooded with a call's progress must not hold the typing for long)."""
SETTLE_ROUNDS: Final = 12
"""At most this many rounds wait for what a key caused (a message goes up one parent a round, or faster)."""
QUIET_ROUNDS: Final = 2
"""Rounds in a row that find every queue empty before the keys go on (one may end while a node is still busy
with a message it took off its queue, and passes something up as it finishes)."""


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


class Settling:
    """Holds the keys after a key until what that key set off has run (see the module docstring).

    ``after_action``: a priority key's action ran as the app read it; it may have moved the focus with
    ``Widget.focus()``, which takes effect one turn of the app later: the next keys wait for that turn.
    ``after_forward``: a key went to a widget, which handles it in its own task or passes it up through its
    parents to the app, where the widget's own bindings run (an input's enter, ctrl+u). The next keys wait until
    the key is handled (``returned`` to the app, or stopped by a widget), then until what it caused (a form's
    ``Submitted``, a dialog's dismissal, each a message from parent to parent) has been handled too: rounds of
    a callback queued behind every widget on the way, until two rounds find every queue empty; then one turn
    of the app (a focus moved meanwhile). ``after_push``: a screen was pushed; the keys wait until its
    ``on_mount`` ran (which sets the first focus), then one turn of the app.
    """

    def __init__(self, keys: KeyHold, call_later: Callable[..., Any]) -> None:
        self.keys = keys
        self._call_later = call_later
        """The app's ``call_later``: a callback run after everything the app was asked to do before it."""
        self._tasks: set[asyncio.Task[None]] = set()
        """The waits in progress (kept, so that none is collected before it ends)."""
        self._travelling: dict[int, asyncio.Future[None]] = {}
        """The keys on their way through the widgets, by id, each with what ``returned`` settles."""

    def after_action(self) -> None:
        hold = self.keys.hold()
        if not self._call_later(hold.release):
            hold.release()

    def after_forward(self, widget: DOMNode, key: events.Key) -> None:
        back = asyncio.get_running_loop().create_future()
        self._travelling[id(key)] = back
        self._wait(self._handled(key, back, list(widget.ancestors_with_self)))

    def returned(self, key: events.Key) -> None:
        """``key`` came back to the app from the widget it went to, and the app has run its bindings."""
        back = self._travelling.pop(id(key), None)
        if back is not None:
            _settle(back)

    def after_push(self, screen: MessagePump) -> None:
        mounted = asyncio.get_running_loop().create_future()
        # A callback posted to a screen not yet running runs after its compose and on_mount (its queue starts then).
        if screen.call_later(_settle, mounted):
            self._wait(self._then_a_turn(mounted))

    def _wait(self, waiting: Any) -> None:
        hold = self.keys.hold()
        task: asyncio.Task[None] = asyncio.ensure_future(waiting)
        self._tasks.add(task)

        def done(finished: asyncio.Task[None]) -> None:
            self._tasks.discard(finished)
            hold.release()

        task.add_done_callback(done)

    async def _handled(self, key: events.Key, back: asyncio.Future[None], chain: list[DOMNode]) -> None:
        try:
            # (a key stopped by a widget, a letter typed in a field, never comes back; one still bubbling has
            # not been stopped)
            for _ in range(SETTLE_TURNS):
                if back.done() or key._stop_propagation:
                    break
                await asyncio.sleep(0)
        finally:
            self._travelling.pop(id(key), None)
        quiet = 0
        for _ in range(SETTLE_ROUNDS):
            await self._round(chain)
            quiet = quiet + 1 if not any(_queued(node) for node in chain) else 0
            if quiet == QUIET_ROUNDS:
                break
        await self._a_turn()

    @staticmethod
    async def _round(chain: list[DOMNode]) -> None:
        """One callback queued behind what each node of ``chain`` has to handle, waited for (a node closed
        meanwhile, a dismissed dialog's, is not waited for)."""
        loop = asyncio.get_running_loop()
        waits: list[tuple[DOMNode, asyncio.Future[None]]] = []
        for node in chain:
            future = loop.create_future()
            if node.call_later(_settle, future):
                waits.append((node, future))
        for _ in range(SETTLE_TURNS):
            if all(future.done() or node._closed or node._closing for node, future in waits):
                return
            await asyncio.sleep(0)

    async def _then_a_turn(self, mounted: asyncio.Future[None]) -> None:
        try:
            await asyncio.wait_for(mounted, PUSH_WAIT_S)
        except TimeoutError:
            return
        await self._a_turn()

    async def _a_turn(self) -> None:
        turn = asyncio.get_running_loop().create_future()
        if self._call_later(_settle, turn):
            await turn


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _queued(node: DOMNode) -> bool:
    """The node has messages waiting (a closed node, a dismissed dialog's, has none that matter)."""
    return not (node._closed or node._closing) and node._message_queue.qsize() > 0
