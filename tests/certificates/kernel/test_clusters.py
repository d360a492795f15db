"""The `clusters` form: two clusters of tokens, the late rate of their gap and R's monotonicity.

Worked by hand: usa, 3 tokens at angle 0 and 2 at 2 pi/5, one head lambda = 1, beta = 2: K(rho) = (1/5)(2 + 3)
e^(2 rho) = e^(2 rho) > 0, so the gap decays at the rate r* = 2 K(1) = 2 e^2 (holds) and not at 2 e^2/5 (fails: the
1/n cancels). With a repulsive head alone (lambda = -1) K(rho0) < 0: rho falls and R decreases (fails). The kernel's K
is held equal to the SymPy route's (`identities.circle_clusters.reduced_pull`, derived from the phase form). Attacks:
the verdict turned, the sizes or beta edited, a start that is one cluster, a rate where none belongs; a rate that is
another true one in another file is refused by `check-cert --claims`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sympy as sp
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel import clusters
from headflow.certificates.kernel.exprtree import evaluate, rational_tree
from headflow.certificates.kernel.verify import check_file
from headflow.checks.rechecks import recheck
from headflow.identities import circle_clusters as cc
from headflow.identities import equiangular_reduction as er
from headflow.identities.derivation import Derivation

from tests.checking import certified_as, decided_claims
from tests.coq_tier import needs_coqc
from tests.forging import VERDICT_EDITS, forged_file
from tests.sample_claims import dynamics_claim


def _claim(claim_id: str, quantity: str, prop: str, extra: str, lambdas: str = "[1.0]", kind: str = "usa") -> str:
    setting = f'attention = "{kind}"\nheads = "scalar"\nlambdas = {lambdas}\ntokens = "angles"'
    return dynamics_claim(claim_id, quantity, prop, extra, f"{setting}\n{ANGLES}\nn = 5\nd = 2\nbeta = 2.0")


#: Three tokens at angle 0 and two at 2 pi/5: two clusters.
ANGLES = 'angles = ["0", "0", "0", "2*pi/5", "2*pi/5"]'
CLAIMS = (
    _claim("rate", "cluster_gap", "decays-at-rate", 'rate = "2*exp(2)"')
    + _claim("per-token-rate", "cluster_gap", "decays-at-rate", 'rate = "2*exp(2)/5"')
    + _claim("R-rises", "order_parameter", "non-decreasing", "", "[1.0, 0.5]", "softmax")
    + _claim("R-rises-repulsive", "order_parameter", "non-decreasing", "", "[-1.0]")
)
EXPECTED = {"rate": True, "per-token-rate": False, "R-rises": True, "R-rises-repulsive": False}


@pytest.mark.parametrize("kind", ["usa", "softmax"])
def test_the_kernels_pull_is_the_phase_forms(kind: str) -> None:
    for sizes, strengths in (((3, 2), ["1"]), ((1, 4), ["1", "-1/2"])):
        stated = {"sizes": list(sizes), "beta": "2", "strengths": strengths, "attention": kind}
        pull = cc.reduced_pull(Derivation(), kind, [sp.Rational(s) for s in strengths])
        pull = pull.subs({cc.n1: sizes[0], cc.n2: sizes[1], er.beta: 2})
        for rho in (sp.Rational(-1, 2), sp.Rational(1, 3), sp.Integer(1)):
            mine = float(evaluate(clusters.pull(stated, rational_tree(rho)), {}).mid())
            assert mine == pytest.approx(float(pull.subs(er.rho, rho)), rel=1e-12)


@pytest.fixture(scope="module")
def decided(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return decided_claims(CLAIMS, tmp_path_factory.mktemp("clusters"))


def test_each_verdict_carries_a_certificate_the_kernel_accepts(decided: dict[str, Any]) -> None:
    assert set(certified_as(decided, EXPECTED, "clusters", CLAIMS)) == set(EXPECTED)


EDITS = {
    **VERDICT_EDITS,
    "one cluster": lambda c: c["statement"].update(rho0=["rat", "1"]),
    "beyond the sphere": lambda c: c["statement"].update(rho0=["rat", "-3/2"]),
    "beta <= 0": lambda c: c["statement"].update(beta="-1"),
    "no rate": lambda c: c["statement"].update(rate=None),
    "a size of 0": lambda c: c["statement"].update(sizes=[0, 5]),
    "relu": lambda c: c["statement"].update(attention="relu"),
}


@pytest.mark.parametrize("name", EDITS)
def test_forged_certificates_are_rejected(decided: dict[str, Any], tmp_path: Path, name: str) -> None:
    source = Path(next(p for p in decided["per-token-rate"].certificates if ".clusters." in p))
    assert not check_file(forged_file(source, tmp_path, EDITS[name])).ok


def test_a_certificate_of_other_sizes_is_not_the_files_claim(decided: dict[str, Any], tmp_path: Path) -> None:
    """usa's K does not depend on the sizes: 1 and 4 tokens give the same rate, which the kernel accepts and `check-cert
    --claims` refuses (the file's clusters are 3 and 2)."""
    source = Path(next(p for p in decided["rate"].certificates if ".clusters." in p))
    path = forged_file(source, tmp_path, lambda c: c["statement"].update(sizes=[1, 4]))
    assert check_file(path).ok
    assert not recheck(path, claims={c.id: c for c in parse_claims(CLAIMS)}, read_claim=True).ok


@needs_coqc
def test_coq_re_checks_the_sign_and_the_rate(decided: dict[str, Any]) -> None:
    for claim_id in EXPECTED:
        path = Path(next(p for p in decided[claim_id].certificates if ".clusters." in p))
        rechecked = recheck(path, coq=True)
        assert rechecked.ok and rechecked.coq is not None, claim_id
        assert not rechecked.coq_missing, (claim_id, rechecked.coq_missing)
