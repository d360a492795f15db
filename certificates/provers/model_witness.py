"""A certified witness of a `model` statement: exact data where the statement's negation (a universal statement's
refutation) or the statement itself (an existence statement's instance) is settled with balls.

The statement is the data a certificate carries: a claims-file model claim's (`certificates.statements.model`), a
dynamics claim's (`certificates.statements.dynamics`) or a registry claim's configuration witness's. The checker's own
test (`certificates.kernel.model_values.settle`) runs at rising precision on the kernel's reading of it; once it
settles the sign it looks for, the witness certificate is written with the claims-file claim embedded (none for the
registry), which `check-cert` checks the witness against.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from headflow.certificates.exact_records import exact_record
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.kernel.exact import precision
from headflow.certificates.kernel.model_statements import statement_of
from headflow.certificates.kernel.model_values import settle, witnessed
from headflow.certificates.provers.witness import PRECISIONS, WitnessResult, enclosure_text
from headflow.certificates.store import write_certificate


def certify_model_witness(
    statement: dict[str, Any],
    cfg: ExactConfiguration,
    at: dict[str, int],
    directory: Path,
    fields: dict[str, Any] | None,
) -> WitnessResult:
    """Settle the witnessed relation (`model_values.witnessed`: the negation, or for an existence statement the
    relation) at the exact data (token and head of `at`); write the certificate (of the claims-file claim `fields`,
    None for a registry claim) when it holds."""
    claim = statement_of(statement, statement["claim"])
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
    path = write_certificate(directory, claim.id, "witness", record, fields)
    return WitnessResult(True, shown, record, path)
