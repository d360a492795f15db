"""`does-not-tend-to L` on equiangular tokens, stated as the kernel's `tends-to L` with `holds` turned around.

Worked by hand: usa, one head lambda = 1, n = 4, beta = 1, rho0 = 3/10: S(rho0) = 2 e^(rho0)/4 > 0, so eps -> 0.
"Some start's gap does not tend to 0" is false (the tokens are one start up to rotation: refuted by a proof that it
tends to 0); "it does not tend to 1/2" is true (proved by the refutation of "it tends to 1/2"). The certificate's
payload carries the statement's `holds` (the kernel's), and `check-cert --claims` reads the claim's verdict from it
turned around: flipping it is rejected by the kernel and by the comparison with the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.equiangular import certify
from headflow.checks.rechecks import recheck

from tests.forging import forged_file

CLAIM = """
[[claim]]
id = "stays"
kind = "dynamics"
exists = true
quantity = "cluster_gap"
property = "does-not-tend-to"
limit = "{limit}"
attention = "usa"
heads = "scalar"
lambdas = [1.0]
tokens = "equiangular"
rho = 0.3
n = 4
d = 4
beta = 1.0
"""


def _claim(limit: str) -> Any:
    (claim,) = parse_claims(CLAIM.format(limit=limit))
    return claim


@pytest.mark.parametrize(("limit", "holds"), [("0", False), ("1/2", True)])
def test_the_verdict_is_certified_and_the_opposite_is_not(limit: str, holds: bool, tmp_path: Path) -> None:
    claim = _claim(limit)
    path = certify(claim, holds, tmp_path)
    assert path is not None
    result = check_file(path)
    assert result.ok, result.message
    assert f"cluster_gap tends-to {limit}" in result.proved
    assert recheck(path, claims={"stays": claim}, read_claim=True).ok
    assert certify(claim, not holds, tmp_path / "opposite") is None


def test_a_flipped_verdict_is_rejected(tmp_path: Path) -> None:
    claim = _claim("0")
    path = certify(claim, False, tmp_path)
    assert path is not None

    def flip(data: dict[str, Any]) -> None:
        data["payload"]["holds"] = not data["payload"]["holds"]
        data["statement"]["holds"] = not data["statement"]["holds"]

    forged = forged_file(path, tmp_path, flip)
    assert not check_file(forged).ok  # "tends to 0" refuted: false, the kernel's facts say so
    assert not recheck(forged, claims={"stays": claim}, read_claim=True).ok
