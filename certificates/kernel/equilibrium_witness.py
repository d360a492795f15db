"""What an `equilibrium` claim's certificate must establish, from its statement and exact data only.

Two certificates, both tied to one instance of the claim's domain (sizes, kind, beta, heads:
`equilibrium_regimes.contains`), the domain read from the certificate's statement (`model_statements.regime_of`),
never from its description:
- a `witness` ("moving-regime"): the regime's exact configuration at that instance moves; the checker recomputes
  every velocity exactly (`equilibrium_regimes`: the Gram residuals under scalar heads, the exact model for tokens in
  coordinates) and finds a token whose velocity is not 0. It refutes a `critical-point` claim.
- an `equilibrium` certificate (the payload of the registry's `critical-points*` certificates with the instance):
  its heads, beta and kind are the instance's exactly, its centre is the regime's configuration (block Gram
  matrices equal exactly, the fixed set of its symmetries of dimension 0, so the equilibrium is the centre itself),
  and the Krawczyk and Gershgorin test re-run (`equilibrium.recheck_spectrum`) gives the counts of
  zero, negative and positive eigenvalues; the claim's property is then read off those counts. It proves the claim
  at that instance, or refutes it.
"""

from __future__ import annotations

from typing import Any

from certificates.kernel import equilibrium as eq
from certificates.kernel import equilibrium_regimes as regimes
from certificates.kernel import exact_model
from certificates.kernel import format as fmt
from certificates.kernel.ball_model import ExactConfiguration
from certificates.kernel.exp_field import ExpFieldError
from certificates.kernel.exprtree import parse_rational
from certificates.kernel.recheck import Rejected, require_keys

MOVING = "moving-regime"
INSTANCE_KEYS = {"n", "d", "attention", "beta", "strengths", "value_strengths", "heads", "split"}


def instance_from(record: object) -> regimes.Instance:
    """The instance of a certificate record (Rejected when malformed)."""
    require_keys(record, INSTANCE_KEYS, "instance")
    assert isinstance(record, dict)
    sizes = [record["n"], record["d"], *record["split"]] if isinstance(record["split"], list) else [None]
    if any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= fmt.MAX_TOKENS for v in sizes):
        raise Rejected(f"instance: n, d and the split are integers up to {fmt.MAX_TOKENS}")
    lists = record["strengths"], record["value_strengths"]
    if any(not isinstance(v, list) or not 1 <= len(v) <= 8 for v in lists):
        raise Rejected("instance: 1 to 8 strengths")
    lams, nus = (tuple(parse_rational(v) for v in values) for values in lists)
    beta, split = parse_rational(record["beta"]), tuple(record["split"])
    return regimes.Instance(
        record["n"], record["d"], str(record["attention"]), beta, lams, nus, str(record["heads"]), split
    )


def moving_token(claim: Any, inst: regimes.Instance) -> tuple[int | None, str]:
    """(the first token whose velocity is exactly non-zero, or None when every token rests; how it was computed).
    ValueError when the instance's configuration has no exact velocity here."""
    tokens = regimes.coordinate_tokens(claim, inst.n, inst.d)
    if tokens is not None:
        cfg = ExactConfiguration(tokens, *inst.matrices(), inst.beta, "sphere", inst.attention)
        try:
            velocities = exact_model.velocities(cfg)
        except ExpFieldError as exc:
            raise ValueError(str(exc)) from None
        return regimes.moving_token(velocities), "the exact model at the regime's rational tokens"
    G = regimes.regime_gram(claim, inst.n, inst.split)
    if G is None or inst.heads != "scalar":
        raise ValueError("the regime has no exact configuration under these heads")
    residuals = regimes.gram_residuals(G, inst.strengths, inst.value_strengths, inst.beta, inst.attention)
    return regimes.moving_token(residuals), "the tangent velocity in the token basis from the exact Gram matrix"


