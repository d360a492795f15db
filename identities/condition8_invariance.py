"""Is Condition 8 invariant along trajectories? Decided in Theorem 19's regime, where rho alone moves.

Regime: usa, H >= 2 heads M_h = W_h = alpha I (alpha > 0), spherical dynamics, n >= 2 tokens starting
orthonormal (d >= n). By `headflow.identities.equiangular_reduction` the tokens stay equiangular, <x_i, x_j> = rho(t),
with rho(0) = 0 and d rho/dt = (1 - rho)(1 + (n - 1) rho) (2 H alpha / n) exp(alpha beta rho). At equiangular
tokens every token and head has the same Condition 8 margin, counted on the basis (x_i, S) by
`headflow.identities.condition8_scalar` (t = exp(alpha beta), w = exp(alpha beta rho)). It factors as

    margin = alpha^2 w^2 h(rho),   h(rho) = (n - 1)(1 - rho)(1 + (n - 1) rho) - (H - 1) u(rho)^2,
    u(rho) = exp(kappa (1 - rho)) + (n - 1) rho,   kappa = alpha beta,

so its sign depends on (H, n, kappa) only. h is strictly concave, h(1) = -(H - 1) n^2 < 0, and
h(0) = (n - 1) - (H - 1) exp(2 kappa) > 0 exactly where Condition 8 holds strictly at the start (which
includes 0 < beta <= beta*, by T19.threshold). So h has one zero rho_exit in (0, 1), positive before it and
negative after; rho increases through it in finite time. Condition 8 is therefore *not* invariant, and the
trajectory leaves the region at the cluster gap eps_exit = 1 - rho_exit, the root of g(eps) = h(1 - eps).
Since h decreases in kappa and h(rho0; 0) = 0 at rho0 = (n - H)/(H (n - 1)),
eps_exit > n (H - 1)/(H (n - 1)) > (H - 1)/H >= 1/2: Condition 8 is lost before the cluster gap has halved.
"""

from __future__ import annotations

import sympy as sp
from headflow.identities import condition8_scalar as sr
from headflow.identities import equiangular_reduction as er
from headflow.identities import limits, signs
from headflow.identities.derivation import Derivation

H, n, alpha, t, rho, w = sr.H, sr.n, sr.alpha, sr.t, sr.rho, sr.w
#: kappa = alpha beta, the one combination of alpha and beta the sign of the margin depends on.
kappa = sp.Symbol("kappa", positive=True)
beta = sp.Symbol("beta", positive=True)
#: The cluster gap eps = 1 - rho.
eps = sp.Symbol("epsilon", real=True)
#: t / w = exp(kappa (1 - rho)), a positive number while the margin is divided by alpha^2 w^2.
_ratio = sp.Symbol("r", positive=True)
#: Sign stand-ins: H = 2 + j, n = 2 + m (j, m >= 0), rho = p / (1 + p) in [0, 1) (p >= 0), rho >= 0 (q).
_j, _m, _p, _q = sp.symbols("j m p q", nonnegative=True)
_REGIME = {H: 2 + _j, n: 2 + _m}
#: The sign facts of those stand-ins (headflow.identities.signs), with alpha, kappa, beta > 0.
_FACTS = signs.facts(positive=[alpha, kappa, beta], nonnegative=[_j, _m, _p, _q])
_ON_UNIT = {rho: _p / (1 + _p)}


def trajectory_margin(correlation: sp.Expr = rho) -> sp.Expr:
    """The Condition 8 margin of every token and head at equiangular tokens of this correlation, as a function
    of (H, n, alpha, beta): `condition8_scalar.condition8_margin` with t = exp(alpha beta), w = exp(alpha beta rho)."""
    margin = sr.condition8_margin(correlation, w)
    return margin.subs({t: sp.exp(alpha * beta), w: sp.exp(alpha * beta * correlation)})


def exit_function(correlation: sp.Expr = rho, strength: sp.Expr = kappa) -> sp.Expr:
    """h(rho) = margin / (alpha^2 w^2) with t = exp(kappa (1 - rho)) w: a polynomial in rho and t/w, derived from
    the counted margin (the margin is a quadratic form in (t, w), so alpha^2 w^2 divides it exactly)."""
    margin = sr.condition8_margin(rho, w)
    scaled = sp.expand(sp.cancel(margin.subs(t, _ratio * w) / (alpha**2 * w**2)))
    return scaled.subs(_ratio, sp.exp(strength * (1 - rho))).subs(rho, correlation)


