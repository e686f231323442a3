"""The login screen (it opens when a login starts, and with ``a``) and a login's rows on the timeline.

The pilot tests log in for real: the demo behind OAuth (the SDK's ``mcp.server.auth``) and a misbehaving
authorization server, each on 127.0.0.1 free ports, through the TUI's ``ScreenLogin``; the person is a browser
stand-in the test releases, or the test pasting the address the browser ended on. Each checks what the screen says
at each step, and that no secret the authorization server issued is ever on it. The snapshots show one login's
steps as fixed records (a picture must not hold random ports and PKCE values), on a recording of the in-process demo
and under a ``ScreenLogin`` that waits; their docstrings say what a person should see.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from auth_support import (
    AS,
    AUTHORIZE,
    MCP,
    PROMPT,
    TO_THE_END,
    UNTIL_THE_PERSON,
    BrowserStandIn,
    WaitingHelpers,
    _step,
    login_app,
    with_login,
)
from oauth_bad_server import BadOAuth
from oauth_browser import browse
from oauth_support import demo_running, listening
from recording_support import record_session
from textual.pilot import Pilot
from textual.widgets import Input, Static
from ui_support import SIZE, connected, main_screen, make_app, wait_for

from inspector.protocol.login_urls import LoginCheck, LoginUrlJudge
from inspector.protocol.oauth import LoginStopped
from inspector.replay.loader import load_recording
from inspector.ui.app import InspectorApp
from inspector.ui.app_settings import AppSettings
from inspector.ui.composer.call_composer import CallRequest
from inspector.ui.login.login_screen import AuthScreen
from inspector.ui.login.tui_login import ScreenLogin
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.recorded import Recording
from inspector.ui.widgets.call_filter import CallFilter
from inspector.ui.widgets.login_rows import AuthSteps, round_rows
from inspector.ui.widgets.timeline_rows import RowLook, build_rows, render_row

pytestmark = pytest.mark.timeout(120)
SnapCompare = Callable[..., bool]
DISGUISED = AUTHORIZE.replace("http://", "http://accounts.google.com@", 1)
"""The snapshot login's authorization URL, with a user name before '@' (the disguise the screen warns about)."""
WARNED = "1 warning about the login's addresses"
CHECK = LoginCheck(
    MCP, LoginUrlJudge(MCP, [f"{AS}/"]).judge("authorization endpoint", DISGUISED), DISGUISED, "authorization"
)


def login_screen(pilot: Pilot[Any]) -> AuthScreen:
    screen = pilot.app.screen
    assert isinstance(screen, AuthScreen)
    return screen


def shown(screen: AuthScreen) -> str:
    """Everything the screen says in words: the status, the URL, the steps."""
    status = str(screen.query_one("#auth-status", Static).render())
    url = str(screen.query_one("#auth-url", Static).render())
    return "\n".join((status, url, screen.query_one(AuthSteps).plain))


def status(screen: AuthScreen) -> str:
    return str(screen.query_one("#auth-status", Static).render())


