"""Benchmark: headflow's integrator against scipy, diffrax and torchdiffeq at equal final error on the sphere.

Run from the repository root: `python benchmarks/peers.py` (n = 64, 512 and 2048: about twenty minutes on a loaded
two-core machine, 2026-12, fifteen of them n = 2048's, mostly torchdiffeq's), `--sizes 64` for the small problem
alone (under two minutes). The peers are the optional
extra `[peers]` (`pip install -e '.[peers]'`: jax, diffrax, torch for the CPU, torchdiffeq); an absent one is skipped
with a message.

1. The field. Softmax attention with H random symmetric heads M_h, values W_h = M_h, beta = 1, on the sphere:
   xdot_i = P⊥_{x_i}(sum_h sum_j softmax_j(beta <x_i, M_h x_j>) M_h x_j). headflow and scipy call headflow's own
   field (`velocity_function`, `token_velocity` with one workspace per run, which the numpy engine calls; until
   2026-12-05 scipy called `token_velocity` per state, whose n = 64 form from differences took ~5x as long);
   diffrax gets it written in `jax.numpy` (and jitted with the whole solve), torchdiffeq in `torch`. Before any
   timing every framework's field is evaluated at two states and compared with headflow's (the largest difference
   is printed; above AGREEMENT the run stops): they compute the same function.
2. Equal final error. The reference final state is scipy's DOP853 at rtol = atol = 1e-13 with its rows
   renormalized. Every integrator's final rows are renormalized too (a user of a peer on the sphere would
   project), and its error is the largest coordinate of the difference from the reference; for each target it
   runs at the loosest rtol (atol = rtol / 100) of the half-decade ladder of `benchmarks/integrator.py` that
   reaches it. The drift column is max_i ||x_i(T)| - 1| before renormalizing (headflow retracts every step).
3. Time. The integrators of one size run side by side in this one process, one thread each (BLAS, XLA, torch);
   each chosen run is repeated (`Case.repeats`), interleaved across integrators so that load on the shared machine
   hits all of them alike, and keeps its best time. Compilation is excluded alike for every jitted integrator:
   diffrax is compiled once per problem before timing (a warm-up solve; rtol and atol are traced), and so is
   headflow's optional jitted backend ("headflow (jax)", `integrate(..., backend="jax")`, the extra `[jit]`), by
   one warm-up run per pair per problem (its tolerances are traced too; the compilation takes seconds; the shifted
   softmax loop, compiled only when scores pass |beta s| <= 300, is not needed here). x64 is on globally (diffrax
   asks for it), for both. A timed run is a whole `integrate` call (its start, Hairer's first step, the records of
   t = 0 and T) or a whole `diffeqsolve`. headflow runs three ways: "headflow", its default backend ("auto": what
   `integrate()` and `headflow simulate` run unless told, jax when installed, `checks.integrator.backends`; the
   goal of issue 44 is on this row), "headflow (numpy)" and "headflow (jax)", each named. Evaluations: counted
   calls for headflow, scipy and torchdiffeq; for diffrax (stages - 1) per step (FSAL) plus the two of its initial
   step selection, from its step count.

Printed per target and integrator: rtol, evaluations, best wall time, error, drift, and headflow's time / its time
for the default, the numpy and the jax backend (below 1: headflow is faster).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

# one thread for every framework (set before numpy, jax or torch are imported)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import numpy as np
from scipy.integrate import solve_ivp

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from headflow.certificates.errors import InputError
from headflow.checks.integrator import backends, integrate
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration

from benchmarks.integrator import LADDER, Ladder, Problem, scan


@dataclass(frozen=True)
class Case:
    """One problem, the final errors it is run to, the ladder rung the first target's search starts from and the
    number of timed runs per chosen rung (the best is kept)."""

    problem: Problem
    targets: tuple[float, ...]
    first_rung: int = 0
    repeats: int = 3


#: The problems by token count: the small one's runs take milliseconds, so more of them are timed; the larger ones
#: are shorter than the small one's T (on a shared two-core machine one evaluation takes about 0.01 s at n = 512,
#: 0.05-0.1 s at n = 2048) and start their search near the rung they need. n = 2048 runs to T = 1 with the targets
#: of n = 512 (until 2026-12-02 it ran to T = 0.1 and 1e-8, which every integrator met in one step at its loosest
#: rung: a comparison of start-up costs, not of step control; now each takes several steps).
CASES: dict[int, Case] = {
    64: Case(Problem("n=64", 64, 8, 4, 10.0, 2026), (1e-6, 1e-8, 1e-10, 1e-12), repeats=15),
    512: Case(Problem("n=512", 512, 32, 8, 1.0, 2027), (1e-6, 1e-9), first_rung=2, repeats=2),
    2048: Case(Problem("n=2048", 2048, 16, 4, 1.0, 2028), (1e-6, 1e-9), first_rung=2, repeats=2),
}

#: The reference: scipy DOP853 at this rtol = atol, rows renormalized.
REFERENCE_TOLERANCE = 1e-13
#: Largest difference allowed between a peer's field and headflow's at the same state.
AGREEMENT = 1e-13

#: The names of headflow's default (backend "auto", what `integrate` and `headflow simulate` run unless told), numpy
#: and jitted backends among the integrators.
DEFAULT_HEADFLOW, NUMPY_HEADFLOW, JAX_HEADFLOW = "headflow", "headflow (numpy)", "headflow (jax)"
#: headflow's backends, each compared with every other integrator.
OURS = (DEFAULT_HEADFLOW, NUMPY_HEADFLOW, JAX_HEADFLOW)

Solver = Callable[[Configuration, float, float], tuple[np.ndarray, int]]


def unit_rows(X: np.ndarray) -> np.ndarray:
    """X with every row divided by its norm (the projection of a final state onto the sphere)."""
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def scipy_solver(method: str) -> Solver:
    """scipy's solve_ivp with `method` on the flattened tokens, calling headflow's velocity."""

    def run(cfg: Configuration, T: float, rtol: float, atol: float | None = None) -> tuple[np.ndarray, int]:
        shape = cfg.tokens.shape

        field = model.velocity_function(cfg)  # the field headflow's numpy engine calls, one workspace per run

        def velocity(t: float, y: np.ndarray) -> np.ndarray:
            return field(y.reshape(shape)).ravel()

        atol = rtol * 1e-2 if atol is None else atol
        solution = solve_ivp(velocity, (0.0, T), cfg.tokens.ravel(), method=method, rtol=rtol, atol=atol)
        return solution.y[:, -1].reshape(shape), solution.nfev

    return run


@dataclass
class Peer:
    """One integrator of a framework: its solver, and its field (state -> velocity, numpy in and out) to compare."""

    name: str
    solver: Solver
    field: Callable[[np.ndarray], np.ndarray] | None = None


def jax_peers(cfg: Configuration, T: float) -> list[Peer] | str:
    """diffrax's Dopri8 and Tsit5 on the field in jax.numpy, the whole solve jitted (or why they are skipped)."""
    try:
        import jax
    except ImportError:
        return "jax is not installed"
    jax.config.update("jax_enable_x64", True)
    try:
        import diffrax
    except ImportError:
        return "diffrax is not installed"
    import jax.numpy as jnp

    M, W, beta = jnp.asarray(cfg.score_matrices), jnp.asarray(cfg.values), cfg.beta

    def field(X: jnp.ndarray) -> jnp.ndarray:
        weights = jax.nn.softmax(beta * ((X @ M) @ X.T), axis=-1)
        v = (weights @ (X @ jnp.swapaxes(W, 1, 2))).sum(axis=0)
        return v - jnp.sum(v * X, axis=1, keepdims=True) * X

    term = diffrax.ODETerm(lambda t, y, args: field(y))
    compiled_field = jax.jit(field)

    def peer(name: str, method: diffrax.AbstractSolver) -> Peer:
        per_step = method.tableau.num_stages - (1 if method.tableau.fsal else 0)

        @jax.jit
        def solve(y0: jnp.ndarray, rtol: jnp.ndarray, atol: jnp.ndarray) -> tuple[jnp.ndarray, jnp.ndarray]:
            controller = diffrax.PIDController(rtol=rtol, atol=atol)
            solution = diffrax.diffeqsolve(
                term, method, 0.0, T, None, y0, stepsize_controller=controller, max_steps=1_000_000
            )
            return solution.ys[-1], solution.stats["num_steps"]

        y0 = jnp.asarray(cfg.tokens)
        jax.block_until_ready(solve(y0, jnp.float64(1e-6), jnp.float64(1e-8)))  # compile once, outside timing

        def run(cfg: Configuration, T: float, rtol: float) -> tuple[np.ndarray, int]:
            final, steps = solve(y0, jnp.float64(rtol), jnp.float64(rtol * 1e-2))
            return np.asarray(jax.block_until_ready(final)), int(steps) * per_step + 2

        return Peer(name, run, lambda X: np.asarray(compiled_field(jnp.asarray(X))))

    return [peer("diffrax Dopri8", diffrax.Dopri8()), peer("diffrax Tsit5", diffrax.Tsit5())]


