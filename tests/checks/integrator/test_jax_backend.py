"""The optional jitted backend (`checks.model.jax_field`, `checks.integrator.jax_solver`): the same field as
`field.token_velocity`, the same engine as the numpy integrator (the same accepted and rejected steps and final
states), refusals by name, `headflow simulate --backend jax`, and checks that can fail.

One file, so that jax is imported once per worker and the default tests share one shape (n, d, H) = (5, 3, 2) and
one compiled loop (softmax, sphere, DP5(4)): compiling costs seconds. The other kinds, geometries, DOP853 and the
attacks are `slow`.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from headflow.certificates.errors import InputError
from headflow.checks import cli
from headflow.checks.integrator import cluster_gap_below, integrate
from headflow.checks.integrator.controller import FixedStep
from headflow.checks.integrator.methods import METHODS
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration

pytest.importorskip("jax")
from headflow.checks.model import jax_field

#: Largest |jax - numpy| of the velocity, relative to max(1, max |velocity|) (both float64, a few roundings apart).
AGREEMENT = 1e-13
#: Largest difference of the final states of the two backends after the same steps (the error estimates differ
#: by roundings, relative ~1e-16 / rtol, so the step sizes differ in their last digits).
SAME_FINAL = 1e-12
SHAPE = (5, 3, 2)


def disagreement(cfg: Configuration, evaluate: object) -> float:
    """max |evaluate(X) - token_velocity(cfg at X)| / max(1, max |token_velocity|) at cfg's tokens."""
    expected = model.token_velocity(cfg)
    got = evaluate(np.array(cfg.tokens))  # type: ignore[operator]
    return float(np.max(np.abs(got - expected)) / max(1.0, float(np.max(np.abs(expected)))))


def configuration(
    attention: str = "softmax",
    geometry: str = "sphere",
    shape: tuple[int, int, int] = SHAPE,
    beta: float = 1.3,
    seed: int = 0,
) -> Configuration:
    """Random tokens (unit rows on the sphere, non-unit in flat space), heads M_h and values W_h."""
    n, d, H = shape
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    X = X / np.linalg.norm(X, axis=1, keepdims=True) if geometry == "sphere" else 0.7 * X
    M, W = rng.standard_normal((H, d, d)), rng.standard_normal((H, d, d))
    return Configuration.create(X, M, W, beta=beta, attention=attention, geometry=geometry)


def both(cfg: Configuration, T: float, **options: object) -> tuple:
    """The numpy and the jax run of the same problem, recording the start and the end only."""
    runs = [integrate(cfg, T, observables=(), record_times=[0.0, T], backend=b, **options) for b in ("numpy", "jax")]
    return tuple(runs)


def assert_same_engine(cfg: Configuration, T: float, **options: object) -> None:
    ours, jitted = both(cfg, T, **options)
    assert (jitted.status, jitted.method, jitted.t_end) == (ours.status, ours.method, ours.t_end)
    assert (jitted.accepted, jitted.rejected) == (ours.accepted, ours.rejected)
    assert np.max(np.abs(jitted.final.tokens - ours.final.tokens)) <= SAME_FINAL


@pytest.mark.parametrize(("attention", "geometry"), [("usa", "flat"), ("softmax", "sphere"), ("relu", "sphere")])
def test_the_jax_field_is_token_velocity(attention: str, geometry: str) -> None:
    for seed, beta in enumerate((1.3, -0.8, 6.0)):
        cfg = configuration(attention, geometry, beta=beta, seed=seed)
        assert disagreement(cfg, jax_field.field_function(cfg)) <= AGREEMENT


def test_queries_and_keys_are_score_matrices() -> None:
    rng = np.random.default_rng(4)
    X = rng.standard_normal((5, 3))
    Q, K = rng.standard_normal((2, 2, 3)), rng.standard_normal((2, 2, 3))
    cfg = Configuration.create(X, queries=Q, keys=K, beta=2.0, attention="softmax", normalize=True)
    assert disagreement(cfg, jax_field.field_function(cfg)) <= AGREEMENT


def test_a_wrong_beta_is_caught_by_the_agreement_check() -> None:
    cfg = configuration()
    assert disagreement(cfg, jax_field.field_function(replace(cfg, beta=cfg.beta * (1 + 1e-9)))) > AGREEMENT


@pytest.mark.parametrize(
    ("option", "changes"),
    [
        ("mask", {"mask": "causal"}),
        ("interaction", {"interaction": "s**2", "attention": "usa"}),
        ("geometry", {"geometry": "pre-ln"}),
        ("geometry", {"geometry": "ngpt"}),
    ],
)
def test_uncovered_options_are_refused_by_name(option: str, changes: dict) -> None:
    cfg = Configuration.create(configuration().tokens, np.eye(3)[None], **{"attention": "softmax", **changes})
    for call in (lambda: jax_field.field_function(cfg), lambda: integrate(cfg, 1.0, backend="jax")):
        with pytest.raises(InputError) as error:
            call()
        assert error.value.field == option


