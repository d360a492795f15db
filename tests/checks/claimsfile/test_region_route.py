"""Invariant regions (`stays-at-least c`, `stays-non-negative`): PROVED only through a model claim the exact reduction
proves (`checks.claimsfile.region_route`: monotone, bound, strict boundary), REFUTED only by a certified trajectory from
an exact start inside the region that leaves it (`validated_route`); examples/invariance.toml's verdicts pinned."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from headflow.certificates.claims.loader import load_claims, parse_claims
from headflow.certificates.claims.schema import ModelClaim, validate_claim
from headflow.certificates.statements.pointwise import region_claims
from headflow.checks.claimsfile.region_route import decide_region
from headflow.checks.registry import Context
from headflow.checks.verdicts import Verdict

from tests.checks.claimsfile.test_model_claims import decide

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "invariance.toml"
P, R, F, U = Verdict.PROVED, Verdict.REFUTED, Verdict.CONFIRMED, Verdict.INCONCLUSIVE
#: Every verdict of the examples file, as its comments say (and the route of each PROVED one).
EXPECTED = {
    "energy.stays-above": (P, "invariant region: monotone"),
    "energy.stays-above.non-symmetric": (R, None),
    "energy.stays-above.non-symmetric.random-starts": (U, None),
    "head-energy.softmax.stays-above.every-n": (P, "invariant region: monotone"),
    "entropy.stays-non-negative": (P, "invariant region: bound"),
    "orthant.attractive": (F, None),
    "orthant.repulsive": (R, None),
}

REGION = """
[[claim]]
id = "r"
kind = "dynamics"
quantity = "energy"
property = "stays-at-least"
bound = "{bound}"
tokens = "{tokens}"
n = 2
d = 2
beta = 1
time = 1
{heads}
"""
NON_SYMMETRIC = 'heads = "given"\nscores = [[[1, 2], ["-1/2", 1]]]'
START = 'points = [[1, 0], ["3/5", "4/5"]]'


def ctx() -> Context:
    return Context("quick", seed=5, certificate_dir=None, claim_id="r")


def claim_of(text: str):  # type: ignore[no-untyped-def]
    (claim,) = parse_claims(text, "t.toml")
    return claim


def test_the_examples_file_decides_as_its_comments_say(tmp_path: Path) -> None:
    results = decide(EXAMPLE.read_text(encoding="utf-8"), tmp_path)
    assert {key: verdict for key, (verdict, _) in results.items()} == {k: v for k, (v, _) in EXPECTED.items()}
    for key, (verdict, route) in EXPECTED.items():
        if route is not None:
            assert results[key][1]["details"]["route"] == route
        if verdict is R:  # a certified exit: a start inside the region and a later ball outside it
            witness = results[key][1]["witness"]
            assert witness["verified_by"] == "ball" and witness["time"] > 0
            assert "from a start inside the region" in witness["reading"]


def test_the_region_statements_are_what_the_route_says() -> None:
    claim = claim_of(REGION.format(bound="1/2", tokens="random-sphere", heads='heads = "random-symmetric"'))
    built = dict(region_claims(claim, Fraction(1, 2)))
    assert list(built) == ["monotone", "bound", "boundary"]
    assert built["monotone"].relation.text == "dE_dt >= 0" and not built["monotone"].given
    assert built["bound"].relation.text == "E >= 1/2"
    boundary = built["boundary"]
    assert boundary.relation.text == "dE_dt > 0"  # strict: the first-exit argument needs no constraint qualification
    assert [g.text for g in boundary.given] == ["E >= 1/2", "E <= 1/2"]
    for model in built.values():  # each renders a model claim that reads back to the same statement
        again = validate_claim(model.raw, model.line, None)
        assert isinstance(again, ModelClaim) and again.statement == model.statement
        assert [g.text for g in again.given] == [g.text for g in model.given]
    entropy = claim_of(
        REGION.format(bound="0", tokens="random-sphere", heads='heads = "random-general"\nattention = "softmax"')
        .replace('"energy"', '"attention_entropy"')
        .replace("time = 1\n", "")
    )
    # a given holds at every token: "entropy_h_i = c" there would be every entry on the boundary, not the boundary
    assert [route for route, _ in region_claims(entropy, Fraction(0))] == ["monotone", "bound"]


@pytest.mark.parametrize("bound", ["2", "1/2"])
def test_a_wrong_invariance_is_never_proved_through_the_model_claims(bound: str) -> None:
    """Non-symmetric scores: no model claim holds (the energy decreases somewhere), so the route does not answer."""
    claim = claim_of(REGION.format(bound=bound, tokens="random-sphere", heads=NON_SYMMETRIC))
    assert decide_region(claim, ctx()) is None


def test_a_wrong_invariance_from_an_exact_start_is_refuted_by_its_exit(tmp_path: Path) -> None:
    text = REGION.format(bound="2", tokens="given", heads=f"{NON_SYMMETRIC}\n{START}")
    verdict, outcome = decide(text, tmp_path)["r"]
    assert verdict is R and "validated enclosure" in outcome["method"]
    assert "the trajectory leaves the region" in outcome["witness"]["reading"]


def test_a_start_outside_the_region_refutes_nothing(tmp_path: Path) -> None:
    """E(0) = 2.3187 < 3: the one start is outside the hypothesis, the energy falling below 3 says nothing."""
    text = REGION.format(bound="3", tokens="given", heads=f"{NON_SYMMETRIC}\n{START}")
    verdict, outcome = decide(text, tmp_path)["r"]
    assert verdict is not R
    assert "the start is outside the region" in outcome["notes"]


def test_the_examples_parse_with_the_bound_in_the_statement() -> None:
    claims = {claim.id: claim for claim in load_claims(EXAMPLE)}
    assert set(claims) == set(EXPECTED)
    assert "stays at least 1/2" in claims["energy.stays-above"].statement
