"""What the user pointed the inspector at, parsed once: a command run over stdio or an HTTP URL, with the headers,
the environment and which values are secret. Every face reads the same object; the composition root turns it into
a transport, the recorder into redactions, the connect screen into a list of recent servers.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any, Final, Literal

TargetKind = Literal["stdio", "http"]
Era = Literal["auto", "modern", "legacy"]
ERAS: Final[tuple[Era, ...]] = ("auto", "modern", "legacy")
ALWAYS_SECRET_HEADERS: Final = frozenset({"authorization", "cookie", "proxy-authorization", "x-api-key"})
"""Headers whose values are credentials whatever the user marked."""


class TargetError(ValueError):
    """A spec, header or environment entry that cannot be understood; the message says which and why."""


@dataclass(frozen=True, slots=True)
class Target:
    """One server to connect to. ``command`` for stdio, ``url`` for HTTP; ``name`` is what the header shows."""

    kind: TargetKind
    command: tuple[str, ...] = ()
    url: str | None = None
    headers: dict[str, str] = field(default_factory=dict, hash=False)
    """Sent on every HTTP request (``--header``, ``--bearer``)."""
    env: dict[str, str] = field(default_factory=dict, hash=False)
    """Extra environment for a stdio server (``--env``, a client config file)."""
    secret_names: frozenset[str] = frozenset()
    """Header or environment names (lowercase) whose values are secret (``--secret``), besides the credential
    headers (``ALWAYS_SECRET_HEADERS``)."""
    era: Era = "auto"
    name: str = ""
    source: str = ""
    """Where it came from: "recent", ".mcp.json", "claude_desktop_config.json", a spec typed by the user."""

    @classmethod
    def from_spec(
        cls,
        spec: str,
        *,
        headers: dict[str, str] | None = None,
        env: dict[str, str] | None = None,
        secret_names: frozenset[str] | set[str] = frozenset(),
        era: Era = "auto",
        name: str = "",
        source: str = "",
    ) -> Target:
        """``http(s)://...`` is an HTTP target; anything else is a command line split like a shell would."""
        text = spec.strip()
        if not text:
            raise TargetError("empty target: give a command line or an http(s):// URL")
        secret = frozenset(n.lower() for n in secret_names)
        if text.startswith(("http://", "https://")):
            return cls(
                "http", url=text, headers=dict(headers or {}), env=dict(env or {}), secret_names=secret, era=era,
                name=name, source=source,
            )  # fmt: skip
        try:
            argv = tuple(shlex.split(text))
        except ValueError as exc:
            raise TargetError(f"cannot split the command line: {exc}") from None
        if not argv:
            raise TargetError("the server command is empty")
        return cls(
            "stdio", command=argv, headers=dict(headers or {}), env=dict(env or {}), secret_names=secret, era=era,
            name=name, source=source,
        )  # fmt: skip

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

    def secrets(self) -> list[str]:
        """Every value that must never reach a recording, a log, an export or the screen."""
        secret_headers = self.secret_header_names()
        values = [v for k, v in self.headers.items() if k.lower() in secret_headers]
        values += [v for k, v in self.env.items() if k.lower() in self.secret_names]
        for name, value in self.headers.items():
            scheme, _, token = value.partition(" ")
            if name.lower() == "authorization" and token and scheme.lower() in ("bearer", "basic"):
                values.append(token.strip())  # the token alone may come back without its scheme
        return [v for v in values if v]

    def secret_header_names(self) -> frozenset[str]:
        """Header names (lowercase) whose values are redacted from HTTP exchange records."""
        return self.secret_names | ALWAYS_SECRET_HEADERS

    def with_era(self, era: Era) -> Target:
        """The same target spoken to in another era."""
        return Target(
            self.kind, self.command, self.url, dict(self.headers), dict(self.env), self.secret_names, era, self.name,
            self.source,
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """For ``recent.json``; header and environment values are not kept (they may hold secrets)."""
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
        era: Era = given_era if given_era in ERAS else "auto"
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


def parse_headers(items: list[str], bearer: str | None = None) -> dict[str, str]:
    """``--header 'Name: value'`` entries, then ``--bearer TOKEN`` as ``Authorization``."""
    headers: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition(":")
        if not sep or not name.strip():
            raise TargetError(f"--header {item!r} is not 'Name: value'")
        headers[name.strip()] = value.strip()
    if bearer:
        headers["Authorization"] = f"Bearer {bearer}"
    return headers


def parse_env(items: list[str]) -> dict[str, str]:
    """``--env NAME=value`` entries."""
    env: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise TargetError(f"--env {item!r} is not NAME=value")
        env[name] = value
    return env
