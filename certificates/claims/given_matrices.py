"""A dynamics claim's own head matrices: per-head score matrices M_h, values W_h, or queries Q_h and keys K_h.

Each field holds H matrices, either inline (a list of H matrices, each a list of rows; entries are integers or texts
of rationals "3/5" or decimals "0.25") or the path of a file inside the claims file's folder
(`headflow.certificates.claims.data_files`): a `.npy` holding a 3-D array (H, rows, cols) (or a 2-D array: one head) of
float64, float32, int64 or int32, or a `.csv` of rows of entries with one empty line between heads. The data are
*exact*: every entry is the rational it denotes (a binary64 entry of a `.npy` file is its exact binary rational), so
the numpy model, the balls of witnesses and `check-cert` read the same matrices. A TOML float literal is refused
(write "0.1" or "1/10": it would be read as binary64 by a float program and as 1/10 by an exact one). Shapes,
finiteness and sizes are checked here (MAX_ENTRIES entries in all, |entry| <= MAX_MAGNITUDE), each error naming the
field, head and entry (in a file: its index, or its line and column, never its text).

`heads = "given"` takes `scores` (M_h, d x d) or both `queries` and `keys` (Q_h and K_h, r x d with one r for both,
so M_h = Q_h^T K_h, exactly); `values` may be such matrices for any head family (d x d, one per head).
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from headflow.certificates.claims.data_files import at_entry, malformed_csv, not_utf8, read_data_file
from headflow.certificates.claims.given_tokens import exact_text, npy_array
from headflow.certificates.claims.numbers import TomlFloat
from headflow.certificates.errors import InputError
from headflow.certificates.vocabulary import MAX_DIMENSION, MAX_HEADS

#: The most entries of one field's matrices (all heads), the largest file read, the largest |entry|.
MAX_ENTRIES = 100_000
MAX_FILE_BYTES = 4_000_000
MAX_MAGNITUDE = 10**6
#: The most characters of a claim's inline matrices that its certificates embed (the checker reads at most 100 000).
EMBEDDED_CHARS = 60_000
#: The fields of head matrices a dynamics claim may state.
FIELDS = ("scores", "queries", "keys", "values")

Matrix = tuple[tuple[Fraction, ...], ...]


@dataclass(frozen=True, repr=False)
class GivenMatrices:
    """H exact matrices of one shape; `source` is the file's path as written ("" for inline rows)."""

    matrices: tuple[Matrix, ...]
    source: str = ""
    #: The length of the inline text they were read from (of the queries and keys for their product).
    chars: int = 0

    @property
    def embeddable(self) -> bool:
        """Whether a certificate can embed the claim that states them: inline, and short enough as text for the
        checker's bound on an embedded claim (`headflow.certificates.claims.embedding`)."""
        return not self.source and self.chars <= EMBEDDED_CHARS

    @property
    def H(self) -> int:
        return len(self.matrices)

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.matrices[0]), len(self.matrices[0][0])

    def exact(self) -> list[list[list[Fraction]]]:
        """The matrices as lists of rational rows (what exact data and witnesses hold)."""
        return [[list(row) for row in M] for M in self.matrices]

    def floats(self) -> list[list[list[float]]]:
        """The matrices as float rows (what the numpy model runs with)."""
        return [[[float(v) for v in row] for row in M] for M in self.matrices]

    def __str__(self) -> str:
        """How statements and the checker name them: "the 2 given 3 x 3 matrices (from W.npy)"."""
        where = f" from {self.source}" if self.source else ""
        return f"the {self.H} given {self.shape[0]} x {self.shape[1]} matrices{where}"

    __repr__ = __str__


