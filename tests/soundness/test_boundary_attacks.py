"""Attacks at a boundary, tried by hand on the routes of issue 43 and held here: a bound just past a trajectory's
exact start, the repulsive triangle exactly at its threshold beta = -2/3 and a float literal just below it, an order
in beta whose comparison function is a constant."""

from __future__ import annotations

from pathlib import Path

import pytest
from headflow.checks import api
from headflow.checks.claimsfile import beta_orders
from headflow.checks.verdicts import Verdict

START = 'points = [["3/5", "4/5", 0], [1, 0, 0], ["3/5", 0, "4/5"], ["7/25", "24/25", 0]]'


def _verdicts(text: str, folder: Path) -> dict[str, Verdict]:
    report = api.check(text, certificates=folder, progress=False)
    return {claim.id: claim.verdict for claim in report.claims}


def _least_inner_product(claim_id: str, bound: str) -> str:
    """The least inner product on [0, 0.1] from START is at least `bound`: the attack is at t = 0, so a short horizon
    (the bound itself is certified by a trajectory chain in about a second; to t = 0.5 it took about nine) is enough."""
    return f"""
[[claim]]
id = "{claim_id}"
kind = "dynamics"
quantity = "least_inner_product"
property = "at-least"
bound = "{bound}"
heads = "scalar"
lambdas = [1.0]
tokens = "given"
{START}
n = 4
d = 3
beta = 1.0
time = 0.1
"""


def triangle(claim_id: str, beta: str, attention: str = '"usa"') -> str:
    """A claim that the regular triangle on the circle is stable (scalar head lambda = 1)."""
    return f"""
[[claim]]
id = "{claim_id}"
kind = "equilibrium"
tokens = "simplex"
property = "stable"
n = 3
d = 2
beta = {beta}
lambdas = [1]
attention = {attention}
"""


def test_a_bound_a_hair_above_the_exact_start_is_refuted_at_t0(tmp_path: Path) -> None:
    """The least inner product of the start is exactly 21/125: a bound 10^-40 above it fails at t = 0 (exactly),
    while the bound itself is not refuted."""
    verdicts = _verdicts(
        _least_inner_product("above", "21/125 + 10**(-40)") + _least_inner_product("at", "21/125"), tmp_path
    )
    assert verdicts["above"] is Verdict.REFUTED
    assert verdicts["at"] is not Verdict.REFUTED


def test_the_repulsive_triangle_at_its_threshold_is_never_decided_either_way(tmp_path: Path) -> None:
    """At beta = -2/3 the double eigenvalue (3 beta + 2) e^(-beta/2)/4 is exactly 0: neither stable nor unstable may
    be decided (balls cannot sign an exact 0); the float literal -0.6666666666666667 is the decimal, below -2/3, where
    the triangle is stable."""
    text = triangle("at-stable", '"-2/3"') + triangle("at-unstable", '"-2/3"').replace('"stable"', '"unstable"')
    verdicts = _verdicts(text + triangle("float-below", "-0.6666666666666667"), tmp_path)
    assert verdicts["at-stable"] is Verdict.INCONCLUSIVE
    assert verdicts["at-unstable"] is Verdict.INCONCLUSIVE
    assert verdicts["float-below"] is Verdict.PROVED


def test_a_constant_order_of_an_exponentially_growing_merge_time_is_refuted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "The merge time is Theta(n)" with n a number is a bounded order in beta: the equiangular merge time grows
    exponentially in beta, so the claim is false. The verdict is the route's; its certificate's search (about 16 s:
    T/beta -> +oo) is tested in tests/certificates/kernel/test_reduced_time_orders.py."""
    monkeypatch.setattr(beta_orders, "certify_grows_like", lambda *args: None)
    text = """
[[claim]]
id = "constant-order"
kind = "dynamics"
quantity = "merge_time"
radius = 0.1
k = 1
property = "grows-like"
order = "Theta(n)"
attention = "softmax"
heads = "scalar"
lambdas = [1.0]
tokens = "equiangular"
rho = 0.2
n = 4
d = 4
beta = 1.0
"""
    assert _verdicts(text, tmp_path)["constant-order"] is Verdict.REFUTED


def test_a_bound_no_rational_a_hair_beyond_the_exact_start_is_refuted_not_confirmed(tmp_path: Path) -> None:
    """The least inner product of (1, 0) and (3/5, 4/5) is 3/5 at t = 0; "at least 3/5 + 10^-30 pi" is false there by
    3 10^-30, which floats cannot see (it was CONFIRMED): balls of more bits separate a bound that is no rational."""
    text = _least_inner_product("pi-hair", "3/5 + 10**(-30) * pi").replace(START, 'points = [[1, 0], ["3/5", "4/5"]]')
    text = text.replace("n = 4\nd = 3", "n = 2\nd = 2")
    assert _verdicts(text, tmp_path) == {"pi-hair": Verdict.REFUTED}
