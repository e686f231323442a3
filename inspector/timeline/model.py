"""The Timeline model: Calls made of Rounds, append-only, read by the TUI, the CLI, the recorder and replay.

A *Call* is one operation the user asked for (call a tool, get a prompt, list tools). Each *Round* is one JSON-RPC
request and its response, or (legacy era) one server->client request and our reply, which becomes a round of the
call it interrupted so both eras read the same way. The model is built only by ``TimelineBuilder`` from records, so
a live session and a replay of its recording produce equal timelines.
"""

from __future__ import annotations

import hashlib
import math
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Final, Literal

from inspector.answers.source import YOU, Party
from inspector.protocol.jsonrpc import JsonObject, RequestId
from inspector.protocol.methods import CATALOG, CatalogKind
from inspector.timeline.cache_span import FromCache
from inspector.timeline.kept_findings import KeptFindings
from inspector.timeline.listen_span import ListenSpan
from inspector.timeline.recent_events import Recent, RecentEvents, recent_lines
from inspector.timeline.server_requests import ServerRequests, session_requests
from inspector.timeline.task_span import TaskSpan
from inspector.timeline.time_split import (
    NOBODY,
    TimeSplit,
    answers_split,
    consent_waits,
    outside_ms,
    overlap_ms,
    total,
)
from inspector.timeline.wire import WireMessage

if TYPE_CHECKING:
    from inspector.timeline.login_steps import AuthStep

Severity = Literal["error", "warning", "info"]
RoundKind = Literal["request", "server-request"]
CallStatus = Literal[
    "pending",
    "input-required",
    "working",
    "cancelling",
    "detached",
    "complete",
    "tool-error",
    "error",
    "no-answer",
    "round-cap",
    "cancelled",
    "failed",
]
"""pending: in flight; input-required: waiting for answers; working: its task runs (the server keeps it);
cancelling: the user cancelled, the server has not said it stopped; detached: its task still runs, but this session
stopped following it (``inspector task get ID`` follows it again); complete; tool-error: result with isError;
error: JSON-RPC error; no-answer: input needed but none available; round-cap: too many rounds; cancelled: the user
cancelled; failed: transport failure, timeout or an invalid response."""
IN_FLIGHT_STATUSES: frozenset[CallStatus] = frozenset({"pending", "input-required", "working", "cancelling"})
"""A call with one of these has not ended: it waits on the server or on an answer (and can be cancelled)."""
FAILED_STATUSES: frozenset[CallStatus] = frozenset(
    {"tool-error", "error", "no-answer", "round-cap", "cancelled", "failed", "detached"}
)
"""A call that ended with one of these did not get what it asked for (shown in red, exit code other than 0)."""


INFERRED_OWNER: Final = (
    "put on this call by inference: over stdio nothing on the wire names the call a server request interrupts, "
    "and this one was the call in flight"
)
"""What every face says of a round whose call was inferred (``Round.inferred_owner``)."""


@dataclass(slots=True)
class Finding:
    """Protocol lint: something the server (or the traffic) did that a server author should know about."""

    code: str
    severity: Severity
    message: str
    """What happened, in one sentence."""
    hint: str = ""
    """Why it matters or what to try."""
    call_index: int | None = None
    round_index: int | None = None


@dataclass(slots=True)
class RequestState:
    """An opaque ``requestState`` as received: the exact string, its length and sha256, and whether it came back."""

    value: str
    echoed: bool | None = None
    """None until the retry is sent; then True only if the retry carried it byte for byte."""

    @property
    def length(self) -> int:
        """Length in characters (the wire is UTF-8 JSON; states are almost always ASCII)."""
        return len(self.value)

    @property
    def sha256(self) -> str:
        """Hex sha256 of the UTF-8 bytes, to compare states at a glance."""
        return hashlib.sha256(self.value.encode("utf-8")).hexdigest()


