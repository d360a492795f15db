"""Certificates of kind `sums` for `model` claims proved for every n, d, H: the terms an inequality's sides differ by.

The statement is a universal model claim's own, the universal statement that denies a false existence claim
(`statements.model.zero_denial`), or an invariant region's bound at every configuration (`statements.pointwise.
bound_proof`, under the dynamics claim's id). The kernel (`certificates.kernel.model_sums`) expands both sides into
its normal form of sums and checks that they are equal, or differ by sum_k c_k N_k with each c_k >= 0 on the sizes'
ranges and each N_k >= 0 by its shape or by its definition. An
equality needs no terms. For an inequality this module proposes one term: a part N of the claim's sides that is >= 0
by its shape, the spread sum_i sum_j (q_i - q_j)^2 of a token sum sum_i q_i the sides hold (Cauchy-Schwarz over
the tokens), or the squared norm of a vector the sides hold or of its sum over the tokens or the heads (|sum_i x_i|^2),
times the size polynomial c by which the sides' difference is c N in the normal form, if there is one.
A proposal is only a proposal: the certificate is written after the kernel's own check accepts it.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.schema import DynamicsClaim, ModelClaim
from headflow.certificates.kernel import model_sums
from headflow.certificates.kernel.model_statements import statement_of, term_of
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.statements.model import elaborate
from headflow.certificates.statements.pointwise import bound_proof
from headflow.certificates.store import write_certificate

KIND = "sums"
#: The most ways of taking parts off the sides' difference tried (`_starts`).
MOST_STARTS = 16


def certify_model(claim: ModelClaim, directory: Path) -> Path | None:
    """The `sums` certificate of a universal model claim, or of the universal statement that denies a false existence
    claim (`statements.model.zero_denial`), after the kernel's check accepted it; None when no proposal passes it (or
    the claim is outside the normal form)."""
    statement = elaborate(claim, KIND, {})
    return None if statement is None else certify(statement, directory, embedded(claim))


def certify_region(claim: DynamicsClaim, directory: Path) -> Path | None:
    """The `sums` certificate of an invariant region's bound (q >= c at every configuration: `pointwise.bound_proof`,
    the statement `check-cert --claims` elaborates again) under the dynamics claim's id; None when there is none."""
    statement = bound_proof(claim)
    return None if statement is None else certify(statement, directory, embedded(claim))


def certify(statement: dict[str, Any], directory: Path, claim: dict[str, Any]) -> Path | None:
    """The certificate of a model statement with the first proposal the kernel's check accepts; None: none does."""
    for terms in proposals(statement):
        try:
            model_sums.check(statement, statement["claim"], {"terms": terms})
        except Rejected:
            continue
        return write_certificate(directory, statement["claim"], KIND, {"terms": terms}, claim, statement)
    return None


