"""The equiangular reduction for every attention kind and several scalar heads, its exact late rate and limit.

Regime: spherical dynamics, n unit tokens with <x_i, x_j> = rho for i != j, heads M_h = W_h = lambda_h I.
Each head contributes f^h_i = lambda_h sum_j w^h_ij x_j, and the velocity is v_i = c sum_h f^h_i with
c = 1/n for usa and c = 1 for softmax and relu. The pairing <P⊥_{x_i}(sum_j w_ij x_j), x_k> (k != i)
is counted term by term by `headflow.identities.linearized_clustering.pairing_with_other_token`, which this
module reuses: the term j = i vanishes, so only the weight w_ij of another token enters, and

    d rho/dt = 2 <xdot_i, x_k> = (1 - rho)(1 + (n - 1) rho) S(rho),  S(rho) = 2 c sum_h lambda_h w^h_ij(rho),

the pairing being linear in the velocity, so that the heads add up. S is the *pull*: usa
(2/n) lambda e^{beta lambda rho}, softmax 2 lambda / (e^{beta lambda (1 - rho)} + n - 1), relu
(2/n) lambda max(beta lambda rho, 0), summed over the heads. In the cluster gap eps = 1 - rho,
d eps/dt = F(eps) = -eps (n - (n - 1) eps) S(1 - eps), F(0) = 0, and the exact asymptotic rate is
r = -F'(0) = n S(1): 2 sum_h lambda_h e^{beta lambda_h} (usa), 2 Lambda (softmax),
2 beta sum_{lambda_h > 0} lambda_h^2 (relu).

S is increasing in rho for every kind (each head's term has derivative beta lambda_h^2 times a positive
factor), so the sign of S(rho0) decides where the trajectory goes: S(rho0) > 0, rho increases to 1
(eps -> 0); S(rho0) < 0, rho decreases to -1/(n - 1) (eps -> n/(n - 1), a regular simplex); S(rho0) = 0,
an equilibrium. The factors 1 - rho and 1 + (n - 1) rho vanish only at the ends of [-1/(n - 1), 1].

Why rho alone describes the motion: with scalar heads <xdot_i, x_k> is a function of the Gram matrix
G, so G solves an autonomous (locally Lipschitz) ODE; the counting shows that at an equiangular G every
off-diagonal entry moves alike and the diagonal stays 1, so the equiangular G(t) with rho(t) from the
reduced ODE is that ODE's unique solution. The flat dynamics moves |x_i| (<v_i, x_i> != 0), so the
tokens leave the sphere and this reduction (which uses G_ii = 1) applies to the sphere only.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp
from headflow.identities import closed_forms as cf
from headflow.identities import linearized_clustering as lc
from headflow.identities import signs
from headflow.identities.derivation import Derivation
from headflow.identities.zero_test import is_identically_zero

KINDS = ("usa", "softmax", "relu")

rho = sp.Symbol("rho", real=True)
#: One head's strength, of either sign (the per-head step is derived once for it).
lam = sp.Symbol("lambda", real=True)
eps = lc.eps
n, beta = cf.n, cf.beta
#: How far rho moves from rho0 in a sign argument: rho = rho0 + u or rho0 - u.
_u = sp.Symbol("u", nonnegative=True)
#: Stand-ins for rho on one side of 0, where every relu weight max(beta lambda rho, 0) is settled.
_positive, _negative = sp.Symbol("rho_+", positive=True), sp.Symbol("rho_-", negative=True)


def _kind(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"unknown attention kind {kind!r} (expected one of {', '.join(KINDS)})")
    return kind


def head_weights(kind: str, strength: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(w_ii, w_ij), i != j, of one head M = W = strength I at equiangular tokens (s_ii = strength,
    s_ij = strength rho), by the model's definition of each attention kind."""
    if _kind(kind) == "usa":
        return sp.exp(beta * strength), sp.exp(beta * strength * rho)
    if kind == "softmax":
        partition = sp.exp(beta * strength) + (n - 1) * sp.exp(beta * strength * rho)
        return sp.exp(beta * strength) / partition, sp.exp(beta * strength * rho) / partition
    return sp.Max(beta * strength, 0) / n, sp.Max(beta * strength * rho, 0) / n


def velocity_scale(kind: str) -> sp.Expr:
    """c in v_i = c sum_h f^h_i: 1/n for usa, 1 for softmax and relu."""
    return 1 / n if _kind(kind) == "usa" else sp.Integer(1)


def head_pull(kind: str, strength: sp.Expr) -> sp.Expr:
    """One head's term of S(rho) in closed form: 2 c strength w_ij."""
    if _kind(kind) == "usa":
        return 2 * strength * sp.exp(beta * strength * rho) / n
    if kind == "softmax":
        return 2 * strength / (sp.exp(beta * strength * (1 - rho)) + n - 1)
    return 2 * strength * sp.Max(beta * strength * rho, 0) / n


