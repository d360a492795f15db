"""A false model claim over every strength lambda_h > 0: dE/dt >= 0 for usa with scalar heads M_h = lambda_h I and
identity values W_h = I. With two different strengths the two heads' pulls can point against each other at a token
(<lam1 a1 + lam2 a2, a1 + a2> < 0 when a2 = -t a1, lam1 / lam2 < t < 1), and dE/dt < 0 at an exact configuration.

It was CONFIRMED while the search drew lambda_h from [0.3, 2] and never moved them, and then still CONFIRMED in the
quick profile at nine seeds of 0-9 while the thorough search, moving the strengths, refuted it: its planar witnesses
(n - 2 copies of one token and a mirrored pair at an opening of some 130 degrees, strengths far apart) lie in slices
a few degrees wide. The quick search now refutes it at every seed, with a certificate that check-cert accepts; the
true neighbour with values aligned to the heads (W_h = M_h, Theorem 11) stays CONFIRMED. The float noise the strength
range guards against is shown too: at beta lambda = 22 a token's own weight e^(beta lambda) swamps the float
velocity, and float dE/dt has the wrong sign.
"""

from __future__ import annotations

import tempfile
import textwrap
from pathlib import Path

import numpy as np
import pytest
from headflow.certificates import model_balls
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel.exact import precision
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.witness import round_configuration
from headflow.checks.claimsfile.model_decider import decide_model
from headflow.checks.model import field
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.verdicts import Verdict

CLAIM = """
[[claim]]
id = "usa.scalar.identity-values.energy"
kind = "model"
attention = "usa"
assume = ["scalar-heads", "identity-values"]
lhs = "dE_dt"
op = ">="
rhs = "0"
"""


#: Theorem 11's regime: with W_h = M_h symmetric, dE/dt = sum_i |xdot_i|^2 / n >= 0 at every configuration.
ALIGNED = CLAIM.replace("identity-values", "aligned-values")


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 3, 7])
def test_the_quick_search_refutes_the_claim_with_a_certificate(tmp_path: Path, seed: int) -> None:
    claim = parse_claims(textwrap.dedent(CLAIM))[0]
    outcome = decide_model(claim, Context("quick", seed=seed, certificate_dir=tmp_path, claim_id=claim.id))
    assert outcome.verdict is Verdict.REFUTED, outcome.notes
    assert outcome.witness is not None and outcome.witness["verified_by"] == "ball"
    certificates = sorted(tmp_path.rglob("*.json"))
    assert certificates and all(check_file(path).ok for path in certificates)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 3])
def test_the_aligned_neighbour_meets_no_violation(tmp_path: Path, seed: int) -> None:
    """No candidate and no certificate; not CONFIRMED only because its strengths reach past |beta| lambda_h = 8, where
    the search does not look (issue 39)."""
    claim = parse_claims(textwrap.dedent(ALIGNED))[0]
    assert claim.hypotheses != parse_claims(textwrap.dedent(CLAIM))[0].hypotheses
    outcome = decide_model(claim, Context("quick", seed=seed, certificate_dir=tmp_path, claim_id=claim.id))
    assert outcome.verdict is Verdict.INCONCLUSIVE, outcome.notes
    assert "no violation" in outcome.notes and "every lambda_h > 0" in outcome.notes
    assert not list(tmp_path.rglob("*.json"))


@pytest.mark.slow
def test_the_thorough_search_refutes_the_claim_with_a_certificate() -> None:
    claim = parse_claims(textwrap.dedent(CLAIM))[0]
    folder = Path(tempfile.mkdtemp())
    outcome = decide_model(claim, Context("thorough", seed=0, certificate_dir=folder))
    assert outcome.verdict is Verdict.REFUTED, outcome.notes
    certificates = sorted(folder.rglob("*.json"))
    assert certificates and all(check_file(path).ok for path in certificates)


def test_at_large_beta_lambda_the_float_rate_agrees_with_balls() -> None:
    # two tokens, <x1, x2> = c < 0: dE_h/dt = (1/4) e^(beta lam_h c) lam_h (1 - c^2) sum_g e^(beta lam_g c) > 0
    c, beta, lam = -0.627, 2.84, (7.95, 5.97)
    X = np.array([[1.0, 0.0], [c, np.sqrt(1 - c * c)]])
    cfg = Configuration.create(X, np.array([s * np.eye(2) for s in lam]), np.array([np.eye(2)] * 2), beta=beta)
    exact = round_configuration(cfg.tokens, cfg.score_matrices, cfg.values, beta, 2**30, symmetric_values=True)
    with precision(128):  # at 53 bits the balls are honest and useless ([+/- 7e5]); at 128 they settle the sign
        balls = model_balls.head_energy_rates(exact)
    assert all(rate > 0 for rate in balls)  # the true rates, tiny and positive
    assert all(abs(float(rate.mid())) < 1e-6 for rate in balls)
    assert np.allclose(
        field.head_energy_rates(cfg), [float(rate.mid()) for rate in balls], rtol=1e-5
    )  # no longer noise
