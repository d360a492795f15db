"""Floats at large |beta| lambda (issue 39 item 3): a token's own weight e^(beta lambda) once swamped the float model
(the tangent projection of a sum dominated by x_i itself cancelled, and 2 lambda <xdot_i, x_i> times e^(beta lambda)
entered dE/dt), so the search kept |beta| lambda <= 8 and a claim false only past it was never refuted. The model
now leaves the own term's scalar part out of every projection and of the own score rates (exactly 0 on the sphere):
at |beta| lambda up to 50 the float values agree with 256-bit balls at the same exact data within the first-order
rounding bound each carries (`checks.evidence.float_error`), and `beta * lambda_h <= 8` is refuted with a certified
witness."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest
from headflow.certificates import model_balls
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.model_algebra import evaluate
from headflow.certificates.claims.model_claim import parse_term
from headflow.certificates.kernel.exact import precision
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.witness import round_configuration
from headflow.checks.claimsfile.model_decider import decide_model
from headflow.checks.evidence import float_error
from headflow.checks.evidence.float_terms import float_algebra
from headflow.checks.model import field
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.verdicts import Verdict

from tests.checks.claimsfile.test_whole_domain import REACH

#: The terms compared (every one a sum, product, projection or quotient of the model's primitives at token 1, head 0).
TERMS = ("dE_dt", "dE_h_dt", "norm2(xdot_i)", "T_h_i", "a_h_i", "entropy_h_i", "entropy_rate_h_i", "E_h", "Z_h_i")
#: Terms whose float value may lose digits to a cancellation (A_h_i = <F_i - f_h_i, x_i> with general values: the
#: other heads' own terms W'_h x_i e^(beta lambda)), which their stated bound must then say.
CANCELLING = ("A_h_i", "norm2(proj(F_i - f_h_i))", "norm2(f_h_i - a_h_i * x_i)", "a_h_i**2 - T_h_i", "norm(xdot_i)")


def _pair(attention: str, scaled: float, general: bool, seed: int) -> tuple[Configuration, object]:
    """A float configuration with scalar heads at |beta| lambda_0 = `scaled` and the exact data it holds (tokens
    rounded onto the sphere, then read back as floats: both models see the same numbers)."""
    rng = np.random.default_rng(seed)
    n, d, H, beta = 3, 3, 2, 1.25
    X = rng.normal(size=(n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    M = np.array([scaled / beta * np.eye(d), scaled / beta / 4 * np.eye(d)])
    W = np.round(rng.normal(size=(H, d, d)) * 64) / 64 if general else np.array([np.eye(d)] * H)
    exact = round_configuration(X, M, W, beta, 2**52, symmetric_values=not general, attention=attention)

    def floats(rows: list) -> np.ndarray:
        return np.array(rows, dtype=float) if not isinstance(rows[0], list) else np.array([floats(r) for r in rows])

    cfg = Configuration.create(
        floats(exact.tokens), floats(exact.score_matrices), floats(exact.values), float(exact.beta), attention
    )
    return cfg, exact


@pytest.mark.parametrize("attention", ["usa", "softmax"])
@pytest.mark.parametrize("scaled", [8.0, 22.0, 50.0])
def test_float_terms_agree_with_256_bit_balls_within_their_bound(attention: str, scaled: float) -> None:
    """Each term's float value is within the bound it carries (`float_error`) of the 256-bit ball, and that bound is
    at most the configuration's relative bound `float_error.relative_bound` times a small multiple of its size."""
    cfg, exact = _pair(attention, scaled, general=False, seed=int(scaled))
    floats = float_algebra(cfg)
    relative = float_error.relative_bound(cfg.n, cfg.d, cfg.H, scaled)
    with precision(256):
        for text in TERMS:
            term = parse_term(text)
            value, ball = evaluate(term, floats, 1, 0), model_balls.term_ball(term, exact, 1, 0)
            exact_value, bound = float(ball.mid()), floats.error(value)
            assert abs(float(value) - exact_value) <= bound, (text, float(value), exact_value, bound)
            assert bound <= 100 * relative * abs(exact_value), (text, bound, relative)


