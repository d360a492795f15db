"""Theorem 25's closed-form time statements (the SMT certificates of its readings) are proved in Coq by the proof
scripts of `certificates/coq/proofs.py` (nra alone does not multiply three factors), and the same script does not
prove a strengthened statement."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import universal
from headflow.certificates.store import write_certificate
from headflow.checks import coq_files

from tests.coq_tier import needs_coqc

CLAIMS = ("T25.softmax-time.reading-c", "T25.softmax-time.reading-e")
CLAIMS += ("T25.relu-time.reading-c", "T25.relu-time.reading-d")
#: The refutations of the tight readings: the time is O(log n) (softmax), bounded in n (relu).
CLAIMS += ("T25.softmax-time.reading-d", "T25.softmax-time.reading-f", "T25.relu-time.reading-e")


@pytest.mark.slow
@pytest.mark.parametrize("claim_id", CLAIMS)
def test_the_statements_are_proved_in_coq(tmp_path: Path, claim_id: str) -> None:
    verdict = coq_files.check(write_certificate(tmp_path, claim_id, "smt", {}))
    assert verdict.status == coq_files.RECHECKED, verdict.message


@pytest.mark.slow
def test_a_strengthened_statement_is_not_proved(tmp_path: Path) -> None:
    """reduced-speed-bound states C n v >= rho_1; with 2 rho_1 (false: C n v = rho_1 is allowed) its script fails."""
    certificate = json.loads(write_certificate(tmp_path, "T25.softmax-time.reading-e", "smt", {}).read_text())
    (statement,) = (s for s in certificate["statement"]["statements"] if s["name"] == "reduced-speed-bound")
    assert run.compile_source(source("t25", "genuine", "genuine", universal([statement]))).status == "accepted"
    text = json.dumps(statement["goal"])
    assert '[">=", ["mul", ["sym", "C"], ["sym", "n"], ["sym", "v"]], ["sym", "rho_1"]]' in text
    statement["goal"] = json.loads(text.replace('["sym", "rho_1"]]]', '["mul", ["rat", "2"], ["sym", "rho_1"]]]]', 1))
    (stronger,) = universal([statement])
    answer = run.compile_source(source("t25", "strengthened", "strengthened", [stronger]))
    assert answer.status == "rejected" and "Error" in answer.message, answer


@needs_coqc
def test_the_refutations_are_not_certified_when_strengthened(tmp_path: Path) -> None:
    """relu-speed-square states v >= (1 - rho_1) lambda^2 beta rho^2; three times that is false (n = 2, rho = rho_1
    = 9/10: v = lambda^2 beta rho (1 - rho)(1 + rho) < 3 (1 - rho_1) lambda^2 beta rho^2): z3 does not prove it, and
    Coq's script for the genuine statement does not prove it either."""
    import dataclasses

    from headflow.certificates.provers.smt import certify
    from headflow.certificates.statements import registry as obligations

    genuine = {s.name: s for s in obligations.SMT["T25.relu-time.reading-e"].statements()}["relu-speed-square"]
    stronger = dataclasses.replace(genuine, goal=genuine.goal.func(genuine.goal.lhs, 3 * genuine.goal.rhs))
    results, path = certify((stronger,), "T25.relu-time.reading-e", tmp_path)
    assert path is None and results["relu-speed-square"].status != "unsat"
    (coq_statement,) = universal([stronger.tree()])
    answer = run.compile_source(source("t25", "strengthened", "strengthened", [coq_statement]))
    assert answer.status == "rejected", answer
