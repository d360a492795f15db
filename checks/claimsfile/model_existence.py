"""Deciding an existence `model` claim (`exists = true`): some configuration with the hypotheses satisfies the relation.

Its verdict is the dual of the universal one. The claim is false exactly when its universal negation (every such
configuration, token and head satisfies the opposite relation) is true, and true exactly when one configuration
satisfies it. So:

- CERTIFIED by a witness: the adversarial search looks for violations of the universal negation
  (`checks.evidence.model_witnesses`), rounds the best to exact data and settles, with balls, that the claim's own
  relation holds there; the certificate embeds the existence claim and `check-cert` re-checks it from that claim;
- REFUTED when the universal negation is PROVED for all n, d, H by the symbolic reduction
  (`headflow.checks.claimsfile.model_reduction`; the witness is that proof, verified exactly, its steps in the report);
- an equality (`op = "="`) is CERTIFIED only by an exact witness and REFUTED when `lhs < rhs` or `lhs > rhs` is PROVED
  everywhere (`headflow.checks.claimsfile.equality_existence`);
- a refutation carries the `gram` certificate of a universal statement that denies the claim where the kernel's table
  lists one (the negation itself, or a bound no value of the relation meets: `statements.model.denial`);
- otherwise INCONCLUSIVE, never CONFIRMED: a float search that finds no instance, or instances no exact rounding
  settled, witnesses nothing.
"""

from __future__ import annotations

from headflow.certificates.claims.model_negation import universal_negation
from headflow.certificates.claims.schema import ModelClaim
from headflow.certificates.provers import gram_identities, model_sums
from headflow.certificates.store import certificate_directory
from headflow.checks.claimsfile.equality_existence import decide_equality_existence
from headflow.checks.claimsfile.model_reduction import METHOD, prove_model
from headflow.checks.evidence.model_witnesses import certified_outcome, search_and_certify
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

SEARCH = "adversarial float search for an instance, exact rounding, ball-verified relation"


def decide_existence(claim: ModelClaim, ctx: Context, certify: bool = True) -> Outcome:
    """The verdict of an existence model claim (see the module docstring); with `certify` False, a refutation writes
    no certificate."""
    negation = universal_negation(claim)
    if negation is None:
        decided = decide_equality_existence(claim, ctx)
        refuted = certify and decided.verdict is Verdict.REFUTED
        return with_paper_certificate(claim, decided, ctx) if refuted else decided
    derivation = prove_model(negation)
    if derivation.proved:
        refuted = Outcome(
            Verdict.REFUTED,
            METHOD,
            witness={"verified_by": "exact", "negation_proved": negation.statement},
            steps=list(derivation.steps),
            notes="the universal negation is PROVED for all n, d, H: no configuration satisfies the relation",
        )
        return with_paper_certificate(claim, refuted, ctx) if certify else refuted
    why = "; ".join(derivation.failures)
    found = search_and_certify(negation, ctx, certify_as=claim)
    details = {"search": found.evidence, "negation_not_proved": why}
    if found.certified is not None:
        notes = "an exact configuration satisfies the relation (balls); `check-cert` re-checks it from the claim"
        return certified_outcome(found, Verdict.CERTIFIED, SEARCH, details, notes)
    if found.candidates:
        reasons = "; ".join(dict.fromkeys(found.reasons)) or "no candidate could be rounded"
        searched = f"{found.candidates} float instances, none certified ({reasons})"
    else:
        searched = f"no instance in {found.evidence['evaluations']} evaluations (best margin {found.worst:.3g})"
    notes = f"no certified witness: {searched}; the universal negation is not proved ({why})"
    return Outcome(Verdict.INCONCLUSIVE, SEARCH, notes=notes, details=details)


def with_paper_certificate(claim: ModelClaim, decided: Outcome, ctx: Context) -> Outcome:
    """The outcome with the `gram` certificate of the paper's identity (or lemma) that proves it, when the kernel's
    table lists under one the claim's model statement, or, for a false existence claim, a universal statement that
    denies it (`statements.model.denial`); else with the `sums` certificate of a universal claim whose sides the
    kernel's normal form of sums shows equal or apart by terms >= 0 (`provers.model_sums`); the outcome alone
    otherwise."""
    directory = certificate_directory(ctx.certificate_dir)
    path = gram_identities.certify_model(claim, directory) or model_sums.certify_model(claim, directory)
    return decided.with_certificate(path)
