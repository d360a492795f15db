"""A dynamics claim's own tokens: inline rows in the claims file, or a `.npy` / `.csv` file, checked to be unit tokens.

`points` is either an array of rows (each entry an integer, a string holding a rational "3/5" or a decimal "0.6", or
a TOML float literal) or the path of a file, relative to the claims file's folder (the working folder for text parsed
without a file): a `.csv` of rows of numbers, or a `.npy` holding a 2-D array of float64, float32, int64 or int32.
Files are read by `certificates.claims.data_files` (inside the claims file's folder, regular files only, at most
MAX_FILE_BYTES); an error in a file names its line and column, or an entry's index, never the text found there. The
data are *exact*
when every entry is an integer or a rational written as text (an inline string, a CSV entry "p/q"); then every token
must satisfy |x|^2 = 1 exactly. Otherwise they are floats (TOML float literals, decimals in a CSV file, float arrays),
each token within FLOAT_TOLERANCE of the unit sphere in |x|^2, and normalised. Anything else is an InputError that
says which token or entry is wrong. The parser reads no Python literal: the `.npy` header is matched field by field.
"""

from __future__ import annotations

import csv
import io
import math
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from headflow.certificates.claims.data_files import at_entry, malformed_csv, not_utf8, read_data_file
from headflow.certificates.claims.numbers import TomlFloat, exact_number
from headflow.certificates.errors import InputError
from headflow.certificates.vocabulary import MAX_DIMENSION, MAX_TOKENS

#: The largest token file read, and the most entries a claim's tokens may have.
MAX_FILE_BYTES = 16_000_000
MAX_ENTRIES = 1_000_000
#: How far | |x|^2 - 1 | of a float token may be from the sphere before it is refused.
FLOAT_TOLERANCE = 1e-9

_RATIONAL = re.compile(r"^\s*[+-]?[0-9]{1,300}\s*(/\s*[0-9]{1,300}\s*)?$")
_DECIMAL = re.compile(r"^\s*[+-]?([0-9]{1,300}(\.[0-9]{0,300})?|\.[0-9]{1,300})([eE][+-]?[0-9]{1,3})?\s*$")
_NPY_MAGIC = b"\x93NUMPY"
_NPY_TYPES = {"<f8": ("d", False), "<f4": ("f", False), "<i8": ("q", True), "<i4": ("i", True)}
_NPY_HEADER = re.compile(
    r"^\{\s*'descr'\s*:\s*'(?P<descr>[<>|][a-z][0-9])'\s*,\s*'fortran_order'\s*:\s*(?P<fortran>True|False)\s*,"
    r"\s*'shape'\s*:\s*\((?P<shape>\s*[0-9]{1,9}\s*(,\s*[0-9]{1,9}\s*){0,2}),?\s*\)\s*,?\s*\}\s*$"
)


@dataclass(frozen=True, repr=False)
class GivenTokens:
    """The tokens as rows: exact rationals (`exact`) or floats normalised to the sphere; `source` is the file's path
    as written ("" for inline rows)."""

    rows: tuple[tuple[Fraction, ...], ...] | tuple[tuple[float, ...], ...]
    exact: bool
    source: str = ""

    @property
    def n(self) -> int:
        return len(self.rows)

    @property
    def d(self) -> int:
        return len(self.rows[0])

    def floats(self) -> list[list[float]]:
        """The tokens as float rows (what the numeric model runs with)."""
        return [[float(v) for v in row] for row in self.rows]

    def __str__(self) -> str:
        """How statements and the checker name them: "the 3 given tokens in R^2 (exact)" or "... from tokens.csv"."""
        where = f" from {self.source}" if self.source else ""
        return f"the {self.n} given tokens in R^{self.d}{where} ({'exact' if self.exact else 'floats'})"

    __repr__ = __str__


def given_tokens(field: str, value: object, base: Path | None) -> GivenTokens:
    """The tokens of `points = value`: inline rows or a file path; InputError naming what is wrong."""
    if isinstance(value, str):
        rows, source = _from_file(field, value, base), value
    elif isinstance(value, list):
        rows, source = [_inline_row(field, k, row) for k, row in enumerate(_bounded_rows(field, value))], ""
    else:
        raise InputError(field, value, 'rows of numbers, e.g. [["3/5", "4/5"], [1, 0]], or a .npy/.csv file path')
    return _on_sphere(field, rows, source)


