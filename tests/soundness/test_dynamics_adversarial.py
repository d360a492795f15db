"""Dynamics claims of a claims file: false statements that one simple configuration refutes are never CONFIRMED.

Each reproduction was CONFIRMED (or INCONCLUSIVE) for some seeds before the decider searched
adversarially; the true variants next to them (Theorem 11, the equiangular regime of Theorem 27)
must stay CONFIRMED. The n = 3 hand witness is checked independently of the model, with mpmath,
by differentiating the entropies numerically along the flow.
"""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction
from pathlib import Path

import mpmath as mp
import numpy as np
import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.provers.model_witness import certify_model_witness
from headflow.certificates.statements import dynamics
from headflow.checks.claimsfile import dynamics_decider
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.evidence import adversarial
from headflow.checks.model import families
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict

from tests.checking import verify_file
from tests.checks.claimsfile.test_pointwise_route import float_route_only

SCALAR_N3 = """
attention = "softmax"
heads = "scalar"
lambdas = [1]
tokens = "random-sphere"
n = 3
d = 2
beta = 1.0
"""


def claim(claim_id: str, quantity: str, prop: str, family: str) -> str:
    return f'[[claim]]\nid = "{claim_id}"\nkind = "dynamics"\nquantity = "{quantity}"\nproperty = "{prop}"\n{family}\n'


def decide(text: str, directory: Path, seed: int) -> dict[str, tuple[Verdict, dict]]:
    registry = register_claims(parse_claims(textwrap.dedent(text), "t.toml"))
    results = run_claims(registry.claims(), Context("quick", seed=seed, certificate_dir=directory))
    assert not any(r.crashed for r in results)
    return {r.claim.id: (r.verdict, r.outcomes[0][1].as_dict()) for r in results}


def witness_data(evidence: dict) -> dict:
    (path,) = evidence["certificates"]
    ok, reason = verify_file(Path(path))
    assert ok, reason
    return json.loads(Path(path).read_text())["payload"]["configuration"]


# ---------------------------------------------------------------- the n = 3 hand witness, independently


def _entropies(X: list[list[mp.mpf]], beta: mp.mpf) -> list[mp.mpf]:
    """H_i = -sum_j p_ij log p_ij, p_i = softmax_j(beta <x_i, x_j>) (M = I)."""
    out = []
    for xi in X:
        w = [mp.exp(beta * mp.fsum(a * b for a, b in zip(xi, xj, strict=True))) for xj in X]
        total = mp.fsum(w)
        out.append(-mp.fsum((v / total) * mp.log(v / total) for v in w))
    return out


def _flow_step(X: list[list[mp.mpf]], beta: mp.mpf, h: mp.mpf) -> list[list[mp.mpf]]:
    """X + h xdot, retracted to the sphere (softmax, M = W = I, spherical dynamics)."""
    moved = []
    for xi in X:
        w = [mp.exp(beta * mp.fsum(a * b for a, b in zip(xi, xj, strict=True))) for xj in X]
        total = mp.fsum(w)
        v = [mp.fsum(w[j] * X[j][k] for j in range(len(X))) / total for k in range(len(xi))]
        radial = mp.fsum(a * b for a, b in zip(v, xi, strict=True))
        y = [a + h * (b - radial * a) for a, b in zip(xi, v, strict=True)]
        norm = mp.sqrt(mp.fsum(c * c for c in y))
        moved.append([c / norm for c in y])
    return moved


def test_hand_witness_entropy_decreases_mpmath() -> None:
    """x0 = (1, 0), x1,2 = (-4/5, +-3/5): dH_0/dt = -0.04493... by a central difference at 40 digits."""
    with mp.workdps(40):
        X = [[mp.mpf(1), mp.mpf(0)], [mp.mpf(-4) / 5, mp.mpf(3) / 5], [mp.mpf(-4) / 5, mp.mpf(-3) / 5]]
        h = mp.mpf(10) ** -12
        ahead, behind = _entropies(_flow_step(X, mp.mpf(1), h), 1), _entropies(_flow_step(X, mp.mpf(1), -h), 1)
        rate = (ahead[0] - behind[0]) / (2 * h)
        assert -0.04494 < rate < -0.04493


# ---------------------------------------------------------------- reproductions: refuted with witnesses


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_entropy_rate_and_monotonicity_refuted_for_three_tokens(tmp_path: Path, seed: int) -> None:
    """Both readings over the same family are REFUTED by a certified state with the file's beta and lambda."""
    text = claim("rate", "entropy_rate", "non-negative", SCALAR_N3) + claim(
        "monotone", "attention_entropy", "non-decreasing", SCALAR_N3
    )
    verdicts = decide(text, tmp_path, seed)
    for claim_id in ("rate", "monotone"):
        verdict, evidence = verdicts[claim_id]
        assert verdict is Verdict.REFUTED, (claim_id, evidence)
        data = witness_data(evidence)
        assert data["beta"] == "1" and data["scores"] == [[["1", "0"], ["0", "1"]]] and data["attention"] == "softmax"
        assert all(sum(Fraction(v) ** 2 for v in x) == 1 for x in data["tokens"])
        assert evidence["details"]["search"]["evaluations"] > 100


def test_t27_reading_b_family_refuted_with_the_stated_beta(tmp_path: Path) -> None:
    """n = 6, d = 3, lambdas = (1, 1, 1), beta = 0.95: the witness uses beta = 19/20 and M_h = I exactly."""
    family = 'attention = "softmax"\nheads = "scalar"\nlambdas = [1, 1, 1]\ntokens = "random-sphere"\n'
    family += "n = 6\nd = 3\nbeta = 0.95\n"
    verdict, evidence = decide(claim("t27b", "attention_entropy", "non-decreasing", family), tmp_path, 0)["t27b"]
    assert verdict is Verdict.REFUTED, evidence
    data = witness_data(evidence)
    assert data["beta"] == "19/20"
    assert data["scores"] == [[["1", "0", "0"], ["0", "1", "0"], ["0", "0", "1"]]] * 3


