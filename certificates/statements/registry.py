"""What a certificate of each registry claim must establish, built with SymPy from the closed forms: the source of
the kernel's table of the registry's statements (`headflow.certificates.kernel.registry_statements`, data).

SymPy proposes here, outside the kernel; `build` writes every obligation as trees (`python -m
certificates.statements.registry` rewrites `certificates/kernel/registry_statements.json`, and a test holds the
file equal to a fresh build), and `statement` elaborates a registry certificate's core statement from that table.
The deciders build their searches and their SMT problems from these same obligations (they import this module;
it imports no deciding code: only the closed forms of `headflow.identities.closed_forms` and the regime derivations of
`headflow.identities.condition8_scalar` and `headflow.identities.condition8_invariance`).

Kinds of obligation:
- `SmtObligation`: statements `hypotheses => goal` over real constants, each to be `unsat` when
  negated, for z3 and cvc5 alike;
- `PointObligation`: conditions `expr relation 0` at an exact point, built for symbolic integer parameters
  (which the obligation bounds; the kernel substitutes their values) and checked with balls;
- `ConfigurationObligation`: an exact configuration of the model with every hypothesis of the claim
  (attention kind, geometry, symmetry, alignment, ...) and a rate with a sign, checked with balls;
- a `PointObligation` may carry a `lemma`: a fact about the regime that the decider derives with SymPy and the
  kernel does not re-check (the sentence the kernel prints says so): the equiangular reduction and the
  concavity of the exit function for C8.invariance and its exit gap;
- an `SmtObligation` may prove only a lemma of its claim (T22.superadditivity.reading-b: phi'' > 0 above lambda_c;
  T25's readings c, e (softmax) and c, d (relu): bounds on speeds and times): its sentence says what it proves
  and names the step check-cert does NOT re-check (strict Jensen, a comparison of times, a closed-form time);
- convexity: T22 reading-b for one n and beta lambda <= 40 (claim CONVEXITY_CLAIM), a chain of one
  point witness and two covers, with phi and the factor K of phi'' = K g, which the kernel checks by exact algebra.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy as sp
from headflow.certificates.kernel import registry_statements
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.model_quantities import MODEL_QUANTITIES
from headflow.certificates.statements import equilibrium, orders
from headflow.certificates.statements.equiangular import LEMMAS, REGISTRY_CLAIMS, registry_statement
from headflow.certificates.statements.gram import GRAM
from headflow.certificates.statements.model_lemmas import MODEL_LEMMAS
from headflow.certificates.sympy_trees import formula_from_sympy, from_sympy
from headflow.identities import closed_forms, signs
from headflow.identities import condition8_invariance as ci
from headflow.identities import condition8_scalar as sr
from headflow.identities.zero_test import is_identically_zero

H, n, alpha, t, c, q_star = sr.H, sr.n, sr.alpha, sr.t, sr.c, sr.q_star
beta = sp.Symbol("beta", positive=True)
u = sp.Symbol("u", positive=True)


@dataclass(frozen=True)
class SmtStatement:
    """`hypotheses => goal` for all real values of `symbols`, with a name and a sentence.

    `integers` (a subset of `symbols`) range over the integers instead (declared `Int`)."""

    name: str
    sentence: str
    symbols: tuple[sp.Symbol, ...]
    hypotheses: tuple[sp.Basic, ...]
    goal: sp.Basic
    integers: tuple[sp.Symbol, ...] = ()

    def tree(self) -> dict[str, Any]:
        """The statement as certificate data: constants, hypothesis and goal trees (and the integer
        constants, only when there are some, so that a statement over the reals has no such field)."""
        tree: dict[str, Any] = {
            "name": self.name,
            "constants": [s.name for s in self.symbols],
            "hypotheses": [formula_from_sympy(h) for h in self.hypotheses],
            "goal": formula_from_sympy(self.goal),
        }
        if self.integers:
            tree["integers"] = [s.name for s in self.integers]
        return tree


# ---------------------------------------------------------------- smt


@dataclass(frozen=True)
class SmtObligation:
    """Every statement must be in the certificate, exactly, and each negation must be unsat."""

    sentence: str
    statements: Callable[[], tuple[SmtStatement, ...]]
    #: The claims-file orders of the reduced clustering time the sentence establishes: (attention, variable, order,
    #: holds), each read as a claims file's `order` (`statements.orders.listed`).
    orders: tuple[tuple[str, str, str, bool], ...] = ()


def summary_q_star_relation() -> sp.Boolean:
    """q* (1 - c^2) = c^2 (n - 1): exp(2 alpha beta*) from closed_forms.beta_star, with c*(H) named c."""
    q = sp.exp(2 * alpha * closed_forms.beta_star(H, n, alpha)).subs(closed_forms.c_star(H), c)
    numerator, denominator = sp.fraction(sp.together(q))
    if q.has(sp.exp, sp.log) or not numerator.free_symbols <= {c, n, H}:
        raise ValueError(f"exp(2 alpha beta*) did not reduce to a rational function of c, n, H: {q}")
    return sp.Eq(q_star * denominator, numerator)


def threshold_hypotheses() -> tuple[sp.Basic, ...]:
    """H >= 2, n >= 2, c = c*(H) (the positive root of its polynomial), q* = exp(2 alpha beta*)."""
    return (H >= 2, n >= 2, c > 0, sp.Eq(closed_forms.c_star_polynomial(c, H), 0), summary_q_star_relation())


@functools.cache
def threshold_statements() -> tuple[SmtStatement, ...]:
    """T19.threshold: Condition 8's exact threshold, and where beta* lies against it."""
    margin = sr.condition8_margin()
    regime = (H >= 2, n >= 2, alpha > 0, t > 0)
    return (
        SmtStatement(
            "c8-threshold",
            "Condition 8 margin T - (H-1) a^2 >= 0 at a token iff (H-1) exp(2 alpha beta) <= n-1 "
            "(for all real H >= 2, n >= 2, alpha > 0, t = exp(alpha beta) > 0)",
            (H, n, alpha, t),
            regime,
            sp.Equivalent(margin >= 0, (H - 1) * t**2 <= n - 1),
        ),
        SmtStatement(
            "summary-form",
            "exp(2 alpha beta*) = c*^2 (n-1)/(1-c*^2) equals c* (n-1)/(H-1) (c* the positive root of c^2+(H-1)c-1)",
            (H, n, c, q_star),
            threshold_hypotheses(),
            sp.Eq(q_star * (H - 1), c * (n - 1)),
        ),
        SmtStatement(
            "strictly-below",
            "exp(2 alpha beta*) < (n-1)/(H-1), the Condition 8 threshold, and c* < 1: beta* is strictly below "
            "the threshold, by ln(1/c*)/(2 alpha)",
            (H, n, c, q_star),
            threshold_hypotheses(),
            sp.And(q_star * (H - 1) < n - 1, c < 1),
        ),
        SmtStatement(
            "sufficient",
            "beta <= beta* (t^2 <= exp(2 alpha beta*)) implies Condition 8 at every token",
            (H, n, alpha, t, c, q_star),
            (alpha > 0, t > 0, *threshold_hypotheses(), t**2 <= q_star),
            margin >= 0,
        ),
        SmtStatement(
            "positive-region",
            "beta* > 0 (exp(2 alpha beta*) > 1) iff c*(H) (n-1) > H-1",
            (H, n, c, q_star),
            threshold_hypotheses(),
            sp.Equivalent(q_star > 1, c * (n - 1) > H - 1),
        ),
    )


@functools.cache
def cauchy_schwarz_statements() -> tuple[SmtStatement, ...]:
    """T19.threshold.cauchy-schwarz: beta* is exactly the threshold of the Cauchy-Schwarz form."""
    return (
        SmtStatement(
            "cauchy-schwarz-exact",
            "(H-1) |a^h_i| |f^h'_i| <= T^h_i at a token iff t^2 <= exp(2 alpha beta*): beta* is exactly its threshold",
            (H, n, alpha, t, c, q_star),
            (H >= 2, n >= 2, alpha > 0, t > 0, *threshold_hypotheses()),
            sp.Equivalent(sr.cauchy_schwarz_condition(), t**2 <= q_star),
        ),
    )


