"""Benchmark: validated enclosures against the float integrator, at n x d = 6, 16, 64 and T = 1, 10, 20.

Run from the repository root: `python benchmarks/validated.py` (about a quarter of an hour on two cores), `--quick`
for n x d = 6 and 16 only (a minute), `--largest` to time one validated step at n x d = 256 as well.

For each size (usa and softmax attention, scalar heads M = W = I, beta = 1, the sphere; n tokens at rational points
of the sphere from the stereographic lift of random rationals, seed fixed) the validated enclosure from the exact
start (`certificates.provers.validated.enclose`, tolerance 1e-8, steps ending at each horizon) and the float
trajectory (`checks.integrator.integrate` at its defaults, rtol 1e-8, atol 1e-10, recorded at each horizon) run in
the same process. The reference is a Taylor integration at 256 bits through the exact start (order 24, step 1/8,
the compiled field at a point: not validated, its error far below both others'), checked to lie inside every
enclosure. Printed per size and horizon: the enclosure's largest width at T, the float trajectory's largest
coordinate distance from the reference, the seconds each took to reach T (the validated run's steps up to T, from
one run with steps ending at each horizon; a float run to T) and the ratio validated / float.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from headflow.certificates.kernel.exact import ball_of, precision
from headflow.certificates.kernel.exact_data import ExactConfiguration
from headflow.certificates.kernel.trajectory import solution_coefficients
from headflow.certificates.provers.rational_sphere import stereographic_lift
from headflow.certificates.provers.validated import enclose
from headflow.certificates.provers.validated.integrator import start_set
from headflow.certificates.provers.validated.step import take_step
from headflow.certificates.provers.validated.taylor import model_field, polynomial, series_length
from headflow.checks.integrator import integrate
from headflow.checks.model.configuration import Configuration

from benchmarks import results

SIZES = ((3, 2), (4, 4), (16, 4))
QUICK_SIZES = ((3, 2), (4, 4))
HORIZONS = (Fraction(1), Fraction(10), Fraction(20))
KINDS = ("usa", "softmax")
TOLERANCE = 1e-8
#: The reference: a Taylor integration at this precision, order and step (the solution's Taylor radius at these
#: starts is above 1.2, so each step's truncation is of order (1/8 / 1.2)^25 < 1e-24).
REFERENCE = (256, 24, Fraction(1, 8))
SEED = 2026


def configuration(n: int, d: int, attention: str, seed: int = SEED) -> ExactConfiguration:
    """n distinct rational unit tokens in R^d (random rationals lifted to the sphere), M = W = I, beta = 1."""
    rng = random.Random(seed + 1000 * n + d)
    tokens: list[list[Fraction]] = []
    while len(tokens) < n:
        token = stereographic_lift([Fraction(rng.randint(-20, 20), rng.randint(5, 20)) for _ in range(d - 1)])
        if token not in tokens:
            tokens.append(token)
    identity = [[Fraction(int(a == b)) for b in range(d)] for a in range(d)]
    return ExactConfiguration(tokens, [identity], [identity], Fraction(1), "sphere", attention)


def reference(cfg: ExactConfiguration, horizons: tuple[Fraction, ...]) -> dict[Fraction, list[float]]:
    """The state at each horizon from a 256-bit Taylor integration (midpoints of its balls, as floats)."""
    bits, order, h = REFERENCE
    field = model_field(cfg)
    states: dict[Fraction, list[float]] = {}
    with precision(bits), series_length(order + 2):
        x, t, hb = [ball_of(v) for row in cfg.tokens for v in row], Fraction(0), ball_of(h)
        for horizon in horizons:
            while t < horizon:
                x = [v.mid() for v in polynomial(solution_coefficients(field, x, order), hb)]
                t += h
            states[horizon] = [float(v) for v in x]
    return states


def float_run(cfg: ExactConfiguration, T: Fraction) -> tuple[np.ndarray, float]:
    """The float trajectory's state at T and the seconds it took."""
    floats = Configuration.create(
        np.array(cfg.tokens, dtype=float),
        np.array(cfg.score_matrices, dtype=float),
        beta=float(cfg.beta),
        attention=cfg.attention,
        geometry=cfg.geometry,
    )
    started = time.perf_counter()
    trajectory = integrate(floats, float(T), observables=(), keep_states=False, backend="numpy")
    seconds = time.perf_counter() - started
    return np.array(trajectory.final.tokens).ravel(), seconds


