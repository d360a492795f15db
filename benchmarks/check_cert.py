"""Worst-case re-check times of certificates at the size bounds, against the genuine certificates.

`headflow.certificates.kernel.format` bounds every size in a certificate (tokens, dimension, heads, precision,
cover leaves times expression nodes, conditions) so that re-checking any accepted-size file is
fast. This benchmark builds data at those bounds and times the checker's own re-computation
(`headflow.certificates.kernel.recheck`), side by side with the re-check of what `headflow certify` writes (the
baseline), and prints the ratio worst / baseline.

Run `python benchmarks/check_cert.py` from the repository root (or `python -m benchmarks`).
"""

from __future__ import annotations

import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import contextlib

import numpy as np
from headflow.certificates import model_balls
from headflow.certificates.exact_records import exact_record
from headflow.certificates.kernel import covers, recheck
from headflow.certificates.kernel import format as fmt
from headflow.certificates.kernel.exact import precision
from headflow.certificates.kernel.exprtree import count_nodes
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.witness import round_configuration


def _seconds(call) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def _largest_configuration(attention: str) -> dict[str, object]:
    """A witness payload at the bounds: MAX_TOKENS x MAX_DIMENSION, MAX_HEADS symmetric heads, MAX_PRECISION."""
    rng = np.random.default_rng(0)
    n, d, H = fmt.MAX_TOKENS, fmt.MAX_DIMENSION, fmt.MAX_HEADS
    X = rng.normal(size=(n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    M = rng.normal(size=(H, d, d))
    M = (M + M.transpose(0, 2, 1)) / 2
    cfg = round_configuration(X, M, M, 1.0, attention=attention)
    return {"configuration": exact_record(cfg), "prec": fmt.MAX_PRECISION}


def configuration_seconds(attention: str, quantity: str) -> float:
    """Time of the ball re-evaluation at the bounds (the relation itself may fail: the cost is what counts)."""
    payload = _largest_configuration(attention)
    hypotheses = frozenset({"unit-tokens", "symmetric-scores", "aligned-values"})

    def run() -> None:
        from headflow.certificates.kernel import ball_model

        cfg = recheck.exact_configuration(payload["configuration"])
        assert not ball_model.hypothesis_failures(cfg, sorted(hypotheses))
        with precision(fmt.MAX_PRECISION):
            if quantity == "entropy_rate":
                model_balls.entropy_rates(cfg)
            else:
                model_balls.head_energy_rates(cfg)

    return _seconds(run)


def cover_seconds() -> tuple[float, int]:
    """A cover with the most ball operations the bounds allow: MAX_COVER_WORK / nodes leaves, at MAX_COVER_PRECISION."""
    expression: list[object] = ["sym", "u"]
    for _ in range(16):  # 1 + exp(-e)/2, nested: a 97-node expression with values in (1, 3/2)
        expression = ["add", ["mul", ["rat", "1/2"], ["exp", ["mul", ["rat", "-1"], expression]]], ["rat", "1"]]
    nodes = count_nodes(expression, fmt.MAX_TERM_NODES)
    leaves = min(fmt.MAX_COVER_LEAVES, fmt.MAX_COVER_WORK // nodes)
    lo, hi = Fraction(0), Fraction(1)
    width = (hi - lo) / leaves

    def build(start: int, count: int) -> dict[str, object]:
        if count == 1:
            return {"leaf": ["-1000000000", "1000000000"]}
        half = count // 2
        at = lo + (start + half) * width
        return {"split": "u", "at": str(at), "low": build(start, half), "high": build(start + half, count - half)}

    tree = build(0, leaves)
    payload = {
        "expression": expression,
        "relation": ">",
        "domain": {"u": ["0", "1"]},
        "tree": tree,
        "prec": fmt.MAX_COVER_PRECISION,
    }
    seconds = _seconds(lambda: _try(lambda: covers.cover(payload, expression, ">", {"u": (lo, hi)})))
    return seconds, leaves


def _try(call) -> None:  # type: ignore[no-untyped-def]
    with contextlib.suppress(recheck.Rejected):
        call()


def baseline_seconds() -> float:
    """Re-checking everything `headflow certify --profile quick` writes (z3 and cvc5 included)."""
    from headflow.checks import cli

    with tempfile.TemporaryDirectory() as folder:
        cli.main(["certify", "--certificates", folder])
        paths = sorted(Path(folder).glob("*.json"))
        return _seconds(lambda: [check_file(p) for p in paths]) / len(paths)


def _row(case: str, seconds: float, baseline: float) -> dict[str, object]:
    """A benchmark row; the ratio is baseline / worst case, as every row of benchmarks/run.py (< 1: slower)."""
    return {
        "benchmark": "check-cert",
        "case": case,
        "seconds": seconds,
        "baseline": "mean genuine re-check",
        "baseline_seconds": baseline,
        "ratio": baseline / seconds,
    }


def run() -> list[dict[str, object]]:
    """Print and return the worst cases against the baseline."""
    baseline = baseline_seconds()
    print(f"check-cert: baseline = mean re-check of the certificates `headflow certify` writes: {baseline:.3f} s")
    rows = []
    for name, seconds in (
        ("configuration at the bounds, softmax entropy rates", configuration_seconds("softmax", "entropy_rate")),
        ("configuration at the bounds, usa energy rates", configuration_seconds("usa", "head_energy_rate")),
    ):
        rows.append(_row(name, seconds, baseline))
    cover, leaves = cover_seconds()
    rows.append(_row(f"cover at the bounds ({leaves} leaves, {fmt.MAX_COVER_PRECISION} bits)", cover, baseline))
    for row in rows:
        print(f"  {row['case']}: {row['seconds']:.2f} s = {row['seconds'] / baseline:.0f} x baseline")
    return rows


if __name__ == "__main__":
    from benchmarks import results

    results.save("check-cert", run())
