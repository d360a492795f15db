"""Benchmark: headflow's integrator against scipy's solve_ivp at equal final error, and one velocity evaluation.

Run from the repository root: `python benchmarks/integrator.py` (the large problem takes most of
an hour on two cores), or `--quick` for the small problem and the velocity alone (about a minute).

1. Problems (softmax, random symmetric heads, beta = 1, sphere): small n = 64, d = 8, H = 4,
   T = 10; large n = 1024, d = 32, H = 8, T = 5. Every integrator calls the same right-hand side,
   `model.token_velocity(cfg.moved_to(X))`; scipy gets it through the flat-vector wrapper a user
   would write, with `solve_ivp`'s defaults otherwise. The reference final state is headflow's
   DOP853 at rtol = 1e-13, checked against scipy's DOP853 at its tightest rtol (the discrepancy is
   printed). For each target final error (the largest coordinate of |X(T) - X_ref(T)|: 1e-6,
   1e-8, 1e-10, 1e-12) each integrator runs at the loosest rtol (atol = rtol / 100) of the
   half-decade ladder 1e-2, 10^-2.5, ..., 1e-13 that reaches it (found by a walk from a guess,
   `Ladder`). Printed per integrator: that rtol, the velocity evaluations, the wall time (best of
   3, the integrators' runs interleaved so that load on the machine hits all of them alike), the
   error reached, the norm drift max_i ||x_i(T)| - 1|, and the time ratio headflow / scipy (< 1:
   headflow is faster).
2. One velocity evaluation at n = 2048, d = 64, H = 8 for each attention kind, against its own
   matrix products and elementwise pass alone (beta X M_h stacked, times X^T, in place exp for usa
   and softmax or max(., 0) for relu, times the values X W_h^T): the ratio says how close the
   evaluation is to that floor.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from headflow.checks.integrator import integrate
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration

TARGETS = (1e-6, 1e-8, 1e-10, 1e-12)
LADDER = tuple(10.0 ** (-2.0 - 0.5 * k) for k in range(23))  # 1e-2 .. 1e-13
REPEATS = 3
#: Ladder rungs between consecutive targets (two decades of error, half a decade per rung): the
#: first guess for the next target's rung, since every integrator's error here falls about like rtol.
RUNGS_PER_TARGET = 4
#: The reference final state: headflow's DOP853 at this rtol (atol = rtol / 100).
REFERENCE_RTOL = 1e-13
#: scipy refuses rtol below 100 x machine epsilon; its check of the reference uses the smallest it accepts.
SCIPY_TIGHTEST_RTOL = 2.3e-14


@dataclass(frozen=True)
class Problem:
    name: str
    n: int
    d: int
    heads: int
    T: float
    seed: int

    def configuration(self) -> Configuration:
        rng = np.random.default_rng(self.seed)
        X = families.random_sphere_tokens(self.n, self.d, rng)
        M = families.random_symmetric_heads(self.heads, self.d, rng)
        return Configuration.create(X, M, beta=1.0, attention="softmax")

    def __str__(self) -> str:
        sizes = f"n={self.n}, d={self.d}, H={self.heads} symmetric heads"
        return f"{self.name}: softmax, {sizes}, beta=1, sphere, T={self.T:g}"


SMALL = Problem("small", 64, 8, 4, 10.0, 2026)
LARGE = Problem("large", 1024, 32, 8, 5.0, 2027)

#: (configuration, T, rtol) -> (final tokens, velocity evaluations)
Solver = Callable[[Configuration, float, float], tuple[np.ndarray, int]]


def headflow(cfg: Configuration, T: float, rtol: float, method: str = "auto") -> tuple[np.ndarray, int]:
    """headflow's integrator, by default with its automatic choice of the pair."""
    traj = integrate(
        cfg, T, rtol=rtol, atol=rtol * 1e-2, method=method, observables=(), keep_states=False, backend="numpy"
    )
    return np.array(traj.final.tokens), traj.evaluations


