"""Run z3 and cvc5 on SMT-LIB2 problems, each in a fresh isolated Python process, within counted resource limits.

The problems are the checker's own text (`headflow.certificates.kernel.smtlib.problem_text`: declarations,
asserts, check-sat; no options, so no file or output channel can be named). Each solver process
reads a JSON list of problems on stdin (its resource limit is its one argument) and prints exactly one line per
problem: `sat`, `unsat`, `unknown`, or that the limit was spent. Anything else (a crash, extra output) is an error,
never an answer. The process runs with `python -I` (no user site, no PYTHON* variables) in an empty scratch folder,
in its own process group and tied to headflow (`headflow.certificates.kernel.processes`: it never outlives it).

The budget of each problem is counted, not timed: z3's `rlimit` and cvc5's `rlimit-per`, each solver's own count
of its work, the same on every run of one version, so that an answer does not depend on how busy the machine is
(the certificate records the versions: `certificates.store`). `headflow check` confirms with cvc5 under the same
limits as `headflow check-cert`. A wall-clock limit stays as a safety net far above them, for a solver that spends
long between two counts (cvc5's nonlinear covering steps): the process gets `seconds` for all its problems (its
start included) and is then killed with its group; the problems it had not answered are SAFETY_LIMIT.

A counted answer is kept in this process's memory (`_MEMO`, keyed by the solver, its resource limit and the exact
text), so that a problem two certificates share is solved once per run: never on disk, never a SAFETY_LIMIT or an
error, and the same answer a new process would give (the limit is counted).
"""

import json
import sys
import tempfile
from collections.abc import Sequence

from . import processes

#: The wall-clock safety net of each solver per certificate in `headflow check-cert` (`--solver-seconds`).
DEFAULT_SECONDS = 300.0
#: Each problem's resource limit, per solver (z3's `rlimit`, cvc5's `rlimit-per`): some 40 times what the largest
#: problem of the tests and examples takes (z3 350,000, cvc5 22,000; the 5-variable AM-GM of degree 6 takes cvc5
#: 195,000). Not a time: cvc5 spends seconds on one unit inside a nonlinear covering step.
RLIMITS = {"z3": 20_000_000, "cvc5": 300_000}
#: The answers to a problem whose resource limit was spent, and to one the solver had not answered when the safety
#: net killed it.
RESOURCE_LIMIT, SAFETY_LIMIT = "resource limit", "wall-clock safety limit"

_Z3 = """import json, sys, z3
for text in json.loads(sys.stdin.read()):
    solver = z3.Solver()
    solver.set("rlimit", int(sys.argv[1]))
    solver.from_string(text)
    answer = str(solver.check())
    print("resource limit" if answer == "unknown" and "resource" in solver.reason_unknown() else answer, flush=True)
"""

_CVC5 = """import json, sys, cvc5
for text in json.loads(sys.stdin.read()):
    solver = cvc5.Solver(cvc5.TermManager())
    solver.setOption("rlimit-per", sys.argv[1])
    parser = cvc5.InputParser(solver)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "certificate")
    said = []
    while not (command := parser.nextCommand()).isNull():
        said.append(command.invoke(solver, parser.getSymbolManager()).strip())
    print(" ".join(s for s in said if s) or "no answer", flush=True)
"""

SCRIPTS = {"z3": _Z3, "cvc5": _CVC5}
#: What the scripts print, and the answer it is (cvc5 says why it answers unknown when it stopped itself).
_ANSWERS = {x: x for x in ("sat", "unsat", "unknown", RESOURCE_LIMIT)} | {"unknown (RESOURCEOUT)": RESOURCE_LIMIT}


#: The counted answers (`_ANSWERS`: never SAFETY_LIMIT or an error) given in this process, by solver, resource limit
#: and the exact problem text: a problem two certificates share is solved once. In memory only, never on disk (a
#: file would be input the kernel trusts), and only counted answers, the same on every run of one solver version.
_MEMO: dict[tuple[str, int, str], str] = {}


