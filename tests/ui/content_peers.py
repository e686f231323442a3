"""A scripted server whose tools return every content type (the demo's tools return text and a mirrored
``structuredContent`` only): ``forecast`` a markdown text, a PNG, a resource link, an embedded resource, a WAV and
structured content under an ``outputSchema``; ``hostile_markdown`` markdown full of escape sequences, bidi and
zero-width characters, Rich markup and links that would disguise their target. ``resources/read`` answers the
link's URI with a markdown text, so reading the link shows something of its own."""

from __future__ import annotations

import base64
import io
import struct
import wave
import zlib
from typing import Any, Final

from scripted import Exchange, Json, Refused, Script, complete, tool

FORECAST_MARKDOWN: Final = (
    "# Forecast for Lisbon\n\n"
    "Mostly **sunny**, a light breeze from the *north-west*.\n\n"
    "- Mon: 22 °C\n"
    "- Tue: 19 °C, `showers`\n\n"
    "See [the station](https://weather.example/lisbon) for more."
)
LINK_URI: Final = "memo://forecast/lisbon"
LINK_TEXT: Final = "## Lisbon, hour by hour\n\n| hour | °C |\n|---|---|\n| 10:00 | 19 |\n| 11:00 | 21 |"
HOSTILE_MARKDOWN: Final = (
    "# Title\x1b[2J\x1b[31m red\n\n"
    "**bold** abc\u202edcba ad\u200bd \ufeffbom \x9b2J\r\n"
    "[safe](javascript:alert(1)) and [docs](https://evil.example/\u202egpj.exe) &#x202E; &#x200B; "
    "<!-- hidden --> [bold red]markup[/] ![pic](https://evil.example/x.png)"
)
OUTPUT_SCHEMA: Final[Json] = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City name"},
        "temperature": {"type": "number", "description": "°C now"},
        "sunny": {"type": "boolean"},
        "days": {
            "type": "array",
            "items": {"type": "object", "properties": {"day": {"type": "string"}, "high": {"type": "integer"}}},
        },
    },
    "required": ["city", "temperature", "days"],
}
STRUCTURED: Final[Json] = {
    "city": "Lisbon",
    "temperature": 21.5,
    "sunny": True,
    "days": [{"day": "Mon", "high": 22, "low": 15}, {"day": "Tue", "high": 19, "low": 14}],
}


def png(width: int, height: int) -> bytes:
    """A real PNG of ``width`` x ``height`` grey pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    pixels = zlib.compress(b"".join(b"\x00" + b"\x80" * width for _ in range(height)))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def wav(frames: int) -> bytes:
    """A real WAV of ``frames`` silent 8 kHz mono samples."""
    out = io.BytesIO()
    with wave.open(out, "wb") as sound:
        sound.setnchannels(1)
        sound.setsampwidth(1)
        sound.setframerate(8000)
        sound.writeframes(b"\x80" * frames)
    return out.getvalue()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


FORECAST: Final[Json] = complete(
    {
        "content": [
            {"type": "text", "text": FORECAST_MARKDOWN},
            {"type": "image", "data": b64(png(64, 32)), "mimeType": "image/png"},
            {
                "type": "resource_link",
                "uri": LINK_URI,
                "name": "lisbon",
                "title": "Lisbon, hour by hour",
                "mimeType": "text/markdown",
                "description": "The next 24 hours",
            },
            {
                "type": "resource",
                "resource": {"uri": "memo://station", "mimeType": "text/plain", "text": "LIS-1\n10:00"},
            },
            {"type": "audio", "data": b64(wav(800)), "mimeType": "audio/wav"},
        ],
        "structuredContent": STRUCTURED,
        "isError": False,
    }
)
HOSTILE: Final[Json] = complete(
    {
        "content": [{"type": "text", "text": HOSTILE_MARKDOWN}],
        "structuredContent": {"na\u202eme": "x\x1b[31my", "[bold]k[/]": "\u200bz"},
        "isError": False,
    }
)


def content_server() -> Script:
    """The scripted server (see the module docstring)."""
    forecast = {**tool("forecast", "Every content type"), "outputSchema": OUTPUT_SCHEMA}

    async def call(exchange: Exchange) -> Json:
        name = exchange.params.get("name")
        if name == "forecast":
            return FORECAST
        if name == "hostile_markdown":
            return HOSTILE
        raise Refused(-32602, f"Unknown tool: {name}")

    async def read(exchange: Exchange) -> Json:
        uri = exchange.params.get("uri")
        if uri != LINK_URI:
            raise Refused(-32602, f"Resource not found: {uri}")
        contents: list[Any] = [{"uri": LINK_URI, "mimeType": "text/markdown", "text": LINK_TEXT}]
        return complete({"contents": contents, "ttlMs": 0, "cacheScope": "private"})

    return Script(
        tools=[forecast, tool("hostile_markdown", "Markdown that tries everything")],
        handlers={"tools/call": call, "resources/read": read},
        capabilities={"tools": {}},
    )
