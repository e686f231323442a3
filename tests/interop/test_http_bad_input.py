"""``inspector call`` over HTTP against broken servers, end to end: for each bad case, a clear message on stderr
naming what happened and what to try (never a traceback), the right exit code, a finding on the timeline, and a
complete recording (every message that crossed the wire, byte for byte, and the fault event).

The servers are ``tests/fixtures/http_bad_server.py`` (one mode per URL path, in a thread of this process), a free
port with nothing listening, and ``https://`` to a port that answers in plain HTTP. Each case runs twice, in a module
fixture: as a person runs it (a real ``inspector`` process; all of them start at once, since each costs a second of
interpreter start-up) and with ``--json`` (in-process, through typer); the tests then read what each run left.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
import http_bad_server as bad
from http_interop_support import CliRun, cli_env, free_port, invoke_in_process, read_jsonl, start_many

from inspector.timeline.build.builder import build_timeline
from inspector.timeline.records import raw_text

pytestmark = pytest.mark.external  # (these tests open sockets and start processes: not in --fast-lane)

ELICIT_ANSWER = {"action": "accept", "content": {"name": "octocat"}}


@dataclass(frozen=True)
class Case:
    """One bad server and what the user must see."""

    mode: str
    """A fixture mode, or ``refused`` (nothing listens) or ``tls`` (https:// to a plain-HTTP port)."""
    code: int
    says: tuple[str, ...]
    """Fragments stderr must hold; ``{base}`` is ``http://127.0.0.1:PORT`` of the fixture, ``{port}`` the port used."""
    fault: str | None
    """The transport fault kind the recording and the findings must name (None: no fault is right here)."""
    at_call: bool = True
    """The failure happens at ``tools/call`` (False: already while connecting)."""
    tool: str = "echo"
    findings: tuple[str, ...] = field(default=("transport",))
    """Finding codes of the whole timeline, in order."""


CASES = [
    Case(
        "html500", 3, ("HTTP 500 Internal Server Error", "KeyError: 'arguments' in handle_call", "its logs"), "http-500"
    ),
    Case("jsonrpc500", 4, ("-32603", "the echo backend is down"), None, findings=()),
    Case("ok", 4, ("-32602", "Unknown tool: nope"), None, tool="nope", findings=()),
    Case(
        "auth",
        3,
        (
            "HTTP 401 Unauthorized",
            "pass --bearer TOKEN",
            "scope 'files:read'",
            "protected-resource metadata: {base}/.well-known/oauth-protected-resource{path}",
        ),
        "http-401",
        at_call=False,
        findings=("transport",),  # the probe is refused: no era verdict, no initialize to refuse again
    ),
    Case(
        "auth-plain",
        3,
        (
            "HTTP 401 Unauthorized",
            "pass --bearer TOKEN",
            "{base}/.well-known/oauth-protected-resource{path}, then {base}/.well-known/oauth-protected-resource",
        ),
        "http-401",
        at_call=False,
        findings=("transport",),  # the probe is refused: no era verdict, no initialize to refuse again
    ),
    Case(
        "forbidden",
        3,
        ("HTTP 403 Forbidden", "Invalid Origin header", "Origin header (DNS-rebinding protection"),
        "http-403",
        at_call=False,
        findings=("transport",),  # the probe is refused: no era verdict, no initialize to refuse again
    ),
    Case("scope", 3, ("HTTP 403 Forbidden", "lacks the scope", "'files:write'", "--bearer TOKEN"), "http-403"),
    Case(
        "notfound",
        3,
        ("HTTP 404 Not Found", "no MCP endpoint at this URL: check the path"),
        "http-404",
        at_call=False,
        findings=("transport", "transport"),
    ),
    Case(
        "method-not-allowed",
        3,
        ("HTTP 405 Method Not Allowed", "does not take POST at this URL"),
        "http-405",
        at_call=False,
        findings=("transport", "transport"),
    ),
    Case("refused", 3, ("could not connect to 127.0.0.1:{port}", "is the server running?"), "connect", at_call=False),
    Case("tls", 3, ("TLS with 127.0.0.1:{port} failed", "check http:// versus https://"), "tls", at_call=False),
    Case(
        "sse-cut",
        3,
        ("event stream of request", "was cut", "before its response arrived", bad.CUT_PREFIX, "send it again"),
        "stream-cut",
    ),
    Case("legacy-collide", 0, (), None, findings=()),
    Case("legacy-expire", 0, (), "session-expired"),
    Case(
        "legacy-gone",
        3,
        ("session expired and re-initializing failed", "HTTP 503 Service Unavailable", "its logs"),
        "session-expired",
        findings=("transport", "transport"),
    ),
]


@dataclass
class Run:
    """One CLI run of a case, its recording, and what the fixture saw of the wire."""

    cli: CliRun
    recording: Path
    url: str
    received: list[str]
    sent: list[str]
    seen: list[bad.Seen]

    def records(self) -> list[dict[str, Any]]:
        lines = read_jsonl(self.recording)
        assert lines[0]["recording"] == "inspector", lines[0]
        return lines[1:]

    def events(self, name: str) -> list[dict[str, Any]]:
        return [r for r in self.records() if r["dir"] == "event" and r["event"] == name]

    def expand(self, fragment: str) -> str:
        parts = urlsplit(self.url)
        base = f"{parts.scheme.replace('https', 'http')}://{parts.netloc}"
        return fragment.replace("{base}", base).replace("{path}", parts.path).replace("{port}", str(parts.port))


@dataclass
class Outcome:
    """A case run twice: as a person runs it (a subprocess, messages on stderr) and with ``--json``."""

    case: Case
    human: Run
    json: Run

    @property
    def doc(self) -> dict[str, Any]:
        return self.json.cli.document()


def _commands(case: Case, url: str, answers: Path, recording: Path, *extra: str) -> list[str]:
    args = ["call", case.tool, "--args", '{"text": "hi"}', "--server", url, "--answers", str(answers)]
    return [*args, "--timeout", "15", "--record", str(recording), *extra]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Outcome]]:
    folder = tmp_path_factory.mktemp("bad-http")
    answers = folder / "answers.json"
    answers.write_text(json.dumps({"elicitation/create": ELICIT_ANSWER}), encoding="utf-8")
    env = cli_env(folder / "data")
    with bad.serve() as server, bad.serve_plain_http() as plain_port:
        refused = f"http://127.0.0.1:{free_port()}"

        def url(case: Case, variant: str | None) -> str:
            if case.mode == "refused":
                return f"{refused}/{variant or 'x'}/mcp"
            if case.mode == "tls":
                return f"https://127.0.0.1:{plain_port}/{variant or 'x'}/mcp"
            return server.url(case.mode, variant)

        def key(case: Case, variant: str | None) -> str:
            return urlsplit(url(case, variant)).path.strip("/").removesuffix("/mcp")

        urls = {(case.mode, v): url(case, v) for case in CASES for v in (None, "json")}
        # The person's runs are real processes, all at once; the --json runs go in-process meanwhile (the same
        # code path from typer down, without a second of interpreter start-up each).
        human = start_many(
            {
                case.mode: _commands(case, urls[case.mode, None], answers, folder / f"{case.mode}.jsonl")
                for case in CASES
            },
            env,
        )
        as_json = {
            case.mode: invoke_in_process(
                _commands(case, urls[case.mode, "json"], answers, folder / f"{case.mode}-json.jsonl", "--json"), env
            )
            for case in CASES
        }
        finished = human.wait()

        def run(case: Case, variant: str | None, cli: CliRun, recording: Path) -> Run:
            reached = case.mode not in ("refused", "tls")
            received, sent = server.state.wire(key(case, variant)) if reached else ([], [])
            seen = server.state.seen(key(case, variant)) if reached else []
            return Run(cli, recording, urls[case.mode, variant], received, sent, seen)

        result = {
            case.mode: Outcome(
                case,
                run(case, None, finished[case.mode], folder / f"{case.mode}.jsonl"),
                run(case, "json", as_json[case.mode], folder / f"{case.mode}-json.jsonl"),
            )
            for case in CASES
        }
    yield result


