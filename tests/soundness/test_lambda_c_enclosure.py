"""The kernel's enclosure of lambda_c (bisection with ball signs, `certificates.kernel.lambda_c.enclose`) holds the
root that the Newton finder outside the kernel (`certificates.provers.lambda_c_roots.certify_root`) certifies, at
exact n, over balls of n and of beta, and at several precisions; its work is a bounded count of sign evaluations."""

from __future__ import annotations

from fractions import Fraction

import pytest
from flint import arb, ctx
from headflow.certificates.kernel import lambda_c
from headflow.certificates.kernel.exact import ball_of, interval_ball, precision
from headflow.certificates.kernel.exprtree import symbols
from headflow.certificates.provers.lambda_c_roots import certify_root

EXACT_N = [2, 3, 10, 1000, 10**6, Fraction(7, 3), Fraction(1_000_001, 1_000_000)]


@pytest.mark.parametrize("bits", [53, 128, 400])
@pytest.mark.parametrize("tokens", EXACT_N)
def test_the_enclosure_at_an_exact_n_holds_the_newton_root(tokens: int | Fraction, bits: int) -> None:
    root = certify_root(tokens, bits + 64)
    with precision(bits):
        for beta in (Fraction(1), Fraction(3, 7), Fraction(10**6)):
            enclosure = lambda_c.enclose(ball_of(tokens), ball_of(beta))
            with precision(bits + 128):
                assert enclosure.contains(root / ball_of(beta))
                assert enclosure.rad() < arb(2) ** (12 - bits) * enclosure.mid()  # narrow at the precision


@pytest.mark.parametrize(
    ("tokens", "beta"),
    [
        ((2, 3), (1, 1)),
        ((3, 7), (Fraction(1, 2), 2)),
        ((Fraction(11, 10), Fraction(12, 10)), (Fraction(1, 10), Fraction(1, 9))),
        ((999, 1001), (5, 6)),
        ((10**6, 2 * 10**6), (Fraction(1, 3), 3)),
    ],
)
def test_the_enclosure_over_balls_holds_every_root_inside(
    tokens: tuple[int | Fraction, int | Fraction], beta: tuple[int | Fraction, int | Fraction]
) -> None:
    enclosure = lambda_c.enclose(interval_ball(*tokens), interval_ball(*beta))
    low, high = (Fraction(end) for end in tokens)
    for n in (low, (low + high) / 2, high):
        root = certify_root(n, 128)
        for b in (Fraction(beta[0]), Fraction(beta[1]), (Fraction(beta[0]) + Fraction(beta[1])) / 2):
            with precision(256):
                assert enclosure.contains(root / ball_of(b))


def test_the_bisection_is_a_bounded_count_of_signs(monkeypatch: pytest.MonkeyPatch) -> None:
    """At most bits + log2(right_of_root) + 2 balls of g (signs) per end of n, the same count each time."""
    calls: list[int] = []
    sign = lambda_c._g
    monkeypatch.setattr(lambda_c, "_g", lambda *args: calls.append(1) or sign(*args))
    for tokens in (5, 10**30):
        counts = []
        for _ in range(2):
            lambda_c._bracket.cache_clear()
            calls.clear()
            lambda_c._bracket(Fraction(tokens), ctx.prec)
            counts.append(len(calls))
        bound = ctx.prec + lambda_c.right_of_root(Fraction(tokens)).bit_length() + 2
        assert counts[0] == counts[1] <= bound


def test_a_wrong_equation_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """An equation negative at the right end of the start bracket (1000 (n - 1) subtracted): no bracket, RootError."""
    wrong = ["add", lambda_c.EQUATION, ["mul", ["rat", "-1000"], ["add", ["rat", "-1"], ["sym", lambda_c.N]]]]
    monkeypatch.setattr(lambda_c, "EQUATION", wrong)
    lambda_c._bracket.cache_clear()
    with pytest.raises(lambda_c.RootError, match="no sign change"):
        lambda_c.enclose(arb(17), arb(1))
    lambda_c._bracket.cache_clear()


def test_the_stored_equation_is_over_u_and_n() -> None:
    """The enclosure binds the symbols u and n: the stored equation g(u, n) has exactly these (a renamed symbol in
    the stored file would leave it unbound, and every enclosure would fail)."""
    assert symbols(lambda_c.EQUATION) == {lambda_c.U, lambda_c.N} == {"u", "n"}
