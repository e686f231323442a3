"""The timeline's filter (``f``): which calls a typed filter keeps. Pure (tested without a screen)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.timeline.model import Call


@dataclass(frozen=True, slots=True)
class CallFilter:
    """Terms that must all match: ``method:X``, ``name:X``, ``status:X``, ``error``, ``findings``, or free words."""

    text: str = ""

    def _terms(self) -> list[str]:
        return [term.lower() for term in self.text.split()]

    def matches(self, call: Call) -> bool:
        """Whether ``call`` passes every term."""
        method = call.method.lower()
        name = (call.name or "").lower()
        for term in self._terms():
            key, _, value = term.partition(":")
            if not value:
                key, value = "", term
            if key == "method" and value not in method:
                return False
            if key == "name" and value not in name:
                return False
            if key == "status" and not call.status.startswith(value):
                return False
            if key in ("has", "is", "") and value in ("error", "errors"):
                if not call.failed:
                    return False
            elif key in ("has", "is", "") and value in ("finding", "findings"):
                if not call.all_findings():
                    return False
            elif key == "" and value not in method and value not in name and value != call.status:
                return False
        return True