def measure_size(n: int, d: int, attention: str) -> list[dict[str, object]]:
    """One size and kind: a row per horizon."""
    cfg = configuration(n, d, attention)
    reached: dict[Fraction, float] = {}
    started = time.perf_counter()

    def timed(step) -> None:  # type: ignore[no-untyped-def]
        reached[step.t + step.h] = time.perf_counter() - started

    enclosure = enclose(cfg, HORIZONS[-1], tolerance=TOLERANCE, stops=HORIZONS, on_step=timed)
    exact = reference(cfg, HORIZONS)
    boxes = dict(zip(enclosure.times(), enclosure.boxes(), strict=True))
    rows = []
    for T in HORIZONS:
        if T not in boxes:
            print(f"  {attention} n x d = {n} x {d}: {enclosure.status}")
            break
        box, ref = boxes[T], exact[T]
        final, float_seconds = float_run(cfg, T)
        inside = all(float(b.lower()) - 1e-15 <= r <= float(b.upper()) + 1e-15 for b, r in zip(box, ref, strict=True))
        width = max(2 * float(b.rad()) for b in box)
        error = float(np.max(np.abs(final - np.array(ref))))
        steps = sum(1 for s in enclosure.steps if s.t < T)
        row = {
            "benchmark": "validated",
            "case": f"{attention}, n x d = {n} x {d}, T = {T}",
            "seconds": reached[T],
            "baseline": "float integrator (rtol 1e-8)",
            "baseline_seconds": float_seconds,
            "ratio": reached[T] / float_seconds,
            "steps": steps,
            "width": width,
            "float_error": error,
            "reference_inside": inside,
        }
        print(
            f"  {attention:7s} {n:3d} x {d}  T={float(T):4g}: width {width:.2e}, float error {error:.2e}, "
            f"{steps} steps in {reached[T]:.1f} s, float {float_seconds:.3f} s (ratio {row['ratio']:.0f})"
            + ("" if inside else "  REFERENCE OUTSIDE THE ENCLOSURE"),
            flush=True,
        )
        rows.append(row)
    return rows


def one_step(n: int, d: int, attention: str) -> dict[str, object]:
    """The seconds of one validated step of 1/64 from the exact start (the largest size: no full run)."""
    cfg = configuration(n, d, attention)
    started = time.perf_counter()
    field = model_field(cfg)
    compiled = time.perf_counter() - started
    with precision(64), series_length(12):
        start = start_set(cfg)
        started = time.perf_counter()
        take_step(field, start, Fraction(0), Fraction(1, 64), 10, 64)
        seconds = time.perf_counter() - started
    print(f"  {attention:7s} {n:3d} x {d}: compiled in {compiled:.1f} s, one step of 1/64 in {seconds:.1f} s")
    return {"benchmark": "validated", "case": f"{attention}, n x d = {n} x {d}, one step of 1/64", "seconds": seconds}


def measure(quick: bool = False, largest: bool = False) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    print("validated enclosure against the float integrator (reference: 256-bit Taylor)")
    for n, d in QUICK_SIZES if quick else SIZES:
        for attention in KINDS:
            rows += measure_size(n, d, attention)
    if largest:
        rows += [one_step(64, 4, attention) for attention in KINDS]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n x d = 6 and 16 only")
    parser.add_argument("--largest", action="store_true", help="one validated step at n x d = 256 too")
    args = parser.parse_args(argv)
    rows = measure(args.quick, args.largest)
    results.save("validated", rows, quick=args.quick, tolerance=TOLERANCE, reference=str(REFERENCE))
    return 0


if __name__ == "__main__":
    sys.exit(main())