@dataclass(slots=True)
class GivenAnswer:
    """The answer given to one input request of a round, who gave it, and whose time it took."""

    key: str | None
    response: JsonObject
    source: str
    at: float = 0.0
    """When it was given."""
    party: Party = "client"
    """Who was waited on for it (``answers.base.Answer.party``)."""
    model_ms: float | None = None
    """The part of its wait a model computed, when a person handed the question to one."""


@dataclass(slots=True)
class Round:
    """One round trip: our request and the server's response (or a legacy server request and our reply)."""

    index: int
    kind: RoundKind
    request_id: RequestId | None
    method: str
    request: WireMessage
    response: WireMessage | None = None
    result_type: str | None = None
    """complete | input_required | task | error | None while pending (or when the call ended without a reply)."""
    error: JsonObject | None = None
    input_requests: dict[str, JsonObject] = field(default_factory=dict)
    answers: list[GivenAnswer] = field(default_factory=list)
    request_state: RequestState | None = None
    """The state this round's response carried (the next round must echo it)."""
    echoed_state: str | None = None
    """The requestState this round's request carried (what we echoed from the previous round)."""
    notifications: RecentEvents[WireMessage] = field(default_factory=RecentEvents)
    """The notifications that came for it (and those we sent on it): every one counted, the newest kept (a flood
    must not fill the memory; the recording has them all)."""
    findings: KeptFindings[Finding] = field(default_factory=KeptFindings)
    """Its findings: every one counted by code, the first few of each kept (``timeline.kept_findings``)."""
    abandoned: str | None = None
    """Why the call stopped waiting for this round's response (its end status: cancelled, failed...), when it
    ended before the response came; every round of an ended call has an end."""
    late: bool = False
    """Its response (or a notification for it) came after the call had stopped waiting: shown, never lost."""
    inferred_owner: bool = False
    """A legacy server request put on this call by inference (over stdio nothing on the wire names the call it
    interrupts: it went to the call in flight); the faces say so, in ``INFERRED_OWNER``'s words."""
    folded: bool = False
    """A legacy server request past the call's first ``KEPT_SERVER_REQUESTS``: never in ``Call.rounds``, among
    ``Call.server_requests`` while it is one of the newest (its index is where it would have been)."""
    instance: str | None = None
    """Which server instance the request went to (``inspector lab`` routes rounds between instances A and B);
    None when the session spoke to one server only."""

    @property
    def started_at(self) -> float:
        """When the request left (or the server request arrived)."""
        return self.request.at

    @property
    def latency_ms(self) -> float | None:
        """Round latency in milliseconds, None while pending."""
        if self.response is None:
            return None
        return (self.response.at - self.request.at) * 1000.0

    @property
    def reply_times(self) -> TimeSplit:
        """A server request's time, from its arrival to our reply, split by whose it was (its answers'; see
        ``timeline.time_split``)."""
        return answers_split(self.answers, self.request.at, self.response.at if self.response is not None else None)

    @property
    def result(self) -> JsonObject | None:
        """The parsed result object of the response, when it is a success response."""
        if self.response is None or self.response.message is None:
            return None
        value = self.response.message.get("result")
        return value if isinstance(value, dict) else None


