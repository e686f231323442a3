"""A number or an id a peer sent, read as JSON types it: Python's ``bool`` is an ``int``, but JSON's ``true`` is neither
a number nor an id, so ``isinstance(value, int)`` alone would take ``true`` for 1. Every such check asks here."""

from __future__ import annotations

import math


def json_int(value: object) -> int | None:
    """``value`` when it is a JSON integer (``true`` and ``false`` are not), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def json_number(value: object) -> int | float | None:
    """``value`` when it is a JSON number, integer or not, else None: ``true`` and ``false`` are not, and neither are
    ``NaN`` and ``Infinity``, which Python's parser reads but JSON has no such number (a poll interval of
    ``Infinity`` would wait forever)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def json_id(value: object) -> int | str | None:
    """``value`` when it can be an id as the protocol types them (a JSON-RPC id, a subscription id: a string or an
    integer, never a boolean), else None."""
    return value if isinstance(value, int | str) and not isinstance(value, bool) else None