def _bounded_rows(field: str, rows: list[object]) -> list[object]:
    if not 2 <= len(rows) <= MAX_TOKENS:
        raise InputError(field, f"{len(rows)} rows", f"from 2 to {MAX_TOKENS} tokens")
    return rows


def _inline_row(field: str, k: int, row: object) -> list[Fraction | float]:
    if not isinstance(row, list) or not 1 <= len(row) <= MAX_DIMENSION:
        raise InputError(f"{field}[{k}]", row, f"a token is a row of 1 to {MAX_DIMENSION} numbers")
    entries: list[Fraction | float] = []
    for entry in row:
        if isinstance(entry, str):
            entries.append(_text_entry(f"{field}[{k}]", entry, exact_decimal=True))
        elif isinstance(entry, TomlFloat):
            entries.append(float(exact_number(f"{field}[{k}]", entry)))
        elif isinstance(entry, int) and not isinstance(entry, bool):
            entries.append(exact_number(f"{field}[{k}]", entry))
        else:
            raise InputError(f"{field}[{k}]", entry, 'an entry is an integer, a float or a rational text "3/5"')
    return entries


def exact_text(field: str, text: str) -> Fraction | None:
    """A number written as text, exactly: an integer or p/q, or a decimal; None when the text is neither."""
    if _RATIONAL.match(text):
        numerator, _, denominator = text.partition("/")
        if denominator and int(denominator) == 0:
            raise InputError(field, text, "a zero denominator")
        return Fraction(int(numerator), int(denominator) if denominator else 1)
    if _DECIMAL.match(text):
        return Fraction(text.strip())
    return None


def _text_entry(field: str, text: str, exact_decimal: bool) -> Fraction | float:
    """An entry written as text: p/q (exact), a decimal (exact inline, a float in a CSV file)."""
    exact = exact_text(field, text)
    if exact is None:
        raise InputError(field, text, 'not a number (an integer, a decimal or a rational "p/q")')
    if _RATIONAL.match(text):
        return exact
    if abs(exact) > 10**6:
        raise InputError(field, text, "a token's entries lie in [-1, 1]")
    return exact if exact_decimal else float(exact)


def _from_file(field: str, path_text: str, base: Path | None) -> list[list[Fraction | float]]:
    suffix, data = read_data_file(field, path_text, base, "token", MAX_FILE_BYTES)
    return _npy_rows(field, path_text, data) if suffix == ".npy" else _csv_rows(field, path_text, data)


def _csv_entry(field: str, name: str, line: int, column: int, text: str) -> Fraction | float:
    """One CSV entry of a token file (a decimal is a float); an error names its line and column, not its text."""
    try:
        return _text_entry(field, text, exact_decimal=False)
    except InputError as exc:
        raise InputError(field, at_entry(name, line, column), exc.reason) from None


def _csv_rows(field: str, name: str, data: bytes) -> list[list[Fraction | float]]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        not_utf8(field, name, data, exc)
    rows: list[list[Fraction | float]] = []
    reader = csv.reader(io.StringIO(text))
    try:
        for row in reader:
            if not row or all(not entry.strip() for entry in row):
                continue
            if len(rows) >= MAX_TOKENS or len(row) > MAX_DIMENSION:
                raise InputError(field, name, f"at most {MAX_TOKENS} rows of at most {MAX_DIMENSION} numbers")
            rows.append([_csv_entry(field, name, reader.line_num, k, entry) for k, entry in enumerate(row, 1)])
    except csv.Error as exc:
        malformed_csv(field, name, reader.line_num, exc)
    if len(rows) < 2:
        raise InputError(field, name, "the CSV file holds fewer than 2 tokens")
    return rows


