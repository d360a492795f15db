"""`headflow simulate`: integrate one configuration and save its trajectory and plots into a folder."""

from __future__ import annotations

import argparse
import io
import math
from pathlib import Path

import numpy as np

from checks import families, plots
from checks.atomic import write_bytes_atomic
from checks.config import ATTENTION_KINDS, GEOMETRIES, Configuration
from checks.errors import InputError
from checks.integrator import Trajectory, cluster_gap_below, integrate
from checks.progress import progress_bar

HELP = "integrate the dynamics of one configuration; save the trajectory (.npz) and plots (PNG, SVG)"
HEAD_FAMILIES = ("scalar", "symmetric", "orthogonal", "general")
TOKEN_FAMILIES = ("random", "orthogonal", "equiangular")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--n", type=int, default=16, help="number of tokens (default 16)")
    parser.add_argument("--d", type=int, default=3, help="dimension (default 3)")
    heads = parser.add_mutually_exclusive_group()
    heads.add_argument("--heads", type=int, metavar="H", help="number of heads of --head-family (default 1)")
    heads.add_argument("--lambdas", metavar="L1,L2,...", help="scalar heads M_h = lambda_h I, comma-separated")
    parser.add_argument("--head-family", choices=HEAD_FAMILIES, default="scalar", help="heads when --heads is given")
    parser.add_argument("--scale", type=float, default=1.0, help="head scale (lambda of scalar heads; default 1)")
    parser.add_argument("--tokens", choices=TOKEN_FAMILIES, default="random", help="initial tokens (default random)")
    parser.add_argument("--rho", type=float, default=0.0, help="inner product of equiangular tokens (default 0)")
    parser.add_argument("--beta", type=float, default=1.0, help="inverse temperature (default 1)")
    parser.add_argument("--attention", choices=ATTENTION_KINDS, default="softmax", help="default softmax")
    parser.add_argument("--geometry", choices=GEOMETRIES, default="sphere", help="default sphere")
    parser.add_argument("--T", type=float, default=10.0, help="final time (default 10)")
    parser.add_argument("--samples", type=int, default=201, help="recorded times, evenly spaced (default 201)")
    parser.add_argument("--rtol", type=float, default=1e-8, help="relative tolerance of the integrator")
    parser.add_argument("--stop-gap", type=float, metavar="TOL", help="stop once the cluster gap is <= TOL")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random families (default 0)")
    parser.add_argument("--out", required=True, metavar="DIR", help="folder for trajectory.npz and the plots")


def build_configuration(args: argparse.Namespace, rng: np.random.Generator) -> Configuration:
    """The initial configuration described by the options (every field validated)."""
    n, d = _at_least("n", args.n, 2), _at_least("d", args.d, 1)
    if args.tokens == "random":
        X = families.random_sphere_tokens(n, d, rng)
    elif args.tokens == "orthogonal":
        X = families.orthogonal_tokens(n, d, rng)
    else:
        X = families.equiangular_tokens(n, d, args.rho, rng)
    if args.lambdas is not None:
        M = families.scalar_heads(parse_lambdas(args.lambdas), d)
    else:
        H = _at_least("heads", 1 if args.heads is None else args.heads, 1)
        M = _heads(args.head_family, H, d, args.scale, rng)
    return Configuration.create(X, M, beta=args.beta, attention=args.attention, geometry=args.geometry)


def parse_lambdas(text: str) -> list[float]:
    """Comma-separated finite numbers (parsed with float, never evaluated)."""
    values = []
    for item in text.split(","):
        try:
            value = float(item)
        except ValueError:
            raise InputError("--lambdas", text, f"{item.strip()!r} is not a number") from None
        if not math.isfinite(value):
            raise InputError("--lambdas", text, "every lambda must be finite")
        values.append(value)
    return values


def _heads(family: str, H: int, d: int, scale: float, rng: np.random.Generator) -> np.ndarray:
    if family == "scalar":
        return families.scalar_heads([scale] * H, d)
    if family == "symmetric":
        return families.random_symmetric_heads(H, d, rng, scale)
    if family == "orthogonal":
        return families.orthogonal_subspace_heads(H, d, rng, scale)
    return families.random_general_heads(H, d, rng, scale)


def _at_least(field: str, value: int, low: int) -> int:
    if value < low:
        raise InputError(f"--{field}", value, f"must be at least {low}")
    return value


def save_trajectory(cfg: Configuration, traj: Trajectory, path: Path) -> Path:
    """trajectory.npz: times, tokens (records x n x d), the heads, options, and every observable."""
    buffer = io.BytesIO()
    np.savez_compressed(
        buffer,
        times=traj.times,
        tokens=traj.states,
        scores=cfg.scores,
        values=cfg.values,
        beta=cfg.beta,
        attention=cfg.attention,
        geometry=cfg.geometry,
        status=traj.status,
        **traj.observables,
    )
    return write_bytes_atomic(path, buffer.getvalue())


def run(args: argparse.Namespace) -> int:
    samples = _at_least("samples", args.samples, 2)
    if not (math.isfinite(args.T) and args.T > 0):
        raise InputError("--T", args.T, "must be positive and finite")
    if not (math.isfinite(args.rtol) and 0 < args.rtol < 1):
        raise InputError("--rtol", args.rtol, "must lie in (0, 1)")
    if args.stop_gap is not None and not (math.isfinite(args.stop_gap) and args.stop_gap > 0):
        raise InputError("--stop-gap", args.stop_gap, "must be positive and finite")
    cfg = build_configuration(args, np.random.default_rng(args.seed))
    out = Path(args.out)
    events = () if args.stop_gap is None else (cluster_gap_below(args.stop_gap),)
    with progress_bar("simulating", samples) as advance:
        traj = integrate(
            cfg,
            args.T,
            rtol=args.rtol,
            atol=args.rtol * 1e-2,
            record_times=np.linspace(0.0, args.T, samples),
            events=events,
            on_record=lambda t: advance(f"t={t:.3g}"),
        )
    written = [save_trajectory(cfg, traj, out / "trajectory.npz")]
    values = traj.observables
    written += plots.save(plots.tokens_figure(traj.states, cfg.geometry), out / "tokens")
    written += plots.save(plots.energy_figure(traj.times, values["energy"], values["head_energies"]), out / "energy")
    written += plots.save(plots.entropy_figure(traj.times, values["entropies"], cfg.n), out / "entropy")
    written += plots.save(plots.gap_figure(traj.times, values["cluster_gap"]), out / "cluster_gap")
    written += plots.save(plots.condition8_figure(traj.times, values["condition8_margin"]), out / "condition8")
    print(
        f"{traj.status} at t={traj.t_end:.6g}: {traj.accepted} steps ({traj.rejected} rejected), "
        f"{traj.evaluations} velocity evaluations, cluster gap {values['cluster_gap'][-1]:.3g}"
    )
    for path in written:
        print(path)
    return 0
