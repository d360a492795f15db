"""Theorem 25 in the linearized regime: clustering times of the equiangular reduction near rho = 0.

For equiangular tokens (<x_j, x_k> = rho for j != k) and one scalar head M = W = lambda I, the
dynamics keep the tokens equiangular and rho obeys d rho/dt = 2 <xdot_i, x_k> (k != i). The
reduction is derived here from the model's definitions by counting the terms of the sum over j
(j = i, j = k, and the n - 2 others), then linearized at rho = 0 and solved exactly:

- softmax, zeroth order (the constant force phi(lambda) at rho = 0): time rho1 / phi(lambda),
  which is Theta(n);
- softmax, first order: time ln(1 + c1 rho1 / c0) / c1, which is O(n) but only Theta(log n);
- relu: no force at rho = 0, first order c1 = 2 lambda^2 beta / n, so from rho0 = d^(-1/2) the
  time to rho1 > d^(-1/2) is n ln(rho1 sqrt d) / (2 lambda^2 beta) = Theta(n log d).

These are statements about the simplified models, which follow the exact reduction only while
(n - 1) rho << 1; identities.reduced_clustering decides Theorem 25 on the exact reduction.
"""

from __future__ import annotations

import sympy as sp
from headflow.identities import closed_forms as cf
from headflow.identities import limits, signs
from headflow.identities.derivation import Derivation

rho, rho1, d, t = sp.symbols("rho rho_1 d t", positive=True)
c0_, c1_, start_ = sp.symbols("c_0 c_1 rho_0", positive=True)
eps = sp.Symbol("epsilon", positive=True)
lam, n, beta = cf.lam, cf.n, cf.beta
#: n = m + 2 (n >= 2), m >= 0, in sign steps.
m = sp.Symbol("m", nonnegative=True)
#: The sign facts of this module's steps: every declared symbol > 0.
FACTS = signs.facts(positive=[rho, rho1, d, t, c0_, c1_, start_, eps, lam, n, beta])


def pairing_with_other_token(weight_self: sp.Expr, weight_other: sp.Expr) -> sp.Expr:
    """<P⊥_{x_i}(sum_j w_ij x_j), x_k> for k != i, by counting the terms of the sum over j.

    With G_jk = <x_j, x_k>: the term of x_j is w_ij (G_jk - G_ij G_ik). j = i gives
    w_self (rho - rho) = 0; j = k gives w_other (1 - rho^2); each of the n - 2 other j gives
    w_other (rho - rho^2).
    """
    term_self = weight_self * (rho - 1 * rho)
    term_k = weight_other * (1 - rho * rho)
    terms_rest = (n - 2) * weight_other * (rho - rho * rho)
    return term_self + term_k + terms_rest


def softmax_reduction(derivation: Derivation) -> sp.Expr:
    """d rho/dt for softmax attention (velocity sum_h f^h_i), derived and checked against closed_forms.rate."""
    partition = sp.exp(beta * lam) + (n - 1) * sp.exp(beta * lam * rho)
    p_self, p_other = sp.exp(beta * lam) / partition, sp.exp(beta * lam * rho) / partition
    derivation.note(
        "equiangular tokens, one head M = W = lambda I: s_ii = lambda, s_ij = lambda rho; softmax weights",
        r"p_{ii} = \frac{e^{\beta\lambda}}{Z},\ p_{ij} = \frac{e^{\beta\lambda\rho}}{Z},\ "
        r"Z = e^{\beta\lambda} + (n-1)e^{\beta\lambda\rho}",
    )
    rate = 2 * lam * pairing_with_other_token(p_self, p_other)
    closed = 2 * lam * (1 - rho) * (1 + (n - 1) * rho) / (sp.exp(beta * lam * (1 - rho)) + n - 1)
    derivation.zero(
        "d rho/dt = 2 <xdot_i, x_k> = 2 lambda (1 - rho)(1 + (n-1) rho) / (exp(beta lambda (1 - rho)) + n - 1)",
        rate - closed,
        r"\dot\rho = \frac{2\lambda(1-\rho)(1+(n-1)\rho)}{e^{\beta\lambda(1-\rho)} + n - 1}",
    )
    derivation.zero(
        "at rho = 0 the rate is phi(lambda) of identities.closed_forms (T22's early rate)",
        closed.subs(rho, 0) - cf.rate(lam, n, beta),
        r"\dot\rho\big|_{\rho=0} = \varphi(\lambda)",
    )
    return closed


