"""examples/literature.toml: published results on attention dynamics (GLPR, Rigollet's survey, CRMB, PRY, KPR, KGPR,
CLPR, Kuramoto/Taylor) stated as generally as the claims language allows, each with a false neighbour. Every verdict
is pinned (slow: the whole file, ~1.5 min), no neighbour comes out PROVED, CERTIFIED or CONFIRMED, every certificate
is accepted by `check-cert`; the cheap default test checks that the file parses and pairs each result with a
neighbour."""

from __future__ import annotations

from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.checks.verdicts import Verdict

from tests.checking import verify_file
from tests.checks.claimsfile.test_model_claims import decide

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "literature.toml"

P, C, R, F, U = Verdict.PROVED, Verdict.CERTIFIED, Verdict.REFUTED, Verdict.CONFIRMED, Verdict.INCONCLUSIVE
#: The verdict of every claim, as the file's comments say. INCONCLUSIVE ones are gaps the comments name (a route
#: that does not reach the claim), never a false claim let through.
EXPECTED = {
    "gl-pr.usa-gradient-ascent": P,
    "gl-pr.usa-gradient-ascent.wrong-no-symmetry": R,
    "gl-pr.usa-energy-monotone": P,
    "gl-pr.usa-energy-monotone.wrong-general-heads": R,
    "gl-pr.sa-one-head-energy-monotone": P,
    "gl-pr.sa-one-head-energy-monotone.wrong-two-heads": R,
    "gl-pr.hemisphere-collapse": F,
    "gl-pr.hemisphere-collapse.sa": F,
    "gl-pr.hemisphere-collapse.wrong-mixed-heads": R,
    "gl-pr.cluster-ae-d3": F,
    "gl-pr.cluster-ae-d3.wrong-every-start": R,
    "gl-pr.simplex-critical": P,
    "gl-pr.simplex-critical.wrong-orthonormal": R,
    "gl-pr.equiangular-rate": P,
    "gl-pr.equiangular-rate.wrong-factor": R,
    "gl-pr.circle-arc-never-grows": P,
    "gl-pr.circle-arc-never-grows.wrong-bound": U,
    "clpr.w2-to-dirac": F,
    "clpr.w2-to-dirac.wrong-limit": R,
    "gkpr.metastable-last-merge": F,
    "gkpr.metastable-last-merge.wrong-radius": R,
    "rig.entropy-moment-identity": P,
    "rig.entropy-moment-identity.wrong-sign": R,
    "rig.entropy-non-negative": P,
    "rig.entropy-non-negative.wrong-log-n": R,
    "rig.entropy-limit": P,
    "rig.entropy-limit.wrong-zero": R,
    "rig.long-context.critical": P,
    "rig.long-context.critical.wrong-limit": R,
    "rig.long-context.supercritical": P,
    "rig.long-context.supercritical.gamma-2": P,
    "rig.long-context.supercritical.wrong-domain": R,
    "rig.long-context.subcritical": P,
    "crmb.general-interaction-energy-monotone": P,
    "crmb.general-interaction-energy-monotone.wrong-general-heads": R,
    "crmb.sphere-sync-general-interaction": F,
    "crmb.sphere-sync-general-interaction.wrong-every-start": U,
    "crmb.antipodal-unstable": C,
    "crmb.antipodal-unstable.wrong-stable": R,
    "crmb.tetrahedron-unstable": C,
    "crmb.tetrahedron-unstable.wrong-stable": R,
    "crmb.cluster-stable": C,
    "crmb.cluster-stable.wrong-unstable": R,
    "crmb.circle-sync-small-beta": F,
    "crmb.circle-sync-small-beta.wrong-every-start": R,
    "pry.triangle-stable-repulsive": P,
    "pry.triangle-stable-repulsive.wrong-threshold": R,
    "kpr.first-token-fixed": P,
    "kpr.first-token-fixed.wrong-general-values": R,
    "kpr.causal-collapse": F,
    "kpr.causal-collapse.wrong-every-start": R,
    "kpr.causal-not-gradient": C,
    "kpr.causal-not-gradient.wrong-monotone": R,
    "kpr.causal-pair-rate": P,
    "kpr.causal-pair-rate.wrong-unmasked": R,
    "kgpr.pre-ln-power-law": U,
    "kgpr.pre-ln-power-law.instance": P,
    "kgpr.pre-ln-power-law.wrong-exponent": R,
    "kgpr.post-ln-exponential": P,
    "kgpr.post-ln-exponential.wrong-rate": R,
    "kgpr.ngpt-exponential": P,
    "kgpr.ngpt-exponential.wrong-power-law": R,
    "kgpr.peri-ln-power-law": P,
    "kgpr.peri-ln-power-law.wrong-exponent": R,
    "kgpr.pre-ln-energy-monotone": P,
    "kgpr.pre-ln-energy-monotone.wrong-peri-ln-two-heads": R,
    "clpr.exponential-clustering": F,
    "clpr.exponential-clustering.wrong-relu": R,
    "kuramoto.energy-monotone": P,
    "kuramoto.energy-monotone.wrong-causal": R,
    "kuramoto.order-parameter-monotone": F,
    "kuramoto.order-parameter-monotone.wrong-attention-coupling": R,
    "taylor.complete-graph-sync": F,
    "taylor.complete-graph-sync.wrong-every-start": U,
    "taylor.dense-graph-sync": F,
    "taylor.dense-graph-sync.wrong-ring": U,
    "taylor.dense-graph-sync.wrong-ring-every-start": U,
}
#: The energy-along-trajectories statements (USA and general interactions as gradient ascents, Kuramoto, Pre-LN):
#: PROVED through their pointwise statement or the schemes' identity.
ENERGY_ALONG_TRAJECTORIES = [
    "gl-pr.usa-energy-monotone",
    "gl-pr.sa-one-head-energy-monotone",
    "crmb.general-interaction-energy-monotone",
    "kuramoto.energy-monotone",
    "kgpr.pre-ln-energy-monotone",
]


