"""The clustering time's asymptotic claims as `reduced-time` statements (`certificates.kernel.reduced_time`).

Worked by hand: the softmax reduction R = 2 lam (1 - rho)(1 + (n - 1) rho) e^(b rho)/(e^b + (n - 1) e^(b rho)) (b =
beta lam) has 1/R = G(rho) A'(rho) with G = (e^b + (n - 1) e^(b rho))/e^(b rho) = e^(b (1 - rho)) + n - 1, between
e^(b (1 - rho1)) + n - 1 and e^b + n - 1 on [0, rho1], and A = log((1 + (n - 1) rho)/(1 - rho))/(2 lam n); both ends
times A(rho1) are ~ log(n)/(2 lam), so T/log n -> 1/(2 lam) > 0: T = Theta(log n), and the claim T/log n -> 1/lam
fails (the difference tends to -1/(2 lam) < 0). Each attack is a test: a factor that is not 1/(A' R), a doubled
antiderivative, a raised lower end, a moved limit, a flipped sign, a relation not monotone in T, another attention,
a renamed variable, a certificate presented for another claim.

The certificate of Theta(log n) that the default tests check is stored (`STORED`, tests/data/softmax_time_log_n.json),
since the prover's search for it takes 15-25 s of solver calls: by default the kernel checks the stored file and
every forgery of it, and its bracket and statement are compared with what the prover and the elaborator build today;
the slow search test runs the search and has the kernel accept what it finds, and running this module
(python -m tests.certificates.kernel.test_reduced_time) rewrites the stored file from a fresh search.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel import reduced_time
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.exprtree import TreeError
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers import reduced_time as prover
from headflow.certificates.provers.reduced_time import search
from headflow.certificates.statements.reduced_time import elaborate
from headflow.certificates.store import write_certificate
from headflow.checks import coq_files
from headflow.checks.rechecks import recheck

from tests.coq_tier import needs_coqc
from tests.forging import forged_file

SOFTMAX = """
[[claim]]
id = "softmax-time"
kind = "asymptotic"
quantity = "clustering_time"
attention = "softmax"
as = "n -> oo"
{relation}
"""
LOG_N = SOFTMAX.replace("{relation}", 'order = "Theta(log(n))"')
RELU = """
[[claim]]
id = "relu-time"
kind = "asymptotic"
quantity = "clustering_time"
attention = "relu"
as = "d -> oo"
order = "~ n * log(d) / (4 * lam**2 * beta)"
"""
WRONG = SOFTMAX.replace("{relation}", 'limit = "1 / lam"\nover = "log(n)"')


def _claim(text: str) -> Any:
    (claim,) = parse_claims(text)
    return claim


#: The prover's certificate of LOG_N (statement and payload), written once by its search (`_write_stored`).
STORED = Path(__file__).resolve().parents[2] / "data" / "softmax_time_log_n.json"


@functools.cache
def _found(text: str, holds: bool) -> str:
    """The search's (statement, payload) as JSON: searched once per worker (the solvers run for each statement)."""
    found = search(_claim(text), holds)
    assert found is not None
    return json.dumps(found)


def _proved(text: str = LOG_N, holds: bool = True) -> tuple[dict[str, Any], dict[str, Any]]:
    """A fresh copy of the search's (statement, payload), which a test may edit."""
    statement, payload = json.loads(_found(text, holds))
    return statement, payload


def _stored() -> tuple[dict[str, Any], dict[str, Any]]:
    """A fresh copy of the stored certificate of LOG_N (statement, payload), which a test may edit."""
    data = json.loads(STORED.read_text())
    return data["statement"], data["payload"]


def _write_stored() -> None:
    """Search LOG_N's certificate and store it (run when the prover's bracket, errors or cuts change)."""
    statement, payload = _proved()
    data = {"written_by": "python -m tests.certificates.kernel.test_reduced_time (the prover's search for LOG_N)"}
    STORED.write_text(json.dumps(data | {"statement": statement, "payload": payload}, indent=1, sort_keys=True) + "\n")


def _check(statement: dict[str, Any], payload: dict[str, Any]) -> str:
    return reduced_time.check(statement, statement["claim"], "smt", payload, 20)[0]


