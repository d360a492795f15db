"""Theorem 22's early clustering rate as a `gram` statement: the rate of the cluster gap at an orthogonal start.

At unit tokens that are pairwise orthogonal (d >= n), head h of softmax attention with M_h = W_h = lambda_h I gives
token i the weights p_ii = e^(beta lambda_h) q_h and p_ik = q_h (k != i), q_h = 1/(e^(beta lambda_h) + n - 1), so its
output is f^h_i = lambda_h q_h (e^(beta lambda_h) x_i + x_j + r_i), r_i = sum_{k != i, j} x_k orthogonal to x_i and x_j.
The kernel re-checks, for one head, d/dt (1 - <x_i, x_j>) = -2 lambda q as x_i and x_j move with P_(x_i) f_i and
P_(x_j) f_j (`certificates.kernel.inner_products`); the weights and the sum over heads are the sentence's.
"""

from __future__ import annotations

from headflow.certificates.statements.inner_products import GramObligation, VectorTree, inner
from headflow.identities.closed_forms import tangent_projection

XI, XJ, RI, RJ = (VectorTree(["vec", name]) for name in ("xi", "xj", "ri", "rj"))
LAMBDA, Q = ["sym", "lam"], ["sym", "q"]
#: e^(beta lambda): a token's weight on itself, relative to its weight q on each other (orthogonal) token.
OWN = ["exp", ["mul", ["sym", "beta"], LAMBDA]]


def _velocity(token: VectorTree, other: VectorTree, rest: VectorTree) -> VectorTree:
    """P_token(lambda q (e^(beta lambda) token + other + rest)): the token's velocity under one head."""
    output = ["mul", LAMBDA, Q] * (OWN * token + other + rest)
    return tangent_projection(token, output, inner)


EARLY_RATE = GramObligation(
    "softmax attention, scalar heads M_h = W_h = lambda_h I (lambda_h real), unit tokens pairwise orthogonal at t = 0 "
    "(rho = 0, d >= n), for every n >= 2, real beta, H >= 1: at token i head h's weights are p_ii = "
    "exp(beta lambda_h) q_h and p_ik = q_h (k != i), q_h = 1/(exp(beta lambda_h) + n - 1), so f^h_i = lambda_h q_h "
    "(exp(beta lambda_h) x_i + x_j + r_i), r_i = sum_{k != i, j} x_k orthogonal to x_i and x_j. Re-checked: for one "
    "head (lambda, q), as x_i and x_j move with P_(x_i) f_i and P_(x_j) f_j, d/dt (1 - <x_i, x_j>) = -2 lambda q. "
    "Not re-checked: the weights at orthogonal tokens above, and the sum over heads (the velocity is the sum of the "
    "heads' projected outputs, so the rates add): d eps/dt at t = 0 is -sum_h 2 lambda_h q_h = -sum_h phi(lambda_h), "
    "phi(lambda) = 2 lambda/(exp(lambda beta) + n - 1)",
    ((["rate", ["sub", ["rat", "1"], inner(XI, XJ)]], ["mul", ["rat", "-2"], LAMBDA, Q]),),
    unit=("xi", "xj"),
    orthogonal=(("xi", "xj"), ("ri", "xi"), ("ri", "xj"), ("rj", "xi"), ("rj", "xj")),
    velocities=(("xi", _velocity(XI, XJ, RI).tree), ("xj", _velocity(XJ, XI, RJ).tree)),
)