def given_matrices(field: str, value: object, base: Path | None) -> GivenMatrices:
    """The matrices of `field = value` (inline or a file path), of one shape; InputError naming what is wrong."""
    if isinstance(value, str):
        heads, source = _from_file(field, value, base), value
    elif isinstance(value, list):
        if not 1 <= len(value) <= MAX_HEADS:
            raise InputError(field, f"{len(value)} matrices", f"from 1 to {MAX_HEADS} matrices, one per head")
        heads, source = [_inline_matrix(f"{field}[{h}]", M) for h, M in enumerate(value)], ""
    else:
        raise InputError(field, value, 'a list of matrices, e.g. [[[1, 0], ["1/2", 1]]], or a .npy/.csv file path')
    shapes = {(len(M), len(M[0])) for M in heads}
    if len(shapes) != 1 or any(len(row) != len(M[0]) for M in heads for row in M):
        raise InputError(field, source or f"{len(heads)} matrices", "every matrix must have the same shape")
    if sum(len(M) * len(M[0]) for M in heads) > MAX_ENTRIES:
        raise InputError(field, source or "matrices", f"more than {MAX_ENTRIES} entries")
    chars = 0 if source else len(str(value))
    return GivenMatrices(tuple(tuple(tuple(row) for row in M) for M in heads), source, chars)


def _inline_matrix(field: str, rows: object) -> list[list[Fraction]]:
    if not isinstance(rows, list) or not 1 <= len(rows) <= MAX_DIMENSION:
        raise InputError(field, rows, f"a matrix is a list of 1 to {MAX_DIMENSION} rows")
    matrix = []
    for i, row in enumerate(rows):
        if not isinstance(row, list) or not 1 <= len(row) <= MAX_DIMENSION:
            raise InputError(f"{field}[{i}]", row, f"a row of 1 to {MAX_DIMENSION} entries")
        matrix.append([_entry(f"{field}[{i}][{j}]", v) for j, v in enumerate(row)])
    return matrix


def _entry(field: str, value: object) -> Fraction:
    """One exact entry: an integer, a rational text "p/q" or a decimal text; never a float literal."""
    if isinstance(value, TomlFloat):
        raise InputError(field, value, f'write the entry exactly, as a text "{value}" or a rational "p/q"')
    exact = (
        Fraction(value)
        if isinstance(value, int) and not isinstance(value, bool)
        else exact_text(field, value)
        if isinstance(value, str)
        else None
    )
    if exact is None:
        raise InputError(field, value, 'an entry is an integer or a text "3/5" or "0.25"')
    return _bounded(field, exact)


def _bounded(field: str, value: Fraction) -> Fraction:
    if abs(value) > MAX_MAGNITUDE:
        raise InputError(field, str(value)[:40], f"|entry| is at most {MAX_MAGNITUDE}")
    return value


def _from_file(field: str, path_text: str, base: Path | None) -> list[list[list[Fraction]]]:
    suffix, data = read_data_file(field, path_text, base, "matrix", MAX_FILE_BYTES)
    return _npy_matrices(field, path_text, data) if suffix == ".npy" else _csv_matrices(field, path_text, data)


def _npy_matrices(field: str, name: str, data: bytes) -> list[list[list[Fraction]]]:
    """The heads of a 3-D (H, rows, cols) array, or of a 2-D array as one head; every entry finite and exact."""
    try:
        shape, at = npy_array(field, name, data, 3)
    except InputError:
        shape, flat = npy_array(field, name, data, 2)
        shape, at = (1, *shape), lambda index: flat(index[1:])
    H, rows, cols = shape
    if not (1 <= H <= MAX_HEADS and 1 <= rows <= MAX_DIMENSION and 1 <= cols <= MAX_DIMENSION):
        raise InputError(field, name, f"shape {shape}: 1 to {MAX_HEADS} heads of 1 to {MAX_DIMENSION} rows and columns")
    if H * rows * cols > MAX_ENTRIES:
        raise InputError(field, name, f"shape {shape}: more than {MAX_ENTRIES} entries")
    matrices = []
    for h in range(H):
        matrix = []
        for i in range(rows):
            row = []
            for j in range(cols):
                value = at((h, i, j))
                if isinstance(value, float) and not math.isfinite(value):
                    raise InputError(field, name, f"entry [{h}][{i}][{j}] is not a finite number")
                if abs(value) > MAX_MAGNITUDE:
                    raise InputError(field, name, f"entry [{h}][{i}][{j}]: |entry| is at most {MAX_MAGNITUDE}")
                row.append(Fraction(value))
            matrix.append(row)
        matrices.append(matrix)
    return matrices


