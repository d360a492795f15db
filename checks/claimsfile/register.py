"""Turn loaded claims into a fresh registry, so the ordinary runner and report decide and show them."""

from __future__ import annotations

from functools import partial

from certificates.claims.schema import DynamicsClaim, UserClaim, with_parts
from certificates.kernel.errors import InputError
from checks.claimsfile.deciders import DECIDERS, decide
from checks.model.families import check_sizes
from checks.registry import Registry


def register_claims(claims: list[UserClaim]) -> Registry:
    """A registry holding each user claim with the decider of its kind as its one procedure; InputError (bad input,
    before anything is decided) for a claim whose model the float evaluations cannot hold."""
    for claim in with_parts(claims):
        if isinstance(claim, DynamicsClaim):
            _check_sizes(claim)
    registry = Registry()
    for claim in claims:
        registry.declare(claim.id, claim.title, claim.statement)
        registry.procedure(claim.id, DECIDERS[claim.kind][0])(partial(decide, claim))
    return registry


def _check_sizes(claim: DynamicsClaim) -> None:
    """The claim's n, d and H within the model's array bound (`checks.model.families.check_sizes`); sizes that are
    quantified symbols are bounded by their domains."""
    sizes = {key: claim.options[key] for key in ("n", "d", "H") if isinstance(claim.options.get(key), int)}
    try:
        check_sizes(**sizes)
    except InputError as exc:
        where = f"claim {claim.id!r}" + (f" (line {claim.line})" if claim.line is not None else "")
        raise InputError(f"{where}: {exc.field}", exc.value, exc.reason) from None
