"""Answers given by rule rather than by a person or a file: decline, cancel, accept the defaults, stub, or fail.

What each policy does per method:

=========  ===========================  ==============================  =======================
policy     elicitation/create           sampling/createMessage          roots/list
=========  ===========================  ==============================  =======================
decline    ``{"action": "decline"}``    stub model if enabled, else     configured roots
cancel     ``{"action": "cancel"}``     NoAnswer (a decline is not a    (``[]`` if none)
defaults   schema defaults (see below)  CreateMessageResult)
stub       as ``defaults``              stub model                      configured roots
fail       NoAnswer                     NoAnswer                        NoAnswer
=========  ===========================  ==============================  =======================

``defaults`` accepts a form with each field's ``default``, provided that covers every ``required`` field;
otherwise it raises ``NoAnswer`` naming the required fields that have no default.

``defaults`` accepts a URL-mode elicitation with ``{"action": "accept"}``. Accept means only "the user consents
to go to the URL"; the inspector never opens or fetches it. A headless run has no person to ask, and choosing
``defaults`` is the user's standing consent, so the flow can continue to its next round (the server then
re-asks, completes or reports that the out-of-band step is missing), which is what a scripted run wants to see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Literal, TypeGuard, get_args

from inspector.answers.roots import ConfiguredRoots
from inspector.answers.source import Answer, NoAnswer, describe_request
from inspector.answers.stub_model import StubModel
from inspector.protocol.methods import ELICITATION, ROOTS, SAMPLING

if TYPE_CHECKING:
    from collections.abc import Mapping

    from inspector.answers.source import InputRequest, InputResponse

PolicyName = Literal["decline", "cancel", "defaults", "stub", "fail"]
POLICY_NAMES: Final[tuple[PolicyName, ...]] = get_args(PolicyName)

OnMissing = Literal["fail", "decline", "cancel", "defaults"]
"""The policies a user can pick for requests nothing else answers (``--on-missing``)."""


def is_policy_name(value: object) -> TypeGuard[PolicyName]:
    """Whether ``value`` names a policy (as an answers-file entry may)."""
    return value in POLICY_NAMES


def entry_name(key: str | None, request: InputRequest) -> str:
    """The answers-file entry that would answer this request: its key, or its method for a legacy request."""
    return key if key is not None else str(request.get("method", "*"))


def defaults_response(key: str | None, request: InputRequest) -> InputResponse:
    """Accept an elicitation with its schema's defaults (URL mode: plain accept); ``NoAnswer`` if required
    fields have no default."""
    params: Mapping[str, Any] = request.get("params") or {}
    if params.get("mode") == "url":
        return {"action": "accept"}
    schema = params.get("requestedSchema")
    schema = schema if isinstance(schema, dict) else {}
    properties = schema.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    content = {
        name: field["default"] for name, field in properties.items() if isinstance(field, dict) and "default" in field
    }
    required = schema.get("required")
    missing = [str(name) for name in (required if isinstance(required, list) else []) if name not in content]
    if missing:
        raise NoAnswer(
            f"policy 'defaults' cannot answer {describe_request(key, request)}: required "
            f"field{'s' if len(missing) > 1 else ''} without a default: {', '.join(missing)}. "
            f'Add a "{entry_name(key, request)}" entry to the answers file, or use --on-missing decline'
        )
    return {"action": "accept", "content": content}


def fail_reason(key: str | None, request: InputRequest) -> str:
    """Why nothing answered, and the flags that would: the message of the ``fail`` policy."""
    name = entry_name(key, request)
    reason = (
        f"no answer for {describe_request(key, request)}: pass --answers FILE with a {name!r} entry, "
        "or --on-missing decline|cancel|defaults to answer unanswered requests by rule"
    )
    if request.get("method") == SAMPLING:
        reason += ", or --stub-model to let the stub model reply to sampling"
    return reason


class Policy:
    """An answer source that applies one policy (see the module table) to every request it is given."""

    def __init__(
        self, name: PolicyName, *, stub_model: StubModel | None = None, roots: ConfiguredRoots | None = None
    ) -> None:
        if name not in POLICY_NAMES:
            raise ValueError(f"unknown policy {name!r}: use one of {', '.join(POLICY_NAMES)}")
        self.name: PolicyName = name
        self.stub_model = StubModel() if name == "stub" and stub_model is None else stub_model
        self.roots = roots if roots is not None else ConfiguredRoots()

    @property
    def source(self) -> str:
        """The label on answers this policy gives: ``"policy: decline"``."""
        return f"policy: {self.name}"

    async def answer(self, key: str | None, request: InputRequest) -> Answer:
        """Answer by the policy, or raise ``NoAnswer`` saying what to pass instead."""
        method = request.get("method")
        if self.name == "fail":
            raise NoAnswer(fail_reason(key, request))
        if method == ELICITATION:
            if self.name in ("decline", "cancel"):
                return Answer({"action": self.name}, self.source)
            return Answer(defaults_response(key, request), self.source)
        if method == SAMPLING:
            if self.stub_model is not None:
                return await self.stub_model.answer(key, request)
            raise NoAnswer(
                f"policy {self.name!r} cannot answer {describe_request(key, request)}: a sampling request needs "
                "a CreateMessageResult, which only a model gives. Pass --stub-model, or add a "
                f'"{entry_name(key, request)}" entry to the answers file'
            )
        if method == ROOTS:
            return await self.roots.answer(key, request)
        raise NoAnswer(
            f"{describe_request(key, request)}: unknown input request method; the inspector answers only "
            f"{ELICITATION}, {SAMPLING} and {ROOTS}"
        )
