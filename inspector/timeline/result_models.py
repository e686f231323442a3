"""The official result models (``mcp-types``) as validators, kept on disk as pydantic-core schemas.

Importing ``mcp_types.methods`` builds the pydantic models of every protocol version (its package imports the
version-free models too, ~100 ms, and each version's ~60 ms: ~230 ms on the 2-core development machine, about a
third of a one-shot ``inspector call``); a one-shot command validates two or three results of one version. So each
(method, version, ``input_required`` or not) validator is built once from the official models, and its pydantic-core
schema written to the cache folder as JSON; later processes build the same validator from that file (~2 ms, and
pydantic-core's import) without importing ``mcp_types``.
``tests/perf/bench_cold.py`` is the benchmark that justifies it (``inspector call``: 1.7x the official CLI's wall time
before, see the README's figures).

A schema is plain data but for two things: each model's class (``cls``: pydantic-core makes an instance of it,
and names it in a ``model_type`` error), written as its name and rebuilt as an empty class of that name, and the
JSON-schema hooks under ``metadata`` (validation never reads them), left out. A validator built either way gives
the same errors, word for word (``tests/timeline/test_result_models.py`` checks every result model). The folder's
name holds pydantic's and pydantic-core's versions and a digest of the ``mcp_types`` sources, so an upgrade of any
of them starts a new one; a file that cannot be read or built is built again from the official models.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Final, Union, get_args

from pydantic_core import SchemaError, SchemaValidator

from inspector.paths import cache_dir, write_cached

FORMAT: Final = 1
"""The layout of a cached file; a change starts a new folder."""
CLASS_KEY: Final = "$class"
"""How a model's class is written in a cached schema: ``{"$class": "CallToolResult"}``."""


@cache
def result_validator(method: str, version: str, input_required: bool) -> SchemaValidator | None:
    """The official wire model of (method, version) for a result that is, or is not, ``input_required``, as a
    validator; None for methods the models do not know. From the cache folder when it has it, else built from
    ``mcp_types`` and written there."""
    path = _folder() / _file_name(method, version, input_required)
    with contextlib.suppress(OSError, ValueError, TypeError, SchemaError):
        kept = json.loads(path.read_text(encoding="utf-8"))
        return None if kept["schema"] is None else SchemaValidator(_live(kept["schema"], {}))
    schema = _official_schema(method, version, input_required)
    write_cached(
        path, json.dumps({"method": method, "version": version, "inputRequired": input_required, "schema": schema})
    )
    return None if schema is None else SchemaValidator(_live(schema, {}))


def _official_schema(method: str, version: str, input_required: bool) -> Any:
    """The plain core schema of the official model, or None when ``mcp_types`` has none for (method, version).

    For the three MRTR methods mcp-types gives a union of the method's result and ``InputRequiredResult``. That
    union cannot fail: ``InputRequiredResult`` has only optional fields besides a free-form ``resultType`` string and
    ignores extra keys, so a broken ``CallToolResult`` passes as an ``InputRequiredResult``. The result's own
    ``resultType`` says which member it claims to be, so that member alone is checked (and the errors name only it).
    """
    from mcp_types.methods import SERVER_RESULTS
    from pydantic import TypeAdapter

    surface: Any = SERVER_RESULTS.get((method, version))
    if surface is None:
        return None
    members = get_args(surface)
    if members:
        chosen = [m for m in members if (getattr(m, "__name__", "") == "InputRequiredResult") == input_required]
        if len(chosen) == 1:
            surface = chosen[0]
        elif chosen:
            surface = Union[tuple(chosen)]  # noqa: UP007  (a union built at run time)
    return _plain(TypeAdapter(surface).core_schema)


def _plain(node: Any) -> Any:
    """A core schema as JSON: each class as its name, the JSON-schema hooks (``metadata``) left out."""
    if isinstance(node, dict):
        return {key: _plain(value) for key, value in node.items() if key != "metadata"}
    if isinstance(node, list | tuple):
        return [_plain(value) for value in node]
    if isinstance(node, type):
        return {CLASS_KEY: node.__name__}
    return node


def _live(node: Any, classes: dict[str, type]) -> Any:
    """A cached schema made whole again: each class name an empty class of that name (one per name)."""
    if isinstance(node, dict):
        if len(node) == 1 and CLASS_KEY in node:
            name = str(node[CLASS_KEY])
            return classes.setdefault(name, type(name, (), {}))
        return {key: _live(value, classes) for key, value in node.items()}
    if isinstance(node, list):
        return [_live(value, classes) for value in node]
    return node


def _file_name(method: str, version: str, input_required: bool) -> str:
    return f"{method.replace('/', '.')}@{version}{'+input_required' if input_required else ''}.json"


@cache
def _folder() -> Path:
    """This install's folder: pydantic's and pydantic-core's versions and a digest of the model sources (their
    sizes and times: reading their 200 kB would cost more than it saves)."""
    from pydantic.version import VERSION
    from pydantic_core import __version__ as core_version

    digest = hashlib.sha256()
    spec = find_spec("mcp_types")  # (finds the package without importing it)
    origin = spec.origin if spec is not None else None
    if origin is not None:
        package = Path(origin).parent
        for source in sorted(package.rglob("*.py")):
            stat = source.stat()
            digest.update(f"{source.relative_to(package)}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    name = f"pydantic-{VERSION}-core-{core_version}-mcp-types-{digest.hexdigest()[:16]}-{FORMAT}"
    return cache_dir() / "result-models" / name
