"""Claims of the normalization schemes and of the circle: the examples decided rightly, the exact routes' regimes,
and attacks (a scheme outside a route, negative strengths, a near-miss target, a forged or non-unit witness)."""

from __future__ import annotations

import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.errors import InputError
from headflow.certificates.kernel.verify import check_file
from headflow.checks.claimsfile import circle_route, scheme_reduction
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict

from tests.checks.claimsfile.claim_texts import claim_text, gap_claim
from tests.forging import forged_file

ROOT = Path(__file__).resolve().parents[3]


def decide(text: str, directory: Path, only: str | None = None) -> dict[str, tuple[Verdict, dict]]:
    """The verdict and evidence of each claim of `text` (only the claim `only` when it is given)."""
    claims = parse_claims(textwrap.dedent(text), "t.toml")
    registry = register_claims([claim for claim in claims if only in (None, claim.id)])
    results = run_claims(registry.claims(), Context("quick", seed=0, certificate_dir=directory))
    assert not any(r.crashed for r in results)
    return {r.claim.id: (r.verdict, r.outcomes[0][1].as_dict()) for r in results}


NORMALIZATION = {
    "pre-ln.energy-non-decreasing": Verdict.PROVED,
    "pre-ln.norm-non-decreasing": Verdict.REFUTED,
    "pre-ln.equiangular-collapse": Verdict.PROVED,
    "pre-ln.exponential-rate": Verdict.REFUTED,
    "ngpt.rate-two": Verdict.PROVED,
    "ngpt.post-ln-rate": Verdict.REFUTED,
    "mix-ln.softmax-energy-non-decreasing": Verdict.PROVED,
    "peri-ln.softmax-two-heads-energy": Verdict.REFUTED,
}
CIRCLE = {
    "circle.equally-spaced.stays": Verdict.PROVED,
    "circle.equally-spaced.arc": Verdict.PROVED,
    "circle.equally-spaced.synchronize": Verdict.REFUTED,
    "circle.R-non-decreasing": Verdict.REFUTED,
    "circle.pythagorean.R-non-decreasing": Verdict.REFUTED,
    "circle.two-clusters.rate": Verdict.PROVED,
    "circle.two-clusters.per-token-rate": Verdict.REFUTED,
    "circle.two-clusters.R-non-decreasing": Verdict.PROVED,
    "circle.angles.equally-spaced": Verdict.PROVED,
    "circle.angles.arc-bounded": Verdict.PROVED,
}


@pytest.mark.parametrize(("name", "expected"), [("normalization", NORMALIZATION), ("circle", CIRCLE)])
def test_the_examples_are_decided_rightly(name: str, expected: dict[str, Verdict], tmp_path: Path) -> None:
    verdicts = decide((ROOT / "examples" / f"{name}.toml").read_text(), tmp_path)
    assert {claim_id: verdict for claim_id, (verdict, _) in verdicts.items()} == expected
    for claim_id, (verdict, evidence) in verdicts.items():
        if verdict is Verdict.REFUTED:
            assert evidence["witness"]["verified_by"] in ("ball", "exact"), claim_id


def test_the_witnesses_of_the_new_rates_pass_check_cert_and_forged_ones_fail(tmp_path: Path) -> None:
    """The token_norm_rate witness of Pre-LN re-checks; the same witness with one token off the sphere (its checksum
    recomputed), or claimed for Post-LN, is rejected: x/|x| of non-unit exact data is not exact."""
    verdicts = decide((ROOT / "examples" / "normalization.toml").read_text(), tmp_path, "pre-ln.norm-non-decreasing")
    certificate = Path(verdicts["pre-ln.norm-non-decreasing"][1]["witness"]["certificate"])
    assert check_file(certificate).ok

    def off_the_sphere(data: dict) -> None:
        row = data["payload"]["configuration"]["tokens"][0]
        data["payload"]["configuration"]["tokens"][0] = [str(2 * Fraction(v)) for v in row]

    def post_ln(data: dict) -> None:
        data["payload"]["configuration"]["geometry"] = "sphere"

    for edit in (off_the_sphere, post_ln):
        result = check_file(forged_file(certificate, tmp_path, edit, name=edit.__name__))
        assert not result.ok, edit.__name__


def _circle(claim_id: str, **fields: str) -> str:
    base = {"heads": '"scalar"', "lambdas": "[1.0]", "tokens": '"equally-spaced"', "n": "6", "d": "2", "beta": "1.0"}
    return claim_text(claim_id, **(base | fields))


