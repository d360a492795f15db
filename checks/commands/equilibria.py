"""`headflow equilibria`: find the equilibria of one instance, certify each (existence and index), plot them.

Prints one line per equilibrium class: CERTIFIED with its index (eigenvalues with positive real part,
the zeros along the rotation orbit removed), or INCONCLUSIVE with the reason; with `--certificates DIR`
writes each certificate (re-checked by `headflow check-cert`), with `--out DIR` the picture.
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from headflow.certificates.errors import InputError
from headflow.checks.input_bounds import check_range, check_seed
from headflow.checks.progress import progress_bar

if TYPE_CHECKING:
    from headflow.checks.evidence.equilibria import Instance

HELP = "find equilibria of the multi-head field; certify existence (Krawczyk) and index (Gershgorin); plot them"
MAX_N, MAX_D, MAX_HEADS = 8, 4, 4
MAX_STARTS = 2000
MAX_BETA = 20.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--n", type=int, default=4, help=f"number of tokens, 2..{MAX_N} (default 4)")
    parser.add_argument("--d", type=int, default=3, help=f"dimension, 2..{MAX_D} (default 3)")
    heads = parser.add_mutually_exclusive_group()
    heads.add_argument("--heads", type=int, metavar="H", help="H heads of strength 1 (default 1)")
    heads.add_argument("--lambdas", metavar="L1,L2,...", help="head strengths, positive rationals (e.g. 1,0.5)")
    parser.add_argument(
        "--head-family",
        choices=("scalar", "orthogonal"),
        default="scalar",
        help="M_h = W_h = lambda_h I (scalar) or lambda_h P_h on orthogonal coordinate blocks (needs d >= H)",
    )
    parser.add_argument("--attention", choices=("softmax", "usa", "relu"), default="softmax", help="default softmax")
    parser.add_argument("--beta", default="1", help=f"inverse temperature, a positive rational <= {MAX_BETA:g}")
    parser.add_argument("--starts", type=int, default=40, help=f"random starts, 0..{MAX_STARTS} (default 40)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random starts, 0..2^64-1 (default 0)")
    parser.add_argument("--certificates", metavar="DIR", help="write one certificate per certified equilibrium")
    parser.add_argument("--out", metavar="DIR", help="folder for equilibria.png and equilibria.svg")


def _rational(option: str, text: str, high: float) -> Fraction:
    """A positive exact rational from decimal or p/q text (parsed, never evaluated)."""
    try:
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise InputError(option, text, "not a number (decimal or p/q)") from None
    if not 0 < value <= high:
        raise InputError(option, text, f"must lie in (0, {high:g}]")
    return value


def build_instance(args: argparse.Namespace) -> Instance:
    """The validated instance of the options."""
    from headflow.checks.evidence import equilibria

    check_range("--n", args.n, 2, MAX_N)
    check_range("--d", args.d, 2, MAX_D)
    check_range("--starts", args.starts, 0, MAX_STARTS)
    check_seed("--seed", args.seed)
    if args.lambdas is not None:
        strengths = [_rational("--lambdas", t, 1e3) for t in args.lambdas.split(",")]
    else:
        H = 1 if args.heads is None else args.heads
        check_range("--heads", H, 1, MAX_HEADS)
        strengths = [Fraction(1)] * H
    if len(strengths) > MAX_HEADS:
        raise InputError("--lambdas", args.lambdas, f"at most {MAX_HEADS} heads")
    if args.head_family == "orthogonal" and len(strengths) > args.d:
        raise InputError("--head-family", "orthogonal", f"needs d >= H = {len(strengths)}")
    beta = _rational("--beta", args.beta, MAX_BETA)
    return equilibria.instance(args.n, args.d, strengths, args.attention, beta, args.head_family)


def run(args: argparse.Namespace) -> int:
    import numpy as np
    from headflow.checks.evidence import equilibria
    from headflow.checks.reports import plots
    from headflow.checks.reports.terminal import console_for
    from headflow.checks.reports.wrapping import wrapped

    inst = build_instance(args)
    began = time.monotonic()
    found = equilibria.search(inst, np.random.default_rng(args.seed), args.starts)
    width = console_for().width  # the terminal's, else $COLUMNS, else 80
    summary = (
        f"{inst.describe()}: {len(found)} equilibrium class(es) from {args.starts} random starts "
        "and the structured candidates"
    )
    print("\n".join(wrapped(summary, width)))
    certificates = Path(args.certificates) if args.certificates else None
    if certificates is not None:
        certificates.mkdir(parents=True, exist_ok=True)
    panels = []
    with progress_bar("certifying", len(found)) as advance:
        for k, f in enumerate(found, 1):
            outcome = equilibria.certify(inst, f.tokens)
            advance(f.name)
            if outcome.get("certified") and outcome.get("spectrum_decided"):
                line = (
                    f"CERTIFIED  index {outcome['index']}  ({outcome['zeros']} rotation zeros, {outcome['negative']} "
                    f"stable, {outcome['index']} unstable)"
                )
                panels.append((f"#{k} {f.name}: index {outcome['index']}", f.tokens))
                if certificates is not None:
                    path = equilibria.write(certificates, "critical-points", outcome)
                    line += f"  {path}"
            elif outcome.get("certified"):
                line = f"CERTIFIED equilibrium, index INCONCLUSIVE: {outcome['spectrum']}"
                panels.append((f"#{k} {f.name}: index ?", f.tokens))
            else:
                line = f"INCONCLUSIVE: {outcome['reason']}"
                panels.append((f"#{k} {f.name}: not certified", f.tokens))
            print("\n".join(wrapped(f"#{k} {f.name} (found {f.starts}x): {line}", width)))
    if args.out:
        for path in plots.save(plots.equilibria_figure(panels), Path(args.out) / "equilibria"):
            print(path)
    sys.stdout.write(f"{time.monotonic() - began:.1f} s\n")
    return 0