def gap_function(gap: sp.Expr = eps, strength: sp.Expr = kappa) -> sp.Expr:
    """g(eps) = h(1 - eps): the sign of the Condition 8 margin at cluster gap eps."""
    return exit_function(1 - gap, strength)


def exit_lower_bound(heads: sp.Expr = H, tokens: sp.Expr = n) -> sp.Expr:
    """n (H - 1) / (H (n - 1)): the exit gap as kappa -> 0, and a strict lower bound of eps_exit for kappa > 0."""
    return tokens * (heads - 1) / (heads * (tokens - 1))


def time_bound(correlation: sp.Expr, heads: sp.Expr = H, tokens: sp.Expr = n, scale: sp.Expr = alpha) -> sp.Expr:
    """n ln(1 / (1 - rho)) / (2 H alpha): the trajectory from rho = 0 reaches `correlation` no later than this."""
    return tokens * sp.log(1 / (1 - correlation)) / (2 * heads * scale)


def _u(strength: sp.Expr = kappa) -> sp.Expr:
    return sp.exp(strength * (1 - rho)) + (n - 1) * rho


def structured_exit_function(strength: sp.Expr = kappa) -> sp.Expr:
    """h written as (n - 1)(1 - rho)(1 + (n - 1) rho) - (H - 1) u^2 (checked equal to exit_function)."""
    return (n - 1) * (1 - rho) * (1 + (n - 1) * rho) - (H - 1) * _u(strength) ** 2


def trajectory_rate(derivation: Derivation) -> sp.Expr:
    """d rho/dt of H equal heads alpha I, usa, from `equiangular_reduction.head_rate` (derived by counting)."""
    one_head = er.head_rate(derivation, "usa").subs({er.lam: alpha, er.rho: rho, er.n: n, er.beta: beta})
    derivation.note(
        "H equal heads alpha I: the heads' terms add up (the velocity is linear in the heads' outputs), so "
        "d rho/dt is H times one head's",
        r"\dot\rho = H\,(1-\rho)(1+(n-1)\rho)\,\tfrac{2\alpha}{n}e^{\alpha\beta\rho}",
    )
    return H * one_head


