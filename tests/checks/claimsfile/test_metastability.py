"""Metastability, merges and the mean field as claims (issue 43, item 3): merge_radius, merge_time,
closest_pair_merges_first, w2_to_dirac and kde_mode_count.

The examples are decided rightly (examples/metastability.toml); the formulas agree with independent computations (W2 to
a Dirac mass by minimizing over z, merge heights against scipy's single linkage and the graph's components); a wrong
claim is refuted exactly or with balls at the start, and bad fields are one clear error.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from headflow.certificates.claims.loader import load_claims, parse_claims
from headflow.certificates.errors import InputError
from headflow.checks.claimsfile import beta_orders
from headflow.checks.claimsfile.given_start import BALLS, EXACT, _squared_distances, refuted_at_start
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.model import families, field, kde
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict
from headflow.identities import equiangular_quantities as eq
from scipy.cluster.hierarchy import linkage
from scipy.optimize import minimize
from scipy.sparse.csgraph import connected_components
from scipy.special import ive

ROOT = Path(__file__).resolve().parents[3]
TWO_GROUPS = '[[1, 0], ["99/101", "20/101"], [0, 1], ["20/101", "99/101"]]'


def _cfg(X: np.ndarray) -> Configuration:
    return Configuration.create(X, np.array([np.eye(X.shape[1])]), beta=1.0)


def _claim(quantity: str, prop: str, bound: str, points: str = TWO_GROUPS, **fields: object) -> str:
    extra = "\n".join(f"{key} = {value}" for key, value in fields.items())
    return (
        f'[[claim]]\nid = "c"\nkind = "dynamics"\nquantity = "{quantity}"\nproperty = "{prop}"\nbound = "{bound}"\n'
        f'heads = "scalar"\nlambdas = [1.0]\ntokens = "given"\npoints = {points}\nn = 4\nd = 2\nbeta = 1.0\n{extra}\n'
    )


#: The float route's orders in beta over many tokens (a grid of runs per start, ~3 s each): the slow test decides them.
SLOW = ("circle-clusters.", "kde-modes.")


@pytest.fixture(autouse=True)
def _no_certificate_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The verdicts here are the route's; the search for their `reduced-time` certificates (seconds to tens of
    seconds each) is tested in tests/certificates/kernel/test_reduced_time_orders.py."""
    monkeypatch.setattr(beta_orders, "certify_grows_like", lambda *args: None)


def test_the_examples_are_decided_rightly(tmp_path: Path) -> None:
    claims = [c for c in load_claims(ROOT / "examples" / "metastability.toml") if not c.id.startswith(SLOW)]
    results = run_claims(register_claims(claims).claims(), Context("quick", seed=0, certificate_dir=tmp_path))
    verdicts = {r.claim.id: r.verdict for r in results}
    expected = {
        "w2.given.at-most-three-fifths": Verdict.REFUTED,
        "w2.equiangular.tends-to-0": Verdict.PROVED,
        "w2.equiangular.tends-to-a-tenth": Verdict.REFUTED,
        "merge-radius.equiangular.tends-to-0": Verdict.PROVED,
        "merge-radius.two-groups.at-least-a-fifth": Verdict.REFUTED,
        "merge-time.two-groups.beta-6.last-at-most-12": Verdict.INCONCLUSIVE,
        "merge-time.two-groups.radius-quarter.second-after-half": Verdict.REFUTED,
        "closest-pair.two-groups.not-first": Verdict.REFUTED,
        "merge-time.equiangular.log-grows-like-beta": Verdict.PROVED,
        "merge-time.equiangular.grows-like-beta": Verdict.REFUTED,
        "clustering-time.equiangular.log-o-of-sqrt-beta": Verdict.REFUTED,
        "merge-time.two-groups.log-last-grows-like-beta": Verdict.INCONCLUSIVE,
        "rescaled.polytope.given.tends-to-a-tenth": Verdict.INCONCLUSIVE,
        "rescaled.polytope.given.at-least-a-hundredth": Verdict.REFUTED,
        "rescaled.vertices.given.one": Verdict.INCONCLUSIVE,
        "rescaled.vertices.given.at-most-three": Verdict.REFUTED,
    }
    assert {i: verdicts[i] for i in expected} == expected
    assert all(v is Verdict.CONFIRMED for i, v in verdicts.items() if i not in expected), verdicts
    witness = {r.claim.id: r.outcomes[0][1].witness for r in results}
    assert witness["merge-time.two-groups.radius-quarter.second-after-half"]["value"] == "0"
    assert witness["closest-pair.two-groups.not-first"]["value"] == "1"
    assert witness["w2.given.at-most-three-fifths"]["verified_by"] == "ball"
    assert witness["rescaled.vertices.given.at-most-three"]["value"] == "4"
    assert witness["rescaled.polytope.given.at-least-a-hundredth"]["value"] == "0"


