"""The Coq problem of `quantity relation 0` at exact data, for tests of the Coq writer: the problem of the witness of
the `model` statement (`certificates.kernel.model_statements`) that the relation refutes, as check-cert writes it."""

from __future__ import annotations

from typing import Any

from headflow.certificates.exact_records import exact_record
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.kernel.coq.model_tree import witness_problem
from headflow.certificates.kernel.coq.statements import PointProblem
from headflow.certificates.kernel.model_statements import statement_of
from headflow.certificates.statements.registry import ConfigurationObligation

#: The statement's relation whose refutation (rhs - lhs = -quantity against 0) is `quantity relation 0`.
REFUTED = {"<": ">=", ">": "<=", "!=": "="}


def rate_problem(quantity: str, relation: str, cfg: ExactConfiguration, at: dict[str, int]) -> PointProblem:
    """`quantity relation 0` at `cfg` (the head h and token i of `at`) as the Coq problem of a model witness."""
    statement: dict[str, Any] = ConfigurationObligation(cfg.attention, cfg.geometry, (), quantity, "").model("rate")
    statement["relation"]["op"] = REFUTED[relation]
    if cfg.interaction is not None:
        statement["interaction"] = cfg.interaction.tree
    return witness_problem(statement_of(statement, "rate"), {"configuration": exact_record(cfg), "at": at})
