"""Rescaled tokens z_i(t) = exp(-t V) x_i(t) as observables (issue 43, item 3): rescaled_boundary_distance and
rescaled_cluster_count of the flat softmax dynamics (Geshkovski-Letrouit-Polyanskiy-Rigollet's polytope theorem).

The hull depths agree with hand-computed ones; the rescaling is the one that makes the hull of the z_i shrink (checked
on a trajectory, independently of the observables); a limit of a rescaled observable is read at the records' times and
judged by the rescaled tokens' speed (the tokens themselves never stop); wrong statements are not CONFIRMED; bad
input is one clear error.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.errors import InputError
from headflow.checks.claimsfile.dynamics_starts import quantity
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.evidence.limits import settle
from headflow.checks.integrator import integrate
from headflow.checks.model import families, rescaled
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict
from scipy.spatial import ConvexHull

POINTS = '[[1, 0], [0, 1], ["3/5", "4/5"], [-1, 0]]'


def _flat(X: np.ndarray, M: np.ndarray, W: np.ndarray | None = None) -> Configuration:
    return Configuration.create(X, M, W, beta=1.0, attention="softmax", geometry="flat")


def _claim(quantity: str, prop: str, target: str, **fields: object) -> str:
    key = {"tends-to": "limit", "decays-at-rate": "rate"}.get(prop, "bound")
    options = {
        "geometry": '"flat"',
        "attention": '"softmax"',
        "values": '"identity"',
        "heads": '"scalar"',
        "lambdas": "[1.0]",
        "tokens": '"given"',
        "points": POINTS,
        "n": 4,
        "d": 2,
        "beta": 1.0,
        "time": 4.0,
    } | fields
    if quantity == "rescaled_cluster_count":
        options.setdefault("radius", 0.01)
    extra = "\n".join(f"{k} = {v}" for k, v in options.items())
    return (
        f'[[claim]]\nid = "c"\nkind = "dynamics"\nquantity = "{quantity}"\nproperty = "{prop}"\n'
        f'{key} = "{target}"\n{extra}\n'
    )


def _verdict(text: str, tmp_path: Path) -> Verdict:
    claims = parse_claims(text)
    [result] = run_claims(register_claims(claims).claims(), Context("quick", seed=0, certificate_dir=tmp_path))
    return result.verdict


def test_hull_depths_by_hand() -> None:
    square = np.array([[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [0.0, 0.0], [0.5, 0.0]])
    assert rescaled.hull_depths(square) == pytest.approx([0, 0, 0, 0, 1.0, 0.5], abs=1e-12)
    line = np.array([[0.0, 0.0], [1.0, 1.0], [0.5, 0.5]])  # a flat hull: every point on its boundary in R^2
    assert np.all(rescaled.hull_depths(line) == 0)
    assert rescaled.hull_depths(np.array([[0.0], [3.0], [1.0]])) == pytest.approx([0, 0, 1.0])
    # the distance to the boundary or to 0: a token at the origin inside the square is at distance 0
    cfg = _flat(square, np.array([np.eye(2)]), np.array([np.eye(2)]))
    assert rescaled.rescaled_boundary_distance(cfg, time=0.0) == pytest.approx([0, 0, 0, 0, 0, 0.5], abs=1e-12)


def test_the_rescaling_is_exp_of_minus_t_times_the_summed_values() -> None:
    rng = np.random.default_rng(3)
    X = families.random_sphere_tokens(4, 3, rng)
    heads = np.array([0.5 * np.eye(3), 1.5 * np.eye(3)])  # aligned values: V = (0.5 + 1.5) I
    assert rescaled.rescaled_tokens(_flat(X, heads), 0.7) == pytest.approx(np.exp(-2.0 * 0.7) * X)


def test_the_rescaled_hull_shrinks_along_a_trajectory() -> None:
    """GLPR: with V = I the z_i move towards convex combinations of the z_j, so conv z(t) is non-increasing; a wrong
    rescaling (exp(-t/2) here) lets it grow. Checked on the trajectory, from the hull's facets at earlier records."""
    rng = np.random.default_rng(1)
    cfg = _flat(families.random_sphere_tokens(7, 2, rng), np.array([np.eye(2)]), np.array([np.eye(2)]))
    times = np.linspace(0.0, 3.0, 7)
    traj = integrate(cfg, 3.0, rtol=1e-10, atol=1e-12, record_times=times, observables=())
    Z = [rescaled.rescaled_tokens(cfg.moved_to(X), t) for X, t in zip(traj.states, traj.times, strict=True)]
    for earlier, later in itertools.pairwise(Z):
        facets = ConvexHull(earlier).equations
        assert np.max(later @ facets[:, :-1].T + facets[:, -1]) <= 1e-9
    wrong = [np.exp(t / 2) * z for z, t in zip(Z, traj.times, strict=True)]
    facets = ConvexHull(wrong[0]).equations
    assert np.max(wrong[-1] @ facets[:, :-1].T + facets[:, -1]) > 0.1


