"""The shapes of input responses, checked with the official ``mcp_types`` models.

Only the shape is checked here (the fields and their types); whether an elicitation answer satisfies the
server's ``requestedSchema`` depends on the request and lives in ``validation.py``. The models validate a copy:
what is sent is always the caller's own object, never a re-serialized model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from pydantic import BaseModel, ValidationError

from inspector.protocol.methods import ELICITATION, ROOTS, SAMPLING, InputMethod

if TYPE_CHECKING:
    from collections.abc import Mapping

EXPECTED_SHAPE: Final[dict[InputMethod, str]] = {
    ELICITATION: 'an ElicitResult such as {"action": "accept", "content": {...}} or {"action": "decline"}',
    SAMPLING: (
        'a CreateMessageResult such as {"role": "assistant", "content": {"type": "text", "text": "..."}, '
        '"model": "..."}'
    ),
    ROOTS: 'a ListRootsResult such as {"roots": [{"uri": "file:///path", "name": "..."}]}',
}
"""For each method, what a valid response looks like, quoted in error messages as the fix."""

RESULT_NAME: Final[dict[InputMethod, str]] = {
    ELICITATION: "ElicitResult",
    SAMPLING: "CreateMessageResult",
    ROOTS: "ListRootsResult",
}

_MAX_PROBLEMS: Final = 3


def a_result(method: InputMethod) -> str:
    """The result's name with its article, for messages: "an ElicitResult", "a ListRootsResult"."""
    name = RESULT_NAME[method]
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name}"


def expected_shape(method: object) -> str:
    """``EXPECTED_SHAPE`` for a method taken from a request, which may be any value."""
    return next((shape for known, shape in EXPECTED_SHAPE.items() if known == method), "a matching response")


def response_method(response: Mapping[str, Any]) -> InputMethod | None:
    """The input request method this response answers, judged by its fields; None if it looks like none."""
    if "action" in response:
        return ELICITATION
    if "roots" in response:
        return ROOTS
    if {"role", "content", "model"} & response.keys():
        return SAMPLING
    return None


def shape_problems(method: InputMethod, response: object) -> list[str]:
    """What keeps ``response`` from being a valid result for ``method`` (empty when it fits).

    Each problem is ``"<field path>: <message>"`` as pydantic reports it against the official model.
    """
    if not isinstance(response, dict):
        return [f"expected a JSON object, got {type(response).__name__}"]
    # Imported here: the models take ~160 ms to import, which the TUI's first paint should not wait for.
    import mcp_types

    if method == SAMPLING:
        # A reply to a request with tools may carry a list of blocks (tool_use); the plain model is tried first
        # because its errors are the clearer ones for the common single-block case.
        plain = _problems(mcp_types.CreateMessageResult, response)
        if not plain:
            return []
        with_tools = _problems(mcp_types.CreateMessageResultWithTools, response)
        if not with_tools:
            return []
        return with_tools if isinstance(response.get("content"), list) else plain
    if method == ELICITATION:
        return _problems(mcp_types.ElicitResult, response)
    return _problems(mcp_types.ListRootsResult, response)


def _problems(model: type[BaseModel], response: Mapping[str, Any]) -> list[str]:
    try:
        model.model_validate(dict(response))
    except ValidationError as exc:
        problems = []
        for error in exc.errors()[:_MAX_PROBLEMS]:
            where = ".".join(str(part) for part in error["loc"]) or "(object)"
            problems.append(f"{where}: {error['msg']}")
        return problems
    return []
