"""The shared engines: exact/ball arithmetic (headflow.certificates.kernel.exact), the float-evidence loop
(headflow.checks.evidence.cases) and the witness pipeline (headflow.checks.evidence.witnesses)."""

from __future__ import annotations

import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from flint import arb, ctx
from headflow.certificates import ball_reading
from headflow.certificates.claims.decimals import decimal_value
from headflow.certificates.errors import BudgetExceeded
from headflow.certificates.kernel import exact
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.provers.witness import round_configuration
from headflow.certificates.statements.registry import ConfigurationObligation
from headflow.checks.evidence.cases import Worst, cases
from headflow.checks.evidence.witnesses import CANDIDATES_TRIED, Attempts, Candidate, certify_first
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.verdicts import Verdict


def test_precision_is_restored_also_after_an_error() -> None:
    before = ctx.prec
    with pytest.raises(ZeroDivisionError), exact.precision(before + 100):
        assert ctx.prec == before + 100
        raise ZeroDivisionError
    assert ctx.prec == before


def test_ball_of_is_exact_for_dyadic_rationals_and_encloses_others() -> None:
    assert exact.ball_of(Fraction(3, 8)).is_exact()
    third = exact.ball_of(Fraction(1, 3))
    assert not third.is_exact() and third.contains(arb(1) / 3)
    assert exact.interval_ball(Fraction(1), Fraction(2)).contains(arb(3) / 2)


@pytest.mark.parametrize(
    ("value", "relation", "holds", "fails"),
    [
        (arb(1), ">", True, False),
        (arb(-1), ">", False, True),
        (arb(0, 1), ">=", False, False),  # straddles 0: neither settled nor refuted
        (arb(0), ">=", True, False),
        (arb(0), ">", False, True),
        (arb(0), "<=", True, False),
        (arb(-2, 1), "<", True, False),
        (arb(0, 1), "!=", False, False),
        (arb(0), "!=", False, True),  # only the exact zero refutes != 0
        (arb(2, 1), "!=", True, False),
        (Fraction(-1, 3), "<", True, False),
        (sp.Rational(0), ">=", True, False),
        (sp.Rational(0), "!=", False, True),
    ],
)
def test_holds_and_fails(value: object, relation: str, holds: bool, fails: bool) -> None:
    assert exact.holds(value, relation) is holds
    assert ball_reading.fails(value, relation) is fails


def test_settling_sign() -> None:
    assert exact.settling_sign(arb(-1), "!=") == "<"
    assert exact.settling_sign(arb(1), "!=") == ">"
    assert exact.settling_sign(arb(0, 1), "!=") is None
    assert exact.settling_sign(arb(0), ">=") == ">="
    assert exact.settling_sign(arb(0), ">") is None


@pytest.mark.parametrize(
    ("text", "value"), [("1.5e-3", Fraction(3, 2000)), ("2", Fraction(2)), ("-0.25E2", Fraction(-25)), ("1e5", 10**5)]
)
def test_decimal_value(text: str, value: Fraction) -> None:
    assert decimal_value(text, 10) == value


def test_decimal_value_refuses_large_exponents() -> None:
    assert decimal_value("1e11", 10) is None
    assert decimal_value("1e-11", 10) is None


def _cfg(rng: np.random.Generator) -> Configuration:
    return Configuration.create(families.random_sphere_tokens(3, 2, rng), families.random_symmetric_heads(1, 2, rng))


def test_cases_follow_the_profile_and_check_the_budget(tmp_path: Path) -> None:
    assert len(cases(Context("quick", 0, tmp_path), 3, 7)) == 3
    assert list(cases(Context("thorough", 0, tmp_path), 3, 7)) == list(range(7))
    expired = Context("quick", 0, tmp_path, deadline=time.monotonic() - 1.0)
    with pytest.raises(BudgetExceeded):
        list(cases(expired, 3, 7))


def test_worst_keeps_the_first_strictly_worst_case() -> None:
    rng = np.random.default_rng(1)
    a, b, c = _cfg(rng), _cfg(rng), _cfg(rng)
    largest = Worst.largest()
    for value, cfg in ((0.5, a), (2.0, b), (2.0, c)):
        largest.update(value, cfg)
    assert (largest.margin, largest.cases) == (-2.0, 3)
    assert largest.candidate is not None and largest.candidate["tokens"] == b.tokens.tolist()
    least = Worst.least(np.inf)
    least.update(0.25, a)
    least.bound(-1.0)  # moves the worst value, not the candidate
    assert least.margin == -1.0 and least.candidate is not None and least.candidate["tokens"] == a.tokens.tolist()


def test_worst_verdicts() -> None:
    rng = np.random.default_rng(2)
    ok = Worst.largest()
    ok.update(1e-12, _cfg(rng))
    assert ok.verdict("m", 1e-9).verdict is Verdict.CONFIRMED
    bad = Worst.least()
    bad.update(-1.0, _cfg(rng))
    outcome = bad.verdict("m", 1e-9)
    assert outcome.verdict is Verdict.INCONCLUSIVE and "candidate" in outcome.details


def _negative_rate_configuration() -> Configuration:
    """A usa configuration with general heads (W_h = M_h, not symmetric) whose float dE/dt is clearly negative."""
    rng = np.random.default_rng(3)
    while True:
        cfg = Configuration.create(
            families.random_sphere_tokens(3, 2, rng), families.random_general_heads(1, 2, rng, 2.0)
        )
        if model.energy_rate(cfg, model.token_velocity(cfg)) < -0.1:
            return cfg


def _attempt(tmp_path: Path, cfg: Configuration, hypotheses: tuple[str, ...]) -> tuple[list[int], Attempts]:
    """certify_first over CANDIDATES_TRIED + 2 copies of cfg whose first copy has no exact counterpart."""
    seen: list[int] = []

    def rounding(candidate: Candidate) -> ExactConfiguration | None:
        seen.append(int(candidate.score))
        if candidate.score == 0:
            return None
        return round_configuration(cfg.tokens, cfg.score_matrices, cfg.score_matrices, cfg.beta, symmetric=False)

    candidates = [Candidate(float(k), cfg) for k in range(CANDIDATES_TRIED + 2)]
    context = Context("quick", 0, tmp_path, claim_id="x")
    statement = ConfigurationObligation("usa", "sphere", hypotheses, "energy_rate", "").model("x")
    return seen, certify_first(context, statement, candidates, rounding)


def test_certify_first_stops_at_the_first_witness(tmp_path: Path) -> None:
    seen, attempts = _attempt(tmp_path, _negative_rate_configuration(), ("unit-tokens", "aligned-values"))
    assert seen == [0, 1] and attempts.reasons == []
    assert attempts.certified is not None and attempts.certified.candidate.score == 1.0
    assert attempts.certified.result.path is not None and attempts.certified.result.path.exists()


def test_certify_first_gives_every_reason_when_no_candidate_is_a_witness(tmp_path: Path) -> None:
    """Symmetric aligned heads: dE/dt >= 0 (T11), so no candidate can certify dE/dt < 0."""
    rng = np.random.default_rng(4)
    cfg = Configuration.create(families.random_sphere_tokens(3, 2, rng), families.random_symmetric_heads(1, 2, rng))
    seen, attempts = _attempt(tmp_path, cfg, ("unit-tokens",))
    assert attempts.certified is None
    assert seen == list(range(CANDIDATES_TRIED)) and len(attempts.reasons) == CANDIDATES_TRIED - 1
