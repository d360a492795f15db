"""A dynamics claim whose property follows from a pointwise statement is decided through that statement
(`checks.claimsfile.pointwise_route`): PROVED when the model claim `dQ/dt >= 0 at every configuration` is, REFUTED by
its witness only when that configuration is a start of the claim's family (re-certified against the dynamics claim,
re-checked here), and not used where the starts are one given point."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.schema import ModelClaim, validate_claim
from headflow.certificates.statements.pointwise import general_pointwise_claim, pointwise_claim
from headflow.checks.claimsfile import dynamics_decider
from headflow.checks.claimsfile.dynamics_decider import decide_dynamics
from headflow.checks.claimsfile.pointwise_route import decide_pointwise
from headflow.checks.registry import Context
from headflow.checks.verdicts import Verdict

from tests.checking import verify_file

HEAD = """
[[claim]]
id = "e"
kind = "dynamics"
quantity = "energy"
property = "non-decreasing"
tokens = "random-sphere"
"""


def float_route_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Set the pointwise route aside, for tests of the float route's own mechanics (budgets, blow-ups) that use a
    true pointwise claim as their material: the route would PROVE it before any run."""
    with dynamics_decider.float_evidence_only():  # its switch, held for the test's scope by monkeypatch
        routes, domain = dynamics_decider.EXACT_ROUTES, dynamics_decider.decide_pointwise_domain
    monkeypatch.setattr(dynamics_decider, "EXACT_ROUTES", routes)
    monkeypatch.setattr(dynamics_decider, "decide_pointwise_domain", domain)


def claim_of(fields: str, head: str = HEAD):  # type: ignore[no-untyped-def]
    (claim,) = parse_claims(head + fields, "t.toml")
    return claim


def ctx(directory: Path | None = None) -> Context:
    return Context("quick", seed=3, certificate_dir=directory, claim_id="e")


SYMMETRIC = 'heads = "random-symmetric"\nH = 1\nn = 8\nd = 4\nbeta = 1.0\n'
FLAT = 'heads = "random-general"\nn = 4\nd = 3\nbeta = 1.0\ngeometry = "flat"\n'


def test_energy_non_decreasing_with_symmetric_aligned_heads_is_proved_pointwise() -> None:
    outcome = decide_dynamics(claim_of(SYMMETRIC), ctx())
    assert outcome.verdict is Verdict.PROVED, outcome
    reading = "pointwise: d(energy)/dt = dE_dt >= 0 at every configuration (model claim, PROVED)"
    assert outcome.method.startswith(reading) and outcome.notes.startswith(f"route: {reading}")
    assert outcome.steps and outcome.details["route"] == "pointwise"
    assert outcome.details["model_claim"]["assume"] == ["aligned-values", "symmetric-scores"]


def test_a_claim_quantified_over_n_and_beta_is_proved_for_its_whole_domain() -> None:
    fields = 'heads = "random-symmetric"\nH = 2\nn = "n"\nd = 3\nbeta = "b"\n'
    fields += '[claim.domain]\nn = "integer>=2"\nb = "positive"\n'
    claim = claim_of(fields)
    model = general_pointwise_claim(claim)
    assert model is not None and "every n >= 2, d >= 1, H = 2, beta > 0" in model.statement
    outcome = decide_dynamics(claim, ctx())
    assert outcome.verdict is Verdict.PROVED and outcome.method.startswith("pointwise"), outcome


def test_scalar_heads_of_either_sign_and_the_rate_read_as_non_negative() -> None:
    positive = claim_of('heads = "scalar"\nlambdas = [1.0, 0.5]\nn = 5\nd = 3\nbeta = 2.0\n')
    assert set(pointwise_claim(positive).hypotheses) >= {"scalar-heads", "symmetric-scores"}  # type: ignore[union-attr]
    mixed = claim_of('heads = "scalar"\nlambdas = [1.0, -0.5]\nn = 5\nd = 3\nbeta = 2.0\n')
    assert "scalar-heads" not in pointwise_claim(mixed).hypotheses  # type: ignore[union-attr]  # lambda_h > 0 there
    head = HEAD.replace('"energy"', '"energy_rate"').replace('"non-decreasing"', '"non-negative"')
    rate = claim_of('heads = "scalar"\nlambdas = [1.0, 0.5]\nn = 5\nd = 3\nbeta = 2.0\n', head)
    outcome = decide_pointwise(rate, ctx())
    assert outcome is not None and outcome.verdict is Verdict.PROVED
    assert "energy_rate is non-negative at every time" in outcome.method


