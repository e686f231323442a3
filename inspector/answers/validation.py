"""Checks an answer against its request before it is sent: no invalid answer leaves the inspector silently.

Elicitation answers are validated against the server's ``requestedSchema`` with ``jsonschema`` (Draft 2020-12,
with format checking); the UI reuses ``field_errors`` to show a message under each form field. Sampling and roots
answers are checked for shape against the official ``mcp_types`` models.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import SchemaError
from jsonschema_specifications import REGISTRY as META_SCHEMAS  # type: ignore[import-untyped]
from referencing.exceptions import Unresolvable

from inspector.answers.shapes import RESULT_NAME, shape_problems
from inspector.answers.source import AnswerRefused
from inspector.protocol.methods import ELICITATION, ROOTS, SAMPLING, InputMethod

if TYPE_CHECKING:
    from collections.abc import Mapping

    from inspector.answers.source import InputRequest, InputResponse

FORM_LEVEL: Final = ""
"""The ``field_errors`` key for an error about the content as a whole (e.g. it is not an object)."""

# RFC 3339 date-time: full-date "T" full-time, with a mandatory offset. Ranges are left to datetime.
_DATE_TIME = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt](?P<hour>\d{2}):\d{2}:(?P<second>\d{2})(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})",
    re.ASCII,
)
# RFC 3986 absolute URI: a scheme, a colon, and no characters a URI can never contain.
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:[^\s<>\"{}|\\^`]*", re.ASCII)


def _is_date_time(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    match = _DATE_TIME.fullmatch(instance)
    if match is None:
        return False
    text = instance
    if match["second"] == "60":  # a leap second is valid RFC 3339 but not a valid datetime; check the rest
        text = text[: match.start("second")] + "59" + text[match.end("second") :]
    datetime.fromisoformat(text.upper().replace("Z", "+00:00"))  # raises ValueError on e.g. month 13
    return True


def _is_uri(instance: object) -> bool:
    return not isinstance(instance, str) or _URI.fullmatch(instance) is not None


def make_format_checker() -> FormatChecker:
    """jsonschema's Draft 2020-12 format checker, completed for the four formats elicitation schemas use.

    jsonschema checks ``email`` and ``date`` itself but only checks ``date-time`` and ``uri`` when optional
    packages (rfc3339-validator, rfc3987) are installed; where they are missing, simple RFC 3339 / RFC 3986
    checks are registered instead, so the answer is checked the same way on every install.
    """
    checker = FormatChecker(formats=Draft202012Validator.FORMAT_CHECKER.checkers)
    if "date-time" not in checker.checkers:
        checker.checks("date-time", raises=ValueError)(_is_date_time)
    if "uri" not in checker.checkers:
        checker.checks("uri")(_is_uri)
    return checker


FORMAT_CHECKER: Final = make_format_checker()


def offline_validator(schema: Mapping[str, Any]) -> Draft202012Validator | None:
    """A validator for a server's ``schema``, or None when ``schema`` is not itself valid JSON Schema (it can judge
    nothing: the server's bug, which the lint reports). Formats are checked alike on every install
    (``FORMAT_CHECKER``), and the registry is the meta-schemas' alone: jsonschema's default one would download a
    remote ``$ref``, and a server's schema must never make the inspector fetch anything."""
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError:
        return None
    return Draft202012Validator(schema, format_checker=FORMAT_CHECKER, registry=META_SCHEMAS)


def field_errors(schema: Mapping[str, Any], content: object) -> dict[str, str]:
    """Map each field of ``content`` that fails ``schema`` to its first jsonschema message.

    A required field that is missing appears under its own name. An error about the content as a whole is under
    ``FORM_LEVEL`` (""). An empty dict means the content is valid. A ``requestedSchema`` that is not itself valid
    JSON Schema cannot judge anything, so it yields no errors: that is the server's bug, which the protocol lint
    reports, and it must not stop the user from answering.
    """
    validator = offline_validator(schema)
    if validator is None:
        return {}
    errors: dict[str, str] = {}
    try:
        for error in validator.iter_errors(content):
            if error.validator == "required" and not error.path and isinstance(content, dict):
                for name in error.validator_value:
                    if name not in content:
                        errors.setdefault(str(name), f"{name!r} is a required property")
                continue
            field = str(error.path[0]) if error.path else FORM_LEVEL
            errors.setdefault(field, error.message)
    except Unresolvable as unresolved:
        errors.setdefault(FORM_LEVEL, f"the schema's $ref {unresolved} is not resolvable here (nothing is fetched)")
    return errors


def validate_elicitation_answer(request_params: Mapping[str, Any] | None, response: Mapping[str, Any]) -> None:
    """Raise ``AnswerRefused`` unless ``response`` is a valid ElicitResult for this elicitation request.

    - decline and cancel carry no content;
    - a URL-mode accept is ``{"action": "accept"}`` alone: it only means consent, the data goes to the URL;
    - a form-mode accept's ``content`` (absent counts as ``{}``) must satisfy ``requestedSchema``.
    """
    _refuse_bad_shape(ELICITATION, response)
    params = request_params or {}
    action = response["action"]
    content = response.get("content")
    if action != "accept":
        if content is not None:
            raise AnswerRefused(f'a "{action}" answer carries no content: remove "content"')
        return
    if params.get("mode", "form") == "url":
        if content is not None:
            raise AnswerRefused(
                'a URL-mode accept is {"action": "accept"} only (it means consent; the user gives the data to the '
                'URL, not to the client): remove "content"'
            )
        return
    schema = params.get("requestedSchema")
    if not isinstance(schema, dict):
        return
    errors = field_errors(schema, {} if content is None else content)
    if errors:
        details = "; ".join(
            f"content: {message}" if field == FORM_LEVEL else f"field {field!r}: {message}"
            for field, message in errors.items()
        )
        raise AnswerRefused(f"the answer does not satisfy requestedSchema: {details}")


def validate_sampling_answer(request_params: Mapping[str, Any] | None, response: Mapping[str, Any]) -> None:
    """Raise ``AnswerRefused`` unless ``response`` is a CreateMessageResult fit for this request.

    Content lists and ``tool_use`` blocks belong to requests that offered ``tools``; without tools the reply is
    the single-block CreateMessageResult.
    """
    _refuse_bad_shape(SAMPLING, response)
    if (request_params or {}).get("tools"):
        return
    content = response.get("content")
    blocks = content if isinstance(content, list) else [content]
    if isinstance(content, list) or any(isinstance(b, dict) and b.get("type") == "tool_use" for b in blocks):
        raise AnswerRefused(
            "the request offered no tools, so the reply must be a single text, image or audio block, "
            "not a list or a tool_use block"
        )


def validate_roots_answer(response: Mapping[str, Any]) -> None:
    """Raise ``AnswerRefused`` unless ``response`` is a ListRootsResult whose URIs are all ``file://``."""
    _refuse_bad_shape(ROOTS, response)


def validate_answer(request: InputRequest, response: InputResponse) -> None:
    """Validate ``response`` against ``request`` by method; an unknown method has nothing to check against."""
    method = request.get("method")
    params = request.get("params")
    params = params if isinstance(params, dict) else None
    if method == ELICITATION:
        validate_elicitation_answer(params, response)
    elif method == SAMPLING:
        validate_sampling_answer(params, response)
    elif method == ROOTS:
        validate_roots_answer(response)


def _refuse_bad_shape(method: InputMethod, response: object) -> None:
    problems = shape_problems(method, response)
    if problems:
        raise AnswerRefused(f"not a valid {RESULT_NAME[method]}: {'; '.join(problems)}")
