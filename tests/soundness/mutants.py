"""The mutant table of the soundness suite: every topic's mutants, gathered (see mutation.py for what a mutant is).

Each topic keeps its mutants next to its tests; this module only lists the topics, in report order.
"""

from __future__ import annotations

from tests.certificates import mutants as certificates
from tests.checks.claimsfile import mutants as claims_files
from tests.checks.constants import mutants as constants
from tests.checks.theorems import (
    clustering_mutants,
    critical_points_mutants,
    energy_mutants,
    entropy_mutants,
    invariance_mutants,
    projection_mutants,
    threshold_mutants,
)
from tests.soundness.mutation import Mutant

TOPICS = (
    projection_mutants,
    energy_mutants,
    entropy_mutants,
    threshold_mutants,
    invariance_mutants,
    clustering_mutants,
    critical_points_mutants,
    claims_files,
    constants,
    certificates,
)


def all_mutants() -> list[Mutant]:
    """Every mutant, fast ones first."""
    table = sorted((m for topic in TOPICS for m in topic.mutants()), key=lambda m: m.slow)
    ids = [m.id for m in table]
    assert len(ids) == len(set(ids)), "duplicate mutant id"
    return table
