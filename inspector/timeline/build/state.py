"""What a TimelineBuilder keeps between records, as one dataclass the record functions share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.protocol.jsonrpc import RequestId
from inspector.protocol.methods import INPUT_REQUIRED_METHODS, ROOTS
from inspector.timeline import findings as lint
from inspector.timeline.kept_findings import KeptFindings
from inspector.timeline.model import Call, ConsoleAppended, ConsoleLine, Finding, FindingRaised, Round, Timeline

RELATED_TASK = "io.modelcontextprotocol/related-task"
"""The ``_meta`` key that ties a request or result to a task (2025-11-25, SEP-2322)."""


@dataclass(slots=True)
class InFlight:
    """A request of ours awaiting its response: its call, its round, the version it spoke, its progress token."""

    call: Call
    round: Round
    version: str | None
    progress_token: Any = None


@dataclass(frozen=True, slots=True)
class LetGo:
    """What ``BuildState.forget_ended`` let go of: how many calls, and the findings raised since the last time."""

    calls: int
    findings: KeptFindings[Finding]
    """Counted by code, the first few of each kept (``KeptFindings.tally`` reads them)."""


@dataclass(slots=True)
class BuildState:
    """The timeline being built, what is in flight, what was answered, where progress goes."""

    timeline: Timeline = field(default_factory=Timeline)
    in_flight: dict[RequestId, InFlight] = field(default_factory=dict)
    answered: set[RequestId] = field(default_factory=set)
    server_requests: dict[RequestId, tuple[Call | None, Round]] = field(default_factory=dict)
    """Legacy server requests awaiting our reply, by their id (the server's id space); None: a session row."""
    progress: dict[Any, Round] = field(default_factory=dict)
    """Progress tokens of requests in flight -> their round."""
    legacy_version: str | None = None
    """The version ``initialize`` settled (its results are validated against it)."""
    abandoned: dict[RequestId, InFlight] = field(default_factory=dict)
    """Requests whose call ended before their response came: a late response still lands on its round."""
    listens: dict[str, Call] = field(default_factory=dict)
    """Subscription ids (the listen requests' ids) -> their calls."""
    legacy_listen: Call | None = None
    """2025: the call of the latest ``resources/subscribe``, which the server's unsolicited updates and list changes
    belong to (they carry no subscription id)."""
    tasks: dict[str, Call] = field(default_factory=dict)
    """Task ids -> the call that follows the task (task notifications are matched by id, never by time)."""
    instances: dict[RequestId, str] = field(default_factory=dict)
    """Request ids -> the server instance an ``instance`` record said they go to, until their round starts."""

    def forget_ended(self) -> LetGo:
        """Let go of the calls that ended, of what this state keeps about them, and of the session's history
        (findings, console lines, messages of no call); returns what went, the findings among it so the face can
        still count them. Only a face that reads nothing but outcomes asks (the load runner: 80,000 calls kept grew
        its heap to 400 MB, and a server with a finding on every reply grows the history as fast). A call still
        going keeps itself, and only itself: a server that never answers one request must not make the run keep
        every call after it until that request times out (344 MB in an 8 s run at concurrency 10). A response that
        comes later for a request of a call let go is then unmatched (``unknown-response-id``), still a finding."""
        timeline = self.timeline
        findings, timeline.findings = timeline.findings, KeptFindings()
        timeline.console.clear()
        timeline.unmatched.clear()
        calls = timeline.calls
        front = 0  # (the ended calls at the front first: in a load run, all but the last few in flight)
        for call in calls:
            if not call.ended:
                break
            front += 1
        gone, kept = calls[:front], calls[front:]
        if any(call.ended for call in kept):
            gone += [call for call in kept if call.ended]
            kept = [call for call in kept if not call.ended]
        if not gone:
            return LetGo(0, findings)
        timeline.let_go_through = max(timeline.let_go_through, gone[-1].index)
        calls[:] = kept
        rounds = {id(round_) for call in gone for round_ in call.rounds}
        self.answered.difference_update(round_.request_id for call in gone for round_ in call.rounds)
        if self.progress:
            self.progress = {token: r for token, r in self.progress.items() if id(r) not in rounds}
        if self.abandoned or self.tasks:
            went = {id(call) for call in gone}
            self.abandoned = {rid: f for rid, f in self.abandoned.items() if id(f.call) not in went}
            self.tasks = {task: call for task, call in self.tasks.items() if id(call) not in went}
        return LetGo(len(gone), findings)

    def on_round(self, code: str, message: str, call: Call, round_: Round) -> None:
        """Raise a catalog finding on a round."""
        self.finding(lint.make(code, message, call=call.index, round_=round_.index), call, round_)

    def finding(self, found: Finding, call: Call | None = None, round_: Round | None = None) -> None:
        """Put a finding on its round (else its call) and on the session's list."""
        if round_ is not None:
            round_.findings.append(found)
        elif call is not None:
            call.findings.append(found)
        self.timeline.findings.append(found)
        self.timeline.emit(FindingRaised(found))

    def console(self, line: ConsoleLine) -> None:
        """A console line (stderr, a log, a transport note)."""
        self.timeline.console.append(line)
        self.timeline.emit(ConsoleAppended(line))

    def owner_of_server_request(self, reply_to: Any, method: str | None, params: Any) -> Call | None:
        """Which call a legacy server request belongs to (None: a session row); see ``attribute_server_request``."""
        return self.attribute_server_request(reply_to, method, params)[0]

    def attribute_server_request(self, reply_to: Any, method: str | None, params: Any) -> tuple[Call | None, bool]:
        """(the call a legacy server request belongs to, or None for a session row; whether that was inferred).

        Said by the wire: the POST whose stream carried it (HTTP), the task its ``related-task`` ``_meta`` names.
        Inferred on stdio, where nothing on the wire says: the newest call in flight. A ``roots/list`` is also asked
        for the session (server-everything asks right after ``initialize``), so it goes to a call only when exactly
        one call that can ask the user something (a tool call, prompt get or resource read) is in flight: a tool
        that lists roots for its own work (the SDKs' ``show_roots``) is then a round of that call, said inferred."""
        if isinstance(reply_to, int | str) and reply_to in self.in_flight:
            return self.in_flight[reply_to].call, False
        meta = params.get("_meta") if isinstance(params, dict) else None
        related = meta.get(RELATED_TASK) if isinstance(meta, dict) else None
        task_id = related.get("taskId") if isinstance(related, dict) else None
        if isinstance(task_id, str) and task_id in self.tasks:
            return self.tasks[task_id], False
        if reply_to is not None:
            return None, False
        if method == ROOTS:
            asking = {id(item.call): item.call for item in self.in_flight.values()}
            candidates = [call for call in asking.values() if call.method in INPUT_REQUIRED_METHODS]
            return (candidates[0], True) if len(candidates) == 1 else (None, False)
        if self.in_flight:
            return list(self.in_flight.values())[-1].call, True
        pending = [call for call in self.timeline.calls if call.in_flight]
        return (pending[-1], True) if pending else (None, False)