def spread(expr: sp.Expr, size: sp.Expr = n) -> sp.Expr:
    """The factor (1 - rho)(1 + (n - 1) rho) of d rho/dt (n = size), times `expr`."""
    return (1 - rho) * (1 + (size - 1) * rho) * expr


def head_rate(derivation: Derivation, kind: str) -> sp.Expr:
    """One head's d rho/dt, derived for a head lambda I of either sign by counting the sum over j."""
    w_self, w_other = head_weights(kind, lam)
    counted = lc.pairing_with_other_token(w_self, w_other).subs(lc.rho, rho)
    rate = 2 * velocity_scale(kind) * lam * counted
    derivation.zero(
        f"{kind}, one head M = W = lambda I: d rho/dt = 2 c lambda <P⊥_{{x_i}}(sum_j w_ij x_j), x_k> with "
        f"w_ii = {w_self}, w_ij = {w_other}, c = {velocity_scale(kind)}, counted over j = i (0), j = k and the "
        f"n - 2 others, is (1 - rho)(1 + (n - 1) rho) s_lambda(rho), s_lambda = {head_pull(kind, lam)}",
        rate - spread(head_pull(kind, lam)),
        r"\dot\rho = (1-\rho)(1+(n-1)\rho)\, s_\lambda(\rho)",
    )
    return spread(head_pull(kind, lam))


def reduced_pull(derivation: Derivation, kind: str, strengths: Sequence[sp.Expr]) -> sp.Expr:
    """S(rho) = sum_h s_{lambda_h}(rho), with d rho/dt = (1 - rho)(1 + (n - 1) rho) S(rho), for heads
    lambda_h I (`strengths`), derived from the model's definitions."""
    derivation.note(
        "regime: spherical dynamics, equiangular tokens <x_i, x_j> = rho (i != j), heads M_h = W_h = lambda_h I; "
        "d rho/dt = <xdot_i, x_k> + <x_i, xdot_k> = 2 <xdot_i, x_k> (k != i) by the symmetry of the configuration. "
        "With scalar heads <xdot_i, x_k> is a function of the Gram matrix, which therefore solves an autonomous "
        "ODE; equiangular Gram matrices stay equiangular (unique solution). The flat dynamics moves |x_i|: "
        "the tokens leave the sphere and the reduction does not apply there",
        r"\dot\rho = 2\langle \dot x_i, x_k\rangle",
    )
    head_rate(derivation, kind)
    derivation.note(
        f"several heads: v_i = c sum_h f^h_i is linear in the heads' outputs, so d rho/dt is the sum of the "
        f"heads' terms, lambda = lambda_h for h = 1..{len(strengths)} ({', '.join(str(s) for s in strengths)})",
        r"S(\rho) = \sum_h s_{\lambda_h}(\rho)",
    )
    return sum((head_pull(kind, s) for s in strengths), sp.Integer(0))


#: The facts the sign steps of this module use: rho on its side, the distance u >= 0, n > 0, beta > 0.
_FACTS = signs.facts(positive=[_positive, n, beta], negative=[_negative], nonnegative=[_u])


def on_side(pull: sp.Expr, positive: bool, known: signs.Facts | None = None) -> sp.Expr:
    """`pull` for rho > 0 (or rho < 0), where each relu weight max(c rho, 0) is c rho or 0 by the sign of c rho,
    proved by `identities.signs` (a Max whose sign is not proved is left as it is); usa and softmax are unchanged.
    `known`: facts about the other symbols of `pull` (quantified strengths, beta, n), added to this module's."""
    side = _positive if positive else _negative
    facts = _FACTS if known is None else with_facts(known)

    def settled(node: sp.Max) -> sp.Expr:
        if len(node.args) != 2 or sp.Integer(0) not in node.args:
            return node
        other = node.args[0] if node.args[1] == 0 else node.args[1]
        on = other.xreplace({rho: side})
        if signs.prove(on, ">=0", facts) is not None:
            return other
        if signs.prove(on, "<=0", facts) is not None:
            return sp.Integer(0)
        return node

    return pull.replace(lambda e: isinstance(e, sp.Max), settled)


def with_facts(known: signs.Facts) -> signs.Facts:
    """`known` and this module's facts (rho on its side, u >= 0; n > 0 and beta > 0 unless `known` says more)."""
    return signs.Facts({**_FACTS.signs, **known.signs}, dict(known.shifts))


def gap_ode(pull: sp.Expr, size: sp.Expr = n) -> sp.Expr:
    """F(eps) = d eps/dt in the cluster gap eps = 1 - rho, for n = size tokens."""
    return -spread(pull, size).subs(rho, 1 - eps)


