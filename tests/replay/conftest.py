"""Every replay test writes recordings under its own temporary folder, never the user's data folder."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``$INSPECTOR_DATA_DIR`` and ``$INSPECTOR_CONFIG_DIR`` point into ``tmp_path``; wide output for rich."""
    folder = tmp_path / "data"
    monkeypatch.setenv("INSPECTOR_DATA_DIR", str(folder))
    monkeypatch.setenv("INSPECTOR_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("INSPECTOR_KEEP_RECORDINGS", raising=False)
    monkeypatch.delenv("INSPECTOR_KEEP_MB", raising=False)
    monkeypatch.setenv("COLUMNS", "200")
    yield folder
