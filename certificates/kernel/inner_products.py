"""Identities of a real inner-product space of any dimension, re-checked by expanding every inner product.

A statement of form `registry` and kind `gram` (the registry's table, `registry_statements`) lists identities
`lhs = rhs` between scalar trees (`exprtree`) that may hold inner products `["inner", v, w]` of vector trees:
`["vec", name]` (a lowercase name), `["vadd", v, ...]` (a sum), `["vscale", a, v]` (a scalar tree a times v) and
`["apply", A, v]` (a linear operator, an uppercase name, applied to a combination of named vectors). The kernel
expands each inner product bilinearly into Gram symbols `g_a_b` (a <= b: the symmetry of the inner product; `a` the
name of a named vector or of A applied to one, `Ax`) and replaces those the statement's hypotheses fix (`<x, x> = 1`
for each unit vector, `<a, b> = 0` for each orthogonal pair); and those its `gram` hypotheses set to a value (`[a, b,
tree]`: <a, b> = tree, a scalar tree without inner products); then lhs - rhs must be 0 as a rational function over Q
of the Gram symbols, the scalars and their exponentials (`interaction.formal_zero`). Of the operators, the statement
may say two things: each of `symmetric` is self-adjoint (<A u, w> = <u, A w>: the symbol is that of the form with A on
the side the order puts first), and each pair [A, B] of `annihilating`, both symmetric, has A B = 0 (<A u, B w> = <u,
A B w> = 0). Bilinearity, symmetry and the hypotheses are the only facts used, and the Gram symbols are otherwise
free, so an identity shown here holds for vectors of every inner-product space, every R^d among them. An identity
between vectors is stated as their inner products with a free vector w: equal for every w, the vectors are equal.

Two more rules make the energy's time derivative and its double sums statable:
- `["rate", a]` is d/dt of the scalar tree a while each vector x of `velocities` ([x, v]) moves with velocity v, a
  vector tree (A x with A v), and each scalar symbol s of `rates` ([s, r]) with rate r, a scalar tree (the other
  vectors and scalars and the operators constant): the chain rule over a's Gram symbols, each d/dt <p, q> = <p', q> +
  <p, q'>, and its moving scalars, after an expansion without the hypotheses (they hold at an instant, not along the
  motion; the rates' own expansion uses them: the rate is the one at that instant).
- An identity with a third entry, pairs [[a, b], ...], is summed: for every n and every sequences of vectors whose j-th
  terms are the pairs' first names and k-th terms their second names, sum_{j,k=1}^n lhs = sum_{j,k=1}^n rhs. It is
  shown by relabelling (j, k) -> (k, j): lhs + lhs' = rhs + rhs' as above, ' exchanging each pair's names (which must
  map the velocities onto themselves).

Further: for each vector tree v of the statement's `zero` list, the kernel shows <v, v> = 0 (a formal zero after the
same expansion) and then replaces v by 0 v wherever the identities hold that tree. v = 0 follows from <v, v> = 0 only
in a positive-definite space, so the rule applies only to a statement with `definite` true, whose sentence says that
it assumes it (an inner product, not any symmetric bilinear form); a statement without that flag gets no zero vector.

The Coq statement (`coq.certificate.problem`) is the same identities after this expansion, over the reals: for all
values of the Gram symbols, lhs = rhs. Coq re-checks the algebra; the expansion, the rate, the relabelling and the
zero rule (its <v, v> = 0 included) are this module's (one definition of `inner`).
"""

import json
import re
from typing import Any

from .derivatives import derivative
from .exprtree import symbols
from .interaction import formal_zero
from .recheck import Rejected, require_keys

