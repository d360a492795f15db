"""A float margin is compared with the first-order bound of its rounding error (issue 39 item 3): a claim false only
by 1e-15 (the largest gap between two tokens is 2, at an antipodal pair; the claim says 2 - 1e-15) has a float margin
of -6.7e-16, below the old violation threshold and within rounding of 0, and was CONFIRMED; balls at exact data now
decide that margin and refute the claim with a certified witness. The true claim (gap <= 2, attained) stays
CONFIRMED, its worst margin shown with its bound."""

from __future__ import annotations

from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel.verify import check_file
from headflow.checks.claimsfile.model_decider import decide_model
from headflow.checks.registry import Context
from headflow.checks.verdicts import Verdict

GAP = """
[[claim]]
id = "gap"
kind = "model"
lhs = "cluster_gap"
op = "<="
rhs = "{rhs}"
[claim.domain]
n = {{ min = 2, max = 4 }}
d = {{ min = 2, max = 4 }}
H = {{ min = 1, max = 2 }}
beta = "[1/2, 2]"
"""


def _decide(rhs: str, seed: int, folder: Path) -> object:
    claim = parse_claims(GAP.format(rhs=rhs))[0]
    return decide_model(claim, Context("quick", seed=seed, certificate_dir=folder, claim_id=claim.id))


@pytest.mark.parametrize("seed", [0, 1])
def test_a_claim_false_only_past_float_precision_is_refuted(tmp_path: Path, seed: int) -> None:
    outcome = _decide("2 - 1/10**8/10**7", seed, tmp_path)
    assert outcome.verdict is Verdict.REFUTED, outcome.notes
    assert -1e-14 < outcome.witness["float_relative_margin"] < 0
    certificates = sorted(tmp_path.rglob("*.json"))
    assert certificates and all(check_file(path).ok for path in certificates)


def test_a_true_claim_attained_shows_its_worst_margin_with_its_bound(tmp_path: Path) -> None:
    outcome = _decide("2", 0, tmp_path)
    assert outcome.verdict is Verdict.CONFIRMED, outcome.notes
    assert outcome.error_bound is not None and abs(outcome.worst_margin) <= outcome.error_bound < 1e-12
    assert f"its float error bound {outcome.error_bound:.3g}" in outcome.notes
    assert "margins within their float error bound, settled by balls" in outcome.notes
    assert outcome.as_dict()["error_bound"] == outcome.error_bound