def _npy_rows(field: str, name: str, data: bytes) -> list[list[Fraction | float]]:
    """The rows of a 2-D `.npy` array of tokens."""
    shape, at = npy_array(field, name, data, 2)
    rows, cols = shape
    if not (2 <= rows <= MAX_TOKENS and 1 <= cols <= MAX_DIMENSION and rows * cols <= MAX_ENTRIES):
        raise InputError(
            field, name, f"shape ({rows}, {cols}): from 2 to {MAX_TOKENS} tokens in at most R^{MAX_DIMENSION}"
        )
    return [[at((i, j)) for j in range(cols)] for i in range(rows)]


def npy_array(
    field: str, name: str, data: bytes, rank: int
) -> tuple[tuple[int, ...], Callable[[tuple[int, ...]], Fraction | float]]:
    """The shape of a `.npy` array of `rank` axes (format versions 1-3, little-endian float or integer entries) and
    its entry at an index: an exact Fraction for integer arrays, a float otherwise. The header is matched field by
    field (never evaluated)."""
    if not data.startswith(_NPY_MAGIC) or len(data) < 10 or data[6] not in (1, 2, 3):
        raise InputError(field, name, "not a .npy file (format versions 1 to 3)")
    wide = data[6] >= 2
    length = struct.unpack("<I" if wide else "<H", data[8 : 12 if wide else 10])[0]
    start = 12 if wide else 10
    header = data[start : start + length].decode("latin-1")
    found = _NPY_HEADER.match(header)
    shape = tuple(int(k) for k in found["shape"].split(",")) if found is not None else ()
    if found is None or found["descr"] not in _NPY_TYPES or len(shape) != rank:
        raise InputError(field, name, f"a .npy file of a {rank}-D array of {', '.join(_NPY_TYPES)} entries")
    code, integral = _NPY_TYPES[found["descr"]]
    size = math.prod(shape)
    if size > MAX_ENTRIES:
        raise InputError(field, name, f"shape {shape}: more than {MAX_ENTRIES} entries")
    body = data[start + length :]
    if len(body) != size * struct.calcsize(code):
        raise InputError(field, name, "the .npy data do not have the length its header states")
    values = struct.unpack(f"<{size}{code}", body)
    order = shape[::-1] if found["fortran"] == "True" else shape
    strides = [math.prod(order[k + 1 :]) for k in range(rank)]

    def at(index: tuple[int, ...]) -> Fraction | float:
        position = index[::-1] if found["fortran"] == "True" else index
        value = values[sum(i * s for i, s in zip(position, strides, strict=True))]
        return Fraction(value) if integral else float(value)

    return shape, at


def _on_sphere(field: str, rows: list[list[Fraction | float]], source: str) -> GivenTokens:
    """The rows as unit tokens: exact ones with |x|^2 = 1 exactly, float ones within FLOAT_TOLERANCE (normalised)."""
    if len({len(row) for row in rows}) != 1:
        raise InputError(field, source or "points", "every token must have the same number of entries")
    if len(rows) * len(rows[0]) > MAX_ENTRIES:
        raise InputError(field, source or "points", f"more than {MAX_ENTRIES} entries")
    exact = all(isinstance(v, Fraction) for row in rows for v in row)
    if exact:
        for k, row in enumerate(rows):
            square = sum(v * v for v in row)
            if square != 1:
                raise InputError(
                    field, source or f"token {k}", f"token {k} is not on the unit sphere: |x|^2 = {square}, not 1 "
                    "exactly (write rationals with |x| = 1, e.g. 3/5, 4/5; or floats, checked within 1e-9)"
                )  # fmt: skip
        return GivenTokens(tuple(tuple(row) for row in rows), True, source)  # type: ignore[arg-type]
    normalised = []
    for k, row in enumerate(rows):
        floats = [float(v) for v in row]
        if not all(math.isfinite(v) for v in floats):
            raise InputError(field, source or f"token {k}", f"token {k} has an entry that is not a finite number")
        square = math.fsum(v * v for v in floats)
        if abs(square - 1.0) > FLOAT_TOLERANCE:
            raise InputError(
                field, source or f"token {k}", f"token {k} is not on the unit sphere: |x|^2 = {square!r} "
                f"(more than {FLOAT_TOLERANCE:g} from 1)"
            )  # fmt: skip
        norm = math.sqrt(square)
        normalised.append(tuple(v / norm for v in floats))
    return GivenTokens(tuple(normalised), False, source)
