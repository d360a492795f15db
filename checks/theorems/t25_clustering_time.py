"""Theorem 25: the clustering times of softmax, O(n), and of ReLU, O(n log d), with their readings.

How each is decided:
- linearized readings (softmax c, d; relu c): statements about the simplified (frozen-rate or
  first-order) model, decided symbolically (`headflow.identities.linearized_clustering`).
- exact-reduction readings (softmax e, f; relu d, e): the upper-bound and tight readings on the
  exact reduced ODE for rho, by closed form (relu) or a squeeze between closed forms (softmax), with
  exact limits (`headflow.identities.reduced_clustering`).
- measured readings (a: exponents at most the claimed ones; b: equal to them) and the claims as
  stated: clustering times from random starts and their scaling fit (`headflow.checks.evidence.clustering_times`);
  floats can only support a claim, a contradicting fit gives INCONCLUSIVE, never REFUTED.
"""

from __future__ import annotations

import sympy as sp
from headflow.checks.evidence.clustering_times import GAP_TOLERANCE, check_clustering_time
from headflow.checks.evidence.smt_certificates import with_certificate
from headflow.checks.registry import REGISTRY, Context
from headflow.checks.verdicts import Outcome, Verdict, derived
from headflow.identities import linearized_clustering as lc
from headflow.identities import reduced_clustering as rc
from headflow.identities import signs
from headflow.identities.derivation import Derivation

_STATEMENTS: tuple[tuple[str, str, str], ...] = (
    (
        "T25.softmax-time",
        "Theorem 25: softmax clustering time",
        "softmax, from random initialization on S^{d-1}: the time for the cluster gap to fall below "
        "a fixed tolerance grows as O(n) (upper-bound reading) and as Theta(n) (tight reading).",
    ),
    (
        "T25.relu-time",
        "Theorem 25: ReLU clustering time",
        "relu, from random initialization on S^{d-1}: the time for the cluster gap to fall below a "
        "fixed tolerance grows as O(n log d) (upper-bound reading) and as Theta(n log d) (tight reading).",
    ),
)

REGISTRY.declare_all(_STATEMENTS)


METHOD = "symbolic (SymPy): equiangular reduction derived by counting, linearized at rho = 0, solved exactly"


REDUCED_METHOD = (
    "symbolic (SymPy): exact equiangular reduction rho' = R(rho), time = int d rho / R, closed forms and limits"
)


_REGIME = (
    "Equiangular tokens, one scalar head M = W = lambda I (lambda > 0), beta > 0, spherical dynamics, "
    "linearized at rho = 0 (gamma = 0): "
)


_SIMPLIFIED = (
    " This is a statement about the simplified (linearized) model, which follows the exact reduction only while "
    "(n - 1) rho << 1; the exact-reduction readings below decide the theorem itself."
)


_REDUCED = (
    "Exact reduction (equiangular tokens, one scalar head M = W = lambda I, lambda > 0, beta > 0, spherical "
    "dynamics, n >= 2), no linearization: "
)


REGISTRY.declare(
    "T25.softmax-time.reading-c",
    "Theorem 25, softmax: Theta(n) under the constant force at rho = 0 (frozen rate; simplified model)",
    _REGIME + "with the rate frozen at its value phi(lambda) at rho = 0, the time for rho to reach rho1 in (0, 1) "
    "is rho1 (exp(beta lambda) + n - 1)/(2 lambda), which is Theta(n) as n -> infinity." + _SIMPLIFIED,
)


REGISTRY.declare(
    "T25.softmax-time.reading-d",
    "Theorem 25, softmax: Theta(n) at first order in rho (simplified model)",
    _REGIME + "with the rate linearized to first order in rho, the time for rho to go from 0 to rho1 in (0, 1) is "
    "Theta(n) as n -> infinity, for every lambda, beta > 0." + _SIMPLIFIED,
)


REGISTRY.declare(
    "T25.softmax-time.reading-e",
    "Theorem 25, softmax: O(n) on the exact reduced ODE (upper bound)",
    _REDUCED + "softmax, rho' = 2 lambda (1 - rho)(1 + (n-1) rho)/(exp(beta lambda (1 - rho)) + n - 1); for every "
    "rho1 in (0, 1) there is C (depending on lambda, beta, rho1) such that the time from any rho0 in [0, rho1) "
    "to rho1 is at most C n for every n >= 2.",
)