def scipy_solver(method: str) -> Solver:
    """scipy's solve_ivp with `method`, on the flattened tokens, calling the same velocity function."""

    def run(cfg: Configuration, T: float, rtol: float) -> tuple[np.ndarray, int]:
        shape = cfg.tokens.shape

        def velocity(t: float, y: np.ndarray) -> np.ndarray:
            return model.token_velocity(cfg.moved_to(y.reshape(shape))).ravel()

        solution = solve_ivp(velocity, (0.0, T), cfg.tokens.ravel(), method=method, rtol=rtol, atol=rtol * 1e-2)
        return solution.y[:, -1].reshape(shape), solution.nfev

    return run


SOLVERS: dict[str, Solver] = {
    "headflow": headflow,
    "scipy DOP853": scipy_solver("DOP853"),
    "scipy RK45": scipy_solver("RK45"),
}


@dataclass
class Run:
    """One run of one integrator at one rung of the ladder: its rtol, cost, error and norm drift."""

    rtol: float
    evaluations: int
    seconds: float
    error: float
    drift: float


class Ladder:
    """The runs of one integrator on one problem down the rtol ladder, each rung run at most once.

    `loosest(target, guess)` walks from the guessed rung: down while the error misses the target,
    then up while the looser rung still reaches it. When the error does not grow down the ladder
    this is the loosest rung that reaches the target, found with about two runs per target instead
    of one run per rung. `on_sphere`: the error is that of the final rows renormalized (the drift is
    still measured before).
    """

    def __init__(
        self, solver: Solver, cfg: Configuration, T: float, reference: np.ndarray, on_sphere: bool = False
    ) -> None:
        self.solver, self.cfg, self.T, self.reference, self.on_sphere = solver, cfg, T, reference, on_sphere
        self.runs: dict[int, Run] = {}

    def run(self, rung: int) -> Run:
        if rung not in self.runs:
            rtol = LADDER[rung]
            final, evaluations, seconds = _timed(self.solver, self.cfg, self.T, rtol)
            norms = np.linalg.norm(final, axis=1, keepdims=True)
            drift = float(np.max(np.abs(norms - 1.0)))
            error = float(np.max(np.abs((final / norms if self.on_sphere else final) - self.reference)))
            self.runs[rung] = Run(rtol, evaluations, seconds, error, drift)
        return self.runs[rung]

    def loosest(self, target: float, guess: int) -> int | None:
        """The loosest rung whose run reaches `target` (None if even the last one misses it)."""
        rung = min(guess, len(LADDER) - 1)
        while self.run(rung).error > target:
            if rung == len(LADDER) - 1:
                return None
            rung += 1
        while rung > 0 and self.run(rung - 1).error <= target:
            rung -= 1
        return rung

    def repeat(self, rung: int) -> None:
        """One more timed run at `rung`; the rung keeps the best wall time."""
        run = self.runs[rung]
        run.seconds = min(run.seconds, _timed(self.solver, self.cfg, self.T, run.rtol)[2])


def _timed(solver: Solver, cfg: Configuration, T: float, rtol: float) -> tuple[np.ndarray, int, float]:
    start = time.perf_counter()
    final, evaluations = solver(cfg, T, rtol)
    return final, evaluations, time.perf_counter() - start


def scan(ladder: Ladder, targets: tuple[float, ...] = TARGETS, guess: int = 0) -> dict[float, int]:
    """The chosen rung per reached target: the first target guessed at rung `guess`, each next one
    RUNGS_PER_TARGET below the last one's rung."""
    chosen: dict[float, int] = {}
    for target in targets:
        rung = ladder.loosest(target, guess)
        if rung is None:
            break
        chosen[target], guess = rung, rung + RUNGS_PER_TARGET
    return chosen


