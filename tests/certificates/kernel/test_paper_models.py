"""Claims-file `model` claims that are one of the paper's identities: a `gram` certificate of the claim's own model
statement, which the kernel accepts only when its table lists that statement, field for field, under a paper
identity (`registry_statements.implying_identity`), and then re-checks by that identity's gram check; Coq proves the
same identities.

The attacks: the relation changed (a wrong coefficient), a hypothesis dropped, the quantifier turned into an
existence, a causal mask, another attention kind, a given condition dropped or changed, a payload that is not empty,
another claim's label (a hypothesis or given condition more is implied, and accepted); a true model claim that no
entry lists gets no certificate, and a false one is not proved at all.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.coq.source import source
from headflow.certificates.kernel import registry_statements
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.model_statements import statement_of
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.gram_identities import certify_model
from headflow.certificates.statements.model import model_body
from headflow.checks.rechecks import recheck

from tests.coq_tier import needs_coqc
from tests.forging import forged_file
from tests.sample_claims import EXAMPLES, certificates_of, claims_of

PAPER = (EXAMPLES / "paper.toml").read_text()
#: The paper's identities in paper.toml whose model statements the kernel's table lists.
LISTED = (
    "projection.self-pairing",
    "projection.tangency",
    "T11.energy-rate.spherical",
    "T16.flat-orthogonal",
    "C8.radial-dominance",
    "T19.monotonicity-regime",
)
T11 = claims_of(PAPER, "T11.energy-rate.spherical")
#: Values for the fields a listed model leaves open (an interaction, so that no paper identity about exp(beta s)
#: implies a lemma's model first).
OPEN_VALUES = {"lhs": "0", "op": "=", "rhs": "0", "interaction": "1"}


def model_claim(text: str) -> Any:
    (claim,) = parse_claims(text)
    return claim


def certificate(text: str, folder: Path) -> Path:
    path = certify_model(model_claim(text), folder)
    assert path is not None
    return path


@pytest.mark.parametrize("claim_id", LISTED)
def test_a_paper_identity_in_model_form_is_certified_as_the_paper_identity(claim_id: str, tmp_path: Path) -> None:
    checked = check_file(certificate(claims_of(PAPER, claim_id), tmp_path))
    assert checked.ok, checked.message
    assert f"claim {claim_id!r}: proves the model statement" in checked.proved
    assert f"which follows from {claim_id}: " in checked.proved  # the identity's own sentence follows


def test_every_listed_model_statement_is_a_well_formed_universal_model_statement() -> None:
    listed = {name: entry["models"] for name, entry in registry_statements.table().items() if "models" in entry}
    assert len(listed) >= 9
    for name, bodies in listed.items():
        for body in bodies:  # a field a lemma leaves open takes any value: here a constant interaction's
            data = {"form": "model", "claim": name} | model_body(OPEN_VALUES) | body
            assert not statement_of(data, name).exists
            assert registry_statements.implying_identity(data)["claim"] == name


def test_the_same_claim_under_another_id_is_certified_too(tmp_path: Path) -> None:
    """A user's claim of the same statement (general.toml's energy-rate-sphere is T11's), written by the route."""
    found = certificates_of(claims_of((EXAMPLES / "general.toml").read_text(), "energy-rate-sphere"), tmp_path)
    (path,) = found.values()
    assert ".gram." in path.name
    checked = check_file(path)
    assert checked.ok and "which follows from T11.energy-rate.spherical: " in checked.proved, checked.message


def _edit_statement(key: str, value: Any) -> Any:
    def edit(data: dict[str, Any]) -> None:
        data["statement"][key] = value

    return edit


def _edit_relation(data: dict[str, Any]) -> None:
    data["statement"]["relation"]["rhs"] = ["/", ["sum_i", ["norm2", ["name", "xdot_i"]]], ["pow", ["name", "n"], 2]]


ATTACKS = {
    "a wrong coefficient": _edit_relation,
    "symmetric scores dropped": _edit_statement("hypotheses", ["aligned-values", "unit-tokens"]),
    "an existence": _edit_statement("exists", True),
    "a causal mask": _edit_statement("mask", "causal"),
    "softmax": _edit_statement("attention", "softmax"),
}


@pytest.mark.parametrize("attack", ATTACKS)
def test_a_forged_statement_is_none_the_table_lists(attack: str, tmp_path: Path) -> None:
    checked = check_file(forged_file(certificate(T11, tmp_path), tmp_path, ATTACKS[attack]))
    assert not checked.ok
    assert "none of its identities" in checked.message or "not a model" in checked.message, checked.message


