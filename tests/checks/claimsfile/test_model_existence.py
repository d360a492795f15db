"""Existence model claims (`exists = true`): CERTIFIED by a ball-verified instance that `check-cert` re-checks from
the embedded claim, REFUTED when the universal negation is PROVED for all n, d, H, otherwise INCONCLUSIVE (a float
search alone never makes an existence claim CONFIRMED)."""

from __future__ import annotations

from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.errors import InputError
from headflow.checks.verdicts import Verdict

from tests.checking import verify_file
from tests.checks.claimsfile.test_model_claims import ORTHOGONAL, SYMMETRIC_ALIGNED, _forged, claim_text, decide
from tests.sample_claims import claims_of

ROOT = Path(__file__).resolve().parents[3]


EXISTENCE = (ROOT / "examples" / "existence.toml").read_text()
#: The true example whose instance the search takes seconds to find: decided in the slow test.
SEARCHED = "entropy-decrease-symmetric"


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Verdict, dict]]:
    return decide(claims_of(EXISTENCE, SEARCHED, keep=False), tmp_path_factory.mktemp("certs"))


def test_true_examples_certified_by_a_rechecked_instance(examples: dict[str, tuple[Verdict, dict]]) -> None:
    assert SEARCHED not in examples
    assert_certified(examples, "shadow-obstruction", "energy-decrease-without-alignment")


@pytest.mark.slow
def test_the_searched_true_example_is_certified_by_a_rechecked_instance(tmp_path: Path) -> None:
    assert_certified(decide(claims_of(EXISTENCE, SEARCHED), tmp_path), SEARCHED)


def assert_certified(examples: dict[str, tuple[Verdict, dict]], *claim_ids: str) -> None:
    for claim_id in claim_ids:
        verdict, evidence = examples[claim_id]
        assert verdict is Verdict.CERTIFIED, (claim_id, evidence)
        assert evidence["witness"]["verified_by"] == "ball" and evidence["witness"]["n"] >= 2
        (path,) = evidence["certificates"]
        ok, message = verify_file(Path(path))
        assert ok and "holds at an exact configuration" in message, message


def test_false_examples_refuted_by_the_proved_negation(examples: dict[str, tuple[Verdict, dict]]) -> None:
    for claim_id in ("energy-decrease-theorem11", "decrease-under-condition8", "negative-tangential-power"):
        verdict, evidence = examples[claim_id]
        assert verdict is Verdict.REFUTED, (claim_id, evidence)
        assert evidence["witness"]["verified_by"] == "exact" and evidence["steps"]
        assert evidence["witness"]["negation_proved"].startswith("For every n >= 2")
    # Theorem 11 and Condition 8 deny the first two: their negations carry that identity's gram certificate; no
    # identity of the kernel's table is the third's negation (T^h_i >= 0), which the kernel's normal form of sums
    # proves (T is a squared norm): a sums certificate
    assert [Path(p).name.split(".")[1] for p in examples["energy-decrease-theorem11"][1]["certificates"]] == ["gram"]
    assert len(examples["decrease-under-condition8"][1]["certificates"]) == 1
    assert [Path(p).name.split(".")[1] for p in examples["negative-tangential-power"][1]["certificates"]] == ["sums"]


def test_dropping_condition8_turns_the_refuted_existence_into_a_certified_one(tmp_path: Path) -> None:
    with_c8 = claim_text("with", ORTHOGONAL, "dE_h_dt", "<", "0", given=["condition8"], exists=True)
    without = claim_text("without", ORTHOGONAL, "dE_h_dt", "<", "0", exists=True)
    verdicts = decide(with_c8 + without, tmp_path)
    assert verdicts["with"][0] is Verdict.REFUTED and verdicts["without"][0] is Verdict.CERTIFIED


def test_a_deliberately_wrong_existence_claim_is_refuted(tmp_path: Path) -> None:
    # Theorem 11 in flat space: the energy never decreases, so "some configuration has dE/dt < 0" is false.
    wrong = claim_text("wrong", SYMMETRIC_ALIGNED, "dE_dt", "<", "0", geometry="flat", exists=True)
    verdict, evidence = decide(wrong, tmp_path)["wrong"]
    assert verdict is Verdict.REFUTED, evidence


