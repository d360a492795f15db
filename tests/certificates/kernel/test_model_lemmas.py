"""Claims-file model claims beyond the paper's identities that a lemma of the kernel's table implies
(`certificates.statements.model_lemmas`): tangency on the sphere for every kind, mask and interaction, the first
token fixed under the causal mask, the softmax gradient identity and its one-head monotonicity, orthogonal heads'
outputs, and Theorem 11 for every weight phi: any interaction, or exp(beta s) with beta < 0 (repulsive attention;
the kernel writes the claim's phi into the lemma's identities). Each example claim carries the lemma's `gram`
certificate, re-checked by check-cert against its claims file and by Coq; each lemma refuses the statements it does
not imply (a lemma leaves some fields open, never the geometry, the token, the hypotheses or the given conditions it
needs).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.coq.source import source
from headflow.certificates.kernel import inner_products, registry_statements
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.gram_identities import certify_model, certify_pointwise
from headflow.certificates.statements.model_lemmas import MODEL_LEMMAS
from headflow.checks.rechecks import recheck

from tests.coq_tier import needs_coqc
from tests.forging import forged_file
from tests.sample_claims import EXAMPLES, certificates_of, claims_of, example, one_claim

#: (examples file, claim id) -> the lemma its certificate cites.
CITED = {
    ("masks", "given-mask-orthogonality"): "lemma.sphere-tangency",
    ("masks", "masked-interaction-orthogonality"): "lemma.sphere-tangency",
    ("masks", "causal-first-token-fixed"): "lemma.causal-first-token",
    ("literature", "kpr.first-token-fixed"): "lemma.causal-first-token",
    ("quantities", "softmax-energy-rate"): "lemma.softmax-gradient",
    ("literature", "gl-pr.sa-one-head-energy-monotone"): "lemma.softmax-one-head",
    ("masks", "repulsive-energy-rate"): "lemma.interaction-energy-rate",
    ("masks", "repulsive-energy-non-decreasing"): "lemma.interaction-energy-rate",
    ("sums", "orthogonal-pythagoras"): "lemma.orthogonal-heads",
    ("interactions", "energy-rate-square-interaction"): "lemma.interaction-energy-rate",
    ("interactions", "energy-monotone-shifted-exp"): "lemma.interaction-energy-rate",
    ("literature", "crmb.general-interaction-energy-monotone"): "lemma.interaction-energy-rate",
    ("literature", "kuramoto.energy-monotone"): "lemma.interaction-energy-rate",
    ("normalization", "pre-ln.energy-non-decreasing"): "lemma.scheme-energy",
    ("normalization", "mix-ln.softmax-energy-non-decreasing"): "lemma.scheme-energy",
    ("literature", "kgpr.pre-ln-energy-monotone"): "lemma.scheme-energy",
    ("identical_heads", "identical-heads-energy-share"): "lemma.identical-heads-energy",
    ("identical_heads", "identical-heads-rate-share"): "T19.monotonicity-regime",
}


def _certificate(claim: Any, folder: Path) -> Path | None:
    """The gram certificate of a model claim, or of a dynamics claim through its pointwise statement."""
    return (certify_pointwise if isinstance(claim, DynamicsClaim) else certify_model)(claim, folder)


@pytest.mark.parametrize(("name", "claim_id"), CITED)
def test_an_example_claim_carries_its_lemma_and_is_held_to_its_file(name: str, claim_id: str, tmp_path: Path) -> None:
    text = example(name, claim_id)
    path = _certificate(one_claim(text), tmp_path)
    assert path is not None
    checked = check_file(path)
    assert checked.ok, checked.message
    assert f"claim {claim_id!r}: proves" in checked.proved
    assert f"which follows from {CITED[name, claim_id]}: " in checked.proved
    assert recheck(path, claims={claim_id: one_claim(text)}, read_claim=True).ok


MODEL = """
[[claim]]
id = "edited"
kind = "model"
{fields}
"""
#: Statements no lemma implies, each a lemma's claim with what it needs taken away (most are false as well).
NOT_IMPLIED = {
    "tangency in the flat geometry": 'geometry = "flat"\nlhs = "inner(x_i, xdot_i)"\nop = "="\nrhs = "0"',
    "every token fixed under the causal mask": 'mask = "causal"\nassume = ["identity-values"]\nlhs = "norm2(xdot_i)"'
    '\nop = "="\nrhs = "0"',
    "the first token fixed without a mask": 'token = "first"\nassume = ["identity-values"]\nlhs = "norm2(xdot_i)"'
    '\nop = "="\nrhs = "0"',
    "the first token fixed with any values": 'mask = "causal"\ntoken = "first"\nlhs = "norm2(xdot_i)"\nop = "="'
    '\nrhs = "0"',
    "softmax monotone with two heads": 'attention = "softmax"\nassume = ["symmetric-scores", "aligned-values"]'
    '\nlhs = "dE_dt"\nop = ">="\nrhs = "0"\n[claim.domain]\nH = { min = 1, max = 2 }',
    "the softmax gradient with a wrong factor": 'attention = "softmax"\nassume = ["symmetric-scores"]\nlhs = "dE_h_dt"'
    '\nop = "="\nrhs = "sum_i(Z_h_i * inner(xdot_i, M_h(xbar_h_i))) / n"',
    "the softmax gradient without symmetric scores": 'attention = "softmax"\nlhs = "dE_h_dt"\nop = "="'
    '\nrhs = "sum_i(Z_h_i * inner(xdot_i, M_h(xbar_h_i))) / n**2"',
    "an interaction's energy rate under the causal mask": 'mask = "causal"\ninteraction = "1 + s**2"\nassume = '
    '["symmetric-scores", "aligned-values"]\nlhs = "dE_dt"\nop = "="\nrhs = "sum_i(norm2(xdot_i)) / n"',
    "an interaction's energy rate with a wrong factor": 'interaction = "1 + s**2"\nassume = ["symmetric-scores", '
    '"aligned-values"]\nlhs = "dE_dt"\nop = "="\nrhs = "sum_i(norm2(xdot_i)) / n**2"',
    "an interaction's energy rate without aligned values": 'interaction = "1 + s**2"\nassume = ["symmetric-scores"]'
    '\nlhs = "dE_dt"\nop = ">="\nrhs = "0"',
    "pythagoras without orthogonal heads": 'assume = ["symmetric-scores", "aligned-values"]\nlhs = "norm2(F_i)"\nop = '
    '"="\nrhs = "sum_h(norm2(f_h_i))"',
    "an energy share without identical heads": 'assume = ["symmetric-scores"]\nlhs = "E_h"\nop = "="\nrhs = "E / H"',
    "half an energy share": 'assume = ["identical-heads"]\nlhs = "E_h"\nop = "="\nrhs = "E / (2 * H)"',
    "a rate share without aligned values under softmax": 'attention = "softmax"\nassume = ["identical-heads"]\nlhs = '
    '"H * dE_h_dt"\nop = "="\nrhs = "dE_dt"',
    "repulsive in the flat geometry": 'geometry = "flat"\nbeta = "negative"\nassume = ["symmetric-scores", '
    '"aligned-values"]\nlhs = "dE_dt"\nop = "="\nrhs = "sum_i(norm2(xdot_i)) / n"',
}


SCHEME = """
[[claim]]
id = "scheme"
kind = "dynamics"
quantity = "energy"
property = "non-decreasing"
tokens = "random-sphere"
n = 3
d = 2
beta = 1.0
{fields}"""
#: Scheme energy claims the scheme lemma does not imply (each false, or not what it states).
SCHEME_NOT_IMPLIED = {
    "two softmax heads": 'geometry = "peri-ln"\nattention = "softmax"\nheads = "random-symmetric"\nH = 2',
    "heads without symmetric scores": 'geometry = "pre-ln"\nheads = "random-general"\nH = 2',
    "the values not aligned": 'geometry = "mix-ln"\nheads = "random-symmetric"\nvalues = "identity"\nH = 1',
    "one head's energy": 'geometry = "pre-ln"\nheads = "random-symmetric"\nhead = 1\nH = 2',
}


@pytest.mark.parametrize("attack", SCHEME_NOT_IMPLIED)
def test_a_scheme_energy_claim_the_lemma_does_not_imply_gets_no_certificate(attack: str, tmp_path: Path) -> None:
    assert certify_pointwise(one_claim(SCHEME.format(fields=SCHEME_NOT_IMPLIED[attack])), tmp_path) is None


@pytest.mark.parametrize("scheme", ["pre-ln", "peri-ln", "mix-ln", "ngpt"])
def test_every_scheme_energy_claim_of_usa_heads_carries_the_scheme_lemma(scheme: str, tmp_path: Path) -> None:
    text = SCHEME.format(fields=f'geometry = "{scheme}"\nheads = "random-symmetric"\nH = 2')
    path = certify_pointwise(one_claim(text), tmp_path)
    assert path is not None and "which follows from lemma.scheme-energy" in check_file(path).proved
    assert recheck(path, claims={"scheme": one_claim(text)}, read_claim=True).ok


def test_a_scheme_certificate_relabelled_for_a_false_claim_is_refused(tmp_path: Path) -> None:
    # the Pre-LN certificate of usa heads, filed under the claim of two softmax heads under Peri-LN (false)
    genuine = SCHEME.format(fields='geometry = "pre-ln"\nheads = "random-symmetric"\nH = 2')
    path = certify_pointwise(one_claim(genuine), tmp_path)
    assert path is not None and check_file(path).ok
    false = one_claim(SCHEME.format(fields=SCHEME_NOT_IMPLIED["two softmax heads"]))
    assert not recheck(path, claims={"scheme": false}, read_claim=True).ok


def test_a_wrong_identical_heads_identity_fails_the_kernel() -> None:
    # alpha^2 in place of alpha: <x_j, alpha x_k> = alpha^2 <x_j, x_k> is no identity
    lemma = MODEL_LEMMAS["lemma.identical-heads-energy"]
    ((lhs, rhs),) = lemma.identities
    wrong = dataclasses.replace(lemma, identities=((lhs, ["mul", ["sym", "alpha"], rhs]),))
    with pytest.raises(Rejected):
        inner_products.check(wrong.entry(), "lemma.identical-heads-energy", {}, 0)


def test_an_energy_share_certificate_relabelled_for_half_the_share_is_refused(tmp_path: Path) -> None:
    path = _certificate(one_claim(example("identical_heads", "identical-heads-energy-share")), tmp_path)
    assert path is not None and check_file(path).ok
    half = one_claim(
        MODEL.format(fields=NOT_IMPLIED["half an energy share"]).replace('"edited"', '"identical-heads-energy-share"')
    )
    assert not recheck(path, claims={"identical-heads-energy-share": half}, read_claim=True).ok


def test_a_wrong_speed_identity_fails_the_kernel() -> None:
    # sigma^2 in place of sigma: <sigma P u, u> = sigma^2 |P u|^2 is no identity
    lemma = MODEL_LEMMAS["lemma.scheme-energy"]
    gradient, direction, (lhs, rhs) = lemma.identities
    wrong = dataclasses.replace(lemma, identities=(gradient, direction, (lhs, ["mul", ["sym", "sigma"], rhs])))
    with pytest.raises(Rejected):
        inner_products.check(wrong.entry(), "lemma.scheme-energy", {}, 0)


@pytest.mark.parametrize("attack", NOT_IMPLIED)
def test_a_statement_no_lemma_implies_gets_no_certificate(attack: str, tmp_path: Path) -> None:
    assert certify_model(one_claim(MODEL.format(fields=NOT_IMPLIED[attack])), tmp_path) is None
    assert not list(tmp_path.iterdir())


def _edit_statement(key: str, value: Any) -> Any:
    def edit(data: dict[str, Any]) -> None:
        data["statement"][key] = value

    return edit


FORGED = {
    "the first token freed": ("causal-first-token-fixed", "fixed", {}),
    "the mask dropped": ("causal-first-token-fixed", "mask", "none"),
    "the values' hypothesis dropped": ("causal-first-token-fixed", "hypotheses", ["unit-tokens"]),
    "tangency made flat": ("given-mask-orthogonality", "geometry", "flat"),
    "tangency made an existence": ("given-mask-orthogonality", "exists", True),
}


#: What a forged interaction could make of the lemma's weight phi_jk: each is refused as the statement's interaction.
INTERACTIONS = {
    "the placeholder itself": ["sym", "phi_jk"],
    "a Gram symbol": ["sym", "g_xj_Mxk"],
    "another score": ["inner", ["vec", "xj"], ["vec", "xk"]],
    "a rate": ["rate", ["sym", "s"]],
}


@pytest.mark.parametrize("attack", INTERACTIONS)
def test_a_forged_interaction_is_refused(attack: str, tmp_path: Path) -> None:
    path = _certificate(one_claim(example("interactions", "energy-rate-square-interaction")), tmp_path)
    assert path is not None
    checked = check_file(forged_file(path, tmp_path, _edit_statement("interaction", INTERACTIONS[attack])))
    assert not checked.ok and "interaction" in checked.message, checked.message


@pytest.mark.parametrize("attack", FORGED)
def test_a_forged_lemma_certificate_is_refused(attack: str, tmp_path: Path) -> None:
    claim_id, key, value = FORGED[attack]
    path = _certificate(one_claim(example("masks", claim_id)), tmp_path)
    assert path is not None
    checked = check_file(forged_file(path, tmp_path, _edit_statement(key, value)))
    assert not checked.ok
    assert "none of its identities" in checked.message or "not a model" in checked.message, checked.message


def test_every_lemma_states_the_fields_it_needs() -> None:
    """A lemma leaves open only fields a claim can take any value of; the quantifier, geometry, token, hypotheses,
    given conditions, data and relation are always listed."""
    needed = {"exists", "geometry", "fixed", "hypotheses", "given", "data", "relation"}
    lemmas = {name: e for name, e in registry_statements.table().items() if name in MODEL_LEMMAS}
    assert len(lemmas) >= 5
    for name, entry in lemmas.items():
        for model in entry["models"]:
            assert needed <= model.keys() and model["exists"] is False, name


COQ = {
    "lemma.scheme-energy": ("normalization", "pre-ln.energy-non-decreasing"),
    "lemma.softmax-one-head": ("literature", "gl-pr.sa-one-head-energy-monotone"),
    "lemma.interaction-energy-rate": ("literature", "crmb.general-interaction-energy-monotone"),
    "lemma.identical-heads-energy": ("identical_heads", "identical-heads-energy-share"),
}


@needs_coqc
@pytest.mark.parametrize("lemma", COQ)
def test_coq_proves_a_lemma_certificate(lemma: str, tmp_path: Path) -> None:
    path = _certificate(one_claim(example(*COQ[lemma])), tmp_path)
    assert path is not None
    proved, coq_problem = problem(check_file(path))
    assert f"which follows from {lemma}" in proved
    assert run.compile_source(source(path.name, lemma, proved, coq_problem)).status == "accepted"


#: Invariant regions PROVED through their monotone statement dq/dt >= 0 (`pointwise.proof`), and the lemma or
#: identity their certificate cites.
REGIONS = {
    "energy.stays-above": "T11.energy-rate.spherical",
    "head-energy.softmax.stays-above.every-n": "lemma.softmax-one-head",
}


def test_an_invariant_region_proved_by_monotonicity_carries_its_monotone_statement(tmp_path: Path) -> None:
    """The certificate proves dq/dt >= 0 under the region claim's id, held to the claims file; the region proved
    through its bound (entropy >= 0 at every configuration) and the refuted one carry no gram certificate."""
    text = (EXAMPLES / "invariance.toml").read_text()
    found = certificates_of(text, tmp_path)
    claims = {claim.id: claim for claim in parse_claims(text)}
    grams = {name: path for name, path in found.items() if ".gram." in path.name}
    assert {path.name.split(".gram.")[0] for path in grams.values()} == set(REGIONS)
    for path in grams.values():
        checked = check_file(path)
        claim_id = path.name.split(".gram.")[0]
        assert checked.ok and f"which follows from {REGIONS[claim_id]}: " in checked.proved, checked.message
        assert '_dt >= 0"' in checked.proved
        assert recheck(path, claims=claims, read_claim=True).ok


def test_a_region_certificate_is_not_held_to_another_property(tmp_path: Path) -> None:
    """The same monotone statement under a claim whose property no monotone statement implies (energy at least
    1/2 at every time from its random starts): --claims elaborates no statement for it, so the certificate is not
    its proof."""
    text = claims_of((EXAMPLES / "invariance.toml").read_text(), "energy.stays-above")
    path = certify_pointwise(one_claim(text), tmp_path)
    assert path is not None
    other = one_claim(text.replace('property = "stays-at-least"', 'property = "at-least"'))
    assert not recheck(path, claims={other.id: other}, read_claim=True).ok