def test_the_equally_spaced_route_decides_exact_values_and_leaves_what_only_balls_see(tmp_path: Path) -> None:
    text = "".join(
        [
            # n = 6: cluster gap 1 - cos(pi) = 2, largest inner product cos(pi/3) = 1/2: exact rationals (Niven)
            _circle("gap", quantity='"cluster_gap"', property='"tends-to"', limit='"2"'),
            _circle("largest", quantity='"largest_inner_product"', property='"at-most"', bound='"1/2"'),
            _circle("largest.below", quantity='"largest_inner_product"', property='"at-most"', bound='"0.4999"'),
            _circle("R.nondecreasing", quantity='"order_parameter"', property='"non-decreasing"'),
            _circle("R.decays", quantity='"order_parameter"', property='"decays-at-rate"', rate='"1"'),
            # n = 5: cos(2 pi/5) = (sqrt(5) - 1)/4 is irrational: equal only by balls, so not PROVED by this route
            _circle(
                "n5.largest", quantity='"largest_inner_product"', property='"tends-to"', limit='"(sqrt(5)-1)/4"', n="5"
            ),
            _circle("n5.largest.off", quantity='"largest_inner_product"', property='"tends-to"', limit='"0.3"', n="5"),
        ]
    )
    verdicts = decide(text, tmp_path)
    assert verdicts["gap"][0] is Verdict.PROVED and verdicts["largest"][0] is Verdict.PROVED
    assert verdicts["largest.below"][0] is Verdict.REFUTED
    assert verdicts["R.nondecreasing"][0] is Verdict.PROVED
    assert verdicts["R.decays"][0] is Verdict.REFUTED
    assert verdicts["n5.largest"][0] in (Verdict.CONFIRMED, Verdict.INCONCLUSIVE)  # never PROVED by balls alone
    assert verdicts["n5.largest.off"][0] is Verdict.REFUTED


def test_routes_stay_out_where_their_statement_does_not_hold() -> None:
    """Pre-LN with a negative strength (|x| can shrink to 0), arc spread in d = 3, general heads, flat geometry:
    neither route applies (the float evidence decides)."""
    claims = parse_claims(
        textwrap.dedent(
            "".join(
                [
                    _circle(
                        "neg",
                        geometry='"pre-ln"',
                        lambdas="[-1.0]",
                        quantity='"order_parameter"',
                        property='"tends-to"',
                        limit='"0"',
                    ),
                    _circle("d3", d="3", quantity='"arc_spread"', property='"tends-to"', limit='"5*pi/3"'),
                    _circle(
                        "flat", geometry='"flat"', quantity='"order_parameter"', property='"tends-to"', limit='"0"'
                    ),
                    gap_claim("scheme.neg", "tends-to", "0", "usa", "[1.0, -0.5]", "0.2", geometry='"pre-ln"'),
                    gap_claim("scheme.flat", "tends-to", "0", "usa", "[1.0]", "0.2", geometry='"flat"'),
                ]
            )
        ),
        "t.toml",
    )
    by_id = {claim.id: claim for claim in claims}
    for claim_id in ("neg", "d3", "flat"):
        assert not circle_route.applies(by_id[claim_id]), claim_id
    for claim_id in ("scheme.neg", "scheme.flat"):
        assert not scheme_reduction.applies(by_id[claim_id]), claim_id


def test_the_scheme_route_refutes_exponential_rates_of_every_direction_scheme(tmp_path: Path) -> None:
    text = "".join(
        gap_claim(f"{g}.rate", "decays-at-rate", "2", "usa", "[1.0]", "0.2", geometry=f'"{g}"')
        for g in ("pre-ln", "peri-ln", "mix-ln")
    ) + gap_claim("ngpt.softmax", "decays-at-rate", "2", "softmax", "[0.5, 2.0]", "-0.1", geometry='"ngpt"')
    verdicts = decide(text, tmp_path)
    powers = {g: verdicts[f"{g}.rate"][1]["witness"]["power"] for g in ("pre-ln", "peri-ln", "mix-ln")}
    assert all(verdicts[f"{g}.rate"][0] is Verdict.REFUTED for g in powers)
    assert powers == {"pre-ln": "2", "peri-ln": "2", "mix-ln": "8/3"}
    assert verdicts["ngpt.softmax"][0] is Verdict.PROVED


def test_model_claims_refuse_a_normalization_scheme() -> None:
    text = """
    [[claim]]
    id = "m"
    kind = "model"
    lhs = "1"
    op = "="
    rhs = "1"
    geometry = "pre-ln"
    """
    with pytest.raises(InputError, match="dynamics claims"):
        parse_claims(textwrap.dedent(text), "t.toml")


def test_an_unknown_scheme_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="expected one of"):
        parse_claims(textwrap.dedent(_circle("x", geometry='"post-ln"', quantity='"order_parameter"',
                                             property='"non-decreasing"')), "t.toml")  # fmt: skip
