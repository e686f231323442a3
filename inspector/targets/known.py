"""Targets the connect screen offers: recent ones (saved by us) and servers found in MCP client config files.

Client config files are only ever read. A file that is missing is skipped; one that cannot be parsed is reported
as a problem line on the connect screen, never an exception.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from inspector import paths
from inspector.targets.target import Target

RECENT_FILE: Final = "recent.json"
RECENT_LIMIT: Final = 12


def config_dir() -> Path:
    """The inspector's config folder (recent targets, user themes)."""
    return paths.config_dir()


@dataclass(slots=True)
class Found:
    """What the config files gave: targets, and a line for each file that could not be read."""

    targets: list[Target] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


# ------------------------------------------------------------------------------------------------ recent targets
def load_recent(folder: Path) -> list[Target]:
    """Recent targets, newest first; a missing or broken file gives an empty list."""
    try:
        data = json.loads((folder / RECENT_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    items = data.get("targets") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return []
    return [target for target in (Target.from_json(item) for item in items) if target is not None]


def remember(folder: Path, target: Target) -> list[Target]:
    """Put ``target`` first in the recent list (deduplicated, capped) and save it; returns the new list.

    Saving is best effort: an unwritable config folder must not stop a session.
    """
    recent = [t for t in load_recent(folder) if t.spec != target.spec]
    recent.insert(0, target)
    recent = recent[:RECENT_LIMIT]
    try:
        payload = {"targets": [t.to_json() for t in recent]}
        # (the user's only, like a recording: a command line or a URL may carry a token, `--token X`, `?key=`)
        with os.fdopen(paths.open_private(folder / RECENT_FILE), "w", encoding="utf-8") as out:
            out.write(json.dumps(payload, indent=2) + "\n")
    except OSError:
        pass
    return recent


# ------------------------------------------------------------------------------------------------ client configs
def claude_desktop_config(home: Path) -> Path:
    """Where Claude Desktop keeps its config on this platform."""
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
    if sys.platform == "win32":
        appdata = os.environ.get("APPDATA")
        return (Path(appdata) if appdata else home / "AppData" / "Roaming") / "Claude" / "claude_desktop_config.json"
    return home / ".config" / "Claude" / "claude_desktop_config.json"


def config_files(home: Path, cwd: Path) -> list[tuple[str, Path]]:
    """The client config files we look at, with the label shown for each."""
    return [
        ("claude_desktop_config.json", claude_desktop_config(home)),
        (".mcp.json", cwd / ".mcp.json"),
        (".vscode/mcp.json", cwd / ".vscode" / "mcp.json"),
        ("~/.cursor/mcp.json", home / ".cursor" / "mcp.json"),
    ]


def _server(label: str, name: str, entry: Any) -> Target | None:
    if not isinstance(entry, dict):
        return None
    display = f"{name} ({label})"
    url = entry.get("url") or entry.get("serverUrl")
    if isinstance(url, str) and url.startswith(("http://", "https://")):
        headers = entry.get("headers")
        clean_headers = {str(k): str(v) for k, v in headers.items()} if isinstance(headers, dict) else {}
        return Target("http", url=url, headers=clean_headers, name=display, source=label)
    command = entry.get("command")
    if not isinstance(command, str) or not command:
        return None
    args = entry.get("args")
    argv = [command, *(str(a) for a in args)] if isinstance(args, list) else [command]
    env = entry.get("env")
    clean_env = {str(k): str(v) for k, v in env.items()} if isinstance(env, dict) else {}
    return Target("stdio", command=tuple(argv), env=clean_env, name=display, source=label)


def parse_config(label: str, text: str) -> list[Target]:
    """Servers of one config file (``mcpServers`` or VS Code's ``servers``); raises ValueError on bad JSON."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("the file is not a JSON object")
    found: list[Target] = []
    for key in ("mcpServers", "servers"):
        servers = data.get(key)
        if isinstance(servers, dict):
            for name, entry in servers.items():
                target = _server(label, str(name), entry)
                if target is not None:
                    found.append(target)
    return found


def discover(home: Path | None = None, cwd: Path | None = None) -> Found:
    """Servers from every client config file that exists, in the order of ``config_files``."""
    found = Found()
    for label, path in config_files(home or Path.home(), cwd or Path.cwd()):
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            continue
        except OSError as exc:
            found.problems.append(f"{label}: cannot read {path}: {exc.strerror or exc}")
            continue
        try:
            found.targets.extend(parse_config(label, text))
        except ValueError as exc:
            found.problems.append(f"{label}: {path} is not valid JSON ({exc})")
    return found
