"""Every tableau meets its order conditions (rooted trees, 50-digit arithmetic); a wrong coefficient fails them."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from headflow.checks.integrator.methods import METHODS
from headflow.checks.integrator.tableau import Tableau

from tests.rooted_trees import density, largest_defect, size, trees

TABLEAUS = list(METHODS.values())
#: The orders of b minus each error row (the embedded solutions), as published.
EMBEDDED_ORDERS = {"DP5(4)": (4,), "DOP853": (5, 3)}
#: The order of each continuous extension, as published.
DENSE_ORDERS = {"DP5(4)": 4, "DOP853": 7}
#: Residuals of the published coefficients: exact rationals give 0, DOP853's 30-digit decimals about 1e-28.
TOLERANCE = mpmath.mpf("1e-24")

mpmath.mp.dps = 50


def _mp(values: tuple[Fraction, ...]) -> list[mpmath.mpf]:
    return [mpmath.mpf(v.numerator) / v.denominator for v in values]


def _a(tableau: Tableau) -> list[list[mpmath.mpf]]:
    return [_mp(row) for row in tableau.a]


def test_rooted_trees_are_counted_correctly() -> None:
    assert [len(trees(p)) for p in range(1, 10)] == [1, 1, 2, 4, 9, 20, 48, 115, 286]
    assert all(size(t) == p for p in range(1, 7) for t in trees(p))
    assert density(((), ())) == 3 and density((((),),)) == 6  # b c^2 = 1/3, b A c = 1/6


@pytest.mark.parametrize("tableau", TABLEAUS, ids=lambda t: t.name)
def test_nodes_are_the_row_sums(tableau: Tableau) -> None:
    for c_i, row in zip(_mp(tableau.c), _a(tableau), strict=True):
        assert abs(c_i - sum(row, mpmath.mpf(0))) < TOLERANCE


@pytest.mark.parametrize("tableau", TABLEAUS, ids=lambda t: t.name)
def test_the_weights_have_the_stated_order_and_no_more(tableau: Tableau) -> None:
    a, b = _a(tableau), _mp(tableau.b)
    assert largest_defect(b, a, tableau.order, mpmath.mpf(1)) < TOLERANCE
    assert largest_defect(b, a, tableau.order + 1, mpmath.mpf(1)) > 1e-6


@pytest.mark.parametrize("tableau", TABLEAUS, ids=lambda t: t.name)
def test_each_embedded_solution_has_its_order(tableau: Tableau) -> None:
    a, b = _a(tableau), _mp(tableau.b)
    for row, order in zip(tableau.error, EMBEDDED_ORDERS[tableau.name], strict=True):
        embedded = [b_i - e_i for b_i, e_i in zip(b, _mp(row), strict=True)]
        assert largest_defect(embedded, a, order, mpmath.mpf(1)) < TOLERANCE
        assert largest_defect(embedded, a, order + 1, mpmath.mpf(1)) > 1e-6


@pytest.mark.parametrize("tableau", TABLEAUS, ids=lambda t: t.name)
def test_the_continuous_extension_has_its_order_and_ends_at_b(tableau: Tableau) -> None:
    assert tableau.dense is not None
    a, order = _a(tableau), DENSE_ORDERS[tableau.name]
    for theta in (mpmath.mpf(1) / 3, mpmath.mpf(1) / 2, mpmath.mpf(7) / 8, mpmath.mpf(1)):
        weights = [sum(d * theta ** (k + 1) for k, d in enumerate(_mp(row))) for row in tableau.dense]
        assert largest_defect(weights, a, order, mpmath.mpf(1), theta) < TOLERANCE
    at_one = [sum(_mp(row), mpmath.mpf(0)) for row in tableau.dense]
    b = _mp(tableau.b) + [mpmath.mpf(0)] * (len(tableau.c) - tableau.stages)
    assert max(abs(u - v) for u, v in zip(at_one, b, strict=True)) < TOLERANCE


@pytest.mark.parametrize("tableau", TABLEAUS, ids=lambda t: t.name)
def test_an_fsal_stage_sits_at_the_new_state(tableau: Tableau) -> None:
    assert tableau.fsal
    s = tableau.stages
    assert tableau.a[s - 1] == tableau.b[: s - 1] and tableau.b[s - 1] == 0 and tableau.c[s - 1] == 1


def _float_defect(tableau: Tableau) -> float:
    """The largest order-condition or row-sum residual of the float coefficients (about 1e-15 when right)."""
    a = [list(row) for row in tableau.matrix]
    rows = max(abs(c - sum(row)) for c, row in zip(tableau.nodes, a, strict=True))
    b = largest_defect(list(tableau.weights), a, tableau.order, 1.0)
    errors = (
        largest_defect(list(tableau.weights - e), a, p, 1.0)
        for e, p in zip(tableau.error_weights, EMBEDDED_ORDERS[tableau.name], strict=True)
    )
    dense = largest_defect(list(tableau.dense_weights(0.5)), a, DENSE_ORDERS[tableau.name], 1.0, 0.5)
    return max(rows, b, *errors, dense)


def _perturbed(tableau: Tableau, field: str, index: tuple[int, ...]) -> Tableau:
    """The tableau with one coefficient multiplied by 1 + 1e-6 (or set to 1e-6 where it is zero)."""
    nested = [list(row) for row in getattr(tableau, field)] if field != "b" else list(tableau.b)
    target = nested[index[0]] if len(index) == 2 else nested
    k = index[-1]
    target[k] = target[k] * Fraction(1_000_001, 1_000_000) if target[k] else Fraction(1, 1_000_000)
    value = tuple(tuple(row) for row in nested) if field != "b" else tuple(nested)
    return replace(tableau, **{field: value})


@pytest.mark.parametrize("tableau", TABLEAUS, ids=lambda t: t.name)
def test_any_single_wrong_coefficient_is_caught(tableau: Tableau) -> None:
    assert _float_defect(tableau) < 1e-12
    rng = np.random.default_rng(1)
    places = [("b", (k,)) for k in range(tableau.stages - 1)]
    places += [("a", (i, j)) for i in range(1, len(tableau.c)) for j in range(i)]
    places += [("dense", (i, k)) for i in range(len(tableau.c)) for k in range(len(tableau.dense[0]))]
    for pick in rng.choice(len(places), size=40, replace=False):
        field, index = places[pick]
        assert _float_defect(_perturbed(tableau, field, index)) > 1e-9, (field, index)