async def mounted_login(pilot: Pilot[Any]) -> tuple[AuthScreen, ScreenLogin]:
    """Wait (bounded) for the login screen to be up, with the TUI's login on it."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, AuthScreen) and app.screen.is_mounted)
    screen = login_screen(pilot)
    assert screen.login is not None
    return screen, screen.login


async def login_opened(pilot: Pilot[Any]) -> AuthScreen:
    """Wait (bounded) for the login screen to be up, waiting for the person."""
    screen, login = await mounted_login(pilot)
    await wait_for(pilot, lambda: login.waiting and login.now.state in ("opened", "no-browser"))
    await wait_for(pilot, lambda: "… authorization: waiting" in screen.query_one(AuthSteps).plain)
    await wait_for(pilot, lambda: "waiting for the browser to come back" in status(screen))
    return screen


# ---------------------------------------------------------------------------------------------------- pilot tests
async def test_a_login_opens_the_screen_at_its_challenge_and_shows_each_step(tmp_path: Path) -> None:
    browser = BrowserStandIn()
    async with demo_running() as demo:
        app = login_app(tmp_path, demo.mcp_url, browser)
        async with app.run_test(size=SIZE) as pilot:
            screen = await login_opened(pilot)
            main = main_screen(pilot)
            assert main.logins.opened == 1  # it came up at the challenge, before any person was needed
            login = screen.login
            assert login is not None and login.now.prompt is not None
            url = login.now.prompt.url
            # The browser opened on the very URL shown, and nothing fetched it yet.
            assert browser.opened == [url] and browser.landed == []
            words = shown(screen)
            assert "opened in your browser" in words and url in words.replace("\n", "")
            assert f"waiting for the browser to come back to {login.now.prompt.redirect_uri}" in words
            steps = screen.query_one(AuthSteps).plain
            assert "· challenge: HTTP 401, error invalid_token" in steps
            assert f"✓ protected resource metadata  GET {demo.mcp_url.replace('/mcp', '')}/.well-known/" in steps
            assert f"✓ client  POST {demo.issuer}register → 201" in steps
            assert "… authorization: waiting for the authorization to come back to" in steps
            assert screen.check_action("stop", ()) is True and screen.check_action("open", ()) is True
            # The person consents; the redirect comes back; the token; the retry.
            browser.go.set()
            await wait_for(pilot, lambda: "✓ logged in" in status(screen))
            steps = screen.query_one(AuthSteps).plain
            assert "· redirect: redirect received (browser)" in steps
            assert f"✓ token  POST {demo.issuer}token → 200" in steps and "✓ retry: the request was sent again" in steps
            assert not screen.query_one("#auth-url-box").display and not screen.query_one("#auth-paste").display
            assert_no_secret(demo.provider.issued, shown(screen))
            # Escape: the login's exchanges are rows of the call that needed it.
            await pilot.press("escape")
            main = await connected(pilot)
            discover = main.timeline.calls[0]
            assert discover.method == "server/discover" and discover.auth
            rows = [text for _, text in round_rows(discover, discover.rounds[0])]
            assert rows[0].startswith("🔑 · challenge: HTTP 401")
            assert any(r.startswith("🔑 ✓ registration") or r.startswith("🔑 ✓ client: POST") for r in rows)
            assert any(r.startswith(f"🔑 ✓ token: POST {demo.issuer}token → 200") for r in rows)
            # The wait in the browser is the person's ("you"), the rest of the request's time the server's.
            assert any(r.startswith("🔑 … authorization: waiting") and " · you " in r for r in rows)
            [asked] = discover.round_times
            assert asked.person_ms is not None and asked.server_ms is not None
            assert asked.server_ms + asked.person_ms == pytest.approx(discover.rounds[0].latency_ms)
            view = main.timeline_view
            view.select_call(1, 1)  # unfolds #1
            lines = [render_row(row, main.timeline, view.expanded, RowLook(150, view.palette())).plain
                     for row in build_rows(main.timeline, view.expanded, CallFilter())]  # fmt: skip
            assert any("🔑 ✓ token: POST" in line for line in lines)
            assert_no_secret(demo.provider.issued, "\n".join(lines))
            # A step-up (add needs demo:write) brings the screen back, for the call that needed it.
            browser.go.clear()
            main.run_call(CallRequest("tools", "add", {"a": 2, "b": 3}))
            screen = await login_opened(pilot)
            assert main.logins.opened == 2 and "scope=demo%3Aread+demo%3Awrite" in browser.opened[-1]
            added = main.timeline.calls[-1]  # (after the catalog's listings: the demo's skills/list among them)
            assert f"for #{added.index} tools/call add" in screen.query_one(AuthSteps).plain
            assert "· challenge: HTTP 403, error insufficient_scope" in screen.query_one(AuthSteps).plain
            browser.go.set()
            await wait_for(pilot, lambda: "✓ logged in" in status(screen))
            await pilot.press("escape")
            await wait_for(pilot, lambda: main.timeline.calls[-1].status == "complete")


async def test_no_browser_here_copy_the_url_and_paste_where_the_browser_ended(tmp_path: Path) -> None:
    async with demo_running() as demo:
        app = login_app(tmp_path, demo.mcp_url, None)
        async with app.run_test(size=SIZE) as pilot:
            screen = await login_opened(pilot)
            login = screen.login
            assert login is not None and login.now.prompt is not None
            assert login.now.state == "no-browser" and "copy the address (c)" in status(screen)
            assert screen.check_action("open", ()) is False  # no browser to open
            await pilot.press("c")
            assert app.clipboard == login.now.prompt.url
            # The person opens it elsewhere; the browser ends on an address this machine never hears of.
            address = await asyncio.to_thread(browse, login.now.prompt.url, "stay")
            port = int(login.now.prompt.redirect_uri.split(":")[2].split("/")[0])
            assert listening(port)
            await pilot.press("p")
            field = screen.query_one("#auth-paste", Input)
            assert app.focused is field and field.password  # the address holds the code: never shown
            field.value = "https://elsewhere.example/callback?code=x&state=y"
            await pilot.press("enter")
            note = screen.query_one("#auth-paste-note", Static)
            await wait_for(pilot, lambda: "not to http://127.0.0.1" in str(note.render()))
            assert field.value == "" and login.waiting
            field.focus()
            field.value = address
            await pilot.press("enter")
            await wait_for(pilot, lambda: "✓ logged in" in status(screen))
            assert "· redirect: redirect received (pasted)" in screen.query_one(AuthSteps).plain
            assert field.value == "" and not listening(port)  # nothing listens once the login ended
            code = address.split("code=")[1].split("&")[0]
            assert code not in shown(screen)
            assert_no_secret(demo.provider.issued, shown(screen))


async def test_x_stops_the_login_and_its_request_fails_saying_so(tmp_path: Path) -> None:
    async with demo_running() as demo:
        app = login_app(tmp_path, demo.mcp_url, None)
        async with app.run_test(size=SIZE) as pilot:
            screen = await login_opened(pilot)
            login = screen.login
            assert login is not None and login.now.prompt is not None
            port = int(login.now.prompt.redirect_uri.split(":")[2].split("/")[0])
            await pilot.press("x")
            await wait_for(pilot, lambda: "✗ authorization" in status(screen))
            assert "stopped from the login screen (x)" in status(screen) and "try: log in again" in status(screen)
            assert not login.waiting and not listening(port)
            await pilot.press("escape")
            main = main_screen(pilot)
            await wait_for(pilot, lambda: main.state == "failed")
            assert main.failure is not None and "stopped from the login screen" in str(main.failure)
            # r tries again: a new login, and the screen comes back for it.
            await pilot.press("r")
            await login_opened(pilot)
            assert main.logins.opened == 2


async def test_a_broken_authorization_server_says_which_step_failed_and_what_to_try(tmp_path: Path) -> None:
    bad = BadOAuth("metadata-not-json")
    serving = asyncio.create_task(bad.serve())
    try:
        app = login_app(tmp_path, bad.mcp_url, None, exchange_timeout=5.0)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, AuthScreen))
            screen = login_screen(pilot)
            await wait_for(pilot, lambda: "✗ authorization server metadata: " in status(screen))
            said = status(screen)
            assert "HTTP 200 but not JSON (text/html)" in said and "try: the server publishes broken OAuth" in said
            steps = screen.query_one(AuthSteps).plain
            assert "✗ authorization server metadata  GET http://127.0.0.1:" in steps
            assert screen.login is not None and not screen.login.waiting and screen.login.now.state == "idle"
    finally:
        bad.stop()
        await asyncio.wait_for(asyncio.gather(serving, return_exceptions=True), 10)


async def test_a_opens_the_screen_any_time_and_says_when_there_was_no_login(tmp_path: Path) -> None:
    app = make_app(tmp_path)  # the in-process demo: no OAuth, no ScreenLogin
    async with app.run_test(size=SIZE) as pilot:
        main = await connected(pilot)
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, AuthScreen))
        screen = login_screen(pilot)
        await wait_for(pilot, lambda: "no login step yet" in screen.query_one(AuthSteps).plain)
        await wait_for(pilot, lambda: "this session cannot ask you to log in" in status(screen))
        assert screen.check_action("copy", ()) is False and screen.check_action("stop", ()) is False
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is main)
        assert main.logins.opened == 0


async def test_a_url_with_hidden_characters_is_neither_opened_nor_copied() -> None:
    opened: list[str] = []

    def opener(url: str) -> bool:
        opened.append(url)
        return True

    login = ScreenLogin(opener)
    sneaky = PROMPT.__class__(PROMPT.url + "\u202e", PROMPT.redirect_uri, PROMPT.server, PROMPT.issuer, PROMPT.scope)
    helpers = WaitingHelpers()
    waiting = asyncio.ensure_future(login.authorize(sneaky, helpers))
    for _ in range(100):
        if login.waiting:
            break
        await asyncio.sleep(0)
    assert login.now.state == "hidden" and opened == [] and login.open_again() is False
    assert login.stop() is True
    with pytest.raises(LoginStopped):
        await waiting


async def asking(pilot: Pilot[Any]) -> AuthScreen:
    """Wait (bounded) for the login screen to be up, asking about the login's addresses."""
    screen, login = await mounted_login(pilot)
    await wait_for(pilot, lambda: login.confirming and "y goes on, n refuses" in status(screen))
    await wait_for(pilot, lambda: "… addresses: 1 warning" in screen.query_one(AuthSteps).plain)
    return screen


