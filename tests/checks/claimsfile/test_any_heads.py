"""Claims about any number H of heads: per-head symbols, sum_h/mean_h, decided for every H or refuted at one."""

from __future__ import annotations

import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.problems import ClaimsFileError
from headflow.certificates.statements.equiangular import REGISTRY_CLAIMS
from headflow.checks.claimsfile.deciders import decide
from headflow.checks.registry import Context
from headflow.checks.verdicts import Verdict

ROOT = Path(__file__).resolve().parents[3]
HEADS = ROOT / "examples" / "heads.toml"


def _decided(text: str, claim_id: str, tmp_path: Path) -> tuple[Verdict, dict]:
    (claim,) = [c for c in parse_claims(textwrap.dedent(text), "t.toml") if c.id == claim_id]
    outcome = decide(claim, Context("quick", seed=1, certificate_dir=tmp_path))
    return outcome.verdict, outcome.as_dict()


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Verdict, dict]]:
    directory = tmp_path_factory.mktemp("heads")
    text = HEADS.read_text()
    return {c.id: _decided(text, c.id, directory) for c in parse_claims(text, "heads.toml")}


def test_example_true_claims_are_proved_for_every_H(example: dict) -> None:
    for claim_id in ("heads.relu.rate", "heads.usa.collapse", "heads.jensen.squares", "heads.jensen.exp"):
        verdict, evidence = example[claim_id]
        assert verdict is Verdict.PROVED, (claim_id, evidence)


def test_example_false_claims_are_refuted_at_a_concrete_family(example: dict) -> None:
    false = [c for c in example if c.startswith("heads.") and example[c][0] is not Verdict.PROVED]
    assert len(false) >= 7
    for claim_id in false:
        verdict, evidence = example[claim_id]
        assert verdict is Verdict.REFUTED, (claim_id, evidence)


def test_a_target_true_only_for_one_head_is_refuted_at_H_above_one(example: dict) -> None:
    witness = example["heads.rate.only-one-head"][1]["witness"]
    strengths = witness["parameter_point"]["lam_h"].strip("[]").split(", ")
    assert len(strengths) >= 2  # H = 1 satisfies the target: only a larger H refutes it
    total = sum(Fraction(s) for s in strengths)  # softmax, n = 4: the exact rate is 2 Lambda
    assert Fraction(witness["exact_rate"]) == 2 * total


def test_a_statement_true_for_two_heads_is_refuted_at_three(example: dict) -> None:
    witness = example["heads.only-two-heads"][1]["witness"]
    size = int(witness["H"])
    assert size >= 3 and sum(int(m["heads"]) for m in witness["family"]) == size
    total = sum(Fraction(m["lam_h"]) * int(m["heads"]) for m in witness["family"])
    assert total > 2 * total / size  # the claim sum <= 2 mean fails at this family, recomputed here


def test_huge_H_is_sampled_as_a_few_members(example: dict) -> None:
    witness = example["heads.huge-H"][1]["witness"]
    assert int(witness["H"]) > 2_000_000 and len(witness["family"]) <= 4


@pytest.mark.parametrize("least", [10**12, 10**30])
def test_a_domain_of_H_that_starts_beyond_the_huge_sample_is_searched(least: int, tmp_path: Path) -> None:
    """H >= 10^12 (or 10^30: past numpy's integers): the search tries H from the domain's least value on, not none,
    and refutes a claim false for every family there, with its certificate; a true claim is not refuted."""
    text = f"""
        [[claim]]
        id = "beyond"
        kind = "inequality"
        lhs = "sum_h(lam_h)"
        op = "<="
        rhs = "2.5 * mean_h(lam_h) + 0.1"
        domain = {{ H = {{ min = {least}, integer = true }}, lam_h = "[1, 2]" }}
    """
    verdict, evidence = _decided(text, "beyond", tmp_path)
    assert verdict is Verdict.REFUTED, evidence
    assert int(evidence["witness"]["H"]) >= least and evidence["certificates"]
    true = text.replace('op = "<="', 'op = ">="').replace('rhs = "2.5 * mean_h(lam_h) + 0.1"', 'rhs = "mean_h(lam_h)"')
    assert _decided(true, "beyond", tmp_path)[0] is not Verdict.REFUTED


def test_boundary_families_refute(example: dict) -> None:
    assert example["heads.usa.boundary"][1]["witness"]["parameter_point"]["lam_h"].startswith("[0")
    assert example["heads.boundary"][1]["witness"]["family"][0]["lam_h"] == "0"


def test_equal_heads_refute_a_strict_jensen_claim(example: dict) -> None:
    witness = example["heads.superadditivity.equal-heads"][1]["witness"]
    assert len(witness["family"]) == 1 and witness["lhs"] == witness["rhs"]


SUPERADDITIVITY = """
[[claim]]
id = "sa"
kind = "inequality"
lhs = "sum_h(rate(lam_h, n, beta))"
op = "OP"
rhs = "H * rate(mean_h(lam_h), n, beta)"
not_all_equal = true
[claim.domain]
n = "integer>=2"
beta = "positive"
H = "integer>=2"
lam_h = { min = "LOW" }
"""


def test_superadditivity_for_every_H_is_proved_by_jensen_from_the_convex_regime(tmp_path: Path) -> None:
    verdict, evidence = _decided(SUPERADDITIVITY.replace("OP", ">").replace("LOW", "lambda_c(n, beta)"), "sa", tmp_path)
    assert verdict is Verdict.PROVED, evidence
    steps = " ".join(step["text"] for step in evidence["steps"])
    assert "rate(lambda, n, beta) exactly" in steps and "Jensen" in steps


