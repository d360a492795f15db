"""T22 super-additivity in the convex regime, for every n >= 2 and every strength above lambda_c.

phi(lambda) = 2 lambda / (exp(beta lambda) + n - 1) is `closed_forms.rate` and lambda_c is the root
of `closed_forms.lambda_c_equation` (g below); both are taken from there, never re-typed. The proof
(each step computed by SymPy unless it is a cited lemma, see `headflow.identities.derivation`):

1. phi_beta(lambda) = phi_1(beta lambda)/beta, and phi_1''(u) = K(u) g(u) with
   K = 2 e^u/(e^u + n - 1)^3 > 0 and g(u) = (u - 2) e^u - (n - 1)(u + 2); so
   phi_beta''(lambda) = beta K(beta lambda) g(beta lambda) has the sign of g(beta lambda).
2. g(0) = -2n < 0, g''(u) = u e^u > 0 for u > 0 and g -> oo: g is strictly convex on [0, oo), so
   (cited: intermediate values, and the chord of a strictly convex function) it has exactly one
   positive root u_c, g < 0 on (0, u_c) and g > 0 on (u_c, oo). So lambda_c(n, beta) = u_c/beta is
   the inflection point of phi, and phi is strictly convex on [lambda_c, oo).
3. Strict Jensen (cited, its supporting-line reason spelled out; the summation is computed):
   sum_h phi(lambda_h) > H phi(lambda_bar) for lambda_h >= lambda_c, not all equal.

The provers take the inflection function g and the factor K as arguments (defaults: the true
ones), so a wrong g (say one with g(0) > 0) or a wrong K is a mutant that must not be proved.
"""

from __future__ import annotations

import sympy as sp
from headflow.identities import closed_forms as cf
from headflow.identities import signs
from headflow.identities.derivation import Derivation

n, beta, lam, u = cf.n, cf.beta, cf.lam, cf.u
#: m = n - 1 >= 0 (n >= 1): the sign facts are decided for every m >= 0.
m = sp.Symbol("m", nonnegative=True)
#: Symbols of the chord and Jensen steps: g(0), the root, a point above it, phi and phi' at the mean,
#: the total strength, the number of heads.
g0, uc, gap, phi_mean, slope_mean, total = sp.symbols("g_0 u_c delta Phi Phi' S", real=True)
heads = sp.Symbol("H", positive=True, integer=True)
#: The sign facts of the convex-regime steps: n = m + 1 with m >= 0, u > 0 (and beta, lambda > 0).
FACTS = signs.facts(positive=[u, beta, lam], nonnegative=[m], shifts={n: (m, 1)})


def convexity_factor(tokens: sp.Expr = n) -> sp.Expr:
    """K(u) = 2 e^u / (e^u + n - 1)^3, the positive factor with phi_1''(u) = K(u) g(u) (checked in the prover)."""
    return 2 * sp.exp(u) / (sp.exp(u) + tokens - 1) ** 3


