"""Orders in beta of trajectory observables (`property = "grows-like"`, issue 43 item 3): metastable merge times and
the number of emerging clusters.

On the equiangular softmax reduction the merge time's bracket decides exactly (log T = Theta(beta) PROVED, wrong
orders REFUTED with the limits shown); the bracket agrees with the integrated merge time; elsewhere the float route's
fit is at most CONFIRMED and a wrong order is never CONFIRMED; bad fields are one clear error.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from headflow.certificates.claims.loader import load_claims, parse_claims
from headflow.certificates.errors import InputError
from headflow.checks.claimsfile import beta_orders
from headflow.checks.claimsfile.dynamics_decider import decide_dynamics
from headflow.checks.claimsfile.dynamics_starts import configuration, first_time
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict
from headflow.identities import reduced_clustering as rc
from headflow.identities.derivation import Derivation

ROOT = Path(__file__).resolve().parents[3]
EQUIANGULAR = """[[claim]]
id = "c"
kind = "dynamics"
quantity = "merge_time"
radius = 0.1
k = 3
property = "grows-like"
order = "Theta(beta)"
of = "log"
attention = "softmax"
heads = "scalar"
lambdas = [1.0]
tokens = "equiangular"
rho = 0.2
n = 4
d = 4
beta = 1.0
"""


@pytest.fixture(autouse=True)
def _no_certificate_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The verdicts here are the route's; the search for their `reduced-time` certificates (seconds to tens of
    seconds each) is tested in tests/certificates/kernel/test_reduced_time_orders.py."""
    monkeypatch.setattr(beta_orders, "certify_grows_like", lambda *args: None)


def _decided(text: str) -> object:
    (claim,) = parse_claims(text)
    return decide_dynamics(claim, Context("quick", seed=0))


@pytest.mark.parametrize(
    ("order", "of", "verdict"),
    [
        ("Theta(beta)", "log", Verdict.PROVED),
        ("O(exp(beta))", "log", Verdict.PROVED),
        ("Omega(sqrt(beta))", "log", Verdict.PROVED),
        ("o(beta)", "log", Verdict.REFUTED),  # log T >= beta/200 for large beta
        ("Theta(beta**2)", "log", Verdict.REFUTED),
        ("~ beta", "log", Verdict.REFUTED),  # log T/beta <= 4/5 + o(1) < 1
        ("Theta(beta)", "quantity", Verdict.REFUTED),  # T/beta -> oo
        ("Omega(beta**3)", "quantity", Verdict.PROVED),  # T >= DA exp(beta/200)
        ("O(exp(beta))", "quantity", Verdict.PROVED),  # T <= 4 DA exp(4 beta/5)
        ("O(exp(beta/2))", "quantity", Verdict.INCONCLUSIVE),  # the bracket's rates 1/200 and 4/5 straddle 1/2
    ],
)
def test_the_equiangular_merge_time_is_decided_on_the_reduction(order: str, of: str, verdict: Verdict) -> None:
    outcome = _decided(EQUIANGULAR.replace('"Theta(beta)"', f'"{order}"').replace('"log"', f'"{of}"'))
    if verdict is Verdict.INCONCLUSIVE:  # the float route then runs, and the exact route's details join it
        assert outcome.verdict is not Verdict.PROVED and "exact_route" in outcome.details
        return
    assert outcome.verdict is verdict, outcome.notes
    assert outcome.method.startswith("exact: the equiangular softmax reduction")
    if verdict is Verdict.REFUTED:
        assert outcome.witness["verified_by"] in ("exact", "ball") and "bracket" in outcome.witness


def test_a_start_that_already_merged_has_time_zero_at_every_beta() -> None:
    merged = EQUIANGULAR.replace("rho = 0.2", "rho = 0.999")  # sqrt(2 - 2 rho) = 0.045 <= 0.1 at t = 0
    assert _decided(merged).verdict is Verdict.REFUTED  # log 0 has no order
    assert _decided(merged.replace('of = "log"\n', "").replace("Theta", "O")).verdict is Verdict.PROVED


@pytest.mark.parametrize("beta", [1.0, 3.0])
def test_the_bracket_holds_the_integrated_merge_time(beta: float) -> None:
    (claim,) = parse_claims(EQUIANGULAR.replace("radius = 0.1", "radius = 0.5"))
    cfg = configuration(claim.options, np.random.default_rng(0))
    measured, _ = first_time(claim, dataclasses.replace(cfg, beta=beta), 100.0)
    low, high, gained = rc.softmax_time_from(Derivation(), sp.Rational(1, 5))
    values = {rc.n: 4, rc.lam: 1, rc.rho1: sp.Rational(7, 8), rc.beta: sp.Float(beta)}
    lower, upper = (float((factor * gained).xreplace(values)) for factor in (low, high))
    assert measured is not None and lower <= measured <= upper


