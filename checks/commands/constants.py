"""`headflow constants`: tables of the regime's constants whose every printed digit is certified."""

from __future__ import annotations

import argparse
import itertools
import sys
from fractions import Fraction

from headflow.certificates.constant_specs import PARAMETERS, QUANTITIES
from headflow.certificates.errors import InputError
from headflow.checks.constants.mpmath_reference import DEFAULT_MAX_DIGITS, max_digits
from headflow.checks.progress import progress_bar

HELP = "tables of the constants (c_star, beta_star, lambda_c, ... : --quantity) with certified digits"

MAX_ROWS = 10_000
"""Most rows one table may have."""

MAX_TABLE_DIGITS = 2_000_000
"""Most digits one table may print in all (rows x --digits)."""

FORMATS = ("table", "csv", "json", "markdown", "latex")


#: No solver or coqc runs here, so no run folder is made (`headflow.certificates.temporary`): its start-up is held to
#: 1.5 times a bare python-flint script's (issue 44), and the folder cost ~0.1 of it.
STARTS_PROCESSES = False


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--quantity",
        action="append",
        metavar="NAME",
        help=f"one of {', '.join(QUANTITIES)} (repeat the option or separate with commas)",
    )
    lists = "a list of numbers and ranges: 2,10,1e6 or 2..64 or 0.5..2:1/4"
    for k, p in enumerate(PARAMETERS.values()):  # the first option explains the list syntax
        help_text = f"{p.help} ({lists})" if k == 0 else p.help
        parser.add_argument(f"--{p.name}", metavar="LIST", default=p.default, help=help_text)
    parser.add_argument(
        "--digits",
        metavar="N",
        default="50",
        help=f"significant digits (default 50; at most {DEFAULT_MAX_DIGITS}{_lower_limits()})",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help="output format (default: table; drawn with rich at a terminal, plain aligned text into a pipe or file)",
    )
    parser.add_argument(
        "--cross-check",
        action="store_true",
        help="also recompute every value with mpmath at full precision by other formulas and stop with an internal "
        "error if the two disagree (slower: imports mpmath; the digits are certified by ball arithmetic either way)",
    )
    parser.add_argument("--out", metavar="PATH", help="write the table here (atomically) instead of stdout")


def _lower_limits() -> str:
    """ ", 10000 for lambda_c": the quantities whose digits are capped below the default."""
    return "".join(f", {max_digits(q)} for {q}" for q in QUANTITIES if max_digits(q) != DEFAULT_MAX_DIGITS)


def _quantities(args: argparse.Namespace) -> list[str]:
    if not args.quantity:
        raise InputError("--quantity", None, f"give at least one of {', '.join(QUANTITIES)}")
    names = [name.strip() for item in args.quantity for name in item.split(",")]
    for name in names:
        if name not in QUANTITIES:
            raise InputError("--quantity", name, f"unknown (choose from {', '.join(QUANTITIES)})")
    return list(dict.fromkeys(names))


def _digits(text: str, quantities: list[str]) -> int:
    if not text.strip().isdigit():
        raise InputError("--digits", text, "must be a positive integer")
    digits = int(text)
    for q in quantities:
        if not 1 <= digits <= max_digits(q):
            raise InputError("--digits", text, f"must be from 1 to {max_digits(q)} for {q}")
    return digits


def plan(args: argparse.Namespace) -> tuple[list[tuple[str, dict[str, Fraction]]], int]:
    """The (quantity, parameters) of every row and the digits, checked against the table limits."""
    quantities = _quantities(args)
    digits = _digits(args.digits, quantities)
    from headflow.checks.constants.exact_numbers import (
        parse_values,
    )  # here: `--help` loads no number parser (python-flint)

    lists: dict[str, list[Fraction]] = {}
    for name in sorted({p for q in quantities for p in QUANTITIES[q].parameters}):
        text = getattr(args, name)
        if text is None:
            users = ", ".join(q for q in quantities if name in QUANTITIES[q].parameters)
            raise InputError(f"--{name}", None, f"required by {users}")
        lists[name] = parse_values(f"--{name}", text)
    count = 0
    for q in quantities:
        size = 1
        for p in QUANTITIES[q].parameters:
            size *= len(lists[p])
        count += size
    if count > MAX_ROWS:
        raise InputError("rows", count, f"too many rows (at most {MAX_ROWS})")
    if count * digits > MAX_TABLE_DIGITS:
        raise InputError("rows x digits", count * digits, f"too many digits in one table (at most {MAX_TABLE_DIGITS})")
    rows = [
        (q, dict(zip(QUANTITIES[q].parameters, combo, strict=True)))
        for q in quantities
        for combo in itertools.product(*(lists[p] for p in QUANTITIES[q].parameters))
    ]
    return rows, digits


def run(args: argparse.Namespace) -> int:
    from headflow.checks.constants.certified import Constant, CrossCheckError, compute, validate
    from headflow.checks.constants.tables import render, rich_table

    rows, digits = plan(args)
    for quantity, params in rows:  # every bad parameter is reported before any long computation
        validate(quantity, params)
    results: list[Constant] = []
    try:
        with progress_bar("constants", len(rows), enabled=len(rows) * digits >= 2_000) as advance:
            for quantity, params in rows:
                results.append(compute(quantity, params, digits, check=args.cross_check))
                advance(quantity)
    except CrossCheckError as exc:
        sys.stderr.write(f"headflow: INTERNAL ERROR, the two computations disagree: {exc}\n")
        return 1
    if args.out is None and args.format == "table" and sys.stdout.isatty():
        from rich.console import Console

        Console().print(rich_table(results))
        return 0
    text = render(results, args.format)
    if args.out is None:
        sys.stdout.write(text)
    else:
        from headflow.certificates.atomic import write_text_atomic  # only here: tempfile is a start-up cost

        write_text_atomic(args.out, text)
    return 0