def test_the_file_parses_and_every_result_has_a_false_neighbour() -> None:
    claims = parse_claims(EXAMPLE.read_text(), str(EXAMPLE))
    ids = [claim.id for claim in claims]
    assert len(ids) == len(set(ids)) and set(ids) == set(EXPECTED)
    neighbours = {claim_id for claim_id in ids if ".wrong-" in claim_id}
    results = [claim_id for claim_id in ids if claim_id not in neighbours]
    stems = {claim_id.split(".wrong-")[0] for claim_id in neighbours}
    # every source has a neighbour; results sharing one (a variant, `.sa`, `.instance`, `.gamma-2`) share its stem
    assert {r.split(".")[0] for r in results} <= {s.split(".")[0] for s in stems}
    assert len(results) >= 20


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Verdict, dict]]:
    return decide(EXAMPLE.read_text(), tmp_path_factory.mktemp("certs"))


@pytest.mark.slow
def test_every_literature_claim_is_decided_as_its_comment_says(examples: dict[str, tuple[Verdict, dict]]) -> None:
    assert {k: v for k, (v, _) in examples.items()} == EXPECTED


@pytest.mark.slow
def test_no_false_neighbour_is_proved_certified_or_confirmed(examples: dict[str, tuple[Verdict, dict]]) -> None:
    wrong = {k: v for k, (v, _) in examples.items() if ".wrong-" in k and v in (P, C, F)}
    assert wrong == {}


@pytest.mark.slow
def test_the_energy_along_trajectories_is_proved(examples: dict[str, tuple[Verdict, dict]]) -> None:
    assert all(examples[k][0] is P for k in ENERGY_ALONG_TRAJECTORIES)


@pytest.mark.slow
def test_every_literature_certificate_is_accepted_by_check_cert(examples: dict[str, tuple[Verdict, dict]]) -> None:
    paths = [Path(p) for _, evidence in examples.values() for p in evidence.get("certificates", [])]
    assert len(paths) >= 20
    for path in paths:
        ok, message = verify_file(path)
        assert ok, message