def test_superadditivity_reversed_is_refuted(tmp_path: Path) -> None:
    verdict, _ = _decided(SUPERADDITIVITY.replace("OP", "<").replace("LOW", "lambda_c(n, beta)"), "sa", tmp_path)
    assert verdict is Verdict.REFUTED


def test_a_lower_end_below_lambda_c_is_not_proved(tmp_path: Path) -> None:
    """lambda_c(n, beta) - 1/10**6 reaches the concave side: the rate lemma does not apply (never PROVED)."""
    text = SUPERADDITIVITY.replace("OP", ">").replace("LOW", "lambda_c(n, beta) - 1/1000000")
    verdict, _ = _decided(text, "sa", tmp_path)
    assert verdict is not Verdict.PROVED


def test_a_concave_term_is_not_proved_convex(tmp_path: Path) -> None:
    text = """
    [[claim]]
    id = "log"
    kind = "inequality"
    lhs = "sum_h(log(lam_h))"
    op = ">="
    rhs = "H * log(mean_h(lam_h))"
    domain = { H = "integer>=1", lam_h = "positive" }
    """
    verdict, evidence = _decided(text, "log", tmp_path)
    assert verdict is Verdict.REFUTED, evidence  # log is concave: two unequal heads refute it


def test_H_equal_to_one_makes_a_strict_claim_vacuous_not_proved_wrongly(tmp_path: Path) -> None:
    """H = 1 with not_all_equal has no family; the claim still needs its proof for H >= 2."""
    text = SUPERADDITIVITY.replace("OP", ">").replace("LOW", "lambda_c(n, beta)").replace("integer>=2", "integer>=1", 2)
    verdict, _ = _decided(text, "sa", tmp_path)
    assert verdict is Verdict.PROVED


#: Theorem 22's late rate as the registry states it, under the id "rate", with its rate left to each test.
DYNAMICS = (
    REGISTRY_CLAIMS["T22.late-rate"]
    .replace('id = "T22.late-rate"', 'id = "rate"')
    .replace('rate = "2 * sum_h(lam_h)"', 'rate = "RATE"')
)


def test_late_rate_for_every_H_is_proved(tmp_path: Path) -> None:
    verdict, evidence = _decided(DYNAMICS.replace("RATE", "2 * sum_h(lam_h)"), "rate", tmp_path)
    assert verdict is Verdict.PROVED, evidence
    verdict, _ = _decided(DYNAMICS.replace("RATE", "2 * H * mean_h(lam_h)"), "rate", tmp_path)
    assert verdict is Verdict.PROVED


def test_a_wrong_rate_for_every_H_is_refuted_at_a_point(tmp_path: Path) -> None:
    verdict, evidence = _decided(DYNAMICS.replace("RATE", "2 * sum_h(lam_h) + 1/1000"), "rate", tmp_path)
    assert verdict is Verdict.REFUTED, evidence


def test_negative_strengths_are_not_proved(tmp_path: Path) -> None:
    """With lam_h real a head may pull apart: the symbolic signs do not close (never PROVED)."""
    text = DYNAMICS.replace("RATE", "2 * sum_h(lam_h)").replace('lam_h = "positive"', 'lam_h = "[-1, 1]"')
    verdict, _ = _decided(text, "rate", tmp_path)
    assert verdict is not Verdict.PROVED


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('rate = "RATE"', 'rate = "2 * lam_h"'), "inside sum_h"),
        (('rate = "RATE"', 'rate = "sum_h(sum_h(lam_h))"'), "do not nest"),
        (('H = "integer>=1"', 'H = "integer>=0"'), "min >= 1"),
        (('lambdas = "lam_h"', 'lambdas = "lam"'), "per-head"),
    ],
)
def test_bad_any_H_input_is_one_line_error(change: tuple[str, str], message: str) -> None:
    text = DYNAMICS.replace(*change).replace("RATE", "2 * sum_h(lam_h)")
    if change[1] == 'lambdas = "lam"':
        text = text.replace('lam_h = "positive"', 'lam = "positive"')
    with pytest.raises(ClaimsFileError, match=message):
        parse_claims(textwrap.dedent(text), "t.toml")


def test_sum_h_is_unknown_outside_claims_with_heads() -> None:
    text = '[[claim]]\nid = "x"\nkind = "inequality"\nlhs = "sum_h(x)"\nop = ">"\nrhs = "0"\ndomain = { x = "real" }\n'
    with pytest.raises(ClaimsFileError, match="unknown name 'sum_h'"):
        parse_claims(text, "t.toml")


def test_an_instance_writes_the_sums_out_over_its_family() -> None:
    (claim,) = parse_claims(textwrap.dedent(DYNAMICS.replace("RATE", "2 * sum_h(lam_h)")), "t.toml")
    from headflow.certificates.claims.schema import dynamics_instance

    point = {s: Fraction(1) for s in claim.order} | {claim.parameters["n"]: Fraction(3)}
    point[claim.parameters["d"]] = Fraction(3)
    point[claim.parameters["rho"]] = Fraction(1, 4)
    point[claim.parameters["lambdas"]] = [Fraction(1, 2), Fraction(1), Fraction(1, 2)]
    instance = dynamics_instance(claim, point)
    assert instance.options["H"] == 3 and instance.target == sp.Integer(4)


def test_integer_per_head_domains_are_not_proved_by_jensen(tmp_path: Path) -> None:
    """Convexity and definedness are proved on the real hull only: an integer per-head domain is left undecided."""
    text = """
    [[claim]]
    id = "int"
    kind = "inequality"
    lhs = "sum_h(lam_h**2)"
    op = ">="
    rhs = "H * mean_h(lam_h)**2"
    domain = { H = "integer>=1", lam_h = "integer" }
    """
    verdict, evidence = _decided(text, "int", tmp_path)
    assert verdict is Verdict.INCONCLUSIVE and "real per-head domain" in evidence["notes"]
