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
    multiple the sides' difference is (`_multiple`)."""
    relation = statement["relation"]
    if relation["op"] == "=":
        return [[]]
    try:
        expansion, difference = model_sums.difference(statement_of(statement, statement["claim"]))
        difference = expansion.canonical(difference)
    except Rejected:
        return []
    found = []
    for candidate in _candidates(relation["lhs"]) + _candidates(relation["rhs"]):
        try:
            term = term_of(candidate)
            if not model_sums.nonnegative(term):
                continue
            coefficient = _multiple(difference, expansion.canonical(expansion.term(term, model_sums.FREE)))
        except Rejected:
            continue
        if coefficient is not None:
            found.append([{"coefficient": coefficient, "term": candidate}])
    return found


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


def _multiple(difference: model_sums.Form, part: model_sums.Form) -> list[Any] | None:
    """The size polynomial c (a term tree) with difference = c part in the normal form, when every monomial of
    `part` has its own atoms (one power of the sizes per atoms) and c is the same for all; else None."""
    by_atoms: dict[Any, tuple[tuple[int, ...], Fraction]] = {}
    for (exponents, atoms, basis), q in part.items():
        if (atoms, basis) in by_atoms:
            return None
        by_atoms[atoms, basis] = exponents, q
    quotients: dict[Any, dict[tuple[int, ...], Fraction]] = {key: {} for key in by_atoms}
    for (exponents, atoms, basis), q in difference.items():
        if (atoms, basis) not in by_atoms:
            return None
        shift, p = by_atoms[atoms, basis]
        quotients[atoms, basis][tuple(a - b for a, b in zip(exponents, shift, strict=True))] = q / p
    values = list(quotients.values())
    if not values or any(v != values[0] for v in values) or any(min(e) < 0 for e in values[0]):
        return None
    return _polynomial(values[0]) if values[0] else None


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
