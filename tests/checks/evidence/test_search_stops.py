"""When the adversarial search stops: at a clear violation at once, at a faint one only after its least number of
minimizations (they deepen it for the certifier), with none only when its evaluation budget is spent."""

from __future__ import annotations

import numpy as np
import pytest
from headflow.checks.evidence import adversarial
from headflow.checks.model import families
from headflow.checks.model.configuration import Configuration

BUDGET = adversarial.Budget(starts=4, local=2, evaluations=400)


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
