"""Where logins live between processes, one per server URL.

Each ``LoginRecord`` is kept in two halves. The public half (issuer, client id, how it was registered, scope,
expiry, the discovered metadata) goes to ``<config>/auth/index.json``, which ``inspector auth status`` reads
without touching a secret. The secret half (the tokens, the client secret) goes to the OS keyring through
``keyring`` when a working backend is there, else to ``<config>/auth/secrets.json``; both files are written
whole (a temporary file, then a rename), readable by the user only (0600, in a 0700 folder). Secrets never go to
the index, a recording, a log or the screen.

``$INSPECTOR_TOKEN_STORE`` = ``keyring`` | ``file`` | ``memory`` forces a place (the test suite uses ``file`` or
``memory``; the conformance adapter always uses memory, so a suite run never writes a user's keyring).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any, Final, Literal, Protocol

from inspector.paths import config_dir
from inspector.protocol.oauth_record import LoginRecord

STORE_ENV: Final = "INSPECTOR_TOKEN_STORE"
SERVICE: Final = "mcp-inspector"
"""The keyring service name; the user name is the server URL."""
StoreKind = Literal["keyring", "file", "memory"]


class StoreError(OSError):
    """A login could not be read or written (a locked keyring, a folder we may not write)."""


class _Half(Protocol):
    """One half of the store: a JSON object per server."""

    def get(self, server: str) -> Any: ...

    def put(self, server: str, value: dict[str, Any]) -> None: ...

    def drop(self, server: str) -> None: ...


class MemoryHalf:
    """In this process only."""

    def __init__(self) -> None:
        self.values: dict[str, dict[str, Any]] = {}

    def get(self, server: str) -> Any:
        return self.values.get(server)

    def put(self, server: str, value: dict[str, Any]) -> None:
        self.values[server] = value

    def drop(self, server: str) -> None:
        self.values.pop(server, None)

    def all(self) -> dict[str, dict[str, Any]]:
        return dict(self.values)


class FileHalf:
    """A JSON file mapping server URL -> object, 0600 in a 0700 folder, replaced whole on every write."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def all(self) -> dict[str, Any]:
        try:
            value = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as bad:
            raise StoreError(f"cannot read {self.path}: {bad}") from None
        return value if isinstance(value, dict) else {}

    def get(self, server: str) -> Any:
        return self.all().get(server)

    def put(self, server: str, value: dict[str, Any]) -> None:
        values = self.all()
        values[server] = value
        self._write(values)

    def drop(self, server: str) -> None:
        values = self.all()
        if values.pop(server, None) is not None:
            self._write(values)

    def _write(self, values: dict[str, Any]) -> None:
        folder = self.path.parent
        temporary = folder / f".{self.path.name}.{os.getpid()}.tmp"
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            folder.chmod(0o700)
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(values, out, ensure_ascii=False, indent=1)
                out.flush()
                os.fsync(out.fileno())
            temporary.replace(self.path)
        except OSError as bad:
            with contextlib.suppress(OSError):
                temporary.unlink()
            raise StoreError(f"cannot write {self.path}: {bad}") from None


class KeyringHalf:
    """The OS keyring (Secret Service, macOS Keychain, Windows Credential Locker) through ``keyring``."""

    def get(self, server: str) -> Any:
        import keyring
        import keyring.errors

        try:
            text = keyring.get_password(SERVICE, server)
        except keyring.errors.KeyringError as bad:
            raise StoreError(f"the keyring could not be read: {bad}") from None
        if text is None:
            return None
        try:
            return json.loads(text)
        except ValueError:
            return None

    def put(self, server: str, value: dict[str, Any]) -> None:
        import keyring
        import keyring.errors

        try:
            keyring.set_password(SERVICE, server, json.dumps(value, separators=(",", ":")))
        except keyring.errors.KeyringError as bad:
            raise StoreError(f"the keyring refused the login: {bad}") from None

    def drop(self, server: str) -> None:
        import keyring
        import keyring.errors

        try:
            keyring.delete_password(SERVICE, server)
        except keyring.errors.PasswordDeleteError:
            pass  # nothing was stored there
        except keyring.errors.KeyringError as bad:
            raise StoreError(f"the keyring could not forget the login: {bad}") from None


class TokenStore:
    """Logins by server URL (``transport.oauth.config.CredentialStore``)."""

    def __init__(
        self, index: FileHalf | MemoryHalf, secrets: _Half | None, where: str, folder: Path | None = None
    ) -> None:
        self._index = index
        self._chosen = secrets
        self._where = where
        self._folder = folder

    @property
    def where(self) -> str:
        self._secrets  # noqa: B018  (choosing the secret half names the place)
        return self._where

    @property
    def _secrets(self) -> _Half:
        """The secret half, chosen the first time a secret is read or written: a run whose server asks for no
        login (most runs) never imports ``keyring`` or asks the OS for a keyring."""
        if self._chosen is None:
            assert self._folder is not None
            if keyring_works():
                self._chosen = KeyringHalf()
                self._where = f"the OS keyring (service {SERVICE!r}); index {self._index_path()}"
            else:
                self._chosen = FileHalf(self._folder / "secrets.json")
                self._where = f"files in {self._folder} (readable by you only)"
        return self._chosen

    def _index_path(self) -> Path | None:
        return self._index.path if isinstance(self._index, FileHalf) else None

    def load(self, server: str) -> LoginRecord | None:
        public = self._index.get(server)
        if public is None:
            return None
        secret = self._secrets.get(server)
        return LoginRecord.join(public, secret)

    def save(self, record: LoginRecord) -> None:
        public, secret = record.split()
        self._secrets.put(record.server, secret)  # secrets first: an index entry never points at nothing new
        self._index.put(record.server, public)

    def delete(self, server: str) -> None:
        self._index.drop(server)
        self._secrets.drop(server)

    def summaries(self) -> list[dict[str, Any]]:
        """The public half of every login (no secret is read)."""
        return [value for value in self._index.all().values() if isinstance(value, dict)]


def open_store(kind: str | None = None, folder: Path | None = None) -> TokenStore:
    """The store ``kind`` names (default ``$INSPECTOR_TOKEN_STORE``, else the keyring when one works, else files:
    decided when a secret is first needed)."""
    chosen = kind or os.environ.get(STORE_ENV)
    if chosen == "memory":
        return TokenStore(MemoryHalf(), MemoryHalf(), "memory (this process only)")
    base = (folder or config_dir()) / "auth"
    index = FileHalf(base / "index.json")
    if chosen is None:
        return TokenStore(index, None, "the OS keyring, or files", base)
    if chosen == "keyring":
        return TokenStore(index, KeyringHalf(), f"the OS keyring (service {SERVICE!r}); index {index.path}")
    if chosen != "file":
        raise StoreError(f"${STORE_ENV} must be keyring, file or memory, not {chosen!r}")
    secrets = FileHalf(base / "secrets.json")
    return TokenStore(index, secrets, f"files in {base} (readable by you only)")


def keyring_works() -> bool:
    """Is there a keyring backend that stores anything (not the "fail" or "null" one a headless box gets)?"""
    try:
        import keyring
    except ImportError:
        return False
    try:
        backend = keyring.get_keyring()
        priority = float(type(backend).priority)
    except Exception:  # any backend trouble means: no keyring
        return False
    return priority >= 1
