"""Deciding a `model` claim: PROVED for all n, d, H by the symbolic reduction, REFUTED by a certified configuration,
otherwise the adversarial search's CONFIRMED (no violation found at enough configurations where the claim was
tested, enough starts whose margin is clear of its rounding error, for a strict relation none within float error
of equality, and a search that reached the whole domain: `model_reach`) or INCONCLUSIVE (a float violation that no
exact rounding settled, too little evidence, or a domain that reaches past the draws: sizes without an end, heads of
every scale).

The proof (`checks.claimsfile.model_reduction`) comes first: it is exact and general. When it does not close, the
claim may still be true (the reducible subset is small) or false: the search (`checks.evidence.model_witnesses`)
looks for a violation and certifies it with balls at exact data, in a certificate that `check-cert` re-checks from
the claim it embeds. An existence claim (`exists = true`) is decided by the dual route
(`headflow.checks.claimsfile.model_existence`).
"""

from __future__ import annotations

from headflow.checks.claimsfile.model_existence import decide_existence, with_paper_certificate
from headflow.checks.claimsfile.model_reach import unreached
from headflow.checks.claimsfile.model_reduction import METHOD, prove_model
from headflow.checks.evidence.adversarial import VIOLATION
from headflow.checks.evidence.model_witnesses import CLEAR_FACTOR, certified_outcome, search_and_certify, sizes_covered
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict, derived

SEARCH = "adversarial float search over the claim's configurations, exact rounding, ball-verified negation"
#: Fewest configurations at which the claim was actually tested (its given conditions held) for a CONFIRMED, and
#: fewest starts among them whose margin is clear of its rounding error (`model_witnesses.CLEAR_FACTOR`).
MIN_TESTED = 100
MIN_CLEAR = 100


def decide_model(claim: object, ctx: Context, search: bool = True, certify: bool = True) -> Outcome:
    """The verdict of a model claim (see the module docstring); with `search` False, only the proof (INCONCLUSIVE
    when it does not close: a caller that no witness could serve, `pointwise_route`); with `certify` False, a proof
    writes no certificate (a caller's model claim that is not in the user's file)."""
    if claim.exists:  # type: ignore[attr-defined]
        return decide_existence(claim, ctx, certify)  # type: ignore[arg-type]
    derivation = prove_model(claim)  # type: ignore[arg-type]
    if derivation.proved:
        proved = derived(derivation, METHOD)
        return with_paper_certificate(claim, proved, ctx) if certify else proved  # type: ignore[arg-type]
    if not search:
        return derived(derivation, METHOD)
    why = "; ".join(derivation.failures)
    found = search_and_certify(claim, ctx)  # type: ignore[arg-type]
    details = {"search": found.evidence, "not_proved": why}
    if found.certified is not None:
        return certified_outcome(found, Verdict.REFUTED, SEARCH, details)

    def inconclusive(reason: str) -> Outcome:
        return Outcome(Verdict.INCONCLUSIVE, SEARCH, notes=f"not proved ({why}); {reason}", details=details)

    if found.candidates:
        reasons = "; ".join(dict.fromkeys(found.reasons)) or "no candidate could be rounded"
        return inconclusive(f"{found.candidates} float violations, none certified ({reasons})")
    evaluations, tested = int(found.evidence["evaluations"]), int(found.evidence["tested"])
    if tested < MIN_TESTED:
        return inconclusive(
            f"the given conditions held at {tested} of the {evaluations} configurations tried"
            f"{_outside(found.evidence)}, too few to confirm anything"
        )
    sampled, clear = int(found.evidence["starts_tested"]), int(found.evidence["starts_clear"])
    if clear < MIN_CLEAR:
        return inconclusive(
            f"of the {sampled} starts where the claim was tested only {clear} had a margin clear of its rounding "
            f"error (more than {CLEAR_FACTOR:g} times its change at a rotated copy, which the exact model gives the "
            "same value): too few to confirm anything, float margins this near 0 are no evidence"
        )
    if claim.relation.op in ("<", ">") and found.worst <= VIOLATION:  # type: ignore[attr-defined]
        return inconclusive(
            f"the strict relation came within float error of equality (worst relative margin {found.worst:.3g}): "
            "floats cannot tell a strict claim from one that fails at equality"
        )
    beyond = unreached(claim, found.evidence["drawn"])  # type: ignore[arg-type]
    if beyond:
        return inconclusive(
            f"no violation in {evaluations} evaluations ({sizes_covered(claim)}), but the claim's domain reaches past "
            f"what the search drew: {'; '.join(beyond)}"
        )
    if found.unsettled:
        return inconclusive(f"{found.unsettled}: floats cannot sign it and balls did not settle it")
    return Outcome(
        Verdict.CONFIRMED,
        SEARCH,
        cases=max(evaluations, 1),
        worst_margin=found.worst,
        error_bound=found.worst_bound,
        tolerance=VIOLATION,
        notes=(
            f"not proved symbolically ({why}); no violation in {evaluations} evaluations ({sizes_covered(claim)}); "
            f"worst margin {found.worst:.3g}, its float error bound {found.worst_bound:.3g}; "
            f"{clear} of {sampled} starts with a margin clear of its rounding error{_settled(found.evidence)}"
        ),
        details=details,
    )


def _settled(evidence: dict) -> str:
    """ "; k margins within their float error bound, settled by balls" when the search met such margins."""
    count = int(evidence.get("within_bound", 0))
    return f"; {count} margins within their float error bound, settled by balls" if count else ""


def _outside(evidence: dict) -> str:
    """ " (k where the float model left float64)" when the search met such configurations."""
    outside = int(evidence.get("outside_float64", 0))
    return f" ({outside} where the float model left float64, e.g. an interaction's overflow)" if outside else ""