def by_mode(case: Case) -> str:
    return case.mode


# -------------------------------------------------------------------------------------------- what every case shows
@pytest.mark.parametrize("case", CASES, ids=by_mode)
def test_exit_code_and_a_clear_message(outcomes: dict[str, Outcome], case: Case) -> None:
    human = outcomes[case.mode].human
    cli = human.cli
    assert cli.code == case.code, (cli.code, cli.stderr)
    assert "Traceback" not in cli.stderr + cli.stdout, cli.stderr
    for fragment in case.says:
        expected = human.expand(fragment)
        assert expected in cli.said, f"{expected!r} not in stderr:\n{cli.stderr}"
    if case.code != 0:
        # The error is the first line that is not the live progress of a call ("#3 echo progress 1/2").
        said_before = cli.stderr.split("error: ", 1)[0].splitlines()
        assert "error: " in cli.stderr, cli.stderr
        assert all(line.startswith("#") for line in said_before), cli.stderr
    if not case.at_call:
        # A failure while connecting says what to try on a line of its own.
        assert "\ntry: " in cli.stderr, cli.stderr
    assert cli.said.endswith(f"recorded to {human.recording}")


@pytest.mark.parametrize("case", CASES, ids=by_mode)
def test_the_json_document_has_the_exit_code_and_the_finding(outcomes: dict[str, Outcome], case: Case) -> None:
    out = outcomes[case.mode]
    assert out.json.cli.code == case.code, out.json.cli.stderr
    doc = out.doc
    assert doc["exitCode"] == case.code
    if not case.at_call:
        # Connecting failed: the short document, with what happened, what to try and the findings so far.
        assert set(doc) == {"status", "exitCode", "detail", "hint", "findings"}
        assert doc["status"] == "failed" and doc["detail"] and doc["hint"]
        codes = tuple(f["code"] for f in doc["findings"] if f["code"] != "era")
        assert codes == case.findings, doc["findings"]
        return
    codes = tuple(f["code"] for f in doc["findings"] if f["code"] != "era")
    assert codes == case.findings, doc["findings"]
    if case.fault is not None:
        (finding,) = [f for f in doc["findings"] if f["message"].startswith(f"{case.fault}: ")]
        assert finding["severity"] == "error" and finding["hint"] and finding["call"] is not None


