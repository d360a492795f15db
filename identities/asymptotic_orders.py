"""Orders of growth and limits of a quantity as a variable -> oo, decided from a proved bracket.

A quantity Q(v) (a clustering time, an exit gap, a closed form) is known here through a *bracket*: closed forms
lower(v) <= Q(v) <= upper(v), proved for every large enough v (lower = upper when Q has a closed form), both
positive for large v. A relation of Q with a comparison function g > 0 is then decided from the limits of
lower/g and upper/g (and of g/lower), each computed by `headflow.identities.limits.at_infinity`, the checked route
(never `sp.limit`), with every sign by `headflow.identities.signs` and every zero by `headflow.identities.zero_test`:

- `limit L` (Q/g -> L, g = 1 unless stated): both bracket limits equal (exact zero test) to a value a, then
  PROVED when a - L is identically 0 and REFUTED when a - L is proved non-zero (for every parameter, or at an
  exact parameter point); a bracket whose limits differ refutes only an L outside them.
- `Theta(g)`: lim lower/g = a > 0 (proved) and lim upper/g finite: c g <= Q <= C g for large v. REFUTED when
  lim upper/g = 0 (Q/g -> 0) or lim g/lower = 0 (Q/g -> oo).
- `O(g)`: both limits finite (|Q|/g is eventually bounded); REFUTED when lim g/lower = 0.
- `Omega(g)` (Q >= c g for large v, some c > 0): lim lower/g = a > 0 (proved), or g/lower -> 0 (Q/g -> oo);
  REFUTED when lim upper/g = 0 (Q/g -> 0, below every c > 0).
- `o(g)`: lim upper/g = 0 and lim lower/g = 0; REFUTED when lim lower/g > 0 or lim g/lower = 0.
- `~ g` (Q/g -> 1): both limits identically 1; REFUTED when the limit of upper/g is proved < 1, that of lower/g
  proved > 1, a common limit proved != 1, or g/lower -> 0.

The cited step each time is the squeeze (lower/g <= Q/g <= upper/g for large v) and "a function with a positive
(finite) limit is eventually >= half of it (bounded)". Parameters other than v are symbols with the facts of the
bracket: a statement is PROVED for all of them at once, and REFUTED when it fails for all, or at one exact point
(ball-separated by the caller's `separated`). Anything else is undecided, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import sympy as sp
from headflow.identities import limits, signs
from headflow.identities.derivation import Derivation
from headflow.identities.zero_test import is_identically_zero

RELATIONS = ("limit", "Theta", "O", "Omega", "o", "~")


@dataclass(frozen=True)
class Bracket:
    """lower <= Q <= upper for every large enough `variable`, proved in `derivation`; `facts` hold for every other
    symbol, and `form(s)` -> oo as s -> 0+ is how the variable is sent to infinity (`limits.at_infinity`)."""

    name: str
    lower: sp.Expr
    upper: sp.Expr
    variable: sp.Symbol
    facts: signs.Facts
    derivation: Derivation
    form: Callable[[sp.Symbol], sp.Expr] = lambda s: 1 / s


@dataclass
class Decision:
    """'proved', 'refuted' or 'undecided', why, and every limit computed on the way (as text)."""

    status: str
    reason: str
    shown: dict[str, str] = field(default_factory=dict)
    #: How a refutation was verified: "exact" (for every parameter), "ball" (at an exact parameter point).
    by: str = "exact"
    #: Whether |Q|/g -> oo was shown on the way (g/lower -> 0 with lower > 0 for large v).
    unbounded: bool = False


#: A caller's exact test at parameter points: a point (as text) where the expression is provably != 0, or None.
Separated = Callable[[sp.Expr], str | None]


class _Limits:
    """The limits of ratios of the bracket, computed once each and recorded as steps of the derivation."""

    def __init__(self, bracket: Bracket, reference: sp.Expr, label: str) -> None:
        self.bracket, self.reference, self.label = bracket, reference, label
        self.shown: dict[str, str] = {}
        self._cache: dict[str, tuple[sp.Expr, str] | None] = {}
        #: Whether lower > 0 for large v is proved (or Q = lower exactly): what g/lower -> 0 needs to say Q/g -> oo.
        self.lower_positive = False

    def ratio(self, of: str = "Q") -> str:
        """ "Q/g", or "Q" when g = 1."""
        return of if self.label == "1" else f"{of}/{self.label}"

    def of(self, key: str) -> sp.Expr | None:
        """lim lower/g ("lower"), lim upper/g ("upper") or lim g/lower ("inverse"), None when it does not close."""
        if key not in self._cache:
            b, g = self.bracket, self.reference
            expr = {"lower": b.lower / g, "upper": b.upper / g, "inverse": g / b.lower}[key]
            if key == "upper" and b.upper == b.lower:
                found = self.of("lower")
                self._cache[key] = self._cache["lower"]
                return found
            found = limits.at_infinity(expr, b.variable, b.facts, form=b.form)
            self._cache[key] = found
            text = {"lower": self.ratio("lower"), "upper": self.ratio("upper"), "inverse": f"{self.label}/lower"}
            if b.upper == b.lower and key != "inverse":
                text[key] = self.ratio()
            name = f"lim {text[key]} as {b.variable} -> oo"
            self.shown[name] = (
                "not established by the checked route (headflow.identities.limits)" if found is None else str(found[0])
            )
            if found is not None:  # a limit that does not close is shown, and only the rule that needs it fails
                limits.record_limit(b.derivation, name, found, found[0])
        found = self._cache[key]
        return None if found is None else found[0]


def _positive(expr: sp.Expr | None, facts: signs.Facts) -> bool:
    return expr is not None and signs.prove(expr, ">0", facts) is not None


def _zero(expr: sp.Expr | None) -> bool:
    return expr is not None and is_identically_zero(expr)


def decide(
    bracket: Bracket,
    relation: str,
    reference: sp.Expr,
    separated: Separated,
    over: sp.Expr = sp.S.One,
    label: str = "g",
) -> Decision:
    """Decide `Q relation reference` as bracket.variable -> oo (see the module docstring); for `limit`, Q/over ->
    reference. The steps are added to bracket.derivation; a failure of the bracket's own proof leaves it undecided."""
    if relation not in RELATIONS:
        raise ValueError(f"unknown relation {relation!r}")
    derivation, facts = bracket.derivation, bracket.facts
    if derivation.failures:
        return Decision("undecided", "the bracket's derivation did not close: " + "; ".join(derivation.failures))
    g = over if relation == "limit" else reference
    s = sp.Dummy("s", positive=True)
    at = facts.with_signs(positive=[s])
    if not derivation.sign(
        f"the comparison function {g} > 0 for large {bracket.variable} ({bracket.variable} = "
        f"{bracket.form(sp.Symbol('s'))}, s -> 0+)",
        g.xreplace({bracket.variable: bracket.form(s)}),
        ">0",
        at,
    ):
        return Decision("undecided", f"the comparison function {g} is not proved positive for large {bracket.variable}")
    seen = _Limits(bracket, g, label if g != 1 else "1")
    seen.lower_positive = bracket.lower == bracket.upper or _positive(
        bracket.lower.xreplace({bracket.variable: bracket.form(s)}), at
    )
    derivation.note(
        f"for large {bracket.variable}: lower/{label} <= Q/{label} <= upper/{label} ({label} > 0; squeeze) "
        "[cited: a function with a finite limit is eventually bounded, with a positive one eventually >= half of it]"
    )
    decision = _RULES[relation](seen, reference, facts, separated)
    decision.shown = seen.shown
    decision.unbounded = "inverse" in seen._cache and _faster(seen)  # never computes a limit of its own
    missing = [name for name, value in seen.shown.items() if value.startswith("not established")]
    if decision.status == "undecided" and missing:
        decision.reason += f" ({'; '.join(missing)}: not established by the checked route, identities.limits)"
    if decision.status == "proved" and derivation.failures:
        return Decision("undecided", "a step did not close: " + "; ".join(derivation.failures), seen.shown)
    return decision


