"""The caching hints (digest §1.4) read once: as sent, merged over a list's pages, and said to a person."""

from __future__ import annotations

from inspector.lab.stateless import reordered
from inspector.protocol.caching import CacheHints


def test_hints_are_kept_as_sent_and_only_those_sent() -> None:
    assert CacheHints.of({"ttlMs": 60000, "cacheScope": "public"}).fields() == {"ttlMs": 60000, "cacheScope": "public"}
    assert CacheHints.of({"tools": []}).fields() == {}
    assert CacheHints.of({"ttlMs": -5}).fields() == {"ttlMs": -5}, "a wrong value is shown, not corrected"


def test_absent_or_negative_ttl_is_fresh_for_no_time() -> None:
    assert CacheHints.of({}).fresh_ms == 0
    assert CacheHints.of({"ttlMs": -5}).fresh_ms == 0
    assert CacheHints.of({"ttlMs": True}).fresh_ms == 0
    assert CacheHints.of({"ttlMs": 1500}).fresh_ms == 1500


def test_pages_that_disagree_give_the_shortest_ttl_and_the_narrowest_scope() -> None:
    same = [{"ttlMs": 60000, "cacheScope": "public"}] * 2
    assert CacheHints.of_pages(same) == CacheHints(60000, "public")
    mixed = [{"ttlMs": 60000, "cacheScope": "public"}, {"ttlMs": 5000, "cacheScope": "private"}]
    assert CacheHints.of_pages(mixed) == CacheHints(5000, "private")
    assert CacheHints.of_pages([]) == CacheHints()


def test_described_for_a_person() -> None:
    assert CacheHints(60000, "public").describe() == "cache: 60 s, public (any login may share it)"
    assert CacheHints(1500, "private").describe() == "cache: 1.5 s, private (this login only)"
    assert CacheHints(0, "private").describe() == "cache: not cached (ttlMs 0), private (this login only)"
    assert CacheHints(-1, "odd").describe() == "cache: not cached (ttlMs -1 read as 0), odd"
    assert CacheHints().describe() == "cache: no ttlMs/cacheScope (an older server: not cached)"


def test_the_same_items_in_another_order_are_told_from_other_items() -> None:
    a, b = {"name": "a"}, {"name": "b"}
    assert reordered({"tools": [a, b]}, {"tools": [b, a]}, "tools")
    assert not reordered({"tools": [a, b]}, {"tools": [a, b]}, "tools"), "the same order is no finding"
    assert not reordered({"tools": [a, b]}, {"tools": [b, {"name": "c"}]}, "tools"), "other items: another finding"