#: sqrt of the radicand of c*(H)'s closed form (and sqrt 5 of the golden ratio): a real symbol pinned by s >= 0 and
#: s^2 = radicand, so that the statements stay polynomial.
s = sp.Symbol("s", real=True)
c_1, c_2, H_1, H_2 = sp.symbols("c_1 c_2 H_1 H_2", real=True)


def _with_root(formula: sp.Expr) -> tuple[sp.Expr, tuple[sp.Basic, ...]]:
    """The formula with its one square root written s, and the hypotheses s >= 0, s^2 = its radicand."""
    (root,) = (a for a in formula.atoms(sp.Pow) if a.exp == sp.Rational(1, 2))
    return formula.subs(root, s), (s >= 0, sp.Eq(s**2, root.base))


def _is_c_star(value: sp.Symbol, heads: sp.Expr) -> tuple[sp.Basic, ...]:
    """value > 0 is a root of c*'s defining polynomial at `heads`."""
    return (value > 0, sp.Eq(closed_forms.c_star_polynomial(value, heads), 0))


@functools.cache
def c_star_statements() -> tuple[SmtStatement, ...]:
    """T19.c-star: the closed form is the one positive root of its polynomial, in (0, 1], decreasing in H."""
    closed, root_facts = _with_root(closed_forms.c_star(H))
    return (
        SmtStatement(
            "c-star-root",
            "c*(H) = (sqrt((H-1)^2+4) - (H-1))/2 is a positive root of c^2 + (H-1)c - 1 for every real H >= 1 "
            "(so c*(H) is algebraic of degree at most 2 over Q(H))",
            (H, s, c),
            (H >= 1, *root_facts, sp.Eq(c, closed)),
            sp.And(sp.Eq(closed_forms.c_star_polynomial(c, H), 0), c > 0),
        ),
        SmtStatement(
            "c-star-unique",
            "c^2 + (H-1)c - 1 has one positive root (two positive roots are equal), and it lies in (0, 1]",
            (H, c_1, c_2),
            (H >= 1, *_is_c_star(c_1, H), *_is_c_star(c_2, H)),
            sp.And(sp.Eq(c_1, c_2), c_1 <= 1),
        ),
        SmtStatement(
            "c-star-decreasing",
            "the positive root decreases in H: H_1 < H_2 implies c*(H_2) < c*(H_1) (all real H_1 >= 1)",
            (H_1, H_2, c_1, c_2),
            (H_1 >= 1, H_2 > H_1, *_is_c_star(c_1, H_1), *_is_c_star(c_2, H_2)),
            c_2 < c_1,
        ),
    )


def algebraic_statements() -> tuple[SmtStatement, ...]:
    """T19.lambert-w.reading-a, refuted: c*(H) is a root of a polynomial over Z[H] (the first of T19.c-star's)."""
    return c_star_statements()[:1]


@functools.cache
def golden_statements() -> tuple[SmtStatement, ...]:
    """T19.golden: c*(2) times the golden ratio is 1."""
    closed, root_facts = _with_root(closed_forms.c_star(sp.Integer(2)))
    golden, golden_facts = _with_root(closed_forms.golden)
    return (
        SmtStatement(
            "golden",
            "c*(2) = (sqrt 5 - 1)/2 equals 1/phi, phi = (1 + sqrt 5)/2: c*(2) phi = 1",
            (s, c),
            (*root_facts, *golden_facts, sp.Eq(c, closed)),
            sp.Eq(c * golden, 1),
        ),
    )


# ---------------------------------------------------------------- exp and Lambert W as constants

#: Values of exp as real constants (E_x stands for exp(x)), known through true facts only: E_x > 0, a product
#: E_a E_b = E_(a+b), and Taylor's cuts at 0 of odd degree 3, T(y) = 1 + y + y^2/2 + y^3/6 <= exp(y) for every real
#: y (the remainder e^xi y^4/24 is >= 0), as a lower cut E_y >= T(y) and an upper cut E_y T(-y) <= 1 (the lower cut of
#: exp(-y) times E_y = 1/exp(-y)): the facts `certificates.kernel.real_encoding` allows its exponential atoms.
EXP_FACTS = (
    "E_x stands for exp(x), known only by true facts: E_x > 0, E_a E_b = E_(a+b), and the Taylor cuts "
    "exp(y) >= T(y) and exp(y) T(-y) <= 1, T(y) = 1 + y + y^2/2 + y^3/6 (odd degree: below exp on all reals)"
)
#: Real constants of these statements (`beta` here is real, not the positive symbol of the point obligations: a
#: hypothesis beta > 0 must stay in the statement, not evaluate to True).
lam, lam_max, w, b, r = sp.symbols("lambda lambda_max w beta r", real=True)
u_1, u_c, E_u, E_v, E_d, E_c, E_w, E_x = sp.symbols("u_1 u_c E_u E_v E_d E_c E_w E_x", real=True)


def taylor_cut(y: sp.Expr) -> sp.Expr:
    """T(y) = 1 + y + y^2/2 + y^3/6, the odd-degree Taylor polynomial of exp at 0, <= exp(y) for every real y."""
    return sum(y**k / sp.factorial(k) for k in range(4))  # type: ignore[no-any-return]


def _ratio_facts(high: sp.Symbol, low: sp.Symbol, step: sp.Expr, upper: bool = False) -> tuple[sp.Basic, ...]:
    """E_d = exp(step) > 0 with high = low E_d (exp(a + step) = exp(a) exp(step)) and its lower cut (and upper)."""
    cuts = (E_d >= taylor_cut(step), *((E_d * taylor_cut(-step) <= 1,) if upper else ()))
    return (E_d > 0, sp.Eq(high, low * E_d), *cuts)


def _fraction_below(smaller: sp.Expr, larger: sp.Expr) -> sp.Boolean:
    """smaller < larger for two fractions with positive denominators: both denominators > 0 and the cross product."""
    (a, b), (c_, d) = sp.fraction(sp.together(smaller)), sp.fraction(sp.together(larger))
    return sp.And(b > 0, d > 0, sp.expand(a * d) < sp.expand(c_ * b))


@functools.cache
def lambda_max_statements() -> tuple[SmtStatement, ...]:
    """T19.lambert-w.reading-b: lambda_max = (1 + W((n-1)/e))/beta is positive and the unique maximiser of phi."""
    closed = closed_forms.lambda_max(n, b)
    (lambert,) = closed.atoms(sp.LambertW)
    phi_at = {lam: closed_forms.rate(lam, n, b), lam_max: closed_forms.rate(lam_max, n, b)}
    phi_at = {key: value.subs({sp.exp(b * lam): E_u, sp.exp(b * lam_max): E_v}) for key, value in phi_at.items()}
    return (
        SmtStatement(
            "lambda-max-maximiser",
            "for all real n >= 2, beta > 0: W((n-1)/e) is defined ((n-1)/e >= -1/e), lambda_max = "
            "(1 + W((n-1)/e))/beta > 0, and phi(lambda) < phi(lambda_max) for every lambda > 0, lambda != "
            "lambda_max; w = W((n-1)/e) by w >= -1 (the principal branch) and w e^w = (n-1)/e, written "
            f"w E_v = n - 1 with E_v = exp(1 + w) = exp(beta lambda_max); {EXP_FACTS}",
            (n, b, lam, lam_max, w, E_u, E_v, E_d),
            (
                n >= 2,
                b > 0,
                lam > 0,
                sp.Ne(lam, lam_max),
                w >= -1,
                E_v > 0,
                sp.Eq(w * E_v, n - 1),
                sp.Eq(b * lam_max, sp.cancel(b * closed.subs(lambert, w))),
                *_ratio_facts(E_u, E_v, b * lam - b * lam_max),
            ),
            sp.And(n - 1 >= -1, lam_max > 0, _fraction_below(phi_at[lam], phi_at[lam_max])),
        ),
    )


