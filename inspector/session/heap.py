"""Keeping long-lived objects out of the cyclic garbage collector's walks.

A full collection walks every tracked object, and it comes each time the tracked heap has grown by a quarter. A
session only adds to its heap (every message stays on the timeline), so without care each full collection walks
the whole session again: measured on 10,000 stdio tools/call round trips, 3 full collections took 126 ms (the
longest 72 ms, one round trip stalled for all of it), about 12 us per call, and the pauses grow with the session.

``gc.freeze()`` moves everything alive into a generation the collector never walks, and costs nothing itself (it
splices lists). It is used at three moments:

- the first connect: the modules, the app and the connection, alive until the process exits;
- after a validation model is loaded (the official models, ~100,000 objects imported on the first response);
- every ``CALLS_PER_FREEZE`` calls: the timeline so far. A full collection runs first, so what is garbage then is
  collected rather than kept; it walks only what was made since the previous freeze.

Something alive at a freeze that becomes cyclic garbage later would stay; so when a session that froze its timeline
closes, everything is unfrozen (``release_session``), and what it left behind goes to the next full collection.
"""

from __future__ import annotations

import gc

CALLS_PER_FREEZE = 1000
"""Calls between two freezes: each costs a full collection over the objects made since the previous one."""

_frozen = False
"""A freeze is in effect (made at a connect, or by ``call_finished``)."""
_timeline_frozen = False
"""``call_finished`` froze a timeline, which ``release_session`` must give back to the collector."""
_calls_since_freeze = 0


def freeze_at_connect() -> None:
    """A session connected: freeze what is alive (the modules, the app, the connection), unless that is done."""
    global _frozen, _calls_since_freeze
    _calls_since_freeze = 0
    if not _frozen:
        _frozen = True
        gc.freeze()


def freeze_loaded_models() -> None:
    """A validation model was just loaded: left in sight, the official models made each full collection a 100+ ms
    pause (5 full collections, 382 ms in all, during 8,000 stdio tools/call round trips)."""
    gc.freeze()


def call_finished() -> None:
    """Count a finished call; every ``CALLS_PER_FREEZE`` of them, collect and freeze the timeline so far."""
    global _calls_since_freeze, _frozen, _timeline_frozen
    _calls_since_freeze += 1
    if _calls_since_freeze >= CALLS_PER_FREEZE:
        _calls_since_freeze = 0
        gc.collect()
        gc.freeze()
        _frozen = _timeline_frozen = True


def release_session() -> None:
    """A session closed: if a timeline was frozen, unfreeze everything, so that it can be collected once dropped
    (the next connect freezes again). Sessions too short to freeze a timeline leave the freeze alone: unfreezing
    costs the next full collections a walk over every module."""
    global _frozen, _timeline_frozen
    if _timeline_frozen:
        _frozen = _timeline_frozen = False
        gc.unfreeze()