def late_rate(derivation: Derivation, pull: sp.Expr, size: sp.Expr = n) -> sp.Expr:
    """The exact asymptotic rate r = -F'(0) = n S(1) of d eps/dt = F(eps) for n = size tokens, with F(0) = 0
    and F(eps)/eps = -r + O(eps) checked; `pull` is S on the side rho > 0 (see on_side)."""
    ode = gap_ode(pull, size)
    rate = sp.expand(size * pull.subs(rho, 1))
    derivation.zero(
        "in the cluster gap eps = 1 - rho: d eps/dt = F(eps) = -eps (n - (n - 1) eps) S(1 - eps), so F(0) = 0",
        ode.subs(eps, 0),
        r"\dot\varepsilon = F(\varepsilon) = -\varepsilon\,(n-(n-1)\varepsilon)\, S(1-\varepsilon)",
    )
    derivation.zero(
        f"the exact asymptotic rate r = -F'(0) = n S(1) = {rate}",
        sp.diff(ode, eps).subs(eps, 0) + rate,
        r"r = -F'(0) = n\,S(1)",
    )
    slope = sp.diff(pull, rho).subs(rho, 1)
    derivation.holds(
        "S is differentiable at rho = 1 (its derivative there is shown defined and real by identities.signs), so "
        "F(eps)/eps = -r + O(eps)",
        signs.sign_of(slope, signs.declared_facts(slope)) is not None,
        r"F(\varepsilon)/\varepsilon = -r + O(\varepsilon)",
    )
    return rate


def increasing(pull: sp.Expr, start: sp.Expr, upward: bool) -> bool | None:
    """Whether identities.signs proves dS/drho > 0 for every rho >= start (upward) or rho <= start (start a
    rational): True, or None when it cannot."""
    if (start > 0 and upward) or (start < 0 and not upward):  # the rhos checked keep the sign of start
        pull = on_side(pull, positive=upward)
    slope = sp.diff(pull, rho).subs(rho, start + _u if upward else start - _u)
    return True if signs.prove(slope, ">0", _FACTS) is not None else None


def destination(derivation: Derivation, pull: sp.Expr, start: sp.Expr, size: int) -> sp.Expr | None:
    """lim eps(t) from eps0 = 1 - start for n = size tokens, derived from the sign of S(start) and the
    monotonicity of S: 0 (S(start) > 0), 1 - start (S(start) = 0, an equilibrium) or n/(n - 1)
    (S(start) < 0); None, with the failure in the derivation, when SymPy cannot decide a step."""
    value = pull.subs(rho, start)
    if is_identically_zero(value):
        derivation.zero(f"S(rho0) = 0 at rho0 = {start}: rho0 is an equilibrium, eps(t) = {1 - start} for all t", value)
        return 1 - start
    found = signs.sign_of(value, _FACTS)
    upward = True if found == signs.POSITIVE else False if found == signs.NEGATIVE else None
    if upward is not None:
        derivation.sign(
            f"S(rho0) = {value} {'>' if upward else '<'} 0 at rho0 = {start}", value, ">0" if upward else "<0", _FACTS
        )
    else:
        # A number whose sign the structural prover cannot read (terms of both signs): SymPy's numerical sign only
        # picks the branch; the caller confirms it with a ball before any verdict (claimsfile.exact_dynamics).
        upward = True if value.is_positive else False if value.is_negative else None
        if upward is None:
            derivation.holds(f"the sign of S(rho0) = {value} is decided", None)
            return None
        derivation.note(
            f"S(rho0) = {value} {'>' if upward else '<'} 0 at rho0 = {start} (branch proposed by "
            "SymPy's numerical sign; to be confirmed by a ball before any verdict)"
        )
    monotone = derivation.holds(
        f"dS/drho > 0 for every rho {'>=' if upward else '<='} rho0 (rho = rho0 {'+' if upward else '-'} u, u >= 0): "
        "each head's term has derivative beta lambda_h^2 times a positive factor",
        increasing(pull, start, upward),
        r"S'(\rho) > 0",
    )
    if not monotone:
        return None
    if upward:
        derivation.note(
            f"so S(rho) >= S(rho0) > 0 and d rho/dt > 0 on [rho0, 1): rho increases from rho0 = {start} to the "
            "only zero of (1 - rho)(1 + (n - 1) rho) S(rho) in [rho0, 1], rho = 1: eps(t) -> 0",
            r"\varepsilon(t) \to 0",
        )
        return sp.Integer(0)
    widest = sp.Rational(size, size - 1)
    derivation.note(
        f"so S(rho) <= S(rho0) < 0 and d rho/dt < 0 on (-1/(n - 1), rho0]: rho decreases from rho0 = {start} to the "
        f"only zero of (1 - rho)(1 + (n - 1) rho) S(rho) in [-1/(n - 1), rho0], rho = -1/(n - 1) (a regular "
        f"simplex): eps(t) -> n/(n - 1) = {widest}",
        r"\varepsilon(t) \to \frac{n}{n-1}",
    )
    return widest
