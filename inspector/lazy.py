"""Package attributes imported on first use (PEP 562), so importing a package does not import all of it."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def lazy_exports(package: str, where: Mapping[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` that imports ``name`` from ``where[name]`` the first time it is asked for."""

    def __getattr__(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module), name)

    return __getattr__