@functools.cache
def lambert_w_statements() -> tuple[SmtStatement, ...]:
    """T19.lambert-w: c*(H) algebraic, W_0(c e^c) = c for every c >= -1 (the trivial sense), lambda_max the W constant,
    and lambda_c pinned by (u-2)e^u = (n-1)(u+2): phi'' has the sign of g, g changes sign once, at u_c > 2."""
    g = closed_forms.lambda_c_equation(u, n)
    numerator, denominator = sp.fraction(sp.together(sp.diff(closed_forms.rate(lam, n, b), lam, 2)))
    if denominator != (sp.exp(b * lam) + n - 1) ** 3:
        raise ValueError(f"phi'' is not a fraction over (exp(beta lambda) + n - 1)^3: {denominator}")
    second = numerator.subs(sp.exp(b * lam), E_u) * r**3  # phi'' with r = 1/(E_u + n - 1)
    at = {u: b * lam, sp.exp(u): E_u}
    return (
        c_star_statements()[0],
        SmtStatement(
            "w0-defined",
            "for every real c >= -1, c e^c >= -1/e: W_0 (defined on [-1/e, oo)) is defined at c e^c; written "
            f"c E_x >= -1 with E_x = exp(c + 1); {EXP_FACTS}",
            (c, E_x),
            (c >= -1, E_x > 0, E_x * taylor_cut(-(c + 1)) <= 1),
            c * E_x >= -1,
        ),
        SmtStatement(
            "w0-trivial",
            "for every real c >= -1, W_0(c e^c) = c: w >= -1 with w e^w = c e^c is w = c (E_c = exp(c), E_w = exp(w)); "
            f"{EXP_FACTS}",
            (c, w, E_c, E_w, E_d),
            (c >= -1, w >= -1, E_c > 0, *_ratio_facts(E_w, E_c, w - c, upper=True), sp.Eq(w * E_w, c * E_c)),
            sp.Eq(w, c),
        ),
        *lambda_max_statements(),
        SmtStatement(
            "lambda-c-inflection",
            "for all real n >= 2, beta > 0, lambda > 0: phi''(lambda) (SymPy's second derivative of phi, written with "
            "E_u = exp(beta lambda) and r = 1/(E_u + n - 1)) has the sign of g(u) = (u-2)e^u - (n-1)(u+2) at "
            "u = beta lambda",
            (n, b, lam, E_u, r),
            (n >= 2, b > 0, lam > 0, E_u > 0, sp.Eq(r * (E_u + n - 1), 1)),
            sp.And(sp.Equivalent(second > 0, g.subs(at) > 0), sp.Equivalent(second < 0, g.subs(at) < 0)),
        ),
        SmtStatement(
            "lambda-c-above-two",
            "for all real n >= 2: a positive root u_c of g(u) = (u-2)e^u - (n-1)(u+2) has u_c > 2 (E_c = exp(u_c) > 0)",
            (n, u_c, E_c),
            (n >= 2, u_c > 0, E_c > 0, sp.Eq(g.subs({u: u_c, sp.exp(u): E_c}), 0)),
            u_c > 2,
        ),
        SmtStatement(
            "lambda-c-sign-change",
            "for all real n >= 2: g(2) < 0 < g(n + 3), so g has a root in (2, n + 3) (by continuity, the intermediate "
            f"value theorem; E_c = exp(2), E_u = exp(n + 3)); {EXP_FACTS}",
            (n, E_c, E_u),
            (n >= 2, E_c > 0, E_u >= taylor_cut(n + 3)),
            sp.And(g.subs({u: 2, sp.exp(u): E_c}) < 0, g.subs({u: n + 3, sp.exp(u): E_u}) > 0),
        ),
        *(
            SmtStatement(
                f"lambda-c-{side}",
                f"for all real n >= 2 and a positive root u_c of g: g(u_1) {relation} 0 for every u_1 {where}, so u_c "
                f"is the only positive root and phi'' changes sign there; {EXP_FACTS}",
                (n, u_c, u_1, E_c, E_u, E_d),
                (n >= 2, u_c > 0, u_1 > 0, order, E_low > 0, sp.Eq(g.subs({u: u_c, sp.exp(u): E_c}), 0), *facts),
                sp.Lt(g.subs({u: u_1, sp.exp(u): E_u}), 0) if relation == "<" else g.subs({u: u_1, sp.exp(u): E_u}) > 0,
            )
            for side, relation, where, order, E_low, facts in (
                ("below-root", "<", "in (0, u_c)", u_1 < u_c, E_u, _ratio_facts(E_c, E_u, u_c - u_1)),
                ("above-root", ">", "> u_c", u_1 > u_c, E_c, _ratio_facts(E_u, E_c, u_1 - u_c)),
            )
        ),
    )


@functools.cache
def convex_regime_statements() -> tuple[SmtStatement, ...]:
    """T22.superadditivity.reading-b's lemma: phi'' > 0 above lambda_c (T19.lambert-w's statements on lambda_c)."""
    return tuple(s for s in lambert_w_statements() if s.name.startswith("lambda-c-") and s.name != "lambda-c-above-two")


#: Real constants of T25's statements: the target correlation, a correlation on the way, a time, a speed, its
#: per-rho factor, a constant of the bound, and logarithms (L_d = ln d, L_r = ln rho1, L = ln(rho1 sqrt d)).
rho_1, rho_r, T_s, v_s, k_s, C_s, phi_s = sp.symbols("rho_1 rho T v k C phi", real=True)
L_d, L_r, L_s = sp.symbols("L_d L_r L", real=True)
#: The exact relu speed v on (0, rho1], n >= 2: v n = 2 lambda^2 beta rho (1 - rho)(1 + (n - 1) rho).
RELU_SPEED = (
    n >= 2,
    lam > 0,
    b > 0,
    rho_1 < 1,
    rho_r > 0,
    rho_r <= rho_1,
    sp.Eq(v_s * n, 2 * lam**2 * b * rho_r * (1 - rho_r) * (1 + (n - 1) * rho_r)),
)
#: What T25's statements know of logarithms: true facts only, L = ln(rho1 sqrt d) = ln rho1 + (ln d)/2, and
#: ln rho1 < 0 for rho1 in (0, 1).
LOG_FACTS = (
    "L_d stands for ln d, L_r for ln rho1 and L for ln(rho1 sqrt d), known only by the true facts L_r < 0 "
    "(rho1 < 1) and L = L_r + L_d/2"
)


@functools.cache
def softmax_frozen_statements() -> tuple[SmtStatement, ...]:
    """T25.softmax-time.reading-c: the frozen-rate time rho1/phi(lambda) lies between two multiples of n."""
    return (
        SmtStatement(
            "frozen-time-theta-n",
            "for all real n >= 2, lambda > 0, beta > 0, rho1 in (0, 1): phi = phi(lambda) = 2 lambda/(E_u + n - 1) "
            "(E_u = exp(beta lambda)) and T = rho1/phi = rho1 (exp(beta lambda) + n - 1)/(2 lambda) satisfy "
            "rho1 n/(2 lambda) <= T <= rho1 exp(beta lambda) n/(2 lambda) and T > 0: Theta(n), with constants "
            f"depending on lambda, beta, rho1 only; {EXP_FACTS}",
            (n, lam, b, rho_1, E_u, phi_s, T_s),
            (
                n >= 2,
                lam > 0,
                b > 0,
                rho_1 > 0,
                rho_1 < 1,
                E_u >= taylor_cut(b * lam),
                sp.Eq(phi_s * (E_u + n - 1), 2 * lam),
                sp.Eq(T_s * phi_s, rho_1),
            ),
            sp.And(rho_1 * n <= 2 * lam * T_s, 2 * lam * T_s <= rho_1 * E_u * n, T_s > 0),
        ),
    )


