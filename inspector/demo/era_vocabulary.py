"""Era-aware helpers the demo flows share: one vocabulary for MRTR (2026-07-28) and legacy requests.

A 2026-07-28 flow answers with a hand-built `InputRequiredResult` whose input-request keys are the ones the spec's
examples use (`github_login`, `resolution`, ...), and reads the client's answers back from `ctx.input_responses` and
`ctx.request_state` on the retry. The SDK's `Resolve(...)` markers are not used on purpose: their wire keys are
`module:qualname`, and an inspector demo has to show the spec's own keys.

A legacy (2025-11-25 / 2025-06-18) flow sends the very same requests as standalone server-to-client JSON-RPC
requests on the tool call's own stream (`related_request_id`), so both eras carry identical `params`.
"""

from __future__ import annotations

import uuid
from typing import Any, Literal

from mcp.server.mcpserver import Context
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp_types import (
    INVALID_REQUEST,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    ClientCapabilities,
    CreateMessageRequest,
    CreateMessageRequestParams,
    CreateMessageResult,
    CreateMessageResultWithTools,
    ElicitationCapability,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitRequestURLParams,
    ElicitResult,
    FormElicitationCapability,
    InputRequest,
    InputRequiredResult,
    ListRootsRequest,
    ListRootsResult,
    MissingRequiredClientCapabilityErrorData,
    RootsCapability,
    SamplingCapability,
    SamplingMessage,
    TextContent,
    UrlElicitationCapability,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from inspector.demo import flaws

__all__ = [
    "DemoContext",
    "decode_state",
    "elicit_answer",
    "encode_state",
    "form_request",
    "input_required",
    "is_modern",
    "legacy_elicit",
    "legacy_list_roots",
    "legacy_sample",
    "require_elicitation",
    "require_roots",
    "require_sampling",
    "roots_answer",
    "roots_request",
    "sampling_answer",
    "sampling_request",
    "url_request",
]

DemoContext = Context[Any, Any]
"""The MCPServer context every demo flow receives (the demo has no lifespan state)."""


def is_modern(ctx: DemoContext) -> bool:
    """True when this request speaks 2026-07-28, where input arrives through MRTR rather than server requests."""
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


# -- requestState: the handler's plaintext. MCPServer's RequestStateBoundary seals it ("v1." AES-GCM) on the wire.
# How it is written and read is the server's state policy (``flaws.py``: sound unless the server has a flaw).


def encode_state(data: dict[str, Any]) -> str:
    """Flow state as requestState: sound, unpadded base64url of compact JSON (the shape of the spec's example)."""
    return flaws.current().encode(data)


def decode_state(ctx: DemoContext) -> dict[str, Any]:
    """The state echoed on this retry ({} on the first round or if it does not decode to a JSON object)."""
    return flaws.current().decode(ctx.request_state)


def input_required(
    requests: dict[str, InputRequest] | None = None, state: dict[str, Any] | None = None
) -> InputRequiredResult:
    """An `input_required` result; either part may be absent (state only = "load shedding")."""
    return InputRequiredResult(
        input_requests=requests or None,
        request_state=encode_state(state) if state is not None else None,
    )


# -- Building the input requests (identical params in both eras).


def form_request(message: str, schema: dict[str, Any]) -> ElicitRequest:
    """A form-mode `elicitation/create` with a hand-written `requestedSchema`."""
    return ElicitRequest(params=ElicitRequestFormParams(message=message, requested_schema=schema))


def url_request(message: str, url: str) -> ElicitRequest:
    """A URL-mode `elicitation/create` (no `elicitationId`: 2026-07-28 dropped it)."""
    return ElicitRequest(params=ElicitRequestURLParams(message=message, url=url))


def sampling_request(prompt: str, max_tokens: int) -> CreateMessageRequest:
    """A one-message `sampling/createMessage`."""
    message = SamplingMessage(role="user", content=TextContent(type="text", text=prompt))
    return CreateMessageRequest(params=CreateMessageRequestParams(messages=[message], max_tokens=max_tokens))


def roots_request() -> ListRootsRequest:
    """A `roots/list` input request (it has no params)."""
    return ListRootsRequest()


# -- Reading the answers of a 2026-07-28 retry.


def elicit_answer(ctx: DemoContext, key: str) -> ElicitResult | None:
    """The client's elicitation answer under `key`; None when absent or of another kind (the flow re-asks)."""
    answer = (ctx.input_responses or {}).get(key)
    return answer if isinstance(answer, ElicitResult) else None


def sampling_answer(ctx: DemoContext, key: str) -> CreateMessageResult | CreateMessageResultWithTools | None:
    """The client's sampling result under `key`, or None."""
    answer = (ctx.input_responses or {}).get(key)
    if isinstance(answer, CreateMessageResult | CreateMessageResultWithTools):
        return answer
    return None


def roots_answer(ctx: DemoContext, key: str) -> ListRootsResult | None:
    """The client's roots list under `key`, or None."""
    answer = (ctx.input_responses or {}).get(key)
    return answer if isinstance(answer, ListRootsResult) else None


# -- Capabilities: never ask for what the client did not declare on this request (-32021 instead).


def _missing(ctx: DemoContext, required: ClientCapabilities, what: str) -> MCPError:
    message = f"This demo flow needs the client capability {what}"
    if not is_modern(ctx):
        # -32021 belongs to 2026-07-28; a legacy client gets the plain invalid-request error instead.
        return MCPError(code=INVALID_REQUEST, message=message)
    data = MissingRequiredClientCapabilityErrorData(required_capabilities=required)
    return MCPError(
        code=MISSING_REQUIRED_CLIENT_CAPABILITY,
        message=message,
        data=data.model_dump(by_alias=True, mode="json", exclude_none=True),
    )


def require_elicitation(ctx: DemoContext, mode: Literal["form", "url"] = "form") -> None:
    """Raise -32021 unless the client declared `elicitation` for `mode` (a bare `{}` means form only)."""
    declared = flaws.current().capabilities(ctx)
    elicitation = declared.elicitation if declared else None
    if mode == "url":
        if elicitation is not None and elicitation.url is not None:
            return
        raise _missing(
            ctx, ClientCapabilities(elicitation=ElicitationCapability(url=UrlElicitationCapability())), "url"
        )
    if elicitation is not None and (elicitation.form is not None or elicitation.url is None):
        return
    required = ClientCapabilities(elicitation=ElicitationCapability(form=FormElicitationCapability()))
    raise _missing(ctx, required, "elicitation.form")


def require_sampling(ctx: DemoContext) -> None:
    """Raise -32021 unless the client declared `sampling`."""
    declared = flaws.current().capabilities(ctx)
    if declared is None or declared.sampling is None:
        raise _missing(ctx, ClientCapabilities(sampling=SamplingCapability()), "sampling")


def require_roots(ctx: DemoContext) -> None:
    """Raise -32021 unless the client declared `roots`."""
    declared = flaws.current().capabilities(ctx)
    if declared is None or declared.roots is None:
        raise _missing(ctx, ClientCapabilities(roots=RootsCapability()), "roots")


# -- Legacy era: the same requests as server-to-client JSON-RPC, on the tool call's own stream.


def _related(ctx: DemoContext) -> ServerMessageMetadata:
    return ServerMessageMetadata(related_request_id=ctx.request_context.request_id)


async def legacy_elicit(ctx: DemoContext, request: ElicitRequest) -> ElicitResult:
    """Send the very `elicitation/create` a 2026 flow would embed, as a server-to-client request.

    2025-11-25 URL mode requires an `elicitationId`, so one is minted, and since the out-of-band step is
    simulated as done at once, `notifications/elicitation/complete` follows an accept.
    """
    session = ctx.request_context.session
    params = request.params
    if isinstance(params, ElicitRequestURLParams) and params.elicitation_id is None:
        params = params.model_copy(update={"elicitation_id": uuid.uuid4().hex})
        request = ElicitRequest(params=params)
    result = await session.send_request(request, ElicitResult, metadata=_related(ctx))
    if isinstance(params, ElicitRequestURLParams) and params.elicitation_id and result.action == "accept":
        await session.send_elicit_complete(params.elicitation_id, related_request_id=ctx.request_context.request_id)
    return result


async def elicit(ctx: DemoContext, key: str, request: ElicitRequest) -> ElicitResult | InputRequiredResult:
    """Ask one question in either era: the answer, or (2026-07-28, first round) the input_required that asks it
    under ``key``; the legacy era sends it as a server request and waits."""
    if is_modern(ctx):
        answer = elicit_answer(ctx, key)
        return answer if answer is not None else input_required({key: request})
    return await legacy_elicit(ctx, request)


async def legacy_sample(ctx: DemoContext, request: CreateMessageRequest) -> CreateMessageResult:
    """Send `sampling/createMessage` built by `sampling_request` and wait for the answer."""
    session = ctx.request_context.session
    return await session.send_request(request, CreateMessageResult, metadata=_related(ctx))


async def legacy_list_roots(ctx: DemoContext) -> ListRootsResult:
    """Send `roots/list`; unlike `ServerSession.list_roots()` it rides the request's stream, not the standalone one."""
    session = ctx.request_context.session
    return await session.send_request(roots_request(), ListRootsResult, metadata=_related(ctx))
