"""Model claims beyond the paper (docs/models.md): causal masks, repulsive attention (beta < 0), values apart from
the scores. The example file is decided rightly (true PROVED, false REFUTED with re-checked certificates); the
symbolic route proves only what it derives (T11 for beta < 0, the fixed first token under the causal mask with
W = I) and refuses what fails (T11 under the mask, the first token with general values); forged certificates that
drop the mask, flip the sign of beta or move the witness off the first token are rejected.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.errors import InputError
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.kernel.masks import causal
from headflow.certificates.provers.model_witness import certify_model_witness
from headflow.certificates.statements.model import statement_data
from headflow.certificates.store import build_certificate
from headflow.checks.claimsfile.model_reduction import prove_model
from headflow.checks.verdicts import Verdict
from headflow.identities import energy

from tests.checking import verify_file
from tests.checks.claimsfile.test_model_claims import ROOT, SYMMETRIC_ALIGNED, T11, claim_text, decide


def certify(claim: Any, cfg: Any, at: dict[str, int], folder: Path) -> Any:
    """The model witness prover on the claim's statement, the claim embedded."""
    return certify_model_witness(statement_data(claim), cfg, at, folder, embedded(claim))


FIRST_STILL = ("norm2(xdot_i)", "=", "0")


def proved(text: str) -> bool:
    (claim,) = parse_claims(text, "t.toml")
    return prove_model(claim).proved


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Verdict, dict]]:
    return decide((ROOT / "examples" / "masks.toml").read_text(), tmp_path_factory.mktemp("certs"))


def test_the_examples_are_decided_rightly_and_their_certificates_recheck(examples: dict) -> None:
    true = ("causal-first-token-fixed", "repulsive-energy-rate", "causal-pair-rate")
    false = (
        "causal-first-token-fixed-general-values",
        "causal-energy-rate",
        "repulsive-energy-positive",
        "spd-values-energy-monotone",
    )
    for claim_id in true:
        assert examples[claim_id][0] is Verdict.PROVED, (claim_id, examples[claim_id][1])
    # through its pointwise statement dE/dt >= 0 at every configuration with beta < 0 (`pointwise_route`)
    assert examples["repulsive-energy-non-decreasing"][0] is Verdict.PROVED
    assert examples["causal-pair-unmasked-rate"][0] is Verdict.REFUTED  # exact: the rate differs from r*
    for claim_id in (*false, "causal-energy-non-decreasing"):
        verdict, evidence = examples[claim_id]
        assert verdict is Verdict.REFUTED, (claim_id, evidence)
        ok, message = verify_file(Path(evidence["certificates"][0]))
        assert ok, message
    ok, message = verify_file(Path(examples["causal-energy-rate"][1]["certificates"][0]))
    assert '"mask": "causal"' in message  # check-cert prints the statement it checked


def test_theorem_11_is_derived_for_negative_beta_and_fails_to_close_under_a_mask() -> None:
    """The engine decides: the gradient lemma closes for beta < 0 and not with general mask terms m_jk."""
    assert energy.gradient_lemma(beta_sign="negative").proved
    assert not energy.gradient_lemma(coefficient=2, beta_sign="negative").proved
    masked = energy.gradient_lemma(masked=True)
    assert not masked.proved and "m[k, j]" in masked.failures[0]
    assert proved(claim_text("t11-repulsive", SYMMETRIC_ALIGNED, *T11, beta="negative"))
    assert not proved(claim_text("t11-causal", SYMMETRIC_ALIGNED, *T11, mask="causal"))


@pytest.mark.parametrize(
    ("assume", "lhs", "op", "rhs", "beta", "expected"),
    [
        (SYMMETRIC_ALIGNED, "E", "<", "0", "negative", True),  # E = sum exp / (2 beta n^2) < 0 for beta < 0
        (SYMMETRIC_ALIGNED, "E", ">", "0", "negative", False),
        (SYMMETRIC_ALIGNED, "E", ">", "0", "positive", True),
        (SYMMETRIC_ALIGNED, "dE_dt", ">=", "0", "negative", True),  # T11's monotonicity for repulsion too
    ],
)
def test_the_sign_of_beta_enters_the_proof(assume, lhs, op, rhs, beta, expected) -> None:
    assert proved(claim_text("sign", assume, lhs, op, rhs, beta=beta)) is expected


