"""The equiangular reduction under the causal mask: what stays exact and what breaks, symbolic in n, beta, lambda, rho.

Regime: spherical dynamics, heads M_h = W_h = lambda_h I, the causal mask (token i attends to the tokens j <= i,
tokens numbered 1..n), and an equiangular Gram matrix <x_i, x_j> = rho (i != j) at the instant considered. Token i's
head output is f^h_i = lambda_h (A_i x_i + B_i sum_{k < i} x_k), with the weights of the kind
(`head_weights`): usa A = e^{beta lambda}, B = e^{beta lambda rho}; softmax the same divided by the row's partition
Z_i = e^{beta lambda} + (i - 1) e^{beta lambda rho}, which now depends on the row; relu max(beta lambda, 0)/n and
max(beta lambda rho, 0)/n. The velocity is v_i = c sum_h f^h_i (c = 1/n for usa, 1 otherwise).

Derived here by counting the terms of the sum over k (as `headflow.identities.linearized_clustering` counts the unmasked
sum), for tokens i < j:

    d G_ij/dt = <xdot_i, x_j> + <x_i, xdot_j>
              = c (1 - rho) sum_h lambda_h [B^h_j (1 + (j - 1) rho) + B^h_i (i - 1) rho],

and d G_ii/dt = 0. Consequences, each a step of `causal_reduction`:

- the first token does not move: f^h_1 = lambda_h A_1 x_1 is radial, so xdot_1 = 0 at every configuration (not only
  equiangular ones; the model claim `token = "first"` proves the same for W_h = I);
- the tokens stop being equiangular: d G_13/dt - d G_12/dt = c rho (1 - rho) sum_h lambda_h B^h (usa, relu), which is
  not 0 for rho outside {0, 1} (n >= 3), so an equiangular start leaves the equiangular set and rho alone no longer
  describes the motion; claims about such starts are decided by the numerical evidence;
- the first two tokens form a closed system (token 2 sees tokens 1 and 2 only, token 1 itself), so rho_12 obeys the
  autonomous ODE d rho_12/dt = c (1 - rho^2) sum_h lambda_h B^h_2(rho) exactly, from any start; its gap
  eps = 1 - rho_12 decays, when it tends to 0, at the exact rate r = 2 c sum_h lambda_h B^h_2(1): usa
  (2/n) sum_h lambda_h e^{beta lambda_h}, softmax sum_h lambda_h (B_2(1) = 1/2), relu (2/n) sum_h lambda_h
  max(beta lambda_h, 0).
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp
from headflow.identities import equiangular_reduction as er
from headflow.identities.derivation import Derivation

#: Token indices i < j (numbered from 1), symbolic.
i, j = sp.symbols("i j", integer=True, positive=True)
rho, lam, n, beta = er.rho, er.lam, er.n, er.beta


def head_weights(kind: str, strength: sp.Expr, row: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(A, B): the weight token `row` puts on itself and on each earlier token, for one head strength I, at
    equiangular tokens under the causal mask (the row attends to `row` tokens: itself and row - 1 others)."""
    if kind == "softmax":
        partition = sp.exp(beta * strength) + (row - 1) * sp.exp(beta * strength * rho)
        return sp.exp(beta * strength) / partition, sp.exp(beta * strength * rho) / partition
    return er.head_weights(kind, strength)


def _pairings(kind: str, row: sp.Expr, earlier: bool) -> tuple[sp.Expr, sp.Expr]:
    """(<f_row, x_other>, <f_row, x_row>) / lambda, counted term by term over k <= row, where x_other is an earlier
    token (`earlier`: the other token is one of the k < row) or a later one."""
    A, B = head_weights(kind, lam, row)
    # earlier: k = row gives A rho, k = other B, the row - 2 remaining k < row B rho each; later: k = row gives
    # A rho, the row - 1 earlier k B rho each
    with_other = A * rho + B + (row - 2) * B * rho if earlier else A * rho + (row - 1) * B * rho
    return with_other, A + (row - 1) * B * rho


def pair_rate(kind: str) -> sp.Expr:
    """One head's d G_ij/dt for i < j (multiply by the heads' sum), derived by counting: the closed form of the module
    docstring, checked by `causal_reduction`."""
    c = er.velocity_scale(kind)
    later_other, later_self = _pairings(kind, j, earlier=True)
    earlier_other, earlier_self = _pairings(kind, i, earlier=False)
    return c * lam * ((later_other - rho * later_self) + (earlier_other - rho * earlier_self))


