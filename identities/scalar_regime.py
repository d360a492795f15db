"""Exact nature of the scalar-regime constants (Theorem 19): c*(H), the golden ratio, Lambert W.

Formulas come from identities.closed_forms (one source of truth); this module proves facts
about them with SymPy. Conventions: k = H - 1 >= 0, m = n - 1 > 0, u = beta * lambda.
"""

from __future__ import annotations

import sympy as sp
from headflow.identities import closed_forms as cf
from headflow.identities import signs
from headflow.identities.derivation import Derivation
from headflow.identities.zero_test import is_identically_zero

c, H = cf.c, sp.Symbol("H", real=True)
k = sp.Symbol("k", nonnegative=True)
m = sp.Symbol("m", positive=True)
u, lam, beta = cf.u, cf.lam, cf.beta
#: Sign facts: k = H - 1 >= 0, m = n - 1 > 0, u, beta, lambda > 0.
FACTS = signs.facts(positive=[m, u, lam, beta, cf.n], nonnegative=[k])


def _square_gaps(difference: int) -> list[int]:
    """The |b| of all integer solutions of a^2 - b^2 = difference != 0, exactly: (a - b)(a + b) = difference,
    so p = a - b runs over the divisors of difference and a = (p + q)/2, b = (q - p)/2 with q = difference/p."""
    out = set()
    for p in range(-abs(difference), abs(difference) + 1):
        if p != 0 and difference % p == 0 and (p + difference // p) % 2 == 0:
            out.add(abs(difference // p - p) // 2)
    return sorted(out)


def prove_c_star(formula: sp.Expr | None = None) -> Derivation:
    """The given formula for c*(H) (default: closed_forms.c_star) is the positive root of
    c^2 + (H-1) c - 1, algebraic of degree 2 over Q(H), rational at an integer H >= 1 only for H = 1,
    in (0, 1] and strictly decreasing for real H >= 1."""
    formula = cf.c_star(H) if formula is None else formula
    poly = cf.c_star_polynomial(c, H)
    d = Derivation()
    d.zero(
        "c*(H) is a root of its defining polynomial",
        poly.subs(c, formula),
        rf"c^2 + (H-1)c - 1 \big|_{{c = {sp.latex(formula)}}} = 0",
    )
    shifted = formula.subs(H, k + 1)
    rationalized = 2 / (sp.sqrt(k**2 + 4) + k)
    d.zero(
        "With k = H - 1 >= 0, rationalize: c*(H) = 2 / (sqrt(k^2 + 4) + k)",
        shifted - rationalized,
        rf"c^*(H) = {sp.latex(rationalized)}",
    )
    d.sign("Hence c*(H) > 0 for every real H >= 1 (the other root is negative)", rationalized, ">0", FACTS, r"c^* > 0")
    factors = sp.factor_list(poly, c, H)[1]
    irreducible = len(factors) == 1 and factors[0][1] == 1 and sp.degree(factors[0][0], c) == 2
    d.holds(
        "c^2 + (H-1) c - 1 is irreducible in Q[H, c] and monic in c, hence (Gauss) irreducible over Q(H): "
        "c*(H) is an algebraic function of degree exactly 2",
        irreducible,
        r"[\mathbb{Q}(H, c^*) : \mathbb{Q}(H)] = 2",
    )
    square_cases = _square_gaps(4)
    d.holds(
        "At an integer H the discriminant (H-1)^2 + 4 is a perfect square r^2 only when (r - k)(r + k) = 4, "
        "whose integer solutions have k = 0: c*(H) is rational (degree 1, c*(1) = 1) only for H = 1, "
        "and a quadratic irrational with minimal polynomial c^2 + (H-1)c - 1 for every integer H >= 2",
        square_cases == [0] and is_identically_zero(formula.subs(H, 1) - 1),
        r"r^2 - (H-1)^2 = 4 \iff (r, H) = (\pm 2, 1)",
    )
    d.zero(
        "c* <= 1 for H >= 1: sqrt(k^2 + 4) <= k + 2 because (k + 2)^2 - (k^2 + 4) = 4k >= 0",
        sp.expand((k + 2) ** 2 - (k**2 + 4)) - 4 * k,
        r"(k+2)^2 - (k^2+4) = 4k \ge 0 \Rightarrow c^* = \tfrac{\sqrt{k^2+4} - k}{2} \le 1",
    )
    derivative = sp.diff(rationalized, k)
    d.sign(
        "Strictly decreasing in H: d c*/dH < 0 for every real H >= 1",
        derivative,
        "<0",
        FACTS,
        rf"\frac{{dc^*}}{{dH}} = {sp.latex(derivative)} < 0",
    )
    implicit = -c / (2 * c + H - 1)
    d.zero(
        "Cross-check by implicit differentiation of the defining polynomial: dc/dH = -c / (2c + H - 1)",
        sp.diff(formula, H) - implicit.subs(c, formula),
        r"\frac{dc^*}{dH} = -\frac{c^*}{2c^* + H - 1}",
    )
    return d


def prove_golden(claimed: sp.Expr | None = None) -> Derivation:
    """c*(2) = claimed, by default 1/phi with phi = (1 + sqrt 5)/2."""
    claimed = 1 / cf.golden if claimed is None else claimed
    value = cf.c_star(sp.Integer(2))
    d = Derivation()
    d.note("At H = 2 the defining polynomial is c^2 + c - 1", rf"c^*(2) = {sp.latex(value)}")
    d.zero(
        "c*(2) minus the claimed value (rationalized exactly)",
        value - claimed,
        rf"{sp.latex(value)} = {sp.latex(claimed)}",
    )
    golden_polynomial = c**2 + c - 1
    d.all_zero(
        "Both are roots of c^2 + c - 1",
        [golden_polynomial.subs(c, value), golden_polynomial.subs(c, claimed)],
    )
    d.holds(
        "c^2 + c - 1 is irreducible over Q (its discriminant 5 is not a square, so it has no rational root): it is "
        "the minimal polynomial of both",
        sp.discriminant(golden_polynomial, c) == 5 and 2**2 < 5 < 3**2,
        r"\mathrm{minpoly}_{\mathbb{Q}}(c^*(2)) = c^2 + c - 1 = \mathrm{minpoly}_{\mathbb{Q}}(1/\varphi)",
    )
    return d


def prove_lambda_max(formula: sp.Expr | None = None) -> Derivation:
    """The given formula (default closed_forms.lambda_max) is the unique maximiser of phi on lambda > 0."""
    formula = cf.lambda_max(m + 1, beta) if formula is None else formula
    phi = cf.rate(lam, m + 1, beta)
    g = -cf.lambda_max_equation(u, m + 1)  # m - (u - 1) e^u
    d = Derivation()
    d.zero(
        "phi'(lambda) = 2 g(u) / (e^u + m)^2 with g(u) = m - (u - 1) e^u, u = beta lambda, m = n - 1",
        sp.diff(phi, lam) - (2 * g / (sp.exp(u) + m) ** 2).subs(u, beta * lam),
        r"\varphi'(\lambda) = \frac{2\,(m - (u-1)e^u)}{(e^u + m)^2}",
    )
    d.zero(
        "g(0) = m + 1 > 0 and g'(u) = -u e^u < 0 for u > 0: g has exactly one zero u* > 0, where phi "
        "changes from increasing to decreasing (g -> -inf)",
        sp.diff(g, u) + u * sp.exp(u),
        r"g'(u) = -u e^u",
    )
    u_star = sp.expand(beta * formula)
    w = sp.LambertW(m / sp.E)
    at_formula = sp.expand(g.subs(u, u_star))
    d.zero(
        "beta * lambda_max = 1 + W(m/e) solves g(u) = 0, using only the defining identity W(z) e^{W(z)} = z",
        at_formula.subs(sp.exp(w), (m / sp.E) / w),
        r"g(1 + W(m/e)) = m - e\,W(m/e)\,e^{W(m/e)} = m - e \cdot \tfrac{m}{e} = 0",
    )
    d.sign(
        "u* = 1 + W(m/e) > 0: for z = m/e > 0, W(z) e^{W(z)} = z > 0 forces W(z) > 0",
        u_star,
        ">0",
        FACTS,
        r"\lambda_{\max} = \frac{1 + W\!\left(\frac{n-1}{e}\right)}{\beta} > 0",
    )
    return d


def prove_lambda_c_equation() -> Derivation:
    """phi''(lambda) = 0 iff (u - 2) e^u = m (u + 2); that equation has exactly one root u_c > 0, and u_c > 2."""
    phi = cf.rate(lam, m + 1, beta)
    equation = cf.lambda_c_equation(u, m + 1)
    d = Derivation()
    d.zero(
        "phi''(lambda) = 2 beta e^u q(u) / (e^u + m)^3 with q(u) = (u - 2) e^u - m (u + 2)",
        sp.diff(phi, lam, 2) - (2 * beta * sp.exp(u) * equation / (sp.exp(u) + m) ** 3).subs(u, beta * lam),
        r"\varphi''(\lambda) = \frac{2\beta e^u\left((u-2)e^u - m(u+2)\right)}{(e^u+m)^3}",
    )
    d.zero(
        "q(0) = -2(m + 1) < 0 and q''(u) = u e^u > 0: q is convex on u > 0 and tends to infinity, so it has "
        "exactly one root u_c; q(u) < 0 on (0, 2] (both terms), so u_c > 2",
        sp.diff(equation, u, 2) - u * sp.exp(u),
        r"q''(u) = u e^u",
    )
    d.note(
        "No closed form is claimed for u_c: the equation is not of the form w e^w = z for a single Lambert W",
        r"(u_c - 2)e^{u_c} = (n-1)(u_c + 2)",
    )
    return d


def prove_lambda_c_monotone() -> Derivation:
    """u_c(n) is increasing in n > 1, so lambda_c(n, beta) = u_c(n)/beta is increasing in n and decreasing in
    beta > 0, with the partial derivatives `closed_forms.lambda_c_partials` (implicit differentiation).

    Over a box n in [n0, n1], beta in [b0, b1] this gives lambda_c in [u_c(n0)/b1, u_c(n1)/b0]
    (`headflow.certificates.kernel.lambda_c.enclose`)."""
    g = cf.lambda_c_equation(u, cf.n)
    g_u, g_n = sp.diff(g, u), sp.diff(g, cf.n)
    at_root = {cf.n: 1 + (u - 2) * sp.exp(u) / (u + 2)}  # g = 0 solved for n
    slope = (u + 2) ** 2 * sp.exp(-u) / u**2
    d = Derivation()
    d.zero(
        "At the root, where n - 1 = (u - 2) e^u / (u + 2): g_u = (u - 1) e^u - (n - 1) = u^2 e^u / (u + 2)",
        g_u.subs(at_root) - u**2 * sp.exp(u) / (u + 2),
        r"g_u(u_c) = \frac{u_c^2 e^{u_c}}{u_c + 2}",
    )
    d.sign(
        "g_u(u_c) > 0 for u_c > 2 (u_c > 2: prove_lambda_c_equation), so the implicit function theorem applies and "
        "u_c(n) is continuously differentiable for n > 1",
        u**2 * sp.exp(u) / (u + 2),
        ">0",
        FACTS,
        r"g_u(u_c) > 0",
    )
    d.zero(
        "du_c/dn = -g_n / g_u = (u_c + 2)^2 e^{-u_c} / u_c^2",
        (-g_n / g_u).subs(at_root) - slope,
        r"\frac{du_c}{dn} = \frac{(u_c + 2)^2 e^{-u_c}}{u_c^2}",
    )
    d.sign("du_c/dn > 0: u_c is increasing in n", slope, ">0", FACTS, r"\frac{du_c}{dn} > 0")
    d_n, d_beta = cf.lambda_c_partials(cf.n, beta)
    scaled = {cf.LambdaC(cf.n, beta): u / beta}  # lambda_c = u_c / beta
    d.zero(
        "d lambda_c / dn = (du_c/dn) / beta, as closed_forms.lambda_c_partials writes it",
        d_n.subs(scaled) - slope / beta,
        r"\frac{\partial \lambda_c}{\partial n} = \frac{1}{\beta}\frac{du_c}{dn} > 0",
    )
    d.zero(
        "d lambda_c / d beta = -u_c / beta^2 < 0 for beta > 0, as closed_forms.lambda_c_partials writes it",
        d_beta.subs(scaled) + u / beta**2,
        r"\frac{\partial \lambda_c}{\partial \beta} = -\frac{u_c}{\beta^2} < 0",
    )
    d.sign("-u_c / beta^2 < 0", -u / beta**2, "<0", FACTS, r"-u_c/\beta^2 < 0")
    return d
