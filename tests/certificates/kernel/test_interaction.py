"""Interaction functions phi(s) in the kernel: parsed (never evaluated) text, refused where undefined or (normalized)
not positive, balls of phi, and an antiderivative Phi accepted only when d/ds Phi = phi exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest
from flint import arb
from headflow.certificates.claims.interaction_text import parse_interaction
from headflow.certificates.errors import InputError
from headflow.certificates.kernel.exact import ball_of
from headflow.certificates.kernel.exprtree import evaluate
from headflow.identities.energy import gradient_lemma


@pytest.mark.parametrize(
    ("text", "attention", "reason"),
    [
        ("log(s)", "usa", "s > 0"),  # undefined for s <= 0, and scores take every real value
        ("1/(s - 2)", "usa", "s - 2 != 0"),
        ("s**(1/3)", "usa", "non-integer power"),
        ("s**2", "softmax", "phi > 0"),  # normalized weights need phi > 0: phi(0) = 0
        ("exp(beta*s) - 1", "softmax", "phi > 0"),
        ("s", "relu", "usa or softmax"),
        ("c_star(2)*s", "usa", "not available"),
        ("x + s", "usa", "unknown name"),
        ("__import__('os')", "usa", ""),
        ("", "usa", "non-empty"),
    ],
)
def test_bad_interactions_are_one_line_errors(text: str, attention: str, reason: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_interaction(text, attention)
    assert reason in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("text", ["exp(beta*s)", "s**2", "exp(beta*s) - 1", "sqrt(s**2 + 1)", "log(1 + s**2)"])
def test_defined_interactions_are_accepted(text: str) -> None:
    assert parse_interaction(text, "usa").text == text


def test_balls_of_phi_at_exact_scores() -> None:
    phi = parse_interaction("exp(beta*s) - 1", "usa")
    value = evaluate(phi.tree, {"s": ball_of(Fraction(1, 2)), "beta": ball_of(Fraction(2))})
    assert value.overlaps(arb(1).exp() - 1) and value.rad() < 1e-15


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("exp(beta*s)", lambda s, b: (b * s).exp() / b),  # the paper's E_h = (1/(2 beta n^2)) sum exp(beta s)
        ("s**2", lambda s, b: s**3 / 3),
        ("s*exp(beta*s)", lambda s, b: (b * s - 1) * (b * s).exp() / b**2),
    ],
)
def test_antiderivative_is_verified_and_right(text: str, expected: object) -> None:
    tree = parse_interaction(text, "usa").energy_tree()
    assert tree is not None
    s, b = ball_of(Fraction(3, 7)), ball_of(Fraction(5, 4))
    assert evaluate(tree, {"s": s, "beta": b}).overlaps(expected(s, b))  # type: ignore[operator]


@pytest.mark.parametrize("text", ["exp(-s**2)", "sqrt(s**2 + 1)", "exp(s**2)"])
def test_no_elementary_antiderivative_means_no_energy(text: str) -> None:
    assert parse_interaction(text, "usa").energy_tree() is None


def test_general_gradient_lemma_proves_and_a_wrong_variant_does_not() -> None:
    assert gradient_lemma(general=True).proved
    assert not gradient_lemma(2, general=True).proved


def test_a_stated_square_root_is_undefined_below_zero_not_read_as_a_norm() -> None:
    """The ball checker reads sqrt of a sum of squares (a norm) as the root of its non-negative part; a stated
    interaction phi(s) = sqrt(s) (which the parser refuses, so only a forged statement holds it) is the real square
    root: at the score -1 it is undefined, and the interaction is rejected, not read as phi = 0."""
    import dataclasses
    from fractions import Fraction

    from headflow.certificates.kernel import ball_model
    from headflow.certificates.kernel.exact_data import ExactConfiguration
    from headflow.certificates.kernel.interaction import Interaction

    one, zero = Fraction(1), Fraction(0)
    forged = ExactConfiguration(
        tokens=[[one, zero], [-one, zero]],  # antipodal: the scores <x_1, x_2> are -1
        score_matrices=[[[one, zero], [zero, one]]],
        values=[[[one, zero], [zero, one]]],
        beta=one,
        interaction=Interaction("sqrt(s)", ["sqrt", ["sym", "s"]]),
    )
    assert any("not finite" in reason for reason in ball_model.interaction_failures(forged))
    squares = Interaction("sqrt(s*s)", ["sqrt", ["mul", ["sym", "s"], ["sym", "s"]]])
    assert ball_model.interaction_failures(dataclasses.replace(forged, interaction=squares)) == []


def _forged_softmax(scores: list[list[int]], mask: object = None) -> object:
    """Softmax attention with phi(s) = s^2 at the tokens e_1, e_2 and the head M = scores (s_ij = M_ij)."""
    from headflow.certificates.kernel.exact_data import ExactConfiguration
    from headflow.certificates.kernel.interaction import Interaction

    one, zero = Fraction(1), Fraction(0)
    head = [[Fraction(m) for m in row] for row in scores]
    return ExactConfiguration(
        [[one, zero], [zero, one]], [head], [head], one, "flat", "softmax", mask,  # type: ignore[arg-type]
        Interaction("s**2", ["pow", ["sym", "s"], 2]),
    )  # fmt: skip


def test_every_ball_evaluation_refuses_normalized_weights_that_are_not_positive() -> None:
    """phi = s^2 is 0 at the score s_12 = 0: the weights of that row are not a distribution. Whatever quantity is
    asked, the chain's balls refuse the data (not only the witness's configuration check)."""
    from headflow.certificates.kernel import ball_model
    from headflow.certificates.kernel.model_chain import Chain

    cfg = _forged_softmax([[1, 0], [1, 1]])
    chain = Chain(cfg)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="phi > 0"):
        chain.balls(chain.velocities())
    assert any("phi > 0" in reason for reason in ball_model.interaction_failures(cfg))  # type: ignore[arg-type]


def test_a_masked_score_where_phi_is_zero_does_not_count() -> None:
    """Under the causal mask token 1 never reads token 2, so phi(s_12) = 0 weighs nothing: the data are accepted."""
    from headflow.certificates.kernel import ball_model
    from headflow.certificates.kernel.masks import causal
    from headflow.certificates.kernel.model_chain import Chain

    cfg = _forged_softmax([[1, 0], [1, 1]], causal(2))
    assert ball_model.interaction_failures(cfg) == []  # type: ignore[arg-type]
    chain = Chain(cfg)  # type: ignore[arg-type]
    assert all(v.is_finite() for row in chain.balls(chain.velocities()) for v in row)
