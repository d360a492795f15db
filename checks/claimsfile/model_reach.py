"""How far a `model` claim's search reached into the claim's domain: what a CONFIRMED needs besides no violation.

A model claim speaks of every size and every configuration its hypotheses allow; the float search
(`checks.evidence.model_witnesses`) draws only some of them: n, d and H up to what a certificate holds, beta in a
bounded range, and heads of a bounded scale (scalar strengths up to |beta| lambda_h = 50:
`adversarial.MAX_SCALED_STRENGTH`). A claim whose domain reaches past the draws (a size range with
no end, or whose ends were not both drawn; beta unbounded where the claim depends on it; head quantities, whose
scale is unbounded) is not CONFIRMED by finding nothing there: `unreached` says what was not reached, and the claim is
INCONCLUSIVE with it (issue 39: `log(Z_h_i) <= log(n) + 60` holds wherever the search looks and fails past it).
"""

from __future__ import annotations

from typing import Any

from headflow.certificates.claims.schema import ModelClaim
from headflow.certificates.kernel.model_terms import Term
from headflow.checks.evidence.adversarial import MAX_SCALED_STRENGTH, MIN_LOG_STRENGTH
from headflow.checks.evidence.model_witnesses import Draws

#: The names a claim may use without depending on the heads or on beta: the tokens, the sizes, a stated delta.
TOKEN_NAMES = frozenset({"x", "cluster_gap", "n", "d", "H", "delta"})
#: Nodes whose first argument names a model quantity (`model_terms.make`), and the head operators.
NAMED = ("vector", "scalar", "pair", "symbol")
OPERATORS = ("M_h", "W_h")


def names(claim: ModelClaim) -> frozenset[str]:
    """Every quantity, size symbol and head operator the relation and the given conditions name."""
    out: set[str] = set()

    def walk(term: Any) -> None:
        if not isinstance(term, Term):
            return
        if term.op in NAMED:
            out.add(str(term.args[0]))
        elif term.op in OPERATORS:
            out.add(term.op)
        for arg in term.args:
            walk(arg)

    for relation in (claim.relation, *claim.given):
        walk(relation.lhs)
        walk(relation.rhs)
    return frozenset(out)


def unreached(claim: ModelClaim, drawn: dict[str, list[float]]) -> list[str]:
    """What of the claim's domain the search did not reach (empty: it drew both ends of every size range, all bounded,
    and the claim depends on nothing unbounded); `drawn` holds the sizes and beta range of the configurations tested."""
    out = []
    for name in ("n", "d", "H"):
        low, high = claim.sizes.low[name], claim.sizes.high[name]
        seen = {int(v) for v in drawn.get(name, [])}
        top = max(seen, default=low)
        if high is None:
            out.append(f"{name} >= {low} has no end (the search drew {name} up to {top})")
            continue
        missing = [str(v) for v in dict.fromkeys((low, high)) if v not in seen]
        if missing:
            out.append(f"the end {name} = {' and '.join(missing)} of {claim.sizes.range_text(name)} never drawn")
    used = names(claim)
    heads = used - TOKEN_NAMES - {"beta"}
    low, high, _, _ = claim.sizes.beta
    if (heads or "beta" in used) and (claim.beta_sign == "negative" or low is None or high is None):
        span = drawn.get("beta") or []
        where = f" (the search drew beta in [{span[0]:.3g}, {span[1]:.3g}])" if span else ""
        every = "beta < 0" if claim.beta_sign == "negative" else claim.sizes.range_text("beta")
        out.append(f"every {every} has no end{where}")
    if heads:
        out.append(_scale(claim, sorted(heads)))
    return out


def _scale(claim: ModelClaim, heads: list[str]) -> str:
    """The head scale the claim speaks of and the one the search draws."""
    family = Draws.of(claim.hypotheses)
    named = ", ".join(heads[:3])
    if family.heads == "scalar":
        low = f"e^{MIN_LOG_STRENGTH:g}"
        drawn = f"{low} <= |lambda_h| <= {MAX_SCALED_STRENGTH:g} / |beta|"
        every = "every alpha" if family.identical else "every lambda_h > 0"
        return f"{named} depend on the strengths, {every}: the search draws {drawn} (no further)"
    return f"{named} depend on the heads, of every norm: the search draws them of a bounded norm"
