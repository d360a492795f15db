"""Claims with a stated interaction function: examples/interactions.toml decided rightly (true PROVED or CONFIRMED,
false REFUTED by certificates that check-cert re-checks), the energy's sign never assumed for an interaction, bad
interactions refused with one-line errors, and forged certificates (another phi) rejected."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.errors import InputError
from headflow.checks.claimsfile.model_reduction import prove_model
from headflow.checks.verdicts import Verdict

from tests.checking import verify_file
from tests.checks.claimsfile.test_model_claims import ROOT, _forged, claim_text, decide

TRUE = {"energy-rate-square-interaction": Verdict.PROVED, "energy-monotone-shifted-exp": Verdict.PROVED}
FALSE = (
    "energy-positive-square-interaction",
    "head-energy-monotone-square-interaction",
    "energy-monotone-general-heads",
)


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> dict:
    directory = tmp_path_factory.mktemp("certs")
    return decide((ROOT / "examples" / "interactions.toml").read_text(), directory)


def test_examples_decided_rightly_and_certificates_rechecked(examples: dict) -> None:
    for claim_id, verdict in TRUE.items():
        assert examples[claim_id][0] is verdict, (claim_id, examples[claim_id][1])
    for claim_id in FALSE:
        verdict, evidence = examples[claim_id]
        assert verdict is Verdict.REFUTED, (claim_id, evidence)
        (path,) = evidence["certificates"]
        ok, message = verify_file(Path(path))
        assert ok, message
        payload = json.loads(Path(path).read_text())["payload"]
        assert "interaction" in payload["configuration"]  # phi is data of the witness


def test_the_proof_uses_the_general_gradient_lemma(examples: dict) -> None:
    steps = [s["text"] for s in examples["energy-rate-square-interaction"][1]["steps"]]
    assert any("gradient lemma (any interaction phi)" in s for s in steps)


def test_an_interaction_energy_has_no_assumed_sign() -> None:
    # with exp weights E > 0 is a fact; with phi = s**2 (Phi = s^3/3) it is not, so E >= 0 must not be PROVED
    (claim,) = parse_claims(claim_text("e", [], "E", ">=", "0", interaction="s**2"), "t.toml")
    assert not prove_model(claim).proved
    (paper,) = parse_claims(claim_text("e", [], "E", ">=", "0"), "t.toml")
    assert prove_model(paper).proved


def _other_phi_in_payload(payload: dict, claim: dict) -> None:
    payload["configuration"]["interaction"] = ["pow", ["sym", "s"], 4]


def _other_phi_in_claim(payload: dict, claim: dict) -> None:
    toml = claim["toml"]
    claim["toml"] = toml.replace('"s**2"', '"s**4"')
    assert claim["toml"] != toml


def _phi_dropped(payload: dict, claim: dict) -> None:
    del payload["configuration"]["interaction"]


def _phi_dropped_from_claim(payload: dict, claim: dict) -> None:
    toml = claim["toml"]
    claim["toml"] = toml.replace('"interaction" = "s**2"\n', "")
    assert claim["toml"] != toml


@pytest.mark.parametrize("change", [_other_phi_in_payload, _other_phi_in_claim, _phi_dropped, _phi_dropped_from_claim])
def test_forged_interaction_rejected(examples: dict, tmp_path: Path, change: object) -> None:
    (path,) = examples["energy-positive-square-interaction"][1]["certificates"]
    ok, message = verify_file(_forged(Path(path), change, tmp_path))
    assert not ok, message


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ({"interaction": "log(s)"}, "s > 0"),
        ({"interaction": "s**2", "attention": "softmax"}, "phi > 0"),
        ({"interaction": "s", "attention": "relu"}, "usa or softmax"),
        ({"interaction": "exp(beta*s)", "lhs": "entropy_h_i"}, "entropies"),
    ],
)
def test_bad_interactions_in_claims_files(extra: dict, reason: str) -> None:
    fields = {"lhs": "E", **extra}
    lhs = fields.pop("lhs")
    with pytest.raises(InputError, match=reason):
        parse_claims(claim_text("bad", [], lhs, ">=", "0", **fields), "t.toml")


def test_dynamics_claim_with_an_undefined_interaction_is_an_error() -> None:
    text = (
        '[[claim]]\nid = "d"\nkind = "dynamics"\nquantity = "energy"\nproperty = "non-decreasing"\n'
        'interaction = "1/s"\nheads = "scalar"\nlambdas = [1.0]\ntokens = "random-sphere"\nn = 3\nd = 2\nbeta = 1.0\n'
    )
    with pytest.raises(InputError, match="s != 0"):
        parse_claims(text, "t.toml")


def test_huge_exponent_is_decided_without_a_crash(tmp_path: Path) -> None:
    # exp(s**8) overflows float64 at some configurations: those are skipped, never an inf in a verdict
    verdict, evidence = decide(claim_text("huge", [], "dE_dt", ">=", "0", interaction="exp(s**8)"), tmp_path)["huge"]
    assert "crashed" not in str(evidence.get("notes", ""))
    assert verdict in (Verdict.REFUTED, Verdict.INCONCLUSIVE), evidence
    for path in evidence.get("certificates", []):
        assert verify_file(Path(path))[0]


@pytest.mark.parametrize("change", [_other_phi_in_payload, _phi_dropped])
def test_forged_interaction_of_a_dynamics_witness_rejected(examples: dict, tmp_path: Path, change: object) -> None:
    (path,) = examples["energy-monotone-general-heads"][1]["certificates"]
    ok, message = verify_file(_forged(Path(path), change, tmp_path))
    assert not ok, message


def test_existence_claim_with_an_interaction_is_certified(tmp_path: Path) -> None:
    text = claim_text("some-negative-energy", [], "E", "<", "0", interaction="s**2", exists=True)
    verdict, evidence = decide(text, tmp_path)["some-negative-energy"]
    assert verdict is Verdict.CERTIFIED, evidence
    (path,) = evidence["certificates"]
    assert verify_file(Path(path))[0]


def test_the_merged_engine_assumes_nothing_of_a_stated_phi(tmp_path: Path) -> None:
    """Found on merging interaction functions with the sums engine: a normalized phi-weight is neither the softmax
    p (so not summed to 1 by softmax's rule, and not symmetric with the scores), an unnormalized phi(s) has no sign,
    and no exact witness or stationary start speaks for a stated phi (their exact model has exp weights)."""

    def claim(ident: str, attention: str, phi: str, lhs: str, op: str, rhs: str, extra: str = "") -> str:
        return (
            f'[[claim]]\nid = "{ident}"\nkind = "model"\nattention = "{attention}"\ninteraction = "{phi}"\n'
            f'assume = ["symmetric-scores", "aligned-values"]\nlhs = "{lhs}"\nop = "{op}"\nrhs = "{rhs}"\n{extra}\n'
        )

    positive = "exp(beta*s) + 1"
    unproved = [
        claim(
            "not-symmetric", "softmax", positive, "sum_i(sum_j(w_h_ij * a_h_i))", "=", "sum_i(sum_j(w_h_ji * a_h_i))"
        ),
        claim("normalized-is-not-p", "softmax", positive, "sum_j(w_h_ij * s_h_ij)", "=", "sum_j(p_h_ij * s_h_ij)"),
        claim("no-sign", "usa", "s**2 - 2", "sum_j(w_h_ij)", ">", "0"),
        claim("no-energy-sign", "usa", "s**2", "E", ">", "0"),
    ]
    for text in unproved:  # each false for some phi-weighted configuration: the engine must not prove it
        (parsed,) = parse_claims(text, "t.toml")
        assert not prove_model(parsed).proved, text
    verdicts = decide(claim("exact-equality", "usa", positive, "dE_dt", "=", "0", "exists = true"), tmp_path)
    assert verdicts["exact-equality"][0] is not Verdict.CERTIFIED