@pytest.mark.parametrize("key", ["n", "x"])
async def test_a_disguised_address_is_not_opened_until_the_person_accepts_it(key: str, tmp_path: Path) -> None:
    """The authorization endpoint is ``http://accounts.google.com@127.0.0.1:PORT/authorize``: the screen shows it
    with the warning and asks before the browser opens; refused (n, or x), the login stops with nothing opened."""
    browser = BrowserStandIn()
    bad = BadOAuth("userinfo-authorize")
    serving = asyncio.create_task(bad.serve())
    try:
        app = login_app(tmp_path, bad.mcp_url, browser, exchange_timeout=5.0)
        async with app.run_test(size=SIZE) as pilot:
            screen = await asking(pilot)
            words = shown(screen)
            assert "http://accounts.google.com@127.0.0.1:" in words.replace("\n", "")
            assert "has a user name before '@' ('accounts.google.com')" in " ".join(words.split())
            assert screen.query_one("#auth-url-box").display and screen.query_one("#auth-url-box").has_class("-unsafe")
            assert screen.check_action("answer", (True,)) is True and screen.check_action("copy", ()) is False
            assert browser.opened == [] and not [r for r in bad.requests if r[2] == "/authorize"]
            await pilot.press(key)
            await wait_for(pilot, lambda: "✗ addresses: " in status(screen))
            said = " ".join(status(screen).split())
            assert "the login's addresses were not accepted, so nothing was opened" in said
            assert "try: if you trust these addresses, log in again" in said
            assert browser.opened == [] and not [r for r in bad.requests if r[2] in ("/authorize", "/token")]
            assert screen.login is not None and not screen.login.confirming
            assert not screen.query_one("#auth-url-box").display
    finally:
        bad.stop()
        await asyncio.wait_for(asyncio.gather(serving, return_exceptions=True), 10)


