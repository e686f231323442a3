"""The words every face shares: times (the printed timeline, the TUI's rows and detail pane, a login's steps): one unit
style, and a time split by whose it was (``time_split``) said the same way everywhere: the server's time,
then the person's (``you``), a model's and the client's own, each named."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from inspector.answers.source import YOU
from inspector.protocol.oauth import STEP_TITLES
from inspector.protocol.sanitize import one_line
from inspector.timeline.model import Call, Round, Timeline
from inspector.timeline.time_split import TimeSplit


def duration(ms: float | None) -> str:
    """A time for people, in the one style of every face (the TUI, ``replay --print``): ``0.4 ms``, ``14 ms``,
    ``9.7 s``, ``2.5 min``, ``1.2 h``; ``…`` while it is not known yet."""
    if ms is None:
        return "…"
    if round(ms, 1) < 10:
        return f"{ms:.1f} ms"
    if round(ms) < 1000:
        return f"{ms:.0f} ms"
    seconds = ms / 1000
    if round(seconds, 1) < 60:
        return f"{seconds:.1f} s"
    minutes = seconds / 60
    return f"{minutes:.1f} min" if round(minutes, 1) < 60 else f"{minutes / 60:.1f} h"


NO_REPLY: Final = "no reply"
"""The server's time of what ended without a reply (cancelled, failed): not ``…``, which says it is still coming."""


def server_time(ms: float | None, ended: bool) -> str:
    """The server's time (``duration``), or ``no reply`` for what ended without one."""
    return NO_REPLY if ms is None and ended else duration(ms)


def _who(names: tuple[str, ...]) -> str:
    return " + ".join(one_line(name, 20) for name in names)


def waits(split: TimeSplit) -> str | None:
    """The time waited on others than the server, each part named by whose it was: the person (``you 9.7 s``:
    dialogs, forms, a login's consent page), a model (``stub model 0.4 ms``), the client's own answers (``answers
    file 2.8 ms``), in that order; None when nobody was waited on (a question left unanswered is said by the
    call's status, not as someone's time)."""
    parts: list[str] = []
    if split.person_ms is not None:
        parts.append(f"{YOU} {duration(split.person_ms)}")
    if split.model_ms is not None:
        parts.append(f"{_who(split.models)} {duration(split.model_ms)}")
    if split.client_ms is not None:
        parts.append(f"{_who(split.clients)} {duration(split.client_ms)}")
    return ", ".join(parts) or None


def times_text(split: TimeSplit, ended: bool) -> str:
    """The server's time, then whose the rest was: ``79 ms · you 9.7 s`` (``ended``: no reply is ``no reply``)."""
    wait = waits(split)
    return server_time(split.server_ms, ended) + (f" · {wait}" if wait else "")


def said_times(split: TimeSplit, ended: bool, *, then: bool = False) -> str:
    """A time split in a sentence, as the detail pane says it: ``server 79 ms · waited for you 9.7 s`` (``no reply
    from the server`` for what ended without one; ``then``: the wait came after the reply, ``then waited for``)."""
    said = "no reply from the server" if ended and split.server_ms is None else f"server {duration(split.server_ms)}"
    wait = waits(split)
    return said + (f" · {'then ' if then else ''}waited for {wait}" if wait else "")


CONSENT_NOTE: Final = (
    "Your time includes the login's consent page in the browser; its exchanges (discovery, registration, the "
    "token) are the server's."
)
"""Said under a round whose request needed a login that waited on the person."""


STARTUP: Final = "includes the server's start-up"
"""Said of the first request over stdio: the server process was still starting when it was written."""


def includes_startup(timeline: Timeline, call: Call, round_: Round) -> bool:
    """Whether ``round_`` is the session's first request over stdio, whose time includes the server's start-up
    (the request waits in the pipe until the process reads)."""
    first = timeline.calls[0] if timeline.calls else None
    requests = [r for r in call.rounds if r.kind == "request"]
    return timeline.transport == "stdio" and call is first and bool(requests) and round_ is requests[0]


def answer_summary(response: Mapping[str, Any]) -> str:
    """What an answer said, as a person reads it: an elicitation's action or its content (``name="octocat"``), a
    sampling reply's text and the model named in it, a roots list's URIs; anything else as JSON."""
    action, content = response.get("action"), response.get("content")
    if isinstance(action, str):
        if action == "accept" and isinstance(content, dict) and content:
            return ", ".join(f"{key}={json.dumps(value, ensure_ascii=False)}" for key, value in content.items())
        return action
    if isinstance(response.get("model"), str) or response.get("role") == "assistant":
        blocks = content if isinstance(content, list) else [content]
        texts = [b["text"] for b in blocks if isinstance(b, dict) and isinstance(b.get("text"), str)]
        kinds = [str(b.get("type")) for b in blocks if isinstance(b, dict) and not isinstance(b.get("text"), str)]
        reply = " ".join([json.dumps(" ".join(texts), ensure_ascii=False)] if texts else [])
        reply += "".join(f" [{kind}]" for kind in kinds)
        return f"{reply.strip() or '(no content)'} from model {response.get('model', '?')}"
    roots = response.get("roots")
    if isinstance(roots, list):
        uris = [str(root.get("uri", "?")) for root in roots if isinstance(root, dict)]
        return f"{len(uris)} root{'s' if len(uris) != 1 else ''}" + (f": {', '.join(uris)}" if uris else "")
    return json.dumps(response, ensure_ascii=False)


OUTCOME_MARK: Final = {"ok": "✓", "refused": "✗", "failed": "✗", "waiting": "…", "info": "·"}


_TITLES: dict[str, str] = {str(k): v for k, v in STEP_TITLES.items()}


def title(step: str) -> str:
    """A login step's name for people."""
    return _TITLES.get(step, step)
