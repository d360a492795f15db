"""`python -m tests.soundness [--all]`: run the mutants and print the table and the mutation score."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests.soundness.mutants import all_mutants
from tests.soundness.score import run, table


def main(argv: list[str]) -> int:
    mutants = [m for m in all_mutants() if "--all" in argv or not m.slow]
    with tempfile.TemporaryDirectory() as directory:
        results = run(mutants, Path(directory))
    print(table(results))
    return 0 if all(r.sound for r in results if r.mutant.required) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
