"""Claims over every number H of heads and every family of per-head values, refuted at one family: the statement at
that H written out in the claim's own tree (one variable per head), its counterexample certificate re-checked by the
kernel, and `check-cert --claims` refusing a statement that is not the claim's at the H of its point.

Attacks: a head dropped from the statement (the sums written over fewer heads than the point's), an H outside the
claim's domain, a family whose heads must not be all equal, a name that a head's variable would take; a claim false
only on the boundary of the heads' domain (lambda_h = 0), refuted there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.counterexamples import certify_counterexample
from headflow.certificates.statements.head_families import family_statement, heads_of
from headflow.checks.rechecks import recheck

from tests.sample_claims import EXAMPLES, certificates_of, claims_of

HEADS = (EXAMPLES / "heads.toml").read_text()
FALSE = ("heads.only-two-heads", "heads.boundary")


def claim_of(text: str) -> Any:
    (claim,) = parse_claims(text)
    return claim


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return certificates_of(claims_of(HEADS, *FALSE), tmp_path_factory.mktemp("heads"))


@pytest.mark.parametrize("claim_id", FALSE)
def test_a_family_claim_refuted_at_one_family_carries_a_certificate(
    claim_id: str, certificates: dict[str, Path]
) -> None:
    checked = check_file(certificates[claim_id])
    assert checked.ok, checked.message
    assert f"claims-file claim {claim_id!r} is false" in checked.proved
    assert "lam_1" in checked.proved  # written out: one variable per head
    assert recheck(certificates[claim_id], claims={c.id: c for c in parse_claims(HEADS)}, read_claim=True).ok


def test_the_boundary_claim_fails_where_every_head_is_zero(certificates: dict[str, Path]) -> None:
    assert "fails at lam_1 = 0" in check_file(certificates["heads.boundary"]).proved


def test_a_statement_of_another_claim_text_is_refused_against_the_claims_file(tmp_path: Path) -> None:
    """A certificate embedding the claim but carrying the statement of an edited text (the mean over H - 1 heads):
    the kernel checks and prints what it carries; `--claims` elaborates the file's claim at the point's H and
    refuses it."""
    text = claims_of(HEADS, "heads.only-two-heads")
    claim = claim_of(text)
    edited = claim_of(text.replace('rhs = "2 * mean_h(lam_h)"', 'rhs = "2 * sum_h(lam_h) / (H - 1)"'))
    statement = family_statement(edited, 3)
    assert statement is not None and statement != family_statement(claim, 3)
    point = {"lam_1": "1", "lam_2": "1", "lam_3": "1"}
    path = certify_counterexample(claim, point, tmp_path, statement)
    assert path is None  # 3 <= 2 * 3 / 2 holds: no counterexample to write
    statement = family_statement(claim_of(text.replace('rhs = "2 * mean_h(lam_h)"', 'rhs = "mean_h(lam_h)"')), 3)
    path = certify_counterexample(claim, point, tmp_path, statement)
    assert path is not None and check_file(Path(path)).ok
    checked = recheck(Path(path), claims={c.id: c for c in parse_claims(HEADS)}, read_claim=True)
    assert not checked.ok
    assert "not the one claim" in checked.message


def test_no_statement_outside_the_domain_of_H_or_for_families_not_all_equal() -> None:
    two_heads = claim_of(claims_of(HEADS, "heads.only-two-heads"))
    assert family_statement(two_heads, 1) is None  # H >= 2
    assert family_statement(two_heads, 2) is not None
    assert family_statement(two_heads, 17) is None  # past MAX_HEADS
    concave = claim_of(claims_of(HEADS, "heads.superadditivity.concave"))
    assert concave.not_all_equal and family_statement(concave, 2) is None


def test_a_head_variable_never_takes_a_name_the_claim_has() -> None:
    text = claims_of(HEADS, "heads.only-two-heads").replace(
        'rhs = "2 * mean_h(lam_h)"', 'rhs = "lam_1 * mean_h(lam_h)"'
    )
    text = text.replace('lam_h = "positive" }', 'lam_h = "positive", lam_1 = "positive" }')
    claim = claim_of(text)
    assert family_statement(claim, 2) is None


def test_the_H_of_a_point_is_its_number_of_heads() -> None:
    claim = claim_of(claims_of(HEADS, "heads.only-two-heads"))
    assert heads_of(claim, {"lam_1": "1", "lam_2": "1", "lam_3": "2"}) == 3
    assert heads_of(claim, {}) == 0