def headflow_run(backend: str) -> Solver:
    """headflow's `integrate` with `backend` ("auto": its default), recording the start and the end only (as the
    peers keep their final state)."""

    def run(cfg: Configuration, T: float, rtol: float) -> tuple[np.ndarray, int]:
        traj = integrate(
            cfg,
            T,
            rtol=rtol,
            atol=rtol * 1e-2,
            observables=(),
            keep_states=False,
            record_times=[0.0, T],
            backend=backend,
        )
        return np.array(traj.final.tokens), traj.evaluations

    return run


def headflow_jax(cfg: Configuration, T: float) -> Peer | str:
    """headflow's jitted backend, compiled before any timing (or why it is skipped)."""
    try:
        from headflow.checks.model import jax_field

        field = jax_field.field_function(cfg)
    except InputError as error:
        return error.reason

    run = headflow_run("jax")
    run(cfg, T, 1e-6)  # compile the loops of both pairs once, outside timing (rtol is traced)
    run(cfg, T, 1e-2)
    return Peer(JAX_HEADFLOW, run, field)


def torch_peers(cfg: Configuration, T: float) -> list[Peer] | str:
    """torchdiffeq's dopri5 and dopri8 on the field in torch (float64, CPU, one thread), or why they are skipped."""
    try:
        import torch
        import torchdiffeq
    except ImportError:
        return "torch or torchdiffeq is not installed"
    torch.set_num_threads(1)
    M = torch.from_numpy(np.array(cfg.score_matrices))
    values = torch.from_numpy(np.array(np.swapaxes(cfg.values, 1, 2)))
    beta = cfg.beta

    def field(X: torch.Tensor) -> torch.Tensor:
        weights = torch.softmax(beta * ((X @ M) @ X.T), dim=-1)
        v = (weights @ (X @ values)).sum(dim=0)
        return v - (v * X).sum(dim=1, keepdim=True) * X

    def peer(method: str) -> Peer:
        def run(cfg: Configuration, T: float, rtol: float) -> tuple[np.ndarray, int]:
            calls = [0]

            def f(t: torch.Tensor, X: torch.Tensor) -> torch.Tensor:
                calls[0] += 1
                return field(X)

            with torch.no_grad():
                times = torch.tensor([0.0, T], dtype=torch.float64)
                y0 = torch.from_numpy(np.array(cfg.tokens))
                final = torchdiffeq.odeint(f, y0, times, rtol=rtol, atol=rtol * 1e-2, method=method)[-1]
            return final.numpy(), calls[0]

        def evaluate(X: np.ndarray) -> np.ndarray:
            with torch.no_grad():
                return field(torch.from_numpy(np.array(X))).numpy()

        return Peer(f"torchdiffeq {method}", run, evaluate)

    return [peer("dopri5"), peer("dopri8")]