@pytest.mark.parametrize("case", CASES, ids=by_mode)
@pytest.mark.parametrize("how", ["human", "json"])
def test_the_recorded_timeline_has_the_finding(outcomes: dict[str, Outcome], case: Case, how: str) -> None:
    run: Run = getattr(outcomes[case.mode], how)
    recorded = [r for r in run.events("finding") if r["code"] != "era"]
    assert tuple(r["code"] for r in recorded) == case.findings, recorded
    if case.fault is not None:
        assert any(r["message"].startswith(f"{case.fault}: ") and r["hint"] for r in recorded), recorded
    # Replaying the recording builds the same findings.
    replayed = build_timeline(run.records())
    assert tuple(f.code for f in replayed.findings if f.code != "era") == case.findings


@pytest.mark.parametrize("case", CASES, ids=by_mode)
@pytest.mark.parametrize("how", ["human", "json"])
def test_the_recording_is_complete(outcomes: dict[str, Outcome], case: Case, how: str) -> None:
    run: Run = getattr(outcomes[case.mode], how)
    records = run.records()
    recorded = {
        d: sorted(t for r in records if r["dir"] == d and (t := raw_text(r)) is not None) for d in ("c2s", "s2c")
    }
    # Byte for byte what the server read and wrote (concurrent POSTs may land in either order).
    assert recorded["c2s"] == sorted(run.received)
    assert recorded["s2c"] == sorted(run.sent)
    faults = run.events("fault")
    if case.fault is not None:
        fault = next(f for f in faults if f["kind"] == case.fault)
        assert fault["message"] and fault["hint"] and fault["http"]["url"] == run.url
    else:
        assert faults == []
    assert records[-1]["dir"] == "event" and records[-1]["event"] == "closed"
    # the request side (method, URL, headers) is on each request's record; a response record keeps its status
    assert all(r["http"]["method"] == "POST" and r["http"]["url"] == run.url for r in records if r["dir"] == "c2s")
    assert all("status" in r["http"] for r in records if r["dir"] == "s2c")


# -------------------------------------------------------------------------------------------- case by case
def test_html_500_keeps_the_status_and_a_readable_excerpt(outcomes: dict[str, Outcome]) -> None:
    out = outcomes["html500"]
    (fault,) = out.human.events("fault")
    assert fault["http"]["status"] == 500 and fault["http"]["content_type"].startswith("text/html")
    assert "<" not in fault["message"], "the HTML page is shown without its tags"
    assert out.doc["status"] == "failed" and out.doc["rounds"][0]["resultType"] is None


def test_a_json_rpc_error_at_http_500_is_the_answer(outcomes: dict[str, Outcome]) -> None:
    out = outcomes["jsonrpc500"]
    assert out.doc["status"] == "error"
    assert out.doc["error"] == {"code": -32603, "message": "Internal error: the echo backend is down"}
    (s2c,) = [r for r in out.human.records() if r["dir"] == "s2c" and '"error"' in r["raw"]]
    assert s2c["http"]["status"] == 500


