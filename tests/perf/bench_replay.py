"""Replay speed and recording size: a real session of N ``add`` calls on the demo server, recorded, then loaded.

1. Records a live session (``InspectorSession`` + ``Recorder``) of N ``tools/call add`` against the demo server,
   over stdio (default) or Streamable HTTP (``--http``), or synthesises the same records (``--synthetic``).
2. Loads the recording into the Timeline model (``timeline_from_recording``): wall time (best of ``--repeat``), and
   peak memory in a separate tracemalloc pass (tracemalloc slows the code it watches, so it is not timed).
3. Compares the recording's size with the bytes that crossed the wire: every message's exact text in UTF-8 plus its
   delimiter (a newline on stdio), plus on HTTP each request's and each response's header lines. Must be <= 1.5x.

The default run (10,000 calls over stdio) takes about 40 s on the 2-core development machine, 25 s of it recording;
the first line says how long a run will take from its options. Slower: ``--http`` (about 75 s at 10,000 calls), a
larger ``--calls`` or ``--repeat``; faster: ``--synthetic`` (no server).

Usage: python tests/perf/bench_replay.py [--calls 10000] [--http] [--synthetic] [--repeat 3] [--keep FILE]
"""

from __future__ import annotations

import asyncio
import gc
import json
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any, Final

from perf_support import announce, arguments

from inspector.answers.build import build_answer_source
from inspector.replay.loader import timeline_from_recording
from inspector.session.recorder import Recorder
from inspector.session.session import InspectorSession
from inspector.timeline import records
from inspector.transport.base import Transport

DEMO = [sys.executable, "-m", "inspector.demo"]
LIMIT = 1.5
RECORD_S_PER_CALL: Final = {"stdio": 0.0028, "HTTP": 0.006, "synthetic": 0.00006}
"""What recording a call costs on the 2-core development machine, by how the records are made (first line's
estimate)."""
LOAD_S_PER_CALL: Final = 0.00026
"""What loading a call into the Timeline costs there, per ``--repeat``."""
TRACED_S_PER_CALL: Final = 0.0007
"""What the tracemalloc pass (a load about 2.5 times slower) and counting the wire bytes cost there, per call."""


async def record_live(path: Path, calls: int, url: str | None) -> float:
    """Run the session, recording to ``path``; returns its wall time."""
    transport: Transport
    if url is not None:
        from inspector.transport.http import StreamableHttpTransport

        transport = StreamableHttpTransport(url)
    else:
        from inspector.transport.stdio import StdioTransport

        transport = StdioTransport(DEMO)
    header = records.header(transport.describe(), transport.kind, "auto", started="bench", inspector_version="bench")
    recorder = Recorder(path, header)
    session = InspectorSession(transport, build_answer_source(), recorder=recorder)
    start = time.perf_counter()
    try:
        await session.connect()
        await session.list_all("tools")
        for i in range(calls):
            outcome = await session.call_tool("add", {"a": i, "b": 1})
            assert outcome.ok, outcome.detail
    finally:
        await session.close()
        recorder.close()
    return time.perf_counter() - start


