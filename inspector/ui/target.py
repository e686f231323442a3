"""What the TUI connects to: a stdio command or an HTTP URL, as plain data the composition root turns into a session."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any, Literal

TargetKind = Literal["stdio", "http"]
Era = Literal["auto", "modern", "legacy"]


@dataclass(frozen=True, slots=True)
class Target:
    """One server to connect to. ``command`` for stdio, ``url`` for HTTP; ``name`` is what the header shows."""

    kind: TargetKind
    command: tuple[str, ...] = ()
    url: str | None = None
    headers: dict[str, str] = field(default_factory=dict, hash=False, compare=True)
    env: dict[str, str] = field(default_factory=dict, hash=False, compare=True)
    """Extra environment for a stdio server (from a client config file)."""
    era: Era = "auto"
    name: str = ""
    source: str = ""
    """Where the target came from: "recent", ".mcp.json", "claude_desktop_config.json", a spec typed by the user."""

    @classmethod
    def from_spec(
        cls, spec: str, *, headers: dict[str, str] | None = None, era: Era = "auto", name: str = ""
    ) -> Target:
        """``http(s)://...`` is an HTTP target; anything else is a command line split like a shell would."""
        text = spec.strip()
        if not text:
            raise ValueError("empty target: give a command line or an http(s):// URL")
        if text.startswith(("http://", "https://")):
            return cls("http", url=text, headers=dict(headers or {}), era=era, name=name or text)
        try:
            argv = tuple(shlex.split(text))
        except ValueError as exc:
            raise ValueError(f"cannot split the command line: {exc}") from None
        return cls("stdio", command=argv, headers=dict(headers or {}), era=era, name=name or text)

    @property
    def spec(self) -> str:
        """The spec that builds this target again (a URL, or the command line quoted for a shell)."""
        if self.kind == "http":
            return self.url or ""
        return shlex.join(self.command)

    @property
    def display_name(self) -> str:
        """A short name for headers and lists."""
        return self.name or self.spec

    def to_json(self) -> dict[str, Any]:
        """For ``recent.json``; header values are not kept (they may hold secrets)."""
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "era": self.era}
        if self.kind == "http":
            out["url"] = self.url
            if self.headers:
                out["header_names"] = sorted(self.headers)
        else:
            out["command"] = list(self.command)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Target | None:
        """Inverse of ``to_json``; None for anything malformed."""
        if not isinstance(data, dict):
            return None
        given_era = data.get("era")
        era: Era = given_era if given_era in ("auto", "modern", "legacy") else "auto"
        given_name = data.get("name")
        name = given_name if isinstance(given_name, str) else ""
        if data.get("kind") == "http" and isinstance(data.get("url"), str):
            return cls("http", url=data["url"], era=era, name=name, source="recent")
        command = data.get("command")
        if (
            data.get("kind") == "stdio"
            and isinstance(command, list)
            and command
            and all(isinstance(a, str) for a in command)
        ):
            return cls("stdio", command=tuple(command), era=era, name=name, source="recent")
        return None
