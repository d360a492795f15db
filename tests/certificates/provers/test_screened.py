"""The provers' test of a candidate's cuts (`limits.screened`): the kernel's solvers under their counted limits, one
at a time, on the kernel's own text of the statement with those cuts, each process's wall-clock net (4 s) several
times what a kept candidate takes. Before, the search ran the kernel's whole check under a 2 s net for both solver
processes, and a loaded machine made it write another certificate. With every solver process starting 2.5 s late, the
search keeps the same cuts. A false statement, a forged cut and a candidate that does not prove the statement are not
kept.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from headflow.certificates.kernel import processes, solvers
from headflow.certificates.kernel.real_encoding import Encoding
from headflow.certificates.provers import limits
from headflow.certificates.provers.smt_refinement import constant_cuts

from tests.certificates.provers.test_constant_cuts import X, logs_statement


def test_the_screen_keeps_what_proves_and_nothing_else() -> None:
    true, false = logs_statement("4"), logs_statement("27/5")
    assert limits.screened(true, constant_cuts(Encoding(true)))
    assert not limits.screened(true, [])  # no cut: log q is known only from above
    assert not limits.screened(false, constant_cuts(Encoding(false)))
    forged = [c | {"factor": str(2 * Fraction(str(c["factor"])))} for c in constant_cuts(Encoding(true))]
    assert not limits.screened(true, forged)  # the kernel's text validates each cut first


def test_a_busy_machine_does_not_change_which_cuts_a_search_keeps(monkeypatch: pytest.MonkeyPatch) -> None:
    """x^2 e^x <= e^(2x) on [0, 1]: the pair search's cuts are the same when every solver process starts 2.5 s late
    (a loaded machine: the 2 s net the search gave each candidate's two solver processes before then fired first)."""
    statement = {"form": "real", "claim": "pairs", "variables": [X], "conditions": [], "point": {"x": "0"}}
    x = ["sym", "x"]
    statement |= {"lhs": ["mul", x, x, ["exp", x]], "op": "<=", "rhs": ["exp", ["mul", ["rat", "2"], x]]}
    found = limits.proved_cuts([statement], refining=False)
    assert found is not None
    start = processes.run_program

    def late(argv: list[str], *args: Any, **kwargs: Any) -> Any:  # python -I -c SCRIPT ...: the script sleeps first
        return start([*argv[:3], f"import time; time.sleep(2.5)\n{argv[3]}", *argv[4:]], *args, **kwargs)

    monkeypatch.setattr(processes, "run_program", late)
    monkeypatch.setattr(solvers, "_MEMO", {})  # no answer remembered from the first search
    assert limits.proved_cuts([statement], refining=False) == found
