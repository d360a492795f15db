"""Asymptotic claims on a closed form as `limit` statements (`certificates.kernel.limits`, docs/design/limit-form.md).

Worked by hand (the design's examples): n/(n + n - 1) - 1/2 = 1/(2 (2n - 1)) <= 1/n for n >= 2 (C = 1, power, k =
1), so n/(2n - 1) -> 1/2; the claim that it tends to 1 fails: n/(2n - 1) - 1 -> -1/2 < 0. n**gamma/(n**gamma + n - 1)
-> 1 for gamma in [2, 3]: |h - 1| = (n - 1)/(n**gamma + n - 1) <= 1/n (n**gamma >= n^2, a power cut). rate(lam, n,
beta)/(2 lam/n) = n/(n + E - 1), E = exp(beta lam): |h - 1| <= E/n. Each attack is a test: the limit moved by
10^-30, a shrunk coefficient, k = 0 or < 0, V below the domain, L depending on v, a relabelled scale or claim, a
certificate of `limit 1` presented for the `limit 1/2` claim, the opposite verdict.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel import limits
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.coq.statements import guard
from headflow.certificates.kernel.exprtree import TreeError
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.limits import _cuts, accepted, certify, search
from headflow.certificates.statements.limits import elaborate
from headflow.certificates.store import write_certificate
from headflow.checks.rechecks import recheck

from tests.coq_tier import needs_coqc
from tests.forging import forged_file

CRITICAL = """
[[claim]]
id = "critical"
kind = "asymptotic"
quantity = "expression"
expr = "n / (n + n - 1)"
domain = { n = "integer>=2" }
as = "n -> oo"
limit = "{limit}"
"""
SUPERCRITICAL = """
[[claim]]
id = "supercritical"
kind = "asymptotic"
quantity = "expression"
expr = "n**gamma / (n**gamma + n - 1)"
domain = { n = "integer>=2", gamma = "[2, 3]" }
as = "n -> oo"
limit = "1"
"""
RATE = """
[[claim]]
id = "rate"
kind = "asymptotic"
quantity = "expression"
expr = "rate(lam, n, beta)"
domain = { lam = "positive", n = "integer>=2", beta = "positive" }
as = "n -> oo"
order = "{order}"
"""

FROZEN = """
[[claim]]
id = "frozen"
kind = "asymptotic"
quantity = "expression"
expr = "1 / rate(lam, n, beta)"
domain = { lam = "positive", n = "integer>=2", beta = "positive" }
as = "beta -> oo"
order = "~ exp(lam * beta) / (2 * lam)"
"""


def _claim(text: str) -> Any:
    (claim,) = parse_claims(text)
    return claim


@functools.cache
def _found(text: str, holds: bool, limit: str | None, at: str | None = None) -> str:
    """The search's (statement, payload) as JSON: searched once per worker, since each search runs the solvers."""
    found = search(_claim(text), holds, limit, json.loads(at) if at else None)
    assert found is not None
    return json.dumps(found)


