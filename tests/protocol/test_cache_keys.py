"""How the client's cache keys a result and what makes it stale (digest §1.4), and the words every face uses for a
call served from it."""

from __future__ import annotations

from inspector.protocol.caching import age_words, cache_key, order_changed, stale_after


def test_the_key_is_the_method_and_the_params_that_shape_the_result() -> None:
    page = cache_key("tools/list", {"cursor": "p2", "_meta": {"io.modelcontextprotocol/protocolVersion": "x"}})
    assert page == 'tools/list {"cursor":"p2"}', "the envelope shapes nothing"
    assert cache_key("tools/list", {}) != page, "each page on its own"
    assert cache_key("resources/read", {"uri": "a", "requestState": "s"}) == cache_key("resources/read", {"uri": "a"})


def test_a_list_change_makes_its_lists_stale_and_an_update_the_reads_of_its_uri() -> None:
    change = "notifications/resources/list_changed"
    assert stale_after(change, {}, "resources/list", {}) and stale_after(change, {}, "resources/templates/list", {})
    assert not stale_after(change, {}, "tools/list", {}) and not stale_after(change, {}, "resources/read", {"uri": "a"})
    updated = "notifications/resources/updated"
    assert stale_after(updated, {"uri": "file:///p/a.txt"}, "resources/read", {"uri": "file:///p/a.txt"})
    assert stale_after(updated, {"uri": "file:///p/a.txt"}, "resources/read", {"uri": "file:///p"}), "inside it"
    assert not stale_after(updated, {"uri": "file:///pa"}, "resources/read", {"uri": "file:///p"})
    assert not stale_after(updated, {"uri": "file:///p"}, "resources/list", {})


def test_the_words_of_a_call_served_from_the_cache() -> None:
    assert [age_words(ms) for ms in (0, 2_049, 12_400, 3_600_000)] == [
        "from cache, 0.0 s old",
        "from cache, 2.0 s old",
        "from cache, 12 s old",
        "from cache, 3,600 s old",
    ]


def test_an_order_change_is_the_same_names_in_another_order() -> None:
    assert order_changed(["a", "b"], ["b", "a"])
    assert not order_changed(["a", "b"], ["a", "b"])
    assert not order_changed(["a", "b"], ["b", "c"]), "other names: the list changed"
