"""Identities of a real inner-product space of any dimension, re-checked by expanding every inner product.

A statement of form `registry` and kind `gram` (the registry's table, `registry_statements`) lists identities
`lhs = rhs` between scalar trees (`exprtree`) that may hold inner products `["inner", v, w]` of vector trees:
`["vec", name]`, `["vadd", v, ...]` (a sum) and `["vscale", a, v]` (a scalar tree a times v). The kernel expands
each inner product bilinearly into Gram symbols `g_a_b` (a <= b: the symmetry of the inner product) and replaces
those the statement's hypotheses fix (`<x, x> = 1` for each unit vector, `<a, b> = 0` for each orthogonal pair);
and those its `gram` hypotheses set to a value (`[a, b, tree]`: <a, b> = tree, a scalar tree without inner
products); then lhs - rhs must be 0 as a rational function over Q (`interaction.formal_zero`). Bilinearity, symmetry
and the hypotheses are the only facts used, and the Gram symbols are otherwise free, so an identity shown here holds
for vectors of every inner-product space, every R^d among them. An identity between vectors is stated as their inner
products with a free vector w: equal for every w, the vectors are equal (take w their difference).

One more rule, the only one that is not bilinear algebra: for each vector tree v of the statement's `zero` list, the
kernel shows <v, v> = 0 (a formal zero after the same expansion) and then replaces v by 0 v wherever the identities
hold that tree. v = 0 follows from <v, v> = 0 only in a positive-definite space, so the rule applies only to a
statement with `definite` true, whose sentence says that it assumes it (an inner product, not any symmetric bilinear
form); a statement without that flag gets no zero vector.

The Coq statement (`coq.certificate.problem`) is the same identities after this expansion, over the reals: for all
values of the Gram symbols, lhs = rhs. Coq re-checks the algebra; the expansion and the zero rule (its <v, v> = 0
included) are this module's (one definition of `inner`).
"""

import re
from typing import Any

from .interaction import formal_zero
from .recheck import Rejected, require_keys

#: A vector's name: a letter, then letters and digits (so that `g_a_b` names one pair only).
NAME = re.compile(r"[A-Za-z][A-Za-z0-9]{0,15}\Z")


def terms(vector: Any, known: dict[tuple[str, str], list[str]]) -> list[tuple[Any, str]]:
    """The vector as (coefficient tree, name) terms: its linear combination of named vectors."""
    op, parts = (vector[0], vector[1:]) if isinstance(vector, list) and vector else (None, [])
    if op == "vec" and len(parts) == 1 and NAME.match(str(parts[0])):
        return [(["rat", "1"], parts[0])]
    if op == "vadd":
        return [term for part in parts for term in terms(part, known)]
    if op == "vscale" and len(parts) == 2:
        return [(["mul", expanded(parts[0], known), c], name) for c, name in terms(parts[1], known)]
    raise Rejected(f"not a vector tree: {str(vector)[:60]}")


def expanded(tree: Any, known: dict[tuple[str, str], list[str]]) -> Any:
    """The scalar tree with every inner product replaced by its bilinear expansion in Gram symbols."""
    if isinstance(tree, list) and tree[:1] == ["inner"] and len(tree) == 3:
        left, right = terms(tree[1], known), terms(tree[2], known)
        pairs = [(a, b, tuple(sorted((p, q)))) for a, p in left for b, q in right]
        return ["add", ["rat", "0"], *(["mul", a, b, known.get(g, ["sym", f"g_{g[0]}_{g[1]}"])] for a, b, g in pairs)]
    return [expanded(part, known) for part in tree] if isinstance(tree, list) else tree


def hypotheses(statement: dict[str, Any]) -> dict[tuple[str, str], Any]:
    """The Gram entries the hypotheses fix: <x, x> = 1 for each unit x, <a, b> = 0 for each orthogonal pair, and
    <a, b> = value for each `gram` hypothesis [a, b, value]."""
    known = {(x, x): ["rat", "1"] for x in statement["unit"]}
    known |= {tuple(sorted(pair)): ["rat", "0"] for pair in statement["orthogonal"]}  # type: ignore[misc]
    return known | {tuple(sorted(entry[:2])): entry[2] for entry in statement["gram"]}  # type: ignore[misc]


def zeroed(tree: Any, vectors: list[Any]) -> Any:
    """The tree with each of `vectors` (shown to be 0) replaced by 0 times itself."""
    if tree in vectors:
        return ["vscale", ["rat", "0"], tree]
    return [zeroed(part, vectors) for part in tree] if isinstance(tree, list) else tree


def identities(statement: dict[str, Any]) -> list[tuple[Any, Any]]:
    """The statement's identities, each side expanded under the hypotheses with its zero vectors replaced by 0 times
    themselves (the trees that Coq states too); `check` shows those vectors 0 first."""
    known, pairs = hypotheses(statement), zeroed(statement["identities"], statement["zero"])
    return [(expanded(lhs, known), expanded(rhs, known)) for lhs, rhs in pairs]


def check(statement: dict[str, Any], claim_id: str, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    """Every zero vector v of the statement has <v, v> = 0 in a space the statement assumes positive-definite, and
    every identity is a formal zero after the expansion; Rejected naming the first that is not."""
    require_keys(payload, (), "the gram payload (its identities are the statement's)")
    for v in statement["zero"]:  # v = 0 from <v, v> = 0: positive-definiteness, which the statement must assume
        if statement["definite"] is not True or not formal_zero(expanded(["inner", v, v], hypotheses(statement))):
            raise Rejected(f"{claim_id}: {str(v)[:60]} = 0 is not shown (<v, v> = 0 in a positive-definite space)")
    for k, (lhs, rhs) in enumerate(identities(statement)):
        if not formal_zero(["sub", lhs, rhs]):
            raise Rejected(f"{claim_id}: identity {k + 1} does not hold as an identity of the Gram entries")
    return statement["sentence"], "inner products expanded bilinearly, each identity 0 by exact algebra over Q"