@pytest.mark.parametrize("seed", range(3))
def test_w2_to_dirac_is_the_least_mean_squared_distance_over_unit_z(seed: int) -> None:
    rng = np.random.default_rng(seed)
    X = families.random_sphere_tokens(5, 3, rng)

    def cost(angles: np.ndarray) -> float:
        a, b = angles
        z = np.array([np.sin(a) * np.cos(b), np.sin(a) * np.sin(b), np.cos(a)])
        return float(np.mean(np.sum((X - z) ** 2, axis=1)))

    grid = [(a, b) for a in np.linspace(0, np.pi, 31) for b in np.linspace(0, 2 * np.pi, 61)]
    best = min(
        minimize(cost, start, method="Nelder-Mead", options={"xatol": 1e-12, "fatol": 1e-14}).fun
        for start in sorted(grid, key=cost)[:3]
    )
    assert field.w2_to_dirac(_cfg(X)) == pytest.approx(np.sqrt(best), rel=1e-6)


def test_w2_to_dirac_at_a_collapse_and_at_mean_zero() -> None:
    collapsed = np.tile([0.0, 0.6, 0.8], (4, 1)) + np.array([[0, 0, 0], [1e-9, 0, 0], [0, 0, 0], [0, 0, 0]])
    collapsed /= np.linalg.norm(collapsed, axis=1)[:, None]
    assert field.w2_to_dirac(_cfg(collapsed)) == pytest.approx(
        np.sqrt(3 / 16) * 1e-9, rel=1e-6
    )  # sqrt(V), V = (9 + 3) / 64 * 1e-18
    antipodal = np.array([[1.0, 0.0], [-1.0, 0.0]])  # mean 0: every unit z costs 2
    assert field.w2_to_dirac(_cfg(antipodal)) == pytest.approx(np.sqrt(2.0))


def test_the_closed_form_at_equiangular_tokens_is_the_formula_at_such_tokens() -> None:
    (form,) = eq.values("usa", "w2_to_dirac", [sp.Integer(1)])
    rho = 0.3
    X = np.array(
        [
            [np.sqrt(1 - rho), 0, 0, np.sqrt(rho)],
            [0, np.sqrt(1 - rho), 0, np.sqrt(rho)],
            [0, 0, np.sqrt(1 - rho), np.sqrt(rho)],
        ]
    )
    assert float(form.subs({eq.rho: sp.Rational(3, 10), eq.n: 3})) == pytest.approx(field.w2_to_dirac(_cfg(X)))


@pytest.mark.parametrize("seed", range(3))
def test_merge_heights_are_single_linkage_and_count_the_clusters(seed: int) -> None:
    rng = np.random.default_rng(seed)
    X = families.random_sphere_tokens(7, 3, rng)
    cfg = _cfg(X)
    heights = np.sqrt(np.maximum(field.merge_heights(field.squared_distances(cfg)), 0))
    assert heights == pytest.approx(linkage(X, method="single")[:, 2], rel=1e-9)
    for k in range(1, 7):
        assert field.merge_radius(cfg, k) == pytest.approx(heights[k - 1])
    distances = np.linalg.norm(X[:, None] - X[None], axis=2)
    for radius in (0.1, 0.5, 0.9, 1.4):
        components = connected_components(distances <= radius)[0]
        assert field.cluster_count(cfg, radius) == components


