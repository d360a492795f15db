"""The precise English statement of a claims-file `model` claim, rendered from its fields.

A claims-file claim shows its users this sentence; the certificate carries the elaborated core statement
(`headflow.certificates.statements.model`), which check-cert prints field by field as it checked it
(`headflow.certificates.kernel.model_statements.shown`), so the two read the same fields.
"""

from __future__ import annotations

from typing import Any

from headflow.certificates.claims.model_sizes import SIZE_NAMES, Sizes
from headflow.certificates.kernel.exprtree import rational_text
from headflow.certificates.kernel.masks import Mask
from headflow.certificates.kernel.model_terms import Relation
from headflow.certificates.kernel.tree_text import term_text as tree_text

#: The model names whose values are the energy (E = sum_h E_h), which Phi defines with an interaction.
ENERGIES = frozenset({"E", "E_h"})


def names_energy(claim: Any) -> bool:
    """Whether the relation or a given condition of a model claim (or statement) names the energy E or E_h."""
    return any(t.names & ENERGIES for r in (claim.relation, *claim.given) for t in (r.lhs, r.rhs))


def sizes_text(sizes: Sizes, negative_beta: bool = False) -> str:
    """`every n >= 2, d >= 1, H >= 1, beta > 0` with the claim's ranges (beta < 0 with `negative_beta`)."""
    return ", ".join("beta < 0" if negative_beta and name == "beta" else sizes.range_text(name) for name in SIZE_NAMES)


def mask_text(word: str, rows: Mask | None) -> str:
    """How statements name a model claim's mask ("" for none)."""
    if word == "given" and rows is not None:
        return f"the mask {[[int(m) for m in row] for row in rows]}"
    return "causal mask" if word == "causal" else ""


def statement_text(claim: Any) -> str:
    """The precise statement a model claim (or statement) makes, from its fields."""
    relation: Relation = claim.relation
    free = sorted(relation.free)
    # a given condition holds at every token, for the relation's head h or, when the relation names none, every head
    heads = " and every head h" if any("h" in g.free for g in claim.given) and "h" not in relation.free else ""
    kind = f"{claim.attention} attention, {claim.geometry} dynamics"
    masked = mask_text(claim.mask, claim.mask_rows)
    kind += f", {masked}" if masked else ""
    negative = claim.beta_sign == "negative"
    if claim.interaction is not None:
        weights = "phi(s_ij) / sum_k phi(s_ik)" if claim.attention == "softmax" else "phi(s_ij)"
        kind += f", weights {weights} with phi(s) = {claim.interaction.text}"
        Phi = claim.interaction.proposal() if names_energy(claim) else None
        if Phi is not None:
            kind += f", energy E_h = (1/(2 n^2)) sum_ij Phi(s_ij) with Phi(s) = {tree_text(Phi)}"
    assumed = ", ".join(claim.hypotheses) or "no further hypothesis"
    data = getattr(claim, "data", {})  # a claims-file claim fixes no data
    assumed += "".join(f"; {key} = {_text(value)}" for key, value in data.items())
    head = getattr(claim, "head", None)
    fixed = {} if head is None else {"h": f"the head h = {head}"}
    conditions = " and ".join(g.text for g in claim.given)
    if claim.exists:
        some = {"i": "the first token i" if claim.token == "first" else "a token i", "h": "a head h"} | fixed
        where = f" where {conditions} at every token i{heads}" if conditions else ""
        at = " at " + " and ".join(some[k] for k in sorted(relation.free)) if relation.free else ""
        sizes = sizes_text(claim.sizes, negative)
        return f"There are {sizes} and a configuration ({kind}; {assumed}){where} with {relation.text}{at}."
    indices = {"i": "the first token i" if claim.token == "first" else "every token i", "h": "every head h"} | fixed
    every = ", ".join([f"every {sizes_text(claim.sizes, negative)}", *(indices[k] for k in free)])
    given = f"if {conditions} at every token i{heads}, then " if conditions else ""
    return f"For {every} and every configuration ({kind}; {assumed}): {given}{relation.text}."


def _text(value: Any) -> str:
    """Exact data as text: nested lists of rationals."""
    return f"[{', '.join(map(_text, value))}]" if isinstance(value, list) else rational_text(value)
