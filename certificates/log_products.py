"""A formula as a product of powers of its factors, for the logarithm of a product: log(rho1 sqrt d) = log rho1 +
(1/2) log d where rho1, d > 0. The SMT prover proposes it as power cuts between logarithm atoms
(`certificates.provers.smt_refinement.log_relations`) and the Coq proof poses it as an equation coqc proves
(`certificates.coq.logs`): a proposal each time, checked by the kernel and by coqc."""

from __future__ import annotations

import json
from fractions import Fraction

from headflow.certificates.kernel.exprtree import Tree

#: The exponent a node puts on its one operand (sqrt, an integer power, a rational power), or None.
_POWERS = {
    "sqrt": lambda tree: Fraction(1, 2),
    "pow": lambda tree: Fraction(tree[2]) if type(tree[2]) is int else None,
    "rpow": lambda tree: Fraction(tree[2][1]) if isinstance(tree[2], list) and tree[2][:1] == ["rat"] else None,
}


def factors(tree: Tree) -> dict[str, Fraction]:
    """The tree as a product of powers of factors through mul, div, sqrt and rational powers: each factor's json text
    -> its exponent (factors whose exponents cancel left out); {} when a factor is a number (log 2 is no atom)."""
    op = tree[0]
    if op in ("mul", "div"):
        parts = [factors(t) for t in tree[1:]]
        if not all(parts):
            return {}
        total: dict[str, Fraction] = {}
        for sign, part in zip([1] * len(parts) if op == "mul" else [1, -1], parts, strict=True):
            for key, q in part.items():
                total[key] = total.get(key, Fraction(0)) + sign * q
        return {key: q for key, q in total.items() if q}
    if op in _POWERS and len(tree) == 3 - (op == "sqrt") and (q := _POWERS[op](tree)) is not None:
        return {key: q * p for key, p in factors(tree[1]).items()}
    return {} if op == "rat" else {json.dumps(tree): Fraction(1)}


def split(tree: Tree) -> dict[str, Fraction] | None:
    """The factors of a logarithm's argument when it has more than one, or one with an exponent other than 1 (the
    logarithm then splits); None otherwise."""
    found = factors(tree)
    return found if found and (len(found) > 1 or next(iter(found.values())) != 1) else None