def prove_exit(derivation: Derivation) -> sp.Expr:
    """The trajectory from orthonormal tokens leaves the Condition 8 region: every step for symbolic H, n, alpha,
    beta (H >= 2, n >= 2, alpha > 0, Condition 8 strict at the start). Returns h(rho; kappa)."""
    derivation.note(
        "regime: usa, H >= 2 heads M_h = W_h = alpha I (alpha > 0), spherical dynamics, orthonormal start (d >= n); "
        "hypothesis: Condition 8 holds strictly at the start, (H - 1) exp(2 alpha beta) < n - 1 (true for every "
        "0 < beta <= beta*: T19.threshold certifies exp(2 alpha beta*) = c*(n - 1)/(H - 1) < (n - 1)/(H - 1))",
    )
    rate = trajectory_rate(derivation)
    derivation.sign(
        "d rho/dt > 0 for every rho in [0, 1) (rho = p/(1 + p), p >= 0; n = 2 + m, H = 2 + j): rho increases",
        rate.subs(_REGIME).subs(_ON_UNIT),
        ">0",
        _FACTS,
        r"\dot\rho > 0 \text{ on } [0, 1)",
    )
    derivation.sign(
        "d rho/dt >= (2 H alpha / n)(1 - rho) on [0, 1): the other factors are 1 + (n - 1) rho >= 1 and "
        "exp(alpha beta rho) >= 1, because rho, n - 1 and alpha beta are >= 0: (n - 1) rho >= 0",
        ((n - 1) * rho).subs(_REGIME).subs(rho, _q),
        ">=0",
        _FACTS,
    )
    derivation.sign(
        "and kappa rho >= 0",
        kappa * _q,
        ">=0",
        _FACTS,
        r"\dot\rho \ge \tfrac{2H\alpha}{n}(1-\rho)",
    )
    derivation.all_zero(
        "so rho reaches any rho_1 in (0, 1) by time int_0^{rho_1} d rho / (d rho/dt) <= "
        "int_0^{rho_1} n d rho / (2 H alpha (1 - rho)) = n ln(1/(1 - rho_1)) / (2 H alpha), finite (the bound is "
        "the antiderivative of the integrand that vanishes at rho = 0)",
        [sp.diff(time_bound(rho), rho) - n / (2 * H * alpha * (1 - rho)), time_bound(0)],
        r"t(\rho_1) \le \frac{n}{2H\alpha}\ln\frac{1}{1-\rho_1}",
    )
    margin = sr.condition8_margin(rho, w)
    derivation.note(
        "Condition 8 margin at equiangular tokens, counted on (x_i, S) (S = sum_{j != i} x_j, <x_i, S> = (n-1) rho, "
        "<S, S> = (n-1)(1 + (n-2) rho)) with f_i = alpha (t x_i + w S), t = exp(alpha beta), w = exp(alpha beta rho): "
        f"T_i - (H - 1) a_i^2 = {sp.factor(margin)}, the same at every token and head",
    )
    h = exit_function()
    derivation.zero(
        "it factors as alpha^2 w^2 h(rho), h = (n-1)(1-rho)(1+(n-1)rho) - (H-1)(exp(kappa (1-rho)) + (n-1) rho)^2, "
        "kappa = alpha beta: the sign depends on (H, n, kappa) only",
        h - structured_exit_function(),
        r"h(\rho) = (n-1)(1-\rho)(1+(n-1)\rho) - (H-1)\left(e^{\kappa(1-\rho)} + (n-1)\rho\right)^2",
    )
    derivation.zero(
        "at rho = 0, alpha^2 h(0) is Theorem 19's margin alpha^2 ((n-1) - (H-1) t^2): h(0) > 0 is the hypothesis",
        alpha**2 * h.subs(rho, 0) - sr.condition8_margin().subs(t, sp.exp(kappa)),
        r"\alpha^2 h(0) = \alpha^2\left((n-1) - (H-1)e^{2\kappa}\right)",
    )
    u = _u()
    second = -2 * (n - 1) ** 2 - 2 * (H - 1) * (sp.diff(u, rho) ** 2 + u * sp.diff(u, rho, 2))
    derivation.zero(
        "h'' = -2 (n-1)^2 - 2 (H-1)(u'^2 + u u'') with u = exp(kappa (1-rho)) + (n-1) rho",
        sp.diff(structured_exit_function(), rho, 2) - second,
        r"h'' = -2(n-1)^2 - 2(H-1)\left(u'^2 + u\,u''\right)",
    )
    derivation.sign(
        "h'' < 0 for rho >= 0 (u > 0, u'' = kappa^2 exp(kappa (1-rho)) > 0): h is strictly concave on [0, 1]",
        second.subs(_REGIME).subs(rho, _q),
        "<0",
        _FACTS,
        r"h'' < 0",
    )
    at_one = sp.expand(h.subs(rho, 1))
    derivation.zero(
        "at rho = 1 (collapsed tokens): h(1) = -(H - 1) n^2, the margin tends to -(H-1) alpha^2 n^2 exp(2 alpha beta)",
        at_one + (H - 1) * n**2,
        r"h(1) = -(H-1)n^2",
    )
    derivation.sign("h(1) < 0 for H >= 2", at_one.subs(_REGIME), "<0", _FACTS, r"h(1) < 0")
    derivation.note(
        "so h (continuous, strictly concave, h(0) > 0 > h(1)) has exactly one zero rho_exit in (0, 1), with h > 0 on "
        "[0, rho_exit) and h < 0 on (rho_exit, 1]; rho(t) increases from 0 and passes rho_exit at a finite time "
        "t_exit <= n ln(1/(1 - rho_exit)) / (2 H alpha), and at every later time Condition 8 fails at every token "
        "and head: the region is not invariant, for every H >= 2, n, alpha > 0 and beta of the hypothesis",
        r"\exists\, t_{\text{exit}} < \infty:\ \text{margin}(t) < 0 \text{ for all } t > t_{\text{exit}}",
    )
    return h


