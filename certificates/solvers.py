"""Run z3 and cvc5 on SMT-LIB2 problems, each in a fresh isolated Python process with a time limit.

The problems are the checker's own text (`certificates.smtlib.problem_text`: declarations,
asserts, check-sat; no options, so no file or output channel can be named). Each solver process
reads a JSON list of problems on stdin and prints exactly one line per problem: `sat`, `unsat` or
`unknown`. Anything else (a crash, extra output, a timeout) is an error, never an answer. The
process runs with `python -I` (no user site, no PYTHON* variables) in an empty temporary folder.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Sequence

SOLVER_TIMEOUT_SECONDS = 60.0
#: Seconds for the solver process to start, on top of the solver's own limit: a solver that does not honour its
#: limit (cvc5's `tlimit` is not always checked inside nonlinear arithmetic) is stopped this long after it.
STARTUP_SECONDS = 5.0
ANSWERS = ("sat", "unsat", "unknown")

_Z3 = """
import json, sys, z3
milliseconds = int(sys.argv[1])
for text in json.loads(sys.stdin.read()):
    solver = z3.Solver()
    solver.set("timeout", milliseconds)
    solver.from_string(text)
    print(solver.check(), flush=True)
"""

_CVC5 = """
import json, sys, cvc5
milliseconds = sys.argv[1]
for text in json.loads(sys.stdin.read()):
    terms = cvc5.TermManager()
    solver = cvc5.Solver(terms)
    solver.setOption("tlimit", milliseconds)
    parser = cvc5.InputParser(solver)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "certificate")
    symbols = parser.getSymbolManager()
    said = []
    while True:
        command = parser.nextCommand()
        if command.isNull():
            break
        said.append(command.invoke(solver, symbols).strip())
    print(" ".join(s for s in said if s) or "no answer", flush=True)
"""

SCRIPTS = {"z3": _Z3, "cvc5": _CVC5}


def answers(solver: str, problems: Sequence[str], timeout_seconds: float = SOLVER_TIMEOUT_SECONDS) -> list[str]:
    """The solver's answer to each problem (`sat`, `unsat`, `unknown`), or one `error: ...` per problem."""
    budget = timeout_seconds * len(problems) + STARTUP_SECONDS
    milliseconds = str(max(1, int(timeout_seconds * 1000)))
    with tempfile.TemporaryDirectory(prefix="headflow-solver-") as folder:
        try:
            result = subprocess.run(
                [sys.executable, "-I", "-c", SCRIPTS[solver], milliseconds],
                input=json.dumps(list(problems)),
                capture_output=True,
                text=True,
                timeout=budget,
                cwd=folder,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return [f"error: {solver} did not finish in {budget:g} s"] * len(problems)
    lines = result.stdout.splitlines()
    if result.returncode != 0 or len(lines) != len(problems):
        last = (result.stderr.strip().splitlines() or [f"exit code {result.returncode}"])[-1]
        return [f"error: {solver} failed ({last[:120]})"] * len(problems)
    return [line if line in ANSWERS else f"error: {solver} printed {line[:40]!r}" for line in lines]