def _csv_entry(field: str, name: str, line: int, column: int, text: str) -> Fraction:
    """One CSV entry of a matrix file; an error names its line and column, not its text."""
    try:
        return _entry(field, text.strip())
    except InputError as exc:
        raise InputError(field, at_entry(name, line, column), exc.reason) from None


def _csv_matrices(field: str, name: str, data: bytes) -> list[list[list[Fraction]]]:
    """Rows of exact entries; an empty line ends a head's matrix."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        not_utf8(field, name, data, exc)
    heads: list[list[list[Fraction]]] = [[]]
    reader = csv.reader(io.StringIO(text))
    try:
        for row in reader:
            if not row or all(not entry.strip() for entry in row):
                if heads[-1]:
                    heads.append([])
                continue
            if len(heads) > MAX_HEADS or len(heads[-1]) >= MAX_DIMENSION or len(row) > MAX_DIMENSION:
                raise InputError(field, name, f"at most {MAX_HEADS} matrices of at most {MAX_DIMENSION} rows/columns")
            heads[-1].append([_csv_entry(field, name, reader.line_num, k, entry) for k, entry in enumerate(row, 1)])
    except csv.Error as exc:
        malformed_csv(field, name, reader.line_num, exc)
    heads = [M for M in heads if M]
    if not heads:
        raise InputError(field, name, "the CSV file holds no matrix")
    return heads


def product(queries: GivenMatrices, keys: GivenMatrices) -> GivenMatrices:
    """M_h = Q_h^T K_h, exactly (Q_h, K_h of one shape r x d)."""
    r, d = queries.shape
    matrices = tuple(
        tuple(tuple(sum((Q[k][i] * K[k][j] for k in range(r)), Fraction(0)) for j in range(d)) for i in range(d))
        for Q, K in zip(queries.matrices, keys.matrices, strict=True)
    )
    return GivenMatrices(matrices, queries.source or keys.source, queries.chars + keys.chars)


def head_matrices(fields: dict[str, GivenMatrices], d: int, H: int) -> dict[str, GivenMatrices]:
    """The claim's exact score matrices ("scores": given, or Q_h^T K_h) and its given values ("value_matrices"),
    checked against d and H; `fields` holds the file's matrices by field name."""
    found: dict[str, GivenMatrices] = {}
    if "scores" in fields and ("queries" in fields or "keys" in fields):
        raise InputError("queries", "...", "state the scores or the queries and keys, not both")
    if ("queries" in fields) != ("keys" in fields):
        raise InputError("keys" if "queries" in fields else "queries", None, "queries and keys go together")
    if "queries" in fields:
        queries, keys = fields["queries"], fields["keys"]
        if queries.shape != keys.shape or queries.H != keys.H:
            raise InputError("keys", keys, f"expected {queries.H} matrices of {queries.shape}, as the queries")
        _shape("queries", queries, queries.shape[0], d, H)
        found["scores"] = product(queries, keys)
    elif "scores" in fields:
        found["scores"] = fields["scores"]
    if "scores" in found:
        _shape("scores", found["scores"], d, d, H)
    if "values" in fields:
        found["value_matrices"] = _shape("values", fields["values"], d, d, H)
    return found


def _shape(field: str, matrices: GivenMatrices, rows: int, cols: int, H: int) -> GivenMatrices:
    if matrices.H != H or matrices.shape != (rows, cols):
        raise InputError(
            field, matrices, f"expected H = {H} matrices of {rows} x {cols} (the claim's H and d = {cols})"
        )
    return matrices
