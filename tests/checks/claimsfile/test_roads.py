"""The road from a claim to its verdict is declared as data: one table from kinds to deciders, one ordered table of
the dynamics routes, and no decider passed around as a callback (nor bound in a partial or a lambda)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.schema import KINDS
from headflow.checks.claimsfile import deciders, dynamics_decider, quantified_dynamics, register, start_existence
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

from tests.checks.claimsfile.claim_texts import gap_claim

ROOT = Path(__file__).resolve().parents[3]

CONSTANT = '\n[[claim]]\nid = "half"\nkind = "constant"\nexpr = "1/2"\nvalue = "0.5"\ndigits = 3\n'
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
    assert len(set(names)) == len(names) == 9
    assert names[0].startswith("the pointwise statement")  # it answers only PROVED or REFUTED, else declines
    (claim,) = parse_claims(CLAIM, "t.toml")
    ctx = Context("quick", seed=1, claim_id="gap")
    answer = Outcome(Verdict.REFUTED, "stub first", witness={"verified_by": "exact"})
    first = (("stub", lambda claim, ctx: answer),)
    monkeypatch.setattr(dynamics_decider, "EXACT_ROUTES", first + routes)
    assert dynamics_decider.decide_dynamics(claim, ctx).method == "stub first"
    declining = (("stub", lambda claim, ctx: None),)
    equiangular = tuple(route for route in routes if route[0] == "the exact equiangular reduction")
    monkeypatch.setattr(dynamics_decider, "EXACT_ROUTES", declining + equiangular)
    outcome = dynamics_decider.decide_dynamics(claim, ctx)
    assert outcome.verdict is Verdict.PROVED and outcome.method != "stub first"


def test_each_registered_claim_s_one_procedure_is_its_decision_named_by_the_table() -> None:
    """`register_claims` binds each claim to a named `ClaimDecision` (no partial, no lambda), called by the name the
    kinds' table gives."""
    tree = ast.parse(inspect.getsource(register))
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.Lambda)]
    assert "partial" not in {getattr(node, "id", getattr(node, "attr", None)) for node in ast.walk(tree)}
    claims = parse_claims(CLAIM + CONSTANT, "t.toml")
    registry = register.register_claims(claims)
    for claim in claims:
        ((name, procedure),) = registry.get(claim.id).procedures
        assert isinstance(procedure, register.ClaimDecision) and procedure.claim is claim
        assert name == deciders.DECIDERS[claim.kind][0]


def test_a_registered_claim_is_decided_through_the_kinds_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table decides: a stub put in DECIDERS for the claim's kind is what the registered procedure runs."""
    (claim,) = parse_claims(CONSTANT, "t.toml")
    ((_, procedure),) = register.register_claims([claim]).get(claim.id).procedures
    answer = Outcome(Verdict.INCONCLUSIVE, "stub decider", notes="the stub")
    monkeypatch.setitem(deciders.DECIDERS, "constant", ("ball", lambda claim, ctx: answer))
    assert procedure(Context("quick", seed=1, claim_id=claim.id)) is answer


def test_each_kind_has_one_statement_module_beside_its_decider() -> None:
    """The kinds' two tables agree: every kind that writes certificates has one elaborator of their core statements
    (a function of a module of certificates/statements/), and the kinds without (asymptotic, all) have none."""
    from headflow.certificates.statements import elaborators

    table = elaborators()
    assert set(table) | {"asymptotic", "all"} == set(deciders.DECIDERS) == set(KINDS)
    for kind, elaborate in table.items():
        assert inspect.isfunction(elaborate) and elaborate.__name__ != "<lambda>", kind
        assert elaborate.__module__.startswith("headflow.certificates.statements."), kind