@pytest.mark.slow
def test_an_unwitnessed_false_existence_claim_is_inconclusive_not_confirmed(tmp_path: Path) -> None:
    # |P u|^2 < 0 never holds, but without unit tokens the engine cannot prove the negation and no instance exists.
    text = claim_text("negative-power", [], "norm2(proj(f_h_i))", "<", "0", geometry="flat", exists=True)
    verdict, evidence = decide(text, tmp_path)["negative-power"]
    assert verdict is Verdict.INCONCLUSIVE, evidence
    assert "no certified witness" in evidence["notes"] and "not proved" in evidence["notes"]


def test_integer_boundary_of_the_sizes(tmp_path: Path) -> None:
    # n >= 2 always: "some n < 2" is false (REFUTED); "some n < 3" holds only at the least size n = 2.
    below = claim_text("below", [], "n", "<", "2", exists=True)
    least = claim_text("least", [], "n", "<", "3", exists=True)
    verdicts = decide(below + least, tmp_path)
    assert verdicts["below"][0] is Verdict.REFUTED
    verdict, evidence = verdicts["least"]
    assert verdict is Verdict.CERTIFIED and evidence["witness"]["n"] == 2, evidence
    assert verify_file(Path(evidence["certificates"][0]))[0]


def test_a_non_strict_instance_only_at_equality_is_not_certified(tmp_path: Path) -> None:
    # "some n <= 2" is true, at n = 2 only, where rhs - lhs = 0: the search looks for a strict margin, so the claim
    # stays INCONCLUSIVE (undecided, never CONFIRMED); a witness would be sound, finding it is not done.
    verdict, evidence = decide(claim_text("tight", [], "n", "<=", "2", exists=True), tmp_path)["tight"]
    assert verdict is Verdict.INCONCLUSIVE, evidence


def test_the_statement_says_there_is() -> None:
    (claim,) = parse_claims(claim_text("s", ORTHOGONAL, "dE_h_dt", "<", "0", exists=True), "t.toml")
    assert claim.statement.startswith("There are n >= 2") and claim.statement.endswith("dE_h_dt < 0 at a head h.")


@pytest.mark.parametrize(("op", "exists", "field"), [("<", "yes", "exists"), ("<", 1, "exists")])
def test_bad_quantifier_input_is_an_input_error(op: str, exists: object, field: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_claims(claim_text("bad", [], "dE_dt", op, "0", exists=exists), "t.toml")
    assert caught.value.field == field


def _universal(payload: dict, claim: dict) -> None:  # the same instance offered as proof of "every configuration"
    claim["toml"] = claim["toml"].replace('"exists" = true', '"exists" = false')


def _opposite(payload: dict, claim: dict) -> None:
    claim["toml"] = claim["toml"].replace('"op" = "<"', '"op" = ">"')


def _off_the_sphere(payload: dict, claim: dict) -> None:  # (a permutation of the tokens would still be a witness)
    tokens = payload["configuration"]["tokens"]
    tokens[0] = ["1"] * len(tokens[0])


def _claimed_sign(payload: dict, claim: dict) -> None:
    payload["relation"] = "<" if payload["relation"] == ">" else ">"


def _added_hypothesis(payload: dict, claim: dict) -> None:
    payload["hypotheses"] = [*payload["hypotheses"], "scalar-heads"]


@pytest.mark.parametrize("edit", [_universal, _opposite, _off_the_sphere, _claimed_sign, _added_hypothesis])
def test_forged_existence_certificates_rejected(
    examples: dict[str, tuple[Verdict, dict]], tmp_path: Path, edit: object
) -> None:
    (path,) = examples["shadow-obstruction"][1]["certificates"]
    assert verify_file(Path(path))[0]
    ok, message = verify_file(_forged(Path(path), edit, tmp_path))
    assert not ok, message