def _common(seen: _Limits) -> sp.Expr | None:
    """The limit of Q/g when both bracket limits exist and are identically equal."""
    low, high = seen.of("lower"), seen.of("upper")
    return low if low is not None and high is not None and _zero(high - low) else None


def _limit(seen: _Limits, claimed: sp.Expr, facts: signs.Facts, separated: Separated) -> Decision:
    value = _common(seen)
    if value is not None:
        if _zero(value - claimed):
            return Decision("proved", f"{seen.ratio()} -> {value}, identically the claimed {claimed}")
        where = _nonzero(value - claimed, facts, separated)
        if where:
            by = "ball" if where.startswith("at ") else "exact"
            return Decision("refuted", f"{seen.ratio()} -> {value}, not {claimed}: they differ {where}", by=by)
        return Decision("undecided", f"{seen.ratio()} -> {value}; whether it equals {claimed} is not decided")
    low, high = seen.of("lower"), seen.of("upper")
    for bound, relation, side in ((low, ">0", "lower"), (high, "<0", "upper")):
        if bound is not None and signs.prove(bound - claimed, relation, facts) is not None:
            return Decision("refuted", f"the {side} bound's limit {bound} lies strictly beyond {claimed}")
    return Decision("undecided", f"the bracket's limits ({low}, {high}) do not single out the limit of {seen.ratio()}")


