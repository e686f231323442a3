"""What ``inspector list`` says of the catalog's weight (seed 004, "Progressive Discovery"): each tool's, prompt's and
template's bytes and estimated tokens beside its name, the kind's total under the count (saying the tokens are an
estimate), heaviest first with ``--by-weight``; ``--json`` the same figures; resources none. And a call served
from the cache, printed: how old its result was, and that nothing was sent."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from inspector.headless.list_table import listing_table, weight_json
from inspector.headless.printed_timeline import print_timeline
from inspector.timeline import records
from inspector.timeline.build.builder import build_timeline

TOOLS: dict[str, Any] = {
    "tools": [
        {"name": "small", "description": "Tiny.", "inputSchema": {"type": "object"}},
        {"name": "heavy", "description": "Big " * 100, "inputSchema": {"type": "object", "required": ["q"]}},
    ],
    "ttlMs": 60000,
    "cacheScope": "public",
}


def text_of(renderable: Any, width: int = 120) -> list[str]:
    console = Console(record=True, width=width, color_system=None, force_terminal=False)
    console.print(renderable)
    return console.export_text().splitlines()


def test_each_item_says_its_bytes_and_tokens_and_the_total_says_it_is_an_estimate() -> None:
    lines = text_of(listing_table("tools", TOOLS, 120))
    assert lines[0].split()[:4] == ["name", "required", "bytes", "tokens"]
    rows = {line.split()[0]: line.split() for line in lines[1:3]}
    assert rows["small"][1:3] == ["70", "≈18"] and rows["heavy"][2:4] == ["482", "≈121"]
    assert [line.split()[0] for line in lines[1:3]] == ["small", "heavy"], "the server's order"
    assert lines[3:] == [
        "2 tools",
        "handed to a model: 552 bytes, ≈138 tokens (tokens estimated, 4 bytes each: no tokenizer offline)",
        "cache: 60 s, public (any login may share it)",
    ]


def test_by_weight_puts_the_heaviest_first() -> None:
    lines = text_of(listing_table("tools", TOOLS, 120, by_weight=True))
    assert [line.split()[0] for line in lines[1:3]] == ["heavy", "small"]


def test_json_has_every_items_weight_and_resources_have_none() -> None:
    weight = weight_json("tools", TOOLS)["weight"]
    assert (weight["bytes"], weight["tokensEstimated"]) == (552, 138) and "estimated" in weight["estimate"]
    assert weight["items"] == [
        {"name": "small", "bytes": 70, "tokensEstimated": 18},
        {"name": "heavy", "bytes": 482, "tokensEstimated": 121},
    ]
    assert weight_json("resources", {"resources": [{"uri": "a://b", "name": "b"}]}) == {}
    assert not any(
        "tokens" in line for line in text_of(listing_table("resources", {"resources": [{"uri": "a://b"}]}, 80))
    )


def test_a_call_served_from_the_cache_prints_its_age_and_no_round() -> None:
    timeline = build_timeline(
        [
            records.call_started(1.0, 1, "tools/list", {}),
            records.served_from_cache(1.0, 1, TOOLS, age_ms=12_000, of=None, pages=2),
        ]
    )
    console = Console(record=True, width=160, color_system=None, force_terminal=False)
    print_timeline(console, timeline)
    assert (
        "#1 tools/list  complete  from cache, 12 s old (a result of an earlier session with this server, 2 pages; "
        "no request sent)" in console.export_text()
    )