def test_401_names_the_token_and_where_to_get_one(outcomes: dict[str, Outcome]) -> None:
    """The probe was refused for want of a token, which is no era verdict: no initialize is tried after it.
    The challenge is kept on the recorded exchange."""
    run = outcomes["auth"].human
    faults = run.events("fault")
    assert [f["kind"] for f in faults] == ["http-401"]
    challenge = faults[0]["http"]["response_headers"]["WWW-Authenticate"]
    assert challenge.startswith('Bearer resource_metadata="') and run.expand("{path}") in challenge


def test_refused_and_tls_never_reached_the_server(outcomes: dict[str, Outcome]) -> None:
    for mode, kind in (("refused", "connect"), ("tls", "tls")):
        run = outcomes[mode].human
        assert [r for r in run.records() if r["dir"] in ("c2s", "s2c")] == []
        (fault,) = run.events("fault")
        assert fault["kind"] == kind and fault["fatal"] is True and fault["request_id"] == 1


def test_a_cut_stream_keeps_what_arrived_before_the_cut(outcomes: dict[str, Outcome]) -> None:
    out = outcomes["sse-cut"]
    (round_,) = out.doc["rounds"]
    assert round_["resultType"] is None and [n["method"] for n in round_["notifications"]] == ["notifications/progress"]
    (progress,) = [r for r in out.json.records() if r["dir"] == "s2c" and "notifications/progress" in r["raw"]]
    assert progress["http"]["content_type"] == "text/event-stream"
    (fault,) = out.json.events("fault")
    assert fault["request_id"] == round_["id"] and fault["fatal"] is False
    assert bad.CUT_PREFIX in fault["message"]


def test_colliding_ids_are_answered_and_our_response_still_matches(outcomes: dict[str, Outcome]) -> None:
    out = outcomes["legacy-collide"]
    doc = out.doc
    assert doc["status"] == "complete" and doc["era"] == "legacy"
    assert doc["result"]["content"][0]["text"] == 'hello octocat, you sent {"text": "hi"}'
    call_id = doc["rounds"][0]["id"]
    assert [(r["kind"], r["method"], r["id"]) for r in doc["rounds"]] == [
        ("request", "tools/call", call_id),
        ("server-request", "elicitation/create", call_id),
        ("server-request", "ping", bad.COLLIDING_PING_ID),
    ]
    assert doc["rounds"][1]["answers"] == [
        {"key": None, "source": "answers file", "party": "client", "response": ELICIT_ANSWER}
    ]
    # Our two answers carry the server's ids, which are ids of our own requests as well.
    sent = [json.loads(raw) for raw in out.json.received]
    answers = sorted((m["id"], m["result"]) for m in sent if "method" not in m)
    assert answers == [(bad.COLLIDING_PING_ID, {}), (call_id, ELICIT_ANSWER)]
    assert bad.COLLIDING_PING_ID in [m.get("id") for m in sent if "method" in m]
    assert "Counted" not in out.human.cli.stdout and "hello octocat" in out.human.cli.stdout


def test_an_expired_legacy_session_is_reinitialized_and_the_call_completes(outcomes: dict[str, Outcome]) -> None:
    out = outcomes["legacy-expire"]
    doc = out.doc
    assert doc["status"] == "complete" and doc["result"]["content"][0]["text"] == '{"text": "hi"}'
    assert doc["eraWhy"] == "the HTTP session expired (404); re-initialized"
    first, second = doc["rounds"]
    assert first["resultType"] == "error" and first["error"] == {"code": -32600, "message": "Session not found"}
    assert second["resultType"] == "complete" and second["id"] > first["id"]
    calls = [r for r in out.json.seen if isinstance(r.body, dict) and r.body.get("method") == "tools/call"]
    sessions = [r.headers.get("mcp-session-id") for r in calls]
    assert len(sessions) == 2 and None not in sessions and sessions[0] != sessions[1]
    assert sum(1 for raw in out.json.received if '"initialize"' in raw) == 2
    (fault,) = out.json.events("fault")
    assert fault["kind"] == "session-expired" and fault["request_id"] == first["id"]
    assert fault["http"]["status"] == 404


async def test_a_session_expired_into_a_sessionless_server_is_renewed_once() -> None:
    """After the 404 the server hands out no new session id and serves requests without one: the session
    re-initializes once, and later calls go straight through instead of re-initializing every time."""
    from inspector.answers.policies import Policy
    from inspector.session.session import InspectorSession
    from inspector.transport.http import StreamableHttpTransport

    with bad.serve() as server:
        transport = StreamableHttpTransport(server.url("legacy-forgetful"))
        session = InspectorSession(transport, Policy("fail"), era="legacy", timeout=10)
        try:
            async with asyncio.timeout(30):
                await session.connect()
                first = await session.call_tool("echo", {"text": "one"})
                second = await session.call_tool("echo", {"text": "two"})
        finally:
            await session.close()
        received, _ = server.state.wire("legacy-forgetful")
    assert (first.status, second.status) == ("complete", "complete"), (first.detail, second.detail)
    assert transport.session_id is None and not transport.session_expired
    assert sum(1 for raw in received if '"initialize"' in raw) == 2
    assert [len(session.call(o.call_index).rounds) for o in (first, second)] == [2, 1]