@functools.cache
def softmax_reduced_statements() -> tuple[SmtStatement, ...]:
    """T25.softmax-time.reading-e's lemma: on [0, rho1] the exact reduced speed is at least rho1/(C n), in three
    steps small enough for both solvers (cvc5 does not finish the one statement they make together)."""
    speed = 2 * lam * (1 - rho_r) * (1 + (n - 1) * rho_r)
    regime = (n >= 2, lam > 0, b > 0, rho_1 > 0, rho_1 < 1, rho_r >= 0, rho_r <= rho_1)
    exp_facts = (
        "E_u stands for exp(beta lambda), E_v for exp(beta lambda (1 - rho)) and E_d for exp(beta lambda rho), "
        "known only by the true facts E_v > 0, E_d >= 1 (beta lambda rho >= 0), E_u >= 1 and E_u = E_v E_d"
    )
    return (
        SmtStatement(
            "reduced-exponential-below",
            "for all real beta, lambda > 0 and rho in [0, rho1]: exp(beta lambda (1 - rho)) <= exp(beta lambda); "
            + exp_facts,
            (n, lam, b, rho_1, rho_r, E_u, E_v, E_d),
            (*regime, E_v > 0, E_d >= 1, E_u >= 1, sp.Eq(E_u, E_v * E_d)),
            E_v <= E_u,
        ),
        SmtStatement(
            "reduced-speed-below",
            "for all real n >= 2, lambda > 0, beta > 0, rho1 in (0, 1) and rho in [0, rho1]: the exact reduced speed "
            "v = 2 lambda (1 - rho)(1 + (n-1) rho)/(E_v + n - 1), 0 < E_v <= E_u, E_u >= 1 (E_v = exp(beta lambda "
            "(1 - rho)), E_u = exp(beta lambda), the previous statement), satisfies v E_u n >= 2 lambda (1 - rho1)",
            (n, lam, b, rho_1, rho_r, E_u, E_v, v_s),
            (*regime, E_v > 0, E_v <= E_u, E_u >= 1, sp.Eq(v_s * (E_v + n - 1), speed)),
            v_s * E_u * n >= 2 * lam * (1 - rho_1),
        ),
        SmtStatement(
            "reduced-speed-bound",
            "for all real n >= 2, lambda > 0, rho1 in (0, 1), E_u >= 1 (exp(beta lambda)) and a speed v with "
            "v E_u n >= 2 lambda (1 - rho1) (the previous statement): C = rho1 E_u/(2 lambda (1 - rho1)) > 0 and "
            "v >= rho1/(C n)",
            (n, lam, rho_1, E_u, v_s, C_s),
            (
                n >= 2,
                lam > 0,
                rho_1 > 0,
                rho_1 < 1,
                E_u >= 1,
                v_s * E_u * n >= 2 * lam * (1 - rho_1),
                sp.Eq(C_s * 2 * lam * (1 - rho_1), rho_1 * E_u),
            ),
            sp.And(C_s > 0, v_s * C_s * n >= rho_1),
        ),
    )


@functools.cache
def relu_linear_statements() -> tuple[SmtStatement, ...]:
    """T25.relu-time.reading-c: the first-order time n ln(rho1 sqrt d)/(2 lambda^2 beta) is Theta(n ln d)."""
    return (
        SmtStatement(
            "linear-time-theta-n-log-d",
            "for all real n >= 2, lambda > 0, beta > 0, rho1 in (0, 1) and d with ln d >= 4 ln(1/rho1) "
            "(d >= rho1^(-4)): T = n ln(rho1 sqrt d)/(2 lambda^2 beta) satisfies n ln d/(8 lambda^2 beta) <= T <= "
            f"n ln d/(4 lambda^2 beta); and T > 0 whenever d > rho1^(-2) (L > 0); {LOG_FACTS}",
            (n, lam, b, L_d, L_r, L_s, T_s),
            (n >= 2, lam > 0, b > 0, L_r < 0, sp.Eq(L_s, L_r + L_d / 2), sp.Eq(T_s * 2 * lam**2 * b, n * L_s)),
            sp.And(
                sp.Implies(L_d >= -4 * L_r, sp.And(n * L_d <= 8 * lam**2 * b * T_s, 4 * lam**2 * b * T_s <= n * L_d)),
                sp.Implies(L_s > 0, T_s > 0),
            ),
        ),
    )


@functools.cache
def relu_reduced_statements() -> tuple[SmtStatement, ...]:
    """T25.relu-time.reading-d's lemma: on [rho0, rho1] the exact relu speed is at least k rho/n, and
    n ln(rho1/rho0)/k <= C n ln d with C depending on lambda, beta, rho1 only."""
    return (
        SmtStatement(
            "relu-speed-bound",
            "for all real n >= 2, lambda > 0, beta > 0, rho1 in (0, 1) and rho in (0, rho1]: the exact relu speed "
            "v = 2 lambda^2 beta rho (1 - rho)(1 + (n-1) rho)/n satisfies v >= k rho/n with k = 2 lambda^2 beta "
            "(1 - rho1) > 0",
            (n, lam, b, rho_1, rho_r, v_s, k_s),
            (*RELU_SPEED, sp.Eq(k_s, 2 * lam**2 * b * (1 - rho_1))),
            sp.And(k_s > 0, v_s * n >= k_s * rho_r),
        ),
        SmtStatement(
            "relu-time-bound",
            "for all real n >= 2, lambda > 0, beta > 0, rho1 in (0, 1), d > rho1^(-2): T = n ln(rho1 sqrt d)/k, "
            "k = 2 lambda^2 beta (1 - rho1), satisfies 0 < T <= C n ln d with C = 1/(4 lambda^2 beta (1 - rho1)), "
            f"which depends on lambda, beta, rho1 only; {LOG_FACTS}",
            (n, lam, b, rho_1, L_d, L_r, L_s, k_s, T_s, C_s),
            (
                n >= 2,
                lam > 0,
                b > 0,
                rho_1 > 0,
                rho_1 < 1,
                L_r < 0,
                sp.Eq(L_s, L_r + L_d / 2),
                L_s > 0,
                sp.Eq(k_s, 2 * lam**2 * b * (1 - rho_1)),
                sp.Eq(T_s * k_s, n * L_s),
                sp.Eq(C_s * 4 * lam**2 * b * (1 - rho_1), 1),
            ),
            sp.And(T_s > 0, T_s <= C_s * n * L_d),
        ),
    )


a_s, s_d, U_s = sp.symbols("a s U", real=True)
#: What the refutations of T25's tight readings know of the logarithm they bound the time by: L > 0 only.
LOG_POSITIVE = "L stands for the logarithm ln(1 + (n - k) rho1) (k = 1 or 2), known only by the true fact L > 0"


@functools.cache
def softmax_log_time_statements() -> tuple[SmtStatement, ...]:
    """Against T25.softmax-time.reading-f: on [0, rho1] the exact reduced speed is at least 2 lambda (1 - rho1)
    (1 + (n - 1) rho)/(n E_u), so the time is at most C ln(1 + (n - 1) rho1): O(log n), not Theta(n)."""
    regime = (n >= 2, lam > 0, b > 0, rho_1 > 0, rho_1 < 1)
    return (
        SmtStatement(
            "reduced-speed-log",
            "for all real n >= 2, lambda > 0, beta > 0, rho1 in (0, 1) and rho in [0, rho1]: the exact reduced speed "
            "v = 2 lambda (1 - rho)(1 + (n-1) rho)/(E_v + n - 1), 0 < E_v <= E_u, E_u >= 1 (E_v = exp(beta lambda "
            "(1 - rho)), E_u = exp(beta lambda): T25.softmax-time.reading-e's first statement), satisfies v n E_u >= "
            "2 lambda (1 - rho1)(1 + (n - 1) rho)",
            (n, lam, b, rho_1, rho_r, E_u, E_v, v_s),
            (
                *regime,
                rho_r >= 0,
                rho_r <= rho_1,
                E_v > 0,
                E_v <= E_u,
                E_u >= 1,
                sp.Eq(v_s * (E_v + n - 1), 2 * lam * (1 - rho_r) * (1 + (n - 1) * rho_r)),
            ),
            v_s * n * E_u >= 2 * lam * (1 - rho_1) * (1 + (n - 1) * rho_r),
        ),
        SmtStatement(
            "reduced-time-log",
            "for all real n >= 2, lambda > 0, rho1 in (0, 1), E_u >= 1 and L > 0: U = n E_u L/(2 lambda (1 - rho1)(n "
            "- 1)), the integral of the inverse of that lower speed over [0, rho1] (L = ln(1 + (n - 1) rho1)), "
            f"satisfies 0 < U <= C L with C = E_u/(lambda (1 - rho1)), which does not depend on n; {LOG_POSITIVE}",
            (n, lam, rho_1, E_u, L_s, U_s, C_s),
            (
                n >= 2,
                lam > 0,
                rho_1 > 0,
                rho_1 < 1,
                E_u >= 1,
                L_s > 0,
                sp.Eq(U_s * 2 * lam * (1 - rho_1) * (n - 1), n * E_u * L_s),
                sp.Eq(C_s * lam * (1 - rho_1), E_u),
            ),
            sp.And(U_s > 0, U_s <= C_s * L_s),
        ),
    )