#: A vector's name: a lowercase letter, then lowercase letters and digits (so that `g_a_b` names one pair only);
#: an operator's: uppercase letters (so that `Ax` is A applied to x and nothing else).
NAME, OPERATOR, TERM = re.compile(r"[a-z][a-z0-9]{0,15}\Z"), re.compile(r"[A-Z]{1,8}\Z"), re.compile(r"([A-Z]*)(.*)")
GRAM_SYMBOL = re.compile(r"(g_([A-Z]*[a-z][a-z0-9]*)_([A-Z]*[a-z][a-z0-9]*))")
#: What `hypotheses` makes of a statement: its keys, with `known` (the fixed Gram entries) and `velocities` a dict.
Space = dict[str, Any]


def terms(vector: Any, space: Space) -> list[tuple[Any, str]]:
    """The vector as (coefficient tree, name) terms: its linear combination of named vectors (or A of them)."""
    op, parts = (vector[0], vector[1:]) if isinstance(vector, list) and vector else (None, [])
    if op == "vec" and len(parts) == 1 and NAME.match(str(parts[0])):
        return [(["rat", "1"], parts[0])]
    if op == "vadd":
        return [term for part in parts for term in terms(part, space)]
    if op == "vscale" and len(parts) == 2:
        return [(["mul", expanded(parts[0], space), c], name) for c, name in terms(parts[1], space)]
    found = terms(parts[1], space) if op == "apply" and len(parts) == 2 and OPERATOR.match(str(parts[0])) else [(0, "")]
    if all(NAME.match(name) for _, name in found):  # an operator applied to named vectors only
        return [(c, parts[0] + name) for c, name in found]
    raise Rejected(f"not a vector tree: {str(vector)[:60]}")


def split(name: str) -> tuple[str, str]:
    """(the operator, the named vector) of a term's name: ("A", "x") for `Ax`, ("", "x") for `x`."""
    return TERM.fullmatch(name).groups()  # type: ignore[union-attr,return-value]


def entry(p: str, q: str, space: Space) -> Any:
    """<p, q> as a tree: 0 for annihilating operators, else its hypothesis' value or its Gram symbol."""
    (a, u), (b, w), symmetric = split(p), split(q), space["symmetric"]
    if {a, b} <= set(symmetric) and ([a, b] in space["annihilating"] or [b, a] in space["annihilating"]):
        return ["rat", "0"]
    forms = [(p, q)] + [(u, a + q)] * (a in symmetric and not b) + [(b + p, w)] * (b in symmetric and not a)
    g = min(tuple(sorted(form)) for form in forms)
    return space["known"].get(g, ["sym", f"g_{g[0]}_{g[1]}"])


def expanded(tree: Any, space: Space) -> Any:
    """The scalar tree with every inner product replaced by its bilinear expansion, every rate by its value."""
    if isinstance(tree, list) and tree[:1] == ["inner"] and len(tree) == 3:
        left, right = terms(tree[1], space), terms(tree[2], space)
        return ["add", ["rat", "0"], *(["mul", a, b, entry(p, q, space)] for a, p in left for b, q in right)]
    if isinstance(tree, list) and tree[:1] == ["rate"] and len(tree) == 2:
        return rate(expanded(tree[1], space | {"known": {}}), space)
    return [expanded(part, space) for part in tree] if isinstance(tree, list) else tree


def vector(name: str, moving: dict[str, Any] | None = None) -> Any:
    """The vector tree of a term's name (A x for `Ax`), or with `moving` of its velocity (0 for a fixed vector)."""
    op, base = split(name)
    tree = ["vec", base] if moving is None else moving.get(base, ["vscale", ["rat", "0"], ["vec", base]])
    return ["apply", op, tree] if op else tree


def rate(plain: Any, space: Space) -> Any:
    """d/dt of an expanded tree without hypotheses: sum over its Gram symbols g_p_q of d/dg (<p', q> + <p, q'>), and
    over its scalar symbols s of `rates` of d/ds times the rate of s."""
    v, pairs = space["velocities"], sorted(m.groups() for m in map(GRAM_SYMBOL.fullmatch, symbols(plain)) if m)
    moving = {g: ["add", ["inner", vector(p, v), vector(q)], ["inner", vector(p), vector(q, v)]] for g, p, q in pairs}
    moving |= {s: r for s, r in space["rates"].items() if s in symbols(plain)}
    found = [["mul", derivative(plain, name), expanded(dot, space)] for name, dot in sorted(moving.items())]
    return ["add", ["rat", "0"], *found]


