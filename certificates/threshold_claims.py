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

from certificates import scalar_regime as sr
from certificates.smt import SmtStatement, certify, decide
from certificates.store import certificate_directory
from certificates.witness import certify_point
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


def summary_q_star_relation() -> sp.Boolean:
    """q* (1 - c^2) = c^2 (n - 1): exp(2 alpha beta*) from closed_forms.beta_star, with c*(H) named c."""
    q = sp.exp(2 * alpha * closed_forms.beta_star(H, n, alpha)).subs(closed_forms.c_star(H), c)
    numerator, denominator = sp.fraction(sp.together(q))
    if q.has(sp.exp, sp.log) or not numerator.free_symbols <= {c, n, H}:
        raise ValueError(f"exp(2 alpha beta*) did not reduce to a rational function of c, n, H: {q}")
    return sp.Eq(qs * denominator, numerator)


def _base_hypotheses() -> tuple[sp.Basic, ...]:
    return (H >= 2, n >= 2, c > 0, sp.Eq(closed_forms.c_star_polynomial(c, H), 0), summary_q_star_relation())


def statements() -> dict[str, SmtStatement]:
    """The comparison statements of T19.threshold, each `hypotheses => goal` for all reals."""
    margin = sr.condition8_margin()
    regime = (H >= 2, n >= 2, alpha > 0, t > 0)
    everything = (H, n, alpha, t, c, qs)
    return {
        "c8-threshold": SmtStatement(
            "c8-threshold",
            "Condition 8 margin T - (H-1) a^2 >= 0 at a token iff (H-1) exp(2 alpha beta) <= n-1 "
            "(for all real H >= 2, n >= 2, alpha > 0, t = exp(alpha beta) > 0)",
            (H, n, alpha, t),
            regime,
            sp.Equivalent(margin >= 0, (H - 1) * t**2 <= n - 1),
        ),
        "summary-form": SmtStatement(
            "summary-form",
            "exp(2 alpha beta*) = c*^2 (n-1)/(1-c*^2) equals c* (n-1)/(H-1) (c* the positive root of c^2+(H-1)c-1)",
            (H, n, c, qs),
            _base_hypotheses(),
            sp.Eq(qs * (H - 1), c * (n - 1)),
        ),
        "strictly-below": SmtStatement(
            "strictly-below",
            "exp(2 alpha beta*) < (n-1)/(H-1), the Condition 8 threshold, and c* < 1: beta* is strictly below "
            "the threshold, by ln(1/c*)/(2 alpha)",
            (H, n, c, qs),
            _base_hypotheses(),
            sp.And(qs * (H - 1) < n - 1, c < 1),
        ),
        "sufficient": SmtStatement(
            "sufficient",
            "beta <= beta* (t^2 <= exp(2 alpha beta*)) implies Condition 8 at every token",
            everything,
            (alpha > 0, t > 0, *_base_hypotheses(), t**2 <= qs),
            margin >= 0,
        ),
        "positive-region": SmtStatement(
            "positive-region",
            "beta* > 0 (exp(2 alpha beta*) > 1) iff c*(H) (n-1) > H-1",
            (H, n, c, qs),
            _base_hypotheses(),
            sp.Equivalent(qs > 1, c * (n - 1) > H - 1),
        ),
    }


def cauchy_schwarz_statement() -> SmtStatement:
    return SmtStatement(
        "cauchy-schwarz-exact",
        "(H-1) |a^h_i| |f^h'_i| <= T^h_i at a token iff t^2 <= exp(2 alpha beta*): beta* is exactly its threshold",
        (H, n, alpha, t, c, qs),
        (H >= 2, n >= 2, alpha > 0, t > 0, *_base_hypotheses()),
        sp.Equivalent(sr.cauchy_schwarz_condition(), t**2 <= qs),
    )


def exact_statement() -> SmtStatement:
    """The false reading: q* equals the Condition 8 threshold (n-1)/(H-1) for all H, n."""
    return SmtStatement(
        "exact",
        "exp(2 alpha beta*) = (n-1)/(H-1)",
        (H, n, c, qs),
        _base_hypotheses(),
        sp.Eq(qs * (H - 1), n - 1),
    )


def certify_statements(ctx: Context, chosen: dict[str, SmtStatement]) -> Outcome:
    """CERTIFIED with one SMT certificate per statement when z3 finds every negation unsat, else
    INCONCLUSIVE naming the first statement that was not proved (with z3's answer or model)."""
    directory = certificate_directory(ctx.certificate_dir)
    paths: list[str] = []
    answers: dict[str, str] = {}
    for name, statement in chosen.items():
        ctx.check_budget()
        result, path = certify(statement, ctx.claim_id, directory, TIMEOUT_SECONDS)
        answers[name] = (
            result.status
            + (f" {result.model}" if result.model else "")
            + (f" ({result.reason})" if result.reason else "")
        )
        if path is None:
            return Outcome(
                Verdict.INCONCLUSIVE,
                "z3 nlsat",
                notes=f"statement {name!r} not proved: {answers[name]}",
                details={"answers": answers},
            )
        paths.append(str(path))
    steps = [Step(f"{s.sentence}: negation unsat (z3 nlsat, for all real parameters)") for s in chosen.values()]
    return Outcome(
        Verdict.CERTIFIED,
        "z3 nlsat on polynomial encodings (t = exp(alpha beta), c* by its defining polynomial)",
        certificates=paths,
        steps=steps,
        details={"answers": answers},
    )


@REGISTRY.procedure("T19.threshold", "smt")
def _threshold(ctx: Context) -> Outcome:
    outcome = certify_statements(ctx, statements())
    if outcome.verdict is Verdict.CERTIFIED:
        outcome.finding = (
            "beta* is sufficient but not exact: Condition 8 holds iff exp(2 alpha beta) <= (n-1)/(H-1), and "
            "exp(2 alpha beta*) = c*(n-1)/(H-1) is smaller by the factor c* < 1; beta* > 0 iff c*(H)(n-1) > H-1"
        )
    return outcome


@REGISTRY.procedure("T19.threshold.cauchy-schwarz", "smt")
def _cauchy_schwarz(ctx: Context) -> Outcome:
    return certify_statements(ctx, {"cauchy-schwarz-exact": cauchy_schwarz_statement()})


def exact_reading_witness(directory: Path) -> tuple[dict[str, object], object]:
    """H = 2, n = 3, alpha = 1 and a rational beta above beta* where Condition 8 still holds (balls)."""
    heads, tokens, scale = 2, 3, 1
    beta = sp.Symbol("beta", positive=True)
    star = float(closed_forms.beta_star(heads, tokens, scale))
    c8 = float(sp.log(sp.Rational(tokens - 1, heads - 1)) / (2 * scale))
    point = Fraction((star + c8) / 2).limit_denominator(1000)
    margin = sr.condition8_margin().subs({H: heads, n: tokens, alpha: scale, t: sp.exp(scale * beta)})
    conditions = [
        ("beta - beta*(2, 3, 1) > 0", beta - closed_forms.beta_star(heads, tokens, scale), ">"),
        ("Condition 8 margin at beta > 0", margin, ">"),
    ]
    statement = REGISTRY.get("T19.threshold.exact").statement
    result = certify_point("T19.threshold.exact", statement, conditions, {beta: point}, directory)
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