@functools.cache
def softmax_linear_log_statements() -> tuple[SmtStatement, ...]:
    """Against T25.softmax-time.reading-d: the first-order speed a + b rho is at least a (1 + (n - 2) rho), so the
    time is at most (2 + E_u) ln(1 + (n - 2) rho1)/(2 lambda) for n >= 3: O(log n), not Theta(n)."""
    return (
        SmtStatement(
            "linear-speed-log",
            "for all real n >= 3, lambda > 0, beta > 0, E_u >= 1 (exp(beta lambda)) and rho in [0, rho1]: the "
            "first-order speed v = a + b' rho with a = 2 lambda/(n + E_u - 1) (the exact speed at rho = 0) and b' = "
            "2 beta lambda^2 E_u/(n + E_u - 1)^2 + 2 lambda (n - 2)/(n + E_u - 1) (its derivative there) satisfies "
            "v >= a (1 + (n - 2) rho)",
            (n, lam, b, rho_1, rho_r, E_u, a_s, k_s, v_s),
            (
                n >= 3,
                lam > 0,
                b > 0,
                rho_1 > 0,
                rho_1 < 1,
                rho_r >= 0,
                rho_r <= rho_1,
                E_u >= 1,
                sp.Eq(a_s * (n + E_u - 1), 2 * lam),
                sp.Eq(k_s * (n + E_u - 1) ** 2, 2 * b * lam**2 * E_u + 2 * lam * (n - 2) * (n + E_u - 1)),
                sp.Eq(v_s, a_s + k_s * rho_r),
            ),
            v_s >= a_s * (1 + (n - 2) * rho_r),
        ),
        SmtStatement(
            "linear-time-log",
            "for all real n >= 3, lambda > 0, E_u >= 1 and L > 0: U = L/(a (n - 2)), a = 2 lambda/(n + E_u - 1), the "
            "integral of 1/(a (1 + (n - 2) rho)) over [0, rho1] (L = ln(1 + (n - 2) rho1)), satisfies 0 < U <= C L "
            f"with C = (2 + E_u)/(2 lambda), which does not depend on n; {LOG_POSITIVE}",
            (n, lam, E_u, L_s, a_s, U_s, C_s),
            (
                n >= 3,
                lam > 0,
                E_u >= 1,
                L_s > 0,
                sp.Eq(a_s * (n + E_u - 1), 2 * lam),
                sp.Eq(U_s * a_s * (n - 2), L_s),
                sp.Eq(C_s * 2 * lam, 2 + E_u),
            ),
            sp.And(U_s > 0, U_s <= C_s * L_s),
        ),
    )


@functools.cache
def relu_bounded_time_statements() -> tuple[SmtStatement, ...]:
    """Against T25.relu-time.reading-e: the exact relu speed is at least (1 - rho1) lambda^2 beta rho^2 for every
    n >= 2, so the time from d^(-1/2) is at most sqrt(d)/((1 - rho1) lambda^2 beta): bounded in n."""
    return (
        SmtStatement(
            "relu-speed-square",
            "for all real n >= 2, lambda > 0, beta > 0, rho1 in (0, 1) and rho in (0, rho1]: the exact relu speed "
            "v = 2 lambda^2 beta rho (1 - rho)(1 + (n-1) rho)/n satisfies v >= (1 - rho1) lambda^2 beta rho^2",
            (n, lam, b, rho_1, rho_r, v_s),
            RELU_SPEED,
            v_s >= (1 - rho_1) * lam**2 * b * rho_r**2,
        ),
        SmtStatement(
            "relu-time-bounded",
            "for all real lambda > 0, beta > 0, rho1 in (0, 1) and s = sqrt(d) > 1/rho1: U = (s - 1/rho1)/((1 - rho1) "
            "lambda^2 beta), the integral of 1/((1 - rho1) lambda^2 beta rho^2) over [1/s, rho1], satisfies 0 < U <= "
            "s/((1 - rho1) lambda^2 beta), whatever n",
            (lam, b, rho_1, s_d, U_s),
            (
                lam > 0,
                b > 0,
                rho_1 > 0,
                rho_1 < 1,
                s_d * rho_1 > 1,
                sp.Eq(U_s * (1 - rho_1) * lam**2 * b * rho_1, s_d * rho_1 - 1),
            ),
            sp.And(U_s > 0, U_s * (1 - rho_1) * lam**2 * b <= s_d),
        ),
    )


# ---------------------------------------------------------------- exact points

Condition = tuple[str, sp.Expr, str]
#: A point obligation's parameters: SymPy symbols for those that stay symbols in the kernel's templates, integers
#: for the `shape` parameters (those that fix how many coordinates the point has).
Parameters = Mapping[str, Any]


@dataclass(frozen=True)
class PointObligation:
    """Conditions at an exact point, determined by the file's integer parameters.

    `parameters` maps each parameter name to its allowed (min, max); `shape` names the parameters that fix the
    number of coordinates (the kernel's table holds one case per value, up to `SHAPES`); `symbols(params)` names
    the point's coordinates; `conditions(params)` are the `(name, expr, relation)` the balls must settle, for
    symbolic parameters (the kernel substitutes their values into the trees); `sentence` is a template
    (`str.format` with the parameters, `point` and `1-x` for each coordinate x) of what the point proves."""

    parameters: Mapping[str, tuple[int, int]]
    symbols: Callable[[Parameters], tuple[sp.Symbol, ...]]
    conditions: Callable[[Parameters], list[Condition]]
    sentence: str
    shape: tuple[str, ...] = ()
    #: A fact of the regime the point's conclusion rests on, derived with SymPy by the decider (the kernel's table
    #: holds only its text, and check-cert says that it does not re-check it).
    lemma: str | None = None


#: The values of a shape parameter the kernel's table holds a case for (the searches use H = 2).
SHAPES = range(2, 5)
#: The symbolic parameters of the kernel's templates.
SYMBOLIC = {"H": H, "n": n, "alpha": alpha}


def threshold_exact_conditions(params: Parameters) -> list[Condition]:
    """beta > beta*(H, n, alpha) and the Condition 8 margin at beta is > 0: beta* is not the threshold."""
    heads, tokens, scale = params["H"], params["n"], params["alpha"]
    margin = sr.condition8_margin().subs({H: heads, n: tokens, alpha: scale, t: sp.exp(scale * beta)})
    return [
        ("beta - beta*(H, n, alpha) > 0", beta - closed_forms.beta_star(heads, tokens, scale), ">"),
        ("Condition 8 margin at beta > 0", margin, ">"),
    ]


def strength_symbols(params: Parameters) -> tuple[sp.Symbol, ...]:
    """lambda1, ..., lambdaH."""
    return sp.symbols(f"lambda1:{params['H'] + 1}", positive=True)


def superadditivity_counterexample_conditions(params: Parameters) -> list[Condition]:
    """beta = 1: every lambda_h > 0, the mean above lambda_c (g(mean) > 0) and H phi(mean) > sum phi(lambda_h).

    For u > 0, g(u) = (u - 2) e^u - (n - 1)(u + 2) is negative at 0 and convex (g'' = u e^u), so
    g(mean) > 0 says exactly mean > u_c = lambda_c at beta = 1."""
    tokens, strengths = params["n"], strength_symbols(params)
    mean = sum(strengths) / len(strengths)
    positive: list[Condition] = [(f"{s.name} > 0", s, ">") for s in strengths]
    return [
        *positive,
        ("lambda_bar > lambda_c: g(beta lambda_bar) > 0", closed_forms.lambda_c_equation(mean, tokens), ">"),
        (
            "H phi(lambda_bar) - sum_h phi(lambda_h) > 0",
            len(strengths) * closed_forms.rate(mean, tokens, 1)
            - sum(closed_forms.rate(x, tokens, 1) for x in strengths),
            ">",
        ),
    ]


#: The point coordinates: a correlation; the two ends rho_1 < rho_2 of a bracket (JSON keeps them sorted).
rho_w, rho_lo, rho_hi = sp.symbols("rho rho_1 rho_2", positive=True)


