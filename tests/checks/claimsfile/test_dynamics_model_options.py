"""Dynamics claims beyond the paper's model: `mask` (causal or rows of 0/1), `values = "identity"`, beta of either
sign. A false claim under the mask (or with W = I) is REFUTED by a ball-verified witness of the masked model, which
check-cert re-checks; a witness with its mask removed, or relabelled to the unmasked claim, is rejected; the exact
equiangular route stays out of the masked and repulsive models (it does not hold there)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.errors import InputError
from headflow.certificates.kernel import recheck
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.store import build_certificate
from headflow.checks.claimsfile.dynamics_decider import _decide_numerically
from headflow.checks.claimsfile.exact_dynamics import applies, decide_exactly
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict

from tests.checking import verify_file

BASE = """
id = "{id}"
kind = "dynamics"
quantity = "{quantity}"
property = "non-decreasing"
n = 4
d = 3
beta = {beta}
heads = "random-symmetric"
tokens = "random-sphere"
"""


def claim(claim_id: str, quantity: str = "energy", beta: str = "1", **extra: object) -> str:
    lines = "".join(f"{k} = {json.dumps(v)}\n" for k, v in extra.items())
    return "[[claim]]" + BASE.format(id=claim_id, quantity=quantity, beta=beta) + lines + "\n"


def decide(text: str, directory: Path) -> dict[str, tuple[Verdict, dict]]:
    registry = register_claims(parse_claims(textwrap.dedent(text), "t.toml"))
    results = run_claims(registry.claims(), Context("quick", seed=5, certificate_dir=directory))
    assert not any(r.crashed for r in results)
    return {r.claim.id: (r.verdict, r.outcomes[0][1].as_dict()) for r in results}


@pytest.fixture(scope="module")
def decided(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Verdict, dict]]:
    text = claim("causal", mask="causal") + claim("identity", values="identity") + claim("repulsive", beta="-1")
    text += claim("spd", values="spd")
    return decide(text, tmp_path_factory.mktemp("certs"))


def test_false_claims_of_the_masked_and_identity_value_models_are_refuted_and_recheck(decided: dict) -> None:
    for claim_id in ("causal", "identity", "spd"):
        verdict, evidence = decided[claim_id]
        assert verdict is Verdict.REFUTED, (claim_id, evidence)
        ok, message = verify_file(Path(evidence["certificates"][0]))
        assert ok, message
    # T11 for beta < 0: the energy does not decrease, PROVED through dE/dt >= 0 at every configuration with beta < 0
    assert decided["repulsive"][0] is Verdict.PROVED


def _relabelled(path: Path, text: str, change=lambda payload: None) -> Path:
    data = json.loads(path.read_text())
    change(data["payload"])
    (other,) = parse_claims(text, "t.toml")
    out = path.with_name("forged.json")
    out.write_text(json.dumps(build_certificate(other.id, data["kind"], data["payload"], embedded(other))))
    return out


def test_the_masked_witness_is_no_witness_without_its_mask(decided: dict) -> None:
    path = Path(decided["causal"][1]["certificates"][0])
    unmasked = _relabelled(path, claim("causal"))  # the same data for the claim without a mask
    assert not verify_file(unmasked)[0]
    stripped = _relabelled(path, claim("causal", mask="causal"), lambda p: p["configuration"].pop("mask"))
    assert not verify_file(stripped)[0]
    other = [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [0, 1, 1, 1]]
    assert not verify_file(_relabelled(path, claim("causal", mask=other)))[0]  # a different mask


def test_an_spd_witness_with_values_that_are_not_positive_definite_is_rejected(decided: dict) -> None:
    path = Path(decided["spd"][1]["certificates"][0])

    def indefinite(payload: dict) -> None:
        W = payload["configuration"]["values"][0]
        W[0][0] = "-" + W[0][0].lstrip("-") if W[0][0] != "0" else "-1"

    assert not verify_file(_relabelled(path, claim("spd", values="spd"), indefinite))[0]
    assert not verify_file(_relabelled(path, claim("spd")))[0]  # SPD values are not W = M


def test_a_configuration_record_has_a_mask_only_where_the_claim_has_one() -> None:
    identity = [["1", "0"], ["0", "1"]]
    record = {"tokens": identity, "scores": [identity], "values": [identity], "beta": "1", "attention": "usa",
              "geometry": "sphere"}  # fmt: skip
    assert recheck.exact_configuration(record).mask is None
    with pytest.raises(Rejected):  # a paper claim's witness cannot smuggle a mask in
        recheck.exact_configuration(record | {"mask": [[1, 0], [1, 1]]})
    with pytest.raises(Rejected):
        recheck.exact_configuration(record, masked=True)
    with pytest.raises(Rejected, match="mask"):
        recheck.exact_configuration(record | {"mask": [[1, 0], [1, 0]]}, masked=True)
    with pytest.raises(Rejected, match="beta"):
        recheck.exact_configuration(record | {"beta": "-1"})
    assert recheck.exact_configuration(record | {"beta": "-1"}, negative_beta=True).beta == -1


@pytest.mark.parametrize(
    ("extra", "beta", "quantity", "field"),
    [
        ({"mask": "upper"}, "1", "energy", "mask"),
        ({"mask": [[1, 0], [1, 1]]}, "1", "energy", "mask"),
        ({"mask": [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], [1, 1, 1, 1]]}, "1", "energy", "mask[2][2]"),
        ({"values": "general"}, "1", "energy", "values"),
        ({}, "0", "energy", "beta"),
        ({}, "0", "energy_rate", "beta"),
    ],
)
def test_bad_model_options_are_one_line_errors(extra: dict, beta: str, quantity: str, field: str) -> None:
    with pytest.raises(InputError) as info:
        parse_claims(claim("bad", quantity, beta, **extra), "t.toml")
    assert info.value.field == field


def test_beta_zero_is_allowed_where_no_energy_is_involved() -> None:
    (parsed,) = parse_claims(claim("uniform", "cluster_gap", "0", attention="softmax"), "t.toml")
    assert parsed.options["beta"] == 0


def test_the_exact_equiangular_route_stays_out_of_masked_and_repulsive_models() -> None:
    text = """
    [[claim]]
    id = "gap"
    kind = "dynamics"
    quantity = "cluster_gap"
    property = "tends-to"
    limit = "0"
    n = 3
    d = 3
    beta = {beta}
    heads = "scalar"
    lambdas = [1.0]
    tokens = "equiangular"
    rho = 0.3
    """
    for beta, extra in (("1", ""), ("1", 'mask = "causal"'), ("-1", ""), ("1", 'values = "identity"')):
        (parsed,) = parse_claims(textwrap.dedent(text.format(beta=beta)) + extra + "\n", "t.toml")
        assert applies(parsed) is (beta == "1" and not extra), (beta, extra)


PAIR = """
[[claim]]
id = "pair"
kind = "dynamics"
quantity = "first_pair_gap"
property = "decays-at-rate"
rate = "{rate}"
n = 5
d = 5
beta = 2
heads = "scalar"
lambdas = [1.0, 0.5]
tokens = "equiangular"
rho = 0.1
mask = "causal"
attention = "{attention}"
"""


@pytest.mark.parametrize(
    ("attention", "true_rate", "wrong_rate"),
    [("softmax", "1.5", "3"), ("usa", "2*(exp(2) + exp(1)/2)/5", "2*(exp(2) + exp(1)/2)")],
)
def test_the_exact_pair_rate_under_the_mask_is_what_the_integrated_model_shows(
    attention: str, true_rate: str, wrong_rate: str
) -> None:
    """The exact route (causal_reduction's pair) and the floats agree: the true rate PROVED and CONFIRMED, the
    unmasked one REFUTED exactly and not confirmed by the floats."""
    ctx = Context("quick", seed=0)
    (true,) = parse_claims(PAIR.format(rate=true_rate, attention=attention), "t.toml")
    (wrong,) = parse_claims(PAIR.format(rate=wrong_rate, attention=attention), "t.toml")
    assert decide_exactly(true, ctx).verdict is Verdict.PROVED
    assert decide_exactly(wrong, ctx).verdict is Verdict.REFUTED
    assert _decide_numerically(true, ctx).verdict is Verdict.CONFIRMED
    assert _decide_numerically(wrong, ctx).verdict is not Verdict.CONFIRMED
