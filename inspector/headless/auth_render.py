"""OAuth on the headless face: the steps of a login as lines (live during ``inspector auth login``, and under the
call that needed them in the printed timeline), their ``--json`` form, and the ``inspector auth status`` table.

Everything shown came from a server or was derived from what it sent, so it goes through the sanitizer; secrets
were redacted before the steps reached the timeline.
"""

from __future__ import annotations

import time
from typing import Any, Final

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from inspector.answers.source import YOU
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.sanitize import one_line
from inspector.timeline.login_steps import AuthStep
from inspector.timeline.time_split import consent_waits, login_split
from inspector.timeline.wording import OUTCOME_MARK, duration, times_text, title, waits

OUTCOME_STYLE = {"ok": "green", "refused": "red", "failed": "red", "waiting": "magenta", "info": "cyan"}


def step_line(step: AuthStep, indent: str = "  ") -> Text:
    """One step: its mark, its name, the exchange (method, URL, status, time) and what was decided."""
    style = OUTCOME_STYLE.get(step.outcome, "red")
    line = Text(indent)
    line.append(f"{OUTCOME_MARK.get(step.outcome, '?')} {title(step.step)}: ", style=style)
    http = step.http
    if http is not None:
        status = str(http.status) if http.status is not None else "no answer"
        line.append(f"{http.method} {one_line(http.url, 120)} → {status}", style="bold" if http.status else "red")
        if http.elapsed_ms is not None:
            line.append(f" {duration(http.elapsed_ms)}", style="dim")
        line.append(" ")
    line.append(one_line(step.what, 240))
    return line


def step_lines(step: AuthStep, indent: str = "  ", person_ms: float | None = None) -> list[Text]:
    """The step's line (``person_ms``: a wait for the person in the browser that ended, said as theirs), then why
    and what to try when there is something to say."""
    lines = [step_line(step, indent)]
    if person_ms is not None:
        lines[0].append(f" · {YOU} {duration(person_ms)}", style=OUTCOME_STYLE["waiting"])
    if step.why and step.outcome in ("refused", "failed"):
        lines.append(Text(f"{indent}    because {one_line(step.why, 240)}", style="dim"))
    if step.hint:
        lines.append(Text(f"{indent}    try: {one_line(step.hint, 240)}", style="bold"))
    return lines


class LiveSteps:
    """The steps of ``inspector auth login`` printed as they happen, but for one: a failed or refused decision with
    something to try is held until the next step. A login's last one is the failure the error line then says, with
    the same hint; printed as a step too, its text (a whole error answer, every warning about an address) came out
    twice. Held, it is printed when a step follows it, or when the error says something else."""

    def __init__(self, console: Console) -> None:
        self._console = console
        self._shown = 0
        self._held: AuthStep | None = None

    def show(self, steps: list[AuthStep]) -> None:
        """Print the steps not printed yet (the last one held, when it is such a failure)."""
        for step in steps[self._shown :]:
            self._release()
            if step.http is None and step.outcome in ("refused", "failed") and step.hint:
                self._held = step
            else:
                self._print(step)
        self._shown = len(steps)

    def before_error(self, message: str) -> None:
        """The error line says ``message`` next: the held failure is dropped when it says the same."""
        held, self._held = self._held, None
        if held is not None and held.what not in message:
            self._print(held)

    def finish(self) -> None:
        """The login ended without an error line: the held step is printed."""
        self._release()

    def _release(self) -> None:
        held, self._held = self._held, None
        if held is not None:
            self._print(held)

    def _print(self, step: AuthStep) -> None:
        for line in step_lines(step, ""):
            self._console.print(line)


def steps_lines(steps: list[AuthStep], indent: str, until: float | None) -> list[Text]:
    """Every step of a login (``step_lines``), each wait for the person with its time (``until``: the end of the
    call it was for, which ends a wait nothing else ended; see ``time_split.consent_waits``)."""
    waited = {id(wait.step): wait.ms for wait in consent_waits(steps, until)}
    return [line for step in steps for line in step_lines(step, indent, waited.get(id(step)))]


