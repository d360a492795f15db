"""The registry's derivations rest on checked facts, not on SymPy's evaluation (issue 23, item 1, registry side).

Each replaced fact has a deliberately false variant here that the new check rejects: a sign the structural prover
must not prove, a zero the exact test must not show, a limit identities.limits must not establish."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import sympy as sp
from headflow.certificates.statements import registry as obligations
from headflow.identities import closed_forms as cf
from headflow.identities import convexity, energy, limits, scalar_regime, signs
from headflow.identities import linearized_clustering as lc
from headflow.identities import reduced_clustering as rc
from headflow.identities.closed_forms import LambdaC, c_star
from headflow.identities.derivation import Derivation

#: 1 - c*(10^30)^2 > 0, whose sign SymPy's evaluation gets wrong (issue 23).
CANCELLING = 1 - c_star(sp.Integer(10) ** 30) ** 2

ROOT = Path(__file__).resolve().parents[3]


def test_a_sign_dependent_rewrite_does_not_pass_as_a_zero_step() -> None:
    """sqrt(e^2) + e for e = 1 - c*(10^30)^2 > 0 is 2e != 0. Expanding it lets SymPy rewrite sqrt(e^2) = -e (its
    numerical sign of e is wrong), and the old zero step (expand, then simplify) accepted it; the exact test reads
    sqrt(e^2) as a root atom and does not."""
    residual = sp.Add(sp.Pow(CANCELLING**2, sp.Rational(1, 2), evaluate=False), CANCELLING, evaluate=False)
    derivation = Derivation()
    assert not derivation.zero("sqrt(e^2) = -e", residual)
    assert not derivation.proved


def test_lambda_c_positivity_is_not_read_from_a_numerical_sign() -> None:
    """lambda_c(n, beta) needs n > 1: at n = 1 - e (e > 0 above) it is not positive; SymPy's sign of -e said it was."""
    assert LambdaC(1 - CANCELLING, 1).is_positive is not True
    assert LambdaC(sp.Integer(3), sp.Integer(2)).is_positive is True


@pytest.mark.parametrize(
    ("expr", "relation", "facts"),
    [
        (-energy.q_sym / energy.n, ">=0", energy._FACTS),  # T11 with the wrong sign
        (energy.q_sym - 1, ">=0", energy._FACTS),
        (cf.lambda_c_equation(cf.u, cf.n).subs(cf.u, 0) + 4 * cf.n, "<0", convexity.FACTS),  # g(0) = 2n > 0
        (sp.exp(cf.u) + cf.n - 3, ">0", convexity.FACTS),  # n - 3 may be < 0 for n >= 1
        (-2 / (sp.sqrt(scalar_regime.k**2 + 4) + scalar_regime.k), ">0", scalar_regime.FACTS),
        (sp.diff(sp.exp(rc.beta * rc.lam * (1 - rc.rho)), rc.rho), ">0", rc.FACTS),  # it decreases
        (sp.log(rc.rho1), ">0", rc.FACTS),  # 0 < rho1 < 1: ln rho1 < 0
    ],
)
def test_false_variants_of_replaced_sign_facts_are_not_proved(expr: sp.Expr, relation: str, facts: signs.Facts) -> None:
    assert signs.prove(expr, relation, facts) is None


def test_wrong_derivations_do_not_prove() -> None:
    assert not convexity.prove_convex_regime(inflection=cf.lambda_c_equation(cf.u, cf.n) + 4 * cf.n).proved
    assert not scalar_regime.prove_golden(cf.golden).proved  # c*(2) = 1/phi, not phi
    assert not scalar_regime.prove_c_star(-c_star(scalar_regime.H)).proved
    assert not energy.prove_energy_rate("sphere", lambda q: -q / energy.n).derivation.proved


def test_true_derivations_still_prove() -> None:
    assert convexity.prove_superadditivity().proved
    assert all(prove().proved for prove in (scalar_regime.prove_c_star, scalar_regime.prove_golden))
    assert scalar_regime.prove_lambda_max().proved and scalar_regime.prove_lambda_c_monotone().proved


