"""The memory budget of a configuration's float evaluations, and the token blocks that fit in it.

The model's n x n quantities are evaluated a block of query tokens at a time (`headflow.checks.model.token_blocks`): a
block of b rows holds BLOCK_ARRAYS arrays of H b n floats, next to arrays of O(H n d) floats that every
evaluation needs whole. The budget (bytes; by default the memory available when the configuration is built)
bounds both: `Configuration.create` refuses a configuration whose one-row evaluation would not fit, and each
evaluation takes blocks of BLOCK_ROWS query tokens, fewer where the budget requires (larger blocks are no faster:
the matrix products already run at full speed, and a smaller block stays nearer the cache between the
exponentials and the product with the values).
"""

from __future__ import annotations

import re

from headflow.certificates.errors import InputError

#: Arrays of H x b x n floats a block evaluation holds at once (scores, a rate or log block, a temporary).
BLOCK_ARRAYS = 3
#: Arrays of n x d floats and of H x n x (d+1) floats an evaluation holds whole (tokens, velocities, stages;
#: scaled scores, values with a column of ones, head sums).
TOKEN_ARRAYS = 12
HEAD_ARRAYS = 3
#: Query rows per block by default: enough for the block's matrix products to run at full speed (each reads the
#: n x (d+1) values once per block), few enough that the block stays near the cache between them.
BLOCK_ROWS = 256
#: The largest block of one n x n array (bytes) an evaluation forms by default.
MAX_BLOCK_BYTES = 256 * 2**20
#: Below this many bytes an evaluation is not checked against the available memory (reading it costs more
#: than such an evaluation).
UNCHECKED_BYTES = 256 * 2**20
#: Multipliers of the budget's units (binary and decimal; a bare number is bytes).
UNITS = {
    "": 1,
    "b": 1,
    "k": 10**3,
    "kb": 10**3,
    "kib": 2**10,
    "m": 10**6,
    "mb": 10**6,
    "mib": 2**20,
    "g": 10**9,
    "gb": 10**9,
    "gib": 2**30,
    "t": 10**12,
    "tb": 10**12,
    "tib": 2**40,
}
_BUDGET = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*")


def parse_budget(text: str) -> int:
    """A memory size as text ("8GiB", "512 MiB", "2e9" is not accepted: "2000000000") in bytes, >= 1 MiB."""
    match = _BUDGET.fullmatch(text) if isinstance(text, str) and len(text) <= 40 else None
    unit = match.group(2).lower() if match else None
    if match is None or unit not in UNITS:
        raise InputError("memory_budget", text, "expected a size such as 8GiB, 512MiB or 2000000000 (bytes)")
    return checked_budget(int(float(match.group(1)) * UNITS[unit]))


def checked_budget(value: object) -> int:
    """A budget in bytes given as an integer (or text, `parse_budget`): at least 1 MiB."""
    if isinstance(value, str):
        return parse_budget(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 2**20:
        raise InputError("memory_budget", value, "a number of bytes of at least 1 MiB (1048576), or text like 8GiB")
    return value


def available_bytes() -> int | None:
    """The memory the system can give without swapping (psutil, else /proc/meminfo); None when unknown."""
    try:
        import psutil
    except ImportError:
        try:
            with open("/proc/meminfo", encoding="ascii") as meminfo:
                for line in meminfo:
                    if line.startswith("MemAvailable:"):
                        return int(line.split()[1]) * 1024
        except (OSError, ValueError, IndexError):
            return None
        return None
    return int(psutil.virtual_memory().available)


def whole_bytes(n: int, d: int, H: int, masked: bool) -> int:
    """The bytes an evaluation holds whatever its block: token and head arrays, the heads, the mask."""
    return 8 * (TOKEN_ARRAYS * n * d + HEAD_ARRAYS * H * n * (d + 1) + 3 * H * d * d) + (n * n if masked else 0)


def row_bytes(n: int, H: int) -> int:
    """The bytes one query row of a block adds."""
    return 8 * BLOCK_ARRAYS * H * n


def describe(size: int) -> str:
    """A byte count for messages: 1.5 GiB, 300 MiB, 12 KiB."""
    for unit, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if size >= scale:
            return f"{size / scale:.3g} {unit}"
    return f"{size} B"


def require(needed: int, budget: int | None, what: str) -> None:
    """InputError when `needed` bytes exceed the budget (None: the memory available now, checked only above
    UNCHECKED_BYTES)."""
    if budget is None:
        if needed <= UNCHECKED_BYTES:
            return
        budget = available_bytes()
        if budget is None:
            return
        source = "the available memory"
    else:
        source = "the memory budget"
    if needed > budget:
        raise InputError(
            "memory_budget",
            describe(budget),
            f"{what} needs {describe(needed)}, more than {source} ({describe(budget)}); "
            "raise memory_budget (--memory-budget) or use fewer tokens or heads",
        )


def block_rows(n: int, d: int, H: int, masked: bool, budget: int | None) -> int:
    """The query rows of one block: BLOCK_ROWS (all n when fewer), at most MAX_BLOCK_BYTES per (H, b, n) block,
    and as many as fit in the budget beside the whole arrays (None: the memory available, read only when the
    blocks are large); at least 1 (`Configuration.create` checked that one row fits)."""
    rows = min(n, BLOCK_ROWS, max(1, MAX_BLOCK_BYTES // (8 * H * n)))
    if budget is None and whole_bytes(n, d, H, masked) + rows * row_bytes(n, H) > UNCHECKED_BYTES:
        budget = available_bytes()
    if budget is not None:
        rows = min(rows, max(1, (budget - whole_bytes(n, d, H, masked)) // row_bytes(n, H)))
    return rows