def test_exact_heights_and_balls_at_rational_tokens() -> None:
    rows = tuple(
        tuple(Fraction(v) for v in row) for row in [[1, 0], ["99/101", "20/101"], [0, 1], ["20/101", "99/101"]]
    )
    squared = field.merge_heights(_squared_distances(rows))
    assert squared == [
        Fraction(4, 101),
        Fraction(4, 101),
        2 - 2 * Fraction(2 * 99 * 20, 101**2),
    ]  # the groups meet at their inner tokens
    assert EXACT["cluster_count"](rows, Fraction(1, 4)) == 2
    assert float(BALLS["merge_radius"](rows, Fraction(1)).mid()) == pytest.approx(np.sqrt(4 / 101))
    w2 = BALLS["w2_to_dirac"](rows, None)
    assert float(w2.mid()) == pytest.approx(field.w2_to_dirac(_cfg(np.array(rows, dtype=float))))


def test_a_wrong_claim_is_refuted_at_the_start_and_a_true_one_is_not() -> None:
    (wrong,) = parse_claims(_claim("merge_radius", "at-least", "1/5", k=1))
    outcome = refuted_at_start(wrong)
    assert outcome is not None and outcome.verdict is Verdict.REFUTED and outcome.witness["verified_by"] == "ball"
    (true,) = parse_claims(_claim("merge_radius", "at-least", "19/100", k=1))  # sqrt(4/101) = 0.199 >= 0.19
    assert refuted_at_start(true) is None
    (late,) = parse_claims(_claim("merge_time", "at-least", "1/10", radius=0.25, k=2))
    assert refuted_at_start(late).witness["value"] == "0"  # type: ignore[union-attr]
    (later,) = parse_claims(_claim("merge_time", "at-least", "1/10", radius=0.25, k=3))  # the groups are apart
    assert refuted_at_start(later) is None


def test_the_fields_are_checked() -> None:
    with pytest.raises(InputError, match="k"):
        parse_claims(_claim("merge_time", "at-most", "1", radius=0.1, k=4))  # k from 1 to n - 1
    with pytest.raises(InputError, match="missing"):
        parse_claims(_claim("merge_time", "at-most", "1", radius=0.1))
    with pytest.raises(InputError, match="only used"):
        parse_claims(_claim("w2_to_dirac", "at-most", "1", k=1))
    with pytest.raises(InputError, match="one number per trajectory"):
        parse_claims(_claim("closest_pair_merges_first", "non-negative", "1", radius=0.1).replace('bound = "1"\n', ""))


# ---------------------------------------------------------------- kde_mode_count


def _circle(angles: np.ndarray) -> np.ndarray:
    return np.column_stack([np.cos(angles), np.sin(angles)])


def _modes(X: np.ndarray, beta: float) -> float:
    return kde.kde_mode_count(Configuration.create(X, np.array([np.eye(X.shape[1])]), beta=beta))


def test_kde_modes_of_groups_and_of_one_point() -> None:
    rng = np.random.default_rng(0)
    centres = np.array([[1.0, 0.0, 0.0], [-0.6, 0.8, 0.0]])
    groups = centres[np.arange(10) % 2] + 0.01 * rng.standard_normal((10, 3))
    groups /= np.linalg.norm(groups, axis=1, keepdims=True)
    assert _modes(groups, 20.0) == 2  # two far-apart tight groups
    assert _modes(groups, 0.5) == 1  # a wide kernel: one mode near the mean direction
    assert _modes(np.array([[0.0, 0.0, 1.0]] * 2), 3.0) == 1  # one point (twice)


def test_kde_modes_of_two_tokens_split_at_the_computed_threshold() -> None:
    """Tokens at angles +-a: log f(u) = log 2 + beta cos(a) cos(u) + log cosh(beta sin(a) sin(u)), whose second
    derivative at u = 0 is beta (beta sin(a)^2 - cos(a)): the midpoint is a maximum (one mode) below
    beta* = cos(a) / sin(a)^2 and a minimum between two modes above it."""
    for a in (0.3, 0.5, 1.0):
        threshold = np.cos(a) / np.sin(a) ** 2
        X = _circle(np.array([-a, a]))
        assert _modes(X, 0.97 * threshold) == 1
        assert _modes(X, 1.03 * threshold) == 2