@pytest.mark.parametrize(
    ("assume", "mask", "token", "expected"),
    [
        (["identity-values"], "causal", "first", True),
        (["scalar-heads", "aligned-values"], "causal", "first", True),
        (SYMMETRIC_ALIGNED, "causal", "first", False),  # W x_1 need not be parallel to x_1
        (["identity-values"], "none", "first", False),  # without the mask token 1 sees the others
        (["identity-values"], "causal", "every", False),  # later tokens move
    ],
)
def test_the_first_token_is_fixed_exactly_where_it_attends_to_itself_alone(assume, mask, token, expected) -> None:
    assert proved(claim_text("first", assume, *FIRST_STILL, mask=mask, token=token)) is expected


@pytest.mark.parametrize(
    ("extra", "field"),
    [({"mask": "lower"}, "mask"), ({"beta": "zero"}, "beta"), ({"token": "last"}, "token"), ({"token": 1}, "token")],
)
def test_bad_model_options_are_one_line_errors(extra: dict, field: str) -> None:
    with pytest.raises(InputError) as info:
        parse_claims(claim_text("bad", SYMMETRIC_ALIGNED, *FIRST_STILL, **extra), "t.toml")
    assert info.value.field == field


def test_token_first_needs_a_token_in_the_relation() -> None:
    with pytest.raises(InputError, match="token i"):
        parse_claims(claim_text("bad", SYMMETRIC_ALIGNED, *T11, token="first"), "t.toml")


# ---------------------------------------------------------------- forged certificates

ONE, ZERO = Fraction(1), Fraction(0)
#: M = W = diag(1, 2), x_1 = (3/5, 4/5): W x_1 is not parallel to x_1, so the first token moves under the mask.
HEAD = [[ONE, ZERO], [ZERO, Fraction(2)]]
TOKENS = [[Fraction(3, 5), Fraction(4, 5)], [ZERO, ONE], [ONE, ZERO]]


def _certificate(tmp_path: Path, value: Fraction = ONE, **options: str) -> tuple[Path, object]:
    text = claim_text("first-moves", SYMMETRIC_ALIGNED, *FIRST_STILL, mask="causal", token="first", **options)
    (claim,) = parse_claims(text, "t.toml")
    cfg = ExactConfiguration(TOKENS, [HEAD], [HEAD], value, "sphere", "usa", causal(3))
    result = certify(claim, cfg, {"i": 0}, tmp_path)
    assert result.verified, result.reason
    return result.path, claim  # type: ignore[return-value]


def _forged(path: Path, change, claim_options: dict | None = None) -> Path:
    data = json.loads(path.read_text())
    change(data["payload"])
    text = claim_text("first-moves", SYMMETRIC_ALIGNED, *FIRST_STILL, **(claim_options or {}))
    (claim,) = parse_claims(text, "t.toml")
    out = path.with_name("forged.json")
    out.write_text(json.dumps(build_certificate(data["claim_id"], data["kind"], data["payload"], embedded(claim))))
    return out


def test_the_honest_first_token_witness_is_accepted(tmp_path: Path) -> None:
    path, _ = _certificate(tmp_path)
    ok, message = verify_file(path)
    assert ok and '"mask": "causal"' in message and '"fixed": {"i": 0}' in message, message


def test_a_witness_without_the_claims_mask_is_rejected(tmp_path: Path) -> None:
    path, _ = _certificate(tmp_path)
    masked = {"mask": "causal", "token": "first"}
    assert not verify_file(_forged(path, lambda p: p["configuration"].pop("mask"), masked))[0]
    # the masked witness relabelled as a witness of the unmasked claim (where x_1 sees every token)
    assert not verify_file(_forged(path, lambda p: None, {"token": "first"}))[0]


def test_a_forged_mask_is_rejected(tmp_path: Path) -> None:
    path, _ = _certificate(tmp_path)

    def no_diagonal(payload: dict) -> None:
        payload["configuration"]["mask"][1][1] = 0

    assert not verify_file(_forged(path, no_diagonal, {"mask": "causal", "token": "first"}))[0]