def test_what_the_jax_backend_does_not_take_is_refused() -> None:
    cfg = configuration()
    with pytest.raises(InputError, match="events"):
        integrate(cfg, 1.0, events=(cluster_gap_below(1e-3),), backend="jax")
    with pytest.raises(InputError, match="PI controller"):
        integrate(cfg, 1.0, controller=FixedStep(0.1), backend="jax")
    with pytest.raises(InputError, match="expected one of auto, numpy, jax"):
        integrate(cfg, 1.0, backend="numba")


def test_without_jax_the_backend_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jax", None)  # `import jax` raises ImportError
    with pytest.raises(InputError, match=r"install headflow\[jit\]"):
        integrate(configuration(), 1.0, backend="jax")


@pytest.mark.slow
def test_the_jax_engine_takes_the_numpy_engines_steps() -> None:
    """DP5(4) with rejected steps (a tight first step is not given: Hairer's rule is shared too)."""
    cfg = configuration(beta=3.0)
    assert_same_engine(cfg, 4.0, rtol=1e-7, atol=1e-9, method="dp54")
    ours, jitted = both(cfg, 4.0, rtol=1e-3, atol=1e-5, method="dp54", first_step=2.0)
    assert jitted.rejected == ours.rejected >= 1
    assert np.max(np.abs(jitted.final.tokens - ours.final.tokens)) <= SAME_FINAL


def test_the_same_engine_check_can_fail() -> None:
    """Another tolerance gives other steps: the comparison sees it."""
    cfg = configuration(beta=3.0)
    ours = integrate(cfg, 4.0, rtol=1e-7, atol=1e-9, method="dp54", observables=(), record_times=[0.0, 4.0])
    jitted = integrate(
        cfg, 4.0, rtol=2e-7, atol=1e-9, method="dp54", observables=(), record_times=[0.0, 4.0], backend="jax"
    )
    assert (jitted.accepted, jitted.rejected) != (ours.accepted, ours.rejected)


