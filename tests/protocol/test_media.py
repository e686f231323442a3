"""A result's base64 payloads as their label says them: decoded size, the format the bytes say, an image's pixel
dimensions from its PNG, JPEG, GIF or WebP header, and what does not add up (bad base64, a mislabelled image)."""

from __future__ import annotations

import base64
import struct

import pytest

from inspector.protocol.media import MediaFacts, image_size, media_facts


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


PNG = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", 640, 480) + b"\x08\x02\x00\x00\x00"
GIF = b"GIF89a" + struct.pack("<HH", 32, 16) + b"\x00" * 8
# A JPEG whose frame header comes after an APP1 (EXIF) segment, as a camera's does.
JPEG = (
    b"\xff\xd8"
    + b"\xff\xe1"
    + struct.pack(">H", 10)
    + b"Exif\x00\x00\x00\x00"
    + b"\xff\xc0"
    + struct.pack(">HBHH", 17, 8, 600, 800)
    + b"\x03" * 12
)
WEBP_LOSSY = b"RIFF\x00\x00\x00\x00WEBPVP8 \x00\x00\x00\x00\x00\x00\x00\x9d\x01\x2a" + struct.pack("<HH", 300, 200)
WEBP_LOSSLESS = b"RIFF\x00\x00\x00\x00WEBPVP8L\x00\x00\x00\x00\x2f" + struct.pack("<I", (99 << 14) | 149)
WEBP_EXTENDED = b"RIFF\x00\x00\x00\x00WEBPVP8X\x00\x00\x00\x00" + b"\x00" * 4 + (1023).to_bytes(3, "little") * 2


@pytest.mark.parametrize(
    ("data", "mime", "size"),
    [
        (PNG, "image/png", (640, 480)),
        (GIF, "image/gif", (32, 16)),
        (JPEG, "image/jpeg", (800, 600)),
        (WEBP_LOSSY, "image/webp", (300, 200)),
        (WEBP_LOSSLESS, "image/webp", (150, 100)),
        (WEBP_EXTENDED, "image/webp", (1024, 1024)),
    ],
    ids=["png", "gif", "jpeg after exif", "webp lossy", "webp lossless", "webp extended"],
)
def test_an_image_says_its_decoded_size_and_pixel_dimensions(data: bytes, mime: str, size: tuple[int, int]) -> None:
    facts = media_facts(b64(data), mime)
    assert (facts.width, facts.height) == size
    assert facts.size == len(data) and facts.problem is None


def test_a_mislabelled_image_is_said() -> None:
    facts = media_facts(b64(PNG), "image/jpeg")
    assert facts.format == "PNG" and (facts.width, facts.height) == (640, 480)
    assert facts.problem == "the data is PNG (image/png), not image/jpeg"
    assert media_facts(b64(JPEG), "image/jpg").problem is None  # (a name JPEG goes by)


def test_data_that_is_not_what_an_image_type_says_is_said() -> None:
    assert media_facts(b64(b"hello"), "image/png").problem == "the data does not start as image/png does"
    assert media_facts(b64(b"hello"), "application/x-thing") == MediaFacts(5, None)  # an unknown type: no claim


def test_bad_base64_is_said_not_guessed_around() -> None:
    facts = media_facts("not base64!", "image/png")
    assert facts.size is None and facts.problem is not None and facts.problem.startswith("not valid base64")


def test_a_cut_header_gives_no_dimensions() -> None:
    assert image_size(PNG[:20], "PNG") is None
    assert image_size(JPEG[:20], "JPEG") is None
    assert image_size(b"\xff\xd8\x00\x00", "JPEG") is None  # no marker where one must be
