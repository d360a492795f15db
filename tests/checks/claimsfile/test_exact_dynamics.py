"""Cluster-gap claims decided on the exact equiangular reduction; flat runs that blow up, on their interval."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from headflow.certificates.claims.loader import parse_claims
from headflow.checks.claimsfile.exact_dynamics import METHOD
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.integrator import IntegrationFailure, integrate
from headflow.checks.model import families
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict
from headflow.identities import equiangular_reduction as er

from tests.checks.claimsfile.claim_texts import claim_text, gap_claim
from tests.checks.claimsfile.test_pointwise_route import float_route_only


def decide(text: str, directory: Path) -> dict[str, tuple[Verdict, dict]]:
    registry = register_claims(parse_claims(textwrap.dedent(text), "t.toml"))
    results = run_claims(registry.claims(), Context("quick", seed=3, certificate_dir=directory))
    assert not any(r.crashed for r in results)
    return {r.claim.id: (r.verdict, r.outcomes[0][1].as_dict()) for r in results}


RATES = "".join(
    [
        gap_claim("softmax.2L", "decays-at-rate", "2*(1 + 0.5)", "softmax", "[1.0, 0.5]", "0.2"),
        gap_claim("softmax.3L", "decays-at-rate", "3*(1 + 0.5)", "softmax", "[1.0, 0.5]", "0.2"),
        gap_claim("usa.exact", "decays-at-rate", "2*(exp(beta) + exp(beta/2)/2)", "usa", "[1.0, 0.5]", "-0.1"),
        gap_claim("usa.softmax-rate", "decays-at-rate", "3", "usa", "[1.0, 0.5]", "-0.1"),
        gap_claim("relu.exact", "decays-at-rate", "2*beta*(1 + 1/4)", "relu", "[1.0, 0.5, -0.7]", "0.1", beta="0.5"),
        gap_claim("relu.softmax-rate", "decays-at-rate", "2*(1 + 0.5 - 0.7)", "relu", "[1.0, 0.5, -0.7]", "0.1"),
        gap_claim("usa.spreads.rate", "decays-at-rate", "2*(exp(1) - 2*exp(-2))", "usa", "[1.0, -2.0]", "0.1"),
    ]
)


def test_decays_at_rate_is_proved_at_the_exact_rate_and_refuted_elsewhere(tmp_path: Path) -> None:
    verdicts = decide(RATES, tmp_path)
    for claim_id in ("softmax.2L", "usa.exact", "relu.exact"):
        verdict, evidence = verdicts[claim_id]
        assert verdict is Verdict.PROVED, (claim_id, evidence.get("notes"))
        assert evidence["method"] == METHOD
        texts = [step["text"] for step in evidence["steps"]]
        assert "eps(t) ~ C exp(-r t)" in texts[0] and any("eps(t) -> 0" in text for text in texts)
    witnesses = {claim_id: verdicts[claim_id][1].get("witness", {}) for claim_id in verdicts}
    assert verdicts["softmax.3L"][0] is Verdict.REFUTED and witnesses["softmax.3L"]["exact_rate"] == "3"
    assert witnesses["softmax.3L"]["verified_by"] == "ball"
    assert verdicts["usa.softmax-rate"][0] is Verdict.REFUTED
    assert (
        sp.simplify(sp.sympify(witnesses["usa.softmax-rate"]["exact_rate"]) - (2 * sp.E + sp.exp(sp.Rational(1, 2))))
        == 0
    )
    assert verdicts["relu.softmax-rate"][0] is Verdict.REFUTED and witnesses["relu.softmax-rate"]["exact_rate"] == "5/2"
    # Heads of both signs with S(rho0) < 0: the rate is the exact r*, but eps tends to n/(n-1), not 0.
    assert verdicts["usa.spreads.rate"][0] is Verdict.REFUTED
    assert "4/3" in witnesses["usa.spreads.rate"]["reading"]


LIMITS = "".join(
    [
        gap_claim("softmax.collapses", "tends-to", "0", "softmax", "[1.0, 0.5]", "0.2"),
        gap_claim("softmax.wrong-limit", "tends-to", "0.1", "softmax", "[1.0, 0.5]", "0.2"),
        gap_claim("usa.mixed.collapses", "tends-to", "0", "usa", "[1.0, -0.6]", "0.1"),
        gap_claim("usa.mixed.spreads", "tends-to", "n/(n-1)", "usa", "[1.0, -2.0]", "0.1"),
        gap_claim("usa.mixed.not-zero", "tends-to", "0", "usa", "[1.0, -2.0]", "0.1"),
        gap_claim("relu.stays", "tends-to", "1.1", "relu", "[1.0]", "-0.1", beta="0.5"),
        gap_claim("relu.stays.not-zero", "tends-to", "0", "relu", "[1.0]", "-0.1", beta="0.5"),
    ]
)


def test_tends_to_is_decided_on_the_exact_limit(tmp_path: Path) -> None:
    verdicts = decide(LIMITS, tmp_path)
    for claim_id in ("softmax.collapses", "usa.mixed.collapses", "usa.mixed.spreads", "relu.stays"):
        assert verdicts[claim_id][0] is Verdict.PROVED, (claim_id, verdicts[claim_id][1].get("notes"))
    for claim_id, limit in (
        ("softmax.wrong-limit", "0"),
        ("usa.mixed.not-zero", "4/3"),
        ("relu.stays.not-zero", "11/10"),
    ):
        verdict, evidence = verdicts[claim_id]
        assert verdict is Verdict.REFUTED and evidence["witness"]["exact_limit"] == limit, claim_id


OUTSIDE = gap_claim(
    "flat", "decays-at-rate", "3", "softmax", "[1.0, 0.5]", "0.2", geometry='"flat"', time="0.5"
) + claim_text(
    "random-tokens",
    quantity='"cluster_gap"',
    property='"tends-to"',
    limit='"0"',
    attention='"softmax"',
    heads='"scalar"',
    lambdas="[1.0]",
    tokens='"random-sphere"',
    n="3",
    d="3",
    beta="1.0",
    time="5.0",
)


@pytest.mark.slow
def test_outside_the_regime_the_float_route_decides(tmp_path: Path) -> None:
    verdicts = decide(OUTSIDE, tmp_path)
    for claim_id, (verdict, evidence) in verdicts.items():
        assert verdict not in (Verdict.PROVED, Verdict.REFUTED), claim_id
        assert evidence["method"] != METHOD, claim_id


def test_a_wrong_reduction_is_neither_proved_nor_refuted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A head term off by a factor 2 does not match the counting: the exact route stays undecided."""
    right = er.head_pull
    monkeypatch.setattr(er, "head_pull", lambda kind, strength: 2 * right(kind, strength))
    text = gap_claim("softmax.2L", "decays-at-rate", "2*(1 + 0.5)", "softmax", "[1.0, 0.5]", "0.2")
    text += gap_claim("softmax.4L", "decays-at-rate", "4*(1 + 0.5)", "softmax", "[1.0, 0.5]", "0.2")
    for claim_id, (verdict, evidence) in decide(text, tmp_path).items():
        assert verdict not in (Verdict.PROVED, Verdict.REFUTED), claim_id
        assert "the exact route did not decide" in evidence["notes"], claim_id


