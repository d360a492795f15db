"""What the model claims' search adds to the adversarial search: the repeated-token and great-circle shapes
(`adversarial.EXTRA_SHAPES`, tried at every draw), planar draws with several heads, and scalar strengths over the
whole range the search moves them in. Each reaches configurations the earlier search never produced; the false claim
of tests/soundness/test_scalar_strengths.py is the one they were made for."""

from __future__ import annotations

import textwrap

import numpy as np
from headflow.certificates import model_balls
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.schema import ModelClaim
from headflow.certificates.provers.witness import round_configuration
from headflow.checks.evidence import adversarial
from headflow.checks.evidence.model_witnesses import Draws, margin
from headflow.checks.model import families
from headflow.checks.model.configuration import Configuration


def model_claim(assume: list[str]) -> ModelClaim:
    text = f"""
    [[claim]]
    id = "energy"
    kind = "model"
    assume = {assume!r}
    lhs = "dE_dt"
    op = ">="
    rhs = "0"
    """.replace("'", '"')
    claim = parse_claims(textwrap.dedent(text))[0]
    assert isinstance(claim, ModelClaim)
    return claim


def scalar_template(n: int, d: int, strengths: tuple[float, ...], beta: float = 1.0) -> Configuration:
    """Random tokens, M_h = lambda_h I, W_h = I."""
    X = families.random_sphere_tokens(n, d, np.random.default_rng(n * d))
    H = len(strengths)
    return Configuration.create(
        X, families.scalar_heads(strengths, d), families.value_matrices("identity", H, d, None), beta=beta
    )


def most_repeated(X: np.ndarray) -> int:
    """The largest number of tokens at exactly one point."""
    _, counts = np.unique(X, axis=0, return_counts=True)
    return int(counts.max())


def test_the_coincident_shape_puts_tokens_at_exactly_one_point_which_no_earlier_set_does() -> None:
    rng = np.random.default_rng(0)
    for n, d in [(3, 2), (4, 3), (6, 5), (12, 4)]:
        template = scalar_template(n, d, (0.5, 2.0))
        earlier = [cfg for _ in range(40) for cfg in adversarial.structured(template, rng)]
        assert all(most_repeated(cfg.tokens) == 1 for cfg in earlier)  # a near-collision keeps 1e-3 apart
        for _ in range(20):
            (cfg,) = adversarial.extra_sets(template, rng, ("coincident",))
            assert np.allclose(np.linalg.norm(cfg.tokens, axis=1), 1.0)
            assert 2 <= most_repeated(cfg.tokens) < n
    # two tokens at one point are an equilibrium of every model (every rate 0, the float one noise): not a start
    assert adversarial.extra_sets(scalar_template(2, 3, (0.5, 2.0)), rng, tuple(adversarial.EXTRA_SHAPES)) == []


def test_the_circle_shape_holds_a_ball_verified_violation_that_no_earlier_set_holds() -> None:
    """dE/dt >= 0 with scalar heads and W = I (false): with strengths 1/50 and 3 the circle sets of ten draws hold a
    violation, certified by balls at exact data, where the earlier structured sets of many draws hold none."""
    claim = model_claim(["scalar-heads", "identity-values"])
    template = scalar_template(4, 2, (0.02, 3.0))
    rng = np.random.default_rng(1)
    earlier = [cfg for _ in range(100) for cfg in adversarial.structured(template, rng)]
    assert min(margin(claim, cfg)[0].value for cfg in earlier) > -adversarial.VIOLATION
    circles = [cfg for _ in range(10) for cfg in adversarial.extra_sets(template, rng, ("circle",))]
    for cfg in circles:  # n - 2 copies of one token, the other two its mirror images in a plane through it
        assert most_repeated(cfg.tokens) == 2
        repeated, pair = cfg.tokens[0], cfg.tokens[2:]
        assert np.allclose(repeated, cfg.tokens[1]) and not np.allclose(pair[0], pair[1])
        assert np.allclose(pair @ repeated, pair[0] @ repeated)
    worst = min(circles, key=lambda cfg: margin(claim, cfg)[0].value)
    assert margin(claim, worst)[0].value < -1e-6
    exact = round_configuration(
        worst.tokens, worst.score_matrices, worst.values, worst.beta, 2**20, symmetric_values=True
    )
    assert sum(model_balls.head_energy_rates(exact)) < 0  # dE/dt < 0 at exact data


def test_scalar_strengths_are_drawn_very_unequal_and_never_where_floats_are_noise() -> None:
    """The earlier draws were log-uniform in [1/20, 5/2] whatever beta: a ratio of at most 50 between heads, and at
    beta = 20 strengths up to 5/2, beta lambda = 50, far past where the search may move them (8)."""
    draws = Draws.of(("scalar-heads", "identity-values"))
    rng = np.random.default_rng(2)
    ratios = []
    for _ in range(200):
        lam = np.array(draws.strengths(3, 1.0, rng))
        assert np.all(lam >= np.exp(adversarial.MIN_LOG_STRENGTH) * (1 - 1e-12))
        assert np.all(lam <= adversarial.MAX_SCALED_STRENGTH * (1 + 1e-12))
        ratios.append(lam.max() / lam.min())
    assert max(ratios) > 50
    for beta in (20.0, -20.0, 1e6):
        lam = np.array([draws.strengths(2, beta, rng) for _ in range(100)])
        assert np.all(lam > 0) and np.all(abs(beta) * lam <= adversarial.MAX_SCALED_STRENGTH * (1 + 1e-12))


def test_planar_draws_put_three_heads_in_a_plane_within_what_the_head_family_allows() -> None:
    """Earlier draws had d >= max(H, 2): three scalar heads never met in a plane. Orthogonal heads need d >= H."""
    rng = np.random.default_rng(3)
    scalar = model_claim(["scalar-heads", "identity-values"])
    drawn = [Draws.of(scalar.hypotheses).draw(scalar, rng) for _ in range(300)]
    assert any(cfg.H == 3 and cfg.d == 2 and 3 <= cfg.n <= 5 for cfg in drawn)
    for assume in (["symmetric-scores", "aligned-values", "orthogonal-heads"], ["orthogonal-heads(delta=1/10)"]):
        claim = model_claim(assume)
        drawn = [Draws.of(claim.hypotheses).draw(claim, rng) for _ in range(200)]
        assert all(cfg.d >= cfg.H for cfg in drawn)
        assert any(cfg.d == 2 and cfg.H == 2 for cfg in drawn)
