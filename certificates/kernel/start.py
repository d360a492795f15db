"""Form `start`: a claim about the trajectory from exact unit tokens refuted by its start, t = 0, for the observables
of merges and clusters (the pairwise ones are `trajectory`'s).

The statement: `{"form": "start", "claim", "tokens": n x d exact rationals (unit), "quantity", "radius": r or null,
"k": k or null, "property": at-most | at-least | non-negative, "bound": b}`, always a refutation: the claim says the
quantity (at every time, or the trajectory's number) has the relation to b, and at t = 0, where the state is the
tokens, it has not. From the squared distances D_ij = |x_i - x_j|^2 (exact) the kernel finds the clusters at merge
radius r, the components of the graph joining D_ij <= r^2 (single linkage), and the value at the start (`value`):
`cluster_count` and `rescaled_cluster_count` (the rescaled tokens exp(-t V) x_i are the tokens at t = 0) their
number; `merge_time` 0 when there are at most n - k of them (the k-th merge has happened: the merge time is the first
time of that); `closest_pair_merges_first` 1 when a closest pair has D <= r^2 (it is the first pair within r);
`rescaled_boundary_distance` 0 (a unit token is an extreme point of the unit ball, which holds the hull: it lies on
the hull's boundary; cited). A value the start does not give (merge time, closest pair) is Rejected. The Coq
statement is the facts the graph rests on: each D_ij against r^2 as the kernel found it (`facts`), the closest
pair's D below every other, each token's norm 1.
"""

from fractions import Fraction
from typing import Any

from .exact_data import dot
from .exprtree import Tree, exact_rational, parse_rational, rational_tree as _rat
from .format import MAX_DIMENSION, MAX_TOKENS
from .recheck import Rejected, array, natural, require_keys, require_list

FORM = "start"
KEYS = {"form", "claim", "tokens", "quantity", "radius", "k", "property", "bound"}
COUNTS = ("cluster_count", "rescaled_cluster_count")
QUANTITIES = (*COUNTS, "merge_time", "closest_pair_merges_first", "rescaled_boundary_distance")


def tokens_of(statement: dict[str, Any]) -> list[list[Fraction]]:
    """The unit tokens, after checking the statement's shape (a radius for every quantity but the distance, k for
    the merge time)."""
    require_keys(statement, KEYS, f"statement of form {FORM}")
    n = len(require_list(statement["tokens"], MAX_TOKENS, "the tokens", 2))
    d = len(require_list(statement["tokens"][0], MAX_DIMENSION, "a token", 1))
    tokens = array(statement["tokens"], (n, d), "the tokens")
    quantity, radius, k = statement["quantity"], statement["radius"], statement["k"]
    if quantity not in QUANTITIES or (radius is None) != (quantity == "rescaled_boundary_distance"):
        raise Rejected(f"{FORM}: a quantity of {QUANTITIES}, with a merge radius except for the boundary distance")
    if (k is None) == (quantity == "merge_time") or (k is not None and not natural(k, 1, n - 1)):
        raise Rejected(f"{FORM}: the merge time's k in 1..n-1, and no k for another quantity")
    if any(dot(x, x) != 1 for x in tokens) or statement["property"] not in ("at-most", "at-least", "non-negative"):
        raise Rejected(f"{FORM}: unit tokens; a property at-most, at-least or non-negative")
    return tokens


def squared_distances(tokens: list[list[Fraction]]) -> dict[tuple[int, int], tuple[Tree, Fraction]]:
    """(i, j) -> (the tree of |x_i - x_j|^2, its exact value), i < j."""
    pairs = [(i, j) for i in range(len(tokens)) for j in range(i + 1, len(tokens))]
    trees = {
        p: ["add", *(["pow", ["sub", _rat(a), _rat(b)], 2] for a, b in zip(*(tokens[i] for i in p), strict=True))]
        for p in pairs
    }
    return {p: (tree, exact_rational(tree, {})) for p, tree in trees.items()}


def value(statement: dict[str, Any]) -> Fraction:
    """The quantity at t = 0 (the docstring); Rejected where the start does not give it."""
    tokens, quantity = tokens_of(statement), statement["quantity"]
    if quantity == "rescaled_boundary_distance":
        return Fraction(0)
    n, reach = len(tokens), parse_rational(statement["radius"]) ** 2
    pairs = {p: square for p, (_, square) in squared_distances(tokens).items()}
    label = list(range(n))
    for (i, j), square in pairs.items():  # union of the components of i and j
        label = [label[i] if lab == label[j] else lab for lab in label] if square <= reach else label
    count = len(set(label))
    if quantity in COUNTS:
        return Fraction(count)
    if quantity == "merge_time" and count <= n - statement["k"]:
        return Fraction(0)
    if quantity == "closest_pair_merges_first" and min(pairs.values()) <= reach:
        return Fraction(1)
    raise Rejected(f"{FORM}: the start does not give the {quantity} (not yet merged within the radius)")


def facts(statement: dict[str, Any]) -> list[Tree]:
    """Each token's norm 1, each pair's D_ij against r^2 as found, and for the closest pair its D below every other,
    as trees of rationals."""
    tokens = tokens_of(statement)
    found = [["=", ["add", *(["pow", _rat(c), 2] for c in x)], _rat(1)] for x in tokens]
    if statement["radius"] is None:
        return found
    reach, squares = parse_rational(statement["radius"]) ** 2, squared_distances(tokens)
    found += [["<=" if square <= reach else ">", tree, _rat(reach)] for tree, square in squares.values()]
    if statement["quantity"] == "closest_pair_merges_first":
        closest = min(squares.values(), key=lambda pair: pair[1])[0]
        found += [["<=", closest, tree] for tree, _ in squares.values() if tree is not closest]
    return found


def check(statement: dict[str, Any], claim_id: str, kind: str, payload: Any, seconds: float) -> tuple[str, str]:
    """The value at t = 0 against the claimed bound: the claim fails there (`seconds` unused: no solver)."""
    at_start, bound, prop = value(statement), parse_rational(statement["bound"]), statement["property"]
    if kind != FORM or payload != {}:
        raise Rejected(f"{claim_id}: a refutation at the start is a {FORM} certificate with an empty payload")
    if (at_start <= bound) if prop == "at-most" else (at_start >= bound):
        raise Rejected(f"{claim_id}: at t = 0 the {statement['quantity']} is {at_start}, which meets {prop} {bound}")
    radius = f" at merge radius {statement['radius']}" if statement["radius"] is not None else ""
    return (
        f"claims-file claim {claim_id!r}: at t = 0 the state is the {len(statement['tokens'])} given unit tokens, "
        f"where the {statement['quantity']}{radius} is {at_start} (exact rationals: the graph of |x_i - x_j| <= r, "
        f"single linkage), so the claim ({prop} {bound}) fails",
        "exact rationals",
    )