@dataclass(slots=True)
class Call:
    """One operation the user asked for, unfolded into its rounds."""

    index: int
    method: str
    params: JsonObject
    """The params the user asked for, before ``_meta``, ``inputResponses`` and ``requestState`` were added."""
    started_at: float
    rounds: list[Round] = field(default_factory=list)
    server_requests: ServerRequests[Round] = field(default_factory=ServerRequests)
    """Every legacy server request of the call counted by method; its first ``KEPT_SERVER_REQUESTS`` are rounds (in
    ``rounds``), the newest of the rest are kept here and never in ``rounds`` (a server that sends requests without
    end must not fill the memory; the recording has them all)."""
    status: CallStatus = "pending"
    status_detail: str = ""
    """For a call that did not complete: what happened and what to try."""
    finished_at: float | None = None
    findings: KeptFindings[Finding] = field(default_factory=KeptFindings)
    """Call-level findings (round cap hit, no answer, timeout); round findings live on their rounds. Every one
    counted by code, the first few of each kept (``timeline.kept_findings``)."""
    task: TaskSpan | None = None
    """The task the call created (or looks at again), when it made one."""
    listen: ListenSpan | None = None
    """The subscription, when the call is a ``subscriptions/listen``."""
    auth: list[AuthStep] = field(default_factory=list)
    """The OAuth login (or refresh, or step-up) its requests needed, step by step (``timeline.login_steps``)."""
    resends: int | None = None
    """The call this one sent again (edit and resend): shown right above it, marked ``↻ #N``."""
    cached: FromCache | None = None
    """Its result came from the client's cache, and nothing was sent (``session.result_cache``)."""

    @property
    def name(self) -> str | None:
        """Tool or prompt name, or resource URI: what the call is about."""
        for key in ("name", "uri", "taskId"):
            value = self.params.get(key)
            if isinstance(value, str):
                return value
        return None

    @property
    def in_flight(self) -> bool:
        """Not ended yet: waiting on the server or on an answer."""
        return self.status in IN_FLIGHT_STATUSES

    @property
    def ended(self) -> bool:
        """Ended, in any way (complete or not)."""
        return self.status not in IN_FLIGHT_STATUSES

    @property
    def failed(self) -> bool:
        """Ended without what it asked for: a tool error, a JSON-RPC error, no answer, the round cap, a cancel, a
        transport failure."""
        return self.status in FAILED_STATUSES

    @property
    def total_ms(self) -> float | None:
        """Wall time from the first request to the end, None while pending."""
        if self.finished_at is None:
            return None
        return (self.finished_at - self.started_at) * 1000.0

    @property
    def round_times(self) -> list[TimeSplit]:
        """Each round's time split by whose it was (``timeline.time_split``). A request: the server's time, its
        latency less the legacy server requests answered while it was open and the login's wait for the person in
        the browser (which is the person's); then, when it asked (``input_required``), the wait for its answers
        until the next request left (or the call ended), by whose each answer was. A legacy server request: the
        wait for our reply, by whose its answers were. A state-only round's back-off before its retry is nobody's."""
        return self.timed()[0]

    @property
    def times(self) -> TimeSplit:
        """The call's time split by whose it was: the sum of its rounds' (``round_times``), and a login's wait for
        the person outside them (a refresh or a login before its first request left)."""
        return self.timed()[1]

    def timed(self) -> tuple[list[TimeSplit], TimeSplit]:
        """``round_times`` and ``times`` at once (a face that shows both computes them once)."""
        consent = (
            [span for wait in consent_waits(self.auth, self.finished_at) for span in wait.spans] if self.auth else []
        )
        asked = [r for r in self.rounds if r.kind == "server-request" and r.response is not None]
        times: list[TimeSplit] = []
        windows: list[tuple[float, float]] = []
        for round_ in self.rounds:
            if round_.kind == "server-request":
                times.append(round_.reply_times)
                continue
            response = round_.response
            end = response.at if response is not None else self.finished_at
            person = 0.0
            if consent and end is not None:
                windows.append((round_.request.at, end))
                person = overlap_ms(consent, round_.request.at, end)
            if response is None:
                times.append(NOBODY.waited("person", person, YOU) if person else NOBODY)
                continue
            start, stop = round_.request.at, response.at
            nested = sum(r.latency_ms or 0.0 for r in asked if start <= r.request.at <= stop) if asked else 0.0
            split = TimeSplit(server_ms=max((stop - start) * 1000.0 - nested - person, 0.0))
            if person:
                split = split.waited("person", person, YOU)
            if round_.input_requests:
                later = [
                    r.request.at
                    for r in self.rounds
                    if r.kind == "request" and r.request.at >= stop and r is not round_
                ]
                split += answers_split(round_.answers, stop, min(later) if later else self.finished_at)
            times.append(split)
        call = total(times)
        outside = outside_ms(consent, windows) if consent else 0.0
        return times, call.waited("person", outside, YOU) if outside else call

    @property
    def answer_sources(self) -> list[str]:
        """Who answered the call's input requests ("you", "answers file", "stub model" ...), each once, in order."""
        return list(dict.fromkeys(answer.source for round_ in self.rounds for answer in round_.answers))

    @property
    def final_round(self) -> Round | None:
        """The last round of our own requests (server-request rounds are interruptions)."""
        for round_ in reversed(self.rounds):
            if round_.kind == "request":
                return round_
        return None

    @property
    def result(self) -> JsonObject | None:
        """The final result object, when the call ended with one (a task's own result, once it has one)."""
        if self.task is not None:
            return self.task.result
        if self.cached is not None:
            return self.cached.result
        last = self.final_round
        return last.result if last is not None else None

    @property
    def error(self) -> JsonObject | None:
        """The final JSON-RPC error object, when the call ended with one (a task's, when it failed)."""
        if self.task is not None and self.task.error is not None:
            return self.task.error
        last = self.final_round
        return last.error if last is not None else None

    def rounds_as_they_came(self) -> list[Round]:
        """The rounds in the order what each one tells came: a request where its reply came (one still waited for
        last), a server request where it arrived. A legacy server request interrupts the request it came during,
        so it comes before that request's reply (``rounds`` keeps the order the rounds began in)."""
        if not any(round_.kind == "server-request" for round_ in self.rounds):
            return list(self.rounds)

        def came(round_: Round) -> float:
            if round_.kind == "server-request":
                return round_.request.at
            return round_.response.at if round_.response is not None else math.inf

        return sorted(self.rounds, key=came)

    def all_findings(self) -> list[Finding]:
        """Call findings followed by every round's findings, in order (the kept ones: ``findings_by_code`` counts
        them all)."""
        found = list(self.findings)
        for round_ in self.rounds:
            found.extend(round_.findings)
        return found

    def findings_by_code(self) -> dict[str, int]:
        """How many findings the call and its rounds raised, by code, kept or not."""
        counts = dict(self.findings.by_code)
        for round_ in self.rounds:
            for code, count in round_.findings.by_code.items():
                counts[code] = counts.get(code, 0) + count
        return counts


