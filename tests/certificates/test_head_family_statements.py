"""Claims over every number H of heads and every family of per-head values, refuted at one family: the statement for
the family's shape (one member on H - K + 1 heads, K - 1 on one each) written out in the claim's own tree, one
variable per member, H a variable of at least K; its counterexample certificate re-checked by the kernel, and
`check-cert --claims` refusing a statement that is not the claim's for the K of its point.

Attacks: the statement of an edited text (refused against the claims file), an H bounded below K, more than
MAX_MEMBERS members, a family of another shape, a family whose heads must not be all equal, a name that a member's
variable would take; a claim false only on the boundary of the heads' domain (lambda_h = 0) and one false only past
a million heads, refuted there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.counterexamples import certify_counterexample
from headflow.certificates.statements.head_families import MAX_MEMBERS, family_point, family_statement, members_of
from headflow.checks.rechecks import recheck

from tests.forging import forged_file
from tests.sample_claims import EXAMPLES, certificates_of, claims_of

HEADS = (EXAMPLES / "heads.toml").read_text()
FALSE = ("heads.only-two-heads", "heads.boundary", "heads.huge-H")


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
    assert "lam_1" in checked.proved  # written out: one variable per member
    assert recheck(certificates[claim_id], claims={c.id: c for c in parse_claims(HEADS)}, read_claim=True).ok


def test_the_boundary_claim_fails_where_every_head_is_zero(certificates: dict[str, Path]) -> None:
    assert "lam_1 = 0" in check_file(certificates["heads.boundary"]).proved


def test_a_statement_of_another_claim_text_is_refused_against_the_claims_file(tmp_path: Path) -> None:
    """A certificate embedding the claim but carrying the statement of an edited text (the mean without its factor
    2): the kernel checks and prints what it carries; `--claims` elaborates the file's claim for the point's members
    and refuses it."""
    text = claims_of(HEADS, "heads.only-two-heads")
    claim = claim_of(text)
    point = {"H": "3", "lam_1": "1", "lam_2": "1"}
    assert certify_counterexample(claim, point, tmp_path, family_statement(claim, 2)) is not None  # the claim's own
    edited = family_statement(claim_of(text.replace('rhs = "2 * mean_h(lam_h)"', 'rhs = "3 * mean_h(lam_h)"')), 2)
    assert edited is not None and edited != family_statement(claim, 2)
    assert certify_counterexample(claim, point, tmp_path, edited) is None  # 3 <= 3 * 3 / 3 holds: nothing to write
    edited = family_statement(claim_of(text.replace('rhs = "2 * mean_h(lam_h)"', 'rhs = "mean_h(lam_h)"')), 2)
    path = certify_counterexample(claim, point, tmp_path, edited)
    assert path is not None and check_file(Path(path)).ok
    checked = recheck(Path(path), claims={c.id: c for c in parse_claims(HEADS)}, read_claim=True)
    assert not checked.ok
    assert "not the one claim" in checked.message


def test_the_shape_needs_as_many_heads_as_members_and_unequal_heads_two_members() -> None:
    """K members need H >= K heads (the statement's lower bound of H, above the domain's own); an H bounded below K,
    more than MAX_MEMBERS members: no statement. A claim about families whose heads are not all equal has one from
    two members on, with the members' values not all equal as a condition (one member: none)."""
    boundary = claim_of(claims_of(HEADS, "heads.boundary"))  # H >= 1
    (heads,) = [v for v in family_statement(boundary, 3)["variables"] if v["name"] == "H"]  # type: ignore[index]
    assert heads["low"] == ["rat", "3"] and not heads["low_open"]
    assert family_statement(boundary, MAX_MEMBERS + 1) is None
    bounded = claim_of(
        claims_of(HEADS, "heads.boundary").replace('H = "integer>=1"', "H = { min = 1, max = 2, integer = true }")
    )
    assert family_statement(bounded, 2) is not None and family_statement(bounded, 3) is None
    concave = claim_of(claims_of(HEADS, "heads.superadditivity.concave"))
    assert concave.not_all_equal and family_statement(concave, 1) is None
    distinct = family_statement(concave, 3)["conditions"][-1]  # type: ignore[index]
    assert distinct["relation"] == ">" and str(distinct["expression"]).count("pow") == 3  # (1,2), (1,3), (2,3)