def test_energy_with_general_heads_refuted(tmp_path: Path) -> None:
    """usa, random-general heads (not symmetric), n = 4, d = 3, H = 1: E is not non-decreasing."""
    family = 'heads = "random-general"\ntokens = "random-sphere"\nn = 4\nd = 3\nH = 1\nbeta = 1.0\n'
    verdict, evidence = decide(claim("general", "energy", "non-decreasing", family), tmp_path, 0)["general"]
    assert verdict is Verdict.REFUTED, evidence
    data = witness_data(evidence)
    assert data["values"] == data["scores"] and data["attention"] == "usa"


# ---------------------------------------------------------------- true claims stay PROVED or CONFIRMED


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow)])
def test_theorem_11_and_equiangular_entropy_stay_confirmed(tmp_path: Path, seed: int) -> None:
    symmetric = 'heads = "random-symmetric"\ntokens = "random-sphere"\nn = 4\nd = 3\nH = 2\nbeta = 1.0\n'
    equiangular = (
        'attention = "softmax"\nheads = "scalar"\nlambdas = [1, 0.5]\ntokens = "equiangular"\nrho = 0.1\n'
        "n = 4\nd = 4\nbeta = 1.0\n"
    )
    text = (
        claim("t11", "energy", "non-decreasing", symmetric)
        + claim("t11-rate", "energy_rate", "non-negative", symmetric)
        + claim("t27", "attention_entropy", "non-decreasing", equiangular)
        + claim("t27-rate", "entropy_rate", "non-negative", equiangular)
    )
    verdicts = decide(text, tmp_path, seed)
    for claim_id, (verdict, evidence) in verdicts.items():  # Theorem 11 through its pointwise statement
        assert verdict is (Verdict.PROVED if claim_id.startswith("t11") else Verdict.CONFIRMED), (claim_id, evidence)
        assert evidence["method"].startswith("pointwise") is claim_id.startswith("t11"), (claim_id, evidence)
    with pytest.MonkeyPatch.context() as patch:  # the float route alone never refutes it either
        float_route_only(patch)
        verdict, evidence = decide(claim("t11", "energy", "non-decreasing", symmetric), tmp_path, seed)["t11"]
    assert verdict is Verdict.CONFIRMED, evidence
    assert evidence["details"]["search"]["local_minimizations"] >= 1


def test_exactly_zero_rate_is_never_a_witness(tmp_path: Path) -> None:
    """Antipodal tokens with a scalar head: dH/dt = 0 exactly; float noise below 0 must not certify."""
    parsed = parse_claims(textwrap.dedent(claim("z", "entropy_rate", "non-negative", SCALAR_N3)), "t.toml")[0]
    X = np.array([[1.0, 0.0], [-1.0, 0.0], [1.0, 0.0]])
    cfg = Configuration.create(X, families.scalar_heads([1.0], 2), beta=1.0, attention="softmax")
    exact = dynamics_decider.exact_state(parsed.options, cfg)
    assert dynamics.family_failures(parsed.options, exact) == []
    statement = dynamics.refutation(parsed)
    assert statement is not None and statement["relation"]["lhs"] == ["name", "entropy_rate_h_i"]
    assert not certify_model_witness(statement, exact, {"h": 0, "i": 0}, tmp_path, None).verified


def test_family_membership_is_exact() -> None:
    """A rounded state whose beta or strengths differ from the file's is not a witness for the claim."""
    options = parse_claims(textwrap.dedent(claim("m", "entropy_rate", "non-negative", SCALAR_N3)), "t.toml")[0].options
    cfg = Configuration.create(families.random_sphere_tokens(3, 2, np.random.default_rng(0)), [2.0 * np.eye(2)])
    exact = dynamics_decider.exact_state(options, cfg)
    assert exact.beta == 1 and exact.score_matrices == [[[1, 0], [0, 1]]]
    assert "the stated beta" in dynamics.family_failures(options | {"beta": 0.3}, exact)
    assert "the stated scores" in dynamics.family_failures(options | {"lambdas": [0.5]}, exact)
    assert "n = 3 is not the family's 4" in dynamics.family_failures(options | {"n": 4}, exact)


def test_search_finds_the_hand_witness_shape() -> None:
    """The search alone reaches a negative entropy rate for n = 3, d = 2 from every seed tried."""
    for seed in range(3):
        family = adversarial.Family(
            lambda rng: Configuration.create(
                families.random_sphere_tokens(3, 2, rng), families.scalar_heads([1.0], 2), attention="softmax"
            )
        )
        result = adversarial.search(
            family, adversarial.rate_margin("entropy_rate"), adversarial.BUDGETS["quick"], np.random.default_rng(seed)
        )
        assert result.worst < -0.01 and result.evaluations <= adversarial.BUDGETS["quick"].evaluations


@pytest.mark.parametrize(("n", "d"), [(2, 1), (2, 2), (3, 1), (5, 4)])
def test_structured_starts_for_small_sizes(n: int, d: int) -> None:
    """Every structured start is a valid configuration of the template's sizes (unit tokens)."""
    rng = np.random.default_rng(0)
    template = Configuration.create(families.random_sphere_tokens(n, d, rng), families.scalar_heads([1.0], d))
    for cfg in adversarial.structured(template, rng):
        assert cfg.tokens.shape == (n, d)
        assert np.allclose(np.linalg.norm(cfg.tokens, axis=1), 1.0)
