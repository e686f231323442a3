"""Between a text box and a JSON value: reading what a field shows, writing a value back, hinting the format.

Pure helpers for the form widgets (no textual): ``parse_text`` is the one place a typed number becomes a JSON
number, so what is sent is exactly what the field shows.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from inspector.protocol.json_values import json_number
from inspector.protocol.schema_form import MISSING, FieldSpec


def parse_text(spec: FieldSpec, text: str) -> Any:
    """The value a text box holds for a string/number/integer field; ``MISSING`` when empty.

    Raises ``ValueError`` with a message for the user when the text is not a number of the right kind.
    """
    if spec.kind == "string":
        return text if text != "" else MISSING
    stripped = text.strip()
    if stripped == "":
        return MISSING
    if spec.kind == "integer":
        if re.fullmatch(r"[+-]?\d+", stripped) is None:
            raise ValueError(integer_error(stripped))
        return int(stripped)
    try:
        number = float(stripped)
    except ValueError:
        raise ValueError("must be a number") from None
    if not math.isfinite(number):
        raise ValueError("must be a finite number")
    if re.fullmatch(r"[+-]?\d+", stripped):
        return int(stripped)
    return number


def integer_error(text: str) -> str:
    """Why ``text`` (not a run of digits) is no integer: a number with a fraction or an exponent is named as such,
    so "3.5" is never read as 35 nor refused without a word."""
    try:
        float(text)
    except ValueError:
        return "must be a whole number"
    return f"{text} is not an integer (a whole number)"


def typing_error(spec: FieldSpec, text: str) -> str | None:
    """What to say under a number field while it is typed: only what no further typing can fix (an integer field
    holding a ``.`` or an exponent), never a number half typed (``-``, ``1e``)."""
    if spec.kind == "integer" and re.search(r"[.eE]", text):
        return integer_error(text.strip())
    return None


def value_text(value: Any) -> str:
    """How a default or current value is written back into a text box ("" for MISSING/None)."""
    if value is MISSING or value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def placeholder(spec: FieldSpec) -> str:
    """A hint for an empty text box: the expected format or range."""
    hints = {"email": "name@example.com", "uri": "https://…", "date": "YYYY-MM-DD", "date-time": "YYYY-MM-DDTHH:MM:SSZ"}
    if spec.format in hints:
        return hints[spec.format]
    if spec.kind in ("number", "integer"):
        low = "" if spec.minimum is None else f"{spec.minimum:g}"
        high = "" if spec.maximum is None else f"{spec.maximum:g}"
        kind = "whole number" if spec.kind == "integer" else "number"
        return f"{kind} {low}…{high}" if low or high else kind
    if spec.min_length is not None or spec.max_length is not None:
        return f"{spec.min_length or 0}…{spec.max_length if spec.max_length is not None else ''} characters"
    return ""


def matches_kind(spec: FieldSpec, value: Any) -> bool:
    """Whether ``value`` has the JSON type a field produces (used to pick the ``choice`` variant of a default)."""
    kinds: dict[str, tuple[type, ...]] = {
        "string": (str,),
        "boolean": (bool,),
        "object": (dict,),
        "array": (list,),
        "multi": (list,),
    }
    if spec.kind in ("number", "integer"):
        number = json_number(value)
        return number is not None and (spec.kind == "number" or float(number).is_integer())
    if spec.kind == "enum":
        return any(option.value == value for option in spec.options)
    return isinstance(value, kinds.get(spec.kind, (object,)))
