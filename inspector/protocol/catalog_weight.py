"""The catalog's weight (seed 004, "Progressive Discovery"): what a host hands a model for each tool, prompt and
resource template (its name, description and schemas), in bytes and in tokens. A cache saves the download, not
this: 300 tools cost the model 300 schemas, from a cache or not.

Tokens are an estimate: no tokenizer is available offline (the models' own are not public, and none is a
dependency), so they are the bytes divided by ``BYTES_PER_TOKEN``, what English prose and JSON schemas come to with
the common BPE tokenizers; every face that shows them says so.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from inspector.protocol.methods import CATALOG, CatalogKind
from inspector.protocol.wire_text import dumps

WEIGHED: Final[dict[CatalogKind, tuple[str, ...]]] = {
    "tools": ("name", "description", "inputSchema", "outputSchema"),
    "prompts": ("name", "description", "arguments"),
    "templates": ("uriTemplate", "name", "description", "mimeType"),
}
"""The fields of an item a host puts in front of a model, by kind (resources are read, not offered as choices)."""
BYTES_PER_TOKEN: Final = 4
ESTIMATED: Final = f"tokens estimated, {BYTES_PER_TOKEN} bytes each: no tokenizer offline"
"""What every face says of the token figures."""


@dataclass(frozen=True, slots=True)
class Weight:
    """The size of what a host hands a model: UTF-8 bytes of the compact JSON, and the tokens estimated from them."""

    name: str
    bytes: int

    @property
    def tokens(self) -> int:
        """Estimated (``ESTIMATED``)."""
        return math.ceil(self.bytes / BYTES_PER_TOKEN)


def weighed(kind: CatalogKind) -> bool:
    """Whether a kind's items are handed to a model (tools, prompts, templates)."""
    return kind in WEIGHED


def item_weight(kind: CatalogKind, item: Mapping[str, object]) -> Weight:
    """One item's weight: its fields that a model reads (``WEIGHED``), as compact JSON."""
    fields = WEIGHED.get(kind, ())
    shown = {name: item[name] for name in fields if name in item}
    key = item.get(CATALOG[kind].key_field)
    return Weight(key if isinstance(key, str) else "?", len(dumps(shown).encode("utf-8", "surrogatepass")))


def weights(kind: CatalogKind, items: Iterable[Mapping[str, object]]) -> list[Weight]:
    """Every item's weight, in the order listed."""
    return [item_weight(kind, item) for item in items]


def total(found: Iterable[Weight]) -> Weight:
    """The kind's whole weight."""
    return Weight("(all)", sum(weight.bytes for weight in found))


def tokens_said(tokens: int) -> str:
    """A token count in few cells, marked as an estimate: ``≈35``, ``≈2.3k``, ``≈1.2M``."""
    if tokens >= 1_000_000:
        return f"≈{tokens / 1_000_000:.1f}M"
    if tokens >= 10_000:
        return f"≈{tokens / 1000:.0f}k"
    if tokens >= 1000:
        return f"≈{tokens / 1000:.1f}k"
    return f"≈{tokens}"


def weight_said(weight: Weight) -> str:
    """``9,432 bytes, ≈2.4k tokens``."""
    return f"{weight.bytes:,} bytes, {tokens_said(weight.tokens)} tokens"