def test_condition8_dropped_from_radial_dominance_is_refused(tmp_path: Path) -> None:
    path = certificate(claims_of(PAPER, "C8.radial-dominance"), tmp_path)
    checked = check_file(forged_file(path, tmp_path, _edit_statement("given", [])))
    assert not checked.ok and "none of its identities" in checked.message


def test_a_payload_and_another_label_are_refused(tmp_path: Path) -> None:
    path = certificate(T11, tmp_path)
    payload = check_file(forged_file(path, tmp_path, lambda d: d["payload"].update(steps=[]), name="payload"))
    assert not payload.ok and "payload" in payload.message

    def relabel(data: dict[str, Any]) -> None:
        data["claim_id"] = "T17.shadow-decomposition"

    assert not check_file(forged_file(path, tmp_path, relabel, name="label")).ok


def test_a_true_claim_no_entry_lists_gets_no_certificate(tmp_path: Path) -> None:
    """Proved by the Gram reduction, but not one of the paper's identities: no certificate (the route's proof stays)."""
    text = claims_of((EXAMPLES / "sums.toml").read_text(), "norm-of-sum")
    assert certify_model(model_claim(text), tmp_path) is None
    assert not list(tmp_path.iterdir())


def test_a_deliberately_wrong_energy_rate_is_not_certified(tmp_path: Path) -> None:
    wrong = T11.replace('rhs = "sum_i(norm2(xdot_i)) / n"', 'rhs = "sum_i(norm2(xdot_i)) / n**2"')
    assert wrong != T11
    assert certify_model(model_claim(wrong), tmp_path) is None


@needs_coqc
def test_coq_proves_the_identities_of_a_model_claim_certificate(tmp_path: Path) -> None:
    path = certificate(T11, tmp_path)
    proved, coq_problem = problem(check_file(path))
    assert "which follows from T11.energy-rate.spherical" in proved
    assert run.compile_source(source(path.name, "T11.energy-rate.spherical", proved, coq_problem)).status == "accepted"


def test_the_table_json_lists_the_models_it_builds() -> None:
    """The models are data in the kernel's table (built once, outside the kernel): none is empty or repeated."""
    bodies = [json.dumps(b, sort_keys=True) for e in registry_statements.table().values() for b in e.get("models", ())]
    assert bodies and len(bodies) == len(set(bodies))


def test_more_assumptions_are_implied_and_fewer_are_not(tmp_path: Path) -> None:
    """A hypothesis or a given condition more narrows a universal statement: the listed model implies it. One fewer,
    or a given condition changed, is another statement."""
    path = certificate(T11, tmp_path)
    more = {
        "hypothesis": _edit_statement(
            "hypotheses", ["aligned-values", "scalar-heads", "symmetric-scores", "unit-tokens"]
        ),
        "given": _edit_statement("given", [{"lhs": ["name", "n"], "op": ">=", "rhs": ["num", "3"]}]),
    }
    for name, edit in more.items():
        assert check_file(forged_file(path, tmp_path, edit, name=name)).ok, name
    c8 = certificate(claims_of(PAPER, "C8.radial-dominance"), tmp_path)
    other = [{"lhs": ["name", "dE_dt"], "op": ">=", "rhs": ["num", "0"]}]
    checked = check_file(forged_file(c8, tmp_path, _edit_statement("given", other), name="other-given"))
    assert not checked.ok and "none of its identities" in checked.message


UNIT = "unit-tokens"
DYNAMICS = {"user": "energy.monotone.usa", "literature": "gl-pr.usa-energy-monotone"}


@pytest.mark.parametrize("name", DYNAMICS)
def test_a_dynamics_claim_proved_pointwise_carries_its_pointwise_statement(name: str, tmp_path: Path) -> None:
    """Energy non-decreasing along trajectories, PROVED by dE/dt >= 0 at every configuration: its certificate proves
    that model statement (at the claim's sizes, or for every n, d, beta), under the claim's own id, and embeds the
    claim; no certificate of the scratch model claim is left in the folder."""
    text = claims_of((EXAMPLES / f"{name}.toml").read_text(), DYNAMICS[name])
    found = certificates_of(text, tmp_path)
    (path,) = [p for p in found.values() if ".gram." in p.name]
    assert all(p.name.startswith(DYNAMICS[name]) for p in found.values())
    checked = check_file(path)
    assert checked.ok, checked.message
    assert f"claim {DYNAMICS[name]!r}: proves" in checked.proved and '"relation": "dE_dt >= 0"' in checked.proved
    claims = {c.id: c for c in parse_claims(text)}
    assert recheck(path, claims=claims, read_claim=True).ok
