"""Elaboration of a claims-file `equilibrium` claim, at the instance its certificate names, into the kernel's explicit
`equilibrium` statement (`headflow.certificates.kernel.equilibrium_statements`).

The certificate's payload names the instance (`instance`: n, d, kind, beta, the strengths lambda_h and the antipodal
split); the elaboration checks that it is an instance of the claim's domain (`certificates.claims.regimes.outside`)
and writes the regime's configuration there as exact data: the heads by coordinate blocks, the block Gram matrices
(null for `found`: the certificate's own equilibrium), and the counts of the spectrum the certificate states (null
for a witness that the configuration moves). The kernel checks that statement and prints it; `check-cert --claims`
repeats this elaboration from the user's file and refuses a certificate whose statement differs, which is what ties
the concrete statement to the claim's regime and domain.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from headflow.certificates.claims import regimes
from headflow.certificates.claims.regimes import Instance, clusters_gram
from headflow.certificates.claims.schema import EquilibriumClaim
from headflow.certificates.kernel.equilibrium_statements import AT_REST
from headflow.certificates.kernel.exprtree import TreeError, parse_rational, rational_text
from headflow.certificates.kernel.recheck import exact_configuration


def instance_record(inst: Instance) -> dict[str, Any]:
    """The instance as certificate data (rationals as exact text), as `instance_of` reads it back."""
    strengths = [rational_text(v) for v in inst.strengths]
    fields = {"n": inst.n, "d": inst.d, "attention": inst.attention, "beta": rational_text(inst.beta)}
    return fields | {"strengths": strengths, "split": list(inst.split)}


def instance_of(record: object) -> Instance | None:
    """The instance a payload names (None when malformed)."""
    if not isinstance(record, dict) or set(record) != {"n", "d", "attention", "beta", "strengths", "split"}:
        return None
    numbers = [record["n"], record["d"], *record["split"]] if isinstance(record["split"], list) else [None]
    if not all(type(v) is int for v in numbers) or not isinstance(record["strengths"], list):
        return None
    try:
        strengths = tuple(parse_rational(v) for v in record["strengths"])
        beta = parse_rational(record["beta"])
    except TreeError:
        return None
    return Instance(record["n"], record["d"], str(record["attention"]), beta, strengths, tuple(record["split"]))


def _text(rows: Any) -> Any:
    """Nested lists of rationals as exact texts."""
    return [_text(row) for row in rows] if isinstance(rows, list) else rational_text(Fraction(rows))


def explicit(claim_id: str, inst: Instance, blocks: list[range], heads: tuple[Any, Any], grams: Any) -> dict[str, Any]:
    """The kernel's statement of these heads by blocks (m_hb, w_hb) and block Gram matrices (None: the certificate's
    own equilibrium) at the instance's sizes, kind and beta; its spectrum is filled in by the caller."""
    return {
        "form": "equilibrium",
        "claim": claim_id,
        "attention": inst.attention,
        "beta": rational_text(inst.beta),
        "n": inst.n,
        "blocks": [len(b) for b in blocks],
        "scores": _text(heads[0]),
        "values": _text(heads[1]),
        "grams": None if grams is None else _text(grams),
        "spectrum": None,
    }


def statement_at(claim: Any, inst: Instance, spectrum: dict[str, int] | None) -> dict[str, Any]:
    """The kernel's statement of the claim's regime at the instance (an instance of its domain)."""
    heads, grams = regimes.head_strengths(claim, inst), regimes.block_grams(claim, inst)
    return explicit(claim.id, inst, regimes.blocks(claim, inst), heads, grams) | {"spectrum": spectrum}


def _unit(token: list[Fraction]) -> list[Fraction] | None:
    """token / |token| when its norm is rational (None otherwise)."""
    square = sum((v * v for v in token), Fraction(0))
    root = Fraction(math.isqrt(square.numerator), math.isqrt(square.denominator))
    return [v / root for v in token] if root * root == square else None


def registry_statement(claim_id: str, regime: str, payload: dict[str, Any]) -> dict[str, Any] | None:
    """The statement of a certificate of a registry equilibrium claim (`critical-points*`, its regime from the kernel's
    table), read off the payload: the heads by blocks (one block when every M_h is scalar, else head h on its own
    block of `regimes.head_blocks`), the regime's Gram matrix (for `orthogonal-subspaces` the block Gram matrices of
    the centre's normalized tokens; none for `found`) and the counts the payload states. None when the payload has no
    such configuration. Not trusted: the kernel holds the statement to the claim's regime (`registry_failure`) and
    the payload to the statement."""
    try:
        cfg = exact_configuration(payload["configuration"])
    except (KeyError, TypeError, ValueError):
        return None
    n, d, H = cfg.n, len(cfg.tokens[0]), len(cfg.score_matrices)
    scalar = all([[M[0][0] * (i == j) for j in range(d)] for i in range(d)] == M for M in cfg.score_matrices)
    blocks = [range(d)] if scalar else regimes.head_blocks(H, d)
    grams = {"single-cluster": [clusters_gram([n])], "simplex": [clusters_gram([1] * n)]}.get(regime)
    if regime == "orthogonal-subspaces":
        units = [_unit(x) for x in cfg.tokens]
        if None in units:
            return None
        grams = [[[sum(x[a] * y[a] for a in b) for y in units] for x in units] for b in blocks]  # type: ignore[index]
    if not 1 <= H <= d:
        return None
    heads = tuple([[M[b.start][b.start] for b in blocks] for M in Ms] for Ms in (cfg.score_matrices, cfg.values))
    inst = Instance(n, d, cfg.attention, cfg.beta, ())
    return explicit(claim_id, inst, blocks, heads, grams) | {"spectrum": payload.get("spectrum")}


def on_circle(claim: EquilibriumClaim, inst: Instance) -> bool:
    """Whether the regime at the instance is n equally spaced tokens on the circle under scalar heads whose values
    are their scores (the simplex at d = 2): the kernel's `circulant` form."""
    aligned = claim.value_strengths is None or claim.value_strengths == claim.strengths
    return claim.regime == "simplex" and claim.heads == "scalar" and aligned and inst.d == 2


def circulant_statement(claim_id: str, inst: Instance, spectrum: Any) -> dict[str, Any]:
    """The kernel's `circulant` statement at the instance (its spectrum the certificate's)."""
    fields = {"attention": inst.attention, "n": inst.n, "beta": rational_text(inst.beta)}
    return {
        "form": "circulant",
        "claim": claim_id,
        **fields,
        "strengths": [rational_text(v) for v in inst.strengths],
    } | {"spectrum": spectrum}


def elaborate(claim: EquilibriumClaim, kind: str, payload: dict[str, Any]) -> dict[str, Any] | None:
    """The statement of a certificate of the claim (None when its payload names no instance of the claim's domain,
    or its kind is not the claim's: the kernel rejects a certificate without a statement); a spectrum of equally
    spaced tokens on the circle is a `circulant` certificate."""
    spectral = claim.property in regimes.SPECTRAL
    inst = instance_of(payload.get("instance"))
    circulant = kind == "circulant" and spectral and inst is not None and on_circle(claim, inst)
    if inst is None or (kind != ("equilibrium" if spectral else "witness") and not circulant):
        return None
    try:
        if regimes.outside(claim, inst) is not None:
            return None
    except ValueError:  # rho is not rational at the instance's n
        return None
    if circulant:
        return circulant_statement(claim.id, inst, payload.get("spectrum"))
    resting = payload.get("witness") == AT_REST  # a witness that every velocity is 0, else that a token moves
    return statement_at(claim, inst, payload.get("spectrum") if spectral else AT_REST if resting else None)