@pytest.mark.slow
def test_the_wrong_constant_is_refuted_by_a_negative_difference() -> None:
    statement, payload = _proved(WRONG, holds=False)
    assert statement["sign"] == "<" and statement["expression"][0] == "sub"
    assert "(1/2/lam - 1/lam < 0)" in _check(statement, payload)
    assert search(_claim(WRONG), True) is None  # the claim itself has no certificate


def _bracket(key: str, value: Any) -> Any:
    def edit(statement: dict[str, Any], payload: dict[str, Any]) -> None:
        payload["bracket"][key] = value

    return edit


def _doubled(key: str) -> Any:
    def edit(statement: dict[str, Any], payload: dict[str, Any]) -> None:
        payload["bracket"][key] = ["mul", ["rat", "2"], payload["bracket"][key]]

    return edit


def _both(key: str, value: Any) -> Any:
    def edit(statement: dict[str, Any], payload: dict[str, Any]) -> None:
        statement[key] = payload[key] = value

    return edit


ATTACKS = {
    "a factor that is not 1/(A' R)": _bracket("factor", ["sym", "n"]),
    "a doubled antiderivative": _doubled("antiderivative"),
    "a doubled lower end (G >= a fails)": _doubled("low"),
    "A(rho1) misstated": _doubled("at_target"),
    "the limit moved": _both("limit", ["div", ["rat", "1"], ["sym", "lam"]]),
    "the sign flipped": _both("sign", "<"),
    "h not monotone in T": lambda statement, payload: statement.__setitem__(
        "expression", ["div", ["mul", ["sym", "T"], ["sym", "T"]], ["log", ["sym", "n"]]]
    ),
    "relu's weight read on softmax's data": lambda statement, payload: statement.__setitem__("attention", "relu"),
    "another attention": lambda statement, payload: statement.__setitem__("attention", "usa"),
    "a renamed variable": lambda statement, payload: statement["variables"][0].__setitem__("name", "mu"),
    "n not an integer": lambda statement, payload: statement["variables"][-1].__setitem__("integer", False),
    "a start above the target": lambda statement, payload: statement.__setitem__("start", ["rat", "2"]),
    "one end's error missing": lambda statement, payload: payload["errors"].pop(),
    "no variable n": lambda statement, payload: statement["variables"].pop(),
    "a point without rho1": lambda statement, payload: statement["point"].pop("rho1"),
    "a point that is not a table": lambda statement, payload: statement.__setitem__("point", [1, 2]),
}


def _rejected(edit: Any) -> bool:
    """Whether the kernel rejects the genuine (stored) certificate edited by `edit`."""
    statement, payload = _stored()
    edit(statement, payload)
    try:
        _check(statement, payload)
    except (Rejected, TreeError):  # TreeError: a malformed or oversized tree, which check-cert reports as rejected
        return True
    return False


def _written(folder: Path, found: tuple[dict[str, Any], dict[str, Any]] | None = None) -> Path:
    """The certificate of Theta(log n) (`found`, else the stored one), written as `certify` writes it."""
    statement, payload = found or _stored()
    return write_certificate(folder, "softmax-time", "smt", payload, embedded(_claim(LOG_N)), statement)


def test_the_stored_certificate_is_the_provers_but_for_its_cuts() -> None:
    """The stored statement is what the elaborator states today for LOG_N from the stored payload, and its bracket
    what the prover builds today: the file goes stale only in its searched cuts and errors (the slow search test)."""
    statement, payload = _stored()
    assert elaborate(_claim(LOG_N), "smt", payload) == statement
    assert payload["bracket"] == prover._bracket("softmax")


@pytest.mark.slow
def test_the_search_finds_a_certificate_the_kernel_accepts(tmp_path: Path) -> None:
    """The prover's search for Theta(log n) (15-25 s of solver calls): the kernel accepts its file, and it states what
    the stored certificate states with the same bracket and errors (the cuts may differ: another proof of the same
    relations; `python -m tests.certificates.kernel.test_reduced_time` rewrites the stored one)."""
    statement, payload = _proved()
    checked = check_file(_written(tmp_path, (statement, payload)))
    assert checked.ok, checked.message
    stored_statement, stored_payload = _stored()
    assert statement == stored_statement
    assert {k: v for k, v in payload.items() if k != "cuts"} == {k: v for k, v in stored_payload.items() if k != "cuts"}


