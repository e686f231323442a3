"""The timeline is kept out of the garbage collector's walks while the session lives, and given back when it closes.

``gc.get_objects()`` lists what the collector walks; frozen objects are not in it.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Sequence
from pathlib import Path

import pytest
from session_support import live_session

from inspector.session.heap import FreezingHeap

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)


def _walked(objects: Sequence[object]) -> int:
    ids = {id(o) for o in objects}
    return sum(1 for o in gc.get_objects() if id(o) in ids)


async def test_every_n_calls_the_timeline_so_far_is_frozen_and_closing_unfreezes_it(
    tmp_path: Path,
) -> None:
    async with live_session(tmp_path, "ok", heap=FreezingHeap(calls_per_freeze=3)) as live, asyncio.timeout(10):
        session = live.session
        calls = []
        for n in range(3):
            outcome = await session.call_tool("echo", {"n": n})
            calls.append(session.call(outcome.call_index))
        # the third call ended the stretch: the timeline so far is out of the collector's sight
        assert _walked(calls) == 0
        later = session.call((await session.call_tool("echo", {"n": 3})).call_index)
        assert _walked([later]) == 1, "a call after the freeze is walked as usual until the next one"
    assert gc.get_freeze_count() == 0, "closing the session unfroze everything"
    assert _walked([*calls, later]) == 4


async def test_a_short_session_leaves_the_startup_freeze_alone(tmp_path: Path) -> None:
    async with live_session(tmp_path, "ok", heap=FreezingHeap()) as live, asyncio.timeout(10):
        await live.session.call_tool("echo", {})
        assert gc.get_freeze_count() > 0
    # (objects the session alone held were freed on closing, frozen or not; the modules stay frozen)
    assert gc.get_freeze_count() > 0, "closing a session that froze no timeline does not unfreeze the modules"


async def test_the_validation_models_are_frozen_once_loaded(tmp_path: Path) -> None:
    heap = FreezingHeap()
    async with live_session(tmp_path, "ok", heap=heap) as live, asyncio.timeout(10):
        await live.session.call_tool("echo", {})  # the first response loads the official models to validate it
        from mcp_types.methods import SERVER_RESULTS

        assert _walked([SERVER_RESULTS]) == 0, "the models are out of the collector's walks"


async def test_a_load_run_walks_nothing_while_calling_and_still_freezes(tmp_path: Path) -> None:
    heap = FreezingHeap(calls_per_freeze=4)  # the fourth call is the last of the window below
    collections: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    async with live_session(tmp_path, "ok", heap=heap) as live, asyncio.timeout(10):
        session = live.session
        await session.call_tool("echo", {})  # the models loaded and frozen first
        calls = []
        gc.callbacks.append(count)
        try:
            with heap.calling():
                assert not gc.isenabled(), "no automatic collections in the calling window"
                for n in range(3):
                    calls.append(session.call((await session.call_tool("echo", {"n": n})).call_index))
        finally:
            gc.callbacks.remove(count)
        assert gc.isenabled(), "the collector is back on after it"
        assert collections == [], "not even the full collection before a freeze"
        assert _walked(calls) == 0, "the timeline so far was frozen all the same"
