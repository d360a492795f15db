"""The exact route for the energy under the normalization schemes: PROVED non-decreasing where it is a gradient.

It applies to `energy` claims with property `non-decreasing` (the energy of all heads, not one head's) under Pre-LN,
Peri-LN, Mix-LN or nGPT, heads of a family whose every member has symmetric scores, W_h = M_h, no mask, the paper's
weights exp(beta s) with beta != 0, and usa attention (any number of heads) or softmax with one head. There
`identities.scheme_energy` derives dE/dt as a sum of terms c_k sigma_k |P⊥_{y_k} v_k|^2 >= 0 (the directions move along
the Post-LN field times the scheme's positive speed), and a PROVED verdict carries the `gram` certificate of
`lemma.scheme-energy` (`certificates.statements.model_lemmas`), whose identities the kernel and Coq re-check. Elsewhere
— several softmax heads, heads without symmetric scores, other values, a mask — the claim is false in general, and the
float search with its certified witnesses (`dynamics_decider`) decides it; this route returns None there.
"""

from __future__ import annotations

from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.families import HEAD_FAMILIES
from headflow.certificates.provers import gram_identities
from headflow.certificates.store import certificate_directory
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict, derived
from headflow.identities import scheme_energy
from headflow.identities.derivation import Derivation

METHOD = "exact: the directions follow the Post-LN field at a positive speed, and the gradient lemma (scheme_energy)"


def applies(claim: DynamicsClaim) -> bool:
    """Whether the claim is in the route's regime (module docstring)."""
    options = claim.options
    beta = options["beta"]
    return (
        claim.quantity == "energy"
        and claim.property == "non-decreasing"
        and options.get("head") is None
        and options["geometry"] in scheme_energy.SPEEDS
        and "symmetric-scores" in HEAD_FAMILIES[options["heads"]].hypotheses
        and options.get("values", "aligned") == "aligned"
        and options.get("mask") is None
        and "interaction" not in options
        and isinstance(beta, int | float)
        and beta != 0
        and (options["attention"] == "usa" or (options["attention"] == "softmax" and options["H"] == 1))
    )


def decide_scheme_energy(claim: DynamicsClaim, ctx: Context) -> Outcome | None:
    """PROVED (or INCONCLUSIVE with the step that did not close); None outside the regime."""
    if not applies(claim):
        return None
    options = claim.options
    derivation = Derivation()
    derivation.note(
        f"'energy is non-decreasing' means E(y(t)) never decreases along the {options['geometry']} flow (E of the "
        f"directions y_i = x_i/|x_i|), heads {options['heads']} (M_h symmetric, W_h = M_h), beta = {options['beta']}"
    )
    sign = "positive" if options["beta"] > 0 else "negative"
    scheme_energy.energy_rate(derivation, options["geometry"], options["attention"], options["H"], sign)
    outcome = derived(derivation, METHOD, {"geometry": options["geometry"], "heads": options["H"]})
    if outcome.verdict is not Verdict.PROVED:
        return outcome
    directory = certificate_directory(ctx.certificate_dir)
    return outcome.with_certificate(gram_identities.certify_pointwise(claim, directory))
