"""Equilibrium claims at beta <= 0: the model is defined there (repulsive weights; uniform usa and softmax weights and
zero relu ones at beta = 0), critical points are decided and their witnesses re-checked by check-cert, and the
regular triangle's stability threshold beta = -2/3 on the circle is what the prover's balls find."""

from __future__ import annotations

import math
import textwrap
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from headflow.certificates.claims import regimes
from headflow.certificates.claims.loader import parse_claims
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.evidence import equilibria
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict

from tests.checking import verify_file

F = Fraction


def decide(text: str, directory: Path) -> dict[str, tuple[Verdict, dict]]:
    registry = register_claims(parse_claims(textwrap.dedent(text), "t.toml"))
    results = run_claims(registry.claims(), Context("quick", seed=3, certificate_dir=directory))
    assert not any(r.crashed for r in results)
    return {r.claim.id: (r.verdict, r.outcomes[0][1].as_dict()) for r in results}


def _claim(claim_id: str, body: str) -> str:
    return f'[[claim]]\nid = "{claim_id}"\nkind = "equilibrium"\n{textwrap.dedent(body)}\n'


CRITICAL = _claim(
    "clusters-at-rest-repulsive",  # false: the clusters of sizes 2, 1, 1 at a triangle's vertices move at beta = -1
    """
    tokens = "clusters"
    sizes = [2, 1, 1]
    d = 2
    beta = -1
    lambdas = [1]
    attention = ["usa", "softmax"]
    property = "critical-point"
    """,
) + _claim(
    "clusters-at-rest-beta-0-relu",  # true: relu weights max(0 * s, 0)/n are all 0, nothing moves
    """
    tokens = "clusters"
    sizes = [2, 1, 1]
    d = 2
    beta = 0
    lambdas = [1]
    attention = "relu"
    property = "critical-point"
    """,
)


def test_critical_points_at_beta_le_0_are_decided_and_their_witness_rechecks(tmp_path: Path) -> None:
    """A wrong statement at beta = -1 is REFUTED by a witness check-cert accepts; a true one at beta = 0 is PROVED."""
    verdicts = decide(CRITICAL, tmp_path)
    verdict, evidence = verdicts["clusters-at-rest-repulsive"]
    assert verdict is Verdict.REFUTED, evidence
    assert "beta = -1" in evidence["witness"]["instance"]
    for path in evidence["certificates"]:
        ok, message = verify_file(Path(path))
        assert ok and "beta = -1" in message, message
    assert verdicts["clusters-at-rest-beta-0-relu"][0] is Verdict.PROVED, verdicts["clusters-at-rest-beta-0-relu"]


def test_an_instance_at_the_claims_own_beta_le_0_is_in_its_domain() -> None:
    """`regimes.outside` (check-cert --claims): the instance's beta must be the claim's, any sign; a claim without
    beta is about beta > 0 only."""
    stated = parse_claims(CRITICAL, "t.toml")[0]
    free = parse_claims(CRITICAL.replace("beta = -1\n", ""), "t.toml")[0]
    inst = regimes.Instance(4, 2, "usa", F(-1), (F(1),), ())
    assert regimes.outside(stated, inst) is None
    assert regimes.outside(stated, regimes.Instance(4, 2, "usa", F(1), (F(1),), ())) is not None
    assert regimes.outside(free, inst) is not None


def _triangle() -> np.ndarray:
    angles = 2 * math.pi * np.arange(3) / 3
    return np.stack([np.cos(angles), np.sin(angles)], axis=1)


@pytest.mark.parametrize("attention", ["usa", "softmax"])
def test_the_triangle_on_the_circle_turns_stable_below_minus_two_thirds(attention: str) -> None:
    """The prover's balls (Krawczyk + Gershgorin) at the regular triangle on the circle, M = W = I: the double
    eigenvalue (3 beta + 2) e^(-beta/2)/4 (usa; softmax the same sign) changes sign at beta = -2/3."""
    counts = {}
    for beta in (F(-7, 10), F(-13, 20), F(0)):
        outcome = equilibria.certify(equilibria.instance(3, 2, [F(1)], attention, beta, "scalar"), _triangle())
        assert outcome["certified"] and outcome["spectrum_decided"], outcome
        counts[beta] = (outcome["zeros"], outcome["negative"], outcome["index"])
    assert counts == {F(-7, 10): (1, 2, 0), F(-13, 20): (1, 0, 2), F(0): (1, 0, 2)}


