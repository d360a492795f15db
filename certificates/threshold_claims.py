"""T19.threshold decided by Z3 for all real H >= 2 and n >= 2 at once, with SMT certificates.

In the scalar-head, orthogonal-token regime (certificates.scalar_regime) Condition 8 is the
polynomial margin alpha^2 ((n - 1) - (H - 1) t^2) with t = exp(alpha beta) > 0. The summary's
beta* enters through q* = exp(2 alpha beta*), taken from identities.closed_forms.beta_star, and
c = c*(H) through its defining polynomial. Since log and exp are increasing, comparisons of
thresholds in beta are comparisons of q = t^2; every statement below is then polynomial.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import sympy as sp

from certificates import obligations
from certificates import scalar_regime as sr
from certificates.obligations import SmtStatement
from certificates.smt import certify, decide
from certificates.store import certificate_directory
from certificates.witness import certify_obligation_point
from checks.registry import REGISTRY, Context
from checks.verdicts import Outcome, Step, Verdict
from identities import closed_forms

H, n, alpha, t, c, qs = sr.H, sr.n, sr.alpha, sr.t, sr.c, sr.q_star
TIMEOUT_SECONDS = 10.0

REGISTRY.declare(
    "T19.threshold.exact",
    "Theorem 19: beta* is exactly the Condition 8 threshold (reading)",
    "Scalar heads alpha I, usa, orthogonal tokens, H >= 2, n >= 2: Condition 8 holds at every token iff beta <= beta*.",
)
REGISTRY.declare(
    "T19.threshold.cauchy-schwarz",
    "Theorem 19: beta* is the threshold of the Cauchy-Schwarz form of Condition 8 (reading)",
    "Scalar heads alpha I, usa, orthogonal tokens, H >= 2, n >= 2: (H-1) |a^h_i| |f^h'_i| <= T^h_i at every "
    "token iff beta <= beta*.",
)


def exact_statement() -> SmtStatement:
    """The false reading: q* equals the Condition 8 threshold (n-1)/(H-1) for all H, n."""
    return SmtStatement(
        "exact",
        "exp(2 alpha beta*) = (n-1)/(H-1)",
        (H, n, c, qs),
        obligations.threshold_hypotheses(),
        sp.Eq(qs * (H - 1), n - 1),
    )


def certify_statements(ctx: Context, statements: tuple[SmtStatement, ...] | None = None) -> Outcome:
    """CERTIFIED with one SMT certificate holding the statements (by default the claim's obligation) when z3
    finds every negation unsat, else INCONCLUSIVE naming the first statement that was not proved."""
    obligation = obligations.SMT.get(ctx.claim_id)
    if statements is None:
        statements = obligations.SMT[ctx.claim_id].statements()
    sentence = obligation.sentence if obligation else "; ".join(s.sentence for s in statements)
    results, path = certify(
        statements, ctx.claim_id, sentence, certificate_directory(ctx.certificate_dir), TIMEOUT_SECONDS
    )
    answers = {
        name: r.status + (f" {r.model}" if r.model else "") + (f" ({r.reason})" if r.reason else "")
        for name, r in results.items()
    }
    if path is None:
        name = next(name for name, r in results.items() if r.status != "unsat")
        return Outcome(
            Verdict.INCONCLUSIVE,
            "z3 nlsat",
            notes=f"statement {name!r} not proved: {answers[name]}",
            details={"answers": answers},
        )
    steps = [Step(f"{s.sentence}: negation unsat (z3 nlsat, for all real parameters)") for s in statements]
    return Outcome(
        Verdict.CERTIFIED,
        "z3 nlsat on polynomial encodings (t = exp(alpha beta), c* by its defining polynomial)",
        certificates=[str(path)],
        steps=steps,
        details={"answers": answers},
    )


@REGISTRY.procedure("T19.threshold", "smt")
def _threshold(ctx: Context) -> Outcome:
    outcome = certify_statements(ctx)
    if outcome.verdict is Verdict.CERTIFIED:
        outcome.finding = (
            "beta* is sufficient but not exact: Condition 8 holds iff exp(2 alpha beta) <= (n-1)/(H-1), and "
            "exp(2 alpha beta*) = c*(n-1)/(H-1) is smaller by the factor c* < 1; beta* > 0 iff c*(H)(n-1) > H-1"
        )
    return outcome


@REGISTRY.procedure("T19.threshold.cauchy-schwarz", "smt")
def _cauchy_schwarz(ctx: Context) -> Outcome:
    return certify_statements(ctx)


def exact_reading_witness(directory: Path) -> tuple[dict[str, object], object]:
    """H = 2, n = 3, alpha = 1 and a rational beta above beta* where Condition 8 still holds (balls)."""
    params = {"H": 2, "n": 3, "alpha": 1}
    heads, tokens, scale = params["H"], params["n"], params["alpha"]
    star = float(closed_forms.beta_star(heads, tokens, scale))
    c8 = float(sp.log(sp.Rational(tokens - 1, heads - 1)) / (2 * scale))
    point = Fraction((star + c8) / 2).limit_denominator(1000)
    result = certify_obligation_point("T19.threshold.exact", params, [point], directory)
    return {"H": heads, "n": tokens, "alpha": scale, "beta": str(point), "balls": result.values}, result


@REGISTRY.procedure("T19.threshold.exact", "smt+witness")
def _exact(ctx: Context) -> Outcome:
    smt = decide(exact_statement(), TIMEOUT_SECONDS)
    data, result = exact_reading_witness(certificate_directory(ctx.certificate_dir))
    details = {"z3_on_negation": smt.status, "z3_model": smt.model}
    if not result.verified:  # type: ignore[attr-defined]
        return Outcome(Verdict.INCONCLUSIVE, "balls", notes=result.reason, details=details)  # type: ignore[attr-defined]
    return Outcome(
        Verdict.REFUTED,
        "z3 model of the negation; ball-verified witness beta* < beta with Condition 8 holding",
        witness={"verified_by": "ball", **data},
        certificates=[str(result.path)],  # type: ignore[attr-defined]
        details=details,
    )
