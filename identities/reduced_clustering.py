"""Theorem 25 on the exact reduced dynamics: clustering times of equiangular tokens under one scalar head.

For equiangular tokens and one scalar head M = W = lambda I the model reduces exactly to one ODE
rho' = R(rho) (derived by counting in identities.linearized_clustering). R > 0 on the interval
where rho moves, so the time to go from rho0 to rho1 is T = int_{rho0}^{rho1} d rho / R(rho):

- relu, R = 2 lambda^2 beta rho (1 - rho)(1 + (n-1) rho)/n: 1/R has a partial-fraction
  antiderivative, so T has a closed form. From rho0 = d^(-1/2) it is O(n log d), but for every
  fixed d it stays bounded as n -> oo (its limit grows like sqrt(d)/(2 lambda^2 beta)): Theta(n log d)
  is false on the reduction.
- softmax, R = 2 lambda (1 - rho)(1 + (n-1) rho)/(exp(beta lambda (1 - rho)) + n - 1): the exponential
  lies between its values at rho1 and at 0, which squeezes T between two closed forms, both
  ~ ln(n)/(2 lambda): O(n) holds, Theta(n) is false, and the time grows like log n.

Every identity below is checked by SymPy on each call; the few facts that are cited rather than
computed (inverse function rule, monotone bounds under an integral, boundedness of a continuous
function with a finite limit) are marked "cited".
"""

from __future__ import annotations

import sympy as sp
from headflow.identities import limits, signs
from headflow.identities import linearized_clustering as lc
from headflow.identities.derivation import Derivation

lam, beta, n, d, rho, rho1 = lc.lam, lc.beta, lc.n, lc.d, lc.rho, lc.rho1
#: Auxiliary positive symbols that encode a domain: n = 1 + m (n > 1), rho = r/(1 + r) (0 < rho < 1).
m, r, s = sp.symbols("m r s", positive=True)
#: The start rho0 of the relu reading (the typical overlap d^(-1/2) of random tokens), and rho0 >= 0 of softmax.
relu_start = 1 / sp.sqrt(d)
start = sp.Symbol("rho_0", nonnegative=True)


#: The statement's domain as sign facts: n = 1 + m (m > 0), every other symbol > 0, and the hypotheses
#: 0 < rho1 < 1 and d > 1 (d > rho1^-2), declared as the signs of the sub-expressions 1 - rho1, sqrt(d) - 1 and
#: log d that the logarithms need.
FACTS = signs.facts(
    positive=[lam, beta, d, rho, rho1, m, r, s, 1 - rho1, sp.sqrt(d) - 1, sp.log(d)], shifts={n: (m, 1)}
)


def _PAST_ONE(t: sp.Symbol) -> sp.Expr:
    """n = 1 + 1/t: n -> oo as t -> 0+, and n - 1 = 1/t keeps the factors 1 + (n - 1) rho positive in form."""
    return 1 + 1 / t


def on_unit_interval(expr: sp.Expr) -> sp.Expr:
    """expr with 0 < rho < 1 and n > 1 encoded as rho = r/(1+r), n = 1 + m (r, m > 0), for a sign step."""
    return expr.subs(rho, r / (1 + r)).subs(n, 1 + m)


def time_integral_note(derivation: Derivation) -> None:
    """The cited step that turns a positive rate into a time integral."""
    derivation.note(
        "cited: rho' = R(rho) > 0 makes t -> rho(t) increasing, so its inverse has dt/d rho = 1/R(rho) and the "
        "time from rho0 to rho1 is T = int_{rho0}^{rho1} d rho / R(rho) (inverse function rule)",
        r"T = \int_{\rho_0}^{\rho_1} \frac{d\rho}{R(\rho)}",
    )


def relu_time(derivation: Derivation) -> sp.Expr:
    """The exact time from rho0 = d^(-1/2) to rho1 under the relu reduction (closed form by partial fractions)."""
    rate = lc.relu_reduction(derivation)
    derivation.sign("R > 0 for 0 < rho < 1 and n > 1", on_unit_interval(rate), ">0", FACTS, r"R(\rho) > 0")
    time_integral_note(derivation)
    antiderivative = relu_antiderivative()
    derivation.zero(
        "partial fractions: F(rho) = n/(2 lambda^2 beta) [ln rho - (1/n) ln(1 - rho) - ((n-1)/n) ln(1 + (n-1) rho)] "
        "has F' = 1/R",
        sp.diff(antiderivative, rho) - 1 / rate,
        r"F(\rho) = \frac{n}{2\lambda^2\beta}\Big[\ln\rho - \tfrac1n\ln(1-\rho) - \tfrac{n-1}{n}\ln(1+(n-1)\rho)\Big]",
    )
    time = antiderivative.subs(rho, rho1) - antiderivative.subs(rho, relu_start)
    derivation.note(
        "from rho0 = d^(-1/2) to rho1 in (d^(-1/2), 1): T = F(rho1) - F(d^(-1/2))",
        r"T = F(\rho_1) - F(d^{-1/2})",
    )
    return time


