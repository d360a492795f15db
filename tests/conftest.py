"""Test-wide settings and the session's shared runs.

Under CI, property tests draw the same examples on every run: a fuzz test that explores new inputs
on every run is how bugs are found locally; in CI a run must be reproducible, so the `ci` profile
derandomizes hypothesis (set HEADFLOW_FUZZ_RANDOM=1 to explore there too).

The expensive runs are done once per session and shared: `whole_paper` is `headflow verify` on the
whole paper (quick profile, seed 0), which the pinned verdicts, every report format and the browser
test read; `certified` is the files of that run that `headflow certify` writes; `user_example` is
`headflow check examples/user.toml`, run as a user runs it (a process), which the exit-code and the deciders'
tests read.

Under pytest-xdist each worker is its own process: a run is made by the first worker that needs it and read back
(pickled) by the others from the run's shared temporary folder, under a file lock (`shared_run`), so the suite pays
for it once, not once per worker.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import headflow.checks as checks  # noqa: F401 -- before any test module loads numpy: one BLAS thread (see checks/__init__.py)
import pytest
from filelock import FileLock
from hypothesis import settings

if TYPE_CHECKING:
    from headflow.checks.reports.report import Report

    from tests.checking import FreshCheck

settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI") and not os.environ.get("HEADFLOW_FUZZ_RANDOM"):
    settings.load_profile("ci")


T = TypeVar("T")


def shared_run(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], T]) -> T:
    """`make(folder)` once per test run: under xdist the first worker makes it and the others unpickle it.

    `folder` is where the run may write files (certificates); it is shared by the workers, so it outlives
    the worker that made it."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return make(tmp_path_factory.mktemp(name))
    shared = tmp_path_factory.getbasetemp().parent  # the run's folder, above each worker's own
    stored = shared / f"{name}.pickle"
    with FileLock(str(shared / f"{name}.lock")):
        if stored.exists():
            return pickle.loads(stored.read_bytes())
        folder = shared / name
        folder.mkdir(exist_ok=True)  # a worker whose attempt failed left it: the next one tries again
        value = make(folder)
        stored.write_bytes(pickle.dumps(value))
        return value


@pytest.fixture(scope="session")
def certified(whole_paper: Report) -> dict[str, list[Path]]:
    """The files `headflow certify` writes, grouped by claim id: those the certifying procedures
    (`commands.certify.certifying_claims`) wrote in the session's `whole_paper` run, which runs them with certify's
    profile and seed, so that the suite does not run them twice. That certify writes exactly these files is tested:
    for a few claims by default (tests/checks/commands/test_certify.py), for the whole paper with -m slow
    (tests/certificates/kernel/test_store.py)."""
    from headflow.checks.commands.certify import certifying_claims

    paths: set[str] = set()
    for claim in certifying_claims(None):
        names = {name for name, _ in claim.procedures}
        for procedure in whole_paper.claim(claim.id).procedures:
            paths.update(procedure.get("certificates", []) if procedure["name"] in names else [])
    groups: dict[str, list[Path]] = {}
    for path in sorted(map(Path, paths)):
        groups.setdefault(json.loads(path.read_text())["claim_id"], []).append(path)
    return groups


@pytest.fixture(scope="session")
def whole_paper(tmp_path_factory: pytest.TempPathFactory) -> Report:
    """`headflow verify` on every claim of the paper (quick profile, seed 0) once per session, as the `Report`
    the command prints: the pinned verdicts and every report format are read from this one run."""
    from headflow.checks import api

    return shared_run(tmp_path_factory, "whole-paper", lambda out: api.verify(certificates=out, progress=False))


@pytest.fixture(scope="session")
def certified_fresh_check(tmp_path_factory: pytest.TempPathFactory, certified: dict[str, list[Path]]) -> FreshCheck:
    """The kernel's check of every file of `certified`, in one fresh process, once per session (`tests.checking`),
    then `headflow check-cert` of them in that process: the tests that every certificate `certify` writes, and every
    registry claim's, re-check without SymPy or mpmath, and the test of check-cert's listing of them, read it (each
    re-check of the files in a new process runs z3 and cvc5 again)."""
    from tests.checking import check_in_a_fresh_process

    paths = [path for group in certified.values() for path in group if path.suffix == ".json"]
    return shared_run(
        tmp_path_factory, "certified-fresh-check", lambda _: check_in_a_fresh_process(paths, check_cert=True)
    )


@dataclass(frozen=True)
class ExampleRun:
    """One `headflow check` process: its exit code, its JSON report and its stderr."""

    returncode: int
    report: dict[str, Any]
    stderr: str

    @property
    def claims(self) -> dict[str, dict[str, Any]]:
        """The report's claims by id."""
        return {claim["id"]: claim for claim in self.report["claims"]}


@pytest.fixture(scope="session")
def user_example(tmp_path_factory: pytest.TempPathFactory) -> ExampleRun:
    """`python -m headflow check examples/user.toml --format json --only '[!T]*'` (quick profile, seed 0) once per
    session: every claim of the file but T22.superadditivity.jensen, which is INCONCLUSIVE only once its search has
    spent its whole budget (about 11 s of CPU; decided in the slow `test_user_example_jensen_is_inconclusive`)."""
    root = Path(__file__).resolve().parents[1]
    command = [sys.executable, "-m", "headflow", "check", "examples/user.toml", "--format", "json", "--only", "[!T]*"]

    def make(certificates: Path) -> ExampleRun:
        run = subprocess.run([*command, "--certificates", str(certificates)], cwd=root, capture_output=True, text=True)
        return ExampleRun(run.returncode, json.loads(run.stdout) if run.stdout else {"claims": []}, run.stderr)

    return shared_run(tmp_path_factory, "user-example", make)