@dataclass(slots=True)
class ConsoleLine:
    """A line for the console: server stderr, a log notification, or a transport note."""

    at: float
    source: Literal["stderr", "log", "transport", "session"]
    text: str
    level: str | None = None


@dataclass(slots=True)
class EraDecision:
    """Which protocol era the session uses and why (shown in the header of the timeline)."""

    era: Literal["modern", "legacy"]
    version: str
    why: str


@dataclass(slots=True)
class Timeline:
    """Everything that happened in one session. Append-only; only ``TimelineBuilder`` writes to it. The one
    exception: a face that reads nothing but outcomes (the load runner) lets go of the calls that ended and of
    the history lists (``findings``, ``console``, ``unmatched``; ``BuildState.forget_ended``), so that a long run
    keeps a flat heap; ``calls`` then holds the calls kept, still in the order of their indexes, with gaps where
    calls went (a call still going stays, and the ended calls after it go)."""

    target: str = ""
    transport: str = ""
    era: EraDecision | None = None
    server_info: JsonObject | None = None
    server_capabilities: JsonObject | None = None
    instructions: str | None = None
    calls: list[Call] = field(default_factory=list)
    let_go_through: int = 0
    """The highest index of a call let go (0: none): the next call is numbered after it, kept calls or not."""
    console: Recent[ConsoleLine] = field(default_factory=recent_lines)
    """Stderr lines, logs and transport notes: every one counted, the newest kept (a server that logs without end
    must not fill the memory; the recording has them all)."""
    findings: KeptFindings[Finding] = field(default_factory=KeptFindings)
    """Every finding, session-wide, in the order raised (round and call findings included): every one counted by
    code, the first few of each kept (a server that raises one a message must not fill the memory; the recording
    has what raised them all)."""
    unmatched: Recent[WireMessage] = field(default_factory=recent_lines)
    """Messages that belong to no call: garbage lines, responses to unknown ids, stray notifications (counted, the
    newest kept)."""
    session: ServerRequests[Round] = field(default_factory=session_requests)
    """Server requests that belong to no call (``roots/list`` right after ``initialize``), in order, with our
    answers: session rows, never a round of a call; every one counted by method, the newest kept."""
    auth: list[AuthStep] = field(default_factory=list)
    """Every OAuth step of the session, in order (each also on its call's ``auth``, when it had one)."""
    connected: bool = False
    disconnect_reason: str | None = None
    listeners: list[TimelineListener] = field(default_factory=list, compare=False, repr=False)

    def offers(self, kind: CatalogKind) -> bool:
        """Whether the server declared the capability that offers ``kind``: what the TUI's catalog and ``inspector
        list`` ask before sending a list request (None declared, as before the handshake: assumed offered)."""
        caps = self.server_capabilities
        return caps is None or CATALOG[kind].capability in caps

    def subscribe(self, listener: TimelineListener) -> Callable[[], None]:
        """Call ``listener`` for every later event; returns an unsubscribe function."""
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener) if listener in self.listeners else None

    def emit(self, event: TimelineEvent) -> None:
        """Tell every listener (in subscription order)."""
        if self.listeners:
            for listener in list(self.listeners):
                listener(event)

    def call(self, index: int) -> Call | None:
        """Call by its 1-based index (None: never started, or let go)."""
        calls = self.calls
        if not calls:
            return None
        # Counted from the newest call: the calls started since the last let-go follow one another without a gap,
        # and they are the ones asked for on every record; an older one is looked for across the gaps.
        position = len(calls) - 1 - (calls[-1].index - index)
        if 0 <= position < len(calls):
            found = calls[position]
            if found.index == index:
                return found
        if not calls[0].index <= index <= calls[-1].index:
            return None
        at = bisect_left(calls, index, key=attrgetter("index"))  # (in index order, with gaps)
        return calls[at] if calls[at].index == index else None

    @property
    def next_index(self) -> int:
        """The index the next call gets."""
        calls = self.calls
        return max(calls[-1].index + 1 if calls else 1, self.let_go_through + 1)


