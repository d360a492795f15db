"""The witness pipeline: float candidates -> exact data -> a ball-verified negative rate -> a certificate.

A float search (`checks.evidence.adversarial` through `checks.model.field`) proposes states where a rate came out
negative, most negative first. The first CANDIDATES_TRIED are rounded to exact data that keep the claim's hypotheses
(the caller's rounding, built on `headflow.certificates.provers.witness.round_configuration`), and
`certificates.provers.model_witness.certify_model_witness` checks the hypotheses exactly, settles `rate < 0` with balls
(the witness of the `model` statement `rate >= 0` over the family) and writes the certificate. Only a ball-verified rate
is a witness: a float candidate alone never is. Used by T11.hypotheses and T17.shadow-obstruction
(`checks.evidence.energy_witnesses`), the T27 readings (`checks.evidence.entropy_witnesses`) and the claims-file
dynamics decider.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.provers.model_witness import certify_model_witness
from headflow.certificates.provers.witness import WitnessResult
from headflow.certificates.store import certificate_directory
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context

#: How many of a search's most negative candidates are rounded and tried.
CANDIDATES_TRIED = 5


class Candidate(NamedTuple):
    """A float state with a negative rate: its relative float rate, the state, and the rate's head and token."""

    score: float
    cfg: Configuration
    head: int | None = None
    token: int | None = None


@dataclass(frozen=True)
class Certified:
    """The candidate that became a witness, its exact data, and the ball verification (with the certificate)."""

    candidate: Candidate
    exact: ExactConfiguration
    result: WitnessResult

    def record(self, quantity: str) -> dict[str, Any]:
        """The witness as reports show it: exact sizes and beta, the rate's ball and its float estimate."""
        return {
            "verified_by": "ball",
            "n": self.exact.n,
            "d": len(self.exact.tokens[0]),
            "H": len(self.exact.score_matrices),
            "beta": str(self.exact.beta),
            "quantity": quantity,
            "ball": self.result.values[0],
            "float_relative_rate": self.candidate.score,
        }


@dataclass
class Attempts:
    """The first certified candidate (None when none was), and why each earlier one was not."""

    certified: Certified | None
    reasons: list[str] = field(default_factory=list)


def certify_first(
    ctx: Context,
    statement: dict[str, Any],
    candidates: Sequence[Candidate],
    rounding: Callable[[Candidate], ExactConfiguration | None],
    claim: dict[str, Any] | None = None,
) -> Attempts:
    """Round the most negative candidates (`rounding` returns None for one that has no exact counterpart in the
    claim's family) and certify a witness of the `model` statement (`rate >= 0` over the family, refuted at the
    candidate's head and token) with balls; stop at the first verified one. `claim`: the claims-file claim to embed."""
    attempts = Attempts(None)
    for candidate in candidates[:CANDIDATES_TRIED]:
        ctx.check_budget()
        exact = rounding(candidate)
        if exact is None:
            continue
        at = {k: v for k, v in (("h", candidate.head), ("i", candidate.token)) if v is not None}
        result = certify_model_witness(statement, exact, at, certificate_directory(ctx.certificate_dir), claim)
        if result.verified:
            attempts.certified = Certified(candidate, exact, result)
            return attempts
        attempts.reasons.append(result.reason)
    return attempts
