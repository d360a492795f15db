"""values29's model options (mask, beta < 0, token = "first") on main's engines (sums27, interact29, exist27).

The structured-atom engine must not use what a mask or a negative beta breaks: under the causal mask a weight is
not symmetric and only >= 0 (the masked softmax p still sums to 1 over j); with beta < 0, beta and the energies
are negative. The exact witnesses and stationary starts carry the claim's mask and sign of beta (the exact model
multiplies every weight by the mask); the exact decay refuses masked and repulsive claims.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from headflow.certificates import model_balls
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.errors import InputError
from headflow.certificates.kernel import ball_model
from headflow.certificates.kernel.ball_model import ExactConfiguration, stationary
from headflow.certificates.kernel.exp_field import ExpNumber
from headflow.certificates.kernel.masks import causal
from headflow.certificates.kernel.model_chain import Chain
from headflow.certificates.kernel.model_values import settle
from headflow.certificates.statements.dynamics import family_failures
from headflow.certificates.statements.model import kernel_statement, statement_data
from headflow.checks.claimsfile.exponential_decay import applies_exactly
from headflow.checks.claimsfile.model_reduction import prove_model

from tests.checks.claimsfile.test_model_claims import claim_text

ONE, ZERO = Fraction(1), Fraction(0)


def parsed(lhs: str, op: str, rhs: str, assume: list[str] | None = None, table: str = "", **extra: object):  # type: ignore[no-untyped-def]
    (claim,) = parse_claims(claim_text("c", assume or [], lhs, op, rhs, **extra) + table, "t.toml")
    return claim


def proved(lhs: str, op: str, rhs: str, assume: list[str] | None = None, **extra: object) -> bool:
    return prove_model(parsed(lhs, op, rhs, assume, **extra)).proved


def test_a_masked_weight_is_not_symmetric() -> None:
    """True without a mask (symmetric scores make w symmetric), false under the causal mask at i = 1."""
    claim = ("sum_j(w_h_ij * s_h_ij)", "=", "sum_j(w_h_ji * s_h_ji)", ["symmetric-scores"])
    assert proved(*claim)
    assert not proved(*claim, mask="causal")


def test_a_masked_weight_is_only_nonnegative() -> None:
    weighted = "sum_j(w_h_ij * (1 + s_h_ij**2))"
    assert proved(weighted, ">", "0")
    assert not proved(weighted, ">", "0", mask="causal")  # each masked term is 0, not > 0
    assert proved(weighted, ">=", "0", mask="causal")
    assert not proved("sum_j(p_h_ij * (1 + s_h_ij**2))", ">", "0", attention="softmax", mask="causal")


def test_the_masked_softmax_still_sums_to_one_and_balls_agree() -> None:
    assert proved("sum_j(p_h_ij)", "=", "1", attention="softmax", mask="causal")
    tokens = [[ONE, ZERO], [Fraction(3, 5), Fraction(4, 5)], [ZERO, ONE]]
    identity = [[ONE, ZERO], [ZERO, ONE]]
    cfg = ExactConfiguration(tokens, [identity], [identity], Fraction(3, 2), "sphere", "softmax", mask=causal(3))
    p = model_balls.softmax_distributions(cfg)[0]
    for i, row in enumerate(p):
        assert (sum(row[1:], row[0]) - 1).contains(0)
        assert all(row[j] == 0 for j in range(i + 1, 3))  # exactly 0 beyond the diagonal


def test_a_negative_beta_makes_beta_and_the_energy_negative() -> None:
    assert proved("beta", ">", "0")
    assert not proved("beta", ">", "0", beta="negative")
    assert proved("beta", "<", "0", beta="negative")
    assert proved("E", ">", "0")
    assert not proved("E", ">", "0", beta="negative")
    assert proved("E_h", "<", "0", beta="negative")


def test_the_gradient_lemma_is_not_used_under_a_mask() -> None:
    t11 = ("dE_dt", "=", "sum_i(norm2(xdot_i)) / n", ["symmetric-scores", "aligned-values"])
    assert proved(*t11)
    assert proved(*t11, beta="negative")
    assert not proved(*t11, mask="causal")


def test_the_first_token_rule_on_the_merged_engine() -> None:
    still = ("norm2(xdot_i)", "=", "0")
    assert proved(*still, ["identity-values"], mask="causal", token="first")
    assert proved(*still, ["scalar-heads", "aligned-values"], mask="causal", token="first")
    assert not proved(*still, ["identity-values"], mask="causal")  # every token: the others move
    assert not proved(*still, mask="causal", token="first")  # general values: W_h x_1 need not be radial


def test_sizes_with_a_negative_beta() -> None:
    claim = parsed("E", "<", "0", beta="negative", table="[claim.domain]\nn = { min = 3, max = 5 }\n")
    assert "beta < 0" in claim.statement and "beta > 0" not in claim.statement
    statement = statement_data(claim)
    assert statement["beta"] == "negative" and [g["rhs"] for g in statement["given"]] == [["num", "3"], ["num", "5"]]
    with pytest.raises(InputError, match=r"domain\.beta"):
        parsed("E", "<", "0", beta="negative", table='[claim.domain]\nbeta = "[1, 2]"\n')


def test_the_exact_model_multiplies_every_weight_and_energy_term_by_the_mask() -> None:
    """Causal mask, n = 2, M = W = I, beta = 1, x_1 = e_1, x_2 = e_2: w_12 = 0, w_21 = e^0 = 1, w_ii = e; the masked
    energy is (2e + 1) / 8, the unmasked one (2e + 2) / 8; token 1 is still, token 2 moves towards x_1."""
    identity = [[ONE, ZERO], [ZERO, ONE]]
    tokens = [[ONE, ZERO], [ZERO, ONE]]
    cfg = ExactConfiguration(tokens, [identity], [identity], ONE, mask=causal(2))
    (head,) = ball_model.exact_values(cfg, Chain.weights)
    e = ExpNumber.rational(ONE).exp()
    assert head[0][1].is_zero() and (head[1][0] - 1).is_zero() and (head[0][0] - e).is_zero()
    (energy,) = ball_model.exact_values(cfg, model_balls.per_head(Chain.head_energy))
    assert (energy - (2 * e + 1) / 8).is_zero()
    (unmasked,) = ball_model.exact_values(
        ExactConfiguration(tokens, [identity], [identity], ONE), model_balls.per_head(Chain.head_energy)
    )
    assert (unmasked - (2 * e + 2) / 8).is_zero()
    velocity = ball_model.exact_values(cfg, Chain.velocities)
    assert all(c.is_zero() for c in velocity[0]) and (velocity[1][0] - Fraction(1, 2)).is_zero()


@pytest.mark.parametrize("extra", [{"mask": "causal"}, {"beta": "negative"}])
def test_exact_equality_witnesses_need_the_claims_mask_and_sign_of_beta(extra: dict) -> None:
    """norm2(xdot_i) = 0 at coinciding tokens: the unmasked beta = 1 data witness the plain claim only; the same
    tokens with the claim's mask (or beta = -1) witness the masked (repulsive) claim exactly."""
    identity = [[ONE, ZERO], [ZERO, ONE]]
    cfg = ExactConfiguration([[ONE, ZERO], [ONE, ZERO]], [identity], [identity], ONE)
    plain = parsed("norm2(xdot_i)", "=", "0", exists=True)
    plain = kernel_statement(plain)
    assert settle(plain, cfg, {"i": 0}).failures == []
    claim = kernel_statement(parsed("norm2(xdot_i)", "=", "0", exists=True, **extra))
    assert settle(claim, cfg, {"i": 0}).failures
    own = dataclasses.replace(cfg, mask=causal(2)) if "mask" in extra else dataclasses.replace(cfg, beta=-ONE)
    assert settle(claim, own, {"i": 0}).failures == []
    assert settle(plain, own, {"i": 0}).failures


