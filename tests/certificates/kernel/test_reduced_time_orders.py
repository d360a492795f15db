"""Orders in beta of the equiangular merge time as `reduced-time` statements: the order form and h -> +oo
(`certificates.kernel.reduced_time`, `certificates.statements.reduced_time.grows_like`).

Worked by hand (n = 4, lam = 1, rho0 = 1/5, merge radius 1/10 so rho1 = 199/200): the softmax factor G = e^(beta (1 -
rho)) + 3 lies between G(rho1) = e^(beta/200) + 3 and G(rho0) = e^(4 beta/5) + 3, so T >= (e^(beta/200) + 3) DA with DA
= A(rho1) - A(rho0) > 0; T/beta >= e^(beta/200) DA/beta -> oo, so T = Theta(beta) fails; and log T/beta lies between
the ends' logs over beta, which tend to 1/200 and 4/5: log T = Theta(beta). The attacks: a certificate of T/beta ->
+oo relabelled for log T (another h), the h -> +oo form with a sign, the order form with the upper limit lowered, a
payload whose `infinite` differs from its statement, an h that does not move with T (1/T), and the order form of the
refuted claim filed under the proved one.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel import reduced_time
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.reduced_time import search_grows_like
from headflow.certificates.statements.reduced_time import grows_like
from headflow.certificates.store import write_certificate
from headflow.checks.rechecks import recheck

CLAIM = """[[claim]]
id = "c"
kind = "dynamics"
quantity = "merge_time"
radius = 0.1
k = 3
property = "grows-like"
order = "{order}"
of = "{of}"
attention = "softmax"
heads = "scalar"
lambdas = [1.0]
tokens = "equiangular"
rho = 0.2
n = 4
d = 4
beta = 1.0
"""


def _claim(order: str, of: str) -> Any:
    (claim,) = parse_claims(CLAIM.format(order=order, of=of))
    return claim


#: T = Theta(beta) refuted, T/beta -> +oo: the certificate `certify_grows_like` wrote for the same claim in
#: examples/metastability.toml (its search, about 16 s, is the slow test below).
STORED = Path(__file__).resolve().parents[2] / "data" / "merge_time_over_beta.json"


@functools.cache
def _refutation() -> tuple[dict[str, Any], dict[str, Any]]:
    """(statement, payload) of T = Theta(beta)'s refutation, the stored certificate's, its claim named "c"."""
    stored = json.loads(STORED.read_text(encoding="utf-8"))
    return stored["statement"] | {"claim": "c"}, stored["payload"]


@pytest.mark.slow
def test_the_search_finds_the_stored_refutation() -> None:
    found = search_grows_like(_claim("Theta(beta)", "quantity"), False)
    assert found is not None and found[0] == _refutation()[0]
    assert _accepted(*found)


def _accepted(statement: dict[str, Any], payload: dict[str, Any]) -> bool:
    try:
        reduced_time.check(statement, "c", "smt", payload, 60)
    except Rejected:
        return False
    return True


def test_t_over_beta_tends_to_infinity_and_no_forgery_passes() -> None:
    statement, payload = _refutation()
    assert statement["infinite"] is True and statement["expression"] == ["div", ["sym", "T"], ["sym", "beta"]]
    assert _accepted(statement, payload)
    proved, _ = reduced_time.check(statement, "c", "smt", payload, 60)
    assert "to rho1, T/beta -> +oo as beta -> oo" in proved
    logged = copy.deepcopy(statement)  # the same certificate for log T/beta -> +oo, which is false
    logged["expression"] = ["div", ["log", ["sym", "T"]], ["sym", "beta"]]
    assert not _accepted(logged, payload)
    signed = copy.deepcopy(statement) | {"sign": ">"}
    assert not _accepted(signed, payload | {"sign": ">"})
    assert not _accepted(statement, {k: v for k, v in payload.items() if k != "infinite"})
    inverse = copy.deepcopy(statement)  # 1/T does not move with T as the form needs
    inverse["expression"] = ["div", ["rat", "1"], ["sym", "T"]]
    assert not _accepted(inverse, payload)


def test_the_certificate_is_held_to_its_claim(tmp_path: Path) -> None:
    refuted = _claim("Theta(beta)", "quantity")
    statement, payload = _refutation()  # what `certify_grows_like` writes
    path = write_certificate(tmp_path, "c", "smt", payload, embedded(refuted), statement)
    assert check_file(path).ok
    assert recheck(path, claims={"c": refuted}, read_claim=True).ok
    omega = _claim("Omega(beta)", "quantity")  # which holds: the certificate filed under it is refused
    assert not recheck(path, claims={"c": omega}, read_claim=True).ok
    assert grows_like(omega, "smt", check_file(path).certificate["payload"]) is None  # no statement of it either


@pytest.mark.slow
def test_log_t_is_theta_beta_in_the_order_form() -> None:
    """About 30 s: each end's relations by a power cut of three atoms found by search."""
    found = search_grows_like(_claim("Theta(beta)", "log"), True)
    assert found is not None
    statement, payload = found
    assert statement["limit"] == ["rat", "1/200"] and statement["upper"] == ["rat", "4/5"]
    assert _accepted(statement, payload)
    lowered = copy.deepcopy(statement) | {"upper": ["rat", "1/2"]}  # the upper end's limit is 4/5, not 1/2
    assert not _accepted(lowered, payload | {"upper": ["rat", "1/2"]})
    zero = copy.deepcopy(statement) | {"limit": ["rat", "0"]}  # nor is the lower one's 0
    assert not _accepted(zero, payload | {"limit": ["rat", "0"]})
