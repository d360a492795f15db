"""Coq re-checks certificates: constants, point witnesses and smt statements compile; forgeries do not.

Skipped, with the reason printed, when coqc (with the Interval library) is not installed.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import headflow.checks as checks
import pytest
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.format import content_hash
from headflow.certificates.kernel.model_statements import statement_of
from headflow.certificates.provers.witness import certify_obligation_point
from headflow.certificates.statements import registry as ob
from headflow.certificates.store import write_certificate
from headflow.checks import coq_files

from tests.coq_rates import rate_problem
from tests.coq_tier import module_needs_coqc
from tests.sample_claims import POINT_AND_SMT

pytestmark = module_needs_coqc("Coq tests")

CLAIMS = (
    POINT_AND_SMT
    + """
[[claim]]
id = "entropy-rate.any-symmetric-heads"
kind = "dynamics"
quantity = "entropy_rate"
property = "non-negative"
attention = "softmax"
heads = "random-symmetric"
tokens = "random-sphere"
n = 4
d = 3
H = 1
beta = 2.0
time = 1.0
"""
)


def _edit(path: Path, change) -> Path:  # type: ignore[no-untyped-def]
    """Apply `change` to the certificate's content, re-seal its checksum (a forger can), write a new file."""
    certificate = json.loads(path.read_text())
    change(certificate)
    certificate["sha256"] = content_hash(certificate)
    forged = path.with_name("forged." + path.name)
    forged.write_text(json.dumps(certificate))
    return forged


@pytest.fixture(scope="module")
def claims_certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("coq-claims")
    report = checks.check(CLAIMS, certificates=folder, progress=False)
    return {Path(p).name.split(".witness")[0].split(".smt")[0]: Path(p) for p in report.certificates}


def _superadditivity(folder: Path, second: Fraction = Fraction(242, 45)) -> Path:
    result = certify_obligation_point("T22.superadditivity", {"n": 2, "H": 2}, [Fraction(11, 100), second], folder)
    assert result.path is not None
    return Path(result.path)


@pytest.mark.slow
def test_point_witness_is_rechecked_by_coq(tmp_path: Path) -> None:
    verdict = coq_files.check(_superadditivity(tmp_path))
    assert verdict.status == coq_files.RECHECKED, verdict.message


def test_point_witness_with_changed_data_is_rejected_by_coq(tmp_path: Path) -> None:
    """Changed data never reach coqc through check-cert (the kernel's check rejects them first), and coqc rejects
    them on its own: the genuine problem with lambda2 = 1/2 (the mean below lambda_c, so g(mean) > 0 is false) has no
    proof that `interval` finds."""
    from headflow.certificates.coq.source import source
    from headflow.certificates.kernel.coq.certificate import problem
    from headflow.certificates.kernel.verify import check_file

    def change(c: dict) -> None:  # type: ignore[type-arg]
        c["payload"]["point"]["lambda2"] = "1/2"

    genuine = _superadditivity(tmp_path)
    verdict = coq_files.check(_edit(genuine, change))
    assert verdict.status == coq_files.REJECTED and "obligation" in verdict.message
    sentence, built = problem(check_file(genuine))
    changed = built._replace(point=built.point | {"lambda2": Fraction(1, 2)})
    answer = run.compile_source(source(genuine.name, "T22.superadditivity", sentence, changed))
    assert answer.status == "rejected"
    assert "headflow_certificate.v" in answer.message  # coqc's own error, with its location


def test_relabelled_witness_does_not_state_the_other_claim(tmp_path: Path) -> None:
    def change(c: dict) -> None:  # type: ignore[type-arg]
        c["claim_id"] = "T19.threshold.exact"

    verdict = coq_files.check(_edit(_superadditivity(tmp_path), change))
    assert verdict.status == coq_files.REJECTED and "does not state" in verdict.message