def prove_convex_regime(inflection: sp.Expr | None = None, factor: sp.Expr | None = None) -> Derivation:
    """phi_beta is strictly convex exactly on [lambda_c, oo): the steps 1-2 of the module docstring, for symbolic n.

    `inflection` is g(u) (default closed_forms.lambda_c_equation(u, n)) and `factor` is K(u) (default
    `convexity_factor()`); every fact is checked on the given ones, so wrong ones do not prove."""
    g = cf.lambda_c_equation(u, n) if inflection is None else inflection
    K = convexity_factor() if factor is None else factor
    d = Derivation()
    d.note(
        "phi(lambda) = 2 lambda/(exp(beta lambda) + n - 1) (headflow.identities.closed_forms.rate), n >= 2, beta > 0; "
        "u = beta lambda; g(u) = (u - 2) e^u - (n - 1)(u + 2) (headflow.identities.closed_forms.lambda_c_equation)",
        r"\varphi_\beta(\lambda) = \frac{2\lambda}{e^{\beta\lambda} + n - 1},\ g(u) = (u-2)e^u - (n-1)(u+2)",
    )
    d.sign(
        "phi is defined for every lambda: e^u + n - 1 > 0 for n >= 1 (n - 1 = m >= 0)",
        sp.exp(u) + n - 1,
        ">0",
        FACTS,
    )
    d.zero(
        "scaling: phi_beta(lambda) = phi_1(beta lambda)/beta",
        cf.rate(lam, n, beta) - cf.rate(beta * lam, n, 1) / beta,
        r"\varphi_\beta(\lambda) = \varphi_1(\beta\lambda)/\beta",
    )
    d.zero(
        "phi_1''(u) = K(u) g(u) with K(u) = 2 e^u/(e^u + n - 1)^3",
        sp.diff(cf.rate(u, n, 1), u, 2) - K * g,
        r"\varphi_1''(u) = K(u)\,g(u),\ K(u) = \frac{2e^u}{(e^u + n - 1)^3}",
    )
    d.zero(
        "hence phi_beta''(lambda) = beta K(beta lambda) g(beta lambda)",
        sp.diff(cf.rate(lam, n, beta), lam, 2) - beta * (K * g).subs(u, beta * lam),
        r"\varphi_\beta''(\lambda) = \beta\,K(\beta\lambda)\,g(\beta\lambda)",
    )
    d.sign("K(u) > 0 for u > 0 and n >= 1 (n - 1 = m >= 0)", K, ">0", FACTS, r"K(u) > 0")
    at_zero = g.subs(u, 0)
    d.zero("g(0) = -2n", at_zero + 2 * n, r"g(0) = -2n")
    d.sign("g(0) < 0 (n >= 1)", at_zero, "<0", FACTS, r"g(0) < 0")
    curvature = sp.diff(g, u, 2)
    d.zero("g''(u) = u e^u", curvature - u * sp.exp(u), r"g''(u) = u e^u")
    d.sign("g''(u) > 0 for u > 0", curvature, ">0", FACTS, r"g''(u) > 0\ (u > 0)")
    _unbounded_step(d, g)
    d.cite(
        "strict convexity from g'' > 0",
        "g is strictly convex on [0, oo)",
        "g' is strictly increasing on [0, oo) by the mean value theorem, since g'' > 0 on (0, oo)",
    )
    d.cite(
        "intermediate value theorem",
        "g has a root u_c > 0",
        "g is continuous, g(0) < 0 and g(u) -> oo",
    )
    _chord_step(d)
    d.cite(
        "sign of phi''",
        "phi_beta''(lambda) < 0 for 0 < lambda < u_c/beta and > 0 for lambda > u_c/beta: lambda_c(n, beta) = u_c/beta "
        "is the one inflection point of phi, and phi is strictly convex on [lambda_c, oo)",
        "phi_beta'' = beta K g(beta lambda) with beta K > 0 (computed above); a C^2 function with phi'' > 0 on the "
        "interior of an interval has a strictly increasing derivative there, so it is strictly convex on the interval",
        r"\varphi_\beta'' > 0 \text{ on } (\lambda_c, \infty),\quad \lambda_c = u_c/\beta",
    )
    return d


def _unbounded_step(d: Derivation, g: sp.Expr) -> None:
    """g(u) -> oo as u -> oo, by an explicit bound instead of SymPy's limit: g(u) - L >= 0 for u >= u_L, proved
    for every level L >= 0 at a point u_L given in closed form (headflow.identities.signs on the shifted variables)."""
    level, past = sp.symbols("L v", nonnegative=True)
    point = 2 * level + 4 * n + 2  # u_L: u = u_L + v with v >= 0
    lower = (u - 2) * (1 + u) - (n - 1) * (u + 2)  # e^u >= 1 + u and u - 2 >= 0 on u >= u_L
    d.zero(
        "g(u) - [(u - 2)(1 + u) - (n - 1)(u + 2)] = (u - 2)(e^u - 1 - u)",
        g - lower - (u - 2) * (sp.exp(u) - 1 - u),
    )
    shifted = signs.facts(nonnegative=[m, level, past], shifts={n: (m, 1)})
    at = {u: point + past}
    d.sign("u - 2 >= 0 for u >= u_L = 2L + 4n + 2", (u - 2).xreplace(at), ">=0", shifted)
    d.cite(
        "e^u >= 1 + u",
        "e^u - 1 - u >= 0 for u >= 0",
        "its derivative e^u - 1 is >= 0 on [0, oo) and it is 0 at u = 0",
    )
    d.sign(
        "hence g(u) - L >= (u - 2)(1 + u) - (n - 1)(u + 2) - L >= 0 for u >= u_L: g(u) -> oo as u -> oo",
        (lower - level).xreplace(at),
        ">=0",
        shifted,
        r"\lim_{u\to\infty} g(u) = \infty",
    )


