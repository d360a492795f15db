"""The one serializer of report data: whatever a procedure puts in its evidence becomes plain JSON values.

Procedures return numpy scalars and arrays, Fractions, SymPy numbers, Paths, tuples and sets in
their details and witnesses. `plain` turns them into str, int, float, bool, None, list and dict
once, when the report is built (`headflow.checks.reports.document.build_report`), and `dumps` writes JSON text with
it, so every format (JSON, markdown, HTML, the terminal) reads the same plain data and none can
meet a value it cannot print. Exact numbers stay exact as text ("3/7"); a float that is not finite
becomes its text ("inf", "nan") so that the JSON is valid for any reader. The formats that print text as it is
(the terminal, markdown, HTML) print `visible` data: a claims file's title or statement cannot move the cursor,
recolour the terminal or reorder a line, since its control characters are written as escapes ("\\x1b"); JSON
escapes them itself.
"""

from __future__ import annotations

import enum
import json
import math
import re
from collections.abc import Mapping
from typing import Any

#: Integers with more bits than this are written as their size: Python refuses to print them in decimal.
_MAX_INTEGER_BITS = 13_000
#: Characters a report writes as escapes: the C0 controls but newline and tab (ESC starts the terminal's
#: control sequences, CR overwrites a line), DEL and the C1 controls, and the bidirectional controls that let text
#: show in another order than it is read.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def plain(value: Any) -> Any:
    """`value` as JSON-native data (str, int, float, bool, None, list, dict with str keys), recursively."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return _integer(int(value))
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else str(value)
    if isinstance(value, Mapping):
        return {_key(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, set | frozenset):
        return sorted((plain(item) for item in value), key=repr)
    if hasattr(value, "dtype") and hasattr(value, "tolist"):  # numpy scalars and arrays, without importing numpy
        return plain(value.tolist())
    if getattr(value, "is_Integer", False):  # a SymPy Integer; other SymPy numbers are written as their text
        return _integer(int(value))
    if isinstance(value, enum.Enum):
        return plain(value.value)
    return _text(value)


def dumps(value: Any, indent: int | None = None) -> str:
    """JSON text of `value` through `plain` (valid JSON: no NaN or Infinity)."""
    return json.dumps(plain(value), indent=indent, allow_nan=False)


def visible(value: Any) -> Any:
    """Plain data with every control character of its texts (keys too) written as its escape, "\\x1b"."""
    if isinstance(value, str):
        return _CONTROLS.sub(lambda found: found.group().encode("unicode_escape").decode("ascii"), value)
    if isinstance(value, dict):
        return {visible(key): visible(item) for key, item in value.items()}
    if isinstance(value, list):
        return [visible(item) for item in value]
    return value


def _key(key: Any) -> str:
    converted = plain(key)
    return converted if isinstance(converted, str) else json.dumps(converted)


def _integer(number: int) -> int | str:
    return number if number.bit_length() <= _MAX_INTEGER_BITS else f"<integer of {number.bit_length()} bits>"


def _text(value: Any) -> str:
    """The value's text (Fraction "3/7", SymPy "sqrt(5)/2", Path, Decimal, balls), or its size when that fails."""
    try:
        return str(value)
    except ValueError:  # a Fraction or SymPy number too long to print in decimal
        return f"<{type(value).__name__} too large to print>"
