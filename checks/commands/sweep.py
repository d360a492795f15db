"""`headflow sweep`: parameter sweeps on dask.distributed, saved as CSV plus a plot, resumable."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from headflow.certificates.errors import InputError
from headflow.checks.sweeps.kinds import SWEEPS

HELP = "run a parameter sweep on a local or remote dask cluster; results go to CSV and a plot"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("kind", choices=sorted(SWEEPS), help="; ".join(f"{k}: {s.help}" for k, s in SWEEPS.items()))
    names = sorted({p.name for s in SWEEPS.values() for p in s.parameters})
    for name in names:
        used = {k: p for k, s in SWEEPS.items() for p in s.parameters if p.name == name}
        parser.add_argument(
            f"--{name}",
            metavar="LIST",
            help="values: '2,4,8', ranges '2..64' or '0.5..2:1/4' (or names); default "
            + ", ".join(f"{p.default} ({k}; {p.bounds()})" for k, p in used.items()),
        )
    parser.add_argument("--workers", type=int, default=2, help="local cluster processes, 0..64 (0: serial, no dask)")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="use this dask scheduler instead")
    parser.add_argument("--out", metavar="DIR", default="sweeps", help="folder for <kind>.csv and <kind>.png")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    from headflow.certificates.atomic import write_bytes_atomic
    from headflow.checks.reports.plots import png_bytes
    from headflow.checks.sweeps.runner import run_sweep

    kind = SWEEPS[args.kind]
    if args.workers < 0:
        raise InputError("--workers", args.workers, "must be >= 0")
    own = {p.name for p in kind.parameters}
    for other in (p.name for s in SWEEPS.values() for p in s.parameters if p.name not in own):
        if getattr(args, other) is not None:
            raise InputError(f"--{other}", getattr(args, other), f"not a parameter of the {kind.name} sweep")
    points = kind.grid({p.name: getattr(args, p.name) for p in kind.parameters})
    out = Path(args.out) / f"{kind.name}.csv"
    rows = run_sweep(
        kind.task, points, out, workers=args.workers, scheduler=args.scheduler, show_progress=not args.no_progress
    )
    plot = write_bytes_atomic(out.with_suffix(".png"), png_bytes(kind.plot(rows)))
    sys.stdout.write(json.dumps({"sweep": kind.name, "points": len(rows), "csv": str(out), "plot": str(plot)}) + "\n")
    return 0
