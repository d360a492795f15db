"""The exit gap's certificates (`exit-gap` statements, `exit-gap.limit` and `.half` of examples/asymptotics.toml) are
re-checked by Coq: each built statement is an instance of the lemmas of certificates/coq/exit_gap.py closed by `lra`,
and the same proof does not prove a statement made stronger (a limit moved, an error halved, an end's sign given a
margin h does not have, the refutation's limit past its value)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.exit_gap import FORM
from headflow.checks import coq_files
from headflow.checks.coq_files import certificate_problem, kernel_checks

from tests.certificates.kernel.test_exit_gap import FAILS, HOLDS, _written
from tests.coq_tier import needs_coqc

_LIMIT = '["div", ["sub", ["sym", "H"], ["rat", "1"]], ["sym", "H"]]'


@needs_coqc
@pytest.mark.parametrize("limit", [HOLDS, FAILS])
def test_the_exit_gap_is_rechecked_by_coq(tmp_path: Path, limit: str) -> None:
    """The stored certificates (the limit (H - 1)/H, and 1/2 refuted at H = 3), every statement by its hand proof."""
    verdict = coq_files.check(_written(tmp_path, limit))
    assert verdict.status == coq_files.RECHECKED, verdict.message


def _relation(goal: list[Any]) -> list[Any]:
    """The goal's relation (after the conjunct H != 0 where the statement has one)."""
    return goal[-1] if goal[0] == "and" else goal


def _moved_limit(goal: list[Any]) -> list[Any]:  # L - a <= 2/n with L = 1: 1 - a is about 1/H
    text = json.dumps(goal)
    return json.loads(text.replace(f'["sub", {_LIMIT}, ["div"', '["sub", ["rat", "1"], ["div"'))


_ERROR = '["mul", ["mul", ["rat", "{}"], ["exp"'


def _halved_error(goal: list[Any]) -> list[Any]:  # b - L = 2 e/(n - 1) is not within 2 e/n
    return json.loads(json.dumps(goal).replace(_ERROR.format(4), _ERROR.format(2)))


def _margin(value: str) -> Any:
    def edit(goal: list[Any]) -> list[Any]:  # h(1 - a) < -1 (E - 1 is small for small alpha beta); D > 1/6 at H = 3
        found = json.loads(json.dumps(goal))
        _relation(found)[2] = ["rat", value]
        return found

    return edit


#: (the certificate, which built statement (a needle in its goal's JSON), the stronger goal)
CASES = {
    "the limit moved to 1": (HOLDS, f'["sub", {_LIMIT}, ["div"', _moved_limit),
    "the upper end's error halved": (HOLDS, _ERROR.format(4), _halved_error),
    "h(1 - a) < -1": (HOLDS, '["<", ["sub", ["mul", ["sub", ["sym", "n"]', _margin("-1")),
    "the refutation's D = 1/6 > 1/6": (FAILS, '[">", ["sub", ["div", ["sub", ["rat", "3"]', _margin("1/6")),
}


@needs_coqc
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_hand_proofs_do_not_prove_a_stronger_statement(tmp_path: Path, case: str) -> None:
    limit, needle, stronger = CASES[case]
    _, built = certificate_problem(kernel_checks.checked(_written(tmp_path, limit)))
    statement = next(s for s in built if needle in json.dumps(s.goal))
    text = source("exit-gap", "genuine", "genuine", [statement], bracket=FORM)
    assert "hf_exit_" in text and run.compile_source(text).status == "accepted"
    forged = statement._replace(goal=stronger(statement.goal))
    assert forged.goal != statement.goal
    answer = run.compile_source(source("exit-gap", "stronger", "stronger", [forged], bracket=FORM))
    assert answer.status == "rejected" and "Error" in answer.message, answer
