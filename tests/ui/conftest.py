"""Fixtures for the TUI tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ui_support import make_app

from inspector.ui.app import InspectorApp


@pytest.fixture
def app_factory(tmp_path: Path) -> Callable[..., InspectorApp]:
    """``app_factory(**options)`` -> an InspectorApp on the real session over the memory transport to an
    in-process peer (see ``make_app``)."""

    def build(**options: Any) -> InspectorApp:
        return make_app(tmp_path, **options)

    return build
