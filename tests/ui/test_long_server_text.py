"""Long server text never hides the controls: a 6,000-character elicitation or URL message, a URL of thousands of
characters, a form of 200 fields and field titles of a thousand characters each scroll inside their bounded areas,
while the buttons (and, for a URL, the highlighted domain and its warnings) stay on screen and can be pressed."""

from __future__ import annotations

from typing import Any

import pytest
from modal_support import SIZE, wait_until
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Static

from inspector.ui.devtools.preview import ModalHost
from inspector.ui.modals.answer_dialog import AskedFor
from inspector.ui.modals.elicitation import ElicitationModal
from inspector.ui.modals.url_consent import UrlConsentModal
from inspector.ui.widgets.form_fields import FieldWidget

LONG = " ".join(f"word{i:04d}" for i in range(700))  # about 6,300 characters
"""A server message long enough to fill several screens."""


def _on_screen(screen: Screen[Any], widget: Widget) -> bool:
    """Whether ``widget`` is wholly visible: inside the terminal, laid out, not clipped by its containers."""
    region = widget.region
    if region.area == 0 or not widget.visible:
        return False
    clipped = screen.find_widget(widget).visible_region
    return Region(0, 0, *SIZE).contains_region(region) and clipped == region


def _buttons_on_screen(screen: Screen[Any], ids: tuple[str, ...]) -> list[str]:
    return [name for name in ids if not _on_screen(screen, screen.query_one(f"#{name}", Button))]


def _form(fields: int, title: str = "Field") -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {f"f{i:03d}": {"type": "string", "title": f"{title} {i}"} for i in range(fields)},
    }


@pytest.mark.parametrize(
    ("message", "schema"),
    [(LONG, _form(2)), ("Fill these in", _form(200)), ("Titles", _form(3, "T" * 1000)), (LONG, _form(200))],
    ids=["long message", "200 fields", "long titles", "both"],
)
async def test_an_elicitation_keeps_its_buttons_on_screen_and_accept_sends(message: str, schema: Any) -> None:
    params = {"message": message, "requestedSchema": schema}
    app = ModalHost(lambda: ElicitationModal(params, AskedFor("tools/call long", "long")))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationModal))
        await pilot.pause()
        screen = app.screen
        assert _buttons_on_screen(screen, ("accept", "decline", "cancel")) == []
        first = next(w for w in screen.query(FieldWidget) if w.spec.name == "f000")
        assert first.region.area > 0 and Region(0, 0, *SIZE).overlaps(first.region), "the first field is visible"
        if len(schema["properties"]) == 200:
            last = next(w for w in screen.query(FieldWidget) if w.spec.name == "f199")
            assert not _on_screen(screen, last), "the form scrolls: its last field is below, out of sight"
        await pilot.click("#decline")
        await wait_until(pilot, lambda: bool(app.results))
    assert app.results == [{"action": "decline"}]


LONG_QUERY = "&".join(f"p{i}=v{i}" for i in range(600))


@pytest.mark.parametrize(
    ("message", "url"),
    [
        (LONG, "https://login.example.org/device?code=XYZ"),
        ("Authorize", f"https://login.example.org/device?{LONG_QUERY}"),
        (LONG, f"https://login.example.org/device?{LONG_QUERY}"),
    ],
    ids=["long message", "long url", "both"],
)
async def test_a_url_consent_keeps_the_domain_warnings_and_buttons_on_screen(message: str, url: str) -> None:
    params = {"mode": "url", "message": message, "url": url}
    app = ModalHost(
        lambda: UrlConsentModal(
            params, AskedFor("tools/call login", "auth"), server_host="github.com", opener=lambda _url: True
        )
    )
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, UrlConsentModal))
        await pilot.pause()
        screen = app.screen
        assert _buttons_on_screen(screen, ("open", "decline", "cancel")) == []
        box = screen.query_one(".url-box")
        assert box.region.area > 0 and Region(0, 0, *SIZE).contains_region(box.region), "the URL's box is visible"
        assert "example.org" in str(box.query_one(Static).render())[:200], "its domain first, where the box begins"
        warnings = list(screen.query(".answer-warning"))
        assert warnings, "a URL on another domain than the server's is warned about"
        assert all(_on_screen(screen, w) for w in warnings), "every warning stays on screen"
        await pilot.click("#decline")
        await wait_until(pilot, lambda: bool(app.results))
    assert app.results == [{"action": "decline"}]
