"""The SMT certificates of T19.lambert-w and its reading-b (lambda_max the unique maximiser of phi): z3 proves the
statements (W((n-1)/e) as w >= -1 with w exp(1 + w) = n - 1, values of exp as constants with true facts), wrong
neighbours get a model, check-cert accepts the genuine certificates and refuses edited ones, and the procedures turn
a certificate that does not prove into INCONCLUSIVE, never a silent PROVED."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import sympy as sp
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.smt import certify, decide
from headflow.certificates.statements import registry as obligations
from headflow.checks.registry import Context, load_all
from headflow.checks.reports.report import Report
from headflow.checks.verdicts import Verdict
from headflow.identities import closed_forms

from tests.coq_tier import needs_coqc
from tests.forging import forged_file

CLAIMS = ("T19.lambert-w", "T19.lambert-w.reading-b")


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_every_statement_is_unsat(claim_id: str) -> None:
    for statement in obligations.SMT[claim_id].statements():
        assert decide(statement).status == "unsat", statement.name


def _maximiser() -> obligations.SmtStatement:
    (statement,) = obligations.lambda_max_statements()
    return statement


def test_lambda_max_is_the_closed_form_and_phi_the_rate() -> None:
    """The statement is built from closed_forms: beta lambda_max = 1 + w, and phi's cross product."""
    statement = _maximiser()
    assert sp.Eq(b * lam_max, 1 + w) in statement.hypotheses
    assert closed_forms.lambda_max(2, 1).has(sp.LambertW)


b, lam, lam_max, w, E_v, n = (
    obligations.b,
    obligations.lam,
    obligations.lam_max,
    obligations.w,
    obligations.E_v,
    obligations.n,
)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (sp.Eq(b * lam_max, 1 + w), sp.Eq(b * lam_max, 2 + w)),
        (sp.Ne(lam, lam_max), sp.true),  # lambda = lambda_max is no strict improvement
        (sp.Eq(w * E_v, n - 1), sp.Eq(w * E_v, n)),
    ],
    ids=["constant-2", "not-punctured", "no-1/e"],
)
def test_wrong_neighbours_of_the_maximiser_get_a_model(old: sp.Basic, new: sp.Basic) -> None:
    statement = _maximiser()
    assert old in statement.hypotheses
    hypotheses = tuple(new if h == old else h for h in statement.hypotheses if not (h == old and new is sp.true))
    assert decide(replace(statement, hypotheses=hypotheses)).status == "sat"


def test_the_taylor_cut_is_needed() -> None:
    """Without a fact beyond E > 0 and the product, the maximiser is not provable: the cut carries exp's convexity."""
    statement = _maximiser()
    assert decide(replace(statement, hypotheses=statement.hypotheses[:-1])).status == "sat"


def test_lambda_c_is_not_below_two_or_a_second_root() -> None:
    by_name = {s.name: s for s in obligations.lambert_w_statements()}
    above = by_name["lambda-c-above-two"]
    assert decide(replace(above, goal=obligations.u_c > 3)).status == "sat"  # u_c(2) < 3: no stronger bound
    above_root = by_name["lambda-c-above-root"]
    assert decide(replace(above_root, goal=sp.Not(above_root.goal))).status == "sat"


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder, paths = tmp_path_factory.mktemp("lambertw"), {}
    for claim_id in CLAIMS:
        results, path = certify(obligations.SMT[claim_id].statements(), claim_id, folder)
        assert path is not None, results
        paths[claim_id] = path
    return paths


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_the_genuine_certificates_recheck(certificates: dict[str, Path], claim_id: str) -> None:
    checked = check_file(certificates[claim_id])
    assert checked.ok, checked.message
    assert "unique maximiser" in checked.proved
    assert "in z3 and in cvc5" in checked.message


