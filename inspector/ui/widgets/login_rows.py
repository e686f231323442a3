"""The steps of the session's logins, as the login screen lists them and as timeline rows under the call whose
request needed them.

A step is an exchange (the request's method and URL, the response's status and time) or a decision (what was
decided, and why); a failed or refused one says what to try. Every text came from a server or was derived from
what it sent, and every secret was redacted before the step reached the timeline; it still goes through the
sanitizer into ``Text`` (never markup).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, ClassVar, Final

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from inspector.answers.source import YOU
from inspector.timeline.time_split import consent_waits
from inspector.timeline.wording import OUTCOME_MARK, duration, title
from inspector.ui.safe_text import clean, one_line

if TYPE_CHECKING:
    from inspector.timeline.login_steps import AuthStep
    from inspector.timeline.model import Call, Round, Timeline

KEY: Final = "🔑"
FAILED: Final = ("refused", "failed")
STYLE_NAMES: Final = ("ok", "refused", "failed", "waiting", "info", "dim", "label", "url")
Palette = dict[str, Style]
DETAIL_STYLE: Final = {
    "ok": "response",
    "info": "dim",
    "waiting": "input-required",
    "refused": "error",
    "failed": "error",
}
"""The timeline's style name for a step row, by outcome."""


def exchange_text(step: AuthStep) -> str:
    """``GET https://as.example/.well-known/... → 200 15 ms`` (no answer: why), or "" for a decision."""
    http = step.http
    if http is None:
        return ""
    answer = str(http.status) if http.status is not None else f"no answer ({http.error or 'none'})"
    took = f" {duration(http.elapsed_ms)}" if http.elapsed_ms is not None else ""
    return f"{http.method} {http.url} → {answer}{took}"


def _plain_answer(step: AuthStep) -> bool:
    """An exchange whose ``what`` only repeats its status ("found", "HTTP 201")."""
    return step.http is not None and (step.what in ("", "found") or step.what.startswith("HTTP "))


def step_text(step: AuthStep, palette: Palette, *, follows: bool = False, person_ms: float | None = None) -> Text:
    """One step for the login screen. An exchange: its mark and name, the request's method and URL, the status and
    the time. A decision: what was decided, on the line of its name, or (``follows``: it judges the exchange just
    above, of the same step) indented under it; a wait for the person that is over, with their time
    (``person_ms``). Then why, and what to try."""
    style = palette.get(step.outcome, palette["failed"])
    mark = OUTCOME_MARK.get(step.outcome, "?")
    indent = "      " if follows else "    "
    text = Text()
    if follows:
        text.append(f"    {mark} ", style=style)
    else:
        text.append(f"{mark} {title(step.step)}", style=style)
        text.append("  " if step.http is not None else ": ")
    if step.http is not None:
        text.append(clean(exchange_text(step), keep_newlines=False), style=palette["url"])
        if not _plain_answer(step):
            text.append(f"\n{indent}")
            text.append(clean(step.what, keep_newlines=False))
    else:
        text.append(clean(step.what, keep_newlines=False))
    if person_ms is not None:
        text.append(f" · {YOU} {duration(person_ms)}", style=palette["waiting"])
    if step.why:
        text.append(f"\n{indent}because ", style=palette["dim"])
        text.append(clean(step.why, keep_newlines=False), style=palette["dim"])
    if step.hint:
        text.append(f"\n{indent}try: ", style=palette["label"])
        text.append(clean(step.hint, keep_newlines=False))
    return text


def steps_text(timeline: Timeline, palette: Palette) -> Text:
    """Every step of the session, grouped under the call each login was for."""
    text = Text()
    current: object = ...
    before: AuthStep | None = None
    person = {id(wait.step): wait.ms for wait in consent_waits(timeline.auth, None)}
    for step in timeline.auth:
        if step.call_index != current:
            current, before = step.call_index, None
            call = timeline.call(step.call_index) if step.call_index is not None else None
            heading = f"for #{call.index} {call.method} {call.name or ''}".rstrip() if call else "for the session"
            if text:
                text.append("\n\n")
            text.append(one_line(heading, 200), style=palette["label"])
        follows = before is not None and before.http is not None and step.http is None and before.step == step.step
        text.append("\n")
        text.append_text(step_text(step, palette, follows=follows, person_ms=person.get(id(step))))
        before = step
    return text