def _faster(seen: _Limits) -> bool:
    """g/lower -> 0 with lower > 0 for large v (or Q = lower), so |Q|/g -> oo."""
    return seen.lower_positive and _zero(seen.of("inverse"))


def _theta(seen: _Limits, reference: sp.Expr, facts: signs.Facts, separated: Separated) -> Decision:
    low, high = seen.of("lower"), seen.of("upper")
    if high is not None and _zero(high):
        return Decision(
            "refuted", f"{seen.ratio()} <= upper/{seen.label} -> 0: Q = o({reference}), no c > 0 has Q >= c g"
        )
    if _positive(low, facts) and high is not None:
        return Decision("proved", f"lower/{seen.label} -> {low} > 0 and upper/{seen.label} -> {high}, finite")
    if _faster(seen):
        return Decision("refuted", f"{seen.label}/lower -> 0: Q/{seen.label} -> oo, no C has Q <= C g")
    return Decision("undecided", f"the limits ({low}, {high}) of the bracket over {seen.label} do not settle Theta")


def _big_o(seen: _Limits, reference: sp.Expr, facts: signs.Facts, separated: Separated) -> Decision:
    low, high = seen.of("lower"), seen.of("upper")
    if low is not None and high is not None:
        return Decision("proved", f"lower/{seen.label} -> {low} and upper/{seen.label} -> {high}, both finite")
    if _faster(seen):
        return Decision("refuted", f"{seen.label}/lower -> 0: Q/{seen.label} -> oo, no C has Q <= C g")
    return Decision("undecided", f"the limits of the bracket over {seen.label} are not established")


def _big_omega(seen: _Limits, reference: sp.Expr, facts: signs.Facts, separated: Separated) -> Decision:
    low, high = seen.of("lower"), seen.of("upper")
    if high is not None and _zero(high):
        return Decision(
            "refuted",
            f"{seen.ratio()} <= upper/{seen.label} -> 0: no c > 0 has Q >= c g for large {seen.bracket.variable}",
        )
    if _positive(low, facts):
        return Decision("proved", f"{seen.ratio()} >= lower/{seen.label} -> {low} > 0")
    if _faster(seen):
        return Decision("proved", f"{seen.label}/lower -> 0: Q/{seen.label} -> oo")
    return Decision("undecided", f"the limits ({low}, {high}) of the bracket over {seen.label} do not settle Omega")


def _little_o(seen: _Limits, reference: sp.Expr, facts: signs.Facts, separated: Separated) -> Decision:
    low, high = seen.of("lower"), seen.of("upper")
    if _zero(low) and _zero(high):
        return Decision("proved", f"lower/{seen.label} and upper/{seen.label} -> 0")
    if _positive(low, facts):
        return Decision("refuted", f"{seen.ratio()} >= lower/{seen.label} -> {low} > 0: Q/{seen.label} does not -> 0")
    if _faster(seen):
        return Decision("refuted", f"{seen.label}/lower -> 0: Q/{seen.label} -> oo")
    return Decision("undecided", f"the limits ({low}, {high}) of the bracket over {seen.label} do not settle o()")


def _asymptotic(seen: _Limits, reference: sp.Expr, facts: signs.Facts, separated: Separated) -> Decision:
    value = _common(seen)
    if value is not None:
        return _limit(seen, sp.Integer(1), facts, separated)
    low, high = seen.of("lower"), seen.of("upper")
    if high is not None and signs.prove(high - 1, "<0", facts) is not None:
        return Decision("refuted", f"{seen.ratio()} <= upper/{seen.label} -> {high} < 1")
    if low is not None and signs.prove(low - 1, ">0", facts) is not None:
        return Decision("refuted", f"{seen.ratio()} >= lower/{seen.label} -> {low} > 1")
    if _faster(seen):
        return Decision("refuted", f"{seen.label}/lower -> 0: Q/{seen.label} -> oo")
    return Decision("undecided", f"the limits ({low}, {high}) of the bracket over {seen.label} do not settle ~")


def _nonzero(expr: sp.Expr, facts: signs.Facts, separated: Separated) -> str:
    """'for every parameter' (signs proves expr != 0), 'at <point>' (the caller's exact test), or ''."""
    if signs.prove(expr, "!=0", facts) is not None:
        return "for every parameter of the domain (headflow.identities.signs)"
    where = separated(expr)
    return f"at {where}" if where else ""


_RULES: dict[str, Callable[[_Limits, sp.Expr, signs.Facts, Separated], Decision]] = {
    "limit": _limit,
    "Theta": _theta,
    "O": _big_o,
    "Omega": _big_omega,
    "o": _little_o,
    "~": _asymptotic,
}