def _chord_step(d: Derivation) -> None:
    """One positive root, and g > 0 above it: the chord inequality (cited), its rearrangement and sign (computed)."""
    point = uc + gap  # u > u_c, gap > 0
    weight = uc / point  # u_c = (1 - t) * 0 + t * u
    g_at_point = sp.Symbol("g_u", real=True)
    d.cite(
        "chord inequality of a strictly convex function",
        "for 0 < u_c < u and a root u_c of g: 0 = g(u_c) < (1 - t) g(0) + t g(u) with t = u_c/u",
        "u_c = (1 - t) 0 + t u with t in (0, 1), and a strictly convex function lies strictly below its chords",
        r"g(u_c) < (1 - t)\,g(0) + t\,g(u),\ t = u_c/u",
    )
    chord = (1 - weight) * g0 + weight * g_at_point
    bound = gap * (-g0) / uc
    d.zero(
        "rearranged, with u = u_c + delta: (u/u_c) times that chord value is g(u) - delta (-g(0))/u_c, so "
        "g(u) > g(u_c) + (u - u_c)(g(u_c) - g(0))/u_c = delta (-g(0))/u_c",
        chord * point / uc - (g_at_point - bound),
        r"g(u) > g(u_c) + (u - u_c)\frac{g(u_c) - g(0)}{u_c}",
    )
    depth, root, above = sp.symbols("a c e", positive=True)  # -g(0), u_c, delta: all > 0
    d.sign(
        "that bound is > 0 when g(0) < 0, u_c > 0, delta > 0: g > 0 on (u_c, oo), so u_c is the only positive root "
        "(a second root u > u_c would have g(u) > 0), and g < 0 on (0, u_c) (no root there, g(0) < 0)",
        bound.subs({g0: -depth, uc: root, gap: above}),
        ">0",
        signs.facts(positive=[depth, root, above]),
        r"g(u) > (u - u_c)\frac{-g(0)}{u_c} > 0 \quad (u > u_c)",
    )


def prove_superadditivity(inflection: sp.Expr | None = None, factor: sp.Expr | None = None) -> Derivation:
    """T22.superadditivity.reading-b for all n >= 2, beta > 0, H >= 2 and lambda_h >= lambda_c, not all equal."""
    d = Derivation()
    d.include(prove_convex_regime(inflection, factor), "convex regime")
    d.note(
        "hypotheses: H >= 2 strengths lambda_h >= lambda_c(n, beta), not all equal, lambda_bar = sum_h lambda_h / H; "
        "then lambda_bar >= lambda_c too (an interval is convex)"
    )
    d.cite(
        "supporting line of a strictly convex function",
        "phi(x) > phi(lambda_bar) + phi'(lambda_bar)(x - lambda_bar) for x != lambda_bar in [lambda_c, oo), "
        "with equality at x = lambda_bar",
        "phi' is strictly increasing on [lambda_c, oo), so phi(x) - phi(m) = integral of phi' from m to x is > "
        "phi'(m)(x - m) for x != m",
    )
    supporting = heads * phi_mean + slope_mean * (total - heads * (total / heads))
    d.zero(
        "summing the supporting lines over h: sum_h [phi(lambda_bar) + phi'(lambda_bar)(lambda_h - lambda_bar)] "
        "= H phi(lambda_bar), since sum_h (lambda_h - lambda_bar) = S - H S/H = 0 (S = sum_h lambda_h)",
        supporting - heads * phi_mean,
        r"\sum_h \left[\varphi(\bar\lambda) + \varphi'(\bar\lambda)(\lambda_h - \bar\lambda)\right]"
        r" = H\varphi(\bar\lambda)",
    )
    d.note(
        "strict Jensen: some lambda_h != lambda_bar (not all equal), so at least one supporting-line inequality is "
        "strict and sum_h phi(lambda_h) > H phi(lambda_bar)",
        r"\sum_h \varphi(\lambda_h) > H\,\varphi(\bar\lambda)",
    )
    return d
