"""A resource template's variables and the URI they expand to (RFC 6570, levels 1 to 3), for the template composer.

Pure and small on purpose: the official SDK has an expander (``mcp.shared.uri_template``), but importing it imports
the whole ``mcp`` package (more than a second), and the composer only needs the variable names and a preview of the
URI. A template this cannot read is composed as a plain URI field instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final
from urllib.parse import quote

EXPRESSION: Final = re.compile(r"\{([^{}]*)\}")
VARNAME: Final = re.compile(r"^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$")
RESERVED: Final = ":/?#[]@!$&'()*+,;="


@dataclass(frozen=True, slots=True)
class Operator:
    """How one operator of RFC 6570 expands: what comes first, between values, whether names are shown, whether
    reserved characters stay as they are."""

    first: str
    separator: str
    named: bool
    reserved: bool


OPERATORS: Final[dict[str, Operator]] = {
    "": Operator("", ",", False, False),
    "+": Operator("", ",", False, True),
    "#": Operator("#", ",", False, True),
    ".": Operator(".", ".", False, False),
    "/": Operator("/", "/", False, False),
    ";": Operator(";", ";", True, False),
    "?": Operator("?", "&", True, False),
    "&": Operator("&", "&", True, False),
}


def variables(template: str) -> list[str] | None:
    """The variable names of ``template``, in order, each once; None when it is not a template this reads."""
    names: list[str] = []
    for match in EXPRESSION.finditer(template):
        body = match.group(1)
        operator = body[:1] if body[:1] in OPERATORS and body[:1] else ""
        for part in body[len(operator) :].split(","):
            name = part.rstrip("*").split(":")[0]
            if not VARNAME.match(name):
                return None
            if name not in names:
                names.append(name)
    if "{" in EXPRESSION.sub("", template) or "}" in EXPRESSION.sub("", template):
        return None
    return names


def expand(template: str, values: dict[str, str]) -> str:
    """``template`` with each variable replaced by its value (an empty or missing one is left out, as RFC 6570
    says for undefined variables)."""

    def expression(match: re.Match[str]) -> str:
        body = match.group(1)
        key = body[:1] if body[:1] in OPERATORS and body[:1] else ""
        operator = OPERATORS[key]
        parts: list[str] = []
        for part in body[len(key) :].split(","):
            name, _, prefix = part.rstrip("*").partition(":")
            value = values.get(name, "")
            if not value:
                continue
            if prefix.isdigit():
                value = value[: int(prefix)]
            encoded = quote(value, safe=RESERVED if operator.reserved else "")
            parts.append(f"{name}={encoded}" if operator.named else encoded)
        return operator.first + operator.separator.join(parts) if parts else ""

    return EXPRESSION.sub(expression, template)