def invariance_conditions(params: Parameters) -> list[Condition]:
    """0 < beta < beta*, Condition 8 strict at the orthonormal start, and violated at correlation rho in (0, 1)."""
    heads, tokens, scale = params["H"], params["n"], params["alpha"]
    margin = ci.trajectory_margin(rho_w).subs({ci.H: heads, ci.n: tokens, ci.alpha: scale})
    return [
        ("beta > 0", beta, ">"),
        ("beta*(H, n, alpha) - beta > 0", closed_forms.beta_star(heads, tokens, scale) - beta, ">"),
        ("Condition 8 margin at the orthonormal start (rho = 0) > 0", margin.subs(rho_w, 0), ">"),
        ("rho > 0", rho_w, ">"),
        ("1 - rho > 0", 1 - rho_w, ">"),
        ("Condition 8 margin at correlation rho < 0", margin, "<"),
    ]


def exit_gap_conditions(params: Parameters) -> list[Condition]:
    """0 < beta < beta*, h(0) > 0, 0 < rho_1 < rho_2 < 1 and h(rho_1) > 0 > h(rho_2), kappa = alpha beta."""
    heads, tokens, scale = params["H"], params["n"], params["alpha"]
    h = ci.exit_function().subs({ci.H: heads, ci.n: tokens, ci.kappa: scale * beta})
    return [
        ("beta > 0", beta, ">"),
        ("beta*(H, n, alpha) - beta > 0", closed_forms.beta_star(heads, tokens, scale) - beta, ">"),
        ("h(0) > 0 (Condition 8 strict at the start)", h.subs(ci.rho, 0), ">"),
        ("rho_1 > 0", rho_lo, ">"),
        ("rho_2 - rho_1 > 0", rho_hi - rho_lo, ">"),
        ("1 - rho_2 > 0", 1 - rho_hi, ">"),
        ("h(rho_1) > 0", h.subs(ci.rho, rho_lo), ">"),
        ("h(rho_2) < 0", h.subs(ci.rho, rho_hi), "<"),
    ]


#: What the C8 points rest on besides their conditions: the regime's lemma, derived by the decider
#: (`checks.theorems.c8_invariance`, with `identities.condition8_invariance.prove_exit`) before it certifies.
EXIT_LEMMA = (
    "for all H, n, alpha, beta of the regime, d rho/dt > 0 on [0, 1), so the equiangular trajectory reaches rho_1 by "
    "time n ln(1/(1 - rho_1))/(2 H alpha); the Condition 8 margin is alpha^2 w^2 h(rho) with h strictly concave "
    "and h(1) < 0 (identities.condition8_invariance.prove_exit)"
)


_REGIME = {"H": (2, 10**6), "n": (2, 10**9), "alpha": (1, 10**6)}
POINTS: dict[str, PointObligation] = {
    "T19.threshold.exact": PointObligation(
        _REGIME,
        lambda params: (beta,),
        threshold_exact_conditions,
        "refutes 'beta* is exactly the Condition 8 threshold': scalar heads alpha I, usa, orthogonal tokens, "
        "H = {H}, n = {n}, alpha = {alpha}, {point}: beta > beta* and Condition 8 still holds at every token",
    ),
    "C8.invariance": PointObligation(
        _REGIME,
        lambda params: (beta, rho_w),
        invariance_conditions,
        "refutes the invariance of Condition 8: usa, H = {H} heads alpha I, alpha = {alpha}, n = {n} orthonormal "
        "tokens on the sphere, {point}: beta < beta*, Condition 8 holds at the start, the equiangular trajectory "
        "reaches correlation rho (d rho/dt > 0 on [0, 1)) by time n ln(1/(1 - rho))/(2 H alpha), and there "
        "Condition 8 fails at every token and head",
        lemma=EXIT_LEMMA,
    ),
    "C8.invariance.exit-gap": PointObligation(
        _REGIME,
        lambda params: (beta, rho_lo, rho_hi),
        exit_gap_conditions,
        "usa, H = {H} heads alpha I, alpha = {alpha}, n = {n} orthonormal tokens, {point}: beta < beta*, and the "
        "trajectory leaves the Condition 8 region at a cluster gap eps_exit in [1 - rho_2, 1 - rho_1] = "
        "[{1-rho_2}, {1-rho_1}] (h concave with h(0) > 0: its one zero lies between rho_1 and rho_2)",
        lemma=EXIT_LEMMA,
    ),
    "T22.superadditivity": PointObligation(
        {"n": (2, 10**9), "H": (min(SHAPES), max(SHAPES))},
        strength_symbols,
        superadditivity_counterexample_conditions,
        "refutes super-additivity as stated: n = {n}, beta = 1, {point}: the mean strength is above lambda_c, yet "
        "sum_h phi(lambda_h) < H phi(lambda_bar)",
        shape=("H",),
    ),
}


# ---------------------------------------------------------------- T22 reading-b

#: The claim whose certificates are convexity chains: T22 reading-b restricted to listed n and
#: beta lambda_h <= CONVEX_U_MAX (reading-b itself, for all n and strengths, is proved symbolically).
CONVEXITY_CLAIM = "T22.superadditivity.reading-b.listed-n"

#: Upper end of the certified range of u = beta lambda in CONVEXITY_CLAIM.
CONVEX_U_MAX = Fraction(40)


#: What a convexity certificate proves, in words (the kernel fills in n, its rendered trees g, rate and factor, the
#: payload's a and b, and u_max).
CONVEXITY_SENTENCE = (
    "n = {n}, u = beta lambda, phi(u) = {rate} (the rate at beta = 1), g(u) = {g}: g(a) < 0 at a = {a}, g' > 0 on "
    "[a, b], b = {b}, phi'' = K g with K = {factor} > 0, and phi'' > 0 on [b, {u_max}]: phi is strictly convex on "
    "[u_c, {u_max}] (u_c the root of g), so sum_h phi(lambda_h) > H phi(lambda_bar) for strengths in "
    "[lambda_c, {u_max}/beta], not all equal"
)


@functools.cache
def convexity_factor() -> sp.Expr:
    """K(u, n) with phi''(u) = K g(u), g = closed_forms.lambda_c_equation; checked exactly, K > 0 for n > 1.

    exp(u) is replaced by a positive symbol X, so the identity is one of rational functions (and
    holds for every X > 0, in particular X = e^u); SymPy's `factor` proposes K, the exact zero test
    (`identities.zero_test`) checks it and the structural sign prover (`identities.signs`) proves K > 0."""
    X, excess, tokens = sp.Symbol("X", positive=True), sp.Symbol("m", positive=True), sp.Symbol("n", positive=True)
    second = sp.diff(closed_forms.rate(u, tokens, 1), u, 2).subs(sp.exp(u), X)
    g = closed_forms.lambda_c_equation(u, tokens).subs(sp.exp(u), X)
    factor = sp.factor(sp.cancel(second / g))
    positive = signs.facts(positive=[X, excess, u], shifts={tokens: (excess, 1)})  # n = m + 1 > 1
    if not is_identically_zero(second - factor * g) or signs.prove(factor, ">0", positive) is None:
        raise ValueError(f"phi'' is not a positive multiple of g: {factor}")
    return factor.subs(X, sp.exp(u))


def convexity_parts(tokens: int | sp.Expr) -> dict[str, tuple[sp.Expr, str]]:
    """The three facts of reading-b for n tokens (u = beta lambda): g(a) < 0, g' > 0 on [a, b], phi'' > 0 on [b, 40]."""
    g = closed_forms.lambda_c_equation(u, tokens)
    return {
        "g-below": (g, "<"),
        "g-rising": (sp.diff(g, u), ">"),
        "convex": (sp.diff(closed_forms.rate(u, tokens, 1), u, 2), ">"),
    }


CONVEXITY_TOKENS = (2, 10**6)


# ---------------------------------------------------------------- configurations


@dataclass(frozen=True)
class ConfigurationObligation:
    """An exact configuration with exactly these hypotheses where `quantity < 0` in balls: a witness of the `model`
    statement `quantity >= 0` at every configuration of the kind with the hypotheses (`model`).

    The hypotheses are names of `ball_model.HYPOTHESES`, in the order a certificate lists them (the
    searches that find witnesses take them from here); `quantity` is one of
    `model_quantities.CERTIFIED`."""

    attention: str
    geometry: str
    hypotheses: tuple[str, ...]
    quantity: str
    sentence: str

    def model(self, claim_id: str) -> dict[str, Any]:
        """The `model` statement (`headflow.certificates.kernel.model_statements`) the claim's witness refutes."""
        relation = {"lhs": ["name", MODEL_QUANTITIES[self.quantity].term], "op": ">=", "rhs": ["num", "0"]}
        return {
            "form": "model",
            "claim": claim_id,
            "exists": False,
            "attention": self.attention,
            "geometry": self.geometry,
            "beta": "positive",
            "mask": "none",
            "fixed": {},
            "hypotheses": list(self.hypotheses),
            "interaction": None,
            "energy": None,
            "given": [],
            "relation": relation,
            "data": dict.fromkeys(("tokens", "scores", "values", "beta")),
        }