def login_summary(steps: list[AuthStep], until: float | None = None) -> Text:
    """A folded login: how many exchanges, what kind (login, refresh, step-up), its time split (the exchanges the
    server's, the consent page the person's: ``time_split.login_split``; ``until`` as in ``steps_lines``), and how
    it ended."""
    exchanges = sum(1 for s in steps if s.http is not None)
    kinds = {s.step for s in steps}
    kind = "refresh" if "refresh" in kinds and "authorization" not in kinds else "login"
    if any(s.step == "challenge" and "insufficient_scope" in s.what for s in steps):
        kind = "step-up"
    failed = [s for s in steps if s.outcome in ("refused", "failed")]
    text = Text("  🔑 ")
    text.append(f"{kind}: {exchanges} exchange{'s' if exchanges != 1 else ''}", style="bold")
    split = login_split(steps, until)
    said = times_text(split, True) if split.server_ms is not None else waits(split)
    if said:
        text.append(f" · {said}", style="dim")
    if failed:
        text.append(f" · {title(failed[-1].step)} {failed[-1].outcome}", style="red")
    return text


STATUS_TABLE_WIDTH: Final = 100
"""Below this width ``auth status`` prints one block a login instead of a table: six columns of URLs and client ids
in 80 columns cut both URLs to ``http://127…``, and a URL is what a person reads there."""


def _status_cells(entry: dict[str, Any], now: float | None) -> list[tuple[str, str]]:
    """One stored login's fields, named, as both layouts show them (no secret is read to draw them)."""
    client = f"{(entry.get('client') or {}).get('client_id', '?')} ({entry.get('registration', '?')})"
    return [
        ("server", one_line(str(entry.get("server", "")), 300)),
        ("issuer", one_line(str(entry.get("issuer") or "?"), 300)),
        ("client", one_line(client, 300)),
        ("scope", one_line(str(entry.get("scope") or "-"), 300)),
        ("token", expiry_text(entry, now)),
        ("refresh", "yes" if entry.get("refresh_token") else "no"),
    ]


def status_view(summaries: list[dict[str, Any]], where: str, width: int, now: float | None = None) -> RenderableType:
    """``inspector auth status``: a table of the stored logins at ``STATUS_TABLE_WIDTH`` columns and more; below it
    one block a login, each field on its own line and folded, never cut, so every URL reads whole at any width."""
    title = f"logins ({one_line(where, 300)})"
    if width >= STATUS_TABLE_WIDTH:
        table = Table(title=title, show_lines=False)
        for column in ("server", "issuer", "client", "scope", "token", "refresh"):
            # (the URLs keep their line: the client id and the scope wrap first)
            table.add_column(column, overflow="fold", no_wrap=column in ("server", "issuer"))
        for entry in summaries:
            table.add_row(*(Text(value) for _, value in _status_cells(entry, now)))
        return table
    blocks: list[RenderableType] = [Text(title, style="bold")]
    for entry in summaries:
        (_, server), *fields = _status_cells(entry, now)
        block = Table.grid(padding=(0, 2))
        block.add_column(style="dim", no_wrap=True)
        block.add_column(overflow="fold")
        for name, value in fields:
            block.add_row(name, Text(value))
        blocks += [Text(server, style="bold cyan", overflow="fold"), Padding(block, (0, 0, 0, 2))]
    return Group(*blocks)


def status_json(entry: dict[str, Any], now: float | None = None) -> JsonObject:
    """One stored login for ``auth status --json`` (public fields only)."""
    expires_at = entry.get("expires_at")
    left = expires_at - (time.time() if now is None else now) if isinstance(expires_at, int | float) else None
    return {
        "server": entry.get("server"),
        "issuer": entry.get("issuer"),
        "clientId": (entry.get("client") or {}).get("client_id"),
        "registration": entry.get("registration"),
        "scope": entry.get("scope"),
        "token": bool(entry.get("tokens")),
        "expiresInSeconds": None if left is None else round(left),
        "refreshToken": bool(entry.get("refresh_token")),
    }


def expiry_text(entry: dict[str, Any], now: float | None = None) -> str:
    """ "expires in 52 min", "expired 3 min ago", "none" (a refresh was refused), "no expiry"."""
    if not entry.get("tokens"):
        return "none"
    expires_at = entry.get("expires_at")
    if not isinstance(expires_at, int | float):
        return "no expiry"
    left = expires_at - (time.time() if now is None else now)
    minutes = abs(left) / 60
    amount = f"{minutes:.0f} min" if minutes >= 1 else f"{abs(left):.0f} s"
    return f"expires in {amount}" if left > 0 else f"expired {amount} ago"


__all__ = ["login_summary", "status_json", "status_view", "step_line", "step_lines", "steps_lines"]
