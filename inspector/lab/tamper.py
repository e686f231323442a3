"""``lab tamper``: for each round that carried a requestState, the same retry with the state altered, on A.

The server must refuse an altered state: a JSON-RPC error, or a fresh ``input_required`` (it asks again); a tool
error counts as a refusal too. It must never complete on one, never answer 5xx, never die. Completing is a security
finding citing the spec: "If the request contains a requestState field, the server MUST always validate the state,
as the client is an untrusted intermediary" (SEP-2322). A state replayed after its call completed breaks no MUST by
itself (the SDK's sealed states are valid until they expire): accepted, it is a warning about its lifetime.
"""

from __future__ import annotations

from collections.abc import Callable

from inspector.lab import evidence
from inspector.lab.alterations import ANOTHER_CALL, OMITTED, Alteration, alterations, with_state
from inspector.lab.baseline import Baseline, Reference, compared
from inspector.lab.lab_report import Row, Verdict
from inspector.lab.lab_session import LabSession, Ran
from inspector.lab.plan import LabOptions
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.sanitize import one_line
from inspector.timeline.model import Round

AddRow = Callable[[Row], None]
VALIDATE = (
    "validate every requestState you get back (the spec's MUST): seal it (AES-GCM, a signed JWT) under a key every "
    "instance shares, bind it to the request and the user, and treat a plaintext state as untrusted input"
)
SHORT_LIFE = "bind the state to the user and give it a short expiry; make the work it resumes idempotent"
NO_HIDDEN_STATE = (
    "a retry without its requestState must start over (ask again): a server that completes anyway found the "
    "earlier rounds somewhere else, such as process memory"
)


def _states(baseline: Baseline) -> list[tuple[Reference, Round, str]]:
    """Every (call, round, state minted) of the all-on-A runs, in order."""
    found = []
    for reference in baseline.references:
        for round_ in reference.ran.call.rounds:
            if round_.kind == "request" and round_.request_state is not None:
                found.append((reference, round_, round_.request_state.value))
    return found


def _retry_params(round_: Round) -> JsonObject | None:
    """The params the retry round was sent with (what an experiment sends again, its state changed)."""
    message = round_.request.message or {}
    params = message.get("params")
    return dict(params) if isinstance(params, dict) else None


async def tamper(main: LabSession, baseline: Baseline, options: LabOptions, add: AddRow) -> None:
    """Every experiment on every round that carried a requestState."""
    minted = _states(baseline)
    targets = [
        (reference, round_)
        for reference in baseline.references
        if reference.usable
        for round_ in reference.ran.call.rounds
        if round_.kind == "request" and round_.echoed_state is not None
    ]
    if not targets:
        add(Row("tamper", "requestState", "", "skip", "no round carried a requestState: nothing to tamper with",
                "call tools that answer input_required with a requestState (--call TOOL)"))  # fmt: skip
        return
    no_other_call: list[str] = []
    for reference, round_ in targets:
        params = _retry_params(round_)
        state = round_.echoed_state
        if params is None or state is None:
            continue
        same_tool = [
            s for r, _, s in minted
            if r is not reference and r.call.method == reference.call.method and r.call.name == reference.call.name
            and r.call.params != reference.call.params and s != state
        ]  # fmt: skip
        other_tool = [s for r, _, s in minted if r.call.name != reference.call.name and s != state]
        for alteration in alterations(
            state, other_call=same_tool[0] if same_tool else None, other_tool=other_tool[0] if other_tool else None
        ):
            what = f"round {round_.index} of {reference.call.label} resent with its {alteration.describe()}"
            ran = await main.experiment(reference.call.method, with_state(params, alteration.state), "A", what)
            add(_judged(reference, round_, alteration, ran, options))
        if not same_tool and reference.call.name not in no_other_call:
            no_other_call.append(reference.call.name)
    if no_other_call:
        why = f"no other call with other arguments minted a different state for: {', '.join(no_other_call)}"
        hint = "add a second --call TOOL --args … with other arguments"
        add(Row("tamper", "the state of another call of the same tool", "", "skip", why, hint, experiment=ANOTHER_CALL))


def _judged(reference: Reference, round_: Round, alteration: Alteration, ran: Ran, options: LabOptions) -> Row:
    label = f"{reference.call.label} round {round_.index} · {alteration.name}"
    first = next((r for r in ran.call.rounds if r.kind == "request"), None)

    def row(verdict: Verdict, why: str, hint: str = "", *, security: bool = False) -> Row:
        return Row("tamper", label, ran.route, verdict, why, hint, experiment=alteration.name, security=security,
                   call=ran.call.index)  # fmt: skip

    if first is None or first.response is None:
        detail = one_line(ran.outcome.detail or ran.call.status_detail or ran.outcome.status, 160)
        return row("fail", f"no answer to the altered state: {detail}", "a bad requestState must be a client error "
                   "(-32602), never a crash, a 5xx or silence")  # fmt: skip
    if first.result_type == "error":
        error = first.error or {}
        said = f"{error.get('code')} {error.get('message', '')}"
        return row("pass", f"refused: {one_line(said, 120)}")
    if first.result_type == "input_required":
        keys = ", ".join(first.input_requests) or "state only"
        went_on = round_.result_type == "input_required" and set(first.input_requests) == set(round_.input_requests)
        if not went_on:
            return row("pass", f"refused: it asked again ({one_line(keys, 80)})")
        # It answered as it had to the real state: the next question, so it took the state as valid.
        if alteration.replay:
            return row("warn", f"accepted the state again after its call had completed (it went on: {keys})",
                       SHORT_LIFE)  # fmt: skip
        return row("fail", f"SECURITY: went on with a requestState {alteration.name} as with the real one (it asked "
                   f"{one_line(keys, 60)}, as the first time): the server MUST validate every requestState (SEP-2322)",
                   VALIDATE, security=True)  # fmt: skip
    result = first.result or {}
    if result.get("isError") is True:
        return row("pass", "refused with a tool error (isError)")
    comparison = compared(reference.ran.call, ran, options)
    outcome = (
        "with the same result as the untouched call"
        if comparison.matches
        else f"and the outcome changed: {evidence.describe(comparison.differences)}"
    )
    if alteration.replay:
        return row("warn", f"accepted the state again after its call had completed, {outcome}", SHORT_LIFE)
    if alteration.name == OMITTED:
        if comparison.matches:
            return row("pass", "completed without it, with the same result: this round needed nothing from its state")
        return row("fail", f"completed without the requestState this round had to carry, {outcome}", NO_HIDDEN_STATE)
    return row(
        "fail",
        f"SECURITY: completed on a requestState {alteration.name}, {outcome} (the server MUST validate every "
        "requestState: SEP-2322)",
        VALIDATE,
        security=True,
    )
