"""The road from a claim to its verdict is declared as data: one table from kinds to deciders, one ordered table of
the dynamics routes, and no decider passed around as a callback."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.schema import KINDS
from headflow.checks.claimsfile import deciders, dynamics_decider, quantified_dynamics, start_existence
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

from tests.checks.claimsfile.claim_texts import gap_claim

ROOT = Path(__file__).resolve().parents[3]

CLAIM = gap_claim("gap", "decays-at-rate", "2*(1 + 0.5)", "softmax", "[1.0, 0.5]", "0.2")


def test_every_kind_has_one_named_decider() -> None:
    assert set(deciders.DECIDERS) == set(KINDS)
    for name, (procedure, decide) in deciders.DECIDERS.items():
        assert procedure, name
        assert inspect.isfunction(decide) and decide.__name__ != "<lambda>", name
        assert decide.__module__.startswith("headflow.checks.claimsfile."), name


def test_the_tables_hold_named_functions_only() -> None:
    tree = ast.parse((ROOT / "checks" / "claimsfile" / "deciders.py").read_text())
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.Lambda)]
    assert "partial" not in {getattr(node, "id", None) for node in ast.walk(tree)}
    for name, route in dynamics_decider.EXACT_ROUTES:
        assert inspect.isfunction(route) and route.__name__ != "<lambda>", name


def test_no_route_takes_the_decider_as_an_argument() -> None:
    """The quantified sweep and the statements about some start hand their instances back to the dynamics decider
    instead of calling it: neither module imports it nor takes a callable."""
    for module in (quantified_dynamics, start_existence):
        tree = ast.parse(inspect.getsource(module))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        names = {alias.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for alias in n.names}
        assert "headflow.checks.claimsfile.dynamics_decider" not in imported and "Callable" not in names


def test_the_exact_routes_are_tried_in_their_declared_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table decides: a stub put first answers before the real equiangular route, and a stub that declines
    (None) leaves the claim to the next route in the table."""
    routes = dynamics_decider.EXACT_ROUTES
    names = [name for name, _ in routes]
    assert len(set(names)) == len(names) == 7
    (claim,) = parse_claims(CLAIM, "t.toml")
    ctx = Context("quick", seed=1, claim_id="gap")
    answer = Outcome(Verdict.REFUTED, "stub first", witness={"verified_by": "exact"})
    first = (("stub", lambda claim, ctx: answer),)
    monkeypatch.setattr(dynamics_decider, "EXACT_ROUTES", first + routes)
    assert dynamics_decider.decide_dynamics(claim, ctx).method == "stub first"
    declining = (("stub", lambda claim, ctx: None),)
    monkeypatch.setattr(dynamics_decider, "EXACT_ROUTES", declining + routes[:1])
    outcome = dynamics_decider.decide_dynamics(claim, ctx)
    assert outcome.verdict is Verdict.PROVED and outcome.method != "stub first"