_SOFTMAX = ("unit-tokens", "spherical-geometry", "softmax-attention", "aligned-values", "dimension-at-least-2")
CONFIGURATIONS: dict[str, ConfigurationObligation] = {
    "T17.shadow-obstruction": ConfigurationObligation(
        "usa",
        "sphere",
        ("unit-tokens", "symmetric-scores", "aligned-values", "orthogonal-heads"),
        "head_energy_rate",
        "usa attention on the sphere, symmetric aligned heads with M_h M_h' = 0: some dE_h/dt < 0",
    ),
    "T11.hypotheses.no-symmetry": ConfigurationObligation(
        "usa",
        "sphere",
        ("unit-tokens", "aligned-values"),
        "energy_rate",
        "usa attention on the sphere, W_h = M_h without score symmetry: dE/dt < 0",
    ),
    "T11.hypotheses.no-alignment": ConfigurationObligation(
        "usa",
        "sphere",
        ("unit-tokens", "symmetric-scores", "symmetric-values", "misaligned-values"),
        "energy_rate",
        "usa attention on the sphere, symmetric M_h and symmetric W_h with W_h != M_h at every head: dE/dt < 0",
    ),
    "T27.entropy-monotone.reading-b": ConfigurationObligation(
        "softmax",
        "sphere",
        (*_SOFTMAX, "scalar-heads"),
        "entropy_rate",
        "refutes entropy monotonicity for scalar heads lambda_h I (lambda_h > 0), softmax, W = M, on the sphere: "
        "some dH^h_i/dt < 0",
    ),
    "T27.entropy-monotone.reading-c": ConfigurationObligation(
        "softmax",
        "sphere",
        (*_SOFTMAX, "symmetric-scores"),
        "entropy_rate",
        "refutes entropy monotonicity for symmetric heads, softmax, W = M, on the sphere: some dH^h_i/dt < 0",
    ),
}

SMT: dict[str, SmtObligation] = {
    "T19.c-star": SmtObligation(
        "c*(H) = (sqrt((H-1)^2+4) - (H-1))/2 is the one positive root of c^2 + (H-1)c - 1 for all real H >= 1, "
        "lies in (0, 1] and decreases in H",
        c_star_statements,
    ),
    "T19.golden": SmtObligation("c*(2) = 1/phi, phi = (1 + sqrt 5)/2", golden_statements),
    "T19.lambert-w.reading-a": SmtObligation(
        "against the reading: c*(H) is a root of c^2 + (H-1)c - 1 for every real H >= 1, an algebraic function of "
        "H (no Lambert W needed)",
        algebraic_statements,
    ),
    "T19.lambert-w": SmtObligation(
        "c*(H) is algebraic (a root of c^2 + (H-1)c - 1) and a Lambert W value only in the sense W_0(c e^c) = c of "
        "every c >= -1; lambda_max = (1 + W((n-1)/e))/beta is the unique maximiser of phi on lambda > 0; the "
        "inflection point lambda_c = u_c/beta is pinned by (u-2)e^u = (n-1)(u+2): phi'' has the sign of its left "
        "minus right side g, which is < 0 below its one positive root u_c and > 0 above, and u_c > 2",
        lambert_w_statements,
    ),
    "T19.lambert-w.reading-b": SmtObligation(
        "for every n >= 2 and beta > 0, lambda_max = (1 + W((n-1)/e))/beta (principal branch) is positive and the "
        "unique maximiser of phi(lambda) = 2 lambda/(exp(beta lambda) + n - 1) on lambda > 0",
        lambda_max_statements,
    ),
    "T22.superadditivity.reading-b": SmtObligation(
        "for all real n >= 2, beta > 0: phi''(lambda) has the sign of g(beta lambda), g(u) = (u-2)e^u - (n-1)(u+2); "
        "g has a root u_c in (2, n+3), its only positive root, with g < 0 on (0, u_c) and g > 0 above: so phi'' > 0 "
        "for lambda > lambda_c = u_c/beta. This is the lemma (phi strictly convex on [lambda_c, oo)) that "
        "reading-b rests on; check-cert does NOT re-check the rest (SymPy's derivation outside the kernel, "
        "identities.convexity, and calculus): that phi'' > 0 on (lambda_c, oo) makes phi strictly convex on "
        "[lambda_c, oo), and strict Jensen: sum_h phi(lambda_h) > H phi(lambda_bar) for strengths there, not all equal",
        convex_regime_statements,
    ),
    "T25.softmax-time.reading-c": SmtObligation(
        "frozen rate: the time rho1/phi(lambda) = rho1 (exp(beta lambda) + n - 1)/(2 lambda) is positive and "
        "between rho1 n/(2 lambda) and rho1 exp(beta lambda) n/(2 lambda) for every n >= 2: Theta(n). check-cert "
        "does NOT re-check that the constant speed phi(lambda) takes time rho1/phi(lambda) to cover rho1 (the "
        "statement takes T with T phi = rho1)",
        softmax_frozen_statements,
    ),
    "T25.softmax-time.reading-e": SmtObligation(
        "exact reduced softmax ODE: on [0, rho1] the speed rho' is at least rho1/(C n), C = rho1 exp(beta lambda)/"
        "(2 lambda (1 - rho1)), for every n >= 2. check-cert does NOT re-check the comparison step (outside the "
        "kernel, textbook): a solution moving at speed >= rho1/(C n) covers [rho0, rho1] within time C n: the "
        "clustering time (softmax) is O(n) as n -> oo",
        softmax_reduced_statements,
        orders=(("softmax", "n", "O(n)", True),),
    ),
    "T25.relu-time.reading-c": SmtObligation(
        "first-order relu model: the time n ln(rho1 sqrt d)/(2 lambda^2 beta) is positive for d > rho1^(-2) and, "
        "for d >= rho1^(-4), between n ln d/(8 lambda^2 beta) and n ln d/(4 lambda^2 beta): Theta(n log d). "
        "check-cert does NOT re-check that closed form of the time (the integral of the linearized ODE rho' = "
        "2 lambda^2 beta rho/n from d^(-1/2) to rho1, SymPy's derivation outside the kernel, "
        "identities.linearized_clustering)",
        relu_linear_statements,
    ),
    "T25.relu-time.reading-d": SmtObligation(
        "exact reduced relu ODE: on [rho0, rho1] the speed rho' is at least k rho/n, k = 2 lambda^2 beta (1 - rho1), "
        "and n ln(rho1/rho0)/k <= C n ln d at rho0 = d^(-1/2), C = 1/(4 lambda^2 beta (1 - rho1)), for every n >= 2 "
        "and d > rho1^(-2). check-cert does NOT re-check the comparison step (outside the kernel, textbook): a "
        "solution with rho' >= k rho/n goes from rho0 to rho1 within time n ln(rho1/rho0)/k",
        relu_reduced_statements,
    ),
    "T25.softmax-time.reading-d": SmtObligation(
        "against the reading: at first order in rho the speed a + b' rho (a, b' the exact speed and its derivative at "
        "rho = 0) is at least a (1 + (n - 2) rho) for every n >= 3, so the time from 0 to rho1 is at most C ln(1 + "
        "(n - 2) rho1), C = (2 + exp(beta lambda))/(2 lambda): O(log n), and no c > 0 has time >= c n for every n. "
        "check-cert does NOT re-check the linearization's coefficients (SymPy's derivation outside the kernel, "
        "identities.linearized_clustering), the comparison step (a solution with rho' >= g(rho) covers [0, rho1] "
        "within the integral of 1/g) nor that ln(1 + (n - 2) rho1)/n -> 0",
        softmax_linear_log_statements,
    ),
    "T25.softmax-time.reading-f": SmtObligation(
        "against the reading: on the exact reduced softmax ODE the speed on [0, rho1] is at least 2 lambda (1 - rho1)"
        "(1 + (n - 1) rho)/(n exp(beta lambda)) for every n >= 2, so the time from rho0 = 0 to rho1 is at most C ln(1 "
        "+ (n - 1) rho1), C = exp(beta lambda)/(lambda (1 - rho1)): O(log n), and no c > 0 has time >= c n for every "
        "n. check-cert does NOT re-check the comparison step (a solution with rho' >= g(rho) covers [0, rho1] within "
        "the integral of 1/g, here n exp(beta lambda) ln(1 + (n - 1) rho1)/(2 lambda (1 - rho1)(n - 1))) nor that "
        "ln(1 + (n - 1) rho1)/n -> 0: the clustering time (softmax) is neither Omega(n) nor Theta(n) as n -> oo",
        softmax_log_time_statements,
        orders=(("softmax", "n", "Omega(n)", False), ("softmax", "n", "Theta(n)", False)),
    ),
    "T25.relu-time.reading-e": SmtObligation(
        "against the reading: on the exact reduced relu ODE the speed on (0, rho1] is at least (1 - rho1) lambda^2 "
        "beta rho^2 for every n >= 2, so the time from rho0 = d^(-1/2) to rho1 is at most sqrt(d)/((1 - rho1) "
        "lambda^2 beta), bounded in n: at fixed d the time over n ln d tends to 0 as n -> oo, and no c > 0 has time "
        ">= c n ln d for every n >= 2 and d > rho1^(-2). check-cert does NOT re-check the comparison step (a solution "
        "with rho' >= g(rho) covers [rho0, rho1] within the integral of 1/g, here (sqrt d - 1/rho1)/((1 - rho1) "
        "lambda^2 beta)): the clustering time (relu) is neither Omega(n log d) nor Theta(n log d) as n -> oo",
        relu_bounded_time_statements,
        orders=(("relu", "n", "Omega(n * log(d))", False), ("relu", "n", "Theta(n * log(d))", False)),
    ),
    "T19.threshold": SmtObligation(
        "scalar heads alpha I, usa, orthogonal tokens, all real H >= 2, n >= 2, alpha > 0: Condition 8 holds iff "
        "(H-1) exp(2 alpha beta) <= n-1; exp(2 alpha beta*) = c*(n-1)/(H-1) lies strictly below it (beta* is "
        "sufficient, not exact); beta* > 0 iff c*(H)(n-1) > H-1",
        threshold_statements,
    ),
    "T19.threshold.cauchy-schwarz": SmtObligation(
        "scalar heads alpha I, usa, orthogonal tokens, all real H >= 2, n >= 2, alpha > 0: "
        "(H-1)|a^h_i||f^h'_i| <= T^h_i iff beta <= beta*",
        cauchy_schwarz_statements,
    ),
}

