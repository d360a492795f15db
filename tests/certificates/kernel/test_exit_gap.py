"""The exit gap's asymptotic claims as `exit-gap` statements (`certificates.kernel.exit_gap`).

Worked by hand: with m = n - 1 and kappa = alpha beta, h(rho) = m (1 - rho)(1 + m rho) - (H - 1)(e^(kappa (1 - rho)) +
m rho)^2 is concave, h(0) = m - (H - 1) e^(2 kappa) > 0 for n >= N0 = 1 + 4 H e^(2 kappa); at the lower end a = n (H -
1)/(H m), h(1 - a) = (H - 1)((1 + X)^2 - (e^(kappa a) + X)^2) < 0 (X = (n - H)/H); at the upper end b = 1 - (1/H -
2 e^kappa/m), with q = m/H, h(1 - b) >= (H - 1)(q - e^(2 kappa)) + 2 e^kappa (1 + q - 2 e^kappa) > 0. Both ends tend
to (H - 1)/H: the limit holds, and the claim 1/2 fails at H = 3 (E - 1/2 -> 1/6 > 0). Each attack is a test: a moved
limit, a flipped sign, a wrong end, a lowered threshold, a missing error, a renamed variable, the sign condition dropped
(check-cert --claims), a certificate presented for another claim.

The certificates the default tests check are stored (`STORED`, tests/data/exit_gap.json), since the prover's searches
take 10-20 s of solver calls each; the slow test runs them and has the kernel accept what they find, and running this
module (python -m tests.certificates.kernel.test_exit_gap) rewrites the stored file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import sympy as sp
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.interaction_text import ordinary
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel import exit_gap
from headflow.certificates.kernel.exprtree import TreeError
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers import exit_gap_limit
from headflow.certificates.statements.exit_gap import elaborate
from headflow.certificates.store import write_certificate
from headflow.checks import coq_files
from headflow.checks.rechecks import recheck
from headflow.identities import condition8_invariance as ci

from tests.coq_tier import needs_coqc
from tests.forging import forged_file

CLAIM = """
[[claim]]
id = "exit-gap"
kind = "asymptotic"
quantity = "exit_gap"
as = "n -> oo"
limit = "{limit}"
"""
HOLDS, FAILS = "(H - 1) / H", "1 / 2"
STORED = Path(__file__).resolve().parents[2] / "data" / "exit_gap.json"


def _claim(limit: str) -> Any:
    (claim,) = parse_claims(CLAIM.replace("{limit}", limit))
    return claim


def _stored(limit: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A fresh copy of the stored certificate of the claim with that limit (statement, payload)."""
    data = json.loads(STORED.read_text())[limit]
    return data["statement"], data["payload"]


def _write_stored() -> None:
    """Search both certificates and store them (run when the prover's bracket, errors or cuts change)."""
    found = {}
    for limit in (HOLDS, FAILS):
        result = exit_gap_limit.search(_claim(limit), limit == HOLDS)
        assert result is not None
        found[limit] = {"statement": result[0], "payload": result[1]}
    found["written_by"] = "python -m tests.certificates.kernel.test_exit_gap (the prover's searches)"
    STORED.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")


def _check(statement: dict[str, Any], payload: dict[str, Any]) -> str:
    return exit_gap.check(statement, statement["claim"], "smt", payload, 20)[0]


def _written(folder: Path, limit: str) -> Path:
    statement, payload = _stored(limit)
    return write_certificate(folder, "exit-gap", "smt", payload, embedded(_claim(limit)), statement)


def _both(key: str, value: Any) -> Any:
    def edit(statement: dict[str, Any], payload: dict[str, Any]) -> None:
        statement[key] = payload[key] = value

    return edit


def _bracket(key: str, value: Any) -> Any:
    return lambda statement, payload: payload["bracket"].__setitem__(key, value)


ATTACKS = {
    "the limit moved to 1/2": (HOLDS, _both("limit", ["rat", "1/2"])),
    "the sign flipped": (FAILS, _both("sign", "<")),
    "the upper end as the lower one (h(1 - a) > 0 fails)": (
        HOLDS,
        lambda statement, payload: payload["bracket"].__setitem__("high", payload["bracket"]["low"]),
    ),
    "a lower end past the root (1 - a/2)": (
        HOLDS,
        lambda s, p: p["bracket"].__setitem__("low", ["sub", ["rat", "1"], ["div", p["bracket"]["low"], ["rat", "2"]]]),
    ),
    "a threshold N0 = 2 (h(0) > 0 fails)": (HOLDS, _bracket("from", ["rat", "2"])),
    "one end's error missing": (HOLDS, lambda statement, payload: payload["errors"].pop()),
    "a renamed variable": (HOLDS, lambda statement, payload: statement["variables"][0].__setitem__("name", "mu")),
    "h not increasing in E": (
        HOLDS,
        lambda statement, payload: statement.__setitem__("expression", ["neg", ["sym", "E"]]),
    ),
    "one statement's cuts missing": (HOLDS, lambda statement, payload: payload["cuts"].pop()),
}