def peers(cfg: Configuration, T: float) -> list[Peer]:
    """Every peer that is installed (each absent one named in a message)."""
    found = [Peer("scipy DOP853", scipy_solver("DOP853")), Peer("scipy RK45", scipy_solver("RK45"))]
    ours = headflow_jax(cfg, T)
    if isinstance(ours, str):
        print(f"  skipped: headflow (jax): {ours}", flush=True)
    else:
        found.insert(0, ours)
    for group in (jax_peers(cfg, T), torch_peers(cfg, T)):
        if isinstance(group, str):
            print(f"  skipped: {group} (pip install -e '.[peers]')", flush=True)
        else:
            found += group
    return found


def field_disagreement(peer: Peer, cfg: Configuration, states: list[np.ndarray]) -> float:
    """The largest coordinate of |peer field - headflow's token_velocity| over `states`."""
    assert peer.field is not None
    return max(float(np.max(np.abs(peer.field(X) - model.token_velocity(cfg.moved_to(X))))) for X in states)


def compare(case: Case) -> list[dict[str, object]]:
    """headflow against every installed peer at each target of one case; prints a table, returns rows."""
    problem, targets = case.problem, case.targets
    cfg = problem.configuration()
    print(f"\n{problem}", flush=True)
    reference = unit_rows(scipy_solver("DOP853")(cfg, problem.T, REFERENCE_TOLERANCE, REFERENCE_TOLERANCE)[0])
    print(f"  reference: scipy DOP853 rtol = atol = {REFERENCE_TOLERANCE:g}, rows renormalized", flush=True)
    rng = np.random.default_rng(problem.seed + 1)
    states = [np.array(cfg.tokens), unit_rows(rng.standard_normal(cfg.tokens.shape))]
    others = peers(cfg, problem.T)  # headflow (jax) compiled first: the default's runs may be jax's
    default = backends.chosen("auto", cfg, record_times=[0.0, problem.T])
    print(f"  headflow's default backend (auto) runs {default}", flush=True)
    integrators = [Peer(DEFAULT_HEADFLOW, headflow_run("auto")), Peer(NUMPY_HEADFLOW, headflow_run("numpy")), *others]
    for peer in integrators:
        if peer.field is not None:
            gap = field_disagreement(peer, cfg, states)
            print(f"  {peer.name} field - headflow's: {gap:.1e}", flush=True)
            if not gap <= AGREEMENT:
                raise SystemExit(f"{peer.name}'s field differs from headflow's by {gap:.1e} > {AGREEMENT:g}")
    ladders = {peer.name: Ladder(peer.solver, cfg, problem.T, reference, on_sphere=True) for peer in integrators}
    chosen = {}
    for name, ladder in ladders.items():
        chosen[name] = scan(ladder, targets, case.first_rung)
        print(f"  {name}: {len(ladder.runs)} runs to find the rungs", flush=True)
    for _ in range(case.repeats - 1):  # interleaved repeats: load on the machine hits every integrator alike
        for name, ladder in ladders.items():
            for rung in sorted(set(chosen[name].values())):
                ladder.repeat(rung)
    return _table(problem, targets, ladders, chosen)