def test_a_witness_off_the_first_token_is_rejected(tmp_path: Path) -> None:
    path, _ = _certificate(tmp_path)

    def second_token(payload: dict) -> None:
        payload["at"] = {"i": 1}

    assert not verify_file(_forged(path, second_token, {"mask": "causal", "token": "first"}))[0]


def test_the_sign_of_beta_is_the_claims_not_the_certificates(tmp_path: Path) -> None:
    path, _ = _certificate(tmp_path)
    repulsive = {"mask": "causal", "token": "first", "beta": "negative"}
    assert not verify_file(_forged(path, lambda p: None, repulsive))[0]  # beta = 1 for a claim about beta < 0
    negative, _ = _certificate(tmp_path, Fraction(-1), beta="negative")
    assert verify_file(negative)[0]
    assert not verify_file(_forged(negative, lambda p: None, {"mask": "causal", "token": "first"}))[0]


def test_given_masks_and_interactions_under_masks_are_decided_and_forgeries_rejected(examples: dict) -> None:
    """A given 0/1 mask and an interaction under the causal mask: the orthogonality lemma PROVED for any weights,
    Theorem 11 REFUTED by ball-verified witnesses carrying the mask (and phi); the witness of one mask filed under a
    claim with another mask (or with none, or the causal one) is rejected."""
    for claim_id in ("given-mask-orthogonality", "masked-interaction-orthogonality"):
        assert examples[claim_id][0] is Verdict.PROVED, (claim_id, examples[claim_id][1])
    for claim_id in ("given-mask-energy-rate", "masked-interaction-energy-rate"):
        verdict, evidence = examples[claim_id]
        assert verdict is Verdict.REFUTED, (claim_id, evidence)
        assert verify_file(Path(evidence["certificates"][0]))[0]
    path = Path(examples["given-mask-energy-rate"][1]["certificates"][0])
    mine = claim_text("given-mask-energy-rate", SYMMETRIC_ALIGNED, *T11, mask=[[1, 1, 0], [0, 1, 1], [1, 0, 1]])
    assert verify_file(_filed_under(path, mine))[0]
    for other in ([[1, 0, 1], [1, 1, 0], [0, 1, 1]], "causal", None):
        extra = {} if other is None else {"mask": other}
        forged = claim_text("given-mask-energy-rate", SYMMETRIC_ALIGNED, *T11, **extra)
        ok, message = verify_file(_filed_under(path, forged))
        assert not ok, (other, message)
    phi = Path(examples["masked-interaction-energy-rate"][1]["certificates"][0])
    unmasked = claim_text("masked-interaction-energy-rate", SYMMETRIC_ALIGNED, *T11, interaction="1 + s**2")
    assert not verify_file(_filed_under(phi, unmasked))[0]


def _filed_under(path: Path, text: str) -> Path:
    """The certificate's payload filed under the claim of `text`."""
    data = json.loads(path.read_text())
    (other,) = parse_claims(text, "t.toml")
    out = path.with_name(f"filed-{abs(hash(text))}.json")
    out.write_text(json.dumps(build_certificate(other.id, data["kind"], data["payload"], embedded(other))))
    return out


def test_a_repulsive_refutation_carries_its_negative_beta(examples: dict) -> None:
    """beta = -1, general heads: the energy decreases at a ball-verified exact state with beta = -1; filed under the
    same claim with beta = 1 it is rejected."""
    verdict, evidence = examples["repulsive-general-energy-non-decreasing"]
    assert verdict is Verdict.REFUTED, evidence
    path = Path(evidence["certificates"][0])
    assert json.loads(path.read_text())["payload"]["configuration"]["beta"] == "-1"
    tables = (ROOT / "examples" / "masks.toml").read_text().split("[[claim]]")
    (mine,) = ["[[claim]]" + t for t in tables if 'id = "repulsive-general-energy-non-decreasing"' in t]
    assert verify_file(_filed_under(path, mine))[0]
    ok, message = verify_file(_filed_under(path, mine.replace("beta = -1", "beta = 1")))
    assert not ok and "beta" in message, message
