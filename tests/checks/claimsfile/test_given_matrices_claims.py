"""Dynamics claims with their own head matrices (examples/values.toml) and repulsive witnesses (beta < 0,
examples/masks.toml): decided rightly, the certificates re-check, and forged ones are rejected: a witness filed under
a claim with another matrix, values relabelled to W = M, a repulsive witness filed under an attractive claim (and the
reverse), a stationary start of beta < 0 relabelled to beta > 0."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.store import build_certificate
from headflow.checks.verdicts import Verdict

from tests.checking import verify_file
from tests.checks.claimsfile.test_model_claims import ROOT, decide
from tests.sample_claims import claims_of

VALUES = (ROOT / "examples" / "values.toml").read_text()
#: The claim of values.toml PROVED through its pointwise statement (Q^T K symmetric: dE/dt >= 0 at every
#: configuration), and a search-found refutation: in the slow test (it takes seconds of trajectories and search).
POINTWISE = "given-queries-keys-energy-non-decreasing"
SEARCHED = "given-scores-energy-non-decreasing"


def table(text: str, claim_id: str) -> str:
    return claims_of(text, claim_id)


@pytest.fixture(scope="module")
def decided(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Verdict, dict]]:
    return decide(claims_of(VALUES, POINTWISE, SEARCHED, keep=False), tmp_path_factory.mktemp("certs"))


def test_the_value_examples_are_decided_rightly_and_recheck(decided: dict) -> None:
    expected = {
        "given-values-energy-non-decreasing": Verdict.REFUTED,
        "given-antipodal-start-clusters": Verdict.REFUTED,
        "given-antipodal-start-does-not-cluster": Verdict.CERTIFIED,
    }
    for claim_id, verdict in expected.items():
        assert decided[claim_id][0] is verdict, (claim_id, decided[claim_id][1])
        ok, message = verify_file(Path(decided[claim_id][1]["certificates"][0]))
        assert ok, message


@pytest.mark.slow
def test_symmetric_queries_and_keys_keep_the_energy_non_decreasing_and_general_scores_do_not(tmp_path: Path) -> None:
    found = decide(claims_of(VALUES, POINTWISE, SEARCHED), tmp_path)
    assert found[POINTWISE][0] is Verdict.PROVED
    assert found[SEARCHED][0] is Verdict.REFUTED
    path = Path(found[SEARCHED][1]["certificates"][0])
    assert verify_file(path)[0]
    ok, message = verify_file(relabelled(path, table(VALUES, SEARCHED), '["-1/2", 1]', '["-1/3", 1]'))
    assert not ok and "the stated scores" in message, message


def relabelled(path: Path, text: str, old: str, new: str) -> Path:
    """The certificate's payload filed under the claim `text` with `old` replaced by `new` (the forged claim)."""
    data = json.loads(path.read_text())
    forged = text.replace(old, new)
    assert forged != text
    (other,) = parse_claims(forged, "t.toml")
    out = path.with_name(f"forged-{abs(hash(new))}.json")
    out.write_text(json.dumps(build_certificate(other.id, data["kind"], data["payload"], embedded(other))))
    return out


@pytest.mark.parametrize(
    ("claim_id", "old", "new", "reason"),
    [
        ("given-values-energy-non-decreasing", "values = [[[0, 1], [1, 0]]]\n", "", "aligned-values"),
        ("given-values-energy-non-decreasing", "[[0, 1], [1, 0]]", "[[0, 1], [1, 1]]", "the stated values"),
        ("given-antipodal-start-clusters", "[[1, 2], [0, 3]]", "[[1, 2], [1, 3]]", "the stated scores"),
    ],
)
def test_a_witness_of_other_matrices_is_rejected(decided: dict, claim_id: str, old: str, new: str, reason: str) -> None:
    path = Path(decided[claim_id][1]["certificates"][0])
    ok, message = verify_file(relabelled(path, table(VALUES, claim_id), old, new))
    assert not ok and reason in message, message


def test_the_same_witness_under_its_own_claim_is_accepted(decided: dict) -> None:
    """The forgeries above fail for their change only: the payload under its claim's canonical text passes."""
    claim_id = "given-values-energy-non-decreasing"
    path = Path(decided[claim_id][1]["certificates"][0])
    assert verify_file(relabelled(path, table(VALUES, claim_id), "n = 2", "n = 2 "))[0]


@pytest.fixture(scope="module")
def repulsive(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Verdict, dict]]:
    masks = (ROOT / "examples" / "masks.toml").read_text()
    return decide(claims_of(masks, "repulsive-relu-hemisphere-clusters"), tmp_path_factory.mktemp("certs"))


def test_repulsive_witnesses_are_certified_with_their_negative_beta(repulsive: dict) -> None:
    """The exact stationary start of repulsive relu attention (the ball-verified state of general heads with
    beta = -1 is tested on the decided examples, `test_model_options`)."""
    masks = (ROOT / "examples" / "masks.toml").read_text()
    for claim_id in repulsive:
        verdict, evidence = repulsive[claim_id]
        assert verdict is Verdict.REFUTED, (claim_id, evidence)
        path = Path(evidence["certificates"][0])
        assert verify_file(path)[0]
        assert json.loads(path.read_text())["payload"]["configuration"]["beta"] == "-1"
        ok, message = verify_file(relabelled(path, table(masks, claim_id), "beta = -1", "beta = 1"))
        assert not ok and "beta" in message, message  # the repulsive data are no witness of the attractive claim


def test_an_attractive_witness_is_no_repulsive_witness(decided: dict) -> None:
    path = Path(decided["given-values-energy-non-decreasing"][1]["certificates"][0])
    text = table(VALUES, "given-values-energy-non-decreasing")
    ok, message = verify_file(relabelled(path, text, "beta = 1", "beta = -1"))
    assert not ok and "beta must be negative" in message, message
