"""T22 in the equiangular regime: equiangular token sets are invariant, and the late rate, with computed steps.

Softmax attention with scalar heads M_h = W_h = lambda_h I on the sphere. The Gram matrix
G_jk = <x_j, x_k> of the tokens obeys a closed ODE: a vector is written as its column of
coefficients on the tokens x_0, ..., x_{n-1}, so <a, b> = a^T G b in every dimension d, the head
output is f^h_i = lambda_h sum_j w^h_ij x_j with w^h_ij = softmax_j(beta lambda_h G_ij), the
velocity is xdot_i = sum_h P⊥_{x_i} f^h_i (`closed_forms.tangent_projection`) and
dG_ik/dt = <xdot_i, x_k> + <x_i, xdot_k> is a function F(G) of the Gram entries alone.

What is computed here (SymPy, `headflow.identities.derivation`) and what is cited:
- for n = 2..5 tokens and two heads, F(G) is derived from the model and equals
  sum_h lambda_h [sum_j w_ij (G_jk - G_ij G_ik) + sum_j w_kj (G_ji - G_kj G_ki)]; at an equiangular G
  (1 on the diagonal, rho off it) every diagonal entry of F is 0 and every off-diagonal entry is the
  same expression, the reduced rate sum_h 2 lambda_h <P⊥ f, x_k> of the counting in
  `linearized_clustering.pairing_with_other_token`;
- for general n, the counting itself (diagonal and off-diagonal entries) is the computed step, and
  the equality of the off-diagonal entries is the cited permutation symmetry of F;
- invariance then follows from uniqueness of ODE solutions (cited);
- late rate: (d eps/dt)/eps -> -2 lambda per head, the remainder (d ln eps/dt + 2 Lambda) is at most
  C eps on (0, eps(0)] (its limit over eps is computed), eps <= eps(0) e^{-c t} (the rate factor's
  sign is computed; the minimum and Gronwall are cited), and the remainder's integral converges
  (the integral of the bound is computed; convergence of an absolutely integrable integral is cited).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import sympy as sp
from headflow.identities import closed_forms as cf
from headflow.identities import limits, signs
from headflow.identities import linearized_clustering as lc
from headflow.identities.derivation import Derivation

n, beta, lam, rho, eps = cf.n, cf.beta, cf.lam, lc.rho, lc.eps
#: Two head strengths (the computed checks use two heads, so that the sum over heads is exercised).
HEADS = sp.symbols("lambda_1 lambda_2", positive=True)
#: The token counts of the explicit Gram computation.
EXPLICIT_TOKENS = (2, 3, 4, 5)
t = sp.Symbol("t", nonnegative=True)
m = sp.Symbol("m", positive=True)  # n - 1 for n >= 2
c, bound, start, delta, total_strength = sp.symbols("c C epsilon_0 delta Lambda", positive=True)
#: Sign facts: n = m + 1 with m > 0 (n >= 2), every declared strength, gap and bound > 0.
_FACTS = signs.facts(positive=[m, beta, lam, eps, delta, c, bound, start, total_strength], shifts={n: (m, 1)})

#: weights(G, i, strength) -> [w_i0, ..., w_i(n-1)], the attention weights of token i for one head.
Weights = Callable[[sp.Matrix, int, sp.Expr], list[sp.Expr]]


def softmax_weights(gram: sp.Matrix, i: int, strength: sp.Expr) -> list[sp.Expr]:
    """w_ij = softmax_j(beta s_ij) with s_ij = <x_i, lambda x_j> = lambda G_ij (scalar head lambda I)."""
    exps = [sp.exp(beta * strength * gram[i, j]) for j in range(gram.shape[0])]
    total = sum(exps)
    return [e / total for e in exps]


def gram_symbols(tokens: int) -> sp.Matrix:
    """A symmetric Gram matrix of unit tokens: 1 on the diagonal, a symbol g_jk = g_kj off it."""
    return sp.Matrix(tokens, tokens, lambda j, k: 1 if j == k else sp.Symbol(f"g_{min(j, k)}{max(j, k)}", real=True))


def equiangular_gram(tokens: int, inner: sp.Expr = rho) -> sp.Matrix:
    """The equiangular Gram matrix: 1 on the diagonal, `inner` off it."""
    return sp.Matrix(tokens, tokens, lambda j, k: 1 if j == k else inner)


def gram_velocity(
    gram: sp.Matrix, strengths: Sequence[sp.Expr] = HEADS, weights: Weights = softmax_weights
) -> sp.Matrix:
    """dG/dt derived from the model in the coefficient representation (see the module docstring)."""
    size = gram.shape[0]

    def inner(a: sp.Matrix, b: sp.Matrix) -> sp.Expr:
        return (a.T * gram * b)[0, 0]

    basis = [sp.Matrix([1 if j == i else 0 for j in range(size)]) for i in range(size)]
    velocities = []
    for i in range(size):
        xdot = sp.zeros(size, 1)
        for strength in strengths:
            output = strength * sp.Matrix(weights(gram, i, strength))  # f^h_i = lambda_h sum_j w_ij x_j
            xdot += cf.tangent_projection(basis[i], output, inner)
        velocities.append(xdot)
    return sp.Matrix(size, size, lambda i, k: inner(velocities[i], basis[k]) + inner(basis[i], velocities[k]))


def stated_gram_velocity(
    gram: sp.Matrix, strengths: Sequence[sp.Expr] = HEADS, weights: Weights = softmax_weights
) -> sp.Matrix:
    """The Gram ODE as written: sum_h lambda_h [sum_j w_ij (G_jk - G_ij G_ik) + sum_j w_kj (G_ji - G_kj G_ki)]."""
    size = gram.shape[0]
    G = gram

    def entry(i: int, k: int) -> sp.Expr:
        total = sp.Integer(0)
        for strength in strengths:
            wi, wk = weights(G, i, strength), weights(G, k, strength)
            total += strength * sum(
                wi[j] * (G[j, k] - G[i, j] * G[i, k]) + wk[j] * (G[j, i] - G[k, j] * G[k, i]) for j in range(size)
            )
        return total

    return sp.Matrix(size, size, entry)


def reduced_rate(tokens: sp.Expr, strengths: Sequence[sp.Expr] = HEADS) -> sp.Expr:
    """d rho/dt = sum_h 2 lambda_h <P⊥_{x_i} sum_j p^h_ij x_j, x_k>, by the counting of pairing_with_other_token."""
    total = sp.Integer(0)
    for strength in strengths:
        partition = sp.exp(beta * strength) + (tokens - 1) * sp.exp(beta * strength * rho)
        p_self, p_other = sp.exp(beta * strength) / partition, sp.exp(beta * strength * rho) / partition
        total += 2 * strength * lc.pairing_with_other_token(p_self, p_other).subs(n, tokens)
    return total


def check_invariance(
    d: Derivation,
    tokens: int,
    gram: sp.Matrix | None = None,
    strengths: Sequence[sp.Expr] = HEADS,
    weights: Weights = softmax_weights,
) -> None:
    """For `tokens` tokens: F(G) derived from the model is the stated Gram ODE, and at `gram` (default equiangular)
    its diagonal is 0 and all its off-diagonal entries equal the reduced rate."""
    generic = gram_symbols(tokens)
    derived = gram_velocity(generic, strengths, weights)
    stated = stated_gram_velocity(generic, strengths, weights)
    d.all_zero(
        f"n = {tokens}: dG_ik/dt = <xdot_i, x_k> + <x_i, xdot_k> derived from P⊥ and f^h_i (coefficient columns on "
        "the tokens, any d) is sum_h lambda_h [sum_j w_ij (G_jk - G_ij G_ik) + sum_j w_kj (G_ji - G_kj G_ki)], a "
        "function of the Gram entries alone: the Gram matrix obeys a closed ODE dG/dt = F(G)",
        [derived[i, k] - stated[i, k] for i in range(tokens) for k in range(tokens)],
    )
    point = equiangular_gram(tokens) if gram is None else gram
    values = {generic[j, k]: point[j, k] for j in range(tokens) for k in range(j + 1, tokens)}
    at = derived.xreplace(values)
    d.all_zero(
        f"n = {tokens}: at the equiangular G every diagonal entry of F(G) is 0 (unit norms are kept)",
        [at[i, i] for i in range(tokens)],
    )
    first = at[0, 1]
    d.all_zero(
        f"n = {tokens}: at the equiangular G every off-diagonal entry of F(G) equals F_01 (F(G) is tangent to the "
        "equiangular curve)",
        [at[i, k] - first for i in range(tokens) for k in range(tokens) if i != k],
    )
    d.zero(
        f"n = {tokens}: F_01 is the reduced rate sum_h 2 lambda_h <P⊥ f^h_i, x_k> of the counting "
        "(linearized_clustering.pairing_with_other_token at this n)",
        first - reduced_rate(tokens, strengths),
    )


def prove_invariance(tokens: Sequence[int] = EXPLICIT_TOKENS) -> Derivation:
    """Equiangular sets are invariant under softmax with scalar heads: explicit n, general n, then uniqueness."""
    d = Derivation()
    d.note(
        "softmax, scalar heads M_h = W_h = lambda_h I (lambda_h > 0), spherical dynamics: s^h_ij = lambda_h G_ij, "
        "w^h_ij = softmax_j(beta s^h_ij), xdot_i = sum_h P⊥_{x_i} f^h_i, f^h_i = lambda_h sum_j w^h_ij x_j"
    )
    for size in tokens:
        check_invariance(d, size)
    _general_counting(d)
    d.cite(
        "permutation symmetry of the Gram field",
        "for every n, at an equiangular G all off-diagonal entries of F(G) are equal and all diagonal entries are "
        "equal (computed above: the diagonal ones are 0, the off-diagonal one is the counted reduced rate)",
        "F(P G P^T) = P F(G) P^T for every permutation P (each entry of F is a sum over all tokens j of one "
        "expression in G), and an equiangular G satisfies P G P^T = G, so F(G) commutes with every permutation",
    )
    d.note(
        "several heads: xdot_i is the sum over heads, and F is linear in the velocities, so F = sum_h F_h (exercised "
        "above with two heads)"
    )
    d.cite(
        "uniqueness of ODE solutions (Picard-Lindelof)",
        "a start with equiangular tokens stays equiangular: G(t) = 1 on the diagonal, rho(t) off it, where "
        "d rho/dt = r(rho) is the reduced rate",
        "F is smooth (exponentials and polynomials, softmax denominators > 0), hence locally Lipschitz; the curve "
        "G(rho(t)) solves dG/dt = F(G) (its derivative r(rho) (J - I) equals F(G(rho)), computed above) from the "
        "same G(0), so it is the Gram matrix of the token trajectory",
    )
    return d


def _general_counting(d: Derivation) -> None:
    """Symbolic n: the diagonal entry of F at an equiangular G is 0, and the off-diagonal one is the counted rate."""
    w_self, w_other = sp.symbols("w_self w_other", positive=True)
    g_ii, g_ij = sp.symbols("G_ii G_ij", real=True)
    term = w_self * (g_ii - g_ii * g_ii) + (n - 1) * w_other * (g_ij - g_ij * g_ii)  # j = i, then the n - 1 others
    diagonal = (2 * term).subs({g_ii: 1, g_ij: rho})
    d.zero(
        "general n, diagonal entry: dG_ii/dt = 2 lambda sum_j w_ij (G_ji - G_ij G_ii) counts j = i (w_self (1 - 1)) "
        "and n - 1 others (w_other (rho - rho)): 0",
        diagonal,
    )
    lc.softmax_reduction(d)  # the off-diagonal entry for general n: the counting of pairing_with_other_token


@functools.cache
def invariance_lemma() -> Derivation:
    """`prove_invariance()` once per process (it is the same lemma for T22's early and late rates)."""
    return prove_invariance()


def prove_late_rate(coefficient: int | sp.Expr = 2) -> Derivation:
    """T22.late-rate: eps(t) ~ C exp(-coefficient Lambda t), checked against coefficient (the claim: 2)."""
    d = Derivation()
    d.include(invariance_lemma(), "equiangular invariance")
    per_gap = sp.cancel(lc.softmax_rate_in_gap(Derivation()) / eps)  # exact; its derivation is recorded by late_rate
    d.note(
        "one head lambda, eps = 1 - rho in (0, n/(n-1)): d eps/dt = -eps a(eps), "
        "a(eps) = 2 lambda (n - (n-1) eps)/(exp(beta lambda eps) + n - 1); with heads, d eps/dt = -eps sum_h a_h(eps)"
    )
    lc.late_rate(d, coefficient)
    rate_factor = 2 * lam * (n - (n - 1) * eps) / (sp.exp(beta * lam * eps) + n - 1)
    d.zero("(d eps/dt)/eps = -a(eps) (the reduced rate above, rho = 1 - eps)", per_gap + rate_factor)
    remainder = per_gap + coefficient * lam
    limits.record_limit(
        d,
        "remainder R(eps) = (d eps/dt)/eps + 2 lambda: R(eps)/eps -> 2 lambda (n - 1 + beta lambda)/n, finite",
        limits.at_point(remainder / eps, eps, sp.Integer(0), lc.FACTS),
        2 * lam * (n - 1 + beta * lam) / n,
        r"\frac{R(\varepsilon)}{\varepsilon} \to \frac{2\lambda(n - 1 + \beta\lambda)}{n}",
    )
    d.sign(
        "R(eps)/eps is continuous for eps > 0: its denominator exp(beta lambda eps) + n - 1 is > 0 (n >= 2)",
        sp.exp(beta * lam * eps) + n - 1,
        ">0",
        _FACTS,
    )
    d.cite(
        "bounded continuous extension",
        "|R_h(eps)| <= C_h eps on (0, eps(0)] for each head, so |d ln eps/dt + 2 Lambda| <= C eps, C = sum_h C_h",
        "R_h(eps)/eps is continuous on (0, eps(0)] with a finite limit at 0, so it extends continuously to the "
        "compact [0, eps(0)] and is bounded there (extreme value theorem)",
    )
    d.zero(
        "a(eps) > 0 for 0 < eps < n/(n-1): with eps = n/(n-1) - delta (delta > 0), n - (n-1) eps = (n-1) delta",
        (n - (n - 1) * eps).subs(eps, n / (n - 1) - delta) - (n - 1) * delta,
    )
    d.sign(
        "(n-1) delta > 0 and lambda > 0 and exp(beta lambda eps) + n - 1 > 0 (n >= 2), so a(eps) > 0",
        m * delta * lam / (sp.exp(beta * lam * eps) + m),
        ">0",
        _FACTS,
    )
    d.cite(
        "trapping",
        "eps(t) stays in (0, eps(0)] for all t >= 0",
        "d eps/dt = -eps sum_h a_h(eps) < 0 on (0, n/(n-1)) and eps = 0 is a constant solution, which the "
        "trajectory cannot meet in finite time (uniqueness of ODE solutions)",
    )
    d.cite(
        "extreme value theorem",
        "c = min over [0, eps(0)] of sum_h a_h(eps) is > 0, so d eps/dt <= -c eps",
        "sum_h a_h is continuous and positive on the compact [0, eps(0)] (eps(0) < n/(n-1))",
    )
    path = sp.Function("epsilon")(t)
    d.zero(
        "d/dt (eps e^{c t}) = (d eps/dt + c eps) e^{c t}",
        sp.diff(path * sp.exp(c * t), t) - (sp.diff(path, t) + c * path) * sp.exp(c * t),
    )
    d.cite(
        "Gronwall",
        "eps(t) <= eps(0) e^{-c t}",
        "by the previous step eps e^{c t} is non-increasing when d eps/dt <= -c eps",
        r"\varepsilon(t) \le \varepsilon(0)\,e^{-ct}",
    )
    s = sp.Symbol("s", nonnegative=True)
    d.zero(
        "the bound is integrable: integral over [0, oo) of C eps(0) e^{-c s} ds = C eps(0)/c, finite",
        sp.integrate(bound * start * sp.exp(-c * s), (s, 0, sp.oo)) - bound * start / c,
    )
    d.zero(
        "d/dt (ln eps + 2 Lambda t) = (d eps/dt)/eps + 2 Lambda, which is the remainder R(eps) summed over heads; so "
        "ln eps(t) + 2 Lambda t = ln eps(0) + integral from 0 to t of R(eps(s)) ds",
        sp.diff(sp.log(path) + 2 * total_strength * t, t) - (sp.diff(path, t) / path + 2 * total_strength),
    )
    d.cite(
        "absolute convergence of integrals",
        "ln eps(t) + 2 Lambda t converges to a finite L as t -> oo, so eps(t) e^{2 Lambda t} -> C = e^L > 0: "
        "eps(t) ~ C exp(-2 Lambda t)",
        "|R(eps(s))| <= C eps(0) e^{-c s}, whose integral over [0, oo) is finite (computed above)",
        r"\varepsilon(t) \sim C e^{-2\Lambda t}",
    )
    return d


def prove_early_rate(claimed: sp.Expr | None = None) -> Derivation:
    """T22.early-rate: d eps/dt at an orthogonal start is -sum_h phi(lambda_h) (per head: `claimed`, default -phi)."""
    d = Derivation()
    d.include(invariance_lemma(), "equiangular invariance")
    lc.early_rate(d, claimed)
    d.note(
        "summing over heads: d eps/dt at t = 0 equals -sum_h phi(lambda_h)",
        r"\dot\varepsilon(0) = -\sum_h \varphi(\lambda_h)",
    )
    return d
