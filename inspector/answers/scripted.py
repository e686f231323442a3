"""A scripted answers file: input-request key -> the exact input response to send.

The file is a JSON object. Each entry is one of:

- a response object, sent exactly as written (an ElicitResult, CreateMessageResult or ListRootsResult);
- a list of response objects, used in order each time the entry answers (the last one then repeats), which is
  how a recorded session is replayed when a server asks the same key in several rounds;
- a policy name: ``"decline"``, ``"cancel"``, ``"defaults"``, ``"stub"`` or ``"fail"`` (see ``policies.py``).

Which entry answers a request: its ``inputRequests`` key; then its method name (``"elicitation/create"``,
``"sampling/createMessage"``, ``"roots/list"``), which is the only way to answer a legacy server->client
request since those have no key; then ``"*"``. A request no entry matches is ``Skip``ped so that the next source
(the stub model, the configured roots, the on-missing policy) can answer it; so is one whose ``"*"`` policy cannot
answer it (``"decline"`` has no CreateMessageResult to give), except ``"fail"``, which fails.

Every response is checked for shape against the official ``mcp_types`` models when the file is loaded, so a
typo is reported before the first call, naming the file, the entry and the fix.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from inspector.answers.policies import POLICY_NAMES, Policy, PolicyName, entry_name, is_policy_name
from inspector.answers.roots import ConfiguredRoots
from inspector.answers.shapes import (
    EXPECTED_SHAPE,
    RESULT_NAME,
    a_result,
    expected_shape,
    response_method,
    shape_problems,
)
from inspector.answers.source import Answer, AnswerRefused, NoAnswer, Skip, describe_request
from inspector.answers.stub_model import StubModel
from inspector.protocol.json_input import a_json_type
from inspector.protocol.methods import INPUT_METHODS, InputMethod

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from inspector.answers.source import InputRequest, InputResponse

WILDCARD: Final = "*"
SOURCE: Final = "answers file"

_POLICY_LIST: Final = ", ".join(f'"{name}"' for name in POLICY_NAMES)
_ENTRY_FORMS: Final = f"a response object, a list of response objects, or a policy name ({_POLICY_LIST})"


class AnswersFileError(Exception):
    """An answers file that cannot be used; the message names the file, the entry (if any) and the fix."""

    def __init__(self, file: str, message: str, key: str | None = None) -> None:
        where = f"answers file {file}" + (f", entry {key!r}" if key is not None else "")
        super().__init__(f"{where}: {message}")
        self.file = file
        self.key = key


@dataclass(slots=True)
class ResponsesEntry:
    """Responses for one entry, all answering ``method``, handed out in order; the last one repeats."""

    method: InputMethod
    responses: list[InputResponse]
    used: int = field(default=0)

    def take(self) -> InputResponse:
        """The next response (a copy, so whoever sends it cannot change the script)."""
        response = self.responses[min(self.used, len(self.responses) - 1)]
        self.used += 1
        return copy.deepcopy(response)


@dataclass(frozen=True, slots=True)
class PolicyEntry:
    """An entry that names a policy instead of a response."""

    policy: PolicyName


Entry: TypeAlias = ResponsesEntry | PolicyEntry


class ScriptedAnswers:
    """Answers input requests from a parsed answers file (build it with ``load_answers_file``)."""

    def __init__(
        self,
        entries: Mapping[str, Entry],
        *,
        file: str = "<answers>",
        roots: ConfiguredRoots | None = None,
        stub_model: StubModel | None = None,
    ) -> None:
        self.entries = dict(entries)
        self.file = file
        self.roots = roots if roots is not None else ConfiguredRoots()
        self.stub_model = stub_model if stub_model is not None else StubModel()

    async def answer(self, key: str | None, request: InputRequest) -> Answer:
        """The scripted answer; ``Skip`` if no entry fits, ``AnswerRefused`` if the key's entry is of another kind."""
        method = request.get("method")
        names = ([key] if key is not None else []) + [str(method), WILDCARD]
        for name in names:
            entry = self.entries.get(name)
            if isinstance(entry, ResponsesEntry):
                if entry.method == method:
                    return Answer(entry.take(), SOURCE)
                if name == key:
                    raise AnswerRefused(
                        f"answers file {self.file}, entry {key!r} is {a_result(entry.method)} but the server "
                        f"asked {describe_request(key, request)}: replace it with {expected_shape(method)}"
                    )
            elif isinstance(entry, PolicyEntry):
                return await self._by_policy(name, entry.policy, key, request)
        raise Skip(
            f"answers file {self.file} has no entry for {describe_request(key, request)}: add "
            f'"{entry_name(key, request)}": {expected_shape(method)}'
        )

    async def _by_policy(self, name: str, policy: PolicyName, key: str | None, request: InputRequest) -> Answer:
        source = Policy(policy, stub_model=self.stub_model if policy == "stub" else None, roots=self.roots)
        try:
            answer = await source.answer(key, request)
        except AnswerRefused:
            raise
        except NoAnswer as exc:
            if policy == "fail":
                raise
            raise Skip(f"answers file {self.file}, entry {name!r}: {exc.reason}") from exc
        return Answer(answer.response, f"{SOURCE} ({answer.source})", answer.party, answer.model_ms)