# The events the Timeline announces to its listeners as the builder writes it (the UI bridge turns them into
# Textual messages; the headless progress lines and the replay stepper read them too).


@dataclass(frozen=True, slots=True)
class CallStarted:
    call: Call


@dataclass(frozen=True, slots=True)
class RoundStarted:
    call: Call
    round: Round


@dataclass(frozen=True, slots=True)
class RoundUpdated:
    """A round changed: its response arrived, an answer was given, a notification or finding was added."""

    call: Call
    round: Round


@dataclass(frozen=True, slots=True)
class CallFinished:
    call: Call


@dataclass(frozen=True, slots=True)
class ConsoleAppended:
    line: ConsoleLine


@dataclass(frozen=True, slots=True)
class FindingRaised:
    finding: Finding


@dataclass(frozen=True, slots=True)
class SessionChanged:
    """Era, server info or connection state changed."""


@dataclass(frozen=True, slots=True)
class SessionRowChanged:
    """A server request that belongs to no call arrived, was answered, or got our reply (``Timeline.session``)."""

    round: Round


TimelineEvent = (
    CallStarted
    | RoundStarted
    | RoundUpdated
    | CallFinished
    | ConsoleAppended
    | FindingRaised
    | SessionChanged
    | SessionRowChanged
)
TimelineListener = Callable[[TimelineEvent], None]
