"""A call the lab makes in every variant (``--call TOOL --args JSON``, a recorded call, a choice of the Lab screen).

Apart from ``plan.py`` so the Lab screen can hold one without importing what runs the lab (sessions, transports).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from inspector.protocol.methods import request_label, used_item

if TYPE_CHECKING:
    from inspector.protocol.jsonrpc import JsonObject
    from inspector.timeline.model import Call


@dataclass(frozen=True, slots=True)
class LabCall:
    """One request the lab makes in every variant: its method and params, and (``--from``) the recorded call whose
    answers answer its first run."""

    method: str
    params: JsonObject
    recorded: Call | None = field(default=None, compare=False)

    @property
    def name(self) -> str:
        """The tool or prompt name, or the resource URI."""
        return used_item(self.params)

    @property
    def label(self) -> str:
        """``tools/call update_work_item``."""
        return request_label(self.method, self.params)


def tool_call(name: str, arguments: JsonObject | None = None) -> LabCall:
    """A ``tools/call`` (``--call TOOL --args JSON``)."""
    params: JsonObject = {"name": name}
    if arguments is not None:
        params["arguments"] = arguments
    return LabCall("tools/call", params)