def proposals(statement: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The payloads to try: none for an equality; for an inequality one term c N for each candidate N whose
    multiple the sides' difference is (`_multiple`), then the same for what is left of it once parts are taken off
    (`_starts`: `given` conditions' margins and the other heads' bounds, each a multiple that matches one of its
    monomials)."""
    relation = statement["relation"]
    if relation["op"] == "=":
        return [[]]
    try:
        claim = statement_of(statement, statement["claim"])
        expansion, difference = model_sums.difference(claim)
        difference = expansion.canonical(difference)
    except Rejected:
        return []
    cross_trees = model_sums.cross_trees(claim)
    cross = tuple(map(term_of, cross_trees))
    found = []
    bounds = [tree for c in cross_trees for tree in (c, ["sum_i", c])]
    candidates = _candidates(relation["lhs"]) + _candidates(relation["rhs"]) + bounds
    parts = [m for g in statement["given"] for m in _margins(g)] + bounds
    for residual, taken in _starts(expansion, difference, parts):
        if not residual:
            found.append(taken)
            continue
        for candidate in candidates:
            try:
                term = term_of(candidate)
                if not model_sums.nonnegative(term, cross):
                    continue
                coefficient = _multiple(residual, expansion.canonical(expansion.term(term, model_sums.FREE)))
            except Rejected:
                continue
            if coefficient is not None:
                found.append([*taken, _item(coefficient, candidate)])
    return [payload for k, payload in enumerate(found) if payload not in found[:k]]  # each once


def _starts(
    expansion: model_sums.Expansion, difference: model_sums.Form, parts: list[list[Any]]
) -> list[tuple[model_sums.Form, list[dict[str, Any]]]]:
    """(what is left of the difference, the items taken off) for the difference itself, then for each part in turn
    taken off (`_taken_off`) what each earlier start left, where it matches: at most MOST_STARTS, fewest parts
    first."""
    starts: list[tuple[model_sums.Form, list[dict[str, Any]]]] = [(difference, [])]
    for part in parts:
        try:
            form = expansion.canonical(expansion.term(term_of(part), model_sums.FREE))
        except Rejected:
            continue
        for residual, taken in list(starts):
            left = _taken_off(expansion, residual, part, form) if residual else None
            if left is not None and len(starts) < MOST_STARTS:
                starts.append((left[0], [*taken, *left[1]]))
    return sorted(starts, key=lambda start: len(start[1]))


def _margins(given: dict[str, Any]) -> list[list[Any]]:
    """A given condition's margin (`model_sums.margins`), and its sum over the tokens."""
    sides = [given["lhs"], given["rhs"]] if given["op"] in (">=", ">") else [given["rhs"], given["lhs"]]
    return [["-", *sides], ["sum_i", ["-", *sides]]]


def _taken_off(
    expansion: model_sums.Expansion, difference: model_sums.Form, margin: list[Any], part: model_sums.Form
) -> tuple[model_sums.Form, list[dict[str, Any]]] | None:
    """(the difference less c m, [the item c m]) for the part m (the tree `margin`, its normal form `part`) and the
    multiple c > 0 (a monomial of the sizes) that matches the first of its monomials found once in the difference;
    None when there is none."""
    found = None
    for (exponents, atoms, basis), q in part.items():
        matches = [(e, c / q) for (e, a, b), c in difference.items() if (a, b) == (atoms, basis)]
        if len(matches) == 1 and matches[0][1] > 0:
            found = tuple(x - y for x, y in zip(matches[0][0], exponents, strict=True)), matches[0][1]
            break
    if found is None:
        return None
    shift, ratio = found
    c = {shift: ratio}
    scaled = {(_plus(e, shift), a, b): v * c[shift] for (e, a, b), v in part.items()}
    left = expansion.canonical(model_sums.added(difference, scaled, -1))
    lowest = tuple(max(0, -x) for x in shift)
    return left, [_item(({_plus(shift, lowest): c[shift]}, lowest), margin)]


def _plus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _item(coefficient: tuple[dict[tuple[int, ...], Fraction], tuple[int, ...]], tree: list[Any]) -> dict[str, Any]:
    """The payload item c N / s^e of a `_multiple` answer (c, e) and the term N."""
    return {"coefficient": _polynomial(coefficient[0]), "term": _divided(tree, coefficient[1])}


def _divided(tree: list[Any], exponents: tuple[int, ...]) -> list[Any]:
    """The tree over n^a d^b H^c beta^e (itself when every exponent is 0)."""
    divisor = _polynomial({exponents: Fraction(1)})
    return tree if divisor == ["num", "1"] else ["/", tree, divisor]


def _candidates(tree: list[Any]) -> list[list[Any]]:
    """The subterms of a side, the spread sum_i sum_j (q_i - q_j)^2 of each sum_i(q) whose q names no j, and the
    squared norm of each vector subterm and of its sum over the tokens (the heads) where it names i (h)."""
    found = [tree]
    q_j = _at_j(tree[1]) if tree[0] == "sum_i" else None
    if q_j is not None:
        found.append(["sum_i", ["sum_j", ["pow", ["-", tree[1], q_j], 2]]])
    try:
        term = term_of(tree, None)
    except Rejected:
        term = None
    if term is not None and term.vector:
        found += [["norm2", tree]] + [["norm2", [f"sum_{k}", tree]] for k in "ih" if k in term.free]
    for part in tree[1:]:
        if isinstance(part, list):
            found += _candidates(part)
    return found


def _at_j(tree: Any) -> Any:
    """The term with token i read at j (its names' i segments), None where it names j already."""
    if not isinstance(tree, list):
        return tree
    if tree[0] == "sum_j" or (tree[0] == "name" and "j" in tree[1].split("_")[-1]):
        return None
    if tree[0] == "name":
        first, *rest = tree[1].split("_")
        return ["name", "_".join([first, *("j" if part == "i" else part for part in rest)])]
    parts = [_at_j(part) for part in tree]
    return None if any(p is None for p in parts) else parts


def _multiple(
    difference: model_sums.Form, part: model_sums.Form
) -> tuple[dict[tuple[int, ...], Fraction], tuple[int, ...]] | None:
    """(c, e) with difference = c part / s^e in the normal form, c a size polynomial and s^e = n^a d^b H^c beta^e the
    least monomial that makes it one; else None. c is read off the atoms of `part` with fewest monomials (one: the
    quotient; several: the ratio of one monomial's coefficients, a number), then checked on all of them."""
    groups, targets = _by_atoms(part), _by_atoms(difference)
    if not groups or set(targets) != set(groups):
        return None
    key = min(groups, key=lambda k: len(groups[k]))
    (shift, p), *others = groups[key].items()
    target = targets[key]
    if others:
        c = {(0,) * len(shift): target.get(shift, Fraction(0)) / p}
    else:
        c = {tuple(a - b for a, b in zip(e, shift, strict=True)): q / p for e, q in target.items()}
    if any(_product(c, groups[k]) != targets[k] for k in groups):
        return None
    lowest = tuple(max(0, -min(e[k] for e in c)) for k in range(len(model_sums.SIZES)))
    return {tuple(a + b for a, b in zip(e, lowest, strict=True)): q for e, q in c.items() if q}, lowest


def _by_atoms(form: model_sums.Form) -> dict[Any, dict[tuple[int, ...], Fraction]]:
    """The form as a size polynomial (exponents: coefficient) per atoms and basis vector."""
    found: dict[Any, dict[tuple[int, ...], Fraction]] = {}
    for (exponents, atoms, basis), q in form.items():
        found.setdefault((atoms, basis), {})[exponents] = q
    return found


def _product(a: dict[tuple[int, ...], Fraction], b: dict[tuple[int, ...], Fraction]) -> dict[tuple[int, ...], Fraction]:
    """The product of two size polynomials, zero terms left out."""
    found: dict[tuple[int, ...], Fraction] = {}
    for (ea, qa), (eb, qb) in itertools.product(a.items(), b.items()):
        e = tuple(x + y for x, y in zip(ea, eb, strict=True))
        found[e] = found.get(e, Fraction(0)) + qa * qb
    return {e: q for e, q in found.items() if q}


def _polynomial(coefficients: dict[tuple[int, ...], Fraction]) -> list[Any]:
    """The term tree of sum q n^a d^b H^c beta^e."""
    terms: list[Any] = []
    for exponents, q in sorted(coefficients.items()):
        term: list[Any] = ["num", str(q)]
        for size, e in zip(model_sums.SIZES, exponents, strict=True):
            if e:
                term = ["*", term, ["pow", ["name", size], e]]
        terms.append(term)
    total = terms[0]
    for term in terms[1:]:
        total = ["+", total, term]
    return total
