"""An inequality over a punctured domain as a statement of form `punctured` (`certificates.kernel.punctured`).

Worked by hand: f(x) = x e^(-x) has f' = (1 - x) e^(-x) = g P with g = 1 - x (decreasing, g(1) = 0) and P = e^(-x) > 0,
so f increases up to 1 and decreases after it: x e^(-x) < f(1) = e^(-1) for every x != 1. f(x) = x^2 - 2 x on [-5, 5]
has f' = 2 (x - 1): a minimiser at 1, x^2 - 2x > -1 for x != 1. phi(l) = rate(l, n, beta) = 2 l/(e^(beta l) + n - 1)
has f' = 2 N / D^2 with N = e^(beta l)(1 - beta l) + n - 1, decreasing in l > 0, and N = 0 exactly at
lambda_max = (1 + W((n - 1)/e))/beta (W e^W = (n - 1)/e): its unique strict maximiser on l > 0. Each attack is a test:
a moved hole, a relation turned around, a factor of the wrong sign, an integer member, a hole or a value naming the
member, a value below the maximum, the wrong kind, a statement that is not the claim's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.coq.source import source
from headflow.certificates.kernel import punctured
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.punctured import candidates, certify
from headflow.certificates.statements.punctured import statement
from headflow.checks import coq_files
from headflow.checks.rechecks import recheck

from tests.coq_tier import needs_coqc
from tests.forging import forged_file


def _claim(lhs: str, op: str, rhs: str, domain: str) -> Any:
    text = f'[[claim]]\nid = "c"\nkind = "inequality"\nlhs = "{lhs}"\nop = "{op}"\nrhs = "{rhs}"\ndomain = {domain}\n'
    (claim,) = parse_claims(text)
    return claim


X_EXP = ("x * exp(-x)", "<", "exp(-1)", '{ x = { except = "1" } }')
PARABOLA = ("-1", "<", "x**2 - 2*x", '{ x = { min = -5, max = 5, except = "1" } }')  # f on the right: turned
RATE = (
    "rate(l, n, beta)",
    "<",
    "rate((1 + lambertw((n - 1) / e)) / beta, n, beta)",
    '{ n = "integer>=2", beta = "positive", l = { min = 0, min_open = true, except = "(1 + lambertw((n - 1) / e)) / '
    'beta" } }',
)


@pytest.fixture(scope="module")
def certified(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("punctured")
    found = {name: certify(_claim(*spec), folder) for name, spec in (("x", X_EXP), ("parabola", PARABOLA))}
    assert all(found.values()), found
    return {name: Path(path) for name, path in found.items() if path}


def _stated(spec: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, Any]]:
    claim = _claim(*spec)
    g, factor = candidates(claim)[0]
    return statement(claim, {"numerator": g, "factor": factor}), {"numerator": g, "factor": factor}


def test_maximisers_and_minimisers_are_certified(certified: dict[str, Path]) -> None:
    for path in certified.values():
        result = check_file(path)
        assert result.ok, result.message
    proved = check_file(certified["parabola"]).proved
    assert "x**2 - 2*x > -1 for every x != 1 of its interval" in proved and "mean value theorem" in proved


def test_false_claims_get_no_certificate(tmp_path: Path) -> None:
    wrong_hole = (X_EXP[0], "<", "exp(-2) * 2", '{ x = { except = "2" } }')  # f(2) is no maximum
    too_low = (X_EXP[0], "<", "exp(-1) - 10**(-30)", X_EXP[3])  # the maximum is e^(-1), above the bound
    wrong_way = (X_EXP[0], ">", "exp(-1)", X_EXP[3])  # a maximum read as a minimum
    for spec in (wrong_hole, too_low, wrong_way):
        assert certify(_claim(*spec), tmp_path) is None, spec


def _edited(key: str, value: Any) -> Any:
    return lambda s: s | {key: value}


ATTACKS = {
    "the hole moved to 2": _edited("except", ["rat", "2"]),
    "the relation turned around": _edited("op", ">"),
    "the factor of the wrong sign": lambda s: (
        s | {"factor": ["neg", s["factor"]], "numerator": ["neg", s["numerator"]]}
    ),
    "an integer member": lambda s: s | {"variables": [s["variables"][0] | {"integer": True}]},
    "a hole naming the member": _edited("except", ["add", ["sym", "x"], ["rat", "0"]]),
    "a value naming the member": _edited("value", ["exp", ["neg", ["sym", "x"]]]),
    "a value below the maximum": _edited("value", ["rat", "1/3"]),
    "one point only": _edited("points", [{"x": "0"}]),
}


def _check(stated: dict[str, Any]) -> str:
    """The kernel's check with no cuts (the genuine statement needs none)."""
    payload = {key: stated[key] for key in ("numerator", "factor")} | {"cuts": [[]] * 8}
    return punctured.check(stated, "c", "smt", payload, 20)[0]


