"""Hostile inputs shared by the tests of every face: each a class of input, several members each."""

from __future__ import annotations

HOSTILE_URLS = [
    "https://example.com/\x1b]8;;https://evil.example\x07x",
    "https://example.com/\x07bell",
    "https://exa\u202emple.com/elpmaxe",
    "https://example.com\u200b.evil.example/",
    "https://example.com/\nhttps://evil.example/",
    "https://example.com/\u2028next",
    "https://example.com/\x00nul",
    "https://example.com/\ufeffbom",
]
"""URLs that look like one place and hold characters that hide another (controls, escapes, bidi, zero-width)."""

HOSTILE: dict[str, str] = {
    "csi clear screen": "a\x1b[2Jb",
    "csi colour": "\x1b[31mred\x1b[0m",
    "osc title with bel": "\x1b]0;pwned\x07x",
    "osc 8 hyperlink": "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
    "c1 csi": "a\x9b2Jb",
    "nul and bell": "a\x00b\x07c",
    "backspace overwrite": "safe\x08\x08\x08\x08evil",
    "carriage return overwrite": "rm -rf /tmp/x\rls",
    "vertical tab and form feed": "a\x0bb\x0cc",
    "delete": "a\x7fb",
    "bidi override": "abc\u202edcba",
    "bidi embedding": "\u202aleft\u202bright\u202c",
    "bidi isolates": "\u2066x\u2067y\u2068z\u2069",
    "bidi marks": "a\u200eb\u200fc\u061cd",
    "zero width space": "ad\u200bd",
    "zero width joiners": "a\u200cb\u200dc",
    "word joiner and invisible operators": "a\u2060b\u2062c",
    "byte order mark": "\ufeffadd",
    "soft hyphen": "ad\xadd",
    "line separator": "a\u2028b",
    "paragraph separator": "a\u2029b",
    "tag characters": "add\U000e0041\U000e007f",
    "hangul fillers": "add\u3164\u115f",
    "braille blank": "add\u2800",
    "variation selector": "add\ufe0f",
    "mongolian vowel separator": "a\u180eb",
}
"""Hostile strings by class, each a name a server could give a tool."""