@pytest.mark.parametrize("n", [3, 5, 8])
def test_equally_spaced_tokens_on_the_circle_are_n_modes_at_every_beta(n: int) -> None:
    """By Jacobi-Anger, f(u) = n I_0(beta) + 2n sum_{m >= 1} I_{mn}(beta) cos(m n u) with every I_k(beta) > 0: the n
    tokens are the n maxima at every beta > 0 (no threshold; at small beta the depth 2n I_n(beta) is below float
    resolution, where each token is a degenerate maximum in floats)."""
    u = np.linspace(0.0, np.pi / n, 9)  # from a token to the midpoint of its gap
    for beta in (0.05, 1.0, 40.0):
        series = sum(ive(m * n, beta) * np.cos(m * n * u) for m in range(1, 200 // n))
        f = np.sum(np.exp(beta * (_circle(u) @ _circle(2 * np.pi * np.arange(n) / n).T - 1.0)), axis=1)
        assert np.allclose(f, n * ive(0, beta) + 2 * n * series, rtol=1e-12)  # the series is f (scaled by e^-beta)
        assert np.all(np.diff(series) < 0)  # strictly falling from the token to the midpoint: the token is the maximum
        assert _modes(_circle(2 * np.pi * np.arange(n) / n), beta) == n


@pytest.mark.parametrize("seed", range(3))
def test_kde_modes_agree_with_the_local_maxima_on_a_fine_grid(seed: int) -> None:
    """Random tokens on the circle: the count equals the strict local maxima of f sampled at 2^16 angles (f's own
    sum, not mean-shift)."""
    rng = np.random.default_rng(seed)
    X = _circle(rng.uniform(0.0, 2 * np.pi, 40))
    grid = _circle(np.linspace(0.0, 2 * np.pi, 2**16, endpoint=False))
    for beta in (3.0, 30.0, 300.0):
        f = np.sum(np.exp(beta * (grid @ X.T - 1.0)), axis=1)
        maxima = int(np.sum((f > np.roll(f, 1)) & (f > np.roll(f, -1))))
        assert _modes(X, beta) == maxima


@pytest.mark.slow
def test_kde_modes_from_uniform_starts_grow_like_sqrt_beta(tmp_path: Path) -> None:
    """The examples' order in beta of the modes at t = 0 (3 starts, 6 betas, 256 tokens: ~3.5 s on 2 cores)."""
    claims = [c for c in load_claims(ROOT / "examples" / "metastability.toml") if c.id.startswith("kde-modes.")]
    results = run_claims(register_claims(claims).claims(), Context("quick", seed=0, certificate_dir=tmp_path))
    verdicts = {r.claim.id: r.verdict for r in results}
    assert verdicts == {
        "kde-modes.circle.sqrt-beta": Verdict.CONFIRMED,
        "kde-modes.circle.linear-in-beta": Verdict.INCONCLUSIVE,  # a wrong order is never CONFIRMED
    }
    worst = {r.claim.id: r.outcomes[0][1].details["worst_start"] for r in results}
    assert abs(worst["kde-modes.circle.sqrt-beta"]["fitted"]) <= worst["kde-modes.circle.sqrt-beta"]["error"]
    assert worst["kde-modes.circle.linear-in-beta"]["fitted"] < -0.25  # Q/beta ~ beta^(-1/2)


def test_kde_mode_count_fields_are_checked() -> None:
    order = 'property = "grows-like"\norder = "Theta(sqrt(beta))"\ntokens = "random-sphere"\nn = 16\nd = 2\n'
    base = '[[claim]]\nid = "c"\nkind = "dynamics"\nquantity = "kde_mode_count"\nheads = "scalar"\nlambdas = [1.0]\n'
    (claim,) = parse_claims(base + order + "beta = 2.0\ntime = 0\n")  # an order in beta read at t = 0
    assert claim.options["time"] == 0
    with pytest.raises(InputError, match="beta"):
        parse_claims(base + order + "beta = -1.0\ntime = 1\n")
    with pytest.raises(InputError, match="time"):
        parse_claims(base + order + "beta = 2.0\ntime = -1\n")
    with pytest.raises(InputError, match="time"):  # at-most reads records on [0, time]: time > 0
        parse_claims(_claim("kde_mode_count", "at-most", "2", time=0))
    with pytest.raises(InputError, match="beta"):
        _modes(_circle(np.array([0.0, 1.0])), 0.0)