def compare_integrators(problem: Problem) -> list[dict[str, object]]:
    """headflow against scipy's DOP853 and RK45 at each target error on one problem; prints a table, returns rows."""
    cfg = problem.configuration()
    reference = headflow(cfg, problem.T, REFERENCE_RTOL, "dop853")[0]
    check = scipy_solver("DOP853")(cfg, problem.T, SCIPY_TIGHTEST_RTOL)[0]
    print(f"\n{problem}")
    print(
        f"reference: headflow DOP853 rtol={REFERENCE_RTOL:g}; scipy DOP853 rtol={SCIPY_TIGHTEST_RTOL:g} differs by "
        f"{np.max(np.abs(check - reference)):.1e}",
        flush=True,
    )
    ladders = {name: Ladder(solver, cfg, problem.T, reference) for name, solver in SOLVERS.items()}
    chosen = {}
    for name, ladder in ladders.items():
        chosen[name] = scan(ladder)
        print(f"  {name}: {len(ladder.runs)} runs to find the rungs", flush=True)
    for _ in range(REPEATS - 1):  # interleaved repeats: load on the machine hits every integrator alike
        for name, ladder in ladders.items():
            for rung in sorted(set(chosen[name].values())):
                ladder.repeat(rung)
    runs = {name: {target: ladders[name].runs[rung] for target, rung in chosen[name].items()} for name in SOLVERS}
    print(
        f"{'target':>7} {'integrator':<13} {'rtol':>8} {'evals':>6} {'seconds':>8} {'error':>8} {'drift':>8}"
        f"  {'headflow / this (time)':>22}"
    )
    rows = []
    for target in TARGETS:
        ours = runs["headflow"].get(target)
        for name in SOLVERS:
            run = runs[name].get(target)
            if run is None:
                print(f"{target:7.0e} {name:<13} not reached down to rtol {LADDER[-1]:g}")
                continue
            ratio = ours.seconds / run.seconds if ours else float("nan")
            print(
                f"{target:7.0e} {name:<13} {run.rtol:8.1e} {run.evaluations:6d} {run.seconds:8.3f} "
                f"{run.error:8.1e} {run.drift:8.1e}  {ratio:22.2f}"
            )
            if ours and name != "headflow":
                rows.append(
                    _row(f"{problem.name} problem to error {target:.0e}", ours.seconds, name, run.seconds)
                    | {
                        "evaluations": ours.evaluations,
                        "baseline_evaluations": run.evaluations,
                        "drift": ours.drift,
                        "baseline_drift": run.drift,
                    }
                )
    return rows


def best_time(function: Callable[[], object], repeats: int = REPEATS) -> float:
    """The smallest wall time of `repeats` calls (the least disturbed by other load)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def velocity_cost() -> list[dict[str, object]]:
    """One velocity evaluation against its own matrix products and exponential; returns the rows."""
    rng = np.random.default_rng(7)
    n, d, H = 2048, 64, 8
    X = families.random_sphere_tokens(n, d, rng)
    M = families.random_symmetric_heads(H, d, rng)
    values_transposed = np.swapaxes(M, 1, 2)
    print(
        f"\none velocity evaluation, n={n}, d={d}, H={H}: time / time of its matrix products and its elementwise "
        "pass alone (exp for usa and softmax, max(., 0) for relu)"
    )

    def floor(elementwise: Callable[..., np.ndarray]) -> None:
        scores = ((X @ M).reshape(H * n, d) @ X.T).reshape(H, n, n)
        elementwise(scores, out=scores)
        scores @ (X @ values_transposed)

    passes = {"usa": np.exp, "softmax": np.exp, "relu": lambda z, out: np.maximum(z, 0.0, out=out)}
    rows = []
    for attention, elementwise in passes.items():
        cfg = Configuration.create(X, M, beta=1.0, attention=attention)
        floor_seconds = best_time(lambda e=elementwise: floor(e))
        seconds = best_time(lambda c=cfg: model.token_velocity(c.moved_to(X)))
        print(f"  {attention:8s} {seconds:8.3f} s / {floor_seconds:8.3f} s = {seconds / floor_seconds:5.2f}x")
        case = f"velocity evaluation ({attention}, n={n}, d={d}, H={H})"
        rows.append(_row(case, seconds, "products + elementwise pass", floor_seconds))
    return rows


def measure(quick: bool = False) -> list[dict[str, object]]:
    """Every figure of this benchmark (the small problem only when `quick`), printed and returned as rows."""
    rows = []
    for problem in (SMALL,) if quick else (SMALL, LARGE):
        rows += compare_integrators(problem)
    return rows + velocity_cost()


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the small problem and the velocity only")
    quick = parser.parse_args().quick
    from benchmarks import results

    results.save("integrator", measure(quick), quick=quick)
