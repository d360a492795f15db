"""Sums and pairs in model claims: a second token j and head g, double sums, products of sums, ranges of the sizes.

True statements are PROVED for all n, d, H (or on their ranges) by the Gram reduction over several dummy tokens and
head sums of higher degree; false ones are REFUTED by an exact configuration whose certificate `check-cert`
re-checks; the attacks: a claim false only at n = 2, only at H = 1, false only outside its range, an unbound index,
forged certificates.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np
import pytest
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.model_algebra import evaluate
from headflow.certificates.claims.model_claim import parse_term
from headflow.certificates.claims.problems import ClaimsFileError
from headflow.certificates.model_balls import term_ball
from headflow.certificates.provers.witness import round_configuration
from headflow.certificates.store import build_certificate
from headflow.checks.claimsfile.model_reduction import prove_model
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.evidence.model_witnesses import float_algebra
from headflow.checks.model import families
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict

from tests.checking import verify_file
from tests.command import headflow
from tests.sample_claims import claims_of

ROOT = Path(__file__).resolve().parents[3]
ORTHOGONAL = ["symmetric-scores", "aligned-values", "orthogonal-heads"]


def claim_text(claim_id: str, lhs: str, op: str, rhs: str, domain: str = "", **extra: object) -> str:
    fields = {"id": claim_id, "kind": "model", "lhs": lhs, "op": op, "rhs": rhs, **extra}
    text = "[[claim]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in fields.items())
    return text + (f"[claim.domain]\n{domain}\n" if domain else "") + "\n"


def decide(text: str, directory: Path) -> dict[str, tuple[Verdict, dict]]:
    registry = register_claims(parse_claims(textwrap.dedent(text), "t.toml"))
    results = run_claims(registry.claims(), Context("quick", seed=3, certificate_dir=directory))
    assert not any(r.crashed for r in results)
    return {r.claim.id: (r.verdict, r.outcomes[0][1].as_dict()) for r in results}


def proved(lhs: str, op: str, rhs: str, domain: str = "", **extra: object) -> bool:
    (claim,) = parse_claims(claim_text("c", lhs, op, rhs, domain, **extra), "t.toml")
    return prove_model(claim).proved


SUMS = (ROOT / "examples" / "sums.toml").read_text()
#: A false example whose refuting configuration the search takes seconds to find: decided in the slow test.
SEARCHED = ("weighted-scores-without-symmetry",)


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Verdict, dict]]:
    return decide(claims_of(SUMS, *SEARCHED, keep=False), tmp_path_factory.mktemp("certs"))


def test_examples_true_proved_false_refuted_and_rechecked(examples: dict[str, tuple[Verdict, dict]]) -> None:
    assert not set(SEARCHED) & set(examples)
    false = [c for c in FALSE_EXAMPLES if c not in SEARCHED]
    assert len(false) >= 3
    assert_proved_and_refuted(examples, false, min_true=3)


@pytest.mark.slow
def test_searched_examples_refuted_and_rechecked(tmp_path: Path) -> None:
    searched = decide(claims_of(SUMS, *SEARCHED), tmp_path)
    assert set(searched) == set(SEARCHED)
    assert_proved_and_refuted(searched, SEARCHED, min_true=0)


def assert_proved_and_refuted(
    examples: dict[str, tuple[Verdict, dict]], false: list[str] | tuple[str, ...], min_true: int
) -> None:
    """The true examples decided (at least `min_true`) are PROVED; the `false` ones REFUTED by a ball-verified
    witness that re-checks."""
    true = [k for k, (v, _) in examples.items() if "without" not in k and k not in FALSE_EXAMPLES]
    assert len(true) >= min_true
    for claim_id in true:
        assert examples[claim_id][0] is Verdict.PROVED, (claim_id, examples[claim_id][1])
    for claim_id in false:
        verdict, evidence = examples[claim_id]
        assert verdict is Verdict.REFUTED, (claim_id, evidence)
        assert evidence["witness"]["verified_by"] == "ball"
        (path,) = evidence["certificates"]
        ok, message = verify_file(Path(path))
        assert ok, message


FALSE_EXAMPLES = (
    "pythagoras-without-orthogonality",
    "weighted-scores-without-symmetry",
    "norm-of-sum-bounded-by-n",
    "heads-any-number",
)


@pytest.mark.parametrize(
    ("lhs", "op", "rhs", "extra"),
    [
        ("norm2(sum_i(x_i))", "=", "sum_i(sum_j(inner(x_i, x_j)))", {"geometry": "flat"}),
        ("norm2(sum_i(x_i) / n)", "=", "sum_j(sum_i(inner(x_j, x_i))) / n**2", {}),
        ("sum_i(sum_j(norm2(x_i - x_j)))", "=", "2*n*sum_i(norm2(x_i)) - 2*norm2(sum_j(x_j))", {"geometry": "flat"}),
        ("sum_i(a_h_i)**2", "<=", "n * sum_i(a_h_i**2)", {}),
        ("sum_i(sum_j(s_h_ij))", "=", "sum_i(sum_j(s_h_ji))", {}),
        ("inner(sum_i(x_i), x_i)", "=", "sum_j(inner(x_i, x_j))", {}),
        ("sum_i(sum_j(w_h_ij))", ">", "0", {}),
        ("sum_i(sum_j(w_h_ij))", ">=", "0", {"attention": "relu"}),
        ("sum_i(sum_j(p_h_ij * p_h_ji))", ">", "0", {"attention": "softmax"}),
        ("sum_i(sum_j(p_h_ij))", "=", "n", {}),
        ("sum_j(w_h_ij)", "=", "1", {"attention": "softmax"}),
        ("sum_h(norm2(f_h_i))", "=", "sum_h(T_h_i) + sum_g(a_g_i**2)", {}),
        ("sum_h(norm2(f_h_i))", ">=", "sum_h(a_h_i**2)", {}),
        ("sum_h(sum_g(inner(f_h_i, f_g_i)))", "=", "norm2(F_i)", {"geometry": "flat"}),
        ("sum_h(sum_g(a_h_i * a_g_i))", "=", "inner(F_i, x_i)**2", {}),
        ("norm2(F_i)", "=", "sum_h(norm2(f_h_i))", {"assume": ORTHOGONAL}),
        ("norm2(sum_h(f_h_i))", "=", "norm2(F_i)", {}),
        ("sum_i(norm2(F_i))", "=", "sum_i(sum_h(norm2(f_h_i)))", {"assume": ORTHOGONAL}),
        ("sum_j(w_h_ij * s_h_ij)", "=", "sum_j(w_h_ji * s_h_ji)", {"assume": ["symmetric-scores"]}),
    ],
)
def test_general_sums_and_pairs_proved(lhs: str, op: str, rhs: str, extra: dict) -> None:
    assert proved(lhs, op, rhs, **extra)


@pytest.mark.parametrize(
    ("lhs", "op", "rhs", "extra"),
    [
        ("norm2(sum_i(x_i))", "=", "sum_i(norm2(x_i))", {}),  # the cross terms
        ("sum_i(a_h_i)**2", ">=", "n * sum_i(a_h_i**2)", {}),
        ("sum_i(a_h_i)**2", "<=", "sum_i(a_h_i**2)", {}),
        ("norm2(F_i)", "=", "sum_h(norm2(f_h_i))", {"assume": ["symmetric-scores", "aligned-values"]}),
        ("sum_j(w_h_ij * s_h_ij)", "=", "sum_j(w_h_ji * s_h_ji)", {}),
        ("sum_j(p_h_ij)", "=", "sum_j(p_h_ji)", {"attention": "softmax", "assume": ["symmetric-scores"]}),
        ("sum_j(p_h_ij * s_h_ij)", "=", "1", {}),  # a p that does not stand alone is not normalized away
        ("sum_i(sum_j(s_h_ij))", ">=", "0", {}),
        ("sum_h(a_h_i**2)", "<=", "(H - 1) * sum_h(a_h_i**2)", {}),  # false at H = 1
        ("sum_h(a_h_i**2)", "<=", "sum_h(a_h_i)**2", {}),
    ],
)
def test_false_or_unreduced_variants_not_proved(lhs: str, op: str, rhs: str, extra: dict) -> None:
    assert not proved(lhs, op, rhs, **extra)


def test_ranges_prove_with_the_lower_ends_and_keep_every_size() -> None:
    assert proved("sum_h(a_h_i**2)", "<=", "(H - 1) * sum_h(a_h_i**2)", "H = { min = 2 }")
    assert proved("(n - 3) * sum_i(norm2(x_i))", ">=", "0", 'n = "[3, 7]"')
    assert not proved("(n - 3) * sum_i(norm2(x_i))", ">=", "0", 'n = "[2, 7]"')
    assert proved("norm2(sum_i(x_i))", "=", "sum_i(sum_j(inner(x_i, x_j)))", "n = 4\nd = 3\nH = 2")
    (claim,) = parse_claims(claim_text("c", "E", ">", "0", "n = { min = 2, max = 5 }\nH = 2"), "t.toml")
    assert "2 <= n <= 5" in claim.statement and "H = 2" in claim.statement


@pytest.mark.slow
def test_false_only_at_two_tokens_refuted_there_and_not_on_a_range_without_it(tmp_path: Path) -> None:
    # |x_1 + ... + x_n|^2 >= n (3 - n): false at n = 2 (two tokens at an obtuse angle), true for n >= 3.
    text = claim_text("two", "sum_i(sum_j(inner(x_i, x_j)))", ">=", "n * (3 - n)")
    text += claim_text("three", "sum_i(sum_j(inner(x_i, x_j)))", ">=", "n * (3 - n)", "n = { min = 3 }")
    verdicts = decide(text, tmp_path)
    verdict, evidence = verdicts["two"]
    assert verdict is Verdict.REFUTED and evidence["witness"]["n"] == 2, evidence
    assert verify_file(Path(evidence["certificates"][0]))[0]
    assert verdicts["three"][0] in (Verdict.CONFIRMED, Verdict.INCONCLUSIVE), verdicts["three"]


def test_false_only_at_one_head_refuted_there(examples: dict[str, tuple[Verdict, dict]]) -> None:
    verdict, evidence = examples["heads-any-number"]
    assert verdict is Verdict.REFUTED and evidence["witness"]["H"] == 1
    assert examples["heads-at-least-two"][0] is Verdict.PROVED


def test_search_draws_inside_the_range(tmp_path: Path) -> None:
    # False for every size, but the witness must have n in [3, 4], H = 2, d = 5 and beta in [1, 2].
    text = claim_text("ranged", "norm2(sum_i(x_i))", "<=", "n", 'n = "[3, 4]"\nH = 2\nd = 5\nbeta = "[1, 2]"')
    verdict, evidence = decide(text, tmp_path)["ranged"]
    assert verdict is Verdict.REFUTED, evidence
    witness = evidence["witness"]
    assert witness["n"] in (3, 4) and witness["H"] == 2 and witness["d"] == 5
    assert verify_file(Path(evidence["certificates"][0]))[0]


def _forged(path: Path, change: object, directory: Path) -> Path:
    certificate = json.loads(path.read_text())
    payload, claim = certificate["payload"], certificate["claim"]
    change(payload, claim)  # type: ignore[operator]
    claim = embedded(parse_claims(claim["toml"], "forged.toml")[0])  # the edited claim, canonical: its statement
    out = directory / "forged.json"
    out.write_text(json.dumps(build_certificate(certificate["claim_id"], certificate["kind"], payload, claim)))
    return out


def _range_excluding_the_witness(payload: dict, claim: dict) -> None:  # the claim re-labelled as "for H >= 2"
    claim["toml"] = claim["toml"].rstrip("\n") + "\n[claim.domain]\nH = { min = 2 }\n"


def _range_excluding_n(payload: dict, claim: dict) -> None:
    n = len(payload["configuration"]["tokens"])
    claim["toml"] = claim["toml"].rstrip("\n") + f"\n[claim.domain]\nn = {{ min = {n + 1} }}\n"


def _orthogonality_claimed(payload: dict, claim: dict) -> None:  # the true claim, with the false witness
    claim["toml"] = claim["toml"].replace('["aligned-values", "symmetric-scores"]', json.dumps(ORTHOGONAL))
    claim["toml"] = claim["toml"].replace('["symmetric-scores", "aligned-values"]', json.dumps(ORTHOGONAL))
    payload["hypotheses"] = sorted([*ORTHOGONAL, "unit-tokens"])


def _moved_token(payload: dict, claim: dict) -> None:
    payload["at"] = {"i": len(payload["configuration"]["tokens"])}


@pytest.mark.parametrize(
    ("claim_id", "change"),
    [
        ("heads-any-number", _range_excluding_the_witness),
        ("norm-of-sum-bounded-by-n", _range_excluding_n),
        ("pythagoras-without-orthogonality", _orthogonality_claimed),
        ("pythagoras-without-orthogonality", _moved_token),
    ],
)
def test_forged_certificates_rejected(
    examples: dict[str, tuple[Verdict, dict]], tmp_path: Path, claim_id: str, change: object
) -> None:
    (path,) = examples[claim_id][1]["certificates"]
    ok, message = verify_file(_forged(Path(path), change, tmp_path))
    assert not ok, message


@pytest.mark.parametrize(
    ("fields", "domain", "reason"),
    [
        ({"lhs": "s_h_ij"}, "", "index j is not bound"),
        ({"lhs": "sum_i(inner(f_g_i, x_i))"}, "", "index g is not bound"),
        ({"lhs": "sum_j(sum_j(s_h_ij))"}, "", "do not nest"),
        ({"lhs": "norm2(x_k)"}, "", "unknown name"),
        ({}, "n = { min = 1 }", "n >= 2"),
        ({}, "H = 0", "H >= 1"),
        ({}, 'n = "[3, 2]"', "empty"),
        ({}, "k = 2", "ranges n, d, H and beta"),
        ({}, 'beta = "[-1, 2]"', "beta > 0"),
        ({}, 'd = "[1.5, 1.9]"', "no integer"),
    ],
)
def test_misuse_is_refused_with_the_reason(fields: dict, domain: str, reason: str) -> None:
    with pytest.raises(ClaimsFileError) as caught:
        parse_claims(_misuse(fields, domain), "t.toml")
    assert reason in str(caught.value)


def test_misuse_is_a_one_line_error_of_the_command(tmp_path: Path) -> None:
    """The command reports a refused claim (any of the above: one parser) in one line, exit code 2."""
    path = tmp_path / "bad.toml"
    path.write_text(_misuse({"lhs": "sum_j(sum_j(s_h_ij))"}, ""))
    run = headflow("check", str(path))
    assert run.returncode == 2 and "Traceback" not in run.stderr and "do not nest" in run.stderr


def _misuse(fields: dict, domain: str) -> str:
    base = {"lhs": "E", "op": ">", "rhs": "0"} | fields
    return claim_text("bad", base.pop("lhs"), base.pop("op"), base.pop("rhs"), domain)


def test_pair_quantities_agree_in_floats_and_balls() -> None:
    rng = np.random.default_rng(4)
    n, d, H = 4, 3, 2
    X = families.draw_tokens("random-sphere", n, d, rng, {})
    M = families.draw_heads("random-general", H, d, rng, {"scale": 1.0})
    for attention in ("usa", "softmax", "relu"):
        exact = round_configuration(X, M, M, 0.75, 2**12, symmetric=False, geometry="sphere", attention=attention)
        cfg = Configuration.create(
            np.array(exact.tokens, dtype=float),
            np.array(exact.score_matrices, dtype=float),
            None,
            beta=float(exact.beta),
            attention=attention,
            geometry="sphere",
        )
        for text in ("sum_j(s_h_ij * w_h_ji)", "sum_j(p_h_ij)", "norm2(sum_j(x_j) / n)", "sum_g(s_g_ii)"):
            term = parse_term(text)
            ball = term_ball(term, exact, 1, 1)
            value = float(evaluate(term, float_algebra(cfg), 1, 1))
            assert abs(float(ball.mid()) - value) <= 1e-8 * (1 + abs(value)), (attention, text)
        x = cfg.tokens[2]
        assert abs(evaluate(parse_term("s_h_ii"), float_algebra(cfg), 2, 0) - x @ cfg.score_matrices[0] @ x) < 1e-12
        assert abs(evaluate(parse_term("sum_j(p_h_ij)"), float_algebra(cfg), 0, 1) - 1) < 1e-12
