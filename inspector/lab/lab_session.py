"""One session of a lab run: a real ``InspectorSession`` on a ``RoutedTransport``, answered by ``LabAnswers``.

It runs a call along a route and hands back the outcome with the call as the timeline has it, rounds tagged with
their instance; the session itself is the product's, unchanged (the MRTR driver echoes every requestState byte for
byte; only the lab's experiments put a changed one in a call's params, and say so on the timeline).
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.answers.source import AnswerSource
from inspector.lab.answers import LabAnswers
from inspector.lab.lab_calls import LabCall
from inspector.lab.plan import LabTargets
from inspector.lab.routing import RoutedTransport
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.methods import CatalogKind
from inspector.session.session import ConnectError, EraMode, InspectorSession
from inspector.timeline import records
from inspector.timeline.model import Call, Finding
from inspector.timeline.outcome import Outcome
from inspector.transport.base import RequestKey, TransportStartError

EXPERIMENT: str = "lab-experiment"
"""The finding that marks a call whose requestState the lab changed on purpose."""


@dataclass(frozen=True, slots=True)
class Ran:
    """A call the lab made: how it ended and the call on the timeline (its rounds, with their instances)."""

    outcome: Outcome
    call: Call

    @property
    def route(self) -> str:
        """Where each of our requests went, in order: ``A B A``."""
        return " ".join(r.instance or "?" for r in self.call.rounds if r.kind == "request")


class LabSession:
    """A session over some of the lab's instances (``names``), recorded as ``part``."""

    def __init__(
        self, targets: LabTargets, names: tuple[str, ...], source: AnswerSource, *, era: EraMode, part: str
    ) -> None:
        self.part = part
        self.answers = LabAnswers(source)
        self.routed = RoutedTransport({name: targets.transport(name) for name in names}, on_route=self._routed)
        self.session: InspectorSession = targets.session(self.routed, self.answers, era=era, part=part)

    def _routed(self, request_id: RequestKey, name: str) -> None:
        log = self.session.log
        log.write(records.instance(log.now(), request_id, name))

    async def connect(self) -> tuple[str, str] | None:
        """Connect (the handshake goes to the first instance); None, or what went wrong and what to try."""
        try:
            await self.session.connect()
        except (ConnectError, TransportStartError) as failure:
            return self.session.redact(failure.message), self.session.redact(failure.hint)
        return None

    def gone(self, name: str) -> str | None:
        """Why instance ``name`` went away, if it did."""
        return self.routed.gone.get(name)

    async def list_on(self, name: str, kind: CatalogKind) -> Ran:
        """Every page of a catalog list, on instance ``name``."""
        self.routed.route_to(name)
        outcome = await self.session.list_all(kind)
        return Ran(outcome, self.session.call(outcome.call_index))

    async def run(self, call: LabCall, first: str, *, alternate: bool = False) -> Ran:
        """Make ``call`` along the route (answered as the lab's answers are set now)."""
        self.routed.route_to(first, alternate=alternate)
        outcome = await self.session.request(call.method, dict(call.params))
        return Ran(outcome, self.session.call(outcome.call_index))

    async def experiment(self, method: str, params: JsonObject, on: str, what: str) -> Ran:
        """One round with params the lab made (an altered requestState): the server's answer ends the call, and the
        call carries a ``lab-experiment`` finding saying what was changed."""
        self.answers.one_round(
            f"inspector lab: this experiment sends one round only ({what}); the server asked again instead of "
            "completing, which is the refusal the lab looks for"
        )
        self.routed.route_to(on)
        outcome = await self.session.request(method, params)
        log = self.session.log
        note = Finding(
            EXPERIMENT,
            "info",
            f"an experiment of inspector lab tamper: {what}",
            "the only calls whose requestState the inspector ever changes; every other retry echoes it byte for byte",
            call_index=outcome.call_index,
        )
        log.write(records.finding(log.now(), note))
        return Ran(outcome, self.session.call(outcome.call_index))

    async def close(self) -> None:
        """Close the session (and so every instance it started)."""
        await self.session.close()
