"""Whose time a round or a call took: the server's, the person's, a model's, the client's own. The one definition
every face reads (the printed timeline, ``--json``, the TUI's rows and detail pane), so that a time means what it
says wherever it is shown.

- **The server's**: a request's time from sent to replied, less what the client side waited on while it was open:
  the legacy server requests answered meanwhile (their time is their answerers'), and a login's wait for the person
  in the browser. A login's own exchanges (discovery, registration, the token) stay the server's: an authorization
  server's.
- **A question's**, from asked to answered, is its answer's ``party`` (``answers.base.Party``): the person's (a
  dialog, a form, a URL to visit), a model's (the stub model), the client's (an answers file, a policy, the
  configured roots). When the person handed the question to a model in a dialog ("stub model" in the sampling
  dialog), only the model's own compute (``model_ms``) is the model's; the reading before it is the person's.
- **A login's wait for the person**: from its ``waiting`` step to the redirect coming back (``callback``) or the
  login stopping, less the login's own exchanges made meanwhile (a redirect the client followed itself).

Pure: no import of the timeline (which imports this), so the inputs are the few fields read (``Answered``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Final, Protocol

from inspector.answers.source import YOU, Party
from inspector.answers.stub_model import SOURCE as STUB_MODEL
from inspector.protocol.oauth import LoginStep

Span = tuple[float, float]
"""From, to: seconds on the session's clock."""


class Answered(Protocol):
    """What the split reads of a given answer (``timeline.model.GivenAnswer``)."""

    @property
    def at(self) -> float: ...
    @property
    def source(self) -> str: ...
    @property
    def party(self) -> Party: ...
    @property
    def model_ms(self) -> float | None: ...


def party_of(source: str) -> Party:
    """Whose time an answer took, read from its source alone: for a recording made before answers said it
    (``party``), which only ever named the person "you" and a model "stub model"."""
    if source == YOU:
        return "person"
    return "model" if STUB_MODEL in source else "client"


def _plus(a: float | None, b: float | None) -> float | None:
    return b if a is None else a if b is None else a + b


def _names(*groups: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(name for group in groups for name in group))


@dataclass(frozen=True, slots=True)
class TimeSplit:
    """A time split by whose it was, in milliseconds; None: no part of it was that one's (or, for the server, no
    reply yet). Splits add up: a call's is the sum of its rounds' (and of a login outside them)."""

    server_ms: float | None = None
    """Request sent to reply received, less what the client side waited on meanwhile."""
    person_ms: float | None = None
    """Dialogs, forms, a URL to visit, a login's consent page in the browser."""
    model_ms: float | None = None
    """A model writing a sampling reply (``models`` names it)."""
    client_ms: float | None = None
    """The client's own answers: an answers file, a policy, the configured roots (``clients`` names them)."""
    models: tuple[str, ...] = ()
    clients: tuple[str, ...] = ()

    def __add__(self, other: TimeSplit) -> TimeSplit:
        return TimeSplit(
            _plus(self.server_ms, other.server_ms),
            _plus(self.person_ms, other.person_ms),
            _plus(self.model_ms, other.model_ms),
            _plus(self.client_ms, other.client_ms),
            _names(self.models, other.models),
            _names(self.clients, other.clients),
        )

    def waited(self, party: Party, ms: float, who: str) -> TimeSplit:
        """This split with ``ms`` more of ``party``'s time, given by ``who`` (a source's name)."""
        if party == "person":
            return replace(self, person_ms=_plus(self.person_ms, ms))
        if party == "model":
            return replace(self, model_ms=_plus(self.model_ms, ms), models=_names(self.models, (who,)))
        return replace(self, client_ms=_plus(self.client_ms, ms), clients=_names(self.clients, (who,)))

    @property
    def waited_ms(self) -> float | None:
        """The time waited on others than the server (the person, a model, the client), None when on nobody."""
        return _plus(_plus(self.person_ms, self.model_ms), self.client_ms)


NOBODY: Final = TimeSplit()


def total(splits: Iterable[TimeSplit]) -> TimeSplit:
    """The sum of ``splits``."""
    out = NOBODY
    for split in splits:
        out += split
    return out


