"""A family of heads refuted at a point with H in it (`count`): H equal heads of the point's strength.

Worked by hand: softmax, n = 4, beta = 1, rho0 = 1/4, H heads of strength 1/2: at rho = 1 every weight is 1/4, so
S(1) = 2 sum_h lambda_h / 4 = H/4 and the late rate is r* = n S(1) = H. The claimed 2 H lambda + (H - 1) lambda is
1 = r* at H = 1 (the claim holds there) and 23/2 != 8 at H = 8: refuted at H = 8, not at H = 1. Attacks: H past the
domain, H not an integer, a count on a statement that is no family, a count without its point, the count dropped (then
the statement is not the claim's).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel import equiangular
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.equiangular import certify
from headflow.certificates.statements.equiangular import statement
from headflow.checks.rechecks import recheck

from tests.forging import forged_file

CLAIM = """
[[claim]]
id = "only-one"
kind = "dynamics"
quantity = "cluster_gap"
property = "decays-at-rate"
rate = "2 * H * mean_h(lam_h) + (H - 1) * mean_h(lam_h)"
attention = "softmax"
heads = "scalar"
H = "H"
lambdas = "lam_h"
tokens = "equiangular"
rho = 0.25
n = 4
d = 4
beta = 1.0
[claim.domain]
H = { min = 1, max = 8, integer = true }
lam_h = "[1/2, 2]"
"""


def _claim() -> Any:
    (claim,) = parse_claims(CLAIM)
    return claim


def _check(stated: dict[str, Any]) -> str:
    payload = {key: stated.get(key) for key in ("holds", "point", "fails_at")}
    return equiangular.check(stated, stated["claim"], equiangular.FORM, payload, 0)[0]


def test_refuted_at_eight_equal_heads_and_not_at_one(tmp_path: Path) -> None:
    path = certify(_claim(), False, tmp_path, {"H": "8", "lam_h": "1/2"})
    assert path is not None
    result = check_file(path)
    assert result.ok, result.message
    assert "at the point H = 8, lam_h = 1/2) fails" in result.proved
    assert recheck(path, claims={"only-one": _claim()}, read_claim=True).ok
    stated = statement(_claim(), False, {"H": "8", "lam_h": "1/2"})
    assert stated is not None and stated["count"] == "H"
    with pytest.raises(Rejected):  # at H = 1 the claimed rate is the exact one: no refutation there
        _check(stated | {"point": {"H": "1", "lam_h": "1/2"}})


ATTACKS = {
    "H past its domain": lambda s: s | {"point": {"H": "9", "lam_h": "1/2"}},
    "H not an integer": lambda s: s | {"point": {"H": "15/2", "lam_h": "1/2"}},
    "no family": lambda s: s | {"family": False},
    "a count without its point": lambda s: s | {"point": None},
}


@pytest.mark.parametrize("name", ATTACKS)
def test_attacks_on_the_count_are_rejected(name: str) -> None:
    stated = statement(_claim(), False, {"H": "8", "lam_h": "1/2"})
    assert stated is not None
    with pytest.raises(Rejected):
        _check(ATTACKS[name](stated))


def test_the_count_dropped_is_not_the_claims_statement(tmp_path: Path) -> None:
    path = certify(_claim(), False, tmp_path, {"H": "8", "lam_h": "1/2"})
    assert path is not None
    dropped = forged_file(path, tmp_path, lambda d: d["statement"].pop("count"))
    assert not recheck(dropped, claims={"only-one": _claim()}, read_claim=True).ok
