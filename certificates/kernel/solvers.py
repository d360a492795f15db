"""Run z3 and cvc5 on SMT-LIB2 problems, each in a fresh isolated Python process with a time limit.

The problems are the checker's own text (`certificates.kernel.smtlib.problem_text`: declarations,
asserts, check-sat; no options, so no file or output channel can be named). Each solver process
reads a JSON list of problems on stdin and prints exactly one line per problem: `sat`, `unsat` or
`unknown`. Anything else (a crash, extra output) is an error, never an answer. The process runs with
`python -I` (no user site, no PYTHON* variables) in an empty temporary folder, in its own process group
and tied to headflow (`certificates.kernel.processes`: it never outlives it).

The time limit is the parent's: the process gets `seconds` of wall time for all its problems (its start
included) and is then killed with its group; the problems it had not answered are TIME_LIMIT. The solvers'
own limits are not used: cvc5's `tlimit` is not checked inside nonlinear arithmetic, and a solver that
stopped itself would answer `unknown`, which could not be told apart from a real `unknown`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from certificates.kernel import processes
from certificates.kernel.recheck import Rejected

#: Seconds each solver gets for the problems of one certificate in `headflow check-cert` (`--solver-seconds`).
DEFAULT_SECONDS = 30.0
#: The answer to a problem the solver had not answered when its time ran out.
TIME_LIMIT = "time limit"

_Z3 = """
import json, sys, z3
for text in json.loads(sys.stdin.read()):
    solver = z3.Solver()
    solver.from_string(text)
    print(solver.check(), flush=True)
"""

_CVC5 = """
import json, sys, cvc5
for text in json.loads(sys.stdin.read()):
    solver = cvc5.Solver(cvc5.TermManager())
    parser = cvc5.InputParser(solver)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "certificate")
    said = []
    while not (command := parser.nextCommand()).isNull():
        said.append(command.invoke(solver, parser.getSymbolManager()).strip())
    print(" ".join(s for s in said if s) or "no answer", flush=True)
"""

SCRIPTS = {"z3": _Z3, "cvc5": _CVC5}


def answers(solver: str, problems: Sequence[str], seconds: float) -> list[str]:
    """The solver's answer to each problem (`sat`, `unsat`, `unknown`, TIME_LIMIT), or one `error: ...` per problem.

    The process is killed at `seconds`: the problems answered before keep their answers."""
    finished = processes.run_python(SCRIPTS[solver], json.dumps(list(problems)), seconds)
    lines = finished.stdout.split("\n")[:-1]  # complete lines only: a kill may cut the last one
    killed = finished.returncode is None
    if (killed and len(lines) <= len(problems)) or (finished.returncode == 0 and len(lines) == len(problems)):
        said = [x if x in ("sat", "unsat", "unknown") else f"error: {solver} printed {x[:40]!r}" for x in lines]
        return said + [TIME_LIMIT] * (len(problems) - len(lines))
    last = (finished.stderr.strip().splitlines() or [f"exit code {finished.returncode}"])[-1]
    return [f"error: {solver} failed ({last[:120]})"] * len(problems)


def recheck_unsat(texts: list[str], seconds: float) -> str:
    """How the problems were re-checked; Rejected unless some solver answered `unsat` to every one of them.

    z3, then cvc5, each get `seconds` for all the problems. A solver re-checks the file when it answers `unsat`
    to every problem. One that runs out of time has not re-checked it, and the result says so ("not re-checked
    by cvc5 (time limit ...)"): the file is then accepted on the other solver alone. Any other answer (`sat`,
    `unknown`, an error) from either solver rejects the file, and so does a file that no solver re-checked."""
    rechecked: list[str] = []
    ran_out: list[str] = []
    for solver in SCRIPTS:
        said = answers(solver, texts, seconds)
        for index, answer in enumerate(said):
            if answer not in ("unsat", TIME_LIMIT):
                raise Rejected(f"{solver} answers {answer!r} on statement {index + 1}: only unsat closes a proof")
        if TIME_LIMIT in said:
            done = said.index(TIME_LIMIT)
            ran_out.append(f"not re-checked by {solver} (time limit: {seconds:g} s, {done} of {len(texts)} unsat)")
        else:
            rechecked.append(solver)
    if not rechecked:
        raise Rejected(f"{'; '.join(ran_out)}: no solver re-checked it")
    return "; ".join([f"{len(texts)} statement(s) unsat in {' and in '.join(rechecked)} (fresh processes)", *ran_out])
