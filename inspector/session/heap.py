"""Keeping long-lived objects out of the cyclic garbage collector's walks: the policy a session is given.

A full collection walks every tracked object, and it comes each time the tracked heap has grown by a quarter. A
session only adds to its heap (every message stays on the timeline), so without care each full collection walks
the whole session again: measured on 10,000 stdio tools/call round trips, 3 full collections took 126 ms (the
longest 72 ms, one round trip stalled for all of it), about 12 us per call, and the pauses grow with the session.
``tests/perf/bench_stdio.py`` is the benchmark that justifies it.

``gc.freeze()`` moves everything alive into a generation the collector never walks, and costs nothing itself (it
splices lists). ``FreezingHeap`` uses it at three moments:

- the first connect: the modules, the app and the connection, alive until the process exits;
- once the validation models are loaded (the official models, ~100,000 objects imported on the first response, in a
  process whose cache folder does not hold their schemas yet: ``timeline.result_models``; read from the cache, the
  validators are a few objects and there is nothing to freeze): left in sight, they made each full collection a
  100+ ms pause (5 full collections, 382 ms in all, during 8,000 stdio tools/call round trips);
- every ``calls_per_freeze`` calls: the timeline so far. A full collection runs first, so what is garbage then is
  collected rather than kept; it walks only what was made since the previous freeze.

Something alive at a freeze that becomes cyclic garbage later would stay; so when a session that froze its timeline
closes, everything is unfrozen, and what it left behind goes to the next full collection.

A load run (``inspector load``) is a stretch of nothing but calls, which the timeline lets go of once they ended
(``SessionLog.forget_ended``): ``calling`` turns the collector off for it, and each ``calls_per_freeze`` calls only
freezes (no full collection first), so the calling window walks nothing. Its calls made no cyclic garbage to find
(every collection during a 20,000-call run at concurrency 10 collected 0 objects); any they did make stays, frozen,
until the session closes and unfreezes it.
Measured on ``tests/perf/bench_load.py``'s echo server (``tests/perf/bench_instructions.py --as-load``): see
``calling``.

The policy is a process-wide choice, so the composition root attaches it (``inspector.cli``); a session built
without one (tests, use as a library) leaves the collector alone.
"""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Iterator
from typing import Final, Protocol

CALLS_PER_FREEZE: Final = 1000
"""Calls between two freezes: each costs a full collection over the objects made since the previous one."""
VALIDATION_MODELS: Final = "mcp_types.methods"
"""The module whose import brings in the official models (imported on the first response to validate, when the
cache folder does not hold their schemas yet)."""


class HeapPolicy(Protocol):
    """What a session tells the heap: connected, a call finished, closed."""

    def connected(self) -> None: ...

    def call_finished(self) -> None: ...

    def session_closed(self) -> None: ...


class FreezingHeap:
    """Freezes what lives long (see the module docstring); one per process, shared by its sessions."""

    def __init__(self, calls_per_freeze: int = CALLS_PER_FREEZE) -> None:
        self.calls_per_freeze = calls_per_freeze
        self._frozen = False
        """A freeze is in effect (made at a connect, or after ``calls_per_freeze`` calls)."""
        self._timeline_frozen = False
        """A timeline was frozen, which ``session_closed`` must give back to the collector."""
        self._models_frozen = False
        self._calls = 0
        self._calling = False
        """In a load run (``calling``): the collector is off, and a freeze is made without a collection."""

    def connected(self) -> None:
        """Freeze what is alive (the modules, the app, the connection), unless that is done."""
        self._calls = 0
        if not self._frozen:
            self._frozen = True
            gc.freeze()

    def call_finished(self) -> None:
        """Freeze the validation models once they are loaded; every ``calls_per_freeze`` calls, collect and freeze
        the timeline so far."""
        if not self._models_frozen and VALIDATION_MODELS in sys.modules:
            self._models_frozen = True
            gc.freeze()
        self._calls += 1
        if self._calls >= self.calls_per_freeze:
            self._calls = 0
            if not self._calling:
                gc.collect()
            gc.freeze()
            self._frozen = self._timeline_frozen = True

    @contextlib.contextmanager
    def calling(self) -> Iterator[None]:
        """A load run's calling window: no collections at all (see the module docstring); the collector is back on
        after it, as it was. ``tests/perf/bench_instructions.py --as-load --concurrency 10`` counts the cost this
        takes away: the young collections and the full one before each freeze, which walk every new object again
        though a load run keeps nearly all it makes."""
        if not gc.isenabled():
            yield
            return
        gc.disable()
        self._calling = True
        try:
            yield
        finally:
            self._calling = False
            gc.enable()

    def session_closed(self) -> None:
        """If a timeline was frozen, unfreeze everything, so that it can be collected once dropped (the next
        connect freezes again). Sessions too short to freeze a timeline leave the freeze alone: unfreezing costs
        the next full collections a walk over every module."""
        if self._timeline_frozen:
            self._frozen = self._timeline_frozen = False
            gc.unfreeze()
