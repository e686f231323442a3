"""What a base64 payload of a result holds (an image, audio, a blob): its decoded size, the format its first bytes
say, and an image's pixel dimensions, read from the PNG, JPEG, GIF or WebP header.

Why our own few lines and not an imaging library: a result needs its label (type, size, dimensions), never its
pixels, and the four headers are a few fixed offsets (a JPEG's frame header is found by walking its segments).
Pure: bytes in, facts out; nothing is decoded but base64. A payload the data does not match (a PNG labelled
``image/jpeg``, base64 that does not decode) is said, not guessed around: a server that mislabels its images is
what an inspector is for.
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass
from typing import Final

JPEG_FRAMES: Final = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
"""The JPEG markers of a frame header (SOF0-SOF15; C4, C8 and CC are tables and a reserved one)."""
MAGIC: Final[tuple[tuple[bytes, int, str], ...]] = (
    (b"\x89PNG\r\n\x1a\n", 0, "PNG"),
    (b"\xff\xd8\xff", 0, "JPEG"),
    (b"GIF87a", 0, "GIF"),
    (b"GIF89a", 0, "GIF"),
    (b"WEBP", 8, "WebP"),
    (b"WAVE", 8, "WAV"),
    (b"OggS", 0, "Ogg"),
    (b"fLaC", 0, "FLAC"),
    (b"ID3", 0, "MP3"),
    (b"%PDF-", 0, "PDF"),
    (b"PK\x03\x04", 0, "ZIP"),
)
"""First bytes (at an offset) and the format they say: the formats a tool result commonly carries."""
FORMAT_TYPES: Final = {
    "PNG": "image/png",
    "JPEG": "image/jpeg",
    "GIF": "image/gif",
    "WebP": "image/webp",
    "WAV": "audio/wav",
    "Ogg": "audio/ogg",
    "FLAC": "audio/flac",
    "MP3": "audio/mpeg",
    "PDF": "application/pdf",
}
"""The mimeType each format goes by (several are also sent under other names: see ``SYNONYMS``)."""
SYNONYMS: Final = {
    "image/jpg": "image/jpeg",
    "audio/x-wav": "audio/wav",
    "audio/wave": "audio/wav",
    "audio/mp3": "audio/mpeg",
}
"""Other names the formats are sent under."""


@dataclass(frozen=True, slots=True)
class MediaFacts:
    """What a base64 payload holds, as a result's label says it."""

    size: int | None
    """Decoded bytes (None: not valid base64)."""
    format: str | None
    """The format its first bytes say ("PNG", "WAV" ...; None: none we know)."""
    width: int | None = None
    height: int | None = None
    problem: str | None = None
    """What does not add up: base64 that does not decode, data that is not what its mimeType says."""


def media_facts(data: str, mime_type: str) -> MediaFacts:
    """The facts of ``data`` (base64), sent as ``mime_type``."""
    try:
        raw = binascii.a2b_base64(data, strict_mode=True)
    except (binascii.Error, ValueError) as bad:
        return MediaFacts(None, None, problem=f"not valid base64 ({bad})")
    found = sniff(raw)
    width, height = image_size(raw, found) or (None, None)
    said = SYNONYMS.get(mime_type.lower(), mime_type.lower())
    problem = None
    if found is not None and found in FORMAT_TYPES and said != FORMAT_TYPES[found]:
        problem = f"the data is {found} ({FORMAT_TYPES[found]}), not {mime_type or 'what the mimeType says'}"
    elif found is None and said in FORMAT_TYPES.values():
        problem = f"the data does not start as {said} does"
    return MediaFacts(len(raw), found, width, height, problem)


def sniff(raw: bytes) -> str | None:
    """The format ``raw`` starts as (None: none of ``MAGIC``)."""
    for magic, at, name in MAGIC:
        if raw[at : at + len(magic)] == magic:
            return name
    return None


def image_size(raw: bytes, found: str | None) -> tuple[int, int] | None:
    """(width, height) in pixels from the header of a PNG, JPEG, GIF or WebP (None: another format, or a header
    cut short)."""
    if found == "PNG" and raw[12:16] == b"IHDR" and len(raw) >= 24:
        return int.from_bytes(raw[16:20], "big"), int.from_bytes(raw[20:24], "big")
    if found == "GIF" and len(raw) >= 10:
        return int.from_bytes(raw[6:8], "little"), int.from_bytes(raw[8:10], "little")
    if found == "JPEG":
        return _jpeg_size(raw)
    if found == "WebP":
        return _webp_size(raw)
    return None


def _jpeg_size(raw: bytes) -> tuple[int, int] | None:
    """Walk the segments to the first frame header (EXIF and other APPn segments may come first)."""
    at = 2
    while at + 4 <= len(raw):
        if raw[at] != 0xFF:
            return None  # not a marker where one must be: a damaged file
        marker = raw[at + 1]
        if marker == 0xFF:  # (fill bytes before a marker)
            at += 1
            continue
        if marker == 0x01 or 0xD0 <= marker <= 0xD9:  # markers with no length
            at += 2
            continue
        if marker in JPEG_FRAMES:
            if at + 9 > len(raw):
                return None
            return int.from_bytes(raw[at + 7 : at + 9], "big"), int.from_bytes(raw[at + 5 : at + 7], "big")
        at += 2 + int.from_bytes(raw[at + 2 : at + 4], "big")
    return None


def _webp_size(raw: bytes) -> tuple[int, int] | None:
    """A WebP's size from its first chunk: lossy (VP8), lossless (VP8L) or extended (VP8X)."""
    chunk = raw[12:16]
    if chunk == b"VP8 " and len(raw) >= 30 and raw[23:26] == b"\x9d\x01\x2a":
        return int.from_bytes(raw[26:28], "little") & 0x3FFF, int.from_bytes(raw[28:30], "little") & 0x3FFF
    if chunk == b"VP8L" and len(raw) >= 25 and raw[20] == 0x2F:
        bits = int.from_bytes(raw[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(raw) >= 30:
        return int.from_bytes(raw[24:27], "little") + 1, int.from_bytes(raw[27:30], "little") + 1
    return None