def _dynamics(**extra: str) -> str:
    lines = "".join(f"{k} = {v}\n" for k, v in extra.items())
    return (
        '[[claim]]\nid = "d"\nkind = "dynamics"\nquantity = "cluster_gap"\nproperty = "decays-exponentially"\n'
        'rate = "1"\nattention = "softmax"\nheads = "scalar"\nlambdas = [1.0]\ntokens = "equiangular"\nrho = 0.2\n'
        "n = 4\nd = 4\n" + lines
    )


def test_the_exact_decay_route_refuses_masks_values_and_beta_of_the_wrong_sign() -> None:
    (plain,) = parse_claims(_dynamics(beta="1.0"), "t.toml")
    assert applies_exactly(plain)
    for extra in ({"mask": '"causal"', "beta": "1.0"}, {"values": '"identity"', "beta": "1.0"}, {"beta": "-1.0"}):
        (claim,) = parse_claims(_dynamics(**extra), "t.toml")
        assert not applies_exactly(claim), extra


def test_stationary_starts_carry_the_claims_mask() -> None:
    """Axis tokens with heads I, -I are stationary with or without the causal mask (e^0 - e^0 = 0 across tokens):
    a witness of the masked claim must carry its mask, and an unmasked one is no witness of it."""
    text = (
        '[[claim]]\nid = "s"\nkind = "dynamics"\nexists = true\nquantity = "cluster_gap"\n'
        'property = "does-not-tend-to"\nlimit = "0"\nattention = "usa"\nheads = "scalar"\nlambdas = [1.0, -1.0]\n'
        'tokens = "hemisphere"\nn = 3\nd = 3\nbeta = 1.0\n'
    )
    identity = [[ONE if r == c else ZERO for c in range(3)] for r in range(3)]
    minus = [[-v for v in row] for row in identity]
    tokens = [[ONE if r == c else ZERO for c in range(3)] for r in range(3)]
    cfg = ExactConfiguration(tokens, [identity, minus], [identity, minus], ONE)
    (plain,) = parse_claims(text, "t.toml")
    (masked,) = parse_claims(text + 'mask = "causal"\n', "t.toml")
    causal_cfg = dataclasses.replace(cfg, mask=causal(3))
    assert stationary(cfg) and stationary(causal_cfg)
    assert family_failures(plain.options, cfg) == []
    assert any("mask" in failure for failure in family_failures(masked.options, cfg))
    assert family_failures(masked.options, causal_cfg) == []
    assert any("no mask" in failure for failure in family_failures(plain.options, causal_cfg))


def test_the_energy_gradient_of_any_kind_is_not_used_under_a_mask() -> None:
    """attnport27's dE_h/dt = (1/n^2) sum_i Z_h_i <xdot_i, M_h xbar_h_i> needs m_jk = m_kj."""
    rate = ("dE_h_dt", "=", "sum_i(Z_h_i * inner(xdot_i, M_h(xbar_h_i))) / n**2", ["symmetric-scores"])
    assert proved(*rate, attention="softmax")
    assert proved(*rate, attention="softmax", beta="negative")
    assert not proved(*rate, attention="softmax", mask="causal")


def test_no_logarithm_of_a_negative_beta_or_energy() -> None:
    assert proved("log(E)", "=", "log(E)")
    assert not proved("log(E)", "=", "log(E)", beta="negative")
    assert not proved("log(beta)", "=", "log(beta)", beta="negative")