def prove_exit_gap(derivation: Derivation, lower_bound: sp.Expr | None = None) -> sp.Expr:
    """prove_exit, then where the exit lies: eps_exit(H, n, kappa) is increasing in kappa and
    lower_bound < eps_exit < 1, lower_bound (default n (H - 1)/(H (n - 1)), another value only to test that a wrong
    one does not go through) being its limit as kappa -> 0. Returns g(eps)."""
    h = prove_exit(derivation)
    derivation.zero(
        "in the cluster gap eps = 1 - rho the exit gap eps_exit is the zero in (0, 1) of g(eps) = h(1 - eps)",
        gap_function().subs(eps, 1 - rho) - h,
        r"g(\varepsilon_{\text{exit}}) = 0",
    )
    slope = sp.diff(structured_exit_function(), kappa)
    derivation.sign(
        f"dh/dkappa = {sp.factor(slope)} < 0 on [0, 1): a larger kappa lowers h at every rho < 1, so (h concave, "
        "positive at 0) rho_exit decreases and eps_exit increases strictly with kappa = alpha beta",
        slope.subs(_REGIME).subs(_ON_UNIT),
        "<0",
        _FACTS,
        r"\partial_\kappa h < 0",
    )
    rho0 = 1 - (exit_lower_bound() if lower_bound is None else lower_bound)
    derivation.zero(
        "at kappa = 0, h(rho) = (1 + (n-1) rho)((n-1)(1-rho) - (H-1)(1 + (n-1) rho)) vanishes at "
        "rho0 = (n - H)/(H (n - 1)) = 1 - n (H-1)/(H (n-1))",
        structured_exit_function(0).subs(rho, rho0),
        r"h(\rho_0)\big|_{\kappa=0} = 0,\ \rho_0 = \frac{n-H}{H(n-1)}",
    )
    derivation.note(
        "the hypothesis gives n > H (H - 1 < (H - 1) exp(2 kappa) < n - 1), so rho0 is in (0, 1); for kappa > 0, "
        "h(rho0; kappa) < h(rho0; 0) = 0, so rho_exit < rho0: eps_exit > n (H-1)/(H (n-1)) > (H-1)/H >= 1/2. "
        "h_rho < 0 at the zero (concavity and h(0) > 0), so by the implicit function theorem rho_exit is continuous "
        "in kappa and tends to rho0 as kappa -> 0: the bound is the infimum over kappa. And eps_exit < 1 "
        "because h(0) > 0: the trajectory leaves after a positive time",
        r"\frac{n(H-1)}{H(n-1)} < \varepsilon_{\text{exit}}(H, n, \alpha\beta) < 1",
    )
    return gap_function()


def exit_gap_bracket(derivation: Derivation) -> tuple[sp.Expr, sp.Expr]:
    """(lower(n), upper(n)) with lower < eps_exit(H, n, kappa) < upper for every large enough n (H >= 2 and kappa > 0
    fixed), both -> (H - 1)/H: the lower bound is prove_exit_gap's, the upper one is 1 - rho_a with
    rho_a = (1 - K/(n - 1))/H, K = 2 (H - 1) exp(kappa (H - 1)/H), where h(rho_a)/(n - 1) -> (H - 1)/H > 0."""
    prove_exit_gap(derivation)
    lower = exit_lower_bound()
    derivation.note(
        "for every large n the hypothesis (H - 1) exp(2 kappa) < n - 1 holds, so the exit gap is defined: "
        "the statements below are about large n at fixed H >= 2, kappa > 0",
    )
    spare = 2 * (H - 1) * sp.exp(kappa * (H - 1) / H)
    inner = (1 - spare / (n - 1)) / H
    j = sp.Symbol("j", nonnegative=True)
    facts = signs.facts(positive=[kappa], nonnegative=[j], shifts={H: (j, 2)})
    found = limits.at_infinity(
        structured_exit_function().subs(rho, inner) / (n - 1), n, facts, form=lambda s: 1 + 1 / s
    )
    limits.record_limit(
        derivation,
        f"with rho_a = (1 - K/(n - 1))/H, K = {spare}: h(rho_a)/(n - 1) -> (H - 1)/H as n -> oo",
        found,
        (H - 1) / H,
    )
    derivation.sign("(H - 1)/H > 0 for H >= 2", ((H - 1) / H).subs(_REGIME), ">0", _FACTS)
    limits.record_limit(
        derivation, "rho_a -> 1/H in (0, 1)", limits.at_infinity(inner, n, facts, form=lambda s: 1 + 1 / s), 1 / H
    )
    derivation.note(
        "so for large n, 0 <= rho_a < 1 and h(rho_a) > 0 [cited: a positive limit makes the function eventually "
        "positive]; h > 0 on [0, 1) exactly below rho_exit (prove_exit), hence rho_a < rho_exit and "
        "eps_exit < 1 - rho_a",
        r"\frac{n(H-1)}{H(n-1)} < \varepsilon_{\text{exit}} < 1 - \frac{1}{H}\Big(1 - \frac{K}{n-1}\Big)",
    )
    return lower, 1 - inner
