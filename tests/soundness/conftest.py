"""Print the mutation score table of the mutants that ran in this session."""

from __future__ import annotations

from typing import Any


def pytest_terminal_summary(terminalreporter: Any) -> None:
    from tests.soundness import score
    from tests.soundness.test_mutants import RESULTS

    if RESULTS:
        terminalreporter.write_sep("=", "soundness: mutants")
        terminalreporter.write_line(score.table(list(RESULTS.values())))
