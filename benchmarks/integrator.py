"""Benchmark: the adaptive DP5(4) integrator against projected explicit Euler, and one velocity evaluation.

Run from the repository root: `python benchmarks/integrator.py` (about a minute).

1. Same problem for both schemes: softmax, n = 64, d = 8, H = 4 random symmetric heads, beta = 1,
   sphere, T = 10. The final state of DP5(4) at rtol = 1e-13 is the reference. For each target
   error (1e-6, 1e-8, max-norm of the final state) the adaptive run uses the loosest rtol of a
   decade-by-half-decade ladder that reaches it. Projected Euler (x <- normalize(x + h v)) is run
   at several step counts; its error is fitted as C h^p (p ~ 1) and the step count that reaches
   the target is predicted from that fit with a 5% margin (run directly when it is small enough, extrapolated
   otherwise: the printout says which). Printed: velocity evaluations and wall time as ratios.
2. One velocity evaluation at n = 2048, d = 64, H = 8, against the time of its own matrix
   products and exponentials alone (X M_h, (X M_h) X^T, exp, weights @ (X W_h^T)).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from checks import families, model
from checks.config import Configuration
from checks.fits import power_law
from checks.integrator import integrate

TARGETS = (1e-6, 1e-8)
T_FINAL = 10.0
#: Euler runs longer than this many steps are extrapolated from the fit instead of run.
EULER_STEP_CAP = 200_000


def problem() -> Configuration:
    rng = np.random.default_rng(2026)
    X = families.random_sphere_tokens(64, 8, rng)
    return Configuration.create(X, families.random_symmetric_heads(4, 8, rng), beta=1.0, attention="softmax")


def best_time(function: Callable[[], object], repeats: int = 3) -> float:
    """The smallest wall time of `repeats` calls (the least disturbed by other load)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def adaptive(cfg: Configuration, rtol: float) -> tuple[np.ndarray, int]:
    traj = integrate(cfg, T_FINAL, rtol=rtol, atol=rtol * 1e-2, observables=(), keep_states=False)
    return traj.final.tokens, traj.evaluations


def euler(cfg: Configuration, steps: int) -> np.ndarray:
    """Projected explicit Euler with `steps` equal steps on [0, T]: one velocity evaluation per step."""
    h = T_FINAL / steps
    X = np.array(cfg.tokens)
    for _ in range(steps):
        X = X + h * model.token_velocity(cfg.moved_to(X))
        X /= np.linalg.norm(X, axis=1, keepdims=True)
    return X


def compare_schemes() -> list[dict[str, object]]:
    """DP5(4) against projected Euler at equal final-state error; prints a table, returns its rows."""
    rows: list[dict[str, object]] = []
    cfg = problem()
    reference, _ = adaptive(cfg, 1e-13)
    print("problem: softmax, n=64, d=8, H=4 symmetric heads, beta=1, sphere, T=10; reference DP5(4) rtol=1e-13")
    counts = np.array([250, 500, 1000, 2000, 4000])
    errors = np.array([np.max(np.abs(euler(cfg, int(N)) - reference)) for N in counts])
    fit = power_law(errors, T_FINAL / counts)
    C, p = float(np.exp(fit.coefficients[0])), float(fit.coefficients[1])
    seconds_per_step = best_time(lambda: euler(cfg, 200)) / 200
    print(f"projected Euler: error ~ {C:.3g} h^{p:.3f} (+-{fit.standard_errors[1]:.2g}) from N = {counts.tolist()}")
    print(
        f"{'target':>8} {'rtol':>8} {'DP evals':>9} {'DP s':>8} {'Euler N':>12} {'Euler s':>10} "
        f"{'evals ratio':>12} {'time ratio':>11}  Euler"
    )
    for target in TARGETS:
        rtol = 1e-2
        while True:
            final, evaluations = adaptive(cfg, rtol)
            if np.max(np.abs(final - reference)) <= target or rtol < 1e-13:
                break
            rtol /= np.sqrt(10.0)
        dp_seconds = best_time(lambda r=rtol: adaptive(cfg, r))
        steps = int(np.ceil(1.05 * T_FINAL / (target / C) ** (1.0 / p)))  # 5% margin over the fit
        if steps <= EULER_STEP_CAP:
            start = time.perf_counter()
            reached = np.max(np.abs(euler(cfg, steps) - reference))
            euler_seconds, how = time.perf_counter() - start, f"run (error {reached:.2g})"
        else:
            euler_seconds, how = steps * seconds_per_step, "extrapolated from the fit and the measured step time"
        print(
            f"{target:8.0e} {rtol:8.1e} {evaluations:9d} {dp_seconds:8.3f} {steps:12.3e} {euler_seconds:10.3e} "
            f"{steps / evaluations:12.3e} {euler_seconds / dp_seconds:11.3e}  {how}"
        )
        rows.append(
            _row(f"integrate to error {target:.0e}", dp_seconds, "projected Euler", euler_seconds)
            | {"evaluations": evaluations, "baseline_evaluations": steps}
        )
    return rows


def velocity_cost() -> list[dict[str, object]]:
    """One velocity evaluation against its own matrix products and exponentials; returns the rows."""
    rng = np.random.default_rng(7)
    n, d, H = 2048, 64, 8
    X = families.random_sphere_tokens(n, d, rng)
    M = families.random_symmetric_heads(H, d, rng)
    print(f"\none velocity evaluation, n={n}, d={d}, H={H}: time / time of its matrix products and exp alone")

    def core() -> None:
        weights = np.exp((X @ M) @ X.T)
        weights @ (X @ np.swapaxes(M, 1, 2))

    core_seconds = best_time(core)
    rows = []
    for attention in ("usa", "softmax", "relu"):
        cfg = Configuration.create(X, M, beta=1.0, attention=attention)
        seconds = best_time(lambda c=cfg: model.token_velocity(c.moved_to(X)))
        print(f"  {attention:8s} {seconds:8.3f} s / {core_seconds:8.3f} s = {seconds / core_seconds:5.2f}x")
        rows.append(
            _row(f"velocity evaluation ({attention}, n={n}, d={d}, H={H})", seconds, "products + exp", core_seconds)
        )
    return rows


def _row(case: str, seconds: float, baseline: str, baseline_seconds: float) -> dict[str, object]:
    """One benchmark figure with its baseline measured in the same run (ratio = baseline / ours)."""
    return {
        "benchmark": "integrator",
        "case": case,
        "seconds": seconds,
        "baseline": baseline,
        "baseline_seconds": baseline_seconds,
        "ratio": baseline_seconds / seconds,
    }


if __name__ == "__main__":
    compare_schemes()
    velocity_cost()