def test_the_genuine_statement_needs_no_cuts() -> None:
    assert "x*exp(-x) < exp(-1) for every x != 1" in _check(_stated(X_EXP)[0])


@pytest.mark.parametrize("name", ATTACKS)
def test_attacked_statements_are_rejected(name: str) -> None:
    with pytest.raises(Rejected):
        _check(ATTACKS[name](_stated(X_EXP)[0]))


def test_the_wrong_kind_a_stale_payload_and_a_statement_that_is_not_the_claims(
    certified: dict[str, Path], tmp_path: Path
) -> None:
    path = certified["x"]
    as_witness = forged_file(path, tmp_path, lambda d: d.__setitem__("kind", "witness"), name="kind.json")
    assert not check_file(as_witness).ok
    stale = forged_file(path, tmp_path, lambda d: d["payload"].__setitem__("factor", ["rat", "1"]), name="stale.json")
    assert not check_file(stale).ok  # the payload's factor is not the statement's

    def lower(data: dict[str, Any]) -> None:
        data["statement"]["value"] = ["rat", "1"]  # x e^(-x) < 1: true, proved, and not the claim

    edited = forged_file(path, tmp_path, lower, name="value.json")
    assert check_file(edited).ok
    assert not recheck(edited, claims={"c": _claim(*X_EXP)}, read_claim=True).ok


@pytest.mark.slow
@needs_coqc
def test_coq_rechecks_the_built_relations(certified: dict[str, Path]) -> None:
    for path in certified.values():
        verdict = coq_files.check(path)
        assert verdict.status == coq_files.RECHECKED, verdict.message


@needs_coqc
def test_coq_binds_lambert_w_and_refuses_a_wrong_argument(tmp_path: Path) -> None:
    """The rate's maximiser: N(lambda_max) = 0 needs e^(W + 1) = e^W e, the product cut the prover proposes with 1/beta
    put back (check-cert); Coq states every relation for all w with w >= -1 and w e^w = (n - 1)/e (`is_lambertw`),
    W's value among them, and proves N(lambda_max) = 0 from it; the same proof of N = 0 with W's argument n/e (false)
    is refused. (In the Coq tier only: its certificate search takes 5 s.)"""
    path = certify(_claim(*RATE), tmp_path)
    assert path is not None
    checked = coq_files.check(Path(path))
    assert checked.status == coq_files.RECHECKED, checked.message
    assert "is_lambertw" in coq_files.coq_text(Path(path))
    sentence, built = problem(check_file(Path(path)))
    zero = built[6]  # g(c) = 0, c = (1 + W((n - 1)/e))/beta
    text = str(zero.goal)
    assert "lambertw" in text
    wrong = json_replace(zero.goal, ["sub", ["sym", "n"], ["rat", "1"]], ["sym", "n"])
    assert wrong != zero.goal
    forged = zero._replace(goal=wrong)
    assert run.compile_source(source(Path(path).name, "c", sentence, [forged])).status == "rejected"
    assert run.compile_source(source(Path(path).name, "c", sentence, [zero])).status == "accepted"


def json_replace(tree: Any, old: Any, new: Any) -> Any:
    """The tree with every subtree equal to `old` replaced by `new`."""
    if tree == old:
        return new
    return [json_replace(t, old, new) for t in tree] if isinstance(tree, list) else tree