def test_the_clustering_time_and_a_wrong_neighbour() -> None:
    clustering = EQUIANGULAR.replace('quantity = "merge_time"\nradius = 0.1\nk = 3', 'quantity = "clustering_time"')
    clustering = clustering.replace("beta = 1.0", "beta = 1.0\nlevel = 0.01")
    assert _decided(clustering).verdict is Verdict.PROVED
    assert _decided(clustering.replace("Theta(beta)", "o(sqrt(beta))")).verdict is Verdict.REFUTED


def test_the_float_route_never_refutes_and_says_when_the_grid_is_not_asymptotic() -> None:
    two_groups = EQUIANGULAR.replace('tokens = "equiangular"\nrho = 0.2\nn = 4\nd = 4', "").replace(
        "beta = 1.0",
        'tokens = "given"\npoints = [[1, 0], ["99/101", "20/101"], [0, 1], ["20/101", "99/101"]]\nn = 4\nd = 2\n'
        "beta = 1.0\ntime = 400.0",
    )
    for order in ("Theta(beta)", "Theta(1)"):  # the true order and a wrong one: neither is settled by the grid
        outcome = _decided(two_groups.replace("Theta(beta)", order))
        assert outcome.verdict is Verdict.INCONCLUSIVE
        assert "does not pin the exponent" in outcome.notes or "did not come" in outcome.notes


def test_the_fit_recovers_a_known_exponent_and_its_relations() -> None:
    (claim,) = parse_claims(EQUIANGULAR.replace('of = "log"\n', "").replace("Theta(beta)", "Theta(sqrt(beta))"))
    betas = beta_orders.grid(1.0, "quick")
    estimate, _ = beta_orders.exponent(claim, betas, [3 * b**0.5 for b in betas])
    assert estimate is not None and abs(estimate.value) < 1e-9
    assert beta_orders.judge("Theta", estimate)[0] == "holds"
    faster, _ = beta_orders.exponent(claim, betas, [3 * b for b in betas])  # Q ~ beta: e = 1/2
    assert faster is not None and faster.value == pytest.approx(0.5)
    assert [beta_orders.judge(r, faster)[0] for r in ("Theta", "O", "Omega", "o")] == [
        "fails",
        "fails",
        "holds",
        "undecided",
    ]


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ('order = "Theta(beta)"', 'order = "Theta(t)"', "order"),
        ('order = "Theta(beta)"', 'order = "exp(beta)"', "order"),
        ('order = "Theta(beta)"', 'order = "Theta(__import__(beta))"', "order"),
        ('of = "log"', 'of = "sqrt"', "of"),
        ('of = "log"', 'as = "n -> oo"', "as"),
        ("beta = 1.0", "beta = 0.0", "beta"),
        ("radius = 0.1\nk = 3", "radius = 0.1", "time"),  # cluster_count needs the time it is read at
        ('property = "grows-like"', 'property = "at-most"', "order"),
    ],
)
def test_bad_fields_are_one_clear_error(old: str, new: str, field: str) -> None:
    text = EQUIANGULAR.replace(old, new)
    if field == "time":
        text = text.replace('quantity = "merge_time"', 'quantity = "cluster_count"')
    with pytest.raises(InputError, match=field):
        parse_claims(text)
    with pytest.raises(InputError, match="domain"):
        parse_claims(EQUIANGULAR + '[claim.domain]\nrho = "[1/10, 1/5]"\n'.replace("rho = 0.2\n", ""))


@pytest.mark.slow
def test_emerging_clusters_on_the_circle_grow_like_sqrt_beta(tmp_path: Path) -> None:
    claims = [c for c in load_claims(ROOT / "examples" / "metastability.toml") if c.id.startswith("circle-clusters.")]
    results = run_claims(register_claims(claims).claims(), Context("quick", seed=0, certificate_dir=tmp_path))
    verdicts = {r.claim.id: r.verdict for r in results}
    assert verdicts == {
        "circle-clusters.sqrt-beta": Verdict.CONFIRMED,
        "circle-clusters.linear-in-beta": Verdict.INCONCLUSIVE,  # a wrong order is never CONFIRMED
    }
