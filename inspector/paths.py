"""Where the inspector keeps its files: one place, so every face and every test agrees.

``$INSPECTOR_DATA_DIR`` / ``$INSPECTOR_CONFIG_DIR`` / ``$INSPECTOR_CACHE_DIR`` override the platform's user folders
(platformdirs); the test suite sets all three, so no test ever writes to a user's folders.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

APP: Final = "inspector"
DATA_ENV: Final = "INSPECTOR_DATA_DIR"
CONFIG_ENV: Final = "INSPECTOR_CONFIG_DIR"
CACHE_ENV: Final = "INSPECTOR_CACHE_DIR"


def data_dir() -> Path:
    """The inspector's data folder (recordings)."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override)
    from platformdirs import user_data_path

    return user_data_path(APP)


def config_dir() -> Path:
    """The inspector's config folder (config.toml, recent targets, user themes)."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    from platformdirs import user_config_path

    return user_config_path(APP)


def cache_dir() -> Path:
    """The inspector's cache folder (what it can build again: the result models' schemas)."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    from platformdirs import user_cache_path

    return user_cache_path(APP)


def write_cached(path: Path, text: str) -> None:
    """Write a file of the cache folder whole or not at all (a temporary file renamed over it: processes run side by
    side, and one never reads another's half-written file); a cache that cannot be written only costs the next
    process the work it saves, so a failure is silent."""
    import contextlib
    import tempfile  # (here: every process imports this module, and only a cache miss writes)

    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                file.write(text)
            Path(temporary).replace(path)
        except OSError:
            Path(temporary).unlink()
            raise


PRIVATE_FILE: Final = 0o600
PRIVATE_FOLDER: Final = 0o700


def private_folder(path: Path) -> Path:
    """``path`` as a folder, every folder made for it readable by the user only (a folder that exists is left as it
    is: it may be the user's own, such as where ``--record`` was pointed). Each is made in turn: ``mkdir(parents=
    True)`` gives the parents it makes the default mode, not ``mode``."""
    missing = [folder for folder in (path, *path.parents) if not folder.exists()]
    for folder in reversed(missing):
        folder.mkdir(mode=PRIVATE_FOLDER, exist_ok=True)
    return path


def open_private(path: Path, *, append: bool = False) -> int:
    """A file descriptor to write ``path``, which only its user can read (0600: a recording holds what a server said
    and what the user answered); an existing file is made 0600 too. Its folder is made with ``private_folder``."""
    private_folder(path.parent)
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)
    fd = os.open(path, flags, PRIVATE_FILE)
    os.fchmod(fd, PRIVATE_FILE)
    return fd