def test_the_softmax_time_grows_like_log_n_and_no_forgery_passes(tmp_path: Path) -> None:
    """The stored certificate of Theta(log n) and its sentence; every attack rejected; check-cert --claims refuses it
    for the claim Theta(n) and for relu, and relabelled; its Coq problem (the identity, then the built statements)."""
    statement, _ = _stored()
    assert statement["expression"] == ["div", ["sym", "T"], ["log", ["sym", "n"]]] and statement["sign"] == ">"
    assert statement["start"] == ["rat", "0"] and [v["name"] for v in statement["variables"]][-1] == "n"
    path = _written(tmp_path)
    checked = check_file(path)  # the file as `certify` writes it: its sentence, its Coq problem below
    assert checked.ok, checked.message
    proved = checked.proved
    assert "softmax clustering time of equiangular tokens from rho0 = 0 to rho1" in proved
    assert "A'(rho) G(rho) R(rho) = 1 (exact)" in proved and "mean value theorem" in proved
    assert [name for name, edit in ATTACKS.items() if not _rejected(edit)] == []
    huge, huge_payload = _stored()  # an antiderivative of 5,001 nodes: refused by size before its derivative is taken
    huge_payload["bracket"]["antiderivative"] = ["add", *[["sym", "rho"]] * 5000]
    with pytest.raises(TreeError, match="larger than 4000 nodes"):
        _check(huge, huge_payload)
    assert recheck(path, claims={"softmax-time": _claim(LOG_N)}, read_claim=True).ok
    linear = _claim(SOFTMAX.replace("{relation}", 'order = "Theta(n)"'))
    assert not recheck(path, claims={"softmax-time": linear}, read_claim=True).ok
    relu = _claim(LOG_N.replace('"softmax"', '"relu"'))
    assert not recheck(path, claims={"softmax-time": relu}, read_claim=True).ok
    relabelled = forged_file(path, tmp_path, lambda data: data["statement"].__setitem__("claim", "other"), name="s")
    assert not check_file(relabelled).ok
    _, stated = problem(checked)  # Coq states A' G R = 1, then the built statements
    assert len(stated) == 14 and stated[0].goal[-1][0] == "=" and stated[0].goal[-1][2] == ["rat", "1"]
    assert "rho" in stated[0].constants and stated[1:] and all(s.name.startswith("softmax-time.") for s in stated)


@needs_coqc
def test_coq_re_checks_the_softmax_time_and_no_forgery(tmp_path: Path) -> None:
    """The bracket's lemmas (`certificates.coq.reduced_time`) and each statement's proof: coqc accepts the file; a
    forged certificate gets no Coq file (the kernel rejects it first)."""
    path = _written(tmp_path)
    assert coq_files.check(path).status == "re-checked by Coq"
    forged = forged_file(path, tmp_path, lambda data: _doubled("low")(data["statement"], data["payload"]), name="f")
    assert coq_files.check(forged).status == "rejected by Coq"


@pytest.mark.slow
@needs_coqc
def test_coq_re_checks_the_relu_time(tmp_path: Path) -> None:
    """Relu's bracket (G = 1, three logarithms of d; its search takes about 85 s): T/(n log(d)/(4 lam^2 beta)) -> 1,
    re-checked by Coq with relu's lemmas."""
    relu = _claim(RELU)
    found = search(relu, True)
    assert found is not None
    statement, payload = found
    path = write_certificate(tmp_path, "relu-time", "smt", payload, embedded(relu), statement)
    assert check_file(path).ok and coq_files.check(path).status == "re-checked by Coq"


def test_no_certificate_for_what_the_form_does_not_state() -> None:
    """An o(g) claim (T/g tends to a positive number here), an O(g) claim and a variable other than n or d."""
    assert search(_claim(SOFTMAX.replace("{relation}", 'order = "o(log(n))"')), False) is None
    assert search(_claim(SOFTMAX.replace("{relation}", 'order = "O(n)"')), True) is None


if __name__ == "__main__":  # rewrite the stored certificate from a fresh search
    _write_stored()
