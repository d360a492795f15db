"""The entropy production identity (Theorem 27), proved for a general number n of scores.

p_j = exp(beta s_j) / Z with Z = sum_j exp(beta s_j) and s_j = s_j(t) any differentiable family.
Every sum over j that appears is a linear combination of four *moments* (sums with symbolic
upper bound n):  A = sum e_j, B = sum e_j s_j, C = sum e_j sdot_j, D = sum e_j s_j sdot_j, with
e_j = exp(beta s_j). Reducing a summand to moments only uses linearity of the finite sum (the
coefficients must be free of j, which is checked), so the identity is proved for every n.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp
from headflow.identities.derivation import Derivation

n, beta = sp.symbols("n beta", positive=True)
t = sp.Symbol("t", real=True)
j = sp.Symbol("j", integer=True, positive=True)
s = sp.Function("s", real=True)
A, B, C, D = sp.symbols("A B C D", positive=True)

score = s(j, t)
score_rate = sp.Derivative(score, t)
weight = sp.exp(beta * score)
#: The summand patterns whose sums over j = 1..n are the moments.
MOMENTS = {weight: A, weight * score: B, weight * score_rate: C, weight * score * score_rate: D}


def to_moments(summand: sp.Expr) -> sp.Expr | None:
    """sum_{j=1}^n summand as a combination of the moments, or None if a term is not of that form."""
    total = sp.Integer(0)
    for term in sp.Add.make_args(sp.expand(summand)):
        coefficient, pattern = term.as_independent(j)
        if pattern not in MOMENTS:
            return None
        total += coefficient * MOMENTS[pattern]
    return total


def entropy_lemma(d: Derivation | None = None) -> Derivation:
    """H = -sum_j p_j log p_j = log Z - beta sum_j p_j s_j (Z = A, sum_j p_j s_j = B / A), for every n; its steps
    are added to `d` (a new derivation by default)."""
    d = Derivation() if d is None else d
    d.note(
        "Moments over j = 1..n (n symbolic) of e_j = exp(beta s_j(t)); p_j = e_j / A",
        r"A = \sum_j e_j,\ B = \sum_j e_j s_j,\ C = \sum_j e_j \dot s_j,\ D = \sum_j e_j s_j \dot s_j",
    )
    log_p = sp.expand_log(sp.log(weight / A), force=True)
    d.zero("log p_j = beta s_j - log A (s_j real, A > 0)", log_p - (beta * score - sp.log(A)))
    entropy = to_moments(-(weight / A) * log_p)
    if entropy is None:
        d.failures.append("the entropy summand is not a combination of the moments")
        return d
    d.zero(
        "Entropy by linearity of the finite sum: H = log A - beta B / A (i.e. log Z - beta <s>_p)",
        entropy - ENTROPY,
        r"H = -\sum_j p_j \log p_j = \log A - \beta \frac{B}{A}",
    )
    return d


#: The entropy in moments (`entropy_lemma`).
ENTROPY = sp.log(A) - beta * B / A


def prove_entropy_identity(claimed: Callable[[sp.Expr], sp.Expr] | None = None) -> Derivation:
    """dH/dt = claimed(Cov_p(s, sdot)); by default claimed(cov) = -beta^2 cov."""
    claimed = claimed or (lambda cov: -(beta**2) * cov)
    d = entropy_lemma()
    if not d.proved:
        return d
    entropy_claim = ENTROPY
    rates = {}
    for name, moment, pattern, claim in (("A", A, weight, beta * C), ("B", B, weight * score, beta * D + C)):
        derivative = to_moments(sp.Sum(pattern, (j, 1, n)).diff(t).function)
        if derivative is None:
            d.failures.append(f"d{name}/dt is not a combination of the moments")
            return d
        d.zero(
            f"Differentiate under the finite sum: d{name}/dt",
            derivative - claim,
            rf"\dot {name} = {sp.latex(claim)}",
        )
        rates[moment] = claim
    entropy_rate = sum(sp.diff(entropy_claim, m) * r for m, r in rates.items())
    covariance = to_moments(weight * score * score_rate / A) - to_moments(weight * score / A) * to_moments(
        weight * score_rate / A
    )
    d.note(
        "Covariance under p by linearity: Cov_p(s, sdot) = D/A - (B/A)(C/A)",
        rf"\mathrm{{Cov}}_p(s, \dot s) = {sp.latex(covariance)}",
    )
    d.zero(
        "Chain rule dH/dt = (dH/dA) dA/dt + (dH/dB) dB/dt, minus the claimed right side",
        entropy_rate - claimed(covariance),
        rf"\frac{{dH}}{{dt}} = {sp.latex(sp.factor(entropy_rate))} = -\beta^2\,\mathrm{{Cov}}_p(s, \dot s)",
    )
    return d