@pytest.mark.slow
def test_registry_smt_statements_are_proved_in_coq(tmp_path: Path) -> None:
    path = write_certificate(tmp_path, "T19.threshold", "smt", {})  # the statements are the core statement's
    verdict = coq_files.check(path)
    assert verdict.status == coq_files.RECHECKED, verdict.message


def test_weakened_smt_statement_is_rejected(tmp_path: Path) -> None:
    def weaken(c: dict) -> None:  # type: ignore[type-arg]
        c["statement"]["statements"][1]["hypotheses"].pop()

    verdict = coq_files.check(_edit(write_certificate(tmp_path, "T19.threshold", "smt", {}), weaken))
    assert verdict.status == coq_files.REJECTED and "does not state" in verdict.message


@pytest.mark.slow
def test_claims_file_certificates_are_rechecked_and_written(claims_certificates: dict[str, Path]) -> None:
    for name in ("golden.inverse", "c-star.at-most-one"):
        path = claims_certificates[name]
        assert coq_files.coq_path(path).exists(), "check --certificates writes the Coq file next to the certificate"
        verdict = coq_files.check(path)
        assert verdict.status == coq_files.RECHECKED, (name, verdict.message)


def test_edited_constant_claim_is_rejected_by_coq(claims_certificates: dict[str, Path]) -> None:
    # the claim and its statement now say 0.6180339888 (false at the 10th digit): the interval [0.61803398875,
    # 0.61803398885]; the payload is re-sealed, not re-derived
    def change(c: dict) -> None:  # type: ignore[type-arg]
        c["claim"]["toml"] = c["claim"]["toml"].replace("0.6180339887", "0.6180339888")
        c["statement"] |= {"low": "494427191/800000000", "high": "12360679777/20000000000"}

    verdict = coq_files.check(_edit(claims_certificates["golden.inverse"], change))
    assert verdict.status == coq_files.REJECTED


def test_false_claim_with_the_true_claims_payload_is_rejected(claims_certificates: dict[str, Path]) -> None:
    # c_star(H) <= 1/2 is false: the kernel's re-check of the statement, before any Coq text, finds it satisfiable
    def change(c: dict) -> None:  # type: ignore[type-arg]
        c["claim"]["toml"] = c["claim"]["toml"].replace('"rhs" = "1"', '"rhs" = "1/2"')
        c["statement"]["rhs"] = ["rat", "1/2"]

    verdict = coq_files.check(_edit(claims_certificates["c-star.at-most-one"], change))
    assert verdict.status == coq_files.REJECTED and "does not state" in verdict.message


