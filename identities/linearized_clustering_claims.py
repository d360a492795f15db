"""Theorem 25 read in its linearized regime (the summary's setting), decided symbolically."""

from __future__ import annotations

import sympy as sp

from checks.registry import REGISTRY, Context
from checks.verdicts import Outcome, Verdict
from identities import linearized_clustering as lc
from identities.derivation import Derivation

METHOD = "symbolic (SymPy): equiangular reduction derived by counting, linearized at rho = 0, solved exactly"
_REGIME = (
    "Equiangular tokens, one scalar head M = W = lambda I (lambda > 0), beta > 0, spherical dynamics, "
    "linearized at rho = 0 (gamma = 0): "
)

REGISTRY.declare(
    "T25.softmax-time.reading-c",
    "Theorem 25, softmax: Theta(n) under the constant force at rho = 0 (zeroth-order linearization)",
    _REGIME + "with the rate frozen at its value phi(lambda) at rho = 0, the time for rho to reach rho1 in (0, 1) "
    "is rho1 (exp(beta lambda) + n - 1)/(2 lambda), which is Theta(n) as n -> infinity.",
)
REGISTRY.declare(
    "T25.softmax-time.reading-d",
    "Theorem 25, softmax: Theta(n) at first order in rho",
    _REGIME + "with the rate linearized to first order in rho, the time for rho to go from 0 to rho1 in (0, 1) is "
    "Theta(n) as n -> infinity, for every lambda, beta > 0.",
)
REGISTRY.declare(
    "T25.relu-time.reading-c",
    "Theorem 25, relu: Theta(n log d) at first order in rho from rho0 = d^(-1/2)",
    _REGIME + "relu attention; from rho0 = d^(-1/2) (the typical overlap of random tokens), with the rate "
    "linearized to first order in rho, the time to reach rho1 in (0, 1) is n ln(rho1 sqrt d)/(2 lambda^2 beta), "
    "which is Theta(n log d).",
)


@REGISTRY.procedure("T25.softmax-time.reading-c", "symbolic")
def _softmax_zeroth(ctx: Context) -> Outcome:
    derivation = Derivation()
    lc.softmax_zeroth_order(derivation)
    return derivation.outcome(METHOD)


@REGISTRY.procedure("T25.softmax-time.reading-d", "exact")
def _softmax_first(ctx: Context) -> Outcome:
    derivation = Derivation()
    time, ratio_limit = lc.softmax_first_order(derivation)
    if not derivation.proved or ratio_limit != 0:
        reason = "; ".join(derivation.failures) or f"lim t/n = {ratio_limit}, not 0"
        return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=f"not decided: {reason}")
    at_unit = {lc.lam: 1, lc.beta: 1, lc.rho1: sp.Rational(1, 2)}
    log_limit = sp.limit(sp.expand_log(sp.simplify(time.subs(at_unit)), force=True) / sp.log(lc.n), lc.n, sp.oo)
    return Outcome(
        Verdict.REFUTED,
        METHOD + "; exact limit of t/n at lambda = beta = 1, rho1 = 1/2",
        witness={
            "verified_by": "exact",
            "parameters": {"lambda": 1, "beta": 1, "rho1": "1/2"},
            "time": str(time),
            "limit of t/n as n -> oo": str(ratio_limit),
            "limit of t/log n as n -> oo": str(log_limit),
        },
        steps=derivation.steps,
        finding="at first order in rho the softmax clustering time is Theta(log n), not Theta(n): the constant "
        "force phi(lambda) ~ 2 lambda/n only governs the very start",
    )


@REGISTRY.procedure("T25.relu-time.reading-c", "symbolic")
def _relu_first(ctx: Context) -> Outcome:
    derivation = Derivation()
    lc.relu_first_order(derivation)
    return derivation.outcome(METHOD)


_EQUIANGULAR_LEMMAS = (
    "softmax, scalar heads M_h = W_h = lambda_h I: the vector field commutes with permutations of the tokens, so "
    "an equiangular start stays equiangular (uniqueness of ODE solutions) and rho(t) obeys a scalar ODE",
    "the softmax velocity is sum_h P f^h_i, so d eps/dt is the sum over heads of each head's contribution "
    "(derived below for one head lambda)",
)


@REGISTRY.procedure("T22.early-rate", "symbolic")
def _early_rate(ctx: Context) -> Outcome:
    derivation = Derivation()
    for lemma in _EQUIANGULAR_LEMMAS:
        derivation.note(lemma)
    lc.early_rate(derivation)
    derivation.note(
        "summing over heads: d eps/dt at t = 0 equals -sum_h phi(lambda_h)",
        r"\dot\varepsilon(0) = -\sum_h \varphi(\lambda_h)",
    )
    return derivation.outcome(METHOD)


@REGISTRY.procedure("T22.late-rate", "symbolic")
def _late_rate(ctx: Context) -> Outcome:
    derivation = Derivation()
    for lemma in _EQUIANGULAR_LEMMAS:
        derivation.note(lemma)
    lc.late_rate(derivation)
    derivation.note(
        "summing over heads: d ln(eps)/dt = -2 Lambda + O(eps), Lambda = sum_h lambda_h",
        r"\frac{d}{dt}\ln\varepsilon = -2\Lambda + O(\varepsilon)",
    )
    derivation.note(
        "each head's d eps/dt is negative for eps in (0, n/(n-1)) (factors lambda eps (1 + (n-1)(1 - eps)) > 0), "
        "so eps decreases to 0 exponentially; the O(eps) remainder is then integrable in t, hence "
        "ln eps(t) + 2 Lambda t converges: eps(t) ~ C exp(-2 Lambda t) with C > 0",
        r"\varepsilon(t) \sim C e^{-2\Lambda t}",
    )
    return derivation.outcome(METHOD)
