"""Time to a verdict for claims of each kind, and the strategy that decided it, with and without the general engine.

The claims are fixed (`benchmarks/engine_claims.toml`: identities, constants, inequalities, dynamics, true and false
variants). Each is decided twice in this process, quick profile, seed 0: by the whole engine, and by the baseline,
the strategies that existed before it (SymPy simplification, random points, interval covers, float trajectories),
with the SMT route, the algebraic reduction and the exact equiangular route switched off. Printed per claim: both
verdicts, both times, the deciding strategy and the ratio baseline / engine (> 1: the engine is faster; a stronger
verdict in less time is the point). Run `python benchmarks/engine.py` from the repository root (or
`python -m benchmarks`).
"""

from __future__ import annotations

import contextlib
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from headflow.checks import api
from headflow.checks.claimsfile import dynamics_decider, identity_decider, inequality_decider

CLAIMS = Path(__file__).with_name("engine_claims.toml")


@contextlib.contextmanager
def baseline_strategies() -> Iterator[None]:
    """The engine without the strategies added for user claims: each reports that it is off."""
    off = "off in the baseline"
    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch.object(identity_decider, "decide_smt", lambda *_: off))
        stack.enter_context(mock.patch.object(inequality_decider, "decide_smt", lambda *_: off))
        stack.enter_context(mock.patch.object(identity_decider, "prove_identity", lambda *_: (None, off)))
        stack.enter_context(mock.patch.object(dynamics_decider, "decide_exactly", lambda *_: None))
        yield


def _decide(folder: Path) -> dict[str, tuple[str, str, float]]:
    """Each claim's verdict, deciding method and seconds."""
    rows = {}
    for claim in api.check(CLAIMS, certificates=folder).claims:
        rows[claim.id] = (claim.verdict.value, claim.procedures[0].get("method", ""), claim.seconds)
    return rows


def run() -> list[dict[str, object]]:
    """Decide the claims with the engine and with the baseline; print and return one row per claim."""
    with tempfile.TemporaryDirectory() as folder:
        engine = _decide(Path(folder) / "engine")
        with baseline_strategies():
            baseline = _decide(Path(folder) / "baseline")
    print(f"\n{'claim':<44}{'engine':<13}{'s':>7}  {'baseline':<13}{'s':>7}  strategy that decided (engine)")
    rows: list[dict[str, object]] = []
    for claim_id, (verdict, method, seconds) in engine.items():
        base_verdict, _, base_seconds = baseline[claim_id]
        print(f"{claim_id:<44}{verdict:<13}{seconds:>7.2f}  {base_verdict:<13}{base_seconds:>7.2f}  {method[:70]}")
        rows.append(
            {
                "benchmark": "engine",
                "case": f"{claim_id}: {verdict} ({base_verdict} without the engine)",
                "seconds": seconds,
                "strategy": method,
                "baseline": "strategies before the engine",
                "baseline_seconds": base_seconds,
                "ratio": base_seconds / max(seconds, 1e-6),
            }
        )
    return rows


if __name__ == "__main__":
    from benchmarks import results

    results.save("engine", run())