def relu_antiderivative() -> sp.Expr:
    """F(rho), an antiderivative of 1/R under the relu reduction (partial fractions; `relu_time` checks F' = 1/R)."""
    return (n / (2 * lam**2 * beta)) * (sp.log(rho) - sp.log(1 - rho) / n - (n - 1) / n * sp.log(1 + (n - 1) * rho))


def softmax_antiderivative() -> sp.Expr:
    """A(rho), an antiderivative of Q = 1/(2 lambda (1 - rho)(1 + (n-1) rho)) (`_softmax_integrand` checks A' = Q)."""
    return sp.log((1 + (n - 1) * rho) / (1 - rho)) / (2 * lam * n)


def relu_upper_bound(derivation: Derivation) -> sp.Expr:
    """T <= C n ln d on the domain n >= 2, d > rho1^(-2), with C depending on lambda, beta, rho1 only; returns C."""
    time = relu_time(derivation)
    delta = sp.Symbol("delta", positive=True)
    dropped = -((n - 1) / (2 * lam**2 * beta)) * sp.log((1 + (n - 1) * rho1) / (1 + (n - 1) * relu_start))
    bound = (sp.log(rho1 * sp.sqrt(d)) + sp.log((1 - relu_start) / (1 - rho1)) / n) * n / (2 * lam**2 * beta)
    derivation.zero(
        "T = B - (n-1)/(2 lambda^2 beta) ln((1 + (n-1) rho1)/(1 + (n-1) rho0)) with "
        "B = (n ln(rho1 sqrt d) + ln((1 - rho0)/(1 - rho1)))/(2 lambda^2 beta)",
        limits.split_logs(time - bound - dropped, FACTS),
    )
    derivation.sign(
        "the dropped term is <= 0: with rho1 = rho0 + delta (delta > 0) its logarithm is ln(1 + positive)",
        sp.log(1 + (n - 1) * delta / (1 + (n - 1) * relu_start)).subs(n, 1 + m),
        ">0",
        FACTS.with_signs(positive=[delta]),
    )
    constant = (sp.Rational(1, 2) + sp.log(1 / (1 - rho1)) / (2 * sp.log(d))) / (2 * lam**2 * beta)
    slack_terms = (
        -sp.log(rho1),
        sp.log(1 / (1 - rho1)) * (sp.Rational(1, 2) - 1 / n),
        -sp.log(1 - relu_start) / n,
    )
    derivation.zero(
        "C(d) - B/(n ln d) = [-ln rho1 + ln(1/(1 - rho1)) (1/2 - 1/n) - ln(1 - d^(-1/2))/n] / (2 lambda^2 beta ln d)",
        limits.split_logs(
            constant - bound / (n * sp.log(d)) - sum(slack_terms) / (2 * lam**2 * beta * sp.log(d)), FACTS
        ),
        r"C(d) = \frac{1}{2\lambda^2\beta}\Big(\frac12 + \frac{\ln\frac{1}{1-\rho_1}}{2\ln d}\Big)",
    )
    # Each sign uses its own parametrization of the same hypothesis: rho1 = 1/(1+r) and rho1 = r/(1+r) both
    # cover 0 < rho1 < 1, n = 2 + s covers n > 2 (n = 2 makes the middle term 0), d = ((1+s)/s)^2 covers d > 1.
    slack_signs = (
        ("-ln rho1 > 0 for 0 < rho1 < 1", slack_terms[0].subs(rho1, 1 / (1 + r))),
        ("ln(1/(1 - rho1)) > 0 for 0 < rho1 < 1", sp.log(1 / (1 - rho1)).subs(rho1, r / (1 + r))),
        ("1/2 - 1/n > 0 for n > 2 (and = 0 at n = 2)", (sp.Rational(1, 2) - 1 / n).subs(n, 2 + s)),
        ("-ln(1 - d^(-1/2))/n > 0 for d > 1, n > 0", slack_terms[2].subs(d, ((1 + s) / s) ** 2)),
    )
    for text, term in slack_signs:
        derivation.sign(text, term, ">0", FACTS)
    in_unit = {rho1: r / (1 + r)}
    derivation.sign(
        "C(d) decreases in d > 1, so on d > rho1^(-2) it is at most C(rho1^(-2)), a constant",
        sp.diff(constant, d).subs(in_unit).subs(d, 1 + s),
        "<0",
        FACTS,
    )
    sup = constant.subs(d, rho1**-2)
    derivation.note(
        f"hence T <= B <= C n ln d with C = {sup}: T = O(n log d) on the reduction",
        rf"T \le {sp.latex(sup)}\; n \ln d",
    )
    return sup