async def test_y_accepts_the_warning_and_the_browser_opens(tmp_path: Path) -> None:
    browser = BrowserStandIn()
    bad = BadOAuth("userinfo-authorize")
    serving = asyncio.create_task(bad.serve())
    try:
        app = login_app(tmp_path, bad.mcp_url, browser, exchange_timeout=5.0)
        async with app.run_test(size=SIZE) as pilot:
            screen = await asking(pilot)
            assert browser.opened == []
            await pilot.press("y")
            screen = await login_opened(pilot)
            login = screen.login
            assert login is not None and login.now.prompt is not None
            assert browser.opened == [login.now.prompt.url] and "accounts.google.com@" in browser.opened[0]
            # the accepted warning stays beside the URL while the login waits
            assert "has a user name before '@'" in " ".join(shown(screen).split())
            steps = screen.query_one(AuthSteps).plain
            assert "· addresses: going on despite 1 warning about the login's addresses: accepted on the login" in steps
            browser.go.set()
            # (this authorization server's resource refuses every token: the login ends at its retry)
            await wait_for(pilot, lambda: "✗ retry: " in status(screen))
            assert ("as", "GET", "/authorize") in bad.requests and ("as", "POST", "/token") in bad.requests
    finally:
        bad.stop()
        await asyncio.wait_for(asyncio.gather(serving, return_exceptions=True), 10)