def answers(solver: str, problems: Sequence[str], seconds: float) -> list[str]:
    """The solver's answer to each problem (`sat`, `unsat`, `unknown`, RESOURCE_LIMIT, SAFETY_LIMIT), or one
    `error: ...` per problem not answered before in this process (`_MEMO`). Each problem gets the solver's RLIMITS.

    Only the problems not in the memo go to a solver process, each text once (none: no process is started)."""
    todo = [text for text in dict.fromkeys(problems) if (solver, RLIMITS[solver], text) not in _MEMO]
    said = dict(zip(todo, _solve(solver, todo, seconds) if todo else [], strict=True))
    _MEMO.update({(solver, RLIMITS[solver], x): answer for x, answer in said.items() if answer in _ANSWERS.values()})
    return [said.get(text) or _MEMO[solver, RLIMITS[solver], text] for text in problems]


def _solve(solver: str, problems: Sequence[str], seconds: float) -> list[str]:
    """The answers of one fresh solver process to the problems, as `answers` says.

    The process is killed at `seconds` (the safety net): the problems answered before keep their answers."""
    with tempfile.TemporaryDirectory(prefix="headflow-solver-") as folder:
        argv = [sys.executable, "-I", "-c", SCRIPTS[solver], str(RLIMITS[solver])]  # the script, its resource limit
        finished = processes.run_program(argv, json.dumps(list(problems)), seconds, folder)
    lines = finished.stdout.split("\n")[:-1]  # complete lines only: a kill may cut the last one
    killed = finished.returncode is None
    if (killed and len(lines) <= len(problems)) or (finished.returncode == 0 and len(lines) == len(problems)):
        said = [_ANSWERS.get(x, f"error: {solver} printed {x[:40]!r}") for x in lines]
        return said + [SAFETY_LIMIT] * (len(problems) - len(lines))
    last = (finished.stderr.strip().splitlines() or [f"exit code {finished.returncode}"])[-1]
    return [f"error: {solver} failed ({last[:120]})"] * len(problems)


class Unsat(str):
    """How problems were re-checked, in words (`recheck_unsat`), carrying `solvers`: those that answered unsat to
    every problem, in the order they ran, so that a caller reads them from the result, never from the words
    (`verify.CheckResult.solvers`). A note added with `+` keeps them."""

    def __new__(cls, text: str, solvers: tuple[str, ...] = ()) -> "Unsat":
        unsat = super().__new__(cls, text)
        unsat.solvers = solvers
        return unsat

    def __add__(self, note: str) -> "Unsat":
        return Unsat(str(self) + note, self.solvers)


def recheck_unsat(texts: list[str], seconds: float) -> Unsat:
    """How the problems were re-checked, with the solvers that did (`Unsat`); Rejected unless some solver answered
    `unsat` to every one of them.

    z3, then cvc5, each get their resource limit per problem and `seconds` (the safety net) for all of them. A
    solver re-checks the file when it answers `unsat` to every problem. One that runs out has not re-checked it,
    and the result says so ("not re-checked by cvc5 (resource limit, 0 of 1 unsat)"): the file is
    then accepted on the other solver alone. Any other answer (`sat`, `unknown`, an error) from either solver
    rejects the file, and so does a file that no solver re-checked."""
    from .recheck import Rejected  # here: `check-cert --help` reads DEFAULT_SECONDS without flint

    ran_out = {}  # solver -> why it did not re-check every problem
    for solver in SCRIPTS:
        said = answers(solver, texts, seconds)
        for index, answer in enumerate(said):
            if answer not in ("unsat", RESOURCE_LIMIT, SAFETY_LIMIT):
                raise Rejected(f"{solver} answers {answer!r} on statement {index + 1}: only unsat closes a proof")
        if out := next((answer for answer in said if answer != "unsat"), None):
            ran_out[solver] = f"not re-checked by {solver} ({out}, {said.count('unsat')} of {len(texts)} unsat)"
    if not (rechecked := tuple(solver for solver in SCRIPTS if solver not in ran_out)):
        raise Rejected(f"{'; '.join(ran_out.values())}: no solver re-checked it")
    done = f"{len(texts)} statement(s) unsat in {' and in '.join(rechecked)} (fresh processes)"
    return Unsat("; ".join([done, *ran_out.values()]), rechecked)
