"""`headflow simulate`: integrate one configuration and save its trajectory and plots into a folder.

Every numeric option is bounded (`--help`, docs/guarantees.md "Size limits"), and a run on the sphere stops by
itself once the motion has stopped (max_i |xdot_i| <= SETTLED_SPEED) unless `--no-settle-stop`:
a huge `--T` therefore never means a run without end.
"""

from __future__ import annotations

import argparse
import io
import math
from pathlib import Path
from typing import TYPE_CHECKING

from headflow.certificates.atomic import write_bytes_atomic
from headflow.certificates.errors import InputError
from headflow.certificates.families import SHORT_HEAD_NAMES, SHORT_TOKEN_NAMES
from headflow.certificates.kernel.vocabulary import ATTENTION_KINDS, GEOMETRIES
from headflow.certificates.vocabulary import MAX_HEADS
from headflow.checks.choices import BACKENDS, HIGH_ORDER_RTOL, INTEGRATION_METHODS
from headflow.checks.input_bounds import check_range, check_seed
from headflow.checks.model import memory
from headflow.checks.progress import progress_bar

if TYPE_CHECKING:  # the integrator and the model load when the command runs: `--help` answers at once
    import numpy as np
    from headflow.checks.integrator import Trajectory
    from headflow.checks.model.configuration import Configuration