def test_a_rescaled_limit_reads_the_records_times_and_the_rescaled_speed() -> None:
    """The tokens grow like e^t and never stop; the rescaled ones do, and their count is read at each record's time."""
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8], [-1.0, 0.0]])
    cfg = _flat(X, np.array([np.eye(2)]), np.array([np.eye(2)]))
    with pytest.raises(InputError, match="its time"):
        quantity("rescaled_cluster_count", cfg, None, 0.01)
    count = settle(
        cfg,
        lambda s, t: quantity("rescaled_cluster_count", s, None, 0.01, t),
        4.0,
        2,
        timed=rescaled.rescaled_speed,
    )
    assert count.settled and count.value == 3 and count.speed < 1e-6
    untimed = settle(cfg, lambda s: rescaled.rescaled_cluster_count(s, 0.01, time=0.0), 4.0, 2)
    assert not untimed.settled and "token speed" in untimed.reason  # the unrescaled tokens are still moving


def test_true_claims_confirmed_and_wrong_ones_not(tmp_path: Path) -> None:
    assert _verdict(_claim("rescaled_boundary_distance", "tends-to", "0"), tmp_path) is Verdict.CONFIRMED
    assert _verdict(_claim("rescaled_boundary_distance", "at-most", "0"), tmp_path) is Verdict.CONFIRMED
    assert _verdict(_claim("rescaled_cluster_count", "tends-to", "3"), tmp_path) is Verdict.CONFIRMED
    # deliberately wrong: a wrong limit, a wrong count, a count the run leaves (4 at t = 0, 3 at the end)
    assert _verdict(_claim("rescaled_boundary_distance", "tends-to", "1/2"), tmp_path) is Verdict.INCONCLUSIVE
    assert _verdict(_claim("rescaled_cluster_count", "tends-to", "2"), tmp_path) is Verdict.INCONCLUSIVE
    assert _verdict(_claim("rescaled_cluster_count", "at-least", "4"), tmp_path) is Verdict.CONFIRMED  # on [0, 4]
    assert _verdict(_claim("rescaled_cluster_count", "at-least", "4", time=16.0), tmp_path) is Verdict.INCONCLUSIVE
    # violated at t = 0, where the rescaled tokens are the exact start: REFUTED exactly
    assert _verdict(_claim("rescaled_cluster_count", "at-least", "5"), tmp_path) is Verdict.REFUTED


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"geometry": '"sphere"'}, "on the sphere the tokens stay unit vectors"),
        ({"geometry": '"pre-ln"'}, "pre-ln is a normalization scheme"),
        ({"attention": '"usa"'}, "weights that sum to 1"),
        ({"exists": "true"}, "of every start"),
    ],
)
def test_rescaled_tokens_where_they_mean_nothing_are_one_clear_error(fields: dict[str, str], message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_claims(_claim("rescaled_boundary_distance", "tends-to", "0", **fields))


def test_a_property_read_without_times_is_refused() -> None:
    text = _claim("rescaled_boundary_distance", "tends-to", "0").replace('"tends-to"', '"non-negative"')
    with pytest.raises(InputError, match="decided as tends-to, at-most, at-least"):
        parse_claims(text.replace('limit = "0"\n', ""))