#: Every claim whose certificates the checker accepts, by the kind of certificate.
CLAIMS: dict[str, str] = (
    dict.fromkeys(SMT, "smt")
    | dict.fromkeys(POINTS, "witness")
    | dict.fromkeys(CONFIGURATIONS, "witness")
    | {CONVEXITY_CLAIM: "convexity"}
    | dict.fromkeys(GRAM, "gram")
    | dict.fromkeys(REGISTRY_CLAIMS, "equiangular")
)


def expected_statement_trees(claim_id: str) -> list[dict[str, Any]]:
    """The statement trees an smt certificate of the claim must carry, in order."""
    return [statement.tree() for statement in SMT[claim_id].statements()]


def condition_trees(conditions: list[Condition]) -> list[dict[str, Any]]:
    """(name, tree, relation) of each condition, as a point certificate records them."""
    return [{"name": name, "expression": from_sympy(expr), "relation": relation} for name, expr, relation in conditions]


# ---------------------------------------------------------------- the kernel's table


def _point_entry(obligation: PointObligation) -> dict[str, Any]:
    """A point obligation as template data: one case per value of its shape parameters."""
    cases = {}
    for values in itertools.product(*(SHAPES for _ in obligation.shape)):
        params = {**SYMBOLIC, **dict(zip(obligation.shape, values, strict=True))}
        key = ",".join(f"{name}={value}" for name, value in zip(obligation.shape, values, strict=True))
        cases[key] = {
            "coordinates": [s.name for s in obligation.symbols(params)],
            "conditions": condition_trees(obligation.conditions(params)),
        }
    entry = {"kind": "witness", "witness": "point", "ranges": dict(obligation.parameters)}
    lemma = obligation.lemma
    rests = f"; it rests on a lemma check-cert does NOT re-check (SymPy derives it outside the kernel): {lemma}"
    sentence = obligation.sentence + (rests if lemma else "")
    return entry | {"shape": list(obligation.shape), "cases": cases, "sentence": sentence}


def build() -> dict[str, dict[str, Any]]:
    """The kernel's table (`certificates.kernel.registry_statements`), freshly built with SymPy: claim id -> the
    statement its certificates carry, with the integer parameters as symbols of the trees."""
    table: dict[str, dict[str, Any]] = {}
    for claim_id, smt_obligation in SMT.items():
        table[claim_id] = {"kind": "smt", "ranges": {}, "shape": [], "sentence": smt_obligation.sentence}
        table[claim_id]["statements"] = expected_statement_trees(claim_id)
        if smt_obligation.orders:
            table[claim_id]["orders"] = [orders.listed(*order) for order in smt_obligation.orders]
    for claim_id, point in POINTS.items():
        table[claim_id] = _point_entry(point)
    for claim_id, configuration in CONFIGURATIONS.items():
        table[claim_id] = {"kind": "witness", "witness": "configuration", "ranges": {}, "shape": []}
        table[claim_id] |= {"sentence": configuration.sentence, "model": configuration.model(claim_id)}
    parts = convexity_parts(n)
    table[CONVEXITY_CLAIM] = {
        "kind": "convexity",
        "ranges": {"n": list(CONVEXITY_TOKENS)},
        "shape": [],
        "u_max": str(CONVEX_U_MAX),
        "parts": {
            name: {"expression": from_sympy(expr), "relation": relation} for name, (expr, relation) in parts.items()
        },
        "rate": from_sympy(closed_forms.rate(u, n, 1)),
        "factor": from_sympy(convexity_factor()),
        "sentence": CONVEXITY_SENTENCE,
    }
    for claim_id, regime in EQUILIBRIUM_CLAIMS.items():
        table[claim_id] = {"kind": "equilibrium", "ranges": {}, "shape": [], "regime": regime}
    gram = GRAM | MODEL_LEMMAS | LEMMAS  # the lemmas are no registry claims: claims-file claims cite them
    return table | {claim_id: obligation.entry() for claim_id, obligation in gram.items()}


#: The registry's equilibrium claims and the regime of their explicit `equilibrium` statements
#: (`certificates.kernel.equilibrium_statements.registry_failure`, `certificates.statements.equilibrium`).
EQUILIBRIUM_CLAIMS = {
    "critical-points": "found",
    "critical-points.cluster-stable": "single-cluster",
    "critical-points.simplex-index": "simplex",
    "critical-points.orthogonal-subspaces": "orthogonal-subspaces",
}


def write() -> None:
    """Rewrite the kernel's table from SymPy (after a change of an obligation or a closed form), one claim a line."""
    rows = ",\n".join(f" {json.dumps(claim)}: {json.dumps(entry, sort_keys=True)}" for claim, entry in build().items())
    registry_statements.PATH.write_text(f"{{\n{rows}\n}}\n", encoding="utf-8")


def statement(claim_id: str, payload: dict[str, Any]) -> dict[str, Any] | None:
    """The core statement of a certificate of the registry claim `claim_id`: the table's entry at the payload's
    integer parameters (None for a claim not in the kernel's table, or a payload without valid parameters: the
    kernel rejects such a certificate, which carries no statement)."""
    if claim_id in REGISTRY_CLAIMS:
        return registry_statement(claim_id)
    if claim_id not in registry_statements.table():
        return None
    if registry_statements.table()[claim_id]["kind"] == "equilibrium":
        return equilibrium.registry_statement(claim_id, registry_statements.table()[claim_id]["regime"], payload)
    has_parameters = bool(registry_statements.table()[claim_id]["ranges"])
    try:
        return registry_statements.expected(claim_id, payload.get("parameters") if has_parameters else {})
    except Rejected:
        return None


if __name__ == "__main__":
    write()
