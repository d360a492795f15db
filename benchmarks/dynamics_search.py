"""How hard the float evidence of dynamics claims looks: per claim the verdict, the evaluations spent, the best margin.

The claims are fixed (`benchmarks/dynamics_claims.toml`: true claims and false ones that live on thin sets or
are off by less than the old blanket tolerances). Each is decided in this process, quick profile, seed 0 (pass
`thorough` for the thorough profile). Printed per claim: the verdict, the adversarial search's evaluations
(pointwise claims) or the number of starts (trajectory claims), the best margin (negative: a violation found;
relative to the quantity's scale) and the seconds. A search that gets stronger finds the false claims' violations
in fewer evaluations, or finds more of them. The pointwise route (a dynamics claim decided through its model claim
at every configuration, `checks.claimsfile.pointwise_route`) is set aside here, as it would decide several of these
claims before any search: this benchmark measures the float evidence. Run `python benchmarks/dynamics_search.py`
from the repository root.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from headflow.checks import api
from headflow.checks.claimsfile import dynamics_decider

CLAIMS = Path(__file__).with_name("dynamics_claims.toml")


def run(profile: str = "quick") -> list[dict[str, object]]:
    """Decide every claim; print and return one row per claim."""
    with dynamics_decider.float_evidence_only(), tempfile.TemporaryDirectory() as folder:
        report = api.check(CLAIMS, profile=profile, certificates=folder)
    print(f"\n{'claim':<30}{'verdict':<14}{'evaluations':>12}{'starts':>8}{'best margin':>14}{'s':>8}")
    rows: list[dict[str, object]] = []
    for claim in report.claims:
        evidence = claim.procedures[0]
        details = evidence.get("details", {})
        search = details.get("search", {})
        evaluations = int(search.get("evaluations", 0))
        starts = int(details.get("starts", details.get("trajectories", {}).get("cases") or 0))
        margin = float(search.get("best_margin", evidence.get("worst_margin", float("nan"))))
        verdict = claim.verdict.value
        print(f"{claim.id:<30}{verdict:<14}{evaluations:>12}{starts:>8}{margin:>14.4g}{claim.seconds:>8.2f}")
        rows.append(
            {
                "benchmark": "dynamics_search",
                "case": claim.id,
                "verdict": verdict,
                "evaluations": evaluations,
                "starts": starts,
                "best_margin": margin,
                "seconds": claim.seconds,
            }
        )
    return rows


if __name__ == "__main__":
    from benchmarks import results

    chosen = sys.argv[1] if len(sys.argv) > 1 else "quick"
    results.save("dynamics_search", run(chosen), profile=chosen)