def test_unequal_heads_are_a_condition_the_counterexample_meets(tmp_path: Path) -> None:
    """The concave claim, refuted at a family of two distinct members, carries its certificate (Coq and --claims as
    for the others); the same certificate moved to equal members (where the claim says nothing) is refused."""
    text = claims_of(HEADS, "heads.superadditivity.concave")
    found = certificates_of(text, tmp_path)
    (path,) = found.values()
    assert check_file(path).ok
    assert recheck(path, claims={c.id: c for c in parse_claims(text)}, read_claim=True).ok

    def equal_members(data: dict[str, Any]) -> None:
        data["payload"]["point"]["lam_2"] = data["payload"]["point"]["lam_1"]

    assert not check_file(forged_file(path, tmp_path, equal_members)).ok


def test_a_family_of_another_shape_has_no_point() -> None:
    claim = claim_of(claims_of(HEADS, "heads.only-two-heads"))
    shaped = {"point": {}, "H": "5", "family": [{"lam_h": "1", "heads": "1"}, {"lam_h": "2", "heads": "4"}]}
    assert family_point(claim, shaped) == {"H": "5", "lam_1": "2", "lam_2": "1"}  # the member on most heads first
    other = {"point": {}, "H": "5", "family": [{"lam_h": "1", "heads": "2"}, {"lam_h": "2", "heads": "3"}]}
    assert family_point(claim, other) is None


def test_a_head_variable_never_takes_a_name_the_claim_has() -> None:
    text = claims_of(HEADS, "heads.only-two-heads").replace(
        'rhs = "2 * mean_h(lam_h)"', 'rhs = "lam_1 * mean_h(lam_h)"'
    )
    text = text.replace('lam_h = "positive" }', 'lam_h = "positive", lam_1 = "positive" }')
    claim = claim_of(text)
    assert family_statement(claim, 2) is None


def test_the_members_of_a_point_are_its_per_head_names() -> None:
    claim = claim_of(claims_of(HEADS, "heads.only-two-heads"))
    assert members_of(claim, {"H": "7", "lam_1": "1", "lam_2": "1", "lam_3": "2"}) == 3
    assert members_of(claim, {}) == 0


TWO_SYMBOLS_AND_A_LOG = """
[[claim]]
id = "two.symbols"
kind = "inequality"
lhs = "sum_h(lam_h * mu_h)"
op = "<="
rhs = "mean_h(lam_h) * sum_h(mu_h)"
domain = { H = "integer>=2", lam_h = "[0, 1]", mu_h = "[0, 1]" }

[[claim]]
id = "log.mean"
kind = "inequality"
lhs = "log(mean_h(exp(lam_h)))"
op = "<"
rhs = "mean_h(lam_h) + 1/1000"
domain = { H = "integer>=1", lam_h = "[0, 3]" }
"""


def test_two_per_head_symbols_and_a_logarithm_of_a_mean_are_written_out(tmp_path: Path) -> None:
    """Chebyshev's sum inequality the wrong way round (two per-head symbols) and Jensen's the wrong way for log-sum-exp
    (a definedness condition per member): each refuted, certified and held to the claims file."""
    found = certificates_of(TWO_SYMBOLS_AND_A_LOG, tmp_path)
    assert set(found) == {"two.symbols", "log.mean"}
    claims = {c.id: c for c in parse_claims(TWO_SYMBOLS_AND_A_LOG)}
    for path in found.values():
        checked = recheck(path, claims=claims, read_claim=True)
        assert checked.ok, checked.message
    assert "mu_2" in check_file(found["two.symbols"]).proved


BOUND_IN_H = """
[[claim]]
id = "dep.bound"
kind = "inequality"
lhs = "sum_h(lam_h)"
op = "<"
rhs = "H"
domain = { H = "integer>=1", lam_h = { min = 0, max = "H" } }
"""


def test_a_per_head_bound_in_H_is_searched_at_its_ends_and_certified(tmp_path: Path) -> None:
    """sum_h lam_h < H with lam_h in [0, H] fails where the heads sit at the ends 0 and H (at H = 1: lam = 1): the
    search tries the ends of a bound that depends on H, and the certificate states the bound as the variable H."""
    (path,) = certificates_of(BOUND_IN_H, tmp_path).values()
    checked = recheck(path, claims={c.id: c for c in parse_claims(BOUND_IN_H)}, read_claim=True)
    assert checked.ok, checked.message
    statement = json.loads(path.read_text())["statement"]
    (member,) = [v for v in statement["variables"] if v["name"] == "lam_1"]
    assert member["high"] == ["sym", "H"]
