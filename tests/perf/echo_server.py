"""A trivial MCP server on the stdlib alone (newline JSON over stdio): the benchmark's fixed point.

It answers server/discover (2026-07-28), initialize (legacy, for clients that insist), tools/list with one `echo`
tool, and tools/call by echoing the arguments. No validation, no logging: it costs as little as a server can.
"""

from __future__ import annotations

import json
import sys

TOOL = {
    "name": "echo",
    "description": "Echo the arguments.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
}
INFO = {"io.modelcontextprotocol/serverInfo": {"name": "echo", "version": "1"}}


def reply(message: dict[str, object]) -> dict[str, object] | None:
    method = message.get("method")
    if "id" not in message:
        return None
    params = message.get("params") if isinstance(message.get("params"), dict) else {}
    assert isinstance(params, dict)
    if method == "server/discover":
        result: dict[str, object] = {
            "resultType": "complete",
            "supportedVersions": ["2026-07-28"],
            "capabilities": {"tools": {}},
            "ttlMs": 0,
            "cacheScope": "public",
            "_meta": INFO,
        }
    elif method == "initialize":
        result = {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "echo", "version": "1"},
        }
    elif method == "tools/list":
        result = {"resultType": "complete", "tools": [TOOL], "ttlMs": 0, "cacheScope": "public"}
    elif method == "tools/call":
        args = params.get("arguments")
        text = json.dumps(args, separators=(",", ":"))
        result = {"resultType": "complete", "content": [{"type": "text", "text": text}], "isError": False}
    else:
        return {
            "jsonrpc": "2.0",
            "id": message["id"],
            "error": {"code": -32601, "message": f"Method not found: {method}"},
        }
    return {"jsonrpc": "2.0", "id": message["id"], "result": result}


def main() -> None:
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        answer = reply(json.loads(line))
        if answer is not None:
            out.write(json.dumps(answer, separators=(",", ":")) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