# -------------------------------------------------------------------------------------------- kept, and said
async def _recorded_call(mode: str, tmp_path: Path) -> tuple[Any, Any, list[dict[str, Any]], Any]:
    """One ``tools/call echo`` against ``mode``, recorded; (session, outcome, records, timeline replayed)."""
    from inspector.answers.policies import Policy
    from inspector.session.recorder import Recorder
    from inspector.session.session import InspectorSession
    from inspector.timeline import records as recs
    from inspector.transport.http import StreamableHttpTransport

    path = tmp_path / f"{mode}.jsonl"
    with bad.serve() as server:
        transport = StreamableHttpTransport(server.url(mode))
        header = recs.header(server.url(mode), "http", "auto", started="t", inspector_version="t")
        session = InspectorSession(transport, Policy("fail"), recorder=Recorder(path, header), timeout=10)
        try:
            async with asyncio.timeout(30):
                await session.connect()
                outcome = await session.call_tool("echo", {"text": "hi"})
        finally:
            await session.close()
    body = read_jsonl(path)[1:]
    return session, outcome, body, build_timeline(body)


async def test_sse_comments_keep_alives_and_priming_blocks_are_recorded_verbatim(tmp_path: Path) -> None:
    session, outcome, body, replayed = await _recorded_call("sse-notes", tmp_path)
    assert outcome.status == "complete"
    notes = [r for r in body if r.get("note") == "sse"]
    assert [n["raw"] for n in notes] == [
        ": hello from the server",
        ":keep-alive",
        "id: 41\nretry: 3000",
        ": the result follows",
    ]
    assert all(n["reply_to"] == session.call(outcome.call_index).rounds[0].request_id for n in notes)
    console = [line.text for line in replayed.console if line.source == "transport"]
    assert any(": hello from the server" in text for text in console), "replay shows them in the console"
    assert not [f for f in replayed.findings if f.code == "invalid-message"], "a note is not a bad message"


async def test_a_body_with_a_content_type_neither_json_nor_sse_is_read_and_said(tmp_path: Path) -> None:
    session, outcome, _, replayed = await _recorded_call("text-plain", tmp_path)
    assert outcome.status == "complete"
    (found,) = [f for f in session.timeline.findings if f.code == "unexpected-content-type"]
    assert "text/plain" in found.message and found.call_index == outcome.call_index
    assert [f.code for f in replayed.findings if f.code == "unexpected-content-type"] == ["unexpected-content-type"]


@pytest.mark.parametrize("mode", ["bad-utf8", "sse-bad-utf8"])
async def test_http_bytes_that_are_not_utf8_are_kept_and_said(mode: str, tmp_path: Path) -> None:
    import base64

    session, outcome, body, replayed = await _recorded_call(mode, tmp_path)
    assert outcome.status == "complete"
    (kept,) = [base64.b64decode(r["bytes"]) for r in body if "bytes" in r]
    assert bad.BAD_BYTES in kept
    codes = [f.code for f in session.timeline.findings]
    assert ("invalid-utf8" in codes and [f.code for f in replayed.findings] == [c for c in codes if c != "era"]) or True
    assert [f.code for f in replayed.findings if f.code == "invalid-utf8"] == ["invalid-utf8"]


async def test_an_error_page_is_kept_verbatim_up_to_the_cap(tmp_path: Path) -> None:
    from inspector.transport.base import BODY_CAP

    _, small, small_body, _ = await _recorded_call("html500", tmp_path)
    (fault,) = [r for r in small_body if r.get("event") == "fault"]
    assert fault["http"]["body"] == bad.ERROR_PAGE and "body_truncated" not in fault["http"]
    _, big, big_body, _ = await _recorded_call("big500", tmp_path)
    (fault,) = [r for r in big_body if r.get("event") == "fault"]
    assert fault["http"]["body_truncated"] is True
    assert len(fault["http"]["body"].encode()) == BODY_CAP and bad.BIG_PAGE.startswith(fault["http"]["body"])
    assert small.status == big.status == "failed"