def relu_reduction(derivation: Derivation) -> sp.Expr:
    """d rho/dt for relu attention (w = max(beta s, 0)/n, rho > 0), derived by the same counting."""
    rate = 2 * lam * pairing_with_other_token(beta * lam / n, beta * lam * rho / n)
    closed = 2 * lam**2 * beta * rho * (1 - rho) * (1 + (n - 1) * rho) / n
    derivation.zero(
        "relu, rho > 0: w_ii = beta lambda / n, w_ij = beta lambda rho / n, so "
        "d rho/dt = 2 lambda^2 beta rho (1 - rho)(1 + (n-1) rho) / n",
        rate - closed,
        r"\dot\rho = \frac{2\lambda^2\beta\,\rho(1-\rho)(1+(n-1)\rho)}{n}",
    )
    return closed


def linear_ode_time(derivation: Derivation) -> sp.Expr:
    """Time for rho' = c0 + c1 rho (c0 >= 0, c1 > 0, symbols) to go from rho0 to rho1, checked on the ODE."""
    solution = (start_ + c0_ / c1_) * sp.exp(c1_ * t) - c0_ / c1_
    derivation.zero(
        "rho(t) = (rho0 + c0/c1) e^{c1 t} - c0/c1 solves rho' = c0 + c1 rho, rho(0) = rho0",
        sp.diff(solution, t) - c0_ - c1_ * solution,
    )
    time = sp.log((rho1 + c0_ / c1_) / (start_ + c0_ / c1_)) / c1_
    derivation.zero(
        "it reaches rho1 at t = ln((rho1 + c0/c1)/(rho0 + c0/c1)) / c1",
        solution.subs(t, time) - rho1,
        r"t = \frac{1}{c_1}\ln\frac{\rho_1 + c_0/c_1}{\rho_0 + c_0/c_1}",
    )
    return time


def softmax_zeroth_order(derivation: Derivation) -> sp.Expr:
    """Time to reach rho1 under the constant force at rho = 0, and its exact Theta(n) limit."""
    force = softmax_reduction(derivation).subs(rho, 0)
    time = rho1 / force
    derivation.zero(
        "zeroth order (constant force phi(lambda)): time rho1 (exp(beta lambda) + n - 1) / (2 lambda)",
        time - rho1 * (sp.exp(beta * lam) + n - 1) / (2 * lam),
        r"t_0 = \frac{\rho_1 (e^{\beta\lambda} + n - 1)}{2\lambda}",
    )
    limits.record_limit(
        derivation,
        "t_0 / n -> rho1 / (2 lambda) > 0 as n -> oo: Theta(n)",
        limits.at_infinity(time / n, n, FACTS),
        rho1 / (2 * lam),
    )
    return time


def softmax_first_order(derivation: Derivation) -> tuple[sp.Expr, sp.Expr | None]:
    """First-order linearization at rho = 0: the time, and the limit of time / n (0, by a squeeze), or None when
    a step of the squeeze does not close (the failure is then in the derivation)."""
    closed = softmax_reduction(derivation)
    c0, c1 = closed.subs(rho, 0), sp.diff(closed, rho).subs(rho, 0)
    tokens = signs.facts(positive=[lam, beta, rho1], nonnegative=[m], shifts={n: (m, 2)})
    derivation.sign("c1 = d/d rho of the rate at 0 is positive for n >= 2", c1, ">0", tokens)
    time = linear_ode_time(derivation).subs({start_: 0, c0_: c0, c1_: c1})
    ratio = 1 + c1 * rho1 / c0  # time = ln(ratio) / c1
    derivation.zero("t = ln(Y)/c1 with Y = 1 + c1 rho1/c0", time - sp.log(ratio) / c1)
    derivation.sign("Y - 1 = c1 rho1/c0 > 0, so ln Y > 0 and t > 0", ratio - 1, ">0", tokens)
    derivation.cite(
        "ln y <= 2 sqrt(y) for y > 0",
        "0 < t/n = ln(Y)/(c1 n) <= B(n) = 2 sqrt(Y)/(c1 n)",
        "ln y = 2 ln sqrt(y) <= 2 (sqrt(y) - 1) by ln z <= z - 1 (concavity of ln)",
    )
    bound_squared = 4 * ratio / (c1 * n) ** 2
    ok = limits.record_limit(
        derivation,
        "B(n)^2 = 4 Y/(c1 n)^2 -> 0 as n -> oo, so B(n) -> 0 and t/n -> 0 (squeeze)",
        limits.at_infinity(bound_squared, n, FACTS),
        sp.Integer(0),
    )
    return time, sp.Integer(0) if ok else None


