"""Theorem 27's entropy production identity as a `gram` statement: rates of scalars only, no vectors.

With e_j = exp(beta s_j) and the moments A = sum_j e_j, B = sum_j e_j s_j, C = sum_j e_j sdot_j, D = sum_j e_j s_j
sdot_j (`identities.entropy`), the kernel re-checks the rate of each summand (so that, summed over j, A' = beta C and
B' = beta D + C) and the chain rule for log A - beta B / A with those rates (`certificates.kernel.inner_products`);
the entropy lemma, the finite sums and the covariance in moments are the sentence's.
"""

from __future__ import annotations

from headflow.certificates.statements.inner_products import GramObligation

SCORE, RATE, BETA = ["sym", "s"], ["sym", "sd"], ["sym", "beta"]
A, B, C, D = (["sym", name] for name in ("A", "B", "C", "D"))
WEIGHT = ["exp", ["mul", BETA, SCORE]]
#: H = log A - beta B / A and -beta^2 Cov_p(s, sdot) = -beta^2 (D / A - B C / A^2), in the moments.
ENTROPY = ["sub", ["log", A], ["mul", BETA, B, ["pow", A, -1]]]
PRODUCTION = ["mul", ["rat", "-1"], BETA, BETA, ["sub", ["mul", D, ["pow", A, -1]], ["mul", B, C, ["pow", A, -2]]]]

ENTROPY_IDENTITY = GramObligation(
    "for every n >= 1, beta > 0 and differentiable scores s_1(t), ..., s_n(t) with rates sdot_j: with e_j = "
    "exp(beta s_j), p = softmax(beta s) (p_j = e_j / A) and the moments A = sum_j e_j > 0, B = sum_j e_j s_j, "
    "C = sum_j e_j sdot_j, D = sum_j e_j s_j sdot_j. Re-checked: (1) d/dt e_j = beta e_j sdot_j and (2) d/dt (e_j "
    "s_j) = beta e_j s_j sdot_j + e_j sdot_j, so that A' = beta C and B' = beta D + C; (3) as A > 0 and B move with "
    "those rates, d/dt (log A - beta B / A) = -beta^2 (D / A - B C / A^2). Not re-checked: the entropy lemma H = "
    "-sum_j p_j log p_j = log A - beta B / A (log p_j = beta s_j - log A), the rate of a finite sum as the sum of the "
    "rates, and Cov_p(s, sdot) = D / A - (B / A)(C / A) (the moments' definitions); so dH/dt = -beta^2 Cov_p(s, sdot)",
    (
        (["rate", WEIGHT], ["mul", BETA, WEIGHT, RATE]),
        (["rate", ["mul", WEIGHT, SCORE]], ["add", ["mul", BETA, WEIGHT, SCORE, RATE], ["mul", WEIGHT, RATE]]),
        (["rate", ENTROPY], PRODUCTION),
    ),
    unit=(),
    rates=(("s", RATE), ("A", ["mul", BETA, C]), ("B", ["add", ["mul", BETA, D], C])),
)
