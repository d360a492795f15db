"""The report's order is declared (`checks.registry.THEOREMS`, then each module's order of declaration), not the
order in which something happened to import the theorem modules."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from headflow.checks.registry import THEOREMS

ORDER = (
    "from headflow.checks.registry import load_all; import json; print(json.dumps([c.id for c in load_all().claims()]))"
)


def _order(first: list[str]) -> list[str]:
    imports = "".join(f"import headflow.checks.theorems.{name}; " for name in first)
    done = subprocess.run([sys.executable, "-c", imports + ORDER], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.slow
def test_importing_theorem_modules_first_changes_no_order() -> None:
    plain = _order([])
    assert plain == _order(list(reversed(THEOREMS))) == _order(["critical_points", "t27_entropy"])
    assert plain[0].startswith("projection.") and plain[-1].startswith("critical-points")
