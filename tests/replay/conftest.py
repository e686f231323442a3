"""Every replay test writes recordings under its own temporary folder, never the user's data folder: the autouse
fixture is written (and type-checked) in replay_support.py."""

from replay_support import data_dir

__all__ = ["data_dir"]