def closed_pair_rate(kind: str) -> sp.Expr:
    """c lambda (1 - rho) [B_j (1 + (j - 1) rho) + B_i (i - 1) rho]: one head's d G_ij/dt in closed form."""
    c = er.velocity_scale(kind)
    B_i, B_j = head_weights(kind, lam, i)[1], head_weights(kind, lam, j)[1]
    return c * lam * (1 - rho) * (B_j * (1 + (j - 1) * rho) + B_i * (i - 1) * rho)


def pair_ode(kind: str) -> sp.Expr:
    """One head's term of d rho_12/dt = c (1 - rho^2) lambda B_2(rho): the closed system of tokens 1 and 2."""
    return (closed_pair_rate(kind).subs({i: 1, j: 2})).factor()


def pair_gap_rate(kind: str) -> sp.Expr:
    """One head's term of the exact late rate r = 2 c lambda B_2(1) of eps = 1 - rho_12 (-d/d eps of the ODE at 0)."""
    eps = sp.Symbol("eps")
    return sp.diff(pair_ode(kind).subs(rho, 1 - eps), eps).subs(eps, 0)


def pair_pull(derivation: Derivation, kind: str, strengths: Sequence[sp.Expr]) -> sp.Expr:
    """S_12(rho) = c sum_h lambda_h B^h_2(rho), with d rho_12/dt = (1 - rho)(1 + rho) S_12(rho): the first pair under
    the causal mask in the form of `equiangular_reduction` for n = 2 tokens (so its limit and late rate are read the
    same way), the steps of `causal_reduction` included."""
    derivation.include(causal_reduction(kind), "causal mask")
    derivation.note(
        f"several heads: the pair's rate is the sum of the heads' terms, lambda = lambda_h for h = 1..{len(strengths)} "
        f"({', '.join(str(s) for s in strengths)}); as the equiangular reduction of n = 2 tokens with pull S_12"
    )
    one_head = er.velocity_scale(kind) * lam * head_weights(kind, lam, 2)[1]
    return sum((one_head.subs(lam, s) for s in strengths), sp.Integer(0))


def causal_reduction(kind: str) -> Derivation:
    """The steps of the module docstring for one attention kind, each checked exactly."""
    _ = er.head_weights(kind, lam)  # the kind is known
    d = Derivation()
    d.note(
        f"{kind}, causal mask, heads M = W = lambda I, equiangular Gram matrix: token i attends to k <= i; "
        "f_i = lambda (A_i x_i + B_i sum_{k<i} x_k); for i < j count the terms of <f_j, x_i>, <f_j, x_j>, "
        "<f_i, x_j>, <f_i, x_i>",
        r"\dot G_{ij} = \langle \dot x_i, x_j\rangle + \langle x_i, \dot x_j\rangle",
    )
    d.zero(
        "d G_ij/dt (i < j) = c lambda (1 - rho) [B_j (1 + (j - 1) rho) + B_i (i - 1) rho] per head",
        pair_rate(kind) - closed_pair_rate(kind),
    )
    A_1 = head_weights(kind, lam, 1)[0]
    d.zero(
        "first token: f_1 = lambda A_1 x_1, so P_{x_1}(f_1) = lambda A_1 (x_1 - <x_1, x_1> x_1) = 0: x_1 does not move",
        lam * A_1 * (1 - 1),
    )
    difference = closed_pair_rate(kind).subs({i: 1, j: 3}) - closed_pair_rate(kind).subs({i: 1, j: 2})
    if kind != "softmax":
        B = head_weights(kind, lam, 2)[1]
        d.zero(
            "equiangularity breaks: d G_13/dt - d G_12/dt = c lambda B rho (1 - rho), not 0 for rho outside {0, 1}: "
            "an equiangular start does not stay equiangular (n >= 3)",
            sp.expand(difference - er.velocity_scale(kind) * lam * B * rho * (1 - rho)),
        )
    else:
        d.note(
            "equiangularity breaks: d G_13/dt - d G_12/dt = "
            f"{sp.factor(difference)} (the rows' partitions differ), not 0 in general (n >= 3)"
        )
    B_2 = head_weights(kind, lam, 2)[1]
    d.zero(
        "tokens 1 and 2 form a closed system: d rho_12/dt = c (1 - rho^2) lambda B_2(rho) from any start",
        pair_ode(kind) - er.velocity_scale(kind) * (1 - rho**2) * lam * B_2,
    )
    d.zero(
        "the gap eps = 1 - rho_12 decays at the exact rate r = 2 c lambda B_2(1) per head",
        pair_gap_rate(kind) - 2 * er.velocity_scale(kind) * lam * B_2.subs(rho, 1),
    )
    return d