def structure_failure(claim: Any, inst: regimes.Instance, problem: eq.Problem) -> str | None:
    """Why the certified problem is not the regime at this instance (None: it is, exactly): the instance's heads,
    beta, kind and sizes, and (but for `found`: any equilibrium of the instance) a centre with the regime's block
    Gram matrices and no slice, so that the equilibrium is the centre itself."""
    scores, values = inst.matrices()
    certified = (problem.score_matrices, problem.values, problem.beta, problem.attention, problem.n, problem.d)
    if certified != (scores, values, inst.beta, inst.attention, inst.n, inst.d):
        return "the heads, beta, kind or sizes are not the instance's"
    if claim.regime == regimes.FOUND:
        return None
    if eq.slice_basis(problem):
        return "the fixed set of the symmetries has positive dimension (the equilibrium is not the centre itself)"
    blocks = regimes.head_blocks(len(inst.strengths), inst.d) if inst.heads == "orthogonal" else [range(inst.d)]
    tokens = regimes.coordinate_tokens(claim, inst.n, inst.d)
    targets = (
        regimes.block_grams(tokens, blocks) if tokens is not None else [regimes.regime_gram(claim, inst.n, inst.split)]
    )
    return regimes.same_configuration(problem.centre, blocks, targets)


def property_holds(claim: Any, zeros: int, negative: int, positive: int) -> bool:
    """The claim's spectral property, read off the decided counts (hyperbolic: a decided spectrum has no eigenvalue
    on the imaginary axis but the zeros)."""
    return {"stable": positive == 0, "unstable": positive > 0, "index": positive == claim.index}.get(
        claim.property, True
    )


def check(claim: Any, kind: str, payload: dict[str, Any]) -> tuple[str, str]:
    """(what the certificate proves or refutes, how it was re-checked); Rejected when it is not one of the claim."""
    if not isinstance(payload, dict):
        raise Rejected("the payload is a table")
    inst = instance_from(payload.get("instance"))
    outside = regimes.contains(claim, inst)
    if outside:
        raise Rejected(f"not an instance of claim {claim.id!r}: {outside}")
    if kind == "witness":
        require_keys(payload, {"witness", "instance"}, "moving regime")
        if payload["witness"] != MOVING or claim.property != "critical-point":
            raise Rejected(f"a {MOVING} witness refutes a critical-point claim")
        try:
            token, how = moving_token(claim, inst)
        except ValueError as exc:
            raise Rejected(str(exc)) from None
        if token is None:
            raise Rejected("every velocity is exactly 0 at the instance: no refutation")
        return (
            f"refutes claims-file claim {claim.id!r}: at {inst.describe()} token {token} of the regime moves",
            f"{how}: a velocity component is an exactly non-zero exponential polynomial",
        )
    if kind != "equilibrium" or claim.property not in regimes.SPECTRAL:
        raise Rejected(f"an equilibrium claim has no {kind!r} certificate of its property")
    require_keys(payload, eq.PAYLOAD_KEYS | {"instance"}, "equilibrium payload")
    problem = eq.problem_of(payload)
    wrong = structure_failure(claim, inst, problem)
    if wrong:
        raise Rejected(f"not the regime {claim.regime} at the instance: {wrong}")
    spectrum, existence = eq.recheck_spectrum(problem, payload)
    verb = "proves" if property_holds(claim, spectrum.zeros, spectrum.negative, spectrum.positive) else "refutes"
    subject = "a configuration the search found" if claim.regime == regimes.FOUND else "the regime"
    return (
        f"{verb} claims-file claim {claim.id!r} ({claim.property}) at {inst.describe()}: {subject} is an "
        f"equilibrium with {spectrum.zeros} rotation zero(s), {spectrum.negative} eigenvalue(s) with Re < 0 and "
        f"{spectrum.positive} with Re > 0",
        f"structure exact; {existence}; {spectrum.reason} (balls)",
    )