REGISTRY.declare(
    "T25.softmax-time.reading-f",
    "Theorem 25, softmax: Theta(n) on the exact reduced ODE (tight rate)",
    _REDUCED + "softmax; for rho1 in (0, 1) there is c > 0 such that the time from rho0 = 0 (orthogonal start, "
    "d >= n) to rho1 is at least c n for every n >= 2.",
)


REGISTRY.declare(
    "T25.relu-time.reading-c",
    "Theorem 25, relu: Theta(n log d) at first order in rho from rho0 = d^(-1/2) (simplified model)",
    _REGIME + "relu attention; from rho0 = d^(-1/2) (the typical overlap of random tokens) to rho1 with "
    "d^(-1/2) < rho1 < 1, with the rate linearized to first order in rho, the time is "
    "n ln(rho1 sqrt d)/(2 lambda^2 beta) > 0, which is Theta(n log d) as d -> infinity at fixed rho1." + _SIMPLIFIED,
)


REGISTRY.declare(
    "T25.relu-time.reading-d",
    "Theorem 25, relu: O(n log d) on the exact reduced ODE (upper bound)",
    _REDUCED + "relu, rho' = 2 lambda^2 beta rho (1 - rho)(1 + (n-1) rho)/n; for every rho1 in (0, 1) there is C "
    "(depending on lambda, beta, rho1) such that the time from rho0 = d^(-1/2) to rho1 is at most C n ln d for "
    "every n >= 2 and d > rho1^(-2).",
)


REGISTRY.declare(
    "T25.relu-time.reading-e",
    "Theorem 25, relu: Theta(n log d) on the exact reduced ODE (tight rate)",
    _REDUCED + "relu; for rho1 in (0, 1) there is c > 0 such that the time from rho0 = d^(-1/2) to rho1 is at least "
    "c n ln d for every n >= 2 and d > rho1^(-2).",
)


@REGISTRY.procedure("T25.softmax-time.reading-c", "symbolic", certifies=True)
def _softmax_zeroth(ctx: Context) -> Outcome:
    derivation = Derivation()
    lc.softmax_zeroth_order(derivation)
    return with_certificate(ctx, derived(derivation, METHOD))


@REGISTRY.procedure("T25.softmax-time.reading-d", "exact", certifies=True)
def _softmax_first(ctx: Context) -> Outcome:
    derivation = Derivation()
    time, ratio_limit = lc.softmax_first_order(derivation)
    if not derivation.proved or ratio_limit != 0:
        reason = "; ".join(derivation.failures) or f"lim t/n = {ratio_limit}, not 0"
        return Outcome(Verdict.INCONCLUSIVE, METHOD, notes=f"not decided: {reason}")
    refuted = Outcome(
        Verdict.REFUTED,
        METHOD + "; t/n -> 0 by a squeeze, every lambda, beta, rho1 > 0 (headflow.identities.limits)",
        witness={
            "verified_by": "exact",
            "parameters": "every lambda, beta > 0, rho1 > 0",
            "time": str(time),
            "limit of t/n as n -> oo": str(ratio_limit),
        },
        steps=derivation.steps,
        finding="at first order in rho the softmax clustering time is Theta(log n), not Theta(n): the constant "
        "force phi(lambda) ~ 2 lambda/n only governs the very start",
    )
    return with_certificate(ctx, refuted)


@REGISTRY.procedure("T25.softmax-time.reading-e", "symbolic", certifies=True)
def _softmax_reduced_upper(ctx: Context) -> Outcome:
    derivation = Derivation()
    upper = rc.softmax_upper_bound(derivation)
    return with_certificate(ctx, derived(derivation, REDUCED_METHOD, {"upper bound U(n)": str(upper)}))


@REGISTRY.procedure("T25.softmax-time.reading-f", "exact", certifies=True)
def _softmax_reduced_tight(ctx: Context) -> Outcome:
    derivation = Derivation()
    log_limit = rc.softmax_log_growth(derivation)
    refuted = _refuted_by_finite_limit(
        derivation,
        log_limit,
        "the time is squeezed between two closed forms with the same exact limit over ln n",
        {"parameters": "every lambda, beta > 0, rho1 in (0, 1)", "limit of T/ln n as n -> oo": str(log_limit)},
        "limit of T/n as n -> oo",
        f"on the exact reduction the softmax clustering time grows like ln n (T/ln n -> {log_limit}): "
        "O(n) holds as a loose upper bound, Theta(n) is false",
    )
    return with_certificate(ctx, refuted)