def test_general_heads_are_refuted_by_the_pointwise_witness_at_a_start_of_the_family(tmp_path: Path) -> None:
    """The deliberately wrong variant (T11 without score symmetry): the model claim's witness is a start of the
    family, re-certified as a witness of the dynamics claim; its certificate re-checks and embeds the dynamics claim
    (the model claim's own certificate was scratch: nothing else is written)."""
    claim = claim_of('heads = "random-general"\nH = 1\nn = 4\nd = 3\nbeta = 1.0\n')
    outcome = decide_pointwise(claim, ctx(tmp_path))
    assert outcome is not None and outcome.verdict is Verdict.REFUTED, outcome
    assert outcome.details["route"] == "pointwise" and outcome.witness["verified_by"] == "ball"  # type: ignore[index]
    (path,) = outcome.certificates
    assert [p.name for p in tmp_path.iterdir()] == [Path(path).name] and Path(path).name.startswith("e.witness")
    ok, message = verify_file(Path(path))
    assert ok, message


def test_given_tokens_do_not_use_the_pointwise_witness(tmp_path: Path) -> None:
    """One given start: a configuration where dE/dt < 0 is no start of the claim, so the route neither searches nor
    refutes (the given-start route decides the claim from its own tokens)."""
    fields = (
        'heads = "random-general"\npoints = [["3/5", "4/5", 0], [1, 0, 0], [0, "-4/5", "3/5"], [0, 0, 1]]\n'
        "n = 4\nd = 3\nH = 2\nbeta = 1.0\n"
    )
    claim = claim_of(fields, HEAD.replace('"random-sphere"', '"given"'))
    assert pointwise_claim(claim) is not None  # a proof would cover every start, the given one too
    assert decide_pointwise(claim, ctx(tmp_path)) is None
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "fields",
    [
        SYMMETRIC,
        SYMMETRIC + 'mask = "causal"\n',
        'heads = "random-symmetric"\nH = 1\nn = 2\nd = 2\nbeta = 1.5\nmask = [[1, 0], [1, 1]]\n',
        SYMMETRIC.replace("beta = 1.0", "beta = -1.0"),
        SYMMETRIC + 'geometry = "flat"\nvalues = "identity"\n',
        SYMMETRIC + 'interaction = "exp(beta*s) - 1"\n',
        'heads = "given"\nscores = [[[1, 2], [2, 0]]]\nn = 3\nd = 2\nbeta = 0.5\nvalues = [[[1, 0], [0, 1]]]\n',
    ],
)
def test_the_built_model_claim_is_what_its_rendered_fields_parse_to(fields: str) -> None:
    """The model claim is built from terms, never from text; its `raw` (what a certificate embeds) is rendered from
    it, and the model kind's parser reads it back to the same claim."""
    model = pointwise_claim(claim_of(fields))
    assert isinstance(model, ModelClaim)
    again = validate_claim(model.raw, None)
    assert dataclasses.replace(again, line=model.line, title=model.title) == model


@pytest.mark.parametrize(
    ("fields", "head"),
    [
        ('heads = "random-symmetric"\nn = 4\nd = 3\nbeta = 1.0\ngeometry = "pre-ln"\n', HEAD),  # no model claim
        ('heads = "random-general"\nn = 4\nd = 3\nbeta = 1.0\n', HEAD.replace('"energy"', '"cluster_gap"')),
        (FLAT, HEAD.replace('"energy"', '"token_norm"')),  # a model term the model kind's search does not evaluate
        (SYMMETRIC, HEAD.replace("non-decreasing", "stays-non-negative")),
    ],
)
def test_claims_outside_the_model_kind_have_no_pointwise_route(fields: str, head: str) -> None:
    if "stays" in head:
        head = head.replace('"energy"', '"energy_rate"')
    assert pointwise_claim(claim_of(fields, head)) is None


def test_the_float_evidence_switch_sets_the_pointwise_route_aside_only_within_its_block() -> None:
    """`float_evidence_only` (the benchmark's and these tests' switch) removes the pointwise route inside the
    block and puts the decision's own routes back after it, also when the block raises."""
    before = (dynamics_decider.EXACT_ROUTES, dynamics_decider.decide_pointwise_domain)
    with pytest.raises(RuntimeError), dynamics_decider.float_evidence_only():
        assert all(route is not decide_pointwise for _, route in dynamics_decider.EXACT_ROUTES)
        assert dynamics_decider.decide_pointwise_domain(claim_of(SYMMETRIC), ctx()) is None
        raise RuntimeError
    assert (dynamics_decider.EXACT_ROUTES, dynamics_decider.decide_pointwise_domain) == before
    assert any(route is decide_pointwise for _, route in dynamics_decider.EXACT_ROUTES)
