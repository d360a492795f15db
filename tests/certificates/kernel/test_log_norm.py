"""The kernel's Jacobian over balls (forward differentiation in every direction at once, `equilibrium.Dual`) and the
logarithmic-norm bound the trajectory steps rest on (`trajectory.bounds_log_norm`): derivatives against their closed
forms and against first-order series, the bound against an eigenvalue numpy computes, a bound just below it refused."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from flint import arb, arb_mat, arb_series
from headflow.certificates.kernel import trajectory
from headflow.certificates.kernel.equilibrium import jacobian
from headflow.certificates.kernel.exact import ball_of, precision
from headflow.certificates.kernel.exprtree import TreeError
from headflow.certificates.kernel.model_chain import compiled_in

from tests.certificates.kernel.test_trajectory import statement


def elementary(x: list) -> list:
    """Every operation the chain's trees use: sums, products, quotients both ways, powers, exp, sqrt and log."""
    a, b = x
    return [a * b + 3, a.exp() / b, a**3, b.sqrt(), a.log(), 2 / b, ball_of(Fraction(5))]


def test_the_jacobian_of_each_operation_is_its_closed_form() -> None:
    with precision(128):
        a, b = arb(3) / 2, arb(5) / 4
        J = jacobian(elementary, [a, b])
        expected = [
            [b, a],
            [a.exp() / b, -a.exp() / b**2],
            [3 * a**2, 0],
            [0, 1 / (2 * b.sqrt())],
            [1 / a, 0],
            [0, -2 / b**2],
            [0, 0],
        ]
        for i, row in enumerate(expected):
            for k, value in enumerate(row):
                assert J[i, k].overlaps(arb(value)) and J[i, k].rad() < 1e-30, (i, k)


def series_jacobian(f, point: list[arb]) -> arb_mat:
    """The Jacobian by first-order series, one direction at a time (the kernel's former method)."""
    n = len(point)
    columns = [f([arb_series([v, int(j == k)], prec=2) for j, v in enumerate(point)]) for k in range(n)]
    return arb_mat([[arb_series(c[i], prec=2)[1] for c in columns] for i in range(n)])


def test_the_jacobian_of_the_model_field_is_the_one_series_give() -> None:
    """At a point of a softmax configuration (3 tokens in the plane): the same derivatives, to the working precision."""
    data = statement(">=", "0") | {"configuration": statement(">=", "0")["configuration"] | {"attention": "softmax"}}
    parsed = trajectory.statement_of(data, "demo")
    with precision(128):
        point = [ball_of(v) for x in parsed.cfg.tokens for v in x]
        forward, series = jacobian(parsed.field, point), series_jacobian(parsed.field, point)
        for i in range(len(point)):
            for k in range(len(point)):
                assert abs(forward[i, k] - series[i, k]).upper() < 1e-30


def linear(A: np.ndarray):
    """x -> A x over balls or `Dual` values (A's entries as exact rationals)."""
    rows = [[ball_of(Fraction(v).limit_denominator(1000)) for v in row] for row in A]
    return lambda x: [sum((xk * a for xk, a in zip(x, row, strict=True)), arb(0)) for row in rows]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_log_norm_bound_holds_just_above_the_largest_eigenvalue_and_not_just_below(seed: int) -> None:
    """For x' = A x, mu_2 = lambda_max((A + A^T) / 2), computed by numpy apart: the kernel shows any mu 1e-6 above it
    and refuses 1e-6 below it (a bound too small is never accepted; the elimination is not the diagonal's)."""
    A = np.array(
        [
            [float(Fraction(v).limit_denominator(1000)) for v in row]
            for row in np.random.default_rng(seed).normal(size=(6, 6))
        ]
    )
    largest = float(np.linalg.eigvalsh((A + A.T) / 2)[-1])
    box = [arb(0, 1)] * 6  # a linear field's Jacobian is A on any box
    with precision(128):
        assert trajectory.bounds_log_norm(linear(A), box, Fraction(largest + 1e-6))
        assert not trajectory.bounds_log_norm(linear(A), box, Fraction(largest - 1e-6))


def test_a_node_without_a_rule_is_refused_when_a_tree_is_compiled() -> None:
    with pytest.raises(TreeError):
        compiled_in(["sub", ["rat", "1"], ["sym", "x"]], ball_of)