def relu_large_n_limit(derivation: Derivation) -> sp.Expr:
    """lim_{n -> oo} T for fixed d and rho1 (finite), checked to grow like sqrt(d)/(2 lambda^2 beta)."""
    time = relu_time(derivation)
    found = limits.at_infinity(time, n, FACTS, form=_PAST_ONE)
    limit = sp.nan if found is None else found[0]
    limits.record_limit(derivation, f"for fixed d and rho1, T -> {limit} as n -> oo (finite)", found, limit)
    limits.record_limit(
        derivation,
        "so T/(n ln d) -> 0 as n -> oo at fixed d: no c > 0 has T >= c n ln d for all n",
        limits.at_infinity(time / (n * sp.log(d)), n, FACTS, form=_PAST_ONE),
        sp.Integer(0),
    )
    limits.record_limit(
        derivation,
        "the limit grows like sqrt(d)/(2 lambda^2 beta) as d -> oo",
        None if found is None else limits.at_infinity(limit / sp.sqrt(d), d, FACTS, form=lambda t: (1 + 1 / t) ** 2),
        1 / (2 * lam**2 * beta),
        rf"\lim_{{n\to\infty}} T = {sp.latex(limit)} \sim \frac{{\sqrt d}}{{2\lambda^2\beta}}",
    )
    return limit


def _softmax_integrand(derivation: Derivation) -> sp.Expr:
    """The steps both softmax brackets rest on: 1/R = (exp(beta lambda (1 - rho)) + n - 1) Q(rho) and A' = Q; returns
    the antiderivative A of Q."""
    rate = lc.softmax_reduction(derivation)
    derivation.sign("R > 0 for 0 < rho < 1 and n > 1", on_unit_interval(rate), ">0", FACTS, r"R(\rho) > 0")
    time_integral_note(derivation)
    kernel = 1 / (2 * lam * (1 - rho) * (1 + (n - 1) * rho))
    derivation.zero(
        "1/R = (exp(beta lambda (1 - rho)) + n - 1) Q(rho), Q = 1/(2 lambda (1 - rho)(1 + (n-1) rho))",
        1 / rate - (sp.exp(beta * lam * (1 - rho)) + n - 1) * kernel,
    )
    antiderivative = softmax_antiderivative()
    derivation.zero(
        "A(rho) = ln((1 + (n-1) rho)/(1 - rho))/(2 lambda n) has A' = Q > 0",
        sp.diff(antiderivative, rho) - kernel,
        r"A(\rho) = \frac{1}{2\lambda n}\ln\frac{1+(n-1)\rho}{1-\rho}",
    )
    derivation.sign(
        "exp(beta lambda (1 - rho)) decreases in rho, so on [rho0, rho1] it lies in [exp(beta lambda (1 - rho1)), "
        "exp(beta lambda (1 - rho0))]",
        sp.diff(sp.exp(beta * lam * (1 - rho)), rho),
        "<0",
        FACTS,
    )
    return antiderivative


def softmax_time_bounds(derivation: Derivation) -> tuple[sp.Expr, sp.Expr]:
    """(lower bound from rho0 = 0, upper bound from any rho0 in [0, rho1)) of T under the softmax reduction."""
    antiderivative = _softmax_integrand(derivation)
    derivation.note(
        "cited: an integral of Q > 0 times a factor between two constants lies between the constants times int Q; "
        "and int_{rho0}^{rho1} Q <= A(rho1) - A(0) for rho0 >= 0",
        r"(n-1+e^{\beta\lambda(1-\rho_1)})\,A(\rho_1) \le T\big|_{\rho_0=0},\qquad "
        r"T \le (n-1+e^{\beta\lambda})\,A(\rho_1)",
    )
    low, high = softmax_factor_ends()
    return low * antiderivative.subs(rho, rho1), high * antiderivative.subs(rho, rho1)


