"""The exact zero test of derivations (headflow.identities.zero_test): identities shown 0, non-identities never."""

from __future__ import annotations

import pytest
import sympy as sp
from headflow.identities.closed_forms import c_star
from headflow.identities.derivation import Derivation
from headflow.identities.zero_test import checked_rewrite, is_identically_zero

x, y = sp.symbols("x y", real=True)
n = sp.Symbol("n", positive=True)
j = sp.Symbol("j", integer=True)
a = sp.IndexedBase("a")
_E = 1 - c_star(sp.Integer(10) ** 30) ** 2


@pytest.mark.parametrize(
    "residual",
    [
        (x + 1) ** 3 - x**3 - 3 * x**2 - 3 * x - 1,
        sp.exp(x + y) - sp.exp(x) * sp.exp(y),
        (x + 1) ** 2 - x**2 - 2 * x - 1,
        sp.exp(x / 2) ** 2 - sp.exp(x),
        1 / (x + 1) - 1 / (x + 2) - 1 / ((x + 1) * (x + 2)),
        sp.sqrt(x) ** 2 - x,
        sp.sqrt(x + 1) ** 3 - (x + 1) * sp.sqrt(x + 1),
        sp.log(x) * sp.exp(-sp.log(x)) * sp.exp(sp.log(x)) - sp.log(x),
        sp.Sum(a[j] + 2 * x * a[j] ** 2, (j, 1, n)) - sp.Sum(a[j], (j, 1, n)) - 2 * x * sp.Sum(a[j] ** 2, (j, 1, n)),
        sp.Sum(1, (j, 1, n)) - n,
    ],
)
def test_identities_are_shown_zero(residual: sp.Expr) -> None:
    assert is_identically_zero(residual)


@pytest.mark.parametrize(
    "residual",
    [
        x - y,
        sp.exp(x) - 1 - x,
        sp.sqrt(x**2) - x if not isinstance(sp.sqrt(x**2), sp.Abs) else sp.Abs(x) - x,  # false for x < 0
        sp.log(x * y) - sp.log(x) - sp.log(y),  # needs x, y > 0: never used silently
        sp.Add(sp.Float("0.5") * x, -x / 2, evaluate=False),  # floats are refused (even an exact one)
        # issue 23's class, built without SymPy's sign-dependent rewrite: sqrt(e^2) - (-e) for e = 1 - c*(10^30)^2
        sp.Add(sp.Pow(_E**2, sp.Rational(1, 2), evaluate=False), _E, evaluate=False),
        sp.sqrt(2) * sp.sqrt(3) - sp.Rational(2449489742783178, 10**15),
    ],
)
def test_non_identities_are_not_shown_zero(residual: sp.Expr) -> None:
    assert not is_identically_zero(residual)


def test_derivation_zero_step_rests_on_the_exact_test() -> None:
    """A wrong step is rejected and recorded; a right one is kept with the exact mark."""
    d = Derivation()
    assert d.zero("right", (x + 1) ** 2 - x**2 - 2 * x - 1)
    assert not d.zero("wrong", (x + 1) ** 2 - x**2 - 2 * x)
    assert d.steps[0].text.endswith("[checked exactly: residual = 0]") and len(d.failures) == 1


def test_simplify_only_proposes() -> None:
    """A simplified form is accepted only once shown equal; a wrong proposal is dropped."""
    assert checked_rewrite((x**2 - 1) / (x - 1), sp.cancel) == x + 1
    assert checked_rewrite(x**2 - 1, lambda e: e + 1) is None


def test_a_residual_cancelled_as_it_was_formed_is_not_called_checked() -> None:
    """`lhs - rhs` that SymPy's arithmetic already reduced to the number 0 leaves the exact test nothing to check: the
    step says so (a residual that needed the test says "checked exactly")."""
    x = sp.Symbol("x")
    d = Derivation()
    assert d.zero("built", x - x) and d.zero("tested", (x + 1) ** 2 - x**2 - 2 * x - 1)
    assert d.all_zero("mixed", [x - x, (x + 1) ** 2 - x**2 - 2 * x - 1])
    built, tested, mixed = (step.text for step in d.steps)
    assert built.endswith("[residual = 0 as built by SymPy's arithmetic: nothing left for the exact test]")
    assert tested.endswith("[checked exactly: residual = 0]")
    assert mixed.endswith("[checked exactly: 2 residuals = 0 (1 of them 0 as built by SymPy's arithmetic)]")
