"""When the adversarial search stops: at a clear violation at once, at a faint one only after its least number of
minimizations (they deepen it for the certifier), with none only when its evaluation budget is spent."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.provers.witness import WitnessResult
from headflow.checks.evidence import adversarial, model_witnesses
from headflow.checks.model import families
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context

BUDGET = adversarial.Budget(starts=4, local=2, evaluations=400)
CLAIM = """
[[claim]]
id = "no-energy"
kind = "model"
lhs = "E"
op = "<="
rhs = "0"
"""


def draw(rng: np.random.Generator) -> Configuration:
    return Configuration.create(families.random_sphere_tokens(3, 2, rng), np.eye(2)[None], beta=1.0)


def constant(margin: float) -> adversarial.Objective:
    """Every configuration's margin is `margin` (attained at token 0)."""
    return lambda cfg: (margin, (0,))


def search(margin: float, tolerance: float = adversarial.VIOLATION) -> adversarial.SearchResult:
    family, rng = adversarial.Family(draw), np.random.default_rng(0)
    return adversarial.search(family, constant(margin), BUDGET, rng, tolerance=tolerance)


def test_a_clear_violation_among_the_starts_ends_the_search_before_any_minimization() -> None:
    result = search(-10 * adversarial.CLEAR_VIOLATION)
    assert result.stopped == "violation found"
    assert result.local_runs == 0 and result.starts == BUDGET.starts  # every start still evaluated: candidates
    assert result.evaluations == result.starts + result.structured_starts


@pytest.mark.parametrize("margin", [-adversarial.CLEAR_VIOLATION / 2, -10 * adversarial.VIOLATION])
def test_a_faint_violation_is_deepened_by_the_least_number_of_minimizations(margin: float) -> None:
    result = search(margin)
    assert result.stopped == "violation found"
    assert result.local_runs >= BUDGET.local


def test_with_no_violation_the_whole_budget_is_spent() -> None:
    result = search(1.0)
    assert result.stopped == "evaluation budget spent" and result.evaluations >= BUDGET.evaluations


def test_a_margin_within_a_callers_looser_tolerance_is_no_violation_and_stops_nothing() -> None:
    """A caller whose tolerance is above CLEAR_VIOLATION: a margin between them is not a violation for it, so it must
    not end the search (a CONFIRMED would rest on a search cut short)."""
    result = search(-2 * adversarial.CLEAR_VIOLATION, tolerance=10 * adversarial.CLEAR_VIOLATION)
    assert result.stopped == "evaluation budget spent" and result.evaluations >= BUDGET.evaluations


def test_a_clear_violation_cuts_the_search_short_and_says_so() -> None:
    assert search(-10 * adversarial.CLEAR_VIOLATION).cut_short
    assert not search(-adversarial.CLEAR_VIOLATION / 2).cut_short  # a faint one had its minimizations


def test_the_full_search_deepens_a_clear_violation_as_it_would_a_faint_one() -> None:
    family, rng = adversarial.Family(draw), np.random.default_rng(0)
    result = adversarial.search(family, constant(-1.0), BUDGET, rng, stop_at_clear=False)
    assert result.stopped == "violation found" and not result.cut_short
    assert result.local_runs >= BUDGET.local


def run_recorder(margin: float) -> tuple[list[bool], Callable[[bool], adversarial.SearchResult]]:
    modes: list[bool] = []

    def run(stop_at_clear: bool) -> adversarial.SearchResult:
        modes.append(stop_at_clear)
        family, rng = adversarial.Family(draw), np.random.default_rng(0)
        return adversarial.search(family, constant(margin), BUDGET, rng, stop_at_clear=stop_at_clear)

    return modes, run


def test_the_full_search_runs_only_when_the_caller_certified_nothing_from_a_search_cut_short() -> None:
    modes, run = run_recorder(-1.0)
    assert [r.cut_short for r in adversarial.until_certified(run)] == [True, False] and modes == [True, False]
    modes, run = run_recorder(-1.0)
    next(adversarial.until_certified(run))  # the caller certified the first search's candidate: no second search
    assert modes == [True]
    modes, run = run_recorder(-adversarial.CLEAR_VIOLATION / 2)  # not cut short: the one search was the full one
    assert len(list(adversarial.until_certified(run))) == 1 and modes == [True]


def test_a_model_claim_whose_cut_short_search_certifies_nothing_is_certified_from_the_full_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """E <= 0 is false at every configuration (a clear violation at the first start): when no candidate of the search
    cut short certifies (the certifier refuses every one of them here), the full search runs and its witness is
    certified; the old search stopped at an INCONCLUSIVE."""
    claim = parse_claims(CLAIM)[0]
    modes: list[bool] = []
    searching, certifying = adversarial.search, model_witnesses.certify_model_witness

    def recorded(*args: Any, stop_at_clear: bool = True, **kwargs: Any) -> adversarial.SearchResult:
        modes.append(stop_at_clear)
        return searching(*args, stop_at_clear=stop_at_clear, **kwargs)

    def refused_in_the_first_search(*args: Any, **kwargs: Any) -> WitnessResult:
        attempt = certifying(*args, **kwargs)
        return dataclasses.replace(attempt, verified=False, reason="refused") if modes == [True] else attempt

    monkeypatch.setattr(adversarial, "search", recorded)
    monkeypatch.setattr(model_witnesses, "certify_model_witness", refused_in_the_first_search)
    out = model_witnesses.search_and_certify(claim, Context("quick", 0, tmp_path, claim_id=claim.id))
    assert modes == [True, False]
    assert out.certified is not None and out.certified.verified
