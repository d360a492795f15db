"""What a certificate of a `model` claim must establish, re-derived from the embedded claim: a witness configuration.

A universal model claim is PROVED symbolically (no certificate) or REFUTED by a witness; an existence claim
(`exists = true`) is CERTIFIED by one. The witness is exact data (rational unit tokens, rational heads and beta) of
the claim's attention kind and geometry with exactly the claim's hypotheses, at which every `given` condition holds
at every token and `rhs - lhs` has the sign that negates the relation (universal) or states it (existence), at the
token and head the witness names (balls, `certificates.kernel.claims.model_values.settle`). Which of the two the
certificate shows follows from the embedded claim's `exists`, never from the certificate; an existence claim of an
equality has an exact witness instead (`certificates.kernel.claims.exact_witness`). The sides, the conditions
and the hypotheses come from the parsed claim; what is printed is rendered from the terms.
"""

from __future__ import annotations

from typing import Any

from certificates.kernel import ball_model, recheck
from certificates.kernel.claims import exact_witness
from certificates.kernel.claims.model_terms import term_text
from certificates.kernel.claims.model_values import settle, witnessed
from certificates.kernel.exact import SETTLING, precision
from certificates.kernel.masks import mask_text
from certificates.kernel.recheck import Rejected

KEYS = {"witness", "configuration", "hypotheses", "at", "prec", "relation", "enclosure"}


def check(claim: Any, kind: str, payload: dict[str, Any]) -> tuple[str, str]:
    """(what the witness refutes or establishes, how it was re-checked); Rejected when it is not a witness of the
    claim's negation (universal claim) or of the claim (existence claim)."""
    if claim.exists and claim.relation.op == "=":  # an equality: only an exact witness shows it
        return exact_witness.check(claim, kind, payload)
    if kind != "witness":
        raise Rejected(f"a model claim's certificate is a witness, not {kind}")
    recheck.require_keys(payload, KEYS, "model witness")
    if payload["witness"] != "model-configuration":
        raise Rejected("a model claim's witness is a model-configuration")
    if payload["hypotheses"] != list(claim.hypotheses):
        raise Rejected(f"the witness states hypotheses other than the claim's ({', '.join(claim.hypotheses)})")
    at = payload["at"]
    if not isinstance(at, dict) or any(not isinstance(v, int) or isinstance(v, bool) for v in at.values()):
        raise Rejected("`at` names the token i and head h as integers")
    relation = payload["relation"]
    wanted = witnessed(claim)
    if relation not in SETTLING[wanted]:
        what = "state" if claim.exists else "negate"
        raise Rejected(f"relation {str(relation)[:20]!r} does not {what} {claim.relation.op}")
    cfg = witness_configuration(claim, payload)
    with precision(recheck.recorded_precision(payload)):
        settled = settle(claim, cfg, dict(at))
        if settled.failures:
            raise Rejected(f"not a witness of {claim.id!r}: {'; '.join(settled.failures)}")
        recheck.check_enclosure(settled.value, payload["enclosure"], relation, "rhs - lhs")
    statement = f"{term_text(claim.relation.lhs)} {claim.relation.op} {term_text(claim.relation.rhs)}"
    given = " and ".join(f"{term_text(g.lhs)} {g.op} {term_text(g.rhs)}" for g in claim.given)
    where = ", ".join(f"{k} = {v}" for k, v in sorted(at.items()))
    verb, outcome = ("proves", "holds") if claim.exists else ("refutes", "fails")
    proved = (
        f"{verb} claims-file claim {claim.id!r} ({claim.attention}, {claim.geometry}{_options_text(claim)}; "
        f"{', '.join(claim.hypotheses) or 'no hypothesis'}{'; given ' + given if given else ''}"
        f"{'; ' + claim.sizes.text(claim.beta_sign == 'negative') if claim.sizes.restricted else ''}"
        f"{'; phi(s) = ' + claim.interaction.text if claim.interaction is not None else ''}): "
        f"{statement} {outcome} at an exact configuration{' at ' + where if where else ''}"
        f"{' (some configuration satisfies it)' if claim.exists else ''}"
    )
    how = (
        f"exact data n = {cfg.n}, d = {len(cfg.tokens[0])}, H = {len(cfg.score_matrices)}, beta = {cfg.beta}: "
        f"hypotheses checked exactly, rhs - lhs = {settled.value.str(6)} {relation} 0 (balls)"
    )
    return proved, how


def witness_configuration(claim: Any, payload: dict[str, Any]) -> ball_model.ExactConfiguration:
    """The exact configuration of a model claim's witness, with the claim's own interaction, mask and sign of beta
    (what the checker re-checks and what the Coq statement is written at)."""
    negative, masked = claim.beta_sign == "negative", claim.mask != "none"
    return recheck.exact_configuration(
        payload["configuration"], claim.interaction, negative_beta=negative, masked=masked
    )


def _options_text(claim: Any) -> str:
    """The claim's model options beyond the paper, as check-cert prints them ("" for the paper's model)."""
    parts = [
        "beta < 0" if claim.beta_sign == "negative" else "",
        mask_text(claim.mask, claim.mask_rows),
        "first token" if claim.token == "first" else "",
    ]
    return "".join(f", {part}" for part in parts if part)