def answer_split(answer: Answered, ms: float) -> TimeSplit:
    """``ms`` waited for ``answer``: its party's, less the part a model computed when one did (``model_ms``)."""
    model = min(max(answer.model_ms, 0.0), ms) if answer.model_ms is not None else None
    who = YOU if answer.party == "person" else answer.source
    split = NOBODY.waited(answer.party, ms - (model or 0.0), who)
    return split.waited("model", model, answer.source) if model is not None else split


def answers_split(answers: Sequence[Answered], start: float, until: float | None) -> TimeSplit:
    """The wait from ``start`` (the question asked) split by the answers given, in order: each answer's time runs
    from the previous one's (or ``start``) to its own; the rest, until ``until`` (the request carrying them left,
    our reply left; None: not yet), is the last answer's, whose request goes as soon as it is in."""
    split = NOBODY
    begin = start
    for position, answer in enumerate(answers):
        end = answer.at
        if position == len(answers) - 1 and until is not None:
            end = max(end, until)
        split += answer_split(answer, max(end - begin, 0.0) * 1000.0)
        begin = max(begin, end)
    return split


def less(span: Span, holes: Iterable[Span]) -> list[Span]:
    """``span`` less every one of ``holes``."""
    pieces = [span]
    for hole_from, hole_to in holes:
        cut: list[Span] = []
        for start, end in pieces:
            if hole_to <= start or hole_from >= end:
                cut.append((start, end))
                continue
            if hole_from > start:
                cut.append((start, hole_from))
            if hole_to < end:
                cut.append((hole_to, end))
        pieces = cut
    return pieces


@dataclass(frozen=True, slots=True)
class ConsentWait:
    """A login waiting on the person in the browser (its ``waiting`` step), and the spans it took."""

    step: LoginStep
    spans: tuple[Span, ...]

    @property
    def ms(self) -> float:
        return sum(end - start for start, end in self.spans) * 1000.0


def _ends_the_wait(step: LoginStep) -> bool:
    """The redirect came back (or was refused), the warnings about the login's addresses were answered, or the
    login stopped: the person's part is over. (A stray redirect with another state is told as an ``authorization``
    step that is refused, and the wait goes on.)"""
    answered = step.step == "addresses" and step.outcome != "waiting"
    return step.step == "callback" or step.outcome == "failed" or answered


def consent_waits(steps: Sequence[LoginStep], until: float | None) -> list[ConsentWait]:
    """Every wait of ``steps`` on the person in the browser; ``until`` ends one that nothing ended (its call's
    end; None: still waiting, not counted yet)."""
    waits: list[ConsentWait] = []
    for position, step in enumerate(steps):
        if step.outcome != "waiting":
            continue
        later = [s for s in steps[position + 1 :] if s.request_id == step.request_id]
        ended = next((s.at for s in later if _ends_the_wait(s)), until)
        if ended is None:
            continue
        exchanges = [
            (s.at - s.http.elapsed_ms / 1000.0, s.at)
            for s in later
            if s.http is not None and s.http.elapsed_ms is not None and s.at <= ended
        ]
        waits.append(ConsentWait(step, tuple(less((step.at, max(ended, step.at)), exchanges))))
    return waits


def overlap_ms(spans: Iterable[Span], start: float, end: float) -> float:
    """How much of ``spans`` lies between ``start`` and ``end``, in milliseconds."""
    return sum(max(min(b, end) - max(a, start), 0.0) for a, b in spans) * 1000.0


def outside_ms(spans: Iterable[Span], windows: Sequence[Span]) -> float:
    """How much of ``spans`` lies in none of ``windows``, in milliseconds."""
    return sum(b - a for span in spans for a, b in less(span, windows)) * 1000.0


def login_split(steps: Sequence[LoginStep], until: float | None = None) -> TimeSplit:
    """A login's time: its exchanges the server's (an authorization server's), its waits in the browser the
    person's (``until``: see ``consent_waits``)."""
    exchanges = [s.http.elapsed_ms for s in steps if s.http is not None and s.http.elapsed_ms is not None]
    waits = consent_waits(steps, until)
    split = TimeSplit(server_ms=sum(exchanges) if exchanges else None)
    return split.waited("person", sum(w.ms for w in waits), YOU) if waits else split