def _rejected(limit: str, edit: Any) -> bool:
    statement, payload = _stored(limit)
    edit(statement, payload)
    try:
        _check(statement, payload)
    except (Rejected, TreeError):
        return True
    return False


def test_the_kernels_h_is_the_identities_exit_function() -> None:
    """The kernel's h (`exit_gap.EXIT`) is `identities.condition8_invariance`'s, kappa = alpha beta (exact algebra)."""
    names = {s.name: s for s in (ci.H, ci.n, ci.rho, ci.alpha, ci.beta)}
    kernel = ordinary(exit_gap.EXIT).xreplace({s: names[s.name] for s in ordinary(exit_gap.EXIT).free_symbols})
    assert sp.expand(kernel - ci.exit_function().subs(ci.kappa, ci.alpha * ci.beta)) == 0


def test_the_stored_certificates_are_the_provers_but_for_their_cuts() -> None:
    """The stored statements are what the elaborator states today from the stored payloads, with the prover's
    bracket and errors."""
    for limit in (HOLDS, FAILS):
        statement, payload = _stored(limit)
        assert elaborate(_claim(limit), "smt", payload) == statement
        assert {k: v for k, v in payload["bracket"].items() if k != "point"} == exit_gap_limit.BRACKET
        assert payload["errors"] == exit_gap_limit.ERRORS


def test_the_exit_gap_tends_to_its_limit_and_no_forgery_passes(tmp_path: Path) -> None:
    """Both certificates accepted (the limit, and 1/2 refuted at H = 3), with their sentences; every attack rejected;
    check-cert --claims refuses each for the other claim, and the refutation with its sign dropped."""
    holds, fails = _written(tmp_path, HOLDS), _written(tmp_path, FAILS)
    for path in (holds, fails):
        checked = check_file(path)
        assert checked.ok, checked.message
        assert "with E the zero in (0, 1) of h(1 - E)" in checked.proved and "squeeze" in checked.proved
    assert "E -> (H - 1)/H as n -> oo" in check_file(holds).proved
    assert "at H = 3 (in its domain)" in check_file(fails).proved
    assert [name for name, (limit, edit) in ATTACKS.items() if not _rejected(limit, edit)] == []
    assert recheck(holds, claims={"exit-gap": _claim(HOLDS)}, read_claim=True).ok
    assert not recheck(holds, claims={"exit-gap": _claim(FAILS)}, read_claim=True).ok
    assert not recheck(fails, claims={"exit-gap": _claim(HOLDS)}, read_claim=True).ok

    def unsigned(data: dict[str, Any]) -> None:  # E - 1/2 -> 1/6 still holds, but no longer refutes the claim
        for part in (data["statement"], data["payload"]):
            part.pop("sign")

    dropped = forged_file(fails, tmp_path, unsigned, name="unsigned")
    assert not recheck(dropped, claims={"exit-gap": _claim(FAILS)}, read_claim=True).ok
    relabelled = forged_file(holds, tmp_path, lambda data: data["statement"].__setitem__("claim", "other"), name="r")
    assert not check_file(relabelled).ok


@pytest.mark.slow
def test_the_searches_find_what_is_stored(tmp_path: Path) -> None:
    """The prover's searches (10-20 s of solver calls each): the kernel accepts their files, with the stored
    statements and brackets (the cuts may differ)."""
    for limit in (HOLDS, FAILS):
        found = exit_gap_limit.search(_claim(limit), limit == HOLDS)
        assert found is not None
        statement, payload = found
        path = write_certificate(tmp_path, "exit-gap", "smt", payload, embedded(_claim(limit)), statement)
        assert check_file(path).ok
        stored_statement, stored_payload = _stored(limit)
        assert statement == stored_statement
        assert {k: v for k, v in payload.items() if k != "cuts"} == {
            k: v for k, v in stored_payload.items() if k != "cuts"
        }


@pytest.mark.slow  # about 6 s: the search tries every candidate before it gives up
def test_no_certificate_proves_the_wrong_limit() -> None:
    assert exit_gap_limit.search(_claim(FAILS), True) is None  # 1/2 is not the limit: nothing proves it


def test_no_certificate_for_what_the_form_does_not_state() -> None:
    """A limit over g."""
    over = _claim(HOLDS)
    assert elaborate(over, "smt", {"limit": ["rat", "1"], "bracket": {}, "errors": []}) is not None
    (ratio,) = parse_claims(CLAIM.replace("{limit}", HOLDS) + 'over = "n"\n')
    assert elaborate(ratio, "smt", {"limit": ["rat", "1"], "bracket": {}, "errors": []}) is None


@needs_coqc
def test_coq_rejects_a_forged_exit_gap(tmp_path: Path) -> None:
    """A forged certificate (the limit moved) gets no Coq file: the kernel rejects it first."""
    path = _written(tmp_path, HOLDS)

    def moved(data: dict[str, Any]) -> None:
        _both("limit", ["rat", "1/2"])(data["statement"], data["payload"])

    forged = forged_file(path, tmp_path, moved, name="f")
    assert coq_files.check(forged).status == "rejected by Coq"


if __name__ == "__main__":  # rewrite the stored certificates from fresh searches
    _write_stored()