HELP = "integrate the dynamics of one configuration; save the trajectory (.npz) and plots (PNG, SVG)"
#: Bounds of the numeric options (also in --help and the size-limits table of docs/guarantees.md).
MAX_T = 1e6
MAX_SAMPLES = 100_000
RTOL_RANGE = (1e-13, 1e-2)
MAX_BETA = 1e3
MAX_STRENGTH = 1e3
MAX_STEPS = (1, 1_000_000)
#: The spherical run stops once max_i |xdot_i| falls to this (the tokens have settled).
SETTLED_SPEED = 1e-12
#: The largest n*d that --certified integrates (each step evaluates the field's Jacobian over a box, n*d series).
MAX_CERTIFIED_STATE = 64
#: Exact data within 1/CERTIFIED_DENOMINATOR of the float configuration start the certified run.
CERTIFIED_DENOMINATOR = 2**12


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--n", type=int, default=16, help="number of tokens (default 16)")
    parser.add_argument("--d", type=int, default=3, help="dimension (default 3)")
    heads = parser.add_mutually_exclusive_group()
    heads.add_argument("--heads", type=int, metavar="H", help="number of heads of --head-family (default 1)")
    heads.add_argument(
        "--lambdas",
        metavar="L1,L2,...",
        help=f"scalar heads M_h = lambda_h I, comma-separated, |lambda_h| <= {MAX_STRENGTH:g}",
    )
    parser.add_argument(
        "--head-family", choices=tuple(SHORT_HEAD_NAMES), default="scalar", help="heads when --heads is given"
    )
    parser.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help=f"head scale, |scale| <= {MAX_STRENGTH:g} (lambda of scalar heads; default 1)",
    )
    parser.add_argument(
        "--tokens", choices=tuple(SHORT_TOKEN_NAMES), default="random", help="initial tokens (default random)"
    )
    parser.add_argument("--rho", type=float, default=0.0, help="inner product of equiangular tokens (default 0)")
    parser.add_argument("--beta", type=float, default=1.0, help=f"inverse temperature in (0, {MAX_BETA:g}] (default 1)")
    parser.add_argument("--attention", choices=ATTENTION_KINDS, default="softmax", help="default softmax")
    parser.add_argument("--geometry", choices=GEOMETRIES, default="sphere", help="default sphere")
    parser.add_argument("--T", type=float, default=10.0, help=f"final time in (0, {MAX_T:g}] (default 10)")
    parser.add_argument(
        "--samples",
        type=int,
        default=201,
        help=f"recorded times, evenly spaced, 2..{MAX_SAMPLES:,} and samples*n*max(d, H) <= 2^25 (default 201)",
    )
    parser.add_argument(
        "--rtol",
        type=float,
        default=1e-8,
        help=f"relative tolerance of the integrator, {RTOL_RANGE[0]:g}..{RTOL_RANGE[1]:g}",
    )
    parser.add_argument(
        "--method",
        choices=("auto", *INTEGRATION_METHODS),
        default="auto",
        help=f"Runge-Kutta pair (default auto: DOP853 for rtol <= {HIGH_ORDER_RTOL:g}, else and for relu DP5(4))",
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="auto",
        help="the integrator's engine. auto (the default): jax, the optional jitted one (pip install "
        "'headflow[jit]'), when it is installed and covers the run (usa, softmax or relu on the sphere or flat, "
        "--samples 2, no --stop-gap, and on the sphere --no-settle-stop: it runs to --T or --max-steps), else numpy; "
        "the output says which ran. jax's first run compiles for a few seconds and keeps the compiled loops in "
        "$XDG_CACHE_HOME/headflow/jax (default ~/.cache/headflow/jax) for later runs; it ends a step at each sample, "
        "so more samples cost it steps. numpy is the deterministic engine that verify and check use",
    )
    parser.add_argument("--stop-gap", type=float, metavar="TOL", help="stop once the cluster gap is <= TOL, in (0, 2]")
    parser.add_argument(
        "--no-settle-stop",
        action="store_true",
        help=f"on the sphere, keep integrating after the motion has stopped (max |xdot_i| <= {SETTLED_SPEED:g})",
    )
    parser.add_argument(
        "--max-steps",
        type=int,
        default=200_000,
        help=f"stop after this many integrator steps, {MAX_STEPS[0]}..{MAX_STEPS[1]:,} (default 200,000)",
    )
    parser.add_argument(
        "--memory-budget",
        metavar="SIZE",
        help="memory the evaluations may hold, e.g. 8GiB or 512MiB (default: the memory available); the n x n "
        "quantities are evaluated a block of tokens at a time within it",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random families, 0..2^64-1 (default 0)")
    parser.add_argument(
        "--certified",
        action="store_true",
        help="a validated integration instead (balls, Taylor steps with Picard enclosures) from exact rational data "
        f"near the configuration, usa or softmax attention, sphere or flat, n*d <= {MAX_CERTIFIED_STATE}: saves "
        "enclosure.npz and the enclosure's width over time; --rtol is the width per unit time each step aims at",
    )
    parser.add_argument(
        "--no-plots",
        action="store_true",
        help="save the data only (trajectory.npz or enclosure.npz), no PNG or SVG: rendering the five figures takes "
        "most of a short run's time",
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="folder for trajectory.npz and the plots")


def build_configuration(args: argparse.Namespace, rng: np.random.Generator) -> Configuration:
    """The initial configuration described by the options (every field validated)."""
    from headflow.checks.model import families
    from headflow.checks.model.configuration import Configuration

    n, d = _at_least("n", args.n, 2), _at_least("d", args.d, 1)
    check_range("--rho", args.rho, -1.0, 1.0)
    check_range("--scale", args.scale, -MAX_STRENGTH, MAX_STRENGTH)
    check_range("--beta", args.beta, 0.0, MAX_BETA, open_low=True)
    X = families.draw_tokens(SHORT_TOKEN_NAMES[args.tokens], n, d, rng, {"rho": args.rho})
    if args.lambdas is not None:
        lambdas = parse_lambdas(args.lambdas)
        M = families.draw_heads("scalar", len(lambdas), d, rng, {"lambdas": lambdas})
    else:
        H = _at_least("heads", 1 if args.heads is None else args.heads, 1)
        if H > MAX_HEADS:
            raise InputError("--heads", H, f"at most {MAX_HEADS} heads")
        options = {"scale": args.scale, "lambdas": [args.scale] * H}  # scalar heads take the scale as strength
        M = families.draw_heads(SHORT_HEAD_NAMES[args.head_family], H, d, rng, options)
    budget = None if args.memory_budget is None else memory.parse_budget(args.memory_budget)
    return Configuration.create(
        X, M, beta=args.beta, attention=args.attention, geometry=args.geometry, memory_budget=budget
    )


def parse_lambdas(text: str) -> list[float]:
    """Comma-separated finite numbers (parsed with float, never evaluated)."""
    values = []
    for item in text.split(","):
        try:
            value = float(item)
        except ValueError:
            raise InputError("--lambdas", text, f"{item.strip()!r} is not a number") from None
        if not (math.isfinite(value) and abs(value) <= MAX_STRENGTH):
            raise InputError("--lambdas", text, f"every lambda must be finite, |lambda| <= {MAX_STRENGTH:g}")
        values.append(value)
    return values


def _at_least(field: str, value: int, low: int) -> int:
    if value < low:
        raise InputError(f"--{field}", value, f"must be at least {low}")
    return value


def events_of(args: argparse.Namespace, cfg: Configuration) -> tuple:
    """The terminal events: the cluster gap (--stop-gap) and, on the sphere, the settled motion (none with the jax
    backend, which takes no events: --stop-gap is refused there)."""
    from headflow.checks.integrator import cluster_gap_below, speed_below

    if args.backend == "jax":  # named: no events (auto takes numpy when it asks for some)
        if args.stop_gap is not None:
            raise InputError("--stop-gap", args.stop_gap, "the jax backend takes no events; use --backend numpy")
        return ()
    events = [] if args.stop_gap is None else [cluster_gap_below(args.stop_gap)]
    if cfg.geometry == "sphere" and not args.no_settle_stop:
        events.append(speed_below(SETTLED_SPEED))
    return tuple(events)


def stop_reason(traj: Trajectory, horizon: float) -> str:
    """One line saying why the run ended."""
    if traj.status.startswith("event:speed"):
        return (
            f"stopped at t={traj.t_end:.6g} < T={horizon:g}: the motion has stopped (max |xdot_i| <= "
            f"{SETTLED_SPEED:g}); --no-settle-stop integrates on"
        )
    if traj.status.startswith("event:cluster_gap"):
        return f"stopped at t={traj.t_end:.6g}: the cluster gap reached --stop-gap"
    if traj.status == "max_steps":
        return f"stopped at t={traj.t_end:.6g}: --max-steps integrator steps were taken"
    return f"reached T={horizon:g}"


def save_trajectory(cfg: Configuration, traj: Trajectory, path: Path) -> Path:
    """trajectory.npz: times, tokens (records x n x d), the heads, options, and every observable."""
    import numpy as np

    buffer = io.BytesIO()
    np.savez_compressed(
        buffer,
        times=traj.times,
        tokens=traj.states,
        scores=cfg.score_matrices,
        values=cfg.values,
        beta=cfg.beta,
        attention=cfg.attention,
        geometry=cfg.geometry,
        status=traj.status,
        backend=traj.backend,
        **traj.observables,
    )
    return write_bytes_atomic(path, buffer.getvalue())


def run(args: argparse.Namespace) -> int:
    import numpy as np
    from headflow.checks.integrator import integrate
    from headflow.checks.integrator.backends import chosen, compilation_cache
    from headflow.checks.model.configuration import MAX_ARRAY_ELEMENTS
    from headflow.checks.reports import plots
    from headflow.checks.reports.terminal import console_for
    from headflow.checks.reports.wrapping import wrapped

    samples = int(check_range("--samples", args.samples, 2, MAX_SAMPLES))
    check_range("--T", args.T, 0.0, MAX_T, open_low=True)
    check_range("--rtol", args.rtol, *RTOL_RANGE)
    max_steps = int(check_range("--max-steps", args.max_steps, *MAX_STEPS))
    if args.stop_gap is not None:
        check_range("--stop-gap", args.stop_gap, 0.0, 2.0, open_low=True)
    cfg = build_configuration(args, np.random.default_rng(check_seed("--seed", args.seed)))
    if args.certified:
        return run_certified(args, cfg)
    if samples * cfg.n * max(cfg.d, cfg.H) > MAX_ARRAY_ELEMENTS:
        raise InputError("--samples", samples, f"samples*n*max(d, H) must be at most {MAX_ARRAY_ELEMENTS}")
    out = Path(args.out)
    events = events_of(args, cfg)
    record_times = np.linspace(0.0, args.T, samples)
    backend = chosen(args.backend, cfg, events=events, record_times=record_times)
    cache = compilation_cache() if backend == "jax" else None
    with progress_bar("simulating", samples) as advance:
        traj = integrate(
            cfg,
            args.T,
            rtol=args.rtol,
            atol=args.rtol * 1e-2,
            method=args.method,
            record_times=record_times,
            events=events,
            max_steps=max_steps,
            on_record=lambda t: advance(f"t={t:.3g}"),
            backend=backend,
        )
    written = [save_trajectory(cfg, traj, out / "trajectory.npz")]
    values = traj.observables
    figures = {
        "tokens": lambda: plots.tokens_figure(traj.states, cfg.geometry),
        "energy": lambda: plots.energy_figure(traj.times, values["energy"], values["head_energies"]),
        "entropy": lambda: plots.entropy_figure(traj.times, values["entropies"], cfg.n),
        "cluster_gap": lambda: plots.gap_figure(traj.times, values["cluster_gap"]),
        "condition8": lambda: plots.condition8_figure(traj.times, values["condition8_margin"]),
    }
    if not args.no_plots:
        for stem, figure in figures.items():
            written += plots.save(figure(), out / stem)
    summary = (
        f"{traj.status} at t={traj.t_end:.6g}: {traj.accepted} {traj.method} steps ({traj.rejected} rejected), "
        f"{traj.evaluations} velocity evaluations, cluster gap {values['cluster_gap'][-1]:.3g}"
    )
    engine = f"backend: {traj.backend}" + (" (chosen by --backend auto)" if args.backend == "auto" else "")
    if cache is not None:
        engine += f"; jax's compiled loops kept in {cache}"
    width = console_for().width  # the terminal's, else $COLUMNS, else 80
    for line in (summary, engine, stop_reason(traj, args.T)):
        print("\n".join(wrapped(line, width)))
    for path in written:
        print(path)
    return 0


def certified_refusal(args: argparse.Namespace, cfg: Configuration) -> InputError | None:
    """The first option --certified does not cover, as the error to raise (None when it covers them all)."""
    from headflow.certificates.provers.validated.taylor import GEOMETRIES, KINDS

    if cfg.attention not in KINDS:
        return InputError("--attention", cfg.attention, f"--certified covers {' and '.join(KINDS)} attention")
    if cfg.geometry not in GEOMETRIES:
        return InputError("--geometry", cfg.geometry, f"--certified covers {' and '.join(GEOMETRIES)} geometry")
    if cfg.n * cfg.d > MAX_CERTIFIED_STATE:
        return InputError("--n", cfg.n, f"--certified needs n*d <= {MAX_CERTIFIED_STATE}")
    for option, value, default in (("--backend", args.backend, "auto"), ("--method", args.method, "auto")):
        if value != default:
            return InputError(option, value, "--certified runs its own validated integrator")
    if args.stop_gap is not None:
        return InputError("--stop-gap", args.stop_gap, "--certified takes no events")
    return None


def run_certified(args: argparse.Namespace, cfg: Configuration) -> int:
    """The validated integration from exact rational data near `cfg` (rational unit tokens, heads and beta within
    1/CERTIFIED_DENOMINATOR): enclosure.npz (times, the boxes' ends rounded outwards, widths) and the width figure."""
    from fractions import Fraction

    import numpy as np
    from headflow.certificates.provers.validated import enclose
    from headflow.certificates.provers.witness import round_configuration
    from headflow.checks.reports import plots

    if (refusal := certified_refusal(args, cfg)) is not None:
        raise refusal
    M = cfg.score_matrices
    exact = round_configuration(
        cfg.tokens,
        M,
        M if np.array_equal(cfg.values, M) else cfg.values,
        cfg.beta,
        CERTIFIED_DENOMINATOR,
        symmetric=bool(np.array_equal(M, np.transpose(M, (0, 2, 1)))),
        geometry=cfg.geometry,
        attention=cfg.attention,
        symmetric_values=bool(np.array_equal(cfg.values, np.transpose(cfg.values, (0, 2, 1)))),
    )
    enclosure = enclose(exact, Fraction(args.T), tolerance=args.rtol, max_steps=int(args.max_steps))
    out = Path(args.out)
    times = np.array([float(t) for t in enclosure.times()])
    widths = np.array(enclosure.widths())
    boxes = enclosure.boxes()
    low = np.array([[np.nextafter(float(b.lower()), -np.inf) for b in box] for box in boxes])
    high = np.array([[np.nextafter(float(b.upper()), np.inf) for b in box] for box in boxes])
    buffer = io.BytesIO()
    np.savez_compressed(buffer, times=times, widths=widths, lower=low, upper=high, status=enclosure.status)
    written = [write_bytes_atomic(out / "enclosure.npz", buffer.getvalue())]
    if not args.no_plots:
        written += plots.save(plots.enclosure_width_figure(times, widths), out / "enclosure_width")
    print(
        f"certified enclosure: {len(enclosure.steps)} validated steps in {enclosure.seconds:.3g} s, "
        f"largest width {widths[-1]:.3g} at t={times[-1]:.6g}"
    )
    print(enclosure.status if enclosure.reached else enclosure.status + " (the steps before are valid)")
    for path in written:
        print(path)
    return 0