#: Cases of parametrized tests that take seconds each and repeat what a sibling case checks by default: they run
#: with `-m slow` (the default suite must stay under five minutes on two cores).
SLOW_CASES = (
    "tests/soundness/test_mutants.py::test_mutant[file-tangent]",
    "tests/soundness/test_extreme_arithmetic.py::test_domains_beyond_the_floats[text1]",
    "tests/soundness/test_extreme_arithmetic.py::"
    "test_inequalities_of_every_function_on_sharp_domains[[1e-100, 1]-x**1000]",
    "tests/certificates/coq/test_export_coq.py::test_coqc_accepts_every_exported_file[threshold.v]",
    "tests/certificates/coq/test_coq_model_claims.py::test_past_check_cert_coq_refuses_the_forged_data[toml1-softmax-1]",
    "tests/certificates/coq/test_coq_guard.py::"
    "test_coqc_accepts_a_cheat_but_print_assumptions_rejects_it[Proof. admit. Admitted.]",
    "tests/certificates/kernel/test_processes.py::test_check_killed_inside_cvc5_leaves_no_solver[SIGKILL]",
    "tests/certificates/kernel/test_processes.py::test_check_cert_killed_inside_cvc5_leaves_no_solver[SIGKILL]",
    # the same search and assertions as seed 0 (run by default) from other random starts: seconds each
    "tests/soundness/test_dynamics_adversarial.py::test_entropy_rate_and_monotonicity_refuted_for_three_tokens[1]",
    "tests/soundness/test_dynamics_adversarial.py::test_entropy_rate_and_monotonicity_refuted_for_three_tokens[2]",
    "tests/soundness/test_dynamics_adversarial.py::test_entropy_rate_and_monotonicity_refuted_for_three_tokens[3]",
)


#: Test files that take the longest (seconds of computation each, run whole on one worker), longest first: run first,
#: so that the workers finish together rather than one waiting on the other's last long file.
FIRST_FILES = (
    "tests/checks/claimsfile/test_model_options.py",
    "tests/soundness/test_mutants.py",
    "tests/checks/theorems/test_threshold.py",
    "tests/checks/commands/test_check_command.py",
    "tests/certificates/coq/test_coq.py",
    "tests/checks/claimsfile/test_asymptotic.py",
    "tests/certificates/coq/test_coq_equilibria.py",
    "tests/certificates/coq/test_coq_model_claims.py",
    "tests/checks/claimsfile/test_confirmed.py",
    "tests/checks/commands/test_simulate.py",
    "tests/certificates/kernel/test_store.py",  # after test_threshold.py, which makes `whole_paper` (`certified`)
    "tests/test_docs.py",
)
#: Test files that start JAX in the process (its threads): run last, so that no test forks a process (the SymPy
#: workers of `certificates/claims/symbolic.py`, solver processes) from a worker where JAX's threads run (os.fork()
#: after them may deadlock, JAX warns).
LAST_FILES = ("tests/checks/integrator/test_jax_backend.py", "tests/benchmarks/test_peers.py")


def pytest_configure(config: pytest.Config) -> None:
    """Under xdist, hand out the test files in the order `pytest_collection_modifyitems` leaves them (xdist's default
    reorders them by their number of tests)."""
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the SLOW_CASES slow (the default run deselects them with -m 'not slow'); run the FIRST_FILES first and
    the LAST_FILES last, each file's tests in their order."""
    for item in items:
        if item.nodeid in SLOW_CASES:
            item.add_marker(pytest.mark.slow)

    def place(item: pytest.Item) -> tuple[int, int]:
        path = item.nodeid.split("::")[0]
        if path in FIRST_FILES:
            return (0, FIRST_FILES.index(path))
        return (2, 0) if path in LAST_FILES else (1, 0)

    items.sort(key=place)  # stable: the order within each group stays


@pytest.fixture(autouse=True)
def _auto_backend_runs_numpy(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Backend "auto" (the default of `integrate` and `simulate`) runs numpy in the tests, as it does where jax is not
    installed: a test's runs and counts do not depend on what is installed, and no test pays jax's import and
    compilation unless it names the jax backend. A test that asks for the fixture `real_auto_backend` sees the real
    choice (`headflow.checks.integrator.backends.chosen`)."""
    if "real_auto_backend" not in request.fixturenames:
        monkeypatch.setattr("headflow.checks.integrator.backends.jax_usable", lambda cfg: False)


@pytest.fixture(autouse=True)
def _no_solver_answers_from_earlier_tests() -> None:
    """Each test starts with an empty memo of solver answers (`certificates.kernel.solvers._MEMO`): a test that runs
    a solver (a timeout, a resource limit, a killed or missing solver) exercises the real path, and no test's
    result depends on which tests its worker ran before."""
    from headflow.certificates.kernel import solvers

    solvers._MEMO.clear()


@pytest.fixture
def real_auto_backend() -> None:
    """Asked for by a test that needs backend "auto"'s real choice (`_auto_backend_runs_numpy`)."""
