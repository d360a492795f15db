"""The boundary points a quantified claim is decided at first (`domain_sampling.special_values`) lie in its domain."""

from __future__ import annotations

import pytest
import sympy as sp
from headflow.certificates.claims.domains import Domain
from headflow.checks.claimsfile.domain_sampling import special_values

n = sp.Symbol("n")


def domain(**fields: object) -> Domain:
    return Domain(text="test", **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("given", "point", "values"),
    [
        (domain(integer=True, low=sp.Integer(2), high=sp.Integer(4), low_open=True), {}, [3, 4]),
        (domain(integer=True, low=sp.Rational(5, 2), high=sp.Integer(4), high_open=True), {}, [3]),
        (domain(low=sp.Integer(-1), high=sp.Integer(1), high_open=True), {}, [-1, 0]),
        (domain(low=sp.Integer(0), high=sp.Integer(1), low_open=True), {}, [1]),
        (domain(low=-1 / (n - 1), high=sp.Integer(1)), {n: sp.Integer(3)}, [sp.Rational(-1, 2), 1, 0]),
    ],
)
def test_closed_and_integer_ends_and_a_sign_change_inside(given: Domain, point: dict, values: list) -> None:
    assert special_values(given, point) == (values, [])


@pytest.mark.parametrize("low_open", [False, True])
def test_zero_is_not_a_boundary_point_past_an_irrational_end(low_open: bool) -> None:
    """[sqrt(2), 3] does not contain 0, nor does (sqrt(2), 3]: an irrational end must not read as no end at all
    (a claim would then be decided, and perhaps refuted, at 0, outside its domain)."""
    found, gaps = special_values(domain(low=sp.sqrt(2), high=sp.Integer(3), low_open=low_open), {})
    assert 0 not in found and found == [3]
    assert bool(gaps) is not low_open  # a closed irrational end is named as not decided