def synthesise(path: Path, calls: int) -> None:
    """The records a stdio session of ``calls`` add calls writes, without a server (same shapes, same sizes)."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {
            "name": "inspector",
            "title": "inspector (terminal MCP inspector)",
            "version": "0.1.0",
        },
        "io.modelcontextprotocol/clientCapabilities": {
            "elicitation": {"form": {}, "url": {}},
            "sampling": {},
            "roots": {},
        },
    }
    server_meta = {
        "io.modelcontextprotocol/serverInfo": {
            "name": "inspector-demo",
            "title": "Inspector demo server",
            "version": "0.1.0",
        }
    }
    recorder = Recorder(
        path, records.header(" ".join(DEMO), "stdio", "auto", started="bench", inspector_version="bench")
    )
    t = 0.0
    recorder.write(records.era(t, "modern", "2026-07-28", "synthetic"))
    for i in range(1, calls + 1):
        t += 0.001
        params = {"name": "add", "arguments": {"a": i, "b": 1}}
        request = {
            "jsonrpc": "2.0",
            "id": i,
            "method": "tools/call",
            "params": {**params, "_meta": {**meta, "progressToken": f"p{i}.{i}"}},
        }
        result = {
            "content": [{"type": "text", "text": str(i + 1)}],
            "structuredContent": {"result": i + 1},
            "isError": False,
            "resultType": "complete",
            "_meta": server_meta,
        }
        recorder.write(records.call_started(t, i, "tools/call", params))
        recorder.write(records.wire(t, "c2s", json.dumps(request, separators=(",", ":")), call=i))
        recorder.write(
            records.wire(
                t + 0.0005, "s2c", json.dumps({"jsonrpc": "2.0", "id": i, "result": result}, separators=(",", ":"))
            )
        )
        recorder.write(records.call_ended(t + 0.0006, i, "complete"))
    recorder.close()


def _header_bytes(headers: Any) -> int:
    return sum(len(f"{k}: {v}\r\n".encode()) for k, v in headers.items()) + 2 if isinstance(headers, dict) else 0


def wire_bytes(path: Path) -> tuple[int, int, int]:
    """(message bytes incl. delimiters, HTTP header bytes, messages) that crossed the wire, from the recording."""
    message = http = count = 0
    answered: set[Any] = set()
    with path.open("rb") as file:
        next(file)
        for line in file:
            record = json.loads(line)
            if record.get("dir") not in ("c2s", "s2c"):
                continue
            count += 1
            message += len((records.raw_text(record) or "").encode("utf-8")) + 1
            info = record.get("http")
            if not isinstance(info, dict):
                continue
            if record["dir"] == "c2s":
                http += _header_bytes(info.get("request_headers"))
            key = record.get("reply_to")
            if record["dir"] == "s2c" and key not in answered:  # one response's headers, however many messages
                answered.add(key)
                http += _header_bytes(info.get("response_headers"))
    return message, http, count


def measure_load(path: Path, repeat: int) -> tuple[float, int, int]:
    """(best load time in s, peak traced bytes, calls)."""
    best = float("inf")
    calls = 0
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        timeline, problems = timeline_from_recording(path)
        best = min(best, time.perf_counter() - start)
        assert not problems, problems[:3]
        calls = len(timeline.calls)
        del timeline
    gc.collect()
    tracemalloc.start()
    timeline, _ = timeline_from_recording(path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del timeline
    return best, peak, calls


def _demo_http() -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [*DEMO, "--http", "--port", "0"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True
    )
    assert process.stderr is not None
    line = process.stderr.readline()  # the demo prints its URL once listening (bounded by the server's startup)
    return process, line.strip().rsplit(" ", 1)[-1]


def main() -> int:
    parser = arguments(__doc__)
    parser.add_argument("--calls", type=int, default=10_000)
    parser.add_argument("--http", action="store_true", help="record over Streamable HTTP instead of stdio")
    parser.add_argument("--synthetic", action="store_true", help="synthesise the records instead of a live session")
    parser.add_argument("--repeat", type=int, default=3, help="load this many times, keep the best")
    parser.add_argument("--keep", type=Path, help="write the recording here (default: a temp file, deleted)")
    args = parser.parse_args()
    made = "synthetic" if args.synthetic else "HTTP" if args.http else "stdio"
    per_call = RECORD_S_PER_CALL[made] + args.repeat * LOAD_S_PER_CALL + TRACED_S_PER_CALL
    announce(
        "bench_replay",
        args.calls * per_call,
        f"{args.calls} calls recorded ({made}), loaded {args.repeat} times and once traced",
        "--calls/--http/--synthetic/--repeat",
    )
    folder = tempfile.TemporaryDirectory()
    path = args.keep or Path(folder.name) / "bench.jsonl"
    if args.synthetic:
        synthesise(path, args.calls)
        how = "synthetic stdio records"
    else:
        process, url = _demo_http() if args.http else (None, None)
        try:
            seconds = asyncio.run(record_live(path, args.calls, url))
        finally:
            if process is not None:
                process.terminate()
                process.wait(10)
        how = f"live {'HTTP' if args.http else 'stdio'} session on the demo server, recorded in {seconds:.1f} s"
    size = path.stat().st_size
    message, http, count = wire_bytes(path)
    load, peak, calls = measure_load(path, args.repeat)
    ratio = size / (message + http)
    print(f"recording: {how}: {calls} calls, {count} messages, {size / 2**20:.2f} MiB")
    print(
        f"load into the Timeline: {load * 1000:.0f} ms (best of {args.repeat}), {calls / load:,.0f} calls/s, "
        f"peak memory {peak / 2**20:.1f} MiB (tracemalloc)"
    )
    print(
        f"wire: {message:,} message bytes + {http:,} HTTP header bytes; "
        f"recording {size:,} bytes = {ratio:.3f}x the wire (limit {LIMIT}x)"
    )
    folder.cleanup()
    return 0 if ratio <= LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