def softmax_factor_ends() -> tuple[sp.Expr, sp.Expr]:
    """The values of the factor exp(beta lambda (1 - rho)) + n - 1 of 1/R at rho1 and at rho0 = 0, its least and
    greatest on [0, rho1] (`_softmax_integrand` checks that it decreases)."""
    return n - 1 + sp.exp(beta * lam * (1 - rho1)), n - 1 + sp.exp(beta * lam)


def softmax_time_from(derivation: Derivation, start_value: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """(a, b, DA) with a DA <= T <= b DA for the time T from rho0 = `start_value` in (-1/(n-1), rho1) to rho1 under
    the softmax reduction (beta > 0), DA = A(rho1) - A(rho0) > 0, a = exp(beta lambda (1 - rho1)) and
    b = n exp(beta lambda (1 - rho0)): products, for the growth comparisons (the factor exp(beta lambda (1 - rho)) +
    n - 1 of 1/R lies between a and b on [rho0, rho1], since 1 <= exp(beta lambda (1 - rho0)))."""
    antiderivative = _softmax_integrand(derivation)
    derivation.sign("beta lambda (1 - rho0) > 0 for rho0 < 1", (beta * lam * (1 - rho)).subs(rho, 1 - r), ">0", FACTS)
    derivation.cite(
        "exp(x) >= 1 for x >= 0",
        "exp(beta lambda (1 - rho0)) >= 1, so n - 1 + exp(beta lambda (1 - rho)) <= n exp(beta lambda (1 - rho0))",
        "n - 1 <= (n - 1) exp(beta lambda (1 - rho0)) and exp(beta lambda (1 - rho)) <= exp(beta lambda (1 - rho0))",
    )
    derivation.note(
        "cited: Q > 0 on (-1/(n-1), 1) and an integral of Q times a factor between two constants lies between the "
        "constants times int Q = A(rho1) - A(rho0)",
        r"e^{\beta\lambda(1-\rho_1)}\,\Delta A \le T \le n\,e^{\beta\lambda(1-\rho_0)}\,\Delta A",
    )
    gained = antiderivative.subs(rho, rho1) - antiderivative.subs(rho, start_value)
    return sp.exp(beta * lam * (1 - rho1)), n * sp.exp(beta * lam * (1 - start_value)), gained


def softmax_upper_bound(derivation: Derivation) -> sp.Expr:
    """T <= U(n) for every start in [0, rho1), and U(n)/n -> 0: T = O(n) (indeed o(n)); returns U."""
    _, upper = softmax_time_bounds(derivation)
    limits.record_limit(
        derivation,
        "U(n)/n -> 0 as n -> oo",
        limits.at_infinity(upper / n, n, FACTS, form=_PAST_ONE),
        sp.Integer(0),
        r"\frac{U(n)}{n} \to 0",
    )
    derivation.note(
        "cited: U(n)/n is continuous on n >= 2 with a finite limit, hence bounded: T <= U(n) <= C n, O(n)",
    )
    return upper


def softmax_log_growth(derivation: Derivation) -> sp.Expr:
    """From rho0 = 0 both bounds are ~ ln(n)/(2 lambda), so T/ln n -> 1/(2 lambda) (squeeze); returns the limit."""
    lower, upper = softmax_time_bounds(derivation)
    growth = 1 / (2 * lam)
    for name, bound in (("lower", lower), ("upper", upper)):
        limits.record_limit(
            derivation,
            f"the {name} bound / ln n -> 1/(2 lambda)",
            limits.at_infinity(bound / sp.log(n), n, FACTS, form=_PAST_ONE),
            growth,
        )
    derivation.note(
        "so T/ln n -> 1/(2 lambda) (squeeze between the two bounds): the time grows like ln n",
        r"\frac{T}{\ln n} \to \frac{1}{2\lambda}",
    )
    limits.record_limit(
        derivation,
        "and T/n <= U(n)/n -> 0: no c > 0 has T >= c n for all n",
        limits.at_infinity(upper / n, n, FACTS, form=_PAST_ONE),
        sp.Integer(0),
    )
    return growth