def assert_no_secret(issued: Any, text: str) -> None:
    """Nothing the authorization server handed out (codes, tokens, client secrets) is in ``text``."""
    assert issued, "the demo issued secrets"
    assert [secret for secret in issued if secret in text] == []


# ---------------------------------------------------------------------------------------------------- snapshots
def test_login_screen_waiting_for_the_person(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """Titled "Login · python -m inspector.demo" (the recorded server). The status, in the accent colour: "no browser
    here: copy the address (c), open it in a browser anywhere, then paste where it ended (p)", and under it, dim,
    "log in at http://127.0.0.1:45519/, scope 'demo:read'; waiting for the browser to come back to
    http://127.0.0.1:41000/callback". A box "Open this address in a browser · it is never fetched here" holds the
    full authorization URL over three lines, its host 127.0.0.1 bold and underlined. Below, the empty paste field
    ("paste where the browser ended, then enter (it holds the code: masked)"). The box "Each step, as
    it happens" lists, under "for #1 server/discover": "· challenge: HTTP 401, error invalid_token, ..." with its
    reason, "✓ protected resource metadata GET http:// 127.0.0.1:38773/.well-known/oauth-protected-resource/mcp →
    200 15 ms" and under it the decision "✓ resource ... is this server ...", the same for the authorization server
    metadata and the client (POST .../register → 201 49 ms), "· scope: scope 'demo:read'", and last "…
    authorization: waiting for the authorization to come back to http://127.0.0.1:41000/callback". The footer lists
    c copy URL, p paste redirect, x stop login, esc back."""

    async def steps(pilot: Pilot[Any]) -> None:
        app = pilot.app
        main = await connected(pilot)
        assert isinstance(app, InspectorApp)
        main.logins.follow(main.timeline)
        waiting = asyncio.ensure_future(login.authorize(PROMPT, WaitingHelpers()))
        await wait_for(pilot, lambda: isinstance(app.screen, AuthScreen) and login.waiting)
        await pilot.pause()
        assert not waiting.done()

    login = ScreenLogin(None)  # no browser here
    app = login_replay(tmp_path, tmp_path / "login.jsonl", UNTIL_THE_PERSON, login=login)
    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


def test_login_screen_asking_about_its_addresses(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """Titled "Login · python -m inspector.demo". The status, in the accent colour: "⚠ look at this login's addresses
    before anything is opened or sent: y goes on, n refuses". The box "Open this address in a browser · it is never
    fetched here", bordered in the warning colour, holds the authorization URL written
    "http://accounts.google.com@127.0.0.1:45519/authorize?response_type=code&..." with the real host 127.0.0.1 bold
    and underlined (the "accounts.google.com@" before it dim), and under it in red: "⚠ the authorization endpoint
    http://accounts.google.com@127.0.0.1:45519/authorize has a user name before '@' ('accounts.google.com'): it goes
    to 127.0.0.1:45519, not to accounts.google.com". No paste field. The steps end with "· scope: scope 'demo:read'"
    and "… addresses: 1 warning about the login's addresses: waiting for them to be accepted", with the warning as
    its reason. The footer lists x stop login, y go on, n refuse, esc back; no c, o or p."""

    async def steps(pilot: Pilot[Any]) -> None:
        app = pilot.app
        main = await connected(pilot)
        assert isinstance(app, InspectorApp)
        main.logins.follow(main.timeline)
        asked = asyncio.ensure_future(login.accept(CHECK))
        await wait_for(pilot, lambda: isinstance(app.screen, AuthScreen) and login.confirming)
        await pilot.pause()
        assert not asked.done()

    login = ScreenLogin(None)
    waiting = _step("addresses", "waiting", f"{WARNED}: waiting for them to be accepted", CHECK.said)
    app = login_replay(tmp_path, tmp_path / "login.jsonl", [*UNTIL_THE_PERSON[:-1], waiting], login=login)
    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


def login_replay(
    tmp_path: Path, path: Path, steps: list[dict[str, Any]], *, login: ScreenLogin | None = None
) -> InspectorApp:
    """The app on a recording of the in-process demo whose first request needed the login ``steps``, named by its
    file name alone (the header shows no temporary folder); ``login``: the TUI's login, as the composition root
    gives it."""
    asyncio.run(record_session(path))
    with_login(path, steps)
    recording = Recording.from_loaded(load_recording(path))
    recording.path = path.name
    return InspectorApp(None, None, AppSettings(config_dir=tmp_path / "config", login=login), replay=recording)


def test_login_screen_after_a_failed_login(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The login screen of a recorded session (a opens it on a replay too). The status, red: "✗ token: token failed:
    the token answer is not a usable token (no access_token, or malformed): Invalid token response", and "try: log
    in again; if it repeats, see the answer". No URL box and no paste field: no login waits. The steps, under "for #1
    server/discover", end with "… authorization: waiting for the authorization to come back to http://127.0.0.1:
    41000/callback · you 10 ms" (the person's time in the browser), "· redirect: redirect received (browser) ...",
    "✗ token  POST http://127.0.0.1:45519/
    token → 200 30 ms" with "the answer has no access_token" under it, and the failed decision in red with its
    "try: log in again; if it repeats, see the answer"."""

    async def steps(pilot: Pilot[Any]) -> None:
        await connected(pilot)
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, AuthScreen))
        await pilot.pause()

    app = login_replay(tmp_path, tmp_path / "login.jsonl", [*UNTIL_THE_PERSON, *TO_THE_END])
    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


def test_a_logins_rows_on_the_timeline(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """A recorded session whose first request (#1 server/discover) needed a login, unfolded: under its round "id 1
    → complete" come the login's rows, each starting with 🔑: "· challenge: HTTP 401, error invalid_token, ...",
    "✓ protected resource metadata: GET http://127.0.0.1:38773/.well-known/oauth-protected-resource/mcp → 200 15 ms",
    "✓ authorization server metadata: GET .../.well-known/oauth-authorization-server → 200 10 ms", "✓ client: POST
    .../register → 201 49 ms", "… authorization: waiting for the authorization to come back to http://12…" (the
    person in the browser), then in red "✗ token: POST http://127.0.0.1:45519/token → 200 30 ms: the answer has no
    access_token", the failed decision, and "🔑   try: log in again; if it repeats, see the answer". The call's row
    reads "you 10 ms" before "1 round  complete  24 ms": the 10 ms the login waited in the browser are the
    person's, not the server's. The header names the recording login.jsonl, read-only; the detail pane shows #1
    round 1."""

    async def steps(pilot: Pilot[Any]) -> None:
        screen = await connected(pilot)
        assert isinstance(screen, MainScreen)
        screen.timeline_view.focus()
        screen.timeline_view.select_call(1, 1)
        await wait_for(pilot, lambda: screen.selected == (1, 1))
        await pilot.pause()

    app = login_replay(tmp_path, tmp_path / "login.jsonl", [*UNTIL_THE_PERSON, *TO_THE_END])
    assert snap_compare(app, terminal_size=SIZE, run_before=steps)