@REGISTRY.procedure("T25.relu-time.reading-c", "symbolic", certifies=True)
def _relu_first(ctx: Context) -> Outcome:
    derivation = Derivation()
    lc.relu_first_order(derivation)
    return with_certificate(ctx, derived(derivation, METHOD))


@REGISTRY.procedure("T25.relu-time.reading-d", "symbolic", certifies=True)
def _relu_reduced_upper(ctx: Context) -> Outcome:
    derivation = Derivation()
    constant = rc.relu_upper_bound(derivation)
    return with_certificate(ctx, derived(derivation, REDUCED_METHOD, {"C in T <= C n ln d": str(constant)}))


@REGISTRY.procedure("T25.relu-time.reading-e", "exact", certifies=True)
def _relu_reduced_tight(ctx: Context) -> Outcome:
    derivation = Derivation()
    limit = rc.relu_large_n_limit(derivation)
    refuted = _refuted_by_finite_limit(
        derivation,
        limit,
        "exact limit of the closed-form time as n -> oo at fixed d",
        {"parameters": "every lambda, beta > 0, rho1 in (0, 1), d > rho1^(-2)", "limit of T as n -> oo": str(limit)},
        "limit of T/(n ln d) as n -> oo",
        "on the exact reduction the relu clustering time is bounded in n (it tends to a limit that grows "
        "like sqrt(d)/(2 lambda^2 beta)): O(n log d) holds as an upper bound, Theta(n log d) is false",
    )
    return with_certificate(ctx, refuted)


def _refuted_by_finite_limit(
    derivation: Derivation,
    limit: sp.Expr,
    how: str,
    witness: dict[str, str],
    vanishing: str,
    finding: str,
    known: signs.Facts = rc.FACTS,
) -> Outcome:
    """A Theta(growth) reading refuted by the derived limit of T over a slower growth: when that limit is proved
    and finite, T over the claimed growth tends to 0 (named `vanishing`), so no lower bound c * growth holds."""
    if not derivation.proved:
        return derived(derivation, REDUCED_METHOD)
    if signs.sign_of(limit, known) is None:  # defined and real on the domain: finite
        return Outcome(Verdict.INCONCLUSIVE, REDUCED_METHOD, notes=f"the derived limit {limit} is not proved finite")
    return Outcome(
        Verdict.REFUTED,
        f"{REDUCED_METHOD}; {how}",
        witness={"verified_by": "exact", **witness, vanishing: "0"},
        steps=derivation.steps,
        finding=finding,
    )


for _kind, _law in (("softmax", "n"), ("relu", "n log d")):
    _base = f"T25.{_kind}-time"
    REGISTRY.declare(
        f"{_base}.reading-a",
        f"Theorem 25, {_kind}: clustering time O({_law}) (upper bound)",
        f"{_kind}, one head M = I, beta = 1, tokens uniform on S^{{d-1}}: the expected time for the cluster "
        f"gap to fall below {GAP_TOLERANCE:g} is at most C {_law} for a constant C, for all n >= 2, d >= 2.",
    )
    REGISTRY.declare(
        f"{_base}.reading-b",
        f"Theorem 25, {_kind}: clustering time Theta({_law}) (tight rate)",
        f"{_kind}, one head M = I, beta = 1, tokens uniform on S^{{d-1}}: the expected time for the cluster "
        f"gap to fall below {GAP_TOLERANCE:g} is between c {_law} and C {_law} for constants 0 < c <= C.",
    )


for _kind in ("softmax", "relu"):

    def _both(ctx: Context, kind: str = _kind) -> Outcome:
        return check_clustering_time(ctx, kind, ("upper", "tight"))

    def _upper(ctx: Context, kind: str = _kind) -> Outcome:
        return check_clustering_time(ctx, kind, ("upper",))

    def _tight(ctx: Context, kind: str = _kind) -> Outcome:
        return check_clustering_time(ctx, kind, ("tight",))

    REGISTRY.procedure(f"T25.{_kind}-time", "scaling-fit")(_both)
    REGISTRY.procedure(f"T25.{_kind}-time.reading-a", "scaling-fit")(_upper)
    REGISTRY.procedure(f"T25.{_kind}-time.reading-b", "scaling-fit")(_tight)