# ---------------------------------------------------------------------------------------------------- timeline rows
def row_line(step: AuthStep) -> tuple[str, str]:
    """A step as a timeline detail row: (the timeline's style name, the text)."""
    mark = OUTCOME_MARK.get(step.outcome, "?")
    said = exchange_text(step) or step.what
    if step.http is not None and step.outcome in FAILED and not _plain_answer(step):
        said += f": {step.what}"
    line = f"{KEY} {mark} {title(step.step)}: {said}"
    return DETAIL_STYLE.get(step.outcome, "error"), line


def rows_of(steps: Iterable[AuthStep], person: Mapping[int, float] | None = None) -> list[tuple[str, str]]:
    """The timeline rows of some steps: the challenge that started the login, each exchange, the wait for the
    person in the browser (with their time once it is over: ``person``, by the step's ``id``), and every decision
    that failed (with what to try); the decisions that went well are on the login screen (``a``)."""
    rows: list[tuple[str, str]] = []
    for step in steps:
        shown = step.http is not None or step.outcome in FAILED or step.outcome == "waiting"
        if not shown and step.step != "challenge":
            continue
        style, line = row_line(step)
        waited = person.get(id(step)) if person else None
        rows.append((style, line if waited is None else f"{line} · {YOU} {duration(waited)}"))
        if step.hint and step.outcome in FAILED:
            rows.append(("error", f"{KEY}   try: {step.hint}"))
    return rows


def _person(call: Call) -> dict[int, float]:
    """The person's time in the browser of each wait of the call's logins that is over, by its step's ``id``."""
    return {id(wait.step): wait.ms for wait in consent_waits(call.auth, call.finished_at)}


def round_rows(call: Call, round_: Round) -> list[tuple[str, str]]:
    """The login rows under a round: the steps of the login its request needed."""
    if not call.auth:
        return []
    return rows_of((s for s in call.auth if s.round_index == round_.index), _person(call))


def call_rows(call: Call) -> list[tuple[str, str]]:
    """The login rows of a call that belong to none of its rounds (a refresh before its first request left)."""
    if not call.auth:
        return []
    return rows_of((s for s in call.auth if s.round_index is None), _person(call))


_CSS_COLOURS: Final = """
    & > .auth--ok { color: $success; }
    & > .auth--refused { color: $error; text-style: bold; }
    & > .auth--failed { color: $error; text-style: bold; }
    & > .auth--waiting { color: $accent; text-style: bold; }
    & > .auth--info { color: $primary; }
    & > .auth--dim { color: $foreground-muted; }
    & > .auth--label { color: $primary; text-style: bold; }
    & > .auth--url { color: $foreground; text-style: bold; }
"""


class AuthSteps(Static):
    """Every login step of a session, live."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {f"auth--{name}" for name in STYLE_NAMES}
    DEFAULT_CSS = "AuthSteps {" + _CSS_COLOURS + "}"

    def __init__(self, *, id: str) -> None:
        super().__init__("", id=id)
        self.plain = ""
        """What the list shows, as plain text (tests read it)."""
        self.count = 0
        """How many steps are shown."""

    @property
    def palette(self) -> Palette:
        """The theme's styles for steps."""
        return {name: self.get_component_rich_style(f"auth--{name}", partial=True) for name in STYLE_NAMES}

    def show(self, timeline: Timeline) -> None:
        """Draw the steps the timeline holds now."""
        text = steps_text(timeline, self.palette)
        if not timeline.auth:
            text = Text("no login step yet: a server that answers 401 starts one", style=self.palette["dim"])
        self.count = len(timeline.auth)
        self.plain = text.plain
        self.update(text)
