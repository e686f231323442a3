"""Where logins live: the public half in an index file, the secret half in the OS keyring (through ``keyring``)
or a private file; both files 0600 in a 0700 folder, written whole; nothing secret in the index; a keyring that
does not work is no keyring. The keyring path runs on an in-memory backend: no test touches a real keyring."""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path

import keyring
import keyring.backend
import keyring.errors
import pytest

from inspector.protocol.oauth_record import LoginRecord
from inspector.transport.oauth.token_store import SERVICE, StoreError, keyring_works, open_store

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

SERVER = "https://mcp.example/mcp"


def record() -> LoginRecord:
    return LoginRecord(
        server=SERVER,
        issuer="https://as.example/",
        registration="dynamic",
        client={"client_id": "c1", "client_secret": "CLIENT-S3CRET", "redirect_uris": ["http://127.0.0.1:4711/cb"]},
        tokens={"access_token": "ACCESS-T0KEN", "refresh_token": "REFRESH-T0KEN", "scope": "s"},
        expires_at=2_000_000_000.0,
        saved_at=5.0,
    )


class MemoryKeyring(keyring.backend.KeyringBackend):
    """A keyring backend in a dict (priority 1: it counts as a working keyring)."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # keyring's KeyringBackend.__init__ is unannotated
        self.values: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.values.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.values[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.values.pop((service, username), None) is None:
            raise keyring.errors.PasswordDeleteError(username)


class LockedKeyring(MemoryKeyring):
    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.KeyringLocked("locked")


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    before = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(before)


def test_files_are_private_whole_and_keep_secrets_out_of_the_index(tmp_path: Path) -> None:
    store = open_store("file", folder=tmp_path)
    store.save(record())
    folder = tmp_path / "auth"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert sorted(p.name for p in folder.iterdir()) == ["index.json", "secrets.json"], "no temporary file left"
    for name in ("index.json", "secrets.json"):
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600
    index = (folder / "index.json").read_text()
    assert not any(secret in index for secret in record().secrets())
    assert store.load(SERVER) == record()
    assert [e["server"] for e in store.summaries()] == [SERVER]
    store.delete(SERVER)
    assert store.load(SERVER) is None and json.loads((folder / "secrets.json").read_text()) == {}


def test_the_keyring_holds_the_secret_half(tmp_path: Path, memory_keyring: MemoryKeyring) -> None:
    assert keyring_works()
    store = open_store("keyring", folder=tmp_path)
    assert "keyring" in store.where
    store.save(record())
    assert not (tmp_path / "auth" / "secrets.json").exists()
    stored = json.loads(memory_keyring.values[(SERVICE, SERVER)])
    assert stored["tokens"]["refresh_token"] == "REFRESH-T0KEN"
    assert store.load(SERVER) == record()
    store.delete(SERVER)
    assert memory_keyring.values == {} and store.load(SERVER) is None
    store.delete(SERVER)  # twice: nothing there is no error


def test_a_keyring_that_refuses_is_an_error_and_loses_nothing(tmp_path: Path) -> None:
    before = keyring.get_keyring()
    keyring.set_keyring(LockedKeyring())
    try:
        store = open_store("keyring", folder=tmp_path)
        with pytest.raises(StoreError, match="the keyring refused the login"):
            store.save(record())
        assert store.load(SERVER) is None, "the index is written only after the secrets"
    finally:
        keyring.set_keyring(before)


def test_no_working_keyring_means_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from keyring.backends import fail

    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # type: ignore[no-untyped-call]  # keyring's backends' __init__ too
    monkeypatch.delenv("INSPECTOR_TOKEN_STORE", raising=False)
    try:
        assert not keyring_works()
        assert "files in" in open_store(folder=tmp_path).where
    finally:
        keyring.set_keyring(before)


def test_the_environment_chooses_and_a_bad_choice_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_TOKEN_STORE", "memory")
    store = open_store(folder=tmp_path)
    store.save(record())
    assert store.load(SERVER) == record() and not (tmp_path / "auth").exists()
    monkeypatch.setenv("INSPECTOR_TOKEN_STORE", "vault")
    with pytest.raises(StoreError, match="keyring, file or memory"):
        open_store(folder=tmp_path)


def test_an_unreadable_or_unwritable_store_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "auth").mkdir()
    (tmp_path / "auth" / "index.json").write_text("{not json")
    store = open_store("file", folder=tmp_path)
    with pytest.raises(StoreError, match="cannot read"):
        store.load(SERVER)
    blocked = open_store("file", folder=tmp_path / "file-not-folder")
    (tmp_path / "file-not-folder").write_text("")
    with pytest.raises(StoreError, match=r"cannot (read|write) .*file-not-folder"):
        blocked.save(record())
