"""examples/punctured.toml: inequalities on a punctured domain (`except`), the unique strict maximiser or minimiser of
f, PROVED from the sign of f' and REFUTED by a ball-verified point apart from the point left out; the attacks: a
claim false only at the puncture is not refuted there, a puncture that is not the extremum is refuted, the other
routes never see a punctured claim."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sympy as sp
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.errors import InputError
from headflow.checks.verdicts import Verdict

from tests.checks.claimsfile.test_model_claims import decide

ROOT = Path(__file__).resolve().parents[3]

EXPECTED = {
    "punctured.x-exp-x": Verdict.PROVED,
    "punctured.parabola": Verdict.PROVED,
    "punctured.rate-maximum": Verdict.PROVED,
    "punctured.rate-wrong-maximum": Verdict.REFUTED,
    "punctured.x-exp-x-minimum": Verdict.REFUTED,
}


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Verdict, dict]]:
    return decide((ROOT / "examples" / "punctured.toml").read_text(), tmp_path_factory.mktemp("certs"))


def test_every_example_is_decided_as_its_comment_says(examples: dict[str, tuple[Verdict, dict]]) -> None:
    assert {k: v for k, (v, _) in examples.items()} == EXPECTED


def test_the_lambert_maximiser_proof_cites_the_identity_and_proves_the_signs(
    examples: dict[str, tuple[Verdict, dict]],
) -> None:
    _, evidence = examples["punctured.rate-maximum"]
    texts = [step["text"] for step in evidence["steps"]]
    assert any("[cited lemma: Lambert W]" in t for t in texts)
    assert any("strictly monotone" in t and "checked by signs" in t for t in texts)


def test_a_refutation_is_a_ball_point_apart_from_the_puncture(examples: dict[str, tuple[Verdict, dict]]) -> None:
    _, evidence = examples["punctured.rate-wrong-maximum"]
    witness = evidence["witness"]
    assert witness["verified_by"] == "ball" and "apart_from" in witness


def test_a_refutation_carries_its_certificate_with_the_puncture_stated(
    examples: dict[str, tuple[Verdict, dict]], tmp_path: Path
) -> None:
    """The counterexample certificate states the point left out as a condition x - c != 0 that its point meets, and
    passes --claims; moved onto the puncture (where x e^(-x) > e^(-1) fails too, but the claim says nothing) it is
    refused by the kernel; with the condition dropped it is no longer the claim's statement."""
    from headflow.certificates.kernel.verify import check_file
    from headflow.checks.rechecks import recheck

    from tests.forging import forged_file

    text = (ROOT / "examples" / "punctured.toml").read_text()
    claims = {claim.id: claim for claim in parse_claims(text)}
    for claim_id in ("punctured.rate-wrong-maximum", "punctured.x-exp-x-minimum"):
        (path,) = examples[claim_id][1]["certificates"]
        conditions = json.loads(Path(path).read_text())["statement"]["conditions"]
        assert conditions[-1]["relation"] == "!=" and conditions[-1]["expression"][0] == "sub", conditions
        assert check_file(Path(path)).ok and recheck(Path(path), claims=claims, read_claim=True).ok
    (path,) = examples["punctured.x-exp-x-minimum"][1]["certificates"]

    def onto_the_puncture(data: dict) -> None:
        data["payload"]["point"] = {"x": "1"}

    def puncture_dropped(data: dict) -> None:
        data["statement"]["conditions"] = data["statement"]["conditions"][:-1]
        data["payload"]["conditions"] = data["payload"]["conditions"][:-2] + data["payload"]["conditions"][-1:]

    assert not check_file(forged_file(Path(path), tmp_path, onto_the_puncture, name="onto")).ok
    dropped = forged_file(Path(path), tmp_path, puncture_dropped, name="dropped")
    assert check_file(dropped).ok  # a true refutation of the claim without its puncture, which is not this claim
    checked = recheck(dropped, claims=claims, read_claim=True)
    assert not checked.ok and "elaborates" in checked.message, checked.message


CLAIM = """
[[claim]]
id = "c"
kind = "inequality"
lhs = "{lhs}"
op = "{op}"
rhs = "{rhs}"
domain = {{ x = {{ {domain} }} }}
"""


def test_a_claim_false_only_at_the_puncture_is_proved_not_refuted(tmp_path: Path) -> None:
    # x**2 > 0 fails at x = 0 only: with 0 left out it holds (0 is the strict minimiser of x**2)
    text = CLAIM.format(lhs="x**2", op=">", rhs="0", domain='except = "0"')
    assert decide(text, tmp_path)["c"][0] is Verdict.PROVED
    # without the puncture the same claim is false at x = 0
    assert decide(text.replace(', except = "0"', "").replace('except = "0"', ""), tmp_path)["c"][0] is Verdict.REFUTED


def test_a_puncture_next_to_the_extremum_is_refuted(tmp_path: Path) -> None:
    text = CLAIM.format(lhs="x * exp(-x)", op="<", rhs="exp(-1001/1000)", domain='except = "1001/1000"')
    verdict, evidence = decide(text, tmp_path)["c"]
    assert verdict is Verdict.REFUTED and evidence["witness"]["verified_by"] in ("ball", "exact")


def test_an_extremum_outside_the_domain_is_not_proved(tmp_path: Path) -> None:
    # 1 maximises x e^(-x) on the line, but the domain [2, 3] leaves it out: the claim (x e^(-x) < e^(-1)) is true
    # there, and this route (c strictly inside) does not prove it: never PROVED by a wrong argument
    text = CLAIM.format(lhs="x * exp(-x)", op="<", rhs="exp(-1)", domain='min = 2, max = 3, except = "1"')
    assert decide(text, tmp_path)["c"][0] is Verdict.INCONCLUSIVE


def test_a_puncture_must_be_a_formula() -> None:
    with pytest.raises(InputError, match="except"):
        parse_claims(CLAIM.format(lhs="x", op="<", rhs="1", domain="except = 1"), "t.toml")


def test_a_formula_sympy_rewrites_is_accepted_only_when_shown_unchanged() -> None:
    from headflow.certificates.inert import Exp, W
    from headflow.checks.claimsfile import maximiser

    n = sp.Symbol("n", positive=True)
    written = W((n - 1) / Exp(1))  # SymPy builds (n - 1) exp(-1) from the division
    assert maximiser.plain(written) == sp.LambertW((n - 1) * sp.exp(-1))
    assert maximiser._same(W((n - 1) * Exp(-1)), written)
    assert not maximiser._same(W((n - 1) * Exp(-1)), W(n / Exp(1)))  # a different argument is never identified