def test_spectra_at_beta_le_0_are_certified_or_refuted_and_rechecked(tmp_path: Path) -> None:
    """At beta < 0 the spectrum is decided as at beta > 0 and check-cert re-checks it (the kernel reads an equilibrium
    at the sign its statement gives): the square on the circle at beta = -1 has two eigenvalues with Re > 0 (stable:
    REFUTED), the regular tetrahedron is stable at beta = -3 (CERTIFIED) and not at beta = -1 (REFUTED; its double
    eigenvalue changes sign at beta = -3/2, where the prover's balls decide nothing). The triangle on the circle,
    stable at beta = -1, is PROVED without a certificate (no rational centre has its Gram matrix in the plane): its
    exact circulant Jacobian."""
    body = """
        tokens = "simplex"
        n = 4
        d = 3
        beta = {beta}
        lambdas = [1]
        attention = "usa"
        property = "stable"
        """
    text = (
        _claim(
            "square-stable-repulsive",
            """
            tokens = "given"
            points = [[1, 0], [0, 1], [-1, 0], [0, -1]]
            beta = -1
            lambdas = [1]
            attention = "usa"
            property = "stable"
            """,
        )
        + _claim("tetrahedron-stable-at-minus-3", body.format(beta=-3))
        + _claim("tetrahedron-stable-at-minus-1", body.format(beta=-1))
        + _claim(
            "triangle-stable-repulsive",
            """
            tokens = "simplex"
            n = 3
            d = 2
            beta = -1
            lambdas = [1]
            attention = "softmax"
            property = "stable"
            """,
        )
    )
    verdicts = decide(text, tmp_path)
    expected = {
        "square-stable-repulsive": Verdict.REFUTED,
        "tetrahedron-stable-at-minus-3": Verdict.CERTIFIED,
        "tetrahedron-stable-at-minus-1": Verdict.REFUTED,
    }
    for claim_id, wanted in expected.items():
        verdict, evidence = verdicts[claim_id]
        assert verdict is wanted and evidence["certificates"], (claim_id, evidence)
        for path in evidence["certificates"]:
            ok, message = verify_file(Path(path))
            assert ok and "beta = -" in message, message
    verdict, evidence = verdicts["triangle-stable-repulsive"]
    assert verdict is Verdict.PROVED and [".circulant." in p for p in evidence["certificates"]] == [True], evidence
    assert all(verify_file(Path(path))[0] for path in evidence["certificates"])
    assert [(row["negative"], row["positive"]) for row in evidence["details"]["table"]] == [(2, 0)], evidence


@pytest.mark.parametrize("attention", ["usa", "softmax"])
def test_the_triangles_circulant_spectrum_agrees_with_the_closed_form_and_the_prover(attention: str) -> None:
    """The exact circulant route (`equilibrium_decider.circle_counts`): its double eigenvalue is the closed form
    lambda (3 beta lambda + 2) e^(-beta lambda/2)/4 (usa) or 3 lambda (3 beta lambda + 2)/(4 (e^(3 beta lambda/2) + 2))
    (softmax), derived independently by hand; its counts are the Krawczyk-Gershgorin prover's (the square on the
    circle too, where a certificate exists); a false 'stable' just above -2/3 is REFUTED."""
    from headflow.checks.claimsfile.equilibrium_decider import circle_counts
    from headflow.identities.derivation import Derivation

    for beta, lam in ((F(-1), F(1)), (F(-13, 20), F(1)), (F(1, 3), F(2)), (F(-1, 4), F(3))):
        counts = circle_counts(Derivation(), regimes.Instance(3, 2, attention, beta, (lam,)))
        b, k = float(beta), float(lam)
        closed = (
            k
            * (3 * b * k + 2)
            * (math.exp(-b * k / 2) / 4 if attention == "usa" else 3 / (4 * (math.exp(1.5 * b * k) + 2)))
        )
        assert counts is not None and counts.zeros == 1
        assert (counts.negative, counts.positive) == ((2, 0) if closed < 0 else (0, 2)), (beta, lam, closed)
        for text in counts.real_parts:
            assert abs(float(text.strip("[]").split(" +/-")[0]) - closed) < 1e-9 * (1 + abs(closed)), (text, closed)
    square = circle_counts(Derivation(), regimes.Instance(4, 2, attention, F(-1), (F(1),)))
    outcome = equilibria.certify(equilibria.instance(4, 2, [F(1)], attention, F(-1), "scalar"), _square())
    assert square is not None and (square.negative, square.positive) == (outcome["negative"], outcome["index"])


def _square() -> np.ndarray:
    return np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])


def test_a_certificate_at_a_negative_beta_is_not_one_of_the_papers_critical_points(tmp_path: Path) -> None:
    """The registry's critical-points claims are about beta > 0: the kernel refuses a statement at beta < 0 under
    their ids (a certificate relabelled from a claims file's repulsive instance)."""
    from headflow.certificates.kernel.equilibrium_statements import Statement, registry_failure

    stated = Statement("usa", F(-1), 3, [range(0, 2)], [[F(1)]], [[F(1)]], None, {"zeros": 1})
    entry = {"kind": "equilibrium", "regime": "found"}
    assert registry_failure(entry, stated) is not None
    assert registry_failure(entry, stated._replace(beta=F(1))) is None
