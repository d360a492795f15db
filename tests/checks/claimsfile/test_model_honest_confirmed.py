"""A `model` claim's CONFIRMED must be earned: not by configurations where its given conditions never held (the
claim was never tested), and not for a strict relation the search pushed to within float error of equality (floats
cannot tell it from one that fails exactly there). Both claims below are false."""

from __future__ import annotations

from pathlib import Path

import headflow.checks as checks
import pytest
from headflow.checks.verdicts import Verdict

#: No unit token has |x_i|^2 > 2: the given condition never holds, so the search never tests the claim. Orthogonal
#: heads on the sphere can have dE_h/dt < 0 (T17's certified witness), so "given dE_h/dt < 0 at head h, then
#: dE_h/dt >= 0" is false: the search meets the condition at one head (it was searched at every head at once, which
#: never happened, and left INCONCLUSIVE). dE/dt > 0 fails at every equilibrium.
CLAIMS = """
[[claim]]
id = "given-never-met"
kind = "model"
assume = ["symmetric-scores", "aligned-values"]
given = ["norm2(x_i) > 2"]
lhs = "dE_h_dt"
op = ">="
rhs = "1"

[[claim]]
id = "given-at-the-claims-head"
kind = "model"
assume = ["symmetric-scores", "aligned-values", "orthogonal-heads"]
given = ["dE_h_dt < 0"]
lhs = "dE_h_dt"
op = ">="
rhs = "0"

[[claim]]
id = "strict-monotone"
kind = "model"
assume = ["symmetric-scores", "aligned-values"]
lhs = "dE_dt"
op = ">"
rhs = "0"

[[claim]]
id = "monotone"
kind = "model"
assume = ["symmetric-scores", "aligned-values"]
lhs = "dE_dt"
op = ">="
rhs = "0"
"""


def _notes(report: checks.Report, claim_id: str) -> str:
    return " ".join(str(p.get("notes", "")) for p in report.claim(claim_id).procedures)


def test_untested_or_borderline_claims_are_not_confirmed(tmp_path: Path) -> None:
    report = checks.check(CLAIMS, certificates=tmp_path, progress=False)
    assert report.verdicts["given-never-met"] is Verdict.INCONCLUSIVE
    assert "held at 0 of the" in _notes(report, "given-never-met")
    assert report.verdicts["given-at-the-claims-head"] is Verdict.REFUTED
    assert report.verdicts["strict-monotone"] is Verdict.INCONCLUSIVE
    assert "within float error of equality" in _notes(report, "strict-monotone")
    assert report.verdicts["monotone"] is Verdict.PROVED  # the non-strict statement is Theorem 11


SIZES = """
[[claim]]
id = "few-heads"
kind = "model"
lhs = "H"
op = "<="
rhs = "3"

[[claim]]
id = "few-tokens"
kind = "model"
lhs = "n"
op = "<="
rhs = "5"
"""


def test_a_claim_false_only_beyond_small_sizes_is_refuted(tmp_path: Path) -> None:
    """The search draws larger sizes too: a statement false only for more heads or tokens is not confirmed."""
    report = checks.check(SIZES, certificates=tmp_path, progress=False)
    assert report.verdicts["few-heads"] is Verdict.REFUTED
    assert report.verdicts["few-tokens"] is Verdict.REFUTED


#: |sum_i x_i|^2 - sum_ij <x_i, x_j> is exactly 0 at every configuration and its float value rounding noise: ">= 1e-12"
#: is false everywhere, by 1e-12, far inside the violation tolerance (the symbolic route leaves the double sum).
NEAR_ZERO = """
[[claim]]
id = "zero-above-a-trillionth"
kind = "model"
assume = ["symmetric-scores", "aligned-values"]
lhs = "norm2(sum_i(x_i)) - sum_i(sum_j(inner(x_i, x_j)))"
op = ">="
rhs = "1/1000000000000"
"""


@pytest.mark.slow
def test_margins_within_their_rounding_error_are_no_evidence(tmp_path: Path) -> None:
    """It was CONFIRMED: every margin (about -1e-12) was above the violation tolerance and counted as a test. A margin
    beyond its float error bound, however small, is now decided by balls at exact data, which refute the claim with a
    certified witness; true claims over a domain the search reaches keep their CONFIRMED (the cluster gap of
    examples/quantities.toml)."""
    for seed in (0, 1):
        report = checks.check(NEAR_ZERO, certificates=tmp_path, seed=seed, progress=False)
        assert report.verdicts["zero-above-a-trillionth"] is Verdict.REFUTED, _notes(report, "zero-above-a-trillionth")
        assert report.claim("zero-above-a-trillionth").procedures[0]["witness"]["verified_by"] == "ball"
