"""Branch-and-bound with balls: proofs with re-checkable covers, verified counterexamples, budgets."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp
from headflow.certificates.kernel import covers, recheck
from headflow.certificates.provers.intervals import certify_cover, prove, prove_inequality
from headflow.certificates.provers.witness import settle_point
from headflow.certificates.statements import registry as obligations
from headflow.certificates.sympy_trees import from_sympy
from headflow.checks.registry import Context, load_all
from headflow.checks.runner import run_claim
from headflow.checks.theorems import t22_clustering_rates as sc
from headflow.checks.verdicts import Verdict
from headflow.identities import closed_forms

u = sc.u


def test_true_inequality_gets_a_cover_that_rechecks(tmp_path: Path) -> None:
    result = prove(sp.exp(u) - 1 - u, ">", {u: (Fraction(1, 8), Fraction(4))})
    assert result.status == "proved" and result.leaves >= 1
    domain = {"u": (Fraction(1, 8), Fraction(4))}
    expression = from_sympy(sp.exp(u) - 1 - u)
    assert covers.cover(result.payload, expression, ">", domain) == result.leaves
    with pytest.raises(recheck.Rejected):  # the checker's obligation must be the cover's own
        covers.cover(result.payload, expression, ">", {"u": (Fraction(0), Fraction(4))})


def test_two_variable_cover_rechecks(tmp_path: Path) -> None:
    x, y = sp.symbols("x y", positive=True)
    box = {x: (Fraction(1, 2), Fraction(3)), y: (Fraction(0), Fraction(2))}
    result = prove(sp.log(x + y + 1) - y / 4, ">", box)
    assert result.status == "proved"
    domain = {"x": box[x], "y": box[y]}
    assert covers.cover(result.payload, from_sympy(sp.log(x + y + 1) - y / 4), ">", domain) >= 1


def test_false_transcendental_statement_gets_a_verified_witness(tmp_path: Path) -> None:
    """phi is not convex on [2, 40] for n = 2 (u_c(2) ~ 2.3994): a counterexample, then a certified witness."""
    expr = obligations.convexity_parts(2)["convex"][0]
    result = prove(expr, ">", {u: (Fraction(2), Fraction(40))})
    assert result.status == "counterexample" and result.tree is None
    with pytest.raises(ValueError):
        certify_cover(result, "test.convex", tmp_path)
    point = {u: Fraction(result.point["u"])}
    witness = settle_point([("phi''", expr, "<=")], point)
    assert witness.verified
    assert "settled" in recheck.point_conditions(witness.record, {"u": point[u]})
    assert float(point[u]) < sc.lambda_c_scaled(2)


def test_equality_point_is_a_counterexample_to_a_strict_inequality() -> None:
    x = sp.Symbol("x", real=True)
    result = prove((x - 1) ** 2, ">", {x: (Fraction(0), Fraction(2))})
    assert result.status == "counterexample" and Fraction(result.point["x"]) == 1


def test_box_budget_gives_undecided() -> None:
    result = prove(
        obligations.convexity_parts(3)["convex"][0], ">", {u: (Fraction(5, 2) + 1, Fraction(40))}, max_boxes=2
    )
    assert result.status == "undecided" and "budget" in result.reason


def test_sign_factor_is_the_ratio_of_phi_second_derivative_to_g() -> None:
    for tokens, point in ((2, 0.7), (5, 3.1), (100, 6.0)):
        factor = obligations.convexity_factor().subs(sp.Symbol("n", positive=True), tokens)
        g = closed_forms.lambda_c_equation(u, tokens)
        values = [float(e.subs(u, point)) for e in (obligations.convexity_parts(tokens)["convex"][0], factor * g)]
        assert math.isclose(*values, rel_tol=1e-12) and float(factor.subs(u, point)) > 0


def test_lambda_c_root_matches_the_closed_form_equation() -> None:
    for tokens in (2, 3, 10, 100):
        root = sc.lambda_c_scaled(tokens)
        g = closed_forms.lambda_c_equation(u, tokens)
        assert float(g.subs(u, root - 1e-6)) < 0 < float(g.subs(u, root + 1e-6))


def test_superadditivity_readings(tmp_path: Path) -> None:
    registry = load_all()
    base = Context("quick", 0, tmp_path)
    stated = run_claim(registry.get("T22.superadditivity"), base)
    reading_b = run_claim(registry.get("T22.superadditivity.reading-b"), base)
    covers = run_claim(registry.get(sc.COVER_CLAIM), base)
    assert stated.verdict is Verdict.REFUTED and covers.verdict is Verdict.CERTIFIED
    assert reading_b.verdict is Verdict.PROVED  # all n, symbolically; its one certificate is the SMT lemma (the
    # sign of g and its one root), not a convexity chain per n
    assert [Path(c).name.split(".smt.")[0] for c in reading_b.certificates] == ["T22.superadditivity.reading-b"]
    assert len(covers.certificates) == len(sc.QUICK_TOKENS)  # one convexity chain per listed n
    witness = stated.outcomes[0][1].witness
    n, lambdas = witness["n"], [float(Fraction(v)) for v in witness["lambdas"]]
    phi = [2 * x / (math.exp(x) + n - 1) for x in lambdas]
    mean = sum(lambdas) / len(lambdas)
    assert mean > sc.lambda_c_scaled(n) and sum(phi) < len(phi) * 2 * mean / (math.exp(mean) + n - 1)


def test_prove_inequality_reads_both_sides() -> None:
    x = sp.Symbol("x", positive=True)
    box = {x: (Fraction(1, 2), Fraction(2))}
    assert prove_inequality(sp.log(x) < x - 1 + sp.Rational(1, 100), box).status == "proved"
    assert prove_inequality(x**2 <= x, box).status == "counterexample"
    assert prove_inequality(sp.exp(x) >= 1 + x, box).status == "proved"
