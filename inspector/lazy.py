"""Package attributes imported on first use (PEP 562), so importing a package does not import all of it."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping


def lazy_exports(package: str, modules: Mapping[str, Iterable[str]]) -> Callable[[str], object]:
    """A module ``__getattr__`` that imports each name of ``modules[module]`` from ``module`` the first time it is
    asked for (the table reads as the package's ``TYPE_CHECKING`` imports do: module, then its names)."""
    where = {name: module for module, names in modules.items() for name in names}

    def __getattr__(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module), name)

    return __getattr__