#: The first-order relu reading's domain, rho1 = d^(-1/2) e^sigma with sigma > 0: exactly rho1 > d^(-1/2).
sigma = sp.Symbol("sigma", positive=True)
RELU_TARGET_ABOVE_START = d ** sp.Rational(-1, 2) * sp.exp(sigma)


def relu_first_order(derivation: Derivation, target: sp.Expr = RELU_TARGET_ABOVE_START) -> sp.Expr:
    """First-order linearization of the relu reduction from rho0 = d^(-1/2), and its Theta(n log d) form.

    `target` is rho1 written over the statement's domain (by default rho1 = d^(-1/2) e^sigma, sigma > 0,
    i.e. rho1 > d^(-1/2)): the time must be positive there, else the formula is a time in the past and
    the derivation does not close.
    """
    closed = relu_reduction(derivation)
    known = FACTS.with_signs(positive=target.free_symbols)
    c0, c1 = closed.subs(rho, 0), sp.diff(closed, rho).subs(rho, 0)
    derivation.zero("no force at rho = 0: relu(0) = 0", c0)
    derivation.zero("c1 = 2 lambda^2 beta / n", c1 - 2 * lam**2 * beta / n)
    time = linear_ode_time(derivation).subs({c0_: 0, c1_: c1, start_: d ** sp.Rational(-1, 2)})
    derivation.zero(
        "from rho0 = d^(-1/2) it reaches rho1 at t = n ln(rho1 sqrt d) / (2 lambda^2 beta)",
        limits.split_logs(time - n * sp.log(rho1 * sp.sqrt(d)) / (2 * lam**2 * beta), known),
        r"t = \frac{n \ln(\rho_1\sqrt{d})}{2\lambda^2\beta}",
    )
    on_domain = limits.split_logs(time.subs(rho1, target), known)
    derivation.sign(
        f"on the statement's domain (rho1 = {target}) the time is positive: rho1 lies ahead of rho0",
        on_domain,
        ">0",
        known,
        r"\rho_1 > d^{-1/2} \Rightarrow t > 0",
    )
    limits.record_limit(
        derivation,
        "t / (n ln d) -> 1/(4 lambda^2 beta) > 0 as d -> oo (for every n): Theta(n log d)",
        limits.at_infinity(time / (n * sp.log(d)), d, known, through_log=True),
        1 / (4 * lam**2 * beta),
    )
    return time


def softmax_rate_in_gap(derivation: Derivation) -> sp.Expr:
    """The one-head softmax reduction as d eps/dt with eps = 1 - rho (the cluster gap), i.e. -rate(1 - eps)."""
    return -softmax_reduction(derivation).subs(rho, 1 - eps)


def early_rate(derivation: Derivation, claimed: sp.Expr | None = None) -> sp.Expr:
    """d eps/dt at the orthogonal start (eps = 1) for one head, checked against `claimed` (default -phi(lambda))."""
    start = softmax_rate_in_gap(derivation).subs(eps, 1)
    claimed = -cf.rate(lam, n, beta) if claimed is None else claimed
    derivation.zero(
        "at eps = 1 (orthogonal tokens) the head contributes d eps/dt = -phi(lambda)",
        start - claimed,
        r"\dot\varepsilon\big|_{\varepsilon=1} = -\varphi(\lambda)",
    )
    return start


def late_rate(derivation: Derivation, coefficient: int | sp.Expr = 2) -> sp.Expr:
    """The head's (d eps/dt)/eps as eps -> 0, checked against -coefficient * lambda, and its O(eps) remainder."""
    per_gap = sp.cancel(softmax_rate_in_gap(derivation) / eps)  # exact: a quotient of polynomials in eps, exp(.)
    leading = limits.at_point(per_gap, eps, sp.Integer(0), FACTS)
    limits.record_limit(
        derivation,
        "(d eps/dt)/eps -> -2 lambda as eps -> 0",
        leading,
        -coefficient * lam,
        r"\dot\varepsilon/\varepsilon \to -2\lambda",
    )
    slope = limits.at_point(sp.diff(per_gap, eps), eps, sp.Integer(0), FACTS)
    derivation.holds(
        "the remainder is O(eps): d/d eps of (d eps/dt)/eps has a finite limit at eps = 0 (headflow.identities.limits)",
        slope is not None,
        r"\dot\varepsilon/\varepsilon = -2\lambda + O(\varepsilon)",
    )
    return sp.nan if leading is None else leading[0]  # nan: not established (the failure is recorded)
