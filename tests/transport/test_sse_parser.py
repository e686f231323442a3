"""The SSE parser against the WHATWG rules, fed in awkward chunkings."""

from __future__ import annotations

import pytest

from inspector.transport.sse import SseEvent, SseNote, SseParser


def parse_all(*chunks: bytes) -> tuple[list[SseEvent | SseNote], SseParser]:
    parser = SseParser()
    found: list[SseEvent | SseNote] = []
    for chunk in chunks:
        found.extend(parser.feed(chunk))
    found.extend(parser.finish())
    return found, parser


def parse(*chunks: bytes) -> tuple[list[SseEvent], SseParser]:
    found, parser = parse_all(*chunks)
    return [e for e in found if isinstance(e, SseEvent)], parser


def bytewise(data: bytes) -> list[bytes]:
    return [data[i : i + 1] for i in range(len(data))]


STREAM = (
    b': comment, ignored\nevent: message\nid: 1\ndata: first\ndata:second\n\nretry: 2500\ndata: {"x": "\xc3\xa9"}\n\n'
)


@pytest.mark.parametrize("ending", [b"\n", b"\r\n", b"\r"])
@pytest.mark.parametrize("split", ["whole", "bytes"])
def test_events_in_any_line_ending_and_chunking(ending: bytes, split: str) -> None:
    data = STREAM.replace(b"\n", ending)
    events, parser = parse(*(bytewise(data) if split == "bytes" else [data]))
    assert events == [
        SseEvent(event="message", data="first\nsecond", id="1", retry_ms=None),
        SseEvent(event="message", data='{"x": "é"}', id="1", retry_ms=2500),
    ]
    assert parser.last_event_id == "1" and parser.retry_ms == 2500


def test_priming_event_updates_id_and_retry_with_empty_data() -> None:
    events, parser = parse(b"id: event-1\nretry: 500\ndata: \n\n")
    assert events == [SseEvent(event="message", data="", id="event-1", retry_ms=500)]
    assert parser.last_event_id == "event-1"


def test_id_only_block_dispatches_nothing_but_sets_the_id() -> None:
    events, parser = parse(b"id: 7\n\n")
    assert events == []
    assert parser.last_event_id == "7"


def test_bad_retry_and_nul_id_are_ignored_and_unknown_fields_skipped() -> None:
    events, parser = parse(b"retry: soon\nid: a\x00b\nfoo: bar\ndata\n\n")
    assert events == [SseEvent(event="message", data="", id=None, retry_ms=None)]
    assert parser.retry_ms is None and parser.last_event_id is None


def test_custom_event_type_is_kept() -> None:
    events, _ = parse(b"event: endpoint\ndata: /messages\n\n")
    assert events[0].event == "endpoint"


def test_an_unfinished_event_is_not_dispatched_but_stays_visible() -> None:
    events, parser = parse(b'data: {"a":1}\n\ndata: {"jsonrpc":"2.0",', b'"id"')
    assert [e.data for e in events] == ['{"a":1}']
    assert parser.pending == 'data: {"jsonrpc":"2.0","id"'


def test_leading_bom_is_dropped_and_multibyte_characters_survive_any_split() -> None:
    data = "\ufeffdata: ☃ snow\n\n".encode()
    events, _ = parse(*bytewise(data))
    assert events[0].data == "☃ snow"


def test_crlf_split_across_chunks_is_one_line_ending() -> None:
    events, _ = parse(b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n")
    assert [e.data for e in events] == ["a\nb"]


def test_a_large_event_in_many_chunks() -> None:
    payload = b"x" * (5 * 1024 * 1024)
    data = b"data: " + payload + b"\n\n"
    events, _ = parse(*[data[i : i + 65536] for i in range(0, len(data), 65536)])
    assert len(events[0].data) == len(payload)


@pytest.mark.parametrize("split", ["whole", "bytes"])
def test_comments_keep_alives_and_data_less_blocks_come_back_verbatim(split: str) -> None:
    data = b": ping\n\n:keep-alive 2\nid: 9\nretry: 100\n\n: before\ndata: x\n\n"
    found, _ = parse_all(*(bytewise(data) if split == "bytes" else [data]))
    assert found == [
        SseNote(": ping"),
        SseNote(":keep-alive 2\nid: 9\nretry: 100"),
        SseNote(": before"),
        SseEvent(event="message", data="x", id="9", retry_ms=100),
    ]


@pytest.mark.parametrize("split", ["whole", "bytes"])
def test_data_that_is_not_utf8_keeps_its_exact_bytes(split: str) -> None:
    data = b'data: {"a": "\xff\xfe"}\ndata: \xc3\xa9\xc3\n\n'
    events, _ = parse(*(bytewise(data) if split == "bytes" else [data]))
    (event,) = events
    assert event.data == '{"a": "\ufffd\ufffd"}\n\u00e9\ufffd'
    assert event.undecodable == b'{"a": "\xff\xfe"}\n\xc3\xa9\xc3'
    valid, _ = parse(b"data: \xc3\xa9\n\n")
    assert valid[0].undecodable is None