def hypotheses(statement: dict[str, Any]) -> Space:
    """The statement's space: the Gram entries the hypotheses fix (<x, x> = 1 for each unit x, <a, b> = 0 for each
    orthogonal pair, <a, b> = value for each `gram` hypothesis [a, b, value]), its operators and its velocities."""
    known = {(x, x): ["rat", "1"] for x in statement["unit"]}
    known |= {tuple(sorted(pair)): ["rat", "0"] for pair in statement["orthogonal"]}  # type: ignore[misc]
    known |= {tuple(sorted(entry[:2])): entry[2] for entry in statement["gram"]}  # type: ignore[misc]
    return statement | {"known": known, "velocities": dict(statement["velocities"]), "rates": dict(statement["rates"])}


def replaced(tree: Any, table: dict[str, Any]) -> Any:
    """The tree with each subtree whose JSON text is a key of `table` replaced by its value."""
    if (text := json.dumps(tree)) in table:
        return table[text]
    return [replaced(part, table) for part in tree] if isinstance(tree, list) else tree


def relabelling(pairs: list[list[str]], moving: dict[str, Any]) -> dict[str, Any]:
    """The `replaced` table exchanging each pair's names (Rejected unless it maps the velocities onto themselves)."""
    sigma = {a: b for a, b in pairs} | {b: a for a, b in pairs}
    table = {json.dumps(["vec", a]): ["vec", b] for a, b in sigma.items()}
    kept = all(moving.get(sigma.get(x, x)) == replaced(v, table) for x, v in moving.items())
    if len(sigma) != 2 * len(pairs) or not kept:
        raise Rejected(f"the pairs {str(pairs)[:60]} do not relabel the vectors and their velocities together")
    return table


def identities(statement: dict[str, Any]) -> list[tuple[Any, Any]]:
    """The statement's identities, each side expanded under the hypotheses with its zero vectors replaced by 0 times
    themselves, a summed one's sides each plus its relabelling (the trees that Coq states too); `check` shows those
    vectors 0 first."""
    space, found = hypotheses(statement), []
    zero = {json.dumps(v): ["vscale", ["rat", "0"], v] for v in statement["zero"]}
    for lhs, rhs, *pairs in replaced(statement["identities"], zero):
        sigma = relabelling(pairs[0], space["velocities"]) if pairs else {}
        found.append(tuple(expanded(["add", s, replaced(s, sigma)] if pairs else s, space) for s in (lhs, rhs)))
    return found  # type: ignore[return-value]


def check(statement: dict[str, Any], claim_id: str, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    """Every zero vector v of the statement has <v, v> = 0 in a space the statement assumes positive-definite, and
    every identity is a formal zero after the expansion; Rejected naming the first that is not."""
    require_keys(payload, (), "the gram payload (its identities are the statement's)")
    for v in statement["zero"]:  # v = 0 from <v, v> = 0: positive-definiteness, which the statement must assume
        if statement["velocities"]:  # v = 0 holds at an instant: d/dt <v, w> = <v', w> need not vanish
            raise Rejected(f"{claim_id}: a zero vector in a statement with velocities")
        if statement["definite"] is not True or not formal_zero(expanded(["inner", v, v], hypotheses(statement))):
            raise Rejected(f"{claim_id}: {str(v)[:60]} = 0 is not shown (<v, v> = 0 in a positive-definite space)")
    for k, (lhs, rhs) in enumerate(identities(statement)):
        if not formal_zero(["sub", lhs, rhs]):
            raise Rejected(f"{claim_id}: identity {k + 1} does not hold as an identity of the Gram entries")
    return statement["sentence"], "inner products expanded bilinearly, each identity 0 by exact algebra over Q"
