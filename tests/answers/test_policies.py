"""Policies answer by rule: decline, cancel, accept the defaults, stub, or fail with what to pass."""

from __future__ import annotations

from typing import Any

import pytest
from answer_requests import form, roots, sampling, url

from inspector.answers import ConfiguredRoots, NoAnswer, Policy, StubModel

DEFAULTED: dict[str, Any] = {
    "type": "object",
    "properties": {
        "language": {"type": "string", "enum": ["python", "go"], "default": "python"},
        "confirm": {"type": "boolean", "default": True},
        "note": {"type": "string"},
    },
    "required": ["language", "confirm"],
}


@pytest.mark.parametrize("name", ["decline", "cancel"])
async def test_decline_and_cancel_elicitations(name: Any) -> None:
    answer = await Policy(name).answer("github_login", form())

    assert answer.response == {"action": name}
    assert answer.source == f"policy: {name}"


async def test_defaults_accept_when_defaults_cover_required() -> None:
    answer = await Policy("defaults").answer("language", form(DEFAULTED))

    assert answer.response == {"action": "accept", "content": {"language": "python", "confirm": True}}
    assert answer.source == "policy: defaults"


async def test_defaults_name_the_required_fields_without_default() -> None:
    schema = {
        "type": "object",
        "properties": {"title": {"type": "string"}, "email": {"type": "string"}, "room": {"default": "A"}},
        "required": ["title", "email", "room"],
    }

    with pytest.raises(NoAnswer) as no_answer:
        await Policy("defaults").answer("meeting", form(schema))

    assert no_answer.value.reason == (
        "policy 'defaults' cannot answer 'meeting' (elicitation/create): required fields without a default: "
        'title, email. Add a "meeting" entry to the answers file, or use --on-missing decline'
    )


async def test_defaults_accept_url_mode_with_consent_only() -> None:
    answer = await Policy("defaults").answer("dashboard", url())

    assert answer.response == {"action": "accept"}


@pytest.mark.parametrize("name", ["decline", "cancel", "defaults"])
async def test_sampling_needs_the_stub_model(name: Any) -> None:
    with pytest.raises(NoAnswer, match=r"a sampling request needs a CreateMessageResult.*Pass --stub-model"):
        await Policy(name).answer("capital_of_france", sampling())

    answer = await Policy(name, stub_model=StubModel()).answer("capital_of_france", sampling())
    assert answer.response["content"]["text"] == "Paris"
    assert answer.source == "stub model"


async def test_stub_policy_brings_its_own_stub_model_and_defaults_for_forms() -> None:
    reply = await Policy("stub").answer("capital_of_france", sampling())
    form_answer = await Policy("stub").answer("language", form(DEFAULTED))

    assert reply.response["model"] == "inspector-stub"
    assert form_answer.response == {"action": "accept", "content": {"language": "python", "confirm": True}}


@pytest.mark.parametrize("name", ["decline", "cancel", "defaults", "stub"])
async def test_roots_get_the_configured_roots(name: Any) -> None:
    configured = ConfiguredRoots(["file:///srv/app"])

    with_roots = await Policy(name, roots=configured).answer("roots", roots())
    without = await Policy(name).answer("roots", roots())

    assert with_roots.response == {"roots": [{"uri": "file:///srv/app"}]}
    assert without.response == {"roots": []}


@pytest.mark.parametrize("request_", [form(), url(), sampling(), roots()])
async def test_fail_always_says_which_flags_would_answer(request_: dict[str, Any]) -> None:
    with pytest.raises(NoAnswer) as no_answer:
        await Policy("fail").answer("k", request_)

    assert no_answer.value.reason.startswith(f"no answer for 'k' ({request_['method']}): pass --answers FILE")
    assert "--on-missing decline|cancel|defaults" in no_answer.value.reason


async def test_fail_on_sampling_also_suggests_the_stub_model() -> None:
    with pytest.raises(NoAnswer, match="or --stub-model"):
        await Policy("fail").answer("capital_of_france", sampling())


async def test_fail_on_a_legacy_request_names_the_method_entry() -> None:
    with pytest.raises(
        NoAnswer,
        match=r"no answer for legacy elicitation/create request: pass --answers FILE with a 'elicitation/create' entry",
    ):
        await Policy("fail").answer(None, form())


async def test_unknown_method_is_no_answer() -> None:
    with pytest.raises(NoAnswer, match="unknown input request method"):
        await Policy("decline").answer("k", {"method": "tasks/get", "params": {}})


def test_unknown_policy_name_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown policy 'accept'"):
        Policy("accept")  # type: ignore[arg-type]  # the wrong name is the test
