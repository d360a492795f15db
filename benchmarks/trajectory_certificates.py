"""Benchmark: trajectory certificates (a chain of steps the kernel replays) against the Lohner enclosure, same start.

Run from the repository root: `python benchmarks/trajectory_certificates.py` (n x d = 6 and 16 to T = 10, a few
minutes on two cores), `--sizes 3x2,4x4,8x8` for others (8 x 8 to T = 10: about ten minutes to build and three to
replay).

For each size (softmax attention, one head M = W = I, beta = 1, the sphere; rational unit tokens from
`benchmarks.validated.configuration`, seed fixed) and horizon T: the chain (`certificates.provers.validated.replayable.
build_chain`, a statement the start satisfies with room: the largest cluster gap stays <= 2) is built to T and its
certificate replayed by the kernel (`check_file`), beside the Lohner enclosure (`enclose`, no certificate) in the same
process. Printed: steps, the end set's radius at T, the seconds (CPU) of the build, of the kernel's replay and of the
enclosure, and the ratios build / enclosure and replay / enclosure.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from headflow.certificates.exact_records import exact_record
from headflow.certificates.kernel import trajectory
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.validated import enclose
from headflow.certificates.provers.validated.replayable import build_chain
from headflow.certificates.store import write_certificate

from benchmarks import results
from benchmarks.validated import configuration

SIZES = ((3, 2), (4, 4))
HORIZONS = (Fraction(1), Fraction(10))
MAX_STEPS = 3_000


def statement(n: int, d: int, horizon: Fraction) -> dict:
    """The trajectory statement benchmarked: the largest gap 1 - <x_i, x_j> stays <= 2 on [0, T] (true everywhere)."""
    gap = ["-", ["num", "1"], ["inner", ["name", "x_i"], ["name", "x_j"]]]
    return {
        "form": trajectory.FORM,
        "claim": f"benchmark.{n}x{d}",
        "configuration": exact_record(configuration(n, d, "softmax")),
        "term": gap,
        "fixed": {},
        "over": "largest",
        "op": "<=",
        "bound": "2",
        "when": "always",
        "time": str(horizon),
    }


def measure(sizes: tuple[tuple[int, int], ...], horizons: tuple[Fraction, ...]) -> list[dict[str, object]]:
    rows = []
    columns = ("steps", 6), ("radius", 9), ("build", 8), ("replay", 8), ("lohner", 8), ("b/l", 6), ("r/l", 6)
    print(f"{'n x d':>6} {'T':>4} " + " ".join(f"{name:>{width}}" for name, width in columns))
    for n, d in sizes:
        for horizon in horizons:
            data = statement(n, d, horizon)
            parsed = trajectory.statement_of(data, data["claim"])
            started = time.process_time()
            chain = build_chain(parsed, horizon, MAX_STEPS)
            build = time.process_time() - started
            replay = float("nan")
            if not chain.stopped:
                with tempfile.TemporaryDirectory() as folder:
                    path = write_certificate(
                        Path(folder), data["claim"], "trajectory", chain.payload(False), None, data
                    )
                    started = time.process_time()
                    accepted = check_file(path).ok
                    replay = time.process_time() - started
                assert accepted, "the kernel rejected a chain its own step built"
            started = time.process_time()
            enclosure = enclose(parsed.cfg, horizon)
            lohner = time.process_time() - started
            row = {
                "n": n,
                "d": d,
                "T": float(horizon),
                "steps": len(chain.steps),
                "stopped": chain.stopped,
                "radius": float(chain.radius),
                "build_s": build,
                "replay_s": replay,
                "lohner_s": lohner,
                "lohner_reached": enclosure.reached,
            }
            rows.append(row)
            print(
                f"{n}x{d:<4} {float(horizon):>4g} {len(chain.steps):>6} {float(chain.radius):>9.2e} {build:>8.1f} "
                f"{replay:>8.1f} {lohner:>8.1f} {build / lohner:>6.1f} {replay / lohner:>6.1f}"
                + (f"  (stopped: {chain.stopped})" if chain.stopped else "")
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(f"{n}x{d}" for n, d in SIZES), help="n x d sizes, e.g. 3x2,8x8")
    args = parser.parse_args(argv)
    sizes = tuple(tuple(int(v) for v in size.split("x")) for size in args.sizes.split(","))
    rows = measure(sizes, HORIZONS)  # type: ignore[arg-type]
    results.save("trajectory-certificates", rows, sizes=args.sizes, horizons=[float(h) for h in HORIZONS])
    return 0


if __name__ == "__main__":
    sys.exit(main())
