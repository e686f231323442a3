"""Where the inspector keeps its files: one place, so every face and every test agrees.

``$INSPECTOR_DATA_DIR`` / ``$INSPECTOR_CONFIG_DIR`` override the platform's user folders (platformdirs); the test
suite sets both, so no test ever writes to a user's folders.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

APP: Final = "inspector"
DATA_ENV: Final = "INSPECTOR_DATA_DIR"
CONFIG_ENV: Final = "INSPECTOR_CONFIG_DIR"


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
