"""The changes ``lab tamper`` makes to a requestState: the only place the inspector ever alters one.

Every other retry the inspector sends echoes the state byte for byte (the MRTR driver); these are experiments,
made into the params of a call of their own and labelled so on the timeline, in the recording and in the report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from inspector.protocol.jsonrpc import JsonObject

OMITTED: Final = "omitted"
ANOTHER_CALL: Final = "of another call of the same tool"
REPLAYED: Final = "replayed after its call completed"


@dataclass(frozen=True, slots=True)
class Alteration:
    """One experiment on one round: its name, the state to send (None: the field left out), and whether it is a
    replay of the untouched state (judged apart: a replay breaks no MUST by itself)."""

    name: str
    state: str | None
    replay: bool = False

    def describe(self) -> str:
        """What was done, for the timeline and the report."""
        if self.state is None:
            return f"requestState {self.name}"
        return f"requestState {self.name} ({len(self.state)} chars)"


def _next_char(char: str) -> str:
    if char.isdigit():
        return str((int(char) + 1) % 10)
    base = ord("a") if char.islower() else ord("A")
    return chr(base + (ord(char) - base + 1) % 26)


def flipped(value: str) -> str:
    """One byte changed: the letter or digit nearest the middle (rightwards first) becomes the next one, so a
    base64 token stays base64 and a JSON text stays JSON, and only the server's own check can tell."""
    if not value:
        return "x"
    middle = len(value) // 2
    order = list(range(middle, len(value))) + list(range(middle - 1, -1, -1))
    for index in order:
        char = value[index]
        if char.isascii() and char.isalnum():
            return value[:index] + _next_char(char) + value[index + 1 :]
    index = middle
    return value[:index] + ("a" if value[index] != "a" else "b") + value[index + 1 :]


def truncated(value: str) -> str:
    """The first half."""
    return value[: len(value) // 2]


def alterations(state: str, *, other_call: str | None, other_tool: str | None) -> list[Alteration]:
    """Every experiment on a round that carried ``state``: one byte flipped, truncated, empty, omitted, another
    call's state, another tool's, and the untouched state replayed after its call completed."""
    found = [
        Alteration("with one byte flipped", flipped(state)),
        Alteration("truncated to half", truncated(state)),
        Alteration("empty", ""),
        Alteration(OMITTED, None),
    ]
    if other_call is not None:
        found.append(Alteration(ANOTHER_CALL, other_call))
    if other_tool is not None:
        found.append(Alteration("of another tool", other_tool))
    found.append(Alteration(REPLAYED, state, replay=True))
    return found


def with_state(params: JsonObject, state: str | None) -> JsonObject:
    """``params`` (a retry's, ``_meta`` removed) carrying ``state`` instead (None: without one)."""
    out = {key: value for key, value in params.items() if key not in ("_meta", "requestState")}
    if state is not None:
        out["requestState"] = state
    return out