def test_integer_solutions_of_the_discriminant_equation_are_enumerated_exactly() -> None:
    assert scalar_regime._square_gaps(4) == [0]
    assert scalar_regime._square_gaps(5) == [2]  # 3^2 - 2^2
    assert scalar_regime._square_gaps(12) == [2]  # 4^2 - 2^2 only: 12 = 1 * 12 = 3 * 4 have factors of mixed parity


s = sp.Symbol("s", positive=True)
x = sp.Symbol("x", positive=True)
POSITIVE = signs.facts(positive=[s, x])


@pytest.mark.parametrize(
    ("found", "value"),
    [
        (limits.at_point((sp.exp(s) - 1) / s, s, sp.Integer(0), POSITIVE), 1),
        (limits.at_point((1 - sp.cos(s)) / s**2, s, sp.Integer(0), POSITIVE), sp.Rational(1, 2)),  # Taylor, order 2
        (limits.at_point(sp.sqrt(s) / s, s, sp.Integer(0), POSITIVE), None),  # not smooth at 0: no limit
        (limits.at_infinity(x * sp.log(1 + 1 / x), x, POSITIVE), 1),
        (limits.at_infinity(sp.log(x) / x, x, POSITIVE), 0),
        (limits.at_infinity(sp.log(x), x, POSITIVE), None),  # diverges
        (limits.at_infinity(x / (x + 1), x, POSITIVE), 1),
        (limits.at_zero(s * sp.log(s) ** 2, s, POSITIVE), 0),
        (limits.at_zero(1 / s, s, POSITIVE), None),
        (limits.at_zero((1 + sp.log(s)) / (2 + 3 * sp.log(s)), s, POSITIVE), sp.Rational(1, 3)),
    ],
)
def test_limits_are_established_only_when_they_hold(found: tuple[sp.Expr, str] | None, value: object) -> None:
    if value is None:
        assert found is None
    else:
        assert found is not None and sp.expand(found[0] - value) == 0


def test_a_wrong_limit_is_not_recorded() -> None:
    derivation = Derivation()
    assert not limits.record_limit(derivation, "wrong", limits.at_infinity(x / (x + 1), x, POSITIVE), sp.Integer(2))
    assert not limits.record_limit(derivation, "none", None, sp.Integer(0))
    assert len(derivation.failures) == 2


def test_logs_are_split_only_over_proved_positive_factors() -> None:
    y = sp.Symbol("y", real=True)
    known = POSITIVE.with_signs(real=[y])
    assert limits.split_logs(sp.log(s * x**2), known) == sp.log(s) + 2 * sp.log(x)
    assert limits.split_logs(sp.log(s * y**2), known) == sp.log(s * y**2)  # y may be 0 or negative


def test_t25_limits_come_from_the_checked_route() -> None:
    for prove in (rc.relu_large_n_limit, rc.softmax_upper_bound, rc.softmax_log_growth, lc.softmax_zeroth_order):
        derivation = Derivation()
        prove(derivation)
        assert derivation.proved, derivation.failures
        assert any("[limit:" in step.text for step in derivation.steps)
    derivation = Derivation()
    _, ratio = lc.softmax_first_order(derivation)
    assert derivation.proved and ratio == 0


def test_convexity_factor_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """phi'' = K g with K > 0; with the sign of g flipped, K < 0 is proposed and the sign prover rejects it."""
    obligations.convexity_factor.cache_clear()
    monkeypatch.setattr(cf, "lambda_c_equation", lambda u, n: -((u - 2) * sp.exp(u) - (n - 1) * (u + 2)))
    with pytest.raises(ValueError, match="not a positive multiple"):
        obligations.convexity_factor()
    obligations.convexity_factor.cache_clear()


def test_a_limit_through_exponentials_reads_the_same_in_every_process() -> None:
    """lim exp(lam beta / 2) / (exp(lam beta) + 1): the step names one base c of the exponentials; it was taken from
    a set's order, so two processes (different hash seeds) printed c = lam/2 or c = lam for the same proof."""
    code = (
        "import sympy as sp\nfrom headflow.identities import limits, signs\n"
        "b, l = sp.symbols('beta lam', positive=True)\n"
        "known = signs.Facts({b: 'positive', l: 'positive'})\n"
        "print(limits.at_infinity(sp.exp(l * b / 2) / (sp.exp(l * b) + 1), b, known))"
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(6)
    }
    assert len(seen) == 1 and "c = lam/2" in next(iter(seen)), seen