@pytest.mark.slow
def test_simulate_with_the_jax_backend(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    n, d, H = SHAPE
    options = ["--n", str(n), "--d", str(d), "--heads", str(H), "--head-family", "symmetric", "--method", "dp54"]
    assert (
        cli.main(["simulate", *options, "--T", "2", "--samples", "3", "--backend", "jax", "--out", str(tmp_path)]) == 0
    )
    data = np.load(tmp_path / "trajectory.npz")
    assert str(data["status"]) == "completed" and list(data["times"]) == [0.0, 1.0, 2.0]
    cfg = Configuration.create(data["tokens"][0], data["scores"], beta=float(data["beta"]), attention="softmax")
    ours = integrate(cfg, 2.0, rtol=1e-8, atol=1e-10, method="dp54", record_times=[0.0, 1.0, 2.0], observables=())
    assert np.max(np.abs(data["tokens"] - ours.states)) <= 1e-7  # records end jax steps, numpy interpolates
    assert "DP5(4) steps" in capsys.readouterr().out
    stopped = ["simulate", *options, "--backend", "jax", "--stop-gap", "0.1", "--out", str(tmp_path / "x")]
    assert cli.main(stopped) == 2


@pytest.mark.slow
def test_the_field_in_blocks_of_query_rows_is_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of 4 query rows, the last one padded (the weights of large n, made small here; a shape no other test
    compiles): the same field for every kind, and the numpy engine's steps."""
    monkeypatch.setattr(jax_field, "WHOLE_BYTES", 0)
    monkeypatch.setattr(jax_field, "BLOCK_BYTES", 8 * 2 * 10 * 4)
    assert jax_field.query_rows(10, 2) == 4
    for attention in jax_field.JAX_ATTENTION:
        cfg = configuration(attention, shape=(10, 3, 2), beta=2.0, seed=11)
        assert disagreement(cfg, jax_field.field_function(cfg)) <= AGREEMENT
    assert_same_engine(configuration(shape=(10, 3, 2), beta=2.0, seed=11), 2.0, rtol=1e-8, atol=1e-10, method="dp54")


@pytest.mark.slow
def test_the_jax_field_leaves_out_the_own_term_at_large_strengths() -> None:
    """usa on the sphere at beta lambda = 50 (issue 39): two tokens at <x_1, x_2> = -0.63, whose own weights
    e^50 / n the projection V - <V, x> x of the whole velocity cancels to ~1e5 of noise, while the true velocity is
    below 1e-5. The jax field agrees with token_velocity to rounding relative to its own size; the premise: the
    cancelling form does not."""
    angle = np.arccos(-0.63)
    X = np.array([[1.0, 0.0, 0.0], [np.cos(angle), np.sin(angle), 0.0]])
    cfg = Configuration.create(X, np.stack([np.eye(3), 0.4 * np.eye(3)]), beta=50.0, attention="usa")
    expected = model.token_velocity(cfg)
    size = float(np.max(np.abs(expected)))
    got = jax_field.field_function(cfg)(X)
    assert 0 < size < 1e-5 and float(np.max(np.abs(got - expected))) <= AGREEMENT * size
    V = model.velocity(cfg)
    cancelling = V - np.sum(V * X, axis=1, keepdims=True) * X
    assert float(np.max(np.abs(cancelling - expected))) > 1.0


@pytest.mark.slow
def test_dop853_leaves_out_the_fsal_stage_after_the_last_step_only() -> None:
    """Two starting evaluations, 11 stages per attempt and the FSAL stage per accepted step but the run's last:
    with records at 0 and 2 the count of both engines; with a record inside the last step the numpy engine
    evaluates that stage and the dense output's extra stages; with a record at 1 too (a segment ends there, and the
    step after it starts from its FSAL stage) the same count and the numpy engine's final state."""
    cfg = configuration(beta=2.0)
    ours, jitted = both(cfg, 2.0, rtol=1e-9, atol=1e-11, method="dop853")
    assert (jitted.accepted, jitted.rejected) == (ours.accepted, ours.rejected)
    assert np.max(np.abs(jitted.final.tokens - ours.final.tokens)) <= SAME_FINAL
    assert jitted.evaluations == ours.evaluations == 2 + 11 * (ours.accepted + ours.rejected) + ours.accepted - 1
    inside = integrate(cfg, 2.0, rtol=1e-9, atol=1e-11, method="dop853", observables=(), record_times=[1.999])
    extra = len(METHODS["dop853"].c) - METHODS["dop853"].stages  # the dense output's stages
    assert inside.evaluations == ours.evaluations + 1 + extra
    options = {"rtol": 1e-9, "atol": 1e-11, "method": "dop853", "observables": (), "record_times": [0.0, 1.0, 2.0]}
    split = integrate(cfg, 2.0, backend="jax", **options)
    assert split.evaluations == 2 + 11 * (split.accepted + split.rejected) + split.accepted - 1
    assert np.max(np.abs(split.final.tokens - integrate(cfg, 2.0, **options).final.tokens)) <= 1e-8


def spied_loops(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """The `shifted` flag of every jitted loop a run asks for (the loops themselves are the real ones)."""
    from headflow.checks.integrator import jax_solver

    asked: list[bool] = []
    loop = jax_solver._segment

    def spy(method: str, attention: str, geometry: str, shifted: bool) -> object:
        asked.append(shifted)
        return loop(method, attention, geometry, shifted)

    monkeypatch.setattr(jax_solver, "_segment", spy)
    return asked


@pytest.mark.slow
def test_scores_growing_out_of_the_unshifted_bound_switch_to_the_shifted_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Flat softmax with values 1.5 I: the tokens grow, the bound on |beta s| passes UNSHIFTED_SOFTMAX_BOUND
    during the run (and exp(beta s) would leave float64 by the end); the jax run discards the step that left it,
    goes on shifted, and takes the numpy engine's steps."""
    rng = np.random.default_rng(5)
    X = rng.standard_normal((5, 3))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    M = np.stack([100.0 * np.eye(3), 60.0 * np.eye(3)])
    cfg = Configuration.create(X, M, 1.5 * np.eye(3)[None].repeat(2, 0), attention="softmax", geometry="flat")
    asked = spied_loops(monkeypatch)
    assert_same_engine(cfg, 1.0, rtol=1e-8, atol=1e-10, method="dp54")
    ours = integrate(cfg, 1.0, rtol=1e-8, atol=1e-10, method="dp54", observables=(), record_times=[0.0, 1.0])
    assert jax_field.unshifted(X, M) and not jax_field.unshifted(ours.final.tokens, M)  # the premise
    assert asked[0] is False and asked[-1] is True


@pytest.mark.slow
def test_softmax_beyond_the_bound_at_the_start_is_shifted_from_the_first_step(monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = configuration(beta=80.0, seed=2)
    assert not jax_field.unshifted(np.array(cfg.tokens), cfg.beta * np.asarray(cfg.score_matrices))
    assert disagreement(cfg, jax_field.field_function(cfg)) <= AGREEMENT
    asked = spied_loops(monkeypatch)
    assert_same_engine(cfg, 0.2, rtol=1e-8, atol=1e-10, method="dop853")
    assert asked[-1] is True


@pytest.mark.slow
@pytest.mark.parametrize("method", ["dp54", "dop853"])
@pytest.mark.parametrize("geometry", jax_field.JAX_GEOMETRIES)
@pytest.mark.parametrize("attention", jax_field.JAX_ATTENTION)
def test_the_same_engine_for_every_kind_geometry_and_pair(attention: str, geometry: str, method: str) -> None:
    """Every kind, geometry and pair of the jax backend takes the numpy engine's steps. In flat space usa and relu
    blow up in finite time (here near t = 0.145 and t = 2.23): their horizons stop before. relu's weights
    max(beta s, 0) have kinks, where the controller rejects steps by the hundred and an error estimate within
    rounding of 1 is accepted by one backend and rejected by the other: there the runs must agree on the accepted
    steps to 5% and on the final state to the tolerance asked, not step for step."""
    cfg = configuration(attention, geometry, beta=2.0, seed=3)
    assert disagreement(cfg, jax_field.field_function(cfg)) <= AGREEMENT
    T = {("usa", "flat"): 0.1, ("relu", "flat"): 1.0}.get((attention, geometry), 3.0)
    if attention != "relu":
        assert_same_engine(cfg, T, rtol=1e-8, atol=1e-10, method=method)
        return
    ours, jitted = both(cfg, T, rtol=1e-8, atol=1e-10, method=method)
    assert (jitted.status, jitted.method, jitted.t_end) == (ours.status, ours.method, ours.t_end)
    assert abs(jitted.accepted - ours.accepted) <= 2 + ours.accepted // 20
    assert np.max(np.abs(jitted.final.tokens - ours.final.tokens)) <= 1e-6


@pytest.mark.slow
@pytest.mark.parametrize(("rtol", "T"), [(1e-13, 2.0), (1e-2, 2.0), (1e-8, 1e-12)])
def test_the_same_engine_at_the_ladders_ends_and_a_tiny_horizon(rtol: float, T: float) -> None:
    assert_same_engine(configuration(beta=2.0), T, rtol=rtol, atol=rtol * 1e-2)


@pytest.mark.slow
@pytest.mark.parametrize("attention", jax_field.JAX_ATTENTION)
def test_two_tokens_and_one_head(attention: str) -> None:
    cfg = configuration(attention, "sphere", shape=(2, 3, 1), beta=1.5, seed=7)
    assert disagreement(cfg, jax_field.field_function(cfg)) <= AGREEMENT
    assert_same_engine(cfg, 3.0, rtol=1e-8, atol=1e-10)


@pytest.mark.slow
def test_an_overflowing_stage_is_rejected_and_the_step_shrunk_as_in_numpy() -> None:
    """usa in flat space near exp's limit (beta s ~ 676, values ~ 1e-296): a long trial step's stages overflow;
    both engines reject it, shrink the step and go on until the blow-up stops them at the same time."""
    X = np.array([[26.0, 0.0], [25.9, 0.1]])
    M = np.eye(2)[None]
    cfg = Configuration.create(X, M, 1e-296 * M, beta=1.0, attention="usa", geometry="flat")
    failures = []
    for backend in ("numpy", "jax"):
        with pytest.raises(InputError, match="step size underflow") as error:
            integrate(cfg, 1.0, observables=(), record_times=[0.0, 1.0], method="dp54", first_step=1.0, backend=backend)
        failures.append(error.value.partial)  # type: ignore[attr-defined]
    ours, jitted = failures
    assert (jitted.accepted, jitted.rejected) == (ours.accepted, ours.rejected)
    assert jitted.t_end == pytest.approx(ours.t_end, rel=1e-12)
    assert np.all(np.isfinite(jitted.final.tokens))
    assert jitted.evaluations > ours.evaluations  # numpy stops a step at its overflowing stage, jax evaluates all


@pytest.mark.slow
def test_an_overflow_at_the_start_is_a_clear_error() -> None:
    cfg = configuration("usa", "flat", beta=1.0)
    huge = Configuration.create(30 * cfg.tokens, cfg.score_matrices, beta=5.0, attention="usa", geometry="flat")
    with pytest.raises(InputError, match="leaves float64"):
        integrate(huge, 1.0, backend="jax")


@pytest.mark.slow
def test_records_at_many_times_agree_with_numpy_and_keep_rows_on_the_sphere() -> None:
    cfg = configuration(beta=2.0)
    grid = np.linspace(0.0, 3.0, 31)
    ours = integrate(cfg, 3.0, rtol=1e-10, atol=1e-12, record_times=grid)
    jitted = integrate(cfg, 3.0, rtol=1e-10, atol=1e-12, record_times=grid, backend="jax")
    assert np.array_equal(jitted.times, ours.times)
    assert np.max(np.abs(jitted.states - ours.states)) <= 1e-8
    assert np.max(np.abs(np.linalg.norm(jitted.states, axis=2) - 1.0)) <= 1e-15
    for name, values in ours.observables.items():
        assert np.allclose(jitted.observables[name], values, rtol=1e-6, atol=1e-8), name
