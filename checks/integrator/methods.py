"""The integration methods by name, and the default choice of a pair from the tolerance.

`method="auto"` takes DP5(4) at loose tolerances and DOP853 at tight ones: per step DOP853 costs
twice the evaluations of DP5(4), but its error falls like h^8 instead of h^5, so it wins once
the tolerance asks for small enough errors. The switch point is where the two cost the same on
the benchmark problems (`benchmarks/integrator.py`).
"""

from __future__ import annotations

from checks.errors import InputError
from checks.integrator.dop853 import DOP853
from checks.integrator.dormand_prince import DORMAND_PRINCE_54
from checks.integrator.tableau import Tableau

METHODS: dict[str, Tableau] = {"dp54": DORMAND_PRINCE_54, "dop853": DOP853}
#: `auto` takes DOP853 for rtol at or below this value, DP5(4) above it.
HIGH_ORDER_RTOL = 1e-6


def tableau_for(method: str, rtol: float) -> Tableau:
    """The tableau of a method name, `auto` choosing from the relative tolerance."""
    if method == "auto":
        return DOP853 if rtol <= HIGH_ORDER_RTOL else DORMAND_PRINCE_54
    if method not in METHODS:
        raise InputError("method", method, f"expected auto or one of {', '.join(METHODS)}")
    return METHODS[method]
