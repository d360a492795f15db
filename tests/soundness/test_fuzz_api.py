"""Fuzzing the Python API: Configuration.create, the model on what it accepts, and the families.

Whatever the input (junk objects, ragged lists, NaN, inf, huge or tiny values, wrong shapes), the
API either returns a valid object or raises InputError; never another exception.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from headflow.certificates.constant_specs import QUANTITIES
from headflow.certificates.errors import InputError
from headflow.checks.constants import certified as constants
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import UNIT_NORM_TOLERANCE, Configuration
from headflow.checks.registry import Context
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from tests.soundness.fuzzing import fuzz_settings

FUZZ = fuzz_settings(60)

wild_floats = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([0.0, -0.0, 1e308, -1e308, 5e-324])
junk = st.one_of(
    st.none(),
    st.text(max_size=5),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    wild_floats,
    st.lists(st.one_of(wild_floats, st.text(max_size=2), st.none()), max_size=4),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


def arrays(max_ndim: int = 4) -> st.SearchStrategy[object]:
    """Float arrays of any small shape, every float allowed (NaN, inf, subnormal, huge)."""
    return hnp.arrays(
        np.float64, hnp.array_shapes(min_dims=0, max_dims=max_ndim, min_side=0, max_side=5), elements=wild_floats
    )


def plausible_tokens() -> st.SearchStrategy[object]:
    """n x d arrays that are often valid (unit rows), sometimes not."""

    def build(seed: int, n: int, d: int, scale: float) -> np.ndarray:
        X = families.random_sphere_tokens(max(n, 2), d, np.random.default_rng(seed))
        return X[:n] * scale

    return st.builds(build, st.integers(0, 2**32 - 1), st.integers(0, 5), st.integers(1, 4), wild_floats)


def plausible_heads() -> st.SearchStrategy[object]:
    def build(seed: int, H: int, d: int, scale: float) -> np.ndarray:
        return np.random.default_rng(seed).standard_normal((H, d, d)) * scale

    return st.builds(build, st.integers(0, 2**32 - 1), st.integers(0, 3), st.integers(1, 4), wild_floats)


def _valid(cfg: Configuration, tolerance: float) -> None:
    assert cfg.n >= 2 and cfg.d >= 1 and cfg.H >= 1
    assert cfg.score_matrices.shape == cfg.values.shape == (cfg.H, cfg.d, cfg.d)
    for array in (cfg.tokens, cfg.score_matrices, cfg.values):
        assert np.all(np.isfinite(array)) and not array.flags.writeable
    if cfg.geometry == "sphere":
        assert np.all(np.abs(np.linalg.norm(cfg.tokens, axis=1) - 1.0) <= max(tolerance, 1e-12))
    assert math.isfinite(cfg.beta)  # either sign: beta < 0 is repulsive attention


@FUZZ
@given(
    tokens=st.one_of(junk, arrays(), plausible_tokens()),
    scores=st.one_of(junk, arrays(), plausible_heads()),
    values=st.one_of(st.none(), junk, arrays(), plausible_heads()),
    beta=st.one_of(junk, wild_floats),
    attention=st.sampled_from(["usa", "softmax", "relu", "USA", "", "linear"]),
    geometry=st.sampled_from(["sphere", "flat", "torus"]),
    normalize=st.booleans(),
    unit_tolerance=st.one_of(st.just(UNIT_NORM_TOLERANCE), wild_floats),
)
def test_configuration_create_returns_a_valid_configuration_or_raises_input_error(
    tokens, scores, values, beta, attention, geometry, normalize, unit_tolerance
) -> None:
    try:
        cfg = Configuration.create(tokens, scores, values, beta, attention, geometry, normalize, unit_tolerance)
    except InputError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 400
        return
    _valid(cfg, unit_tolerance)


@FUZZ
@given(
    tokens=plausible_tokens(),
    scores=plausible_heads(),
    beta=st.floats(1e-300, 1e300),
    attention=st.sampled_from(["usa", "softmax", "relu"]),
    geometry=st.sampled_from(["sphere", "flat"]),
)
def test_the_model_on_any_accepted_configuration_gives_numbers_or_input_error(
    tokens, scores, beta, attention, geometry
) -> None:
    try:
        cfg = Configuration.create(tokens, scores, beta=beta, attention=attention, geometry=geometry, normalize=True)
    except InputError:
        return
    try:
        with np.errstate(all="ignore"):
            rates = model.head_energy_rates(cfg) if attention == "usa" else model.token_velocity(cfg)
            model.attention_entropies(cfg)
    except InputError:
        return
    assert rates.shape in ((cfg.H,), (cfg.n, cfg.d))


def test_a_huge_head_token_product_is_refused_before_any_evaluation() -> None:
    """Heads whose matrices alone exceed the memory budget are refused at creation, before any evaluation."""
    tokens = np.zeros((2, 1024))
    tokens[:, 0] = 1.0
    with pytest.raises(InputError) as info:
        Configuration.create(tokens, np.eye(1024)[None], memory_budget="16MiB")
    assert info.value.field == "memory_budget" and "needs" in str(info.value)


def test_normalizing_tokens_whose_norm_overflows_is_refused() -> None:
    with pytest.raises(InputError):
        Configuration.create([[1e308, 1e308], [1.0, 0.0]], np.eye(2)[None], normalize=True)


def test_a_nan_unit_tolerance_does_not_accept_tokens_off_the_sphere() -> None:
    with pytest.raises(InputError):
        Configuration.create([[2.0, 0.0], [0.0, 1.0]], np.eye(2)[None], unit_tolerance=float("nan"))


sizes = st.one_of(
    st.integers(-3, 8), st.integers(10**4, 10**12), st.floats(allow_nan=True), st.none(), st.text(max_size=2)
)


@FUZZ
@given(
    family=st.sampled_from(
        [
            "random_sphere_tokens",
            "orthogonal_tokens",
            "equiangular_tokens",
            "rational_sphere_tokens",
            "scalar_heads",
            "random_symmetric_heads",
            "random_general_heads",
            "orthogonal_subspace_heads",
            "approximately_orthogonal_heads",
        ]
    ),
    a=sizes,
    b=sizes,
    real=st.one_of(wild_floats, st.text(max_size=2), st.lists(wild_floats, max_size=3)),
    seed=st.integers(0, 2**32 - 1),
)
def test_families_return_arrays_or_raise_input_error(family: str, a, b, real, seed: int) -> None:
    rng = np.random.default_rng(seed)
    calls = {
        "random_sphere_tokens": lambda: families.random_sphere_tokens(a, b, rng),
        "orthogonal_tokens": lambda: families.orthogonal_tokens(a, b, rng),
        "equiangular_tokens": lambda: families.equiangular_tokens(a, b, real, rng),
        "rational_sphere_tokens": lambda: families.rational_sphere_tokens(a, b, rng),
        "scalar_heads": lambda: families.scalar_heads(real, b),
        "random_symmetric_heads": lambda: families.random_symmetric_heads(a, b, rng),
        "random_general_heads": lambda: families.random_general_heads(a, b, rng),
        "orthogonal_subspace_heads": lambda: families.orthogonal_subspace_heads(a, b, rng),
        "approximately_orthogonal_heads": lambda: families.approximately_orthogonal_heads(a, b, real, rng),
    }
    try:
        with np.errstate(all="ignore"):
            result = calls[family]()
    except InputError:
        return
    assert len(result) >= 1


api_numbers = st.one_of(
    st.integers(-(10**120), 10**120),
    st.fractions(max_denominator=10**6),
    st.builds(lambda p, q: Fraction(p, q), st.integers(-(10**110), 10**110), st.integers(1, 10**110)),
    wild_floats,
    st.sampled_from(["2", "1/3", "1e6", "-0.3678", "1e101", "x", "", "1..3"]),
    st.none(),
    st.booleans(),
)


@FUZZ
@given(
    quantity=st.sampled_from([*sorted(QUANTITIES), "nope"]),
    params=st.dictionaries(st.sampled_from(["H", "n", "alpha", "beta", "lam", "x", "y"]), api_numbers, max_size=4),
    digits=st.one_of(st.integers(-2, 40), st.sampled_from([100_001, 10**9]), st.just("5"), st.none()),
)
def test_constants_api_returns_certified_digits_or_raises_input_error(quantity, params, digits) -> None:
    try:
        value = constants.compute(quantity, params, digits)  # type: ignore[arg-type]
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    assert value.correctly_rounded, value.note
    assert value.value == "inf" or value.ball is not None


@FUZZ
@given(
    profile=st.one_of(st.sampled_from(["quick", "thorough"]), st.text(max_size=6), st.none()),
    seed=st.one_of(st.integers(-(2**70), 2**70), wild_floats, st.text(max_size=3), st.booleans()),
    deadline=st.one_of(st.none(), wild_floats, st.text(max_size=3)),
    pattern=st.one_of(st.none(), st.text(max_size=12), st.sampled_from(["T19.*", "*", ",", "[", "T1[1-9]*", "**"])),
)
def test_contexts_and_claim_selection_accept_or_raise_input_error(profile, seed, deadline, pattern) -> None:
    from headflow.checks.registry import load_all

    try:
        ctx = Context(profile, seed, None, deadline)
    except InputError:
        pass
    else:
        assert ctx.rng("x").random() < 1 and math.isfinite(ctx.seconds_left()) == (deadline is not None)
    try:
        chosen = load_all().select(pattern)
    except InputError:
        return
    assert chosen
