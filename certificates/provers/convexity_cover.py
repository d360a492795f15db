"""The ball-cover certificate that phi is strictly convex on [u_c(n), 40]: T22's super-additivity on a sub-domain.

phi_beta(lambda) = phi_1(beta lambda)/beta, so convexity is scale-free in u = beta lambda, and phi'' = K g
with K > 0 and g = `closed_forms.lambda_c_equation`. Three facts make one certificate (the trees of the kernel's
statement of the claim, `headflow.certificates.statements.registry.convexity_parts`): g(a) < 0 at a dyadic a < u_c (ball
witness); g' > 0 on [a, b] (cover), so g has one root u_c in (a, b) and g > 0 on (u_c, b], hence phi'' > 0 there;
and phi'' > 0 on [b, 40] (cover). The float approximation of u_c only places a and b: every fact is verified.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from headflow.certificates.errors import BudgetExceeded
from headflow.certificates.kernel import registry_statements
from headflow.certificates.provers.intervals import prove
from headflow.certificates.provers.witness import settle_point
from headflow.certificates.statements import registry
from headflow.certificates.store import write_certificate

u = registry.u


#: Grid of the dyadic points a < u_c < b that bracket lambda_c.
GAP = Fraction(1, 2**10)


def certify_convexity(
    claim_id: str, tokens: int, root: float, directory: Path, seconds_left: Callable[[], float]
) -> tuple[str, dict[str, object]]:
    """One certificate that phi is strictly convex on [u_c(n), 40] (u_c the root of g, `root` a float
    approximation of it), written under `claim_id`, and its ranges; BudgetExceeded when a fact is not settled
    or `seconds_left()` (the caller's --timeout) has run out before a cover."""
    a, b = Fraction(math.floor(root / GAP) - 1) * GAP, Fraction(math.ceil(root / GAP) + 1) * GAP
    statement = registry_statements.expected(claim_id, {"n": str(tokens)})
    facts = {name: (part["expression"], part["relation"]) for name, part in statement["parts"].items()}
    g, below_relation = facts["g-below"]
    below = settle_point([("g(a) < 0", g, below_relation)], {u: a})
    if not below.verified:
        raise BudgetExceeded(f"n={tokens}: g({a}) < 0 not settled by balls")
    parts: dict[str, object] = {"g-below": below.record}
    ranges: dict[str, object] = {"a": str(a), "b": str(b), "phi''/g": str(registry.convexity_factor())}
    for name, lo, hi in (("g-rising", a, b), ("convex", b, registry.CONVEX_U_MAX)):
        if seconds_left() <= 0:
            raise BudgetExceeded("time budget exhausted")
        expr, relation = facts[name]
        result = prove(expr, relation, {u: (lo, hi)})  # the box budget, counted: the same cover on any machine
        if result.status != "proved":
            raise BudgetExceeded(f"n={tokens}: {name} on [{lo}, {hi}]: {result.status}: {result.reason}")
        parts[name] = result.payload
        ranges[f"{name} boxes"] = result.leaves
    payload = {"a": str(a), "b": str(b), "parts": parts}  # n is the statement's
    return str(write_certificate(directory, claim_id, "convexity", payload, statement=statement)), ranges