@pytest.mark.parametrize("attention", ["usa", "softmax"])
@pytest.mark.parametrize("general", [False, True])
@pytest.mark.parametrize("scaled", [8.0, 22.0, 50.0])
def test_every_token_and_cancelling_term_is_within_its_stated_bound(
    attention: str, general: bool, scaled: float
) -> None:
    """At every token, general values too, the terms and those that cancel: the float value is within its stated
    bound of the 256-bit ball, however loose the bound must be where the float lost its digits."""
    for seed in range(3):
        cfg, exact = _pair(attention, scaled, general=general, seed=seed)
        floats = float_algebra(cfg)
        with precision(256):
            for text in TERMS + CANCELLING:
                term = parse_term(text)
                for i in range(cfg.n):
                    value = evaluate(term, floats, i, 0)
                    exact_value = float(model_balls.term_ball(term, exact, i, 0).mid())
                    assert abs(float(value) - exact_value) <= floats.error(value), (text, i, seed, exact_value)


def test_the_issue_example_has_the_sign_of_the_balls() -> None:
    """Two tokens at <x1, x2> = -0.627, beta lambda up to 22.6: the float dE_h/dt was -4e3 and -11, the true rates
    +2e-11 and +5e-10."""
    c, beta, lam = -0.627, 2.84, (7.95, 5.97)
    X = np.array([[1.0, 0.0], [c, np.sqrt(1 - c * c)]])
    cfg = Configuration.create(X, np.array([s * np.eye(2) for s in lam]), np.array([np.eye(2)] * 2), beta=beta)
    exact = round_configuration(cfg.tokens, cfg.score_matrices, cfg.values, beta, 2**30, symmetric_values=True)
    with precision(128):
        balls = [float(rate.mid()) for rate in model_balls.head_energy_rates(exact)]
    floats = field.head_energy_rates(cfg)
    assert all(rate > 0 for rate in balls)
    # the data differ by the rounding to 2^-30: the rates by a relative ~1e-7
    assert np.allclose(floats, balls, rtol=1e-5, atol=0.0), (floats, balls)


@pytest.mark.parametrize("attention", ["usa", "softmax"])
def test_general_values_keep_the_projection_honest(attention: str) -> None:
    """With general W_h the own term's tangent part is real (W'_h x_i): the float velocity keeps it, and the
    projected quantities still agree with balls at |beta| lambda = 22."""
    cfg, exact = _pair(attention, 22.0, general=True, seed=5)
    floats = float_algebra(cfg)
    with precision(256):
        for text in ("norm2(xdot_i)", "T_h_i", "dE_dt"):
            term = parse_term(text)
            value = float(evaluate(term, floats, 1, 0))
            exact_value = float(model_balls.term_ball(term, exact, 1, 0).mid())
            assert abs(value - exact_value) <= 1e-9 * abs(exact_value), (text, value, exact_value)


#: The claim the old cap (|beta| lambda <= 8) made true wherever the search looked (`test_whole_domain.REACH`).
CAP = REACH.split("\n\n")[0]


@pytest.mark.parametrize("seed", [0, 1])
def test_the_search_reaches_past_beta_lambda_8_and_refutes_the_cap(tmp_path: Path, seed: int) -> None:
    """`beta * lambda_h <= 8` held wherever the search looked (never past 8) and was CONFIRMED, later INCONCLUSIVE;
    it is false, and the search now draws strengths up to |beta| lambda = 50 and certifies a witness."""
    claim = parse_claims(textwrap.dedent(CAP))[0]
    outcome = decide_model(claim, Context("quick", seed=seed, certificate_dir=tmp_path, claim_id=claim.id))
    assert outcome.verdict is Verdict.REFUTED, outcome.notes
    certificates = sorted(tmp_path.rglob("*.json"))
    assert certificates and all(check_file(path).ok for path in certificates)
