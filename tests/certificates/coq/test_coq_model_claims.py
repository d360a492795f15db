"""Coq re-checks the witnesses of `model` claims: the claim's own terms at the witness's exact data.

The trees the kernel writes agree with check-cert's balls for every model name (no Coq needed); a genuine witness
compiles; a forged witness, a wrong hint, an admitted proof, an edited claim and an integer quotient (d / n) that
floats would round do not. The examples' certificates are re-checked in the slow test.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import headflow.checks as checks
import numpy as np
import pytest
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.model_algebra import evaluate
from headflow.certificates.claims.model_claim import parse_term
from headflow.certificates.coq import enclosures
from headflow.certificates.coq.source import source
from headflow.certificates.kernel import ball_model, model_chain
from headflow.certificates.kernel.balls import eval_ball
from headflow.certificates.kernel.coq import model_tree, run
from headflow.certificates.kernel.coq.model_tree import witness_problem
from headflow.certificates.kernel.coq.statements import (
    PRELUDE,
    NotStated,
    NotTranslatable,
    guard,
    require_stated,
    theorem_name,
)
from headflow.certificates.kernel.exact import exact_value, precision
from headflow.certificates.kernel.format import content_hash
from headflow.certificates.kernel.model_values import Trees, settle
from headflow.certificates.model_balls import term_ball
from headflow.certificates.statements.model import kernel_statement
from headflow.certificates.store import write_certificate
from headflow.checks import coq_files
from headflow.checks.evidence.model_witnesses import float_algebra
from headflow.checks.model import families
from headflow.checks.model.configuration import Configuration

from tests.certificates.coq.test_coq_schemes import _check_cert_coq
from tests.checking import verify_file
from tests.coq_rates import rate_problem
from tests.coq_tier import needs_coqc

HALF = Fraction(1, 2)
HEAD = [[Fraction(1), HALF], [HALF, Fraction(1)]]  # symmetric, and the values aligned with it
X0 = [Fraction(1), Fraction(0)]
#: A universal claim that fails at x_1 = (3/5, 4/5), i = 0 (about 8.53 < 21.77), and an existence claim that holds
#: there at i = 1 under Condition 8 (about 0.107 > 0.067); with x_1 = (3/5, -4/5) both signs flip.
FALSE_UNIVERSAL = (
    '[[claim]]\nid = "power-below-energy"\nkind = "model"\nlhs = "T_h_i + dE_dt"\nop = "<="\nrhs = "E * a_h_i"\n'
)
TRUE_EXISTENCE = (
    '[[claim]]\nid = "entropy-rises"\nkind = "model"\nexists = true\nattention = "softmax"\n'
    'assume = ["symmetric-scores", "aligned-values"]\ngiven = ["condition8"]\n'
    'lhs = "entropy_rate_h_i"\nop = ">"\nrhs = "entropy_h_i / 10"\n'
)
GENUINE, FORGED = [Fraction(3, 5), Fraction(4, 5)], [Fraction(3, 5), Fraction(-4, 5)]


def _record(tokens: list[list[Fraction]], attention: str, geometry: str = "sphere") -> dict[str, Any]:
    def text(rows: list[list[Fraction]]) -> list[list[str]]:
        return [[str(v) for v in row] for row in rows]

    return {
        "tokens": text(tokens),
        "scores": [text(HEAD)],
        "values": [text(HEAD)],
        "beta": "1",
        "attention": attention,
        "geometry": geometry,
    }


def _fields(toml: str) -> dict[str, str]:
    """The certificate's `claim` field of the claims text's one claim (its canonical text)."""
    return embedded(parse_claims(toml)[0])


def _claim(toml: str) -> Any:
    return parse_claims(toml)[0]


def _payload(
    toml: str, tokens: list[list[Fraction]], attention: str, at: dict[str, int], geometry: str = "sphere"
) -> dict[str, Any]:
    """A witness payload as the prover writes it (the sign and enclosure from check-cert's own balls)."""
    claim, record = _claim(toml), _record(tokens, attention, geometry)
    with precision(64):
        settled = settle(
            kernel_statement(claim),
            ball_model.ExactConfiguration(tokens, [HEAD], [HEAD], Fraction(1), geometry, attention),
            at,
        )
        low, high = (str(exact_value(end)) for end in (settled.value.lower(), settled.value.upper()))
    return {
        "witness": "model-configuration",
        "configuration": record,
        "hypotheses": list(claim.hypotheses),
        "at": at,
        "prec": 64,
        "relation": settled.sign or ">",
        "enclosure": [low, high],
    }


@pytest.fixture(scope="module")
def witnesses(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("coq-model")
    universal = _payload(FALSE_UNIVERSAL, [X0, GENUINE], "usa", {"i": 0, "h": 0})
    existence = _payload(TRUE_EXISTENCE, [X0, GENUINE], "softmax", {"i": 1, "h": 0})
    return {
        "universal": write_certificate(folder, "power-below-energy", "witness", universal, _fields(FALSE_UNIVERSAL)),
        "existence": write_certificate(folder, "entropy-rises", "witness", existence, _fields(TRUE_EXISTENCE)),
    }


def _edit(path: Path, change) -> Path:  # type: ignore[no-untyped-def]
    certificate = json.loads(path.read_text())
    change(certificate)
    certificate["sha256"] = content_hash(certificate)
    forged = path.with_name("forged." + path.name)
    forged.write_text(json.dumps(certificate))
    return forged


# ---------------------------------------------------------------- the trees mean the model's quantities

TERMS = [
    "a_h_i",
    "T_h_i",
    "A_h_i",
    "entropy_h_i",
    "entropy_rate_h_i",
    "E",
    "E_h",
    "dE_dt",
    "dE_h_dt",
    "inner(v_i, x_i) - norm2(F_i) / n",
    "norm2(xdot_i) + inner(proj(f_h_i), x_i)",
    "sum_i(T_h_i - a_h_i * A_h_i) / n**3",
    "sum_h(a_h_i * beta) - H * d",
    "(E_h - 1)**3 / (2 * beta)",
    "-dE_dt + 3/7",
    "sum_j(p_h_ij * s_h_ij) - w_h_ii + Z_h_i",
    "inner(xbar_h_i, M_h(x_i)) + norm2(W_h(F_i)) - cluster_gap",
]


def _tree_ball(value: model_chain.Value, definitions: list[tuple[str, Any]]) -> Any:
    """The ball of a tree over its definitions, each evaluated in order (an independent reading of the chain)."""
    env: dict[str, Any] = {}
    for name, tree in definitions:
        env[name] = eval_ball(tree, env)
    return eval_ball(model_chain.tree_of(value), env)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("attention", ["usa", "softmax", "relu"])
def test_the_trees_coq_states_are_the_float_models_values(seed: int, attention: str) -> None:
    """The Coq chain's trees (the ones check-cert's balls read too), evaluated by an independent walk over their
    definitions, against the float model's reading of every name (`checks.model.field`, another implementation)."""
    rng = np.random.default_rng(seed)
    n, d, H = 3, 2, 2
    tokens = families.rational_sphere_tokens(n, d, rng)
    heads = [[[Fraction(int(rng.integers(-8, 9)), 4) for _ in range(d)] for _ in range(d)] for _ in range(2 * H)]
    geometry = "sphere" if seed != 1 else "flat"
    cfg = ball_model.ExactConfiguration(tokens, heads[:H], heads[H:], Fraction(3, 4), geometry, attention)
    arrays = [np.array(data, dtype=float) for data in (tokens, heads[:H], heads[H:])]
    floats = float_algebra(Configuration.create(*arrays, beta=0.75, attention=attention, geometry=geometry))
    with precision(128):
        for text in TERMS:
            term = parse_term(text)
            for i in range(n):
                for h in range(H):
                    chain = model_chain.Chain(cfg)
                    mine = _tree_ball(Trees(chain).tree(term, {"i": i, "h": h}), chain.definitions)
                    theirs = float(evaluate(term, floats, i, h))
                    assert abs(float(mine.mid()) - theirs) <= 1e-9 * (1 + abs(theirs)), (text, i, h, mine, theirs)
                    assert mine.rad() < 1e-20 * max(1, abs(theirs)), (text, mine)


def _tree(text: str, cfg: ball_model.ExactConfiguration) -> model_chain.Value:
    """A closed term's tree over the Coq chain of `cfg`."""
    return Trees(model_chain.Chain(cfg)).tree(parse_term(text), {})


def test_an_integer_quotient_is_exact() -> None:
    # d / n is 2/3, never the float 0.666...: (d / n) * beta * n - d * beta is exactly the rational 0
    cfg = ball_model.ExactConfiguration([X0, GENUINE, X0], [HEAD], [HEAD], Fraction(3, 7))
    assert _tree("(d / n) * beta * n - d * beta", cfg) == 0


def test_a_configuration_past_the_cap_is_not_translated() -> None:
    cfg = ball_model.ExactConfiguration([X0] * 12, [HEAD] * 8, [HEAD] * 8, Fraction(1))  # n^2 H d = 2304
    with pytest.raises(NotTranslatable, match="too large"):
        rate_problem("energy_rate", "<", cfg, {})


# ---------------------------------------------------------------- Coq


@needs_coqc
@pytest.mark.parametrize("which", ["universal", pytest.param("existence", marks=pytest.mark.slow)])
def test_a_model_witness_is_rechecked_by_coq(witnesses: dict[str, Path], which: str) -> None:
    verdict = coq_files.check(witnesses[which])
    assert verdict.status == coq_files.RECHECKED, verdict.message
    text = coq_files.coq_text(witnesses[which])
    theorem = text[text.index("Theorem ") :]
    if which == "universal":  # the counterexample: T + dE/dt <= E a fails at i = 0, h = 0
        assert "fails at h = 0, i = 0: rhs - lhs < 0" in theorem and "(rhs - lhs) < 0" in theorem
    else:  # Condition 8 at both tokens, then the instance at i = 1
        assert theorem.count("(* given (a_h_i*A_h_i) <= T_h_i at ") == 2 and "(rhs - lhs) < 0" in theorem
        assert "checked exactly on the rational data by check-cert" in text.splitlines()[1]


def _flip_token(certificate: dict[str, Any]) -> None:
    certificate["payload"]["configuration"]["tokens"][1] = [str(v) for v in FORGED]


def _edit_relation(certificate: dict[str, Any]) -> None:
    certificate["claim"]["toml"] = certificate["claim"]["toml"].replace('"op" = "<="', '"op" = ">="')


@needs_coqc
@pytest.mark.parametrize("change", [_flip_token, _edit_relation])
def test_a_forged_model_witness_is_refused(witnesses: dict[str, Path], change) -> None:  # type: ignore[no-untyped-def]
    verdict = coq_files.check(_edit(witnesses["universal"], change))
    assert verdict.status == coq_files.REJECTED and "obligation" in verdict.message, verdict.message


@needs_coqc
@pytest.mark.parametrize(("toml", "attention", "at"), [(FALSE_UNIVERSAL, "usa", 0), (TRUE_EXISTENCE, "softmax", 1)])
def test_past_check_cert_coq_refuses_the_forged_data(toml: str, attention: str, at: int) -> None:
    # the token changed: the relation no longer has the witnessed sign (balls say so), and coqc refuses the statement
    claim, payload = _claim(toml), _payload(toml, [X0, FORGED], attention, {"i": at, "h": 0})
    cfg = ball_model.ExactConfiguration([X0, FORGED], [HEAD], [HEAD], Fraction(1), "sphere", attention)
    with precision(64):
        assert settle(kernel_statement(claim), cfg, {"i": at, "h": 0}).sign == ""
    problem = witness_problem(claim, payload)
    assert run.compile_source(source("t", claim.id, "s", problem)).status == "rejected"


# slow (a coqc run of seconds): the forged witnesses and data below are refused by coqc by default
@needs_coqc
@pytest.mark.slow
def test_a_wrong_hint_fails_the_file(witnesses: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    true_hints = enclosures.hints

    def wrong(point, definitions):  # type: ignore[no-untyped-def]
        bounds = true_hints(point, definitions)
        low, high = bounds[-1]  # rhs's bound moved past its value
        return [*bounds[:-1], (high + (high - low), high + 2 * (high - low))]

    monkeypatch.setattr(enclosures, "hints", wrong)
    verdict = coq_files.check(witnesses["universal"])
    assert verdict.status == coq_files.REJECTED and "Error" in verdict.message, verdict.message


# slow (a coqc run of seconds): test_coq_guard refuses Admitted and axioms by default
@needs_coqc
@pytest.mark.slow
def test_an_admitted_proof_is_refused(witnesses: dict[str, Path]) -> None:
    claim = _claim(FALSE_UNIVERSAL)
    payload = json.loads(witnesses["universal"].read_text())["payload"]
    problem = witness_problem(claim, payload)
    text = source("t", claim.id, "s", problem)
    start = text.index("Proof.", text.index(f"Theorem {theorem_name(claim.id)}"))
    cheat = text[:start] + "Proof. Admitted.\n"
    with pytest.raises(NotStated):
        require_stated(cheat, "t", claim.id, "s", problem)
    answer = run.compile_source(cheat, **guard("t", claim.id, "s", problem))
    assert answer.status == "rejected" and "not a standard axiom" in answer.message


@needs_coqc
def test_an_integer_quotient_that_floats_round_is_refused_by_coq(witnesses: dict[str, Path], tmp_path: Path) -> None:
    # "some configuration has (d / n) beta n < d beta" is false for every n, d; in floats 2/3 * 3 falls short of 2
    toml = '[[claim]]\nid = "quotient"\nkind = "model"\nexists = true\n'
    toml += 'lhs = "(d / n) * beta * n"\nop = "<"\nrhs = "d * beta"\n'
    cfg = ball_model.ExactConfiguration([X0, GENUINE, X0], [HEAD], [HEAD], Fraction(1))
    record = _record([X0, GENUINE, X0], "usa")
    payload = {
        "witness": "model-configuration",
        "configuration": record,
        "hypotheses": ["unit-tokens"],
        "at": {},
        "prec": 64,
        "relation": ">",
        "enclosure": ["0", "1"],
    }
    assert _tree("d * beta - (d / n) * beta * n", cfg) == 0
    problem = witness_problem(_claim(toml), payload)
    assert run.compile_source(source("t", "quotient", "s", problem)).status == "rejected"


@needs_coqc
@pytest.mark.slow
def test_the_examples_model_witnesses_are_rechecked_by_coq(tmp_path: Path) -> None:
    # `headflow check-cert --coq` on the certificates of examples/general.toml and examples/existence.toml
    examples = Path(__file__).parents[3] / "examples"
    for name in ("general.toml", "existence.toml"):
        checks.check(examples / name, certificates=tmp_path, progress=False)
    paths = sorted(tmp_path.glob("*.json"))
    assert len(paths) >= 6
    out = _check_cert_coq(paths)
    for path in paths:
        payload = json.loads(path.read_text())["payload"]
        if "configuration" not in payload:  # a claim one of the paper's identities implies: its gram identities
            assert ".gram." in path.name and f"{path}: coq: re-checked by Coq" in out, (path.name, out[-3000:])
            continue
        data = payload["configuration"]
        n, d, H = len(data["tokens"]), len(data["tokens"][0]), len(data["scores"])
        expected = "re-checked by Coq" if n * n * H * d <= model_tree.MAX_SIZE else "not translatable: too large"
        assert f"{path}: coq: {expected}" in out, (path.name, out[-3000:])
    assert out.count("re-checked by Coq") >= 5


@needs_coqc
@pytest.mark.slow
def test_a_refuted_model_claim_lists_coq_among_its_checkers(tmp_path: Path) -> None:
    # `headflow check --coq`: the verdict's witness (found by the search: n = 3, d = 2, H = 2 at seed 0) re-checked
    # by check-cert and by coqc
    toml = '[[claim]]\nid = "tangential-small"\nkind = "model"\nlhs = "T_h_i"\nop = "<="\nrhs = "norm2(x_i) / 100"\n'
    report = checks.check(toml, certificates=tmp_path, progress=False, coq=True)
    (claim,) = json.loads(report.render("json"))["claims"]
    assert claim["verdict"] == "REFUTED"
    assert claim["evidence"]["independent_checkers"] == ["check-cert (balls)", "Coq"], claim["evidence"]


@needs_coqc
def test_a_counterexample_whose_given_fails_at_another_token_is_refused_by_coq(tmp_path: Path) -> None:
    # "if a_h_i >= 0 at every token i, then sum_i(a_h_i) - a_h_i >= 0" is true; at x = (1, 0), (0, 1), M = I,
    # W = diag(1, -1) the shadows are e and -e: the relation fails at i = 0, where the given holds, but the given
    # fails at token 1, so this is no counterexample. check-cert's balls check the given at every token and refuse
    # it (they checked it at the witness's token only when the Coq translation first refused it); Coq states it so.
    toml = '[[claim]]\nid = "shadows"\nkind = "model"\ngiven = ["a_h_i >= 0"]\n'
    toml += 'lhs = "sum_i(a_h_i) - a_h_i"\nop = ">="\nrhs = "0"\n'
    one, zero = Fraction(1), Fraction(0)
    payload = {
        "witness": "model-configuration",
        "configuration": {
            "tokens": [["1", "0"], ["0", "1"]],
            "scores": [[["1", "0"], ["0", "1"]]],
            "values": [[["1", "0"], ["0", "-1"]]],
            "beta": "1",
            "attention": "usa",
            "geometry": "sphere",
        },
        "hypotheses": ["unit-tokens"],
        "at": {"i": 0, "h": 0},
        "prec": 64,
        "relation": ">",
        "enclosure": ["2", "3"],
    }
    cfg = ball_model.ExactConfiguration(
        [[one, zero], [zero, one]], [[[one, zero], [zero, one]]], [[[one, zero], [zero, -one]]], one
    )
    with precision(64):
        shadows = [term_ball(parse_term("a_h_i"), cfg, i, 0) for i in range(2)]
    assert shadows[0] > 0 > shadows[1]
    path = write_certificate(tmp_path, "shadows", "witness", payload, _fields(toml))
    verdict = coq_files.check(path)
    assert verdict.status == coq_files.REJECTED, verdict.message
    ok, message = verify_file(path)
    assert not ok and "given a_h_i >= 0" in message, message


@pytest.mark.slow
@needs_coqc
def test_a_relu_witness_in_flat_space_is_rational_and_rechecked(tmp_path: Path) -> None:
    # relu weights are exact rationals: the theorem is a rational inequality, which coqc checks as well
    toml = '[[claim]]\nid = "relu-flat"\nkind = "model"\nattention = "relu"\ngeometry = "flat"\n'
    toml += 'lhs = "norm2(xdot_i)"\nop = "<="\nrhs = "a_h_i / 2"\n'
    tokens = [X0, [Fraction(1, 2), Fraction(3, 2)]]
    path = write_certificate(
        tmp_path, "relu-flat", "witness", _payload(toml, tokens, "relu", {"i": 1, "h": 0}, "flat"), _fields(toml)
    )
    verdict = coq_files.check(path)
    assert verdict.status == coq_files.RECHECKED, verdict.message
    assert "Definition" not in coq_files.coq_text(path).split(PRELUDE)[1]  # no exponential to bound
