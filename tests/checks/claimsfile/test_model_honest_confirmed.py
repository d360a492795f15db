"""A `model` claim's CONFIRMED must be earned: not by configurations where its given conditions never held (the
claim was never tested), and not for a strict relation the search pushed to within float error of equality (floats
cannot tell it from one that fails exactly there). Both claims below are false."""

from __future__ import annotations

from pathlib import Path

import checks
from checks.verdicts import Verdict

#: Orthogonal heads on the sphere can have dE_h/dt < 0 (T17's certified witness), so "given dE_h/dt < 0, then
#: dE_h/dt >= 0" is false; the plain search never meets the given condition. dE/dt > 0 fails at every equilibrium.
CLAIMS = """
[[claim]]
id = "given-never-met"
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