def _proved(
    text: str, holds: bool = True, limit: str | None = None, at: dict[str, str] | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A fresh copy of the search's (statement, payload), which a test may edit."""
    statement, payload = json.loads(_found(text, holds, limit, json.dumps(at) if at else None))
    return statement, payload


def _check(statement: dict[str, Any], payload: dict[str, Any]) -> str:
    return limits.check(statement, statement["claim"], "smt", payload, 20)[0]


def _written(text: str, folder: Path, holds: bool = True, limit: str | None = None) -> Path:
    """The search's certificate of the claim `text`, written as `certify` writes it (its search, then
    `write_certificate`), from the search `_found` ran once per worker."""
    statement, payload = _proved(text, holds, limit)
    claim = _claim(text)
    return write_certificate(folder, claim.id, "smt", payload, embedded(claim), statement)


def test_the_critical_weight_tends_to_one_half() -> None:
    statement, payload = _proved(CRITICAL.replace("{limit}", "1/2"))
    assert statement["error"] == {"coefficient": ["rat", "1"], "scale": "power", "rate": "1"}
    assert statement["expression"] == ["div", ["sym", "n"], ["sub", ["add", ["sym", "n"], ["sym", "n"]], ["rat", "1"]]]
    proved = _check(statement, payload)
    assert "n/(n + n - 1) -> 1/2 as n -> oo" in proved and "(k > 0; textbook)" in proved
    assert "n integer >= 2" in proved


def test_the_wrong_limit_is_refuted_by_the_difference_and_its_sign() -> None:
    statement, payload = _proved(CRITICAL.replace("{limit}", "1"), holds=False, limit="1/2")
    assert statement["sign"] == "<" and statement["limit"] == ["sub", ["div", ["rat", "1"], ["rat", "2"]], ["rat", "1"]]
    assert statement["expression"][0] == "sub"
    assert "-> 1/2 - 1 as n -> oo (1/2 - 1 < 0)" in _check(statement, payload)


def test_the_supercritical_weight_and_the_rate_are_proved() -> None:
    statement, payload = _proved(SUPERCRITICAL)
    assert any(c["kind"] == "power" for cuts in payload["cuts"] for c in cuts)
    _check(statement, payload)
    statement, payload = _proved(RATE.replace("{order}", "~ 2 * lam / n"))
    assert statement["limit"] == ["rat", "1"] and statement["variables"][-1]["name"] == "n"
    _check(statement, payload)


def test_o_of_one_over_n_is_refuted_by_a_positive_limit() -> None:
    statement, payload = _proved(RATE.replace("{order}", "o(1/n)"), holds=False, limit="2*lam")
    assert statement["sign"] == ">"
    _check(statement, payload)
    assert search(_claim(RATE.replace("{order}", "o(1/n)")), True, "2*lam") is None


def _attacked(edit: Any) -> None:
    statement, payload = _proved(CRITICAL.replace("{limit}", "1/2"))
    edit(statement, payload)
    with pytest.raises(Rejected):
        _check(statement, payload)


def _both(key: str, value: Any) -> Any:
    def edit(statement: dict[str, Any], payload: dict[str, Any]) -> None:
        statement[key] = payload[key] = value

    return edit


def _error(key: str, value: Any) -> Any:
    def edit(statement: dict[str, Any], payload: dict[str, Any]) -> None:
        statement["error"] = payload["error"] = statement["error"] | {key: value}

    return edit


def _low(value: str, integer: bool = True) -> Any:
    def edit(statement: dict[str, Any], payload: dict[str, Any]) -> None:
        statement["variables"][-1] |= {"low": ["rat", value], "integer": integer}

    return edit


ATTACKS = {
    "the limit moved by 10^-30": _both(
        "limit", ["rat", "500000000000000000000000000001/1000000000000000000000000000000"]
    ),
    "a shrunk coefficient": _error("coefficient", ["rat", "1/5"]),
    "k = 0": _error("rate", "0"),
    "k < 0": _error("rate", "-1"),
    "a relabelled scale": _error("scale", "exp"),
    "an unknown scale": _error("scale", "polylog"),
    "V = 0": _low("0"),
    "V below the domain (n = 1/2 is a pole)": _low("1/2", integer=False),
    "L depending on v": _both(
        "limit", ["div", ["sym", "n"], ["add", ["mul", ["rat", "2"], ["sym", "n"]], ["rat", "-1"]]]
    ),
    "the payload's limit alone": lambda statement, payload: payload.__setitem__("limit", ["rat", "1"]),
    "a sign that is not one": _both("sign", ">="),
    "an upper bound on v": lambda statement, payload: statement["variables"][-1].__setitem__("high", ["rat", "10"]),
    "one cut list missing": lambda statement, payload: payload["cuts"].pop(),
}


@pytest.mark.parametrize("name", ATTACKS)
def test_attacks_are_rejected(name: str) -> None:
    _attacked(ATTACKS[name])


def test_a_relabelled_claim_and_the_opposite_verdict_are_rejected(tmp_path: Path) -> None:
    claim = _claim(CRITICAL.replace("{limit}", "1/2"))
    path = _written(CRITICAL.replace("{limit}", "1/2"), tmp_path)
    assert check_file(path).ok
    assert not check_file(forged_file(path, tmp_path, lambda data: data.__setitem__("claim_id", "other"))).ok
    relabelled = forged_file(path, tmp_path, lambda data: data["statement"].__setitem__("claim", "other"), name="s")
    assert not check_file(relabelled).ok
    assert not accepted(claim, False, "1/2")  # the opposite verdict: 1/2 - 1/2 has no sign


def test_check_cert_claims_refuses_a_certificate_of_another_limit(tmp_path: Path) -> None:
    """The certificate that n/(2n - 1) - 1 -> -1/2 (refuting `limit 1`) presented for the claim `limit 1/2`, and the
    certificate of `limit 1/2` against a file whose claim says `limit 1`: both refused."""
    half, one = _claim(CRITICAL.replace("{limit}", "1/2")), _claim(CRITICAL.replace("{limit}", "1"))
    refuting = _written(CRITICAL.replace("{limit}", "1"), tmp_path, holds=False, limit="1/2")
    proving = _written(CRITICAL.replace("{limit}", "1/2"), tmp_path)
    assert recheck(refuting, claims={"critical": one}, read_claim=True).ok
    assert recheck(proving, claims={"critical": half}, read_claim=True).ok
    assert not recheck(refuting, claims={"critical": half}, read_claim=True).ok
    assert not recheck(proving, claims={"critical": one}, read_claim=True).ok


def test_the_elaborator_states_each_relation() -> None:
    error = {"coefficient": ["rat", "1"], "scale": "power", "rate": "1"}
    theta = _claim(RATE.replace("{order}", "Theta(1/n)"))
    held = elaborate(theta, "smt", {"limit": ["sym", "lam"], "error": error, "sign": ">"})
    assert held is not None and held["sign"] == ">" and held["limit"] == ["sym", "lam"]
    failed = elaborate(theta, "smt", {"limit": ["sym", "lam"], "error": error})
    assert failed is not None and failed["limit"] == ["rat", "0"] and "sign" not in failed
    big_o = _claim(RATE.replace("{order}", "O(1/n)"))
    assert elaborate(big_o, "smt", {"limit": ["rat", "0"], "error": error, "sign": ">"}) is None
    assert elaborate(big_o, "witness", {"limit": ["rat", "0"], "error": error}) is None


@needs_coqc
def test_coq_states_the_two_relations(tmp_path: Path) -> None:
    """The Coq statement of each built relation compiles (the kernel's statements alone, each theorem admitted, as the
    guard compiles them); their proofs: tests/certificates/coq/test_coq_limits.py."""
    path = certify(_claim(CRITICAL.replace("{limit}", "1/2")), True, None, tmp_path)
    assert path is not None
    proved, coq_problem = problem(check_file(path))
    assert isinstance(coq_problem, list) and len(coq_problem) == 2
    stated, _ = guard(path.name, "critical", proved, coq_problem)["statement"]
    assert "Theorem claim_critical_0" in stated and "Theorem claim_critical_1" in stated
    assert run.compile_source(stated).status == "accepted"


def test_malformed_power_cuts_are_rejected() -> None:
    """A power cut names 2 to 4 distinct atoms with exponents +-1..9, as many (sum q_m a_m <= 0 iff the product of the
    e_m^q_m with q_m > 0 is <= that of the others holds for those)."""
    statement, payload = _proved(SUPERCRITICAL)
    index = next(k for k, c in enumerate(payload["cuts"][0]) if c["kind"] == "power")
    malformed = [{"exponents": [0, 2]}, {"exponents": [10, -1]}, {"atoms": [0, 7]}, {"exponents": [1, True]}]
    malformed += [{"atoms": [0, 0]}, {"exponents": [1, -1, 1]}, {"exponents": ["1", -1]}, {"atoms": [0, 1, 0, 1, 0]}]
    for bad in malformed:
        forged = [dict(c) for c in payload["cuts"][0]]
        forged[index] |= bad
        with pytest.raises(Rejected):
            _check(statement, payload | {"cuts": [forged, *payload["cuts"][1:]]})


@functools.cache
def _frozen() -> str:
    """The frozen claim's statement and payload with the error n e^(-lam beta) given (the search finds it third)."""
    error = {"coefficient": ["mul", ["rat", "1"], ["sym", "n"]], "scale": "exp", "rate": ["sym", "lam"]}
    statement = elaborate(_claim(FROZEN), "smt", {"limit": ["rat", "1"], "error": error})
    assert statement is not None
    return json.dumps((statement, {"limit": statement["limit"], "error": error, "cuts": _cuts(statement)}))


def test_a_rate_that_is_a_tree_on_the_exp_scale() -> None:
    """(e^(lam beta) + n - 1)/e^(lam beta) -> 1 as beta -> oo with error (n - 1) e^(-lam beta) <= n e^(-lam beta): the
    rate lam is a tree, shown > 0 by a third built relation; beta from 1 (the claim's domain starts at 0)."""
    statement, payload = json.loads(_frozen())
    assert statement["error"]["scale"] == "exp" and statement["error"]["rate"] == ["sym", "lam"]
    assert statement["variables"][-1]["low"] == ["rat", "1"]
    built = limits.relations(statement)
    assert len(built) == 3 and built[2]["lhs"] == ["sym", "lam"] and built[2]["op"] == ">"
    assert "-> 1 as beta -> oo" in _check(statement, payload)


FROZEN_ATTACKS = {
    "a rate naming v": ["mul", ["sym", "lam"], ["sym", "beta"]],
    "a rate that is not positive": ["neg", ["sym", "lam"]],
    "a rate doubled (the error shrinks past the difference)": ["mul", ["rat", "2"], ["sym", "lam"]],
}


@pytest.mark.parametrize("name", FROZEN_ATTACKS)
def test_a_tree_rate_attacked_is_rejected(name: str) -> None:
    statement, payload = json.loads(_frozen())
    statement["error"] = payload["error"] = statement["error"] | {"rate": FROZEN_ATTACKS[name]}
    with pytest.raises(Rejected):
        _check(statement, payload)


def test_a_tree_rate_off_the_exp_scale_is_rejected() -> None:
    statement, payload = _proved(CRITICAL.replace("{limit}", "1/2"))
    statement["error"] = payload["error"] = statement["error"] | {"rate": ["sym", "n"]}
    with pytest.raises((Rejected, TreeError)):
        _check(statement, payload)


GROWING = """
[[claim]]
id = "growing"
kind = "asymptotic"
quantity = "expression"
expr = "n * n / (n + 1)"
domain = { n = "integer>=2" }
as = "n -> oo"
order = "{order}"
"""


def test_an_unbounded_ratio_refutes_a_bound_by_its_reciprocal() -> None:
    """n^2/(n + 1) is not O(1): |h| -> oo, stated as (n + 1)/n^2 -> 0 with error 2/n ((n + 1)/n^2 <= 2/n for n >= 1);
    a claim that holds is not stated this way, nor an Omega that fails."""
    statement, payload = _proved(GROWING.replace("{order}", "O(1)"), holds=False, limit="oo")
    assert statement["infinite"] is True and statement["limit"] == ["rat", "0"] and "sign" not in statement
    assert "| -> oo as n -> oo" in _check(statement, payload)
    assert search(_claim(GROWING.replace("{order}", "O(1)")), True, "oo") is None
    assert search(_claim(GROWING.replace("{order}", "Omega(1)")), False, "oo") is None


INFINITE_ATTACKS = {
    "a non-zero limit of the reciprocal": lambda s: s | {"limit": ["rat", "1"]},
    "a sign beside it": lambda s: s | {"sign": ">"},
    "infinite as text": lambda s: s | {"infinite": "true"},
    "a bounded expression": lambda s: s | {"expression": ["div", ["sym", "n"], ["add", ["sym", "n"], ["rat", "1"]]]},
}


@pytest.mark.parametrize("name", INFINITE_ATTACKS)
def test_an_infinite_limit_attacked_is_rejected(name: str) -> None:
    """Each edit of the statement (the payload's copy of its data edited alike) is refused: n/(n + 1) -> 1, so its
    reciprocal does not tend to 0, and the data that states |h| -> oo is exactly `infinite: true`, limit 0, no sign."""
    statement, payload = _proved(GROWING.replace("{order}", "O(1)"), holds=False, limit="oo")
    edited = INFINITE_ATTACKS[name](statement)
    data = {k: edited[k] for k in ("limit", "error", "sign", "infinite") if k in edited}
    with pytest.raises(Rejected):
        _check(edited, data | {"cuts": payload["cuts"]})


WRONG_DOMAIN = """
[[claim]]
id = "wrong-domain"
kind = "asymptotic"
quantity = "expression"
expr = "n**gamma / (n**gamma + n - 1)"
domain = { n = "integer>=2", gamma = "[1, 3]" }
as = "n -> oo"
limit = "1"
"""


def test_a_claim_over_a_parameter_is_refuted_at_a_point_of_its_domain() -> None:
    """At gamma = 1 the weight n/(2n - 1) -> 1/2, not 1: the relations are built there (gamma = 1 in [1, 3]); the point
    outside the domain, a point naming n, or a point on a claim that holds are refused."""
    statement, payload = _proved(WRONG_DOMAIN, holds=False, limit="1/2", at={"gamma": "1"})
    assert statement["at"] == {"gamma": "1"} and statement["sign"] == "<"
    assert "at gamma = 1 (in its domain)" in _check(statement, payload)
    for point in ({"gamma": "1/2"}, {"n": "4"}, {"gamma": "1", "n": "4"}):
        with pytest.raises(Rejected):
            _check(statement | {"at": point}, payload | {"at": point})
    holds = {"limit": ["rat", "1/2"], "error": payload["error"], "at": {"gamma": "1"}}  # no sign: the claim holds
    assert "at" not in (elaborate(_claim(WRONG_DOMAIN.replace('"1"', '"1/2"')), "smt", holds) or {})
