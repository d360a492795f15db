"""Block evaluation (`checks.model.token_blocks`) and the memory budget (`checks.model.memory`): blocks of a few
query tokens give every quantity of the whole-array evaluation to rounding, for every kind, mask, interaction and
geometry; a configuration whose evaluation cannot fit the budget is refused with a one-line error."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from headflow.certificates.errors import InputError
from headflow.certificates.kernel.vocabulary import ATTENTION_KINDS, GEOMETRIES
from headflow.certificates.quantity_uses import RECORDED_AS, RESCALED
from headflow.checks.cli import main
from headflow.checks.model import families, memory, token_blocks
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.model.observables import EVALUATORS
from headflow.checks.model.token_blocks import heads_of

N, D, H = 11, 3, 2
#: The quantities compared (every evaluator at a state, the radius of cluster_count given) and the field's own.
#: The state quantities (cluster_count needs a radius; the rescaled tokens' quantities a time and no shared pass).
QUANTITIES = [name for name in EVALUATORS if name != "cluster_count" and name not in RESCALED]
FIELD = ("head_outputs", "velocity", "token_velocity", "weights", "attention_distributions", "partition_functions")


def _config(attention: str, geometry: str, seed: int, mask: object = None, interaction: str | None = None):
    rng = np.random.default_rng(seed)
    X = families.random_sphere_tokens(N, D, rng)
    M, W = families.random_general_heads(H, D, rng), families.random_general_heads(H, D, rng)
    return Configuration.create(X, M, W, beta=0.8, attention=attention, geometry=geometry, mask=mask,
                                interaction=interaction)  # fmt: skip


def _random_mask(seed: int) -> np.ndarray:
    mask = np.random.default_rng(seed).random((N, N)) < 0.5
    np.fill_diagonal(mask, True)
    return mask


def _values(cfg: Configuration) -> dict[str, object]:
    """Every quantity that has a value at cfg (an InputError, e.g. no entropy under an interaction, as its text)."""
    values: dict[str, object] = {}
    calls = {name: (lambda c, e=EVALUATORS[name]: e(c)) for name in QUANTITIES}
    calls |= {name: getattr(model, name) for name in FIELD}
    for name, call in calls.items():
        try:
            values[name] = np.asarray(call(cfg), dtype=float)
        except InputError as error:
            values[name] = str(error)
    return values


def _blocked_values(
    cfg: Configuration, monkeypatch: pytest.MonkeyPatch, rows: int, keys: int | None = None
) -> dict[str, object]:
    """The values at a fresh copy of cfg (none of its cached block evaluators or quantities), in blocks of `rows`
    (and, with `keys`, the velocity's tiles of that many keys)."""
    with monkeypatch.context() as patch:
        patch.setattr(memory, "BLOCK_ROWS", rows)
        if keys is not None:
            patch.setattr(token_blocks, "KEY_TILE", keys)
        assert memory.block_rows(cfg.n, cfg.d, cfg.H, cfg.mask is not None, None) == rows
        fresh = replace(cfg)
        assert heads_of(fresh).rows == rows
        return _values(fresh)


def _assert_agree(whole: dict[str, object], blocked: dict[str, object]) -> None:
    assert whole.keys() == blocked.keys()
    for name, value in whole.items():
        if isinstance(value, str):
            assert blocked[name] == value, name
        else:
            assert np.allclose(blocked[name], value, rtol=1e-12, atol=1e-13), name


CASES = [(a, g, None, None) for a in ATTENTION_KINDS for g in GEOMETRIES]
CASES += [(a, "sphere", mask, None) for a in ATTENTION_KINDS for mask in ("causal", "random")]
CASES += [
    ("usa", "sphere", None, "s**2 + 1"),
    ("softmax", "flat", None, "exp(s) + s**2"),
    ("softmax", "pre-ln", None, "s**2 + 1"),
]


@pytest.mark.parametrize(("attention", "geometry", "mask", "interaction"), CASES)
def test_blocks_of_a_few_tokens_give_every_quantity_of_the_whole_evaluation(
    attention: str, geometry: str, mask: str | None, interaction: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = _config(attention, geometry, 3, _random_mask(5) if mask == "random" else mask, interaction)
    whole = _values(cfg)
    assert memory.block_rows(N, D, H, cfg.mask is not None, None) == N  # the default: one block at this size
    for rows in (1, 4) if geometry == "sphere" else (4,):  # 4 does not divide 11: a short last block
        _assert_agree(whole, _blocked_values(cfg, monkeypatch, rows))


@pytest.mark.parametrize(("attention", "beta"), [(a, 0.8) for a in ATTENTION_KINDS] + [("softmax", 400.0)])
def test_tiles_of_a_few_keys_give_every_quantity_of_the_whole_evaluation(
    attention: str, beta: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past KEY_TILE tokens the velocity's row sums add up tiles of keys (4, 4 and 3 of 11 here, in blocks of 4
    rows); at beta = 400 a softmax needs its rows' maxima, so whole rows."""
    cfg = replace(_config(attention, "sphere", 4), beta=beta)
    whole = _values(cfg)
    with monkeypatch.context() as patch:
        patch.setattr(token_blocks, "KEY_TILE", 4)
        assert heads_of(replace(cfg))._key_slices is not None  # the premise: the tiled path is taken
    _assert_agree(whole, _blocked_values(cfg, monkeypatch, 4, keys=4))


def test_the_velocity_function_of_a_trajectory_equals_token_velocity_at_each_state() -> None:
    cfg = _config("softmax", "sphere", 1)
    velocity = model.velocity_function(cfg)
    rng = np.random.default_rng(2)
    for _ in range(3):  # the work buffers are reused; the answers are fresh arrays
        X = families.random_sphere_tokens(N, D, rng)
        first = velocity(X)
        assert np.allclose(first, model.token_velocity(cfg.moved_to(X)), rtol=1e-13, atol=1e-15)
        assert velocity(X) is not first
    with pytest.raises(InputError, match="finite"):
        velocity(np.full((N, D), np.inf))
    with pytest.raises(InputError, match="shape"):
        velocity(np.ones((N + 1, D)))


def test_a_shift_decided_on_the_cheap_bound_is_the_tight_bounds_decision() -> None:
    """Softmax at beta * scores past the unshifted range stays exact (the shift is taken) in blocks too."""
    cfg = _config("softmax", "sphere", 4)
    hot = Configuration.create(cfg.tokens, 400 * cfg.score_matrices, beta=2.0, attention="softmax")
    p = model.attention_distributions(hot)
    assert np.all(np.isfinite(p)) and np.allclose(p.sum(axis=-1), 1.0)
    with pytest.raises(InputError, match="overflow"):
        model.head_energies(hot)  # usa energy terms exp(beta s) overflow: an error, never inf


@pytest.mark.parametrize(
    ("text", "size"), [("8GiB", 8 * 2**30), ("512 MiB", 512 * 2**20), ("2000000000", 2 * 10**9), ("1.5G", 1.5e9)]
)
def test_memory_budgets_parse(text: str, size: int) -> None:
    assert memory.parse_budget(text) == size


@pytest.mark.parametrize("text", ["lots", "8 GiBs", "-1GiB", "1KiB", "", "1e9", "8GiB; rm", "9" * 50])
def test_a_bad_memory_budget_is_an_input_error(text: str) -> None:
    with pytest.raises(InputError) as info:
        memory.parse_budget(text)
    assert info.value.field == "memory_budget"


@pytest.mark.parametrize("budget", [True, 1e9, 2**19, -(2**30), [8]])
def test_a_memory_budget_that_is_not_a_whole_number_of_bytes_is_refused(budget: object) -> None:
    with pytest.raises(InputError) as info:
        Configuration.create([[1.0, 0.0], [0.0, 1.0]], np.eye(2)[None], memory_budget=budget)  # type: ignore[arg-type]
    assert info.value.field == "memory_budget"


def test_a_configuration_over_the_memory_budget_is_refused_with_what_it_needs() -> None:
    X = families.random_sphere_tokens(4096, 16, np.random.default_rng(0))
    M = families.random_symmetric_heads(4, 16, np.random.default_rng(1))
    with pytest.raises(InputError) as info:
        Configuration.create(X, M, memory_budget="2MiB")
    message = str(info.value)
    assert info.value.field == "memory_budget" and "needs" in message and "--memory-budget" in message
    # The size, refused by the old per-array cap, fits a small budget: its blocks are a few rows.
    cfg = Configuration.create(X, M, memory_budget="64MiB")
    assert cfg.moved_to(X).memory_budget == 64 * 2**20
    assert 1 <= memory.block_rows(4096, 16, 4, False, cfg.memory_budget) < 4096
    with pytest.raises(InputError, match="memory budget"):
        model.scores(cfg)  # one whole (H, n, n) array (512 MiB) is past the budget


def test_simulate_refuses_a_memory_budget_it_cannot_meet_in_one_line(capsys: pytest.CaptureFixture[str], tmp_path):  # type: ignore[no-untyped-def]
    code = main(["simulate", "--n", "1000", "--d", "16", "--memory-budget", "1MiB", "--out", str(tmp_path / "x")])
    err = capsys.readouterr().err
    assert code == 2 and "memory_budget" in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "x").exists()
    assert main(["simulate", "--n", "4", "--memory-budget", "many", "--out", str(tmp_path / "y")]) == 2


def test_every_recorded_quantity_is_compared() -> None:
    recorded = set(RECORDED_AS)
    assert recorded <= set(QUANTITIES)


@pytest.mark.slow
def test_a_long_context_evaluates_in_blocks_within_a_small_budget() -> None:
    """n = 4096 (d = 16, H = 4) under a 64 MiB budget, against the whole-array numpy evaluation (536 MiB)."""
    rng = np.random.default_rng(9)
    X = families.random_sphere_tokens(4096, 16, rng)
    M = families.random_symmetric_heads(4, 16, rng)
    cfg = Configuration.create(X, M, beta=1.0, attention="softmax", memory_budget="64MiB")
    e = np.exp(np.einsum("id,hde,je->hij", X, M, X))
    f = (e @ (X @ np.swapaxes(M, 1, 2))) / e.sum(axis=-1, keepdims=True)
    v = f.sum(axis=0)
    expected = v - np.sum(v * X, axis=1, keepdims=True) * X
    assert np.allclose(model.token_velocity(cfg), expected, rtol=1e-11, atol=1e-13)
    p = e / e.sum(axis=-1, keepdims=True)
    assert np.allclose(model.attention_entropies(cfg), -np.sum(p * np.log(p), axis=-1), rtol=1e-11)


@pytest.mark.parametrize(("attention", "geometry", "mask", "interaction"), CASES)
def test_quantities_expected_together_equal_each_computed_alone(
    attention: str, geometry: str, mask: str | None, interaction: str | None
) -> None:
    """A recorder's state declares its quantities (`field.expect`): the energy, head energies and entropies then
    come from one shared pass, and must equal what a fresh state computes for each alone."""
    cfg = _config(attention, geometry, 4, _random_mask(6) if mask == "random" else mask, interaction)
    alone = _values(replace(cfg))
    together = replace(cfg)
    model.expect(together, QUANTITIES)
    _assert_agree(alone, _values(together))


def test_an_overflow_in_a_later_key_tile_is_the_whole_evaluations_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """usa past exp's range only at keys of the last tile (one far token, tiles of 4 keys): the tiled velocity
    refuses it with the whole evaluation's one-line error, not an inf or nan."""
    cfg = replace(_config("usa", "sphere", 6), beta=1.0)
    X = np.array(cfg.tokens)
    X[-1] *= 60.0  # in flat space: the scores of token 10 with itself and the others reach ~1e3
    far = replace(cfg, geometry="flat", tokens=X)
    with pytest.raises(InputError, match="exp overflows") as whole:
        model.token_velocity(replace(far))
    with monkeypatch.context() as patch:
        patch.setattr(token_blocks, "KEY_TILE", 4)
        fresh = replace(far)
        assert heads_of(fresh)._key_slices is not None
        with pytest.raises(InputError, match="exp overflows") as tiled:
            model.token_velocity(fresh)
    assert str(tiled.value) == str(whole.value)
