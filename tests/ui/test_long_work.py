"""Long-running work in the TUI: task calls (their polls folded into one row, unfolded one row each, the updates
with who answered, the task on the detail pane), progress bars, cancelling (sent at once, "cancelling" then
"cancelled", a task's tasks/cancel, late replies, every round ended), the tasks toggle, the catalog's kinds not
offered, and session rows. Pilot tests on the real ``InspectorSession`` over the memory transport, to the demo or to
a scripted server (``scripted.py``) that holds its replies until the test lets them go; nothing sleeps."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import peers
import pytest
from recording_support import record_session, replay_app
from scripted import Exchange, Json, Script, ScriptedTask, text, tool
from textual.widgets import OptionList
from ui_support import DEMO, SIZE, FixedAnswers, connected, detail_shows_now, finished_call, make_app, wait_for

from inspector.answers.source import Answer
from inspector.demo.task_model import SCALE_ENV
from inspector.timeline.model import Call
from inspector.ui.composer.call_composer import CallRequest
from inspector.ui.detail.call_document import round_document
from inspector.ui.detail.detail_view import DetailView
from inspector.ui.keys import gather_keys
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.modals.elicitation import ElicitationModal
from inspector.ui.widgets.call_keys import CallKeys
from inspector.ui.widgets.catalog import Catalog
from inspector.ui.widgets.session_header import SessionHeader
from inspector.ui.widgets.timeline_rows import Row, RowLook, render_row
from inspector.ui.widgets.timeline_view import TimelineView

APPROVED = {"approve_release": {"action": "accept", "content": {"approved": True}}}
RELEASE_STEPS = [
    ("working", "building"),
    ("working", "building"),
    ("working", "testing"),
    ("input_required", "waiting for approve_release"),
    ("working", "releasing"),
    ("completed", "done"),
]
FOREVER = [("working", "building")]
SnapCompare = Callable[..., bool]
LEGACY_DEMO = DEMO.__class__.from_spec("python -m inspector.demo", name="demo", era="legacy")


def row_text(view: TimelineView, row: Row) -> str:
    """What a row of the timeline says (at a width where nothing is cut)."""
    view.ensure_rows()
    return render_row(row, view.timeline, view.expanded, RowLook(200, view.palette(), view.columns), view.work).plain


def call_rows(view: TimelineView, call: int) -> list[Row]:
    view.ensure_rows()
    return [row for row in view.rows if row.call == call]


def task_app(tmp_path: Path, task: ScriptedTask, answers: Any = None) -> tuple[Any, Script]:
    script = Script(tools=[tool("deploy_release", "A task")], handlers=task.handlers())
    app = make_app(tmp_path, peer=script.peer, answers=answers or FixedAnswers(APPROVED))
    return app, script


async def running_call(pilot: Any, name: str, started: asyncio.Event) -> tuple[MainScreen, Call]:
    """Start tool ``name``; once ``started`` is set (the server has it), highlight it on the focused timeline."""
    screen = await connected(pilot)
    screen.run_call(CallRequest("tools", name, {}))
    await wait_for(pilot, started.is_set)
    await wait_for(pilot, lambda: screen.timeline.calls[-1].name == name and bool(screen.timeline.calls[-1].rounds))
    call = screen.timeline.calls[-1]
    screen.timeline_view.focus()
    screen.timeline_view.select_call(call.index)
    await wait_for(pilot, lambda: screen.selected == (call.index, 0))
    return screen, call


def watch_sends(screen: MainScreen) -> list[str]:
    """The methods the session hands its transport from now on, as it hands them (a list that grows)."""
    sent: list[str] = []
    session = screen.session
    assert session is not None
    transport = session.transport  # type: ignore[attr-defined]
    send = transport.send

    async def recording(message: Any) -> None:
        sent.append(message.method)
        await send(message)

    transport.send = recording
    return sent


def every_round_ended(call: Call) -> bool:
    """No round of the call is left pending: each has its reply, or says how its call ended."""
    return all(r.response is not None or r.abandoned is not None or r.kind != "request" for r in call.rounds)


# ---------------------------------------------------------------------------------------------------- tasks
async def test_a_task_call_folds_its_polls_into_one_row_and_unfolds_them(tmp_path: Path) -> None:
    app, _ = task_app(tmp_path, ScriptedTask(RELEASE_STEPS))
    async with app.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "deploy_release", {})
        call = screen.timeline.calls[-1]
        view = screen.timeline_view
        assert call.status == "complete" and call.task is not None
        update = next(r for r in call.rounds if r.method == "tasks/update")
        # Unfolded (it ran several rounds): the creation, one row for the six polls, the update with who answered.
        rows = call_rows(view, call.index)
        assert rows == [
            Row(call.index, 0, 0),
            Row(call.index, 1, 0),
            Row(call.index, 0, 0, "polls"),
            Row(call.index, update.index, 0),
            Row(call.index, update.index, 1),
        ]
        assert "6 polls · working → input_required → working → completed · every 50 ms" in row_text(view, rows[2])
        assert "task working · building" in row_text(view, rows[1])
        assert f"id {update.request_id} tasks/update → approve_release by you" in row_text(view, rows[3])
        assert row_text(view, rows[4]).strip() == "answered approve_release: approved=true (you)"
        # space on the polls row shows every poll, in wire order among the other rounds.
        view.focus()
        view.cursor = view.rows.index(rows[2])
        await pilot.press("space")
        unfolded = call_rows(view, call.index)
        polls = [r for r in call.rounds if r.method == "tasks/get"]
        assert [row.round for row in unfolded if row.line == 0 and row.round] == [r.index for r in call.rounds]
        assert len(polls) == 6
        said = [row_text(view, Row(call.index, poll.index, 0)) for poll in polls]
        assert f"id {polls[0].request_id} → working · building" in said[0] and "→ completed · done" in said[-1]
        assert "input_required · waiting for approve_release  approve_release" in said[3]
        assert all(" retry" not in line for line in said), "a poll is no retry"
        await pilot.press("space")
        assert call_rows(view, call.index) == rows
        # The call's detail: the task, its status history by request id, its TTL and poll interval, its result.
        view.cursor = view.rows.index(rows[0])
        # (The polls row is the call's round 0 too: selected said so already. Wait for the ended task shown.)
        detail = screen.query_one(DetailView)
        status = "status completed · 6 polls · working → input_required → working → completed"
        await wait_for(pilot, lambda: screen.selected == (call.index, 0) and status in detail.plain_lines)
        lines = detail.plain_lines
        assert "id task-7f3a · the 2026-07-28 Tasks extension" in lines
        assert any("kept 1.0 min from creation (60,000 ms) · poll every 50 ms" in line for line in lines)
        history = lines[lines.index("─ status history (7) ") + 1 :]
        assert history[0].endswith("working · building  (created, id 3)")
        assert "working · building ×2  (polls, ids 4-5)" in history[1]
        assert "asks approve_release" in history[3]
        assert any("Released v1.2 to production (approved)." in line for line in lines)


async def test_the_demo_task_runs_through_its_approval_prompt(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv(SCALE_ENV, "0.2")  # the demo's task works for 0.6 s instead of 3
    app = make_app(tmp_path, interactive=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        screen.run_call(CallRequest("tools", "deploy_release", {"version": "1.2"}))
        for key in ("environment", "approve_release"):  # asked before the task (MRTR), then by the task
            await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
            modal = app.screen
            assert isinstance(modal, ElicitationModal)
            assert key in str(modal.asked.key)
            await pilot.press("ctrl+enter")  # accept what the form shows (its defaults)

            def closed(shown: object = modal) -> bool:
                return app.screen is not shown

            await wait_for(pilot, closed)
        await wait_for(pilot, lambda: screen.timeline.calls[-1].ended)
        call = screen.timeline.calls[-1]
        assert call.status == "complete", call.status_detail
        assert call.task is not None and "input_required" in call.task.changes()
        assert call.rounds[0].result_type == "input_required"  # the MRTR round sits before the task span
        view = screen.timeline_view
        update = next(r for r in call.rounds if r.method == "tasks/update")
        assert "approve_release by you" in row_text(view, Row(call.index, update.index, 0))
        assert f"polls · {' → '.join(call.task.changes())}" in row_text(view, Row(call.index, 0, 0, "polls"))


async def test_another_call_runs_beside_one_in_flight_and_cancels_nothing(tmp_path: Path) -> None:
    """A call made while another is in flight (a long tool call here; a task being followed alike) runs beside it:
    each ends as the server ended it, and nothing is cancelled on the wire (before, the one worker for calls was
    exclusive, so a new call cancelled the running one)."""
    started, release = asyncio.Event(), asyncio.Event()

    async def handle(exchange: Exchange) -> Json:
        if exchange.params.get("name") == "add":
            return text("5")
        started.set()
        await release.wait()
        return text("built")

    script = Script(tools=[tool("build"), tool("add")], handlers={"tools/call": handle})
    app = make_app(tmp_path, peer=script.peer)
    async with app.run_test(size=SIZE) as pilot:
        screen, first = await running_call(pilot, "build", started)
        sent = watch_sends(screen)
        screen.run_call(CallRequest("tools", "add", {}))
        await wait_for(pilot, lambda: screen.timeline.calls[-1].index > first.index and screen.timeline.calls[-1].ended)
        assert screen.timeline.calls[-1].status == "complete"
        assert not first.ended, "the first call is still in flight"
        release.set()
        await wait_for(pilot, lambda: first.ended)
        assert first.status == "complete", first.status_detail
        assert "notifications/cancelled" not in sent and "tasks/cancel" not in sent, sent


# ---------------------------------------------------------------------------------------------------- progress
async def test_a_running_call_shows_its_progress_bar_live(tmp_path: Path) -> None:
    started, more, done = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def build(exchange: Exchange) -> Json:
        await exchange.progress(3, 5, "testing")
        started.set()
        await more.wait()
        await exchange.progress(4, 5, "packaging")
        await done.wait()
        return text("built")

    script = Script(tools=[tool("build")], handlers={"tools/call": build})
    app = make_app(tmp_path, peer=script.peer)
    async with app.run_test(size=SIZE) as pilot:
        screen, call = await running_call(pilot, "build", started)
        view = screen.timeline_view
        head = Row(call.index, 0, 0)
        await wait_for(pilot, lambda: "3/5" in row_text(view, head))
        assert "━━━━━╌╌╌ 3/5 testing" in row_text(view, head)
        more.set()
        await wait_for(pilot, lambda: "4/5" in row_text(view, head))
        assert "━━━━━━╌╌ 4/5 packaging" in row_text(view, head)
        done.set()
        await wait_for(pilot, lambda: call.ended)
        assert "━" not in row_text(view, head) and call.status == "complete"


async def test_a_cancelled_slow_count_says_no_reply_once_and_keeps_one_progress_line(tmp_path: Path) -> None:
    """The demo's slow_count, cancelled with k after a few steps: its round had a row per progress notification
    (88 for one run) and "no reply" three times (the call's time, the round's outcome, the round's time). Now
    one line under the round says the latest progress and how many came, and the round says "no reply" once."""
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        screen.run_call(CallRequest("tools", "slow_count", {"n": 200}))

        def progress_count() -> int:
            call = screen.timeline.calls[-1]
            notes = call.rounds[0].notifications if call.name == "slow_count" and call.rounds else None
            return notes.of("notifications/progress") if notes is not None else 0

        await wait_for(pilot, lambda: progress_count() >= 3)
        call = screen.timeline.calls[-1]
        view = screen.timeline_view
        view.focus()
        view.select_call(call.index)
        await wait_for(pilot, lambda: screen.selected == (call.index, 0))
        await pilot.press("space")  # unfolded while it counts: the rows stay put
        await wait_for(pilot, lambda: progress_count() >= 5)
        assert call_rows(view, call.index) == [Row(call.index, 0, 0), Row(call.index, 1, 0), Row(call.index, 1, 1)]
        screen.query_one(CallKeys).action_cancel_call()
        await wait_for(pilot, lambda: call.ended)
        assert call.status == "cancelled"
        rows = call_rows(view, call.index)
        said = [row_text(view, row) for row in rows]
        count = progress_count()  # (read with the rows: progress sent before the cancel arrived comes in late)
        progress = [line.strip() for line in said if "progress" in line and "late-notification" not in line]
        assert progress == [f"│   progress {count}/200 counted {count} of 200 · {count} notifications"]
        assert said[1].split("→")[1].split()[:2] == ["no", "reply"]  # and its time column is empty
        assert said[0].split()[-2:] == ["no", "reply"] and "cancelled" in said[0]
        # The round's detail: no reply, never "pending" once its call has ended.
        told = [text for _, text in round_document(call, call.rounds[0]).lines]
        assert told[1].startswith("tools/call → no reply from the server"), told[1]
        assert sum(line.count("no reply") for line in said) == 2  # the call's time column and its round: once each


# ---------------------------------------------------------------------------------------------------- cancel
async def test_k_on_a_task_sends_tasks_cancel_at_once_while_its_poll_waits(tmp_path: Path) -> None:
    hold = asyncio.Event()
    task = ScriptedTask(FOREVER, hold=hold)
    app, script = task_app(tmp_path, task)
    async with app.run_test(size=SIZE) as pilot:
        screen, call = await running_call(pilot, "deploy_release", task.polled)
        keys = screen.query_one(CallKeys)
        view = screen.timeline_view
        assert keys.check_action("cancel_call", ()) is True
        await wait_for(pilot, lambda: call.rounds[-1].method == "tasks/get")
        poll = call.rounds[-1]
        assert poll.response is None and not hold.is_set()  # a poll is out, and the server holds its reply
        sent = watch_sends(screen)
        keys.action_cancel_call()  # k, as the app runs it
        # Before anything else ran: tasks/cancel is with the transport, the row says "cancelling", k is not offered.
        assert sent == ["tasks/cancel"]
        assert "cancelling" in row_text(view, Row(call.index, 0, 0))
        assert keys.check_action("cancel_call", ()) is False  # pressing k again would do nothing
        # The server has it while it still holds the poll's reply: no round trip came before the cancel.
        await wait_for(pilot, lambda: "tasks/cancel" in script.methods())
        assert not hold.is_set() and poll.response is None
        assert script.methods()[-2:] == ["tasks/get", "tasks/cancel"]
        hold.set()
        await wait_for(pilot, lambda: call.ended)
        assert call.status == "cancelled"
        for round_ in call.rounds:  # ended as soon as the cancel's answer said so: no round of it says pending
            assert "pending" not in row_text(view, Row(call.index, round_.index, 0))
        await wait_for(pilot, lambda: every_round_ended(call))
        assert call.task is not None and call.task.changes() == ["working", "cancelled"]
        assert "cancelled" in row_text(view, Row(call.index, 0, 0)).split("deploy_release")[1]
        assert keys.check_action("cancel_call", ()) is False


async def test_a_task_that_completes_anyway_says_what_it_did(tmp_path: Path) -> None:
    hold = asyncio.Event()
    steps = [("working", "building"), ("working", "building"), ("completed", "done")]
    task = ScriptedTask(steps, completes_anyway=True, hold=hold)
    app, script = task_app(tmp_path, task)
    async with app.run_test(size=SIZE) as pilot:
        screen, call = await running_call(pilot, "deploy_release", task.polled)
        await pilot.press("k")  # while the first poll is held: the task has not ended yet
        await wait_for(pilot, lambda: "tasks/cancel" in script.methods())
        hold.set()
        await wait_for(pilot, lambda: not [w for w in screen.workers if w.group == "call" and w.is_running])
        assert call.status == "complete" and call.status_detail == "cancel was asked, and the task completed anyway"
        cancel = next(r for r in call.rounds if r.method == "tasks/cancel")
        assert call.task is not None and call.task.cancel_round == cancel.index
        screen.timeline_view.select_call(call.index)
        await wait_for(pilot, lambda: screen.selected == (call.index, 0))
        # The detail is drawn again once the call's last change is handled (a queued redraw, not at once).
        detail = screen.query_one(DetailView)
        said = f"cancel asked (id {cancel.request_id}; cooperative): the task completed"
        await wait_for(pilot, lambda: said in detail.plain_lines)
        assert detail.plain_lines[1].startswith("complete"), detail.plain_lines[1]


async def test_k_on_a_call_says_cancelling_then_cancelled_and_a_late_reply_is_marked(tmp_path: Path) -> None:
    started, release = asyncio.Event(), asyncio.Event()

    async def stubborn(exchange: Exchange) -> Json:
        started.set()
        try:
            await asyncio.Future()
        except asyncio.CancelledError:  # told to stop: it answers anyway, later (a late reply)
            await release.wait()
            await exchange.out.write(f'{{"jsonrpc":"2.0","id":{exchange.id},"result":{{"content":[]}}}}\n')
        raise AssertionError("unreachable")

    script = Script(tools=[tool("stubborn")], handlers={"tools/call": stubborn})
    app = make_app(tmp_path, peer=script.peer)
    async with app.run_test(size=SIZE) as pilot:
        screen, call = await running_call(pilot, "stubborn", started)
        view, keys = screen.timeline_view, screen.query_one(CallKeys)
        sent = watch_sends(screen)
        keys.action_cancel_call()
        assert sent == ["notifications/cancelled"]  # with the transport before the key's action returned
        assert view.work.status(call) == "cancelling"
        assert "cancelling" in row_text(view, Row(call.index, 0, 0))
        await wait_for(pilot, lambda: "notifications/cancelled" in script.methods())
        await wait_for(pilot, lambda: call.ended)
        assert call.status == "cancelled" and every_round_ended(call)
        assert row_text(view, Row(call.index, 1, 0)).split("→")[1].split() == ["no", "reply"]
        release.set()
        await wait_for(pilot, lambda: call.rounds[0].late)
        assert call.status == "cancelled"  # a late reply is shown, and changes nothing
        assert row_text(view, Row(call.index, 1, 0)).split("→")[1].strip().startswith("complete  late")


@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_k_before_the_task_id_came_cancels_the_task_on_the_server(
    tmp_path: Path, monkeypatch: Any, era: str
) -> None:
    """k on nightly_build while its tools/call waits for its reply, which the demo already wrote (the task runs on
    the server; ``TaskReplyHold`` holds the reply as a pipe would). The cancel is remembered: once the reply names
    the task, tasks/cancel leaves before any poll; the row says "cancelling" until the server reports the task
    cancelled, and a tasks/get of the task afterwards finds it cancelled on the server, not working."""
    monkeypatch.setenv(SCALE_ENV, "1")  # the task works 2.5 s: it cannot end by itself before the cancel
    hold = peers.TaskReplyHold()
    app = make_app(tmp_path, peer=hold.peer, target=DEMO if era == "modern" else LEGACY_DEMO)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        screen.run_call(CallRequest("tools", "nightly_build", {}))
        await wait_for(pilot, hold.held.is_set)
        call = screen.timeline.calls[-1]
        assert call.name == "nightly_build" and call.task is None, "the client has not read the task's id"
        sent = watch_sends(screen)
        screen.query_one(CallKeys).action_cancel_call()  # k, as the app runs it
        # 2025: a task-augmented request is cancelled with tasks/cancel only, never notifications/cancelled; 2026:
        # the server may answer without a task, so the request itself is cancelled too (over stdio, a notice).
        assert sent == ([] if era == "legacy" else ["notifications/cancelled"])
        assert "cancelling" in row_text(screen.timeline_view, Row(call.index, 0, 0))
        hold.release.set()
        await wait_for(pilot, lambda: call.ended)
        methods = [r.method for r in call.rounds]
        assert methods[:2] == ["tools/call", "tasks/cancel"], methods  # at once: no poll before it
        assert methods.count("tasks/cancel") == 1 and "notifications/cancelled" not in sent[1:]
        assert call.status == "cancelled", (call.status, call.status_detail)
        assert call.task is not None and call.task.changes()[-1] == "cancelled"
        await wait_for(pilot, lambda: every_round_ended(call))
        assert "cancelled" in row_text(screen.timeline_view, Row(call.index, 0, 0)).split("nightly_build")[1]
        session = screen.session
        assert session is not None and hold.task_id
        looked = await session.look_at_task(hold.task_id)
        assert (looked.result or {}).get("status") == "cancelled", looked.result


# ---------------------------------------------------------------------------------------------------- tasks toggle
async def test_the_tasks_toggle_stops_declaring_the_extension(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv(SCALE_ENV, "0.2")
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        screen.timeline_view.focus()
        header = screen.query_one(SessionHeader)
        await pilot.press("T")
        assert screen.live is not None and screen.live.tasks is False
        assert "Tasks extension not declared (T)" in str(header.render())
        refused = await finished_call(pilot, "nightly_build", {})
        call = refused.timeline.calls[-1]
        assert call.status == "error" and call.task is None and "-32021" in call.status_detail
        meta = (call.rounds[0].request.message or {})["params"]["_meta"]
        extensions = meta["io.modelcontextprotocol/clientCapabilities"]["extensions"]
        assert extensions == {"io.modelcontextprotocol/skills": {}}, "every extension but Tasks still declared"
        await pilot.press("T")
        assert "Tasks extension" not in str(header.render())
        await finished_call(pilot, "nightly_build", {})
        again = screen.timeline.calls[-1]
        assert again.status == "complete" and again.task is not None


async def test_the_tasks_toggle_on_a_legacy_server_sends_no_params_task(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv(SCALE_ENV, "0.2")
    app = make_app(tmp_path, target=LEGACY_DEMO, answers=FixedAnswers())
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        screen.timeline_view.focus()
        await pilot.press("T")
        header = str(screen.query_one(SessionHeader).render())
        assert "params.task not sent (T)" in header and "extension" not in header, "2025 has no extension to drop"
        await finished_call(pilot, "nightly_build", {})  # task-required: refused without params.task
        call = screen.timeline.calls[-1]
        assert "task" not in (call.rounds[0].request.message or {})["params"]
        assert call.task is None and call.status == "error"


# ---------------------------------------------------------------------------------------------------- catalog
async def test_a_kind_the_server_did_not_declare_is_not_offered_and_never_asked(tmp_path: Path) -> None:
    script = Script(tools=[tool("only_tool")], capabilities={"tools": {}})
    app = make_app(tmp_path, peer=script.peer)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        catalog = screen.query_one(Catalog)
        assert catalog.not_offered == {"prompts", "resources", "templates"}
        assert catalog.visible_names == ["only_tool"]
        assert [m for m in script.methods() if m.endswith("/list")] == ["tools/list"]
        headings = [
            str(option.prompt) for option in catalog.query_one("#catalog-list", OptionList).options if option.disabled
        ]
        assert headings == [
            "Tools 1 · ≈22 tokens",
            "Prompts · not offered",
            "Resources · not offered",
            "Templates · not offered",
        ]


# ---------------------------------------------------------------------------------------------------- session rows
class RootsAnswers:
    """Answers a roots/list with one fixed root (the same path on every machine)."""

    async def answer(self, key: str | None, request: dict[str, Any]) -> Answer:
        return Answer({"roots": [{"uri": "file:///projects/demo", "name": "demo"}]}, "you")


async def ask_roots(script: Script) -> None:
    await script.request("s-1", "roots/list", {})


async def test_a_server_request_of_no_call_is_a_session_row(tmp_path: Path) -> None:
    script = Script(tools=[tool("only_tool")], capabilities={"tools": {}}, legacy=True, after_initialized=ask_roots)
    app = make_app(tmp_path, peer=script.peer, answers=RootsAnswers())
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        await wait_for(pilot, lambda: "s-1" in script.replies)
        timeline, view = screen.timeline, screen.timeline_view
        assert len(timeline.session) == 1
        probe, *calls = timeline.calls  # (server/discover refused: a legacy server)
        assert probe.status == "error" and all(call.status == "complete" for call in calls)
        assert not any(r.kind == "server-request" for call in timeline.calls for r in call.rounds)
        view.ensure_rows()
        session = Row(0, 1, 0, "session")
        # It came while tools/list (#3) waited for its reply: a row of its own above it, not a round of it.
        assert view.rows[:2] == [session, Row(3, 0, 0)] and timeline.calls[2].method == "tools/list"
        said = row_text(view, session)
        assert "◆ session ← server request id s-1 roots/list" in said
        assert "answered 1 root: file:///projects/demo (you)" in said
        view.focus()
        view.cursor = view.rows.index(session)
        await wait_for(pilot, lambda: screen.selected == (0, 1))
        assert screen.query_one(DetailView).plain_lines[0] == "session · server request id s-1 roots/list"
        assert view.check_action("toggle_fold", ()) is False  # nothing to fold: space is not offered
        assert screen.query_one(CallKeys).check_action("export", ()) is False


# ---------------------------------------------------------------------------------------------------- keys
async def test_a_recording_offers_no_long_work_keys(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    await record_session(path)
    app = replay_app(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        assert screen.work is None
        assert screen.check_action("work", ()) is False  # l and T: nothing to listen to, nothing to declare
        offered = {key.id for key in gather_keys(screen)}  # what the footer, the help and the palette offer
        assert not {"main.work-panel", "main.work-tasks"} & offered


# ---------------------------------------------------------------------------------------------------- snapshots
def test_task_call_with_its_polls_folded(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The top of the timeline is "▼ #3 tools/call deploy_release  6 polls · working → input_required → working →
    completed ... complete 8 rounds 96 ms you 24 ms", highlighted (the name cut to make room for the columns; the
    task's summary gives way first), unfolded into "├ id 3 → task working · building", "├ ▶ 6 polls · working →
    input_required → working → completed …", "└ id 8 tasks/update → approve_release by you" and under it "answered
    approve_release: approved=true (you)". The detail pane shows the
    call: complete · 8 rounds, then "─ task": "id task-7f3a · the 2026-07-28 Tasks extension", "status completed ·
    6 polls · ...", "created 2026-07-28T10:00:00.000Z · kept 1.0 min from creation (60,000 ms) · poll every 50 ms",
    "asked approve_release", then "─ status history (7)" with one line per stretch (+0.000 s working · building
    (created, id 3); working · building ×2 (polls, ids 4-5); ...; completed · done (poll, id 10))."""

    async def steps(pilot: Any) -> None:
        screen = await finished_call(pilot, "deploy_release", {})
        screen.timeline_view.focus()
        await pilot.pause()

    app, _ = task_app(tmp_path, ScriptedTask(RELEASE_STEPS))
    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


def test_task_polls_unfolded(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """After space on its polls row, call #3's polls are rows of their own among its rounds, in wire order, under
    "▼ 6 polls · working → input_required → working → completed …": "id 4 → working · building", id 5 the same,
    "id 6 → working · testing", "id 7 → input_required · …" (waited for "you 24 ms"), then "id 8 tasks/update →
    approve_release by you", highlighted, with its answer line "answered approve_release: approved=true (you)",
    then "id 9 → working · releasing" and "└ id 10 → completed · done". No poll says "retry". The detail pane
    heads "#3 round 6 · id 7 → id 8", "tasks/update → complete · server 12 ms", and shows the request carrying
    inputResponses approve_release (action accept, approved true)."""

    async def steps(pilot: Any) -> None:
        screen = await finished_call(pilot, "deploy_release", {})
        view = screen.timeline_view
        view.focus()
        view.cursor = view.rows.index(Row(3, 0, 0, "polls"))
        await pilot.press("space")
        update = next(r for r in screen.timeline.calls[-1].rounds if r.method == "tasks/update")
        view.select_call(3, update.index)
        await wait_for(pilot, lambda: screen.selected == (3, update.index))

    app, _ = task_app(tmp_path, ScriptedTask(RELEASE_STEPS))
    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


def test_progress_bar_on_a_running_call(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The top row of the timeline is "▶ #3 tools/call build  ━━━━━╌╌╌ 3/5 testing ... pending 1 round …",
    highlighted: a bar five eighths full, the count and the server's message, while the call waits on the server.
    The detail pane says "pending · 1 round · server …" and "progress 3/5 · testing"; the footer offers "k cancel
    call"."""
    started = asyncio.Event()

    async def build(exchange: Exchange) -> Json:
        await exchange.progress(3, 5, "testing")
        started.set()
        await asyncio.Future()
        raise AssertionError("unreachable")

    async def steps(pilot: Any) -> None:
        screen, call = await running_call(pilot, "build", started)
        await wait_for(pilot, lambda: "3/5" in row_text(screen.timeline_view, Row(call.index, 0, 0)))
        # row_text reads the model; the picture needs the detail's queued redraw of the progress too.
        detail = screen.query_one(DetailView)
        await wait_for(pilot, lambda: "progress 3/5 · testing" in detail.plain_lines)
        await pilot.pause()

    script = Script(tools=[tool("build")], handlers={"tools/call": build})
    assert snap_compare(make_app(tmp_path, peer=script.peer), terminal_size=SIZE, run_before=steps)


def test_cancelled_task(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """After k on call #3 (a task, while its poll id 4 waited for its reply): its row reads "cancelled" in the
    error colour, highlighted, unfolded into "├ id 3 → task working · building", "├ ▶ 1 poll · working → cancelled ·
    every 50 ms", "├ id 5 tasks/cancel → cancelled · cancel asked" and "the task was cancelled". The detail pane
    says "the task was cancelled", then "─ task" with "status cancelled · 1 poll · working → cancelled", "cancel
    asked (id 5; cooperative): the task cancelled", and the history in wire order: created (id 3), "cancelled ·
    cancel asked (cancel, id 5)" (tasks/cancel left and was answered while the poll was out), then "cancelled ·
    cancelled by the client (poll, id 4)". The footer no longer offers cancel."""
    hold = asyncio.Event()
    task = ScriptedTask(FOREVER, hold=hold)

    async def steps(pilot: Any) -> None:
        screen, call = await running_call(pilot, "deploy_release", task.polled)
        await pilot.press("k")
        await wait_for(pilot, lambda: "tasks/cancel" in script.methods())
        hold.set()
        await wait_for(pilot, lambda: not [w for w in screen.workers if w.group == "call" and w.is_running])
        screen.timeline_view.select_call(call.index)
        # It was highlighted all along: the detail shows the end once its queued redraw has run.
        await wait_for(pilot, lambda: screen.selected == (call.index, 0) and detail_shows_now(screen))
        assert "the task was cancelled" in screen.query_one(DetailView).plain_lines
        pilot.app.clear_notifications()  # the "cancel asked" toast goes after 3 s: not in a picture
        await pilot.pause()

    app, script = task_app(tmp_path, task)
    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


def test_session_row_and_kinds_not_offered(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """A legacy server that declared tools only: the catalog lists only_tool, then "Prompts · not offered",
    "Resources · not offered", "Templates · not offered". The timeline's top row is "◆ session ← server request id
    s-1 roots/list  answered 1 root: fi…" (cut at the pane's edge), highlighted, above "#3 tools/list", "#2
    initialize" and "#1 server/discover" (error: a legacy server), each of them one round: the server's own
    request is a row of the session, not a round of the tools/list it came during. The detail pane heads "session ·
    server request id s-1 roots/list", says what it is, and shows the request, our reply and the answer."""

    async def steps(pilot: Any) -> None:
        screen = await connected(pilot)
        await wait_for(pilot, lambda: "s-1" in script.replies)
        view = screen.timeline_view
        view.focus()
        view.cursor = 0
        await wait_for(pilot, lambda: screen.selected == (0, 1))

    script = Script(tools=[tool("only_tool")], capabilities={"tools": {}}, legacy=True, after_initialized=ask_roots)
    app = make_app(tmp_path, peer=script.peer, answers=RootsAnswers())
    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


def test_tasks_extension_not_declared(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """After T, the header ends "· Tasks extension not declared (T)". Call #6 tools/call nightly_build, made since,
    is "error" in the timeline, highlighted; the detail pane says "-32021 Tool 'nightly_build' requires the tasks
    extension (io.modelcontextprotocol/tasks); this request did not declare it" in the error colour, then the params
    and the error object with its requiredCapabilities. The footer still offers "T tasks on/off"."""

    async def steps(pilot: Any) -> None:
        screen = await connected(pilot)
        screen.timeline_view.focus()
        await pilot.press("T")
        screen = await finished_call(pilot, "nightly_build", {})
        screen.timeline_view.focus()
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=steps)