def _table(
    problem: Problem, targets: tuple[float, ...], ladders: dict[str, Ladder], chosen: dict[str, dict[float, int]]
) -> list[dict[str, object]]:
    print(
        f"{'target':>7} {'integrator':<19} {'rtol':>8} {'evals':>6} {'seconds':>8} {'error':>8} {'drift':>8}"
        f"  {'headflow / this':>15} {'headflow (numpy) / this':>23} {'headflow (jax) / this':>21}"
    )
    rows = []
    for target in targets:
        ours = {name: ladders[name].runs.get(chosen[name].get(target, -1)) for name in OURS if name in ladders}
        for name, ladder in ladders.items():
            rung = chosen[name].get(target)
            if rung is None:
                print(f"{target:7.0e} {name:<19} not reached down to rtol {LADDER[-1]:g}")
                continue
            run = ladder.runs[rung]
            ratios = [ours[k].seconds / run.seconds if ours.get(k) else float("nan") for k in OURS]
            print(
                f"{target:7.0e} {name:<19} {run.rtol:8.1e} {run.evaluations:6d} {run.seconds:8.3f} "
                f"{run.error:8.1e} {run.drift:8.1e}  {ratios[0]:15.2f} {ratios[1]:23.2f} {ratios[2]:21.2f}",
                flush=True,
            )
            for backend, our in ours.items():
                if our and name not in OURS:
                    rows.append(
                        {
                            "benchmark": "peers",
                            "case": f"{problem.name} d={problem.d} H={problem.heads} T={problem.T:g} to {target:.0e}",
                            "integrator": backend,
                            "seconds": our.seconds,
                            "baseline": name,
                            "baseline_seconds": run.seconds,
                            "ratio": run.seconds / our.seconds,
                            "evaluations": our.evaluations,
                            "baseline_evaluations": run.evaluations,
                            "drift": our.drift,
                            "baseline_drift": run.drift,
                        }
                    )
    return rows


def main(argv: list[str] | None = None) -> int:
    """Run the cases of --sizes; each size's rows are saved as soon as they are measured
    (`benchmarks/results/peers-<n>.json`)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="64,512,2048", help="token counts to run, among 64, 512, 2048")
    args = parser.parse_args(argv)
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        sizes = []
    if not sizes or not set(sizes) <= set(CASES):
        parser.error(f"--sizes: expected some of {', '.join(map(str, CASES))}")
    from benchmarks import results

    for n in sizes:
        case = CASES[n]
        results.save(f"peers-{n}", compare(case), targets=len(case.targets), repeats=case.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
