"""Attacks on the exact witnesses of existence statements: a stationary start whose velocity is 1e-30, not 0; a start
on the boundary of a hemisphere (closed, not open); a stationary start whose quantity is the limit; an equality that
misses by 1e-30; a witness relabelled to the claim a theorem makes true (M = I, usa, hemisphere). Each is forged as a
certificate with a valid checksum (a stationary start as the `model` witness its claim elaborates into, with a wide
enclosure), so only the kernel's exact re-check can reject it."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from flint import arb
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.exact_records import exact_record
from headflow.certificates.kernel.ball_model import ExactConfiguration, stationary
from headflow.certificates.kernel.exp_field import ExpFieldError, ExpNumber
from headflow.certificates.kernel.model_values import WITNESS as EQUALITY
from headflow.certificates.statements import dynamics as elaboration
from headflow.certificates.store import write_certificate

from tests.checking import verify_file

ONE, ZERO = Fraction(1), Fraction(0)
K = 2 * 10**30  # (2K/(K^2+1), (K^2-1)/(K^2+1)) is a rational unit vector at inner product ~1e-30 with e_1


def identity(d: int, lam: Fraction = ONE) -> list[list[Fraction]]:
    return [[lam if i == j else ZERO for j in range(d)] for i in range(d)]


def axis(k: int, d: int, sign: int = 1) -> list[Fraction]:
    return [Fraction(sign) if j == k else ZERO for j in range(d)]


NEARLY_ORTHOGONAL = [Fraction(2 * K, K * K + 1), Fraction(K * K - 1, K * K + 1), ZERO]


def dynamics(attention: str, lambdas: str, H: int, *, exists: bool, prop: str = "does-not-tend-to") -> str:
    flag = "true" if exists else "false"
    return (
        f'[[claim]]\nid = "c"\nkind = "dynamics"\nexists = {flag}\nquantity = "cluster_gap"\nproperty = "{prop}"\n'
        f'limit = "0"\nattention = "{attention}"\nheads = "scalar"\nlambdas = [{lambdas}]\nH = {H}\n'
        'tokens = "hemisphere"\nn = 3\nd = 3\nbeta = 1.0\n'
    )


def forged_stationary(text: str, cfg: ExactConfiguration, folder: Path) -> tuple[bool, str]:
    (claim,) = parse_claims(text, "t.toml")
    statement = elaboration.stationary(claim, "<")  # the quantity above the limit 0: L - Q < 0
    hypotheses = ["unit-tokens", "stationary"] if statement is None else statement["hypotheses"]
    record = {"witness": "model-configuration", "configuration": exact_record(cfg), "hypotheses": hypotheses}
    record |= {"at": {}, "prec": 128, "relation": "<", "enclosure": ["-100", "100"]}
    return verify_file(write_certificate(folder, claim.id, "witness", record, embedded(claim)))


def relu(tokens: list[list[Fraction]]) -> ExactConfiguration:
    heads = [identity(3)]
    return ExactConfiguration(tokens, heads, heads, ONE, "sphere", "relu")


def test_a_genuine_stationary_start_is_accepted(tmp_path: Path) -> None:
    ok, message = forged_stationary(
        dynamics("relu", "1.0", 1, exists=True), relu([axis(k, 3) for k in range(3)]), tmp_path
    )
    assert ok and "stationary" in message, message


def test_a_velocity_of_1e_30_is_not_zero(tmp_path: Path) -> None:
    cfg = relu([axis(0, 3), NEARLY_ORTHOGONAL, axis(2, 3)])
    assert not stationary(cfg)
    ok, message = forged_stationary(dynamics("relu", "1.0", 1, exists=True), cfg, tmp_path)
    assert not ok and "violates stationary" in message, message
    heads = [identity(3), identity(3, -ONE)]  # usa heads 1, -1: e^(s) - e^(-s) with s ~ 1e-30 is not 0 either
    mixed = ExactConfiguration([axis(0, 3), NEARLY_ORTHOGONAL, axis(2, 3)], heads, heads, ONE)
    ok, message = forged_stationary(dynamics("usa", "1.0, -1.0", 2, exists=True), mixed, tmp_path)
    assert not ok and "violates stationary" in message, message


def test_a_start_on_the_boundary_of_a_hemisphere_is_rejected(tmp_path: Path) -> None:
    # e_1, -e_1, e_2 lie in the closed hemisphere <x, e_2> >= 0 and are stationary for relu, but no open hemisphere
    # holds e_1 and -e_1.
    cfg = relu([axis(0, 3), axis(0, 3, -1), axis(1, 3)])
    assert stationary(cfg)
    ok, message = forged_stationary(dynamics("relu", "1.0", 1, exists=True), cfg, tmp_path)
    assert not ok and "inner(x_i, sum_j(x_j)) > 0 is not settled" in message, message


def test_a_stationary_start_at_the_limit_proves_nothing(tmp_path: Path) -> None:
    cfg = relu([axis(0, 3)] * 3)  # collapsed: stationary, but its gap is the limit 0
    ok, message = forged_stationary(dynamics("relu", "1.0", 1, exists=True), cfg, tmp_path)
    assert not ok and "does not satisfy < 0" in message, message


def test_no_stationary_witness_for_the_theorem_every_hemisphere_start_clusters(tmp_path: Path) -> None:
    # M = I, usa: the frame that is stationary for relu moves (its velocity is exactly non-zero).
    heads = [identity(3)]
    frame = ExactConfiguration([axis(k, 3) for k in range(3)], heads, heads, ONE)
    ok, message = forged_stationary(dynamics("usa", "1.0", 1, exists=True), frame, tmp_path)
    assert not ok and "violates stationary" in message, message
    ok, message = forged_stationary(dynamics("usa", "1.0", 1, exists=False, prop="tends-to"), frame, tmp_path)
    assert not ok, message


def test_a_universal_does_not_tend_to_has_no_stationary_certificate(tmp_path: Path) -> None:
    ok, message = forged_stationary(
        dynamics("relu", "1.0", 1, exists=False), relu([axis(k, 3) for k in range(3)]), tmp_path
    )
    assert not ok and "core statement" in message, message


EQUALITY_CLAIM = (
    '[[claim]]\nid = "e"\nkind = "model"\nexists = true\nattention = "relu"\nlhs = "a_h_i"\nop = "="\nrhs = "1"\n'
)


def forged_equality(cfg: ExactConfiguration, folder: Path, text: str = EQUALITY_CLAIM) -> tuple[bool, str]:
    (claim,) = parse_claims(text, "t.toml")
    record = {
        "witness": EQUALITY,
        "configuration": exact_record(cfg),
        "hypotheses": list(claim.hypotheses),
        "at": {"h": 0, "i": 0},
    }
    return verify_file(write_certificate(folder, claim.id, "witness", record, embedded(claim)))


def test_an_equality_holds_exactly_or_not_at_all(tmp_path: Path) -> None:
    d2 = identity(2)
    exact = ExactConfiguration([axis(0, 2), axis(0, 2)], [d2], [d2], ONE, "sphere", "relu")
    ok, message = forged_equality(exact, tmp_path)
    assert ok and "holds exactly" in message, message
    # a_0 = (1 + s^2)/2 with s ~ 1e-30: misses 1 by ~1e-60, which no ball of the usual precision separates
    near = [Fraction(K * K - 1, K * K + 1), Fraction(2 * K, K * K + 1)]
    missed = ExactConfiguration([axis(0, 2), near], [d2], [d2], ONE, "sphere", "relu")
    ok, message = forged_equality(missed, tmp_path)
    assert not ok and "not exactly 0" in message, message


def test_an_entropy_equality_has_no_exact_witness(tmp_path: Path) -> None:
    text = EQUALITY_CLAIM.replace('"relu"', '"softmax"').replace('"a_h_i"', '"entropy_h_i"').replace('"1"', '"0"')
    d2 = identity(2)
    cfg = ExactConfiguration([axis(0, 2), axis(0, 2)], [d2], [d2], ONE, "sphere", "softmax")
    ok, message = forged_equality(cfg, tmp_path, text)
    assert not ok and "no exact value" in message, message


def _e(q: Fraction) -> ExpNumber:
    """e^q in the exact field."""
    return ExpNumber.rational(q).exp()


@pytest.mark.parametrize(
    ("lhs", "attention"), [("norm(f_h_i)", "usa"), ("a_h_i * log(n)", "relu"), ("delta_op + misalignment_h", "relu")]
)
def test_a_root_or_logarithm_equality_has_no_exact_witness(lhs: str, attention: str, tmp_path: Path) -> None:
    """|f| = |x|^2 |f| holds at unit tokens, a log n = |x|^2 a log n, and so for the operator norms, but none has an
    exact value here (|f| of usa weights is the root of an exponential polynomial; an operator norm has balls only):
    the kernel rejects the exact witness with the reason, never by a crash or a float."""
    text = EQUALITY_CLAIM.replace('lhs = "a_h_i"', f'lhs = "{lhs}"').replace('rhs = "1"', f'rhs = "norm2(x_i) * {lhs}"')
    d2 = identity(2)
    cfg = ExactConfiguration([axis(0, 2), axis(1, 2)], [d2], [d2], ONE, "sphere", attention)
    ok, message = forged_equality(cfg, tmp_path, text.replace('"relu"', f'"{attention}"'))
    assert not ok and "no exact value" in message, message


def test_a_rational_norm_is_exact(tmp_path: Path) -> None:
    """relu weights at rational data are rational: |f| of a rational square is its rational root, exactly (the tree
    holds the rational, never a rounded root), and the equality's witness holds; |f| = 2 |f| does not."""
    d2 = identity(2)
    cfg = ExactConfiguration([axis(0, 2), axis(1, 2)], [d2], [d2], ONE, "sphere", "relu")
    text = EQUALITY_CLAIM.replace('lhs = "a_h_i"', 'lhs = "norm(f_h_i)"')
    ok, message = forged_equality(cfg, tmp_path, text.replace('rhs = "1"', 'rhs = "norm2(x_i) * norm(f_h_i)"'))
    assert ok and "holds exactly" in message, message
    ok, message = forged_equality(cfg, tmp_path, text.replace('rhs = "1"', 'rhs = "2 * norm(f_h_i)"'))
    assert not ok and "not exactly 0" in message, message


def test_the_exact_field_zero_test() -> None:
    third, two_thirds = _e(Fraction(1, 3)), _e(Fraction(2, 3))
    assert (third * two_thirds - _e(ONE)).is_zero()
    assert not (_e(Fraction(1, 2)) - _e(Fraction(1, 2) + Fraction(1, 10**30))).is_zero()
    softmax = _e(ONE) / (_e(ONE) + _e(ZERO))
    assert (softmax + _e(ZERO) / (_e(ONE) + 1) - 1).is_zero()
    with pytest.raises(ExpFieldError):
        _e(Fraction(1, 3)).exp()  # e^(e^(1/3)) is not in the field
    with pytest.raises(ExpFieldError):
        third / (third - third)
    with pytest.raises(ExpFieldError):
        third + arb(1) / 3  # an inexact ball never enters exact arithmetic
