"""``message_value``: the dataclass decorator of the small values made for every message that crosses the wire.

They are immutable by contract, and the type checker enforces it (``frozen_default``), but they are built as plain
slotted dataclasses: a frozen dataclass sets each field through ``object.__setattr__``, which makes construction
about four times slower (650 ns against 160 ns for four fields), and a round trip builds half a dozen of them.

End to end it matters: ``tests/perf/bench_instructions.py`` (callgrind, 1,000 sequential stdio ``tools/call``)
counted 477,000-480,000 instructions a call with these values and 509,000-512,000 with ``frozen=True`` dataclasses
in their place, 6.7% more for the whole call, twice each.

The values made for every message or call (these, and the timeline's ``Round`` and ``Call``) are built positionally
where that happens: CPython 3.11 calls a class with a Python ``__init__`` through a dict of its keyword arguments,
so a keyword call costs more than the object (measured with timeit: ``Sent`` 740 ns by keyword, 231 ns positionally;
``Round`` 1,547 ns against 920 ns). The sites say so with "(positional: see protocol.values)".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar, dataclass_transform

_Value = TypeVar("_Value")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def message_value(cls: type[_Value]) -> type[_Value]:
    """A slotted dataclass that the type checker treats as frozen (see the module docstring)."""
    return dataclass(slots=True)(cls)