def load_answers_file(
    path: str | Path, *, roots: ConfiguredRoots | None = None, stub_model: StubModel | None = None
) -> ScriptedAnswers:
    """Read and check an answers file; ``AnswersFileError`` says what is wrong and how to fix it.

    ``roots`` are what ``"*"``-style policies answer ``roots/list`` with; ``stub_model`` is what the ``"stub"``
    policy uses (a default ``StubModel`` if not given).
    """
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise AnswersFileError(file, f"is not UTF-8 text ({exc.reason}); save it as UTF-8 JSON") from exc
    except OSError as exc:
        raise AnswersFileError(file, f"cannot be read ({exc.strerror or exc}); check the path") from exc
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates(file))
    except json.JSONDecodeError as exc:
        raise AnswersFileError(
            file,
            f"is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "fix the syntax (JSON allows no comments and no trailing commas)",
        ) from exc
    return parse_answers(data, file=file, roots=roots, stub_model=stub_model)


def parse_answers(
    data: object,
    *,
    file: str = "<answers>",
    roots: ConfiguredRoots | None = None,
    stub_model: StubModel | None = None,
) -> ScriptedAnswers:
    """Check already-parsed answers-file data (the JSON value) and build the source from it."""
    if not isinstance(data, dict):
        raise AnswersFileError(
            file,
            f"must be a JSON object mapping input-request keys to responses, but it is {a_json_type(data)}; "
            'write it as {"github_login": {"action": "accept", "content": {"name": "octocat"}}}',
        )
    entries = {str(name): _parse_entry(str(name), value, file) for name, value in data.items()}
    return ScriptedAnswers(entries, file=file, roots=roots, stub_model=stub_model)


def _parse_entry(name: str, value: object, file: str) -> Entry:
    if isinstance(value, str):
        if is_policy_name(value):
            return PolicyEntry(value)
        raise AnswersFileError(file, f"{value!r} is not a policy name; use {_ENTRY_FORMS}", key=name)
    if isinstance(value, dict):
        responses: list[object] = [value]
    elif isinstance(value, list):
        if not value:
            raise AnswersFileError(file, "is an empty list; give at least one response (the last one repeats)", name)
        responses = value
    else:
        raise AnswersFileError(file, f"is {a_json_type(value)}; use {_ENTRY_FORMS}", key=name)
    fixed: InputMethod | None = next((m for m in INPUT_METHODS if m == name), None)
    method: InputMethod | None = None
    checked: list[InputResponse] = []
    for index, response in enumerate(responses):
        item = f"item {index}" if isinstance(value, list) else "the response"
        if not isinstance(response, dict):
            raise AnswersFileError(
                file, f"{item} is {a_json_type(response)}; each item of a list must be a response object", name
            )
        kind = fixed or response_method(response)
        if kind is None:
            shapes = "; or ".join(EXPECTED_SHAPE.values())
            raise AnswersFileError(file, f"{item} is not an input response; write {shapes}", name)
        problems = shape_problems(kind, response)
        if problems:
            raise AnswersFileError(
                file,
                f"{item} is not a valid {RESULT_NAME[kind]} ({'; '.join(problems)}); write {EXPECTED_SHAPE[kind]}",
                name,
            )
        if method is not None and kind != method:
            raise AnswersFileError(
                file,
                f"{item} is {a_result(kind)} but the items before it are {RESULT_NAME[method]}s; "
                "one entry answers one kind of request",
                name,
            )
        method = kind
        checked.append(response)
    assert method is not None  # responses is never empty here
    return ResponsesEntry(method, checked)


def _no_duplicates(file: str) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for name, value in pairs:
            if name in result:
                raise AnswersFileError(file, f"the key {name!r} appears twice in one JSON object; keep one of them")
            result[name] = value
        return result

    return hook
