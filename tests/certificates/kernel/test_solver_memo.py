"""The kernel's memo of solver answers (`solvers._MEMO`): a problem already solved in this process, by the same
solver under the same resource limit, is not solved again (two certificates of one lemma print the same text), and
nothing else is answered from it: a text that differs by one character, another limit or another solver starts a
solver process; an answer that is not counted (the wall-clock safety net, an error) is never kept.

The memo is emptied before every test (`tests/conftest.py`), so that each test here starts from none.
"""

from __future__ import annotations

import json

import pytest
from headflow.certificates.kernel import processes, solvers

UNSAT = "(set-logic QF_NRA)\n(declare-fun x0 () Real)\n(assert (< (* x0 x0) 0))\n(check-sat)\n"
#: UNSAT with one character changed (`x0*x0 < 1`): sat.
SAT = UNSAT.replace("0))", "1))")


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The problems of each solver process started, in order (the real processes still run)."""
    problems: list[list[str]] = []
    run = processes.run_program

    def counting(argv: list[str], stdin: str, seconds: float, folder: str) -> processes.Finished:
        problems.append(json.loads(stdin))
        return run(argv, stdin, seconds, folder)

    monkeypatch.setattr(processes, "run_program", counting)
    return problems


def test_a_problem_solved_before_starts_no_solver_and_a_one_character_change_does(started: list[list[str]]) -> None:
    assert len(SAT) == len(UNSAT) and sum(a != b for a, b in zip(SAT, UNSAT, strict=True)) == 1
    assert solvers.answers("z3", [UNSAT], 60.0) == ["unsat"]
    assert started == [[UNSAT]]
    assert solvers.answers("z3", [UNSAT, UNSAT], 60.0) == ["unsat", "unsat"]
    assert started == [[UNSAT]]  # no process: the answer is the memo's
    assert solvers.answers("z3", [SAT, UNSAT], 60.0) == ["sat", "unsat"]
    assert started == [[UNSAT], [SAT]]  # the new text alone is solved


def test_another_limit_or_solver_solves_it_again(started: list[list[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    assert solvers.answers("z3", [UNSAT], 60.0) == ["unsat"]
    monkeypatch.setitem(solvers.RLIMITS, "z3", solvers.RLIMITS["z3"] // 2)
    assert solvers.answers("z3", [UNSAT], 60.0) == ["unsat"]
    assert solvers.answers("cvc5", [UNSAT], 60.0) == ["unsat"]
    assert started == [[UNSAT]] * 3


@pytest.mark.parametrize("answer", [solvers.SAFETY_LIMIT, "error: cvc5 failed (exit code -11)"])
def test_an_answer_that_is_not_counted_is_not_kept(monkeypatch: pytest.MonkeyPatch, answer: str) -> None:
    """The safety net depends on the wall clock, an error on the machine: the next call runs the solver again."""
    calls = []
    monkeypatch.setattr(solvers, "_solve", lambda solver, texts, seconds: calls.append(texts) or [answer] * len(texts))
    assert solvers.answers("cvc5", [UNSAT], 1.0) == [answer]
    assert solvers.answers("cvc5", [UNSAT], 1.0) == [answer]
    assert calls == [[UNSAT], [UNSAT]] and not solvers._MEMO


@pytest.mark.parametrize("answer", ["sat", "unsat", "unknown", solvers.RESOURCE_LIMIT])
def test_a_counted_answer_is_kept_for_its_exact_text_only(monkeypatch: pytest.MonkeyPatch, answer: str) -> None:
    monkeypatch.setattr(solvers, "_solve", lambda solver, texts, seconds: [answer] * len(texts))
    assert solvers.answers("cvc5", [UNSAT], 1.0) == [answer]
    assert list(solvers._MEMO.items()) == [(("cvc5", solvers.RLIMITS["cvc5"], UNSAT), answer)]
