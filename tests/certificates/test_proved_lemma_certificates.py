"""Certificates of PROVED verdicts that re-check a lemma of the claim (issue 40, item 1).

T22.superadditivity.reading-b (phi'' > 0 above lambda_c), T25's softmax readings c and e and relu readings c and d
(bounds on the frozen, linearized and exact reduced times) carry SMT certificates of the kernel's table, and so do the
refutations of T25's tight readings (softmax d and f: the time is O(log n); relu e: it is bounded in n); the critical
points single-cluster and antipodal carry `gram` certificates (P_x(a x) = 0 at x and -x), and the regular simplex one
whose sum of tokens is shown 0 from |s|^2 = 0 in a positive-definite space. Each table sentence names
the step check-cert does not re-check. Here: the kernel accepts each one and prints that caveat; a relabelled, weakened
or edited certificate is rejected; a deliberately wrong statement is neither proved by z3 nor accepted by the kernel.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import sympy as sp
from headflow.certificates.kernel import inner_products, registry_statements
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers import gram_identities
from headflow.certificates.statements import registry as obligations
from headflow.certificates.statements.inner_products import simplex_obligation
from headflow.certificates.statements.registry import SmtStatement
from headflow.certificates.store import build_certificate, content_hash
from headflow.checks.evidence.smt_certificates import certify_statements
from headflow.checks.registry import Context, load_all
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict

from tests.forging import forged_file

SMT_CLAIMS = (
    "T22.superadditivity.reading-b",
    "T25.softmax-time.reading-c",
    "T25.softmax-time.reading-e",
    "T25.relu-time.reading-c",
    "T25.relu-time.reading-d",
    "T25.softmax-time.reading-d",
    "T25.softmax-time.reading-f",
    "T25.relu-time.reading-e",
)
GRAM_CLAIMS = ("critical-points.single-cluster", "critical-points.antipodal", "critical-points.simplex")


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("lemmas")
    paths = {}
    for claim in SMT_CLAIMS:
        outcome = certify_statements(Context("quick", 0, folder, claim_id=claim))
        assert outcome.verdict is Verdict.CERTIFIED, (claim, outcome.notes)
        paths[claim] = Path(outcome.certificates[0])
    return paths | {claim: gram_identities.certify(claim, folder) for claim in GRAM_CLAIMS}


def test_the_table_holds_each_claim_and_names_what_is_not_rechecked() -> None:
    for claim in (*SMT_CLAIMS, *GRAM_CLAIMS):
        assert "NOT re-check" in registry_statements.table()[claim]["sentence"], claim


@pytest.mark.slow
def test_each_certificate_is_accepted_with_its_caveat(certificates: dict[str, Path]) -> None:
    for claim, path in certificates.items():
        result = check_file(path)
        assert result.ok, (claim, result.message)
        assert "NOT re-check" in result.proved, claim


def test_a_gram_certificate_is_accepted(certificates: dict[str, Path]) -> None:
    result = check_file(certificates["critical-points.antipodal"])
    assert result.ok and "exact algebra" in result.message


def _relabel(data: dict[str, Any]) -> None:
    """Filed under another claim whose table entry is of the same kind."""
    data["claim_id"] = data["statement"]["claim"] = "T19.golden"


def _weaken_goal(data: dict[str, Any]) -> None:
    data["statement"]["statements"][0]["goal"] = ["true"]


def _drop_hypothesis(data: dict[str, Any]) -> None:
    data["statement"]["statements"][-1]["hypotheses"].pop(0)


def _edit_sentence(data: dict[str, Any]) -> None:
    data["statement"]["sentence"] = data["statement"]["sentence"].split("check-cert does NOT")[0]


@pytest.mark.parametrize("edit", [_relabel, _weaken_goal, _drop_hypothesis, _edit_sentence])
@pytest.mark.parametrize("claim", ["T25.softmax-time.reading-c", "T22.superadditivity.reading-b"])
def test_a_forged_smt_certificate_is_rejected(
    certificates: dict[str, Path], tmp_path: Path, edit: Any, claim: str
) -> None:
    result = check_file(forged_file(certificates[claim], tmp_path, edit))
    assert not result.ok, edit.__name__
    assert "not the kernel's statement" in result.message, result.message


def _gram_relabel(data: dict[str, Any]) -> None:
    data["claim_id"] = data["statement"]["claim"] = "critical-points.single-cluster"


def _gram_drop_unit(data: dict[str, Any]) -> None:
    data["statement"]["unit"] = []


@pytest.mark.parametrize("edit", [_gram_relabel, _gram_drop_unit])
def test_a_forged_gram_certificate_is_rejected(certificates: dict[str, Path], tmp_path: Path, edit: Any) -> None:
    assert not check_file(forged_file(certificates["critical-points.antipodal"], tmp_path, edit)).ok


def wrong_frozen_time() -> SmtStatement:
    """A deliberately false bound: the frozen time at most rho1 n/(4 lambda) (it is at least rho1 n/(2 lambda))."""
    (true,) = obligations.softmax_frozen_statements()
    T, lam, rho1, n = (sp.Symbol(name, real=True) for name in ("T", "lambda", "rho_1", "n"))
    return SmtStatement("wrong", "false", true.symbols, true.hypotheses, 4 * lam * T <= rho1 * n)


def test_a_wrong_statement_is_not_proved_and_its_certificate_is_rejected(tmp_path: Path) -> None:
    claim = "T25.softmax-time.reading-c"
    outcome = certify_statements(Context("quick", 0, tmp_path, claim_id=claim), (wrong_frozen_time(),))
    assert outcome.verdict is Verdict.INCONCLUSIVE and "not proved" in outcome.notes
    certificate = build_certificate(claim, "smt", {})  # written by hand: the prover writes no such file
    certificate["statement"] = registry_statements.expected(claim, {}) | {"statements": [wrong_frozen_time().tree()]}
    certificate["sha256"] = content_hash(certificate)
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(certificate))
    result = check_file(path)
    assert not result.ok and "not the kernel's statement" in result.message


def test_a_wrong_gram_identity_is_refuted() -> None:
    """P_x(a x) = 0 holds; P_x(a x + w) = 0, or P_x(a x) paired with w equal to a, does not."""
    statement = registry_statements.expected("critical-points.single-cluster", {})
    ((lhs, _),) = statement["identities"]
    for wrong in ([lhs, ["sym", "a"]], [["inner", ["vadd", ["vec", "x"], ["vec", "w"]], ["vec", "w"]], ["rat", "0"]]):
        with pytest.raises(Rejected, match="does not hold"):
            inner_products.check(statement | {"identities": [wrong]}, "test", {}, 0)


def _simplex_relabel(data: dict[str, Any]) -> None:
    data["claim_id"] = data["statement"]["claim"] = "critical-points.antipodal"


def _simplex_indefinite(data: dict[str, Any]) -> None:
    data["statement"]["definite"] = False


def _simplex_no_zero(data: dict[str, Any]) -> None:
    data["statement"]["zero"] = []


def _simplex_other_angle(data: dict[str, Any]) -> None:
    data["statement"]["gram"][0][2] = ["rat", "0"]


def _simplex_edit_sentence(data: dict[str, Any]) -> None:
    data["statement"]["sentence"] = data["statement"]["sentence"].split("; it rests on")[0]


@pytest.mark.parametrize(
    "edit", [_simplex_relabel, _simplex_indefinite, _simplex_no_zero, _simplex_other_angle, _simplex_edit_sentence]
)
def test_a_forged_simplex_certificate_is_rejected(certificates: dict[str, Path], tmp_path: Path, edit: Any) -> None:
    result = check_file(forged_file(certificates["critical-points.simplex"], tmp_path, edit))
    assert not result.ok and "not the kernel's statement" in result.message, (edit.__name__, result.message)


def test_the_simplex_certificate_is_accepted_with_its_caveat(certificates: dict[str, Path]) -> None:
    result = check_file(certificates["critical-points.simplex"])
    assert result.ok and "exact algebra" in result.message, result.message
    assert "positive-definite" in result.proved and "NOT re-check" in result.proved


def test_a_simplex_at_a_wrong_angle_is_refuted(tmp_path: Path) -> None:
    """<x_i, x_j> = -1/n (not -1/(n-1)): |s|^2 = 1, so the kernel cannot make s = 0 and refuses the statement, both put
    straight to the check and filed as a certificate (then it is not the table's statement either)."""
    n = sp.Symbol("n", integer=True, positive=True)
    wrong = registry_statements.expected("critical-points.simplex", {}) | simplex_obligation(-1 / n).entry()
    with pytest.raises(Rejected, match="is not shown"):
        inner_products.check(wrong, "test", {}, 0)
    certificate = build_certificate("critical-points.simplex", "gram", {})
    certificate["statement"] = wrong
    certificate["sha256"] = content_hash(certificate)
    path = tmp_path / "wrong-simplex.json"
    path.write_text(json.dumps(certificate))
    result = check_file(path)
    assert not result.ok and "not the kernel's statement" in result.message


def test_the_proved_simplex_verdict_carries_its_certificate(tmp_path: Path) -> None:
    """Where the verdict is decided (`REGISTRY.derivations`): PROVED, with the gram certificate check-cert accepts."""
    (result,) = run_claims([load_all().get("critical-points.simplex")], Context(certificate_dir=tmp_path))
    assert result.verdict is Verdict.PROVED, result
    (path,) = result.certificates
    assert ".gram." in path and check_file(Path(path)).ok


EQUIANGULAR = """
[[claim]]
id = "equiangular"
kind = "equilibrium"
tokens = "equiangular"
rho = "{rho}"
property = "critical-point"
"""


def test_an_equiangular_claim_at_the_simplex_angle_carries_the_simplex_certificate(tmp_path: Path) -> None:
    """rho written as the simplex's -1/(n - 1) is the simplex claim: PROVED with its gram certificate; the same
    angle written otherwise (1/(1 - n)) is PROVED without one (the regimes are compared as written, never by a zero
    test), and another angle (-1/n) is refuted (a witness of a moving token, no gram certificate)."""
    from tests.sample_claims import certificates_of

    for name in ("simplex", "written-otherwise", "other-angle"):
        (tmp_path / name).mkdir()
    found = certificates_of(EQUIANGULAR.format(rho="-1/(n - 1)"), tmp_path / "simplex")
    (path,) = found.values()
    assert ".gram." in path.name and json.loads(path.read_text())["claim_id"] == "critical-points.simplex"
    assert check_file(path).ok
    assert not certificates_of(EQUIANGULAR.format(rho="1/(1 - n)"), tmp_path / "written-otherwise")
    other = certificates_of(EQUIANGULAR.format(rho="-1/n"), tmp_path / "other-angle")
    assert not [path for path in other.values() if ".gram." in path.name]