def _coefficient(data: dict) -> None:
    """beta lambda_max = 1 + w becomes 2 + w in the maximiser's hypotheses."""
    (statement,) = (s for s in data["statement"]["statements"] if s["name"] == "lambda-max-maximiser")
    text = json.dumps(statement["hypotheses"])
    assert '["rat", "1"], ["sym", "w"]' in text
    statement["hypotheses"] = json.loads(text.replace('["rat", "1"], ["sym", "w"]', '["rat", "2"], ["sym", "w"]', 1))


def _drop_cut(data: dict) -> None:
    (statement,) = (s for s in data["statement"]["statements"] if s["name"] == "lambda-max-maximiser")
    statement["hypotheses"].pop()


def _relabel(data: dict) -> None:
    other = "T19.lambert-w.reading-b" if data["claim_id"] == "T19.lambert-w" else "T19.lambert-w"
    data["claim_id"] = other
    data["statement"]["claim"] = other


def _drop_statement(data: dict) -> None:
    data["statement"]["statements"].pop()


@pytest.mark.parametrize("claim_id", CLAIMS)
@pytest.mark.parametrize("edit", [_coefficient, _drop_cut, _relabel, _drop_statement])
def test_an_edited_certificate_is_rejected(certificates: dict[str, Path], tmp_path: Path, claim_id, edit) -> None:
    forged = forged_file(certificates[claim_id], tmp_path, edit)
    checked = check_file(forged)
    assert not checked.ok, json.dumps(json.loads(forged.read_text())["statement"])[:300]


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_the_procedures_attach_the_certificate(whole_paper: Report, claim_id: str) -> None:
    """In the session's `headflow verify` run: PROVED, with one smt certificate of the claim (the procedure itself
    had the kernel accept it; `test_the_genuine_certificates_recheck` re-checks the same writer's files)."""
    assert whole_paper.verdicts[claim_id] is Verdict.PROVED
    (data,) = (d for p in whole_paper.certificates if (d := json.loads(Path(p).read_text()))["claim_id"] == claim_id)
    assert data["kind"] == "smt"


def test_an_unproved_certificate_makes_the_proof_inconclusive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SymPy's derivation passes, but the certificate's statement is false (lambda_max shifted): not PROVED."""
    statement = _maximiser()
    shifted = tuple(
        sp.Eq(obligations.b * obligations.lam_max, 2 + obligations.w) if h == statement.hypotheses[7] else h
        for h in statement.hypotheses
    )
    claim_id = "T19.lambert-w.reading-b"
    wrong = obligations.SmtObligation("wrong", lambda: (replace(statement, hypotheses=shifted),))
    monkeypatch.setitem(obligations.SMT, claim_id, wrong)
    (procedure,) = (p for name, p in load_all().get(claim_id).procedures if name == "symbolic")
    outcome = procedure(Context(claim_id=claim_id, certificate_dir=tmp_path))
    assert outcome.verdict is Verdict.INCONCLUSIVE
    assert "did not prove" in outcome.notes
    assert not outcome.certificates


def _drop_upper_cut(data: dict) -> None:
    """W_0(c e^c) = c without exp's upper cut (E_d T(c - w) <= 1): the forged statement a proof must not reach."""
    (statement,) = (s for s in data["statement"]["statements"] if s["name"] == "w0-trivial")
    statement["hypotheses"].pop(-2)


@pytest.mark.slow
@needs_coqc
@pytest.mark.parametrize(
    ("claim_id", "edits"), [("T19.lambert-w.reading-b", (_drop_cut,)), ("T19.lambert-w", (_drop_cut, _drop_upper_cut))]
)
def test_the_certificates_are_rechecked_by_coq(certificates: dict[str, Path], tmp_path: Path, claim_id, edits) -> None:  # type: ignore[no-untyped-def]
    """Coq proves every statement (the maximiser and five more by hand proofs in `certificates.coq.proofs`);
    forged statements are not proved."""
    from headflow.checks import coq_files

    verdict = coq_files.check(certificates[claim_id])
    assert verdict.status == coq_files.RECHECKED, verdict.message
    for edit in edits:
        forged = coq_files.check(forged_file(certificates[claim_id], tmp_path, edit))
        assert forged.status != coq_files.RECHECKED, edit.__name__