def test_a_failed_coq_proof_rejects_witness_data_but_not_a_valid_smt_certificate(
    claims_certificates: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """coqc failing (as nra may on a true statement) leaves a valid smt certificate re-checked by check-cert alone;
    `check-cert --coq` exits 0 for it. The same failure on a witness, whose data the proof checks, is a rejection."""
    from headflow.checks import cli

    failed = run.CoqAnswer("rejected", "Error: nra failed to prove the goal", 0.1)
    monkeypatch.setattr(coq_files.run, "compile_source", lambda *args, **kwargs: failed)
    smt = claims_certificates["c-star.at-most-one"]
    assert coq_files.check(smt).status == coq_files.UNPROVED
    assert coq_files.check(_superadditivity(tmp_path)).status == coq_files.REJECTED
    assert cli.main(["check-cert", "--coq", "--width=1000", str(smt)]) == 0
    assert f"{smt}: coq: {coq_files.UNPROVED}" in capsys.readouterr().out


def test_false_universal_statement_does_not_compile() -> None:
    from headflow.certificates.coq.source import source
    from headflow.certificates.kernel.coq.statements import UniversalStatement

    # c_star(H) <= 1/2 for all H >= 1, with its sqrt: false at H = 1 (c_star(1) = 1)
    sqrt = ["sqrt", ["add", ["rat", "4"], ["pow", ["add", ["sym", "H"], ["rat", "-1"]], 2]]]
    c_star = ["mul", ["rat", "1/2"], ["add", sqrt, ["mul", ["rat", "-1"], ["add", ["sym", "H"], ["rat", "-1"]]]]]
    statement = UniversalStatement("false", ["H"], [[">=", ["sym", "H"], ["rat", "1"]]], ["<=", c_star, ["rat", "1/2"]])
    answer = run.compile_source(source("t", "false", "false", [statement]))
    assert answer.status == "rejected"


def test_every_certificate_certify_writes_has_its_coq_file(certified: dict[str, list[Path]]) -> None:
    """Every kind `certify` writes is translated since the convexity chains were (`coq_files.UNTRANSLATED` keeps the
    equilibria in Krawczyk boxes, from `headflow verify`, and the trajectory chains of claims files; a cover over
    integers is refused: test_coq_covers)."""
    paths = [p for group in certified.values() for p in group]
    assert any(".convexity." in p.name for p in paths)
    assert [p.name for p in paths if not coq_files.coq_path(p).exists()] == []
    assert set(coq_files.UNTRANSLATED) == {"equilibrium", "trajectory"}


def test_the_coq_files_certify_writes_are_what_check_cert_regenerates(certified: dict[str, list[Path]]) -> None:
    """`certify` writes each translatable certificate's Coq file; `check-cert --coq` compiles the text it regenerates
    from the certificate and notes a file on disk that differs: the two writers must agree byte for byte."""
    written = [p for group in certified.values() for p in group if coq_files.coq_path(p).exists()]
    assert len(written) >= 10
    for path in written:
        assert coq_files.coq_path(path).read_text(encoding="utf-8") == coq_files.coq_text(path), path.name


@pytest.mark.slow
def test_registry_configuration_witnesses_are_rechecked_in_coq(certified: dict[str, list[Path]]) -> None:
    # every configuration witness of the registry (T11.*, T17, T27 readings, C8): one bound lemma per definition
    paths = [path for claim_id in ob.CONFIGURATIONS for path in certified.get(claim_id, [])]
    assert len(paths) >= 7
    for path in paths:
        verdict = coq_files.check(path)
        assert verdict.status == coq_files.RECHECKED, (path.name, verdict.message)


@pytest.mark.slow
def test_small_configuration_witness_is_rechecked_in_coq(certified: dict[str, list[Path]]) -> None:
    shadow = coq_files.check(certified["T17.shadow-obstruction"][0])
    assert shadow.status == coq_files.RECHECKED, shadow.message


def test_configuration_file_bounds_each_definition_and_states_the_rate() -> None:
    from headflow.certificates.coq.source import source

    one, zero = Fraction(1), Fraction(0)
    identity = [[one, zero], [zero, one]]
    exact = ExactConfiguration(identity, [identity], [identity], one)
    problem = rate_problem("head_energy_rate", "<", exact, {"h": 0})
    text = source("t", "c", "s", problem)
    for name, _ in problem.definitions:
        assert f"Lemma {name}_bounds :" in text and f"Opaque {name}." in text
    assert "unfold" not in text.split("Theorem")[1]  # the theorem's interval sees the named atoms, never their terms


def test_forged_configuration_witness_fails_the_coq_check(certified: dict[str, list[Path]], tmp_path: Path) -> None:
    # x_0's first coordinate flipped in sign (still a unit token): dE_1/dt becomes positive (about +64.6)
    original = certified["T17.shadow-obstruction"][0]

    def flip(tokens: list) -> None:  # type: ignore[type-arg]
        tokens[0][0] = tokens[0][0][1:] if tokens[0][0].startswith("-") else "-" + tokens[0][0]

    def change(c: dict) -> None:  # type: ignore[type-arg]
        flip(c["payload"]["configuration"]["tokens"])

    forged = tmp_path / original.name
    forged.write_text(original.read_text())
    verdict = coq_files.check(_edit(forged, change))
    assert verdict.status == coq_files.REJECTED, verdict.message
    # past check-cert, Coq itself refuses `rate < 0` for the forged data, where the rate is positive
    from headflow.certificates.coq.source import source
    from headflow.certificates.kernel.coq.model_tree import witness_problem

    certificate = json.loads(original.read_text())
    flip(certificate["payload"]["configuration"]["tokens"])
    claim = statement_of(certificate["statement"]["model"], certificate["claim_id"])
    problem = witness_problem(claim, certificate["payload"])
    assert run.compile_source(source("t", "forged", "s", problem)).status == "rejected"


def test_coqc_timeout_kills_the_process() -> None:
    answer = run.compile_source("Goal True. Proof. do 1000000000 (idtac; idtac). exact I. Qed.\n", seconds=1)
    assert answer.status == "timeout" and "killed" in answer.message


@pytest.mark.slow
def test_check_cert_coq_reports_each_certificate(tmp_path: Path) -> None:
    good = _superadditivity(tmp_path)

    def change(c: dict) -> None:  # type: ignore[type-arg]
        c["payload"]["point"]["lambda2"] = "1/2"

    bad = _edit(good, change)
    result = subprocess.run(
        [sys.executable, "-m", "headflow", "check-cert", "--coq", "--width=1000", str(good), str(bad)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 1
    assert f"{good}: coq: re-checked by Coq" in result.stdout
    assert f"{good}: independent checkers: check-cert (balls), Coq" in result.stdout
    assert f"{bad}: FAIL: coq: rejected by Coq" in result.stderr


def test_named_nodes_of_the_claims_grammar_translate_and_prove() -> None:
    from headflow.certificates.coq.source import source
    from headflow.certificates.kernel.coq.statements import PointProblem, UniversalStatement

    # c_star(H) <= 1 for H >= 1; 1/golden - (golden - 1) + 1/1000 > 0 and c_star(2) > 0 (named nodes)
    H = ["sym", "H"]
    universal = UniversalStatement("named", ["H"], [[">=", H, ["rat", "1"]]], ["<=", ["c_star", H], ["rat", "1"]])
    assert run.compile_source(source("t", "named", "s", [universal])).status == "accepted"
    inverse = ["add", ["sub", ["div", ["rat", "1"], ["golden"]], ["sub", ["golden"], ["rat", "1"]]], ["rat", "1/1000"]]
    rows = [("1/golden > golden - 1 - 1/1000", inverse, ">"), ("c_star(2) > 0", ["c_star", ["rat", "2"]], ">")]
    point = PointProblem({}, [{"name": n, "expression": e, "relation": r} for n, e, r in rows])
    text = source("t", "named", "s", point)
    assert "((1 + sqrt 5) / 2) <> 0" in text  # the div's definedness is stated
    assert run.compile_source(text).status == "accepted"
    above = ["sub", ["c_star", ["rat", "2"]], ["rat", "1"]]
    false = PointProblem({}, [{"name": "c_star(2) > 1", "expression": above, "relation": ">"}])
    assert run.compile_source(source("t", "named", "s", false)).status == "rejected"


def test_c_star_decreasing_across_heads_is_proved_and_its_reverse_is_not() -> None:
    """c*(H+1) < c*(H) for every real H >= 1 (two square roots): nra needs sqrt(p^2 + c) > p and > -p, which the
    prelude's sqrt facts now add; the reversed relation still fails."""
    from headflow.certificates.coq.source import source
    from headflow.certificates.kernel.coq.statements import UniversalStatement

    H = ["sym", "H"]
    shifted = ["c_star", ["add", H, ["rat", "1"]]]
    for relation, status in (("<", "accepted"), (">", "rejected")):
        statement = UniversalStatement(
            "decreasing", ["H"], [[">=", H, ["rat", "1"]]], [relation, shifted, ["c_star", H]]
        )
        assert run.compile_source(source("t", "decreasing", "s", [statement])).status == status, relation


@pytest.mark.slow
def test_claims_file_dynamics_witness_is_rechecked_by_coq(claims_certificates: dict[str, Path]) -> None:
    path = claims_certificates["entropy-rate.any-symmetric-heads"]
    assert coq_files.coq_path(path).exists()
    verdict = coq_files.check(path)
    assert verdict.status == coq_files.RECHECKED, verdict.message
    text = coq_files.coq_text(path)  # the theorem states the sign of the entropy rate, defined from the chain
    assert re.search(r"^Definition lhs : R := dH_0_\d+_dt\.$", text, flags=re.M), text[-2000:]
    assert re.search(r"^Definition dH_0_\d+_dt : R := .*\bln Z_0_\d+\b", text, flags=re.M)


def _flip_first_token(c: dict) -> None:  # type: ignore[type-arg]
    tokens = c["payload"]["configuration"]["tokens"]
    tokens[0] = [t[1:] if t.startswith("-") else "-" + t for t in tokens[0]]


def _relabel(c: dict) -> None:  # type: ignore[type-arg]
    c["claim_id"] = "entropy-rate.other"


def _edit_property(c: dict) -> None:  # type: ignore[type-arg]
    # the property of the core statement the kernel checks and prints (the embedded claim is provenance, compared
    # with its file by `check-cert --claims`): entropy_rate non-decreasing, which no value at one state refutes
    c["statement"]["property"] = "non-decreasing"


@pytest.mark.parametrize("change", [_flip_first_token, _relabel, _edit_property])
def test_forged_dynamics_witness_fails_the_coq_check(claims_certificates: dict[str, Path], change) -> None:  # type: ignore[no-untyped-def]
    verdict = coq_files.check(_edit(claims_certificates["entropy-rate.any-symmetric-heads"], change))
    assert verdict.status == coq_files.REJECTED, verdict.message


def _beta_doubled(c: dict) -> None:  # type: ignore[type-arg]
    beta = Fraction(c["payload"]["configuration"]["beta"])
    c["payload"]["configuration"]["beta"] = str(2 * beta)


def _relabel_configuration(c: dict) -> None:  # type: ignore[type-arg]
    c["claim_id"] = "T11.hypotheses.no-symmetry"


@pytest.mark.parametrize("change", [_beta_doubled, _relabel_configuration])
def test_forged_configuration_data_or_id_fails(certified: dict[str, list[Path]], tmp_path: Path, change) -> None:  # type: ignore[no-untyped-def]
    original = certified["T17.shadow-obstruction"][0]
    forged = tmp_path / original.name
    forged.write_text(original.read_text())
    verdict = coq_files.check(_edit(forged, change))
    assert verdict.status == coq_files.REJECTED, verdict.message


def test_a_wrong_hint_fails_the_file_not_the_theorem(monkeypatch: pytest.MonkeyPatch) -> None:
    # the hints are only hints: one bound moved past the true value and coqc refuses that lemma
    from headflow.certificates.coq import enclosures
    from headflow.certificates.coq.source import source

    one, zero, half = Fraction(1), Fraction(0), Fraction(1, 2)
    tokens = [[one, zero], [Fraction(3, 5), Fraction(4, 5)]]
    scores = [[[one, half], [half, one]]]
    exact = ExactConfiguration(tokens, scores, scores, one)
    problem = rate_problem("head_energy_rate", "!=", exact, {"h": 0})
    assert run.compile_source(source("t", "c", "s", problem)).status == "accepted"
    true_hints = enclosures.hints

    def wrong(point, definitions):  # type: ignore[no-untyped-def]
        bounds = true_hints(point, definitions)
        low, high = bounds[0]
        return [(high + (high - low), high + 2 * (high - low)), *bounds[1:]]

    monkeypatch.setattr(enclosures, "hints", wrong)
    assert run.compile_source(source("t", "c", "s", problem)).status == "rejected"