#: A flat usa run from equiangular tokens that leaves every bound at t ~ 0.054.
FLAT = {
    "geometry": '"flat"',
    "heads": '"scalar"',
    "lambdas": "[1.0]",
    "tokens": '"equiangular"',
    "rho": "0.5",
    "n": "3",
    "d": "3",
    "beta": "2.0",
    "time": "5.0",
}
FLAT_BLOW_UP = claim_text("flat.energy", quantity='"energy"', property='"non-decreasing"', **FLAT) + claim_text(
    "flat.gap-limit", quantity='"cluster_gap"', property='"tends-to"', limit='"0"', **FLAT
)


def _blowing_up() -> Configuration:
    X = families.equiangular_tokens(3, 3, 0.5)
    return Configuration.create(X, families.scalar_heads([1.0], 3), beta=2.0, geometry="flat")


def test_a_flat_blow_up_carries_the_interval_it_integrated() -> None:
    with pytest.raises(IntegrationFailure) as failure:
        integrate(_blowing_up(), 5.0, record_times=np.linspace(0.0, 5.0, 101), observables=("cluster_gap",))
    partial = failure.value.partial
    assert 0.0 < failure.value.t_reached == partial.t_end < 5.0
    assert partial.status == "step size underflow" and partial.times[-1] == partial.t_end
    assert np.all(np.diff(partial.times) > 0) and len(partial.times) >= 2
    assert "step size underflow" in str(failure.value)


def test_a_flat_blow_up_is_decided_on_the_integrated_interval_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    float_route_only(monkeypatch)  # the flat energy is PROVED non-decreasing through dE/dt >= 0: the runs are the test
    verdicts = decide(FLAT_BLOW_UP, tmp_path)
    verdict, evidence = verdicts["flat.energy"]
    assert verdict is Verdict.CONFIRMED
    (first, *_) = evidence["details"]["integrated_intervals"]
    assert 0.0 < first["checked_on"][1] <= first["t_reached"] < 5.0
    assert f"left every bound at t = {first['t_reached']:.6g}" in evidence["notes"]
    assert "nothing is claimed beyond" in evidence["notes"]
    verdict, evidence = verdicts["flat.gap-limit"]  # a limit as t -> oo is not decided on a finite interval
    assert verdict is Verdict.INCONCLUSIVE and 0.0 < evidence["details"]["t_reached"] < 5.0
    assert "not decided on [0," in evidence["notes"]
