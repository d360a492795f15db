"""A certified witness of a `model` claim: exact data where the claim's negation (a universal claim's refutation) or
the claim itself (an existence claim's instance) is settled with balls.

The checker's own test (`certificates.kernel.model_values.settle`) runs at rising precision; once it settles
the sign it looks for, the witness certificate is written with the claim embedded and its statement
(`certificates.statements.model`), which `check-cert` checks the witness against
(`certificates.kernel.model_statements`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from certificates.claims.embedding import embedded
from certificates.kernel.ball_model import ExactConfiguration
from certificates.kernel.exact import precision
from certificates.kernel.model_values import settle, witnessed
from certificates.provers.witness import PRECISIONS, WitnessResult, enclosure_text, exact_record
from certificates.store import write_certificate


def certify_model_witness(claim: Any, cfg: ExactConfiguration, at: dict[str, int], directory: Path) -> WitnessResult:
    """Settle the witnessed relation (`model_values.witnessed`: the negation, or for an existence claim the relation)
    at the exact data (token and head of `at`); write the certificate when it holds."""
    settled = None
    for prec in PRECISIONS:
        with precision(prec):
            settled = settle(claim, cfg, at)
        if settled.failures:
            return WitnessResult(False, [], {}, reason="; ".join(settled.failures))
        if settled.sign:
            break
    assert settled is not None
    shown = [settled.value.str(8)]
    if not settled.sign:
        return WitnessResult(False, shown, {}, reason=f"rhs - lhs = {shown[0]} does not settle {witnessed(claim)} 0")
    record = {
        "witness": "model-configuration",
        "configuration": exact_record(cfg),
        "hypotheses": list(claim.hypotheses),
        "at": dict(sorted(at.items())),
        "prec": prec,
        "relation": settled.sign,
        "enclosure": enclosure_text(settled.value),
    }
    path = write_certificate(directory, claim.id, "witness", record, embedded(claim))
    return WitnessResult(True, shown, record, path)
