"""The extensions the inspector declares (``envelope.CLIENT_EXTENSIONS``): Tasks and Skills on every 2026 request's
``_meta``, and in ``initialize`` for a 2025 server (Tasks as that revision's ``tasks`` capability, Skills where
2025-11-25 servers that offer it look: ``capabilities.extensions``); ``--no-tasks`` leaves only Tasks out."""

from __future__ import annotations

from inspector.protocol.envelope import CLIENT_EXTENSIONS, META_CLIENT_CAPABILITIES, build_meta, client_capabilities
from inspector.session.legacy import initialize_params

TASKS = "io.modelcontextprotocol/tasks"
SKILLS = "io.modelcontextprotocol/skills"


def test_every_2026_request_declares_tasks_and_skills() -> None:
    assert set(CLIENT_EXTENSIONS) == {TASKS, SKILLS}
    declared = build_meta("2026-07-28")[META_CLIENT_CAPABILITIES]
    assert declared["extensions"] == {TASKS: {}, SKILLS: {}}
    assert client_capabilities(tasks=False)["extensions"] == {SKILLS: {}}, "--no-tasks keeps the Skills extension"


def test_initialize_declares_skills_under_extensions_and_tasks_as_its_own_capability() -> None:
    capabilities = initialize_params(client_capabilities())["capabilities"]
    assert capabilities["extensions"] == {SKILLS: {}}
    assert capabilities["tasks"] == {"list": {}, "cancel": {}}
    without_tasks = initialize_params(client_capabilities(tasks=False))["capabilities"]
    assert "tasks" not in without_tasks and without_tasks["extensions"] == {SKILLS: {}}
    bare = initialize_params({"roots": {}})["capabilities"]
    assert bare == {"roots": {"listChanged": True}}, "no extension declared, no extensions key"
