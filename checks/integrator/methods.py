"""The integration methods by name, and the default choice of a pair (`auto`).

`auto` takes DOP853 at tolerances rtol <= HIGH_ORDER_RTOL and DP5(4) above: a DOP853 step costs
twice the evaluations of a DP5(4) step, but its error falls like h^8 instead of h^5, so at equal
final error it needs fewer evaluations on the benchmark problems already at the loosest targets
(`benchmarks/integrator.py`); at rtol > 1e-3 a rough answer is wanted, and DP5(4) gives it with
fewer evaluations. ReLU attention always gets DP5(4): its velocity has kinks where a score crosses
zero, where no method keeps its order, so DOP853 only pays its extra stages (measured on the
benchmark's small problem with relu attention: two to five times the evaluations of DP5(4) at
every rtol from 1e-3 to 1e-10, and more at equal final error).
"""

from __future__ import annotations

from headflow.certificates.errors import InputError
from headflow.checks.choices import HIGH_ORDER_RTOL, INTEGRATION_METHODS
from headflow.checks.integrator.dop853 import DOP853
from headflow.checks.integrator.dormand_prince import DORMAND_PRINCE_54
from headflow.checks.integrator.tableau import Tableau

METHODS: dict[str, Tableau] = dict(zip(INTEGRATION_METHODS, (DORMAND_PRINCE_54, DOP853), strict=True))


def tableau_for(rtol: float, method: str = "auto", attention: str = "softmax") -> Tableau:
    """The tableau of a method name; `auto` chooses from the relative tolerance and the attention kind."""
    if method == "auto":
        return DOP853 if rtol <= HIGH_ORDER_RTOL and attention != "relu" else DORMAND_PRINCE_54
    if method not in METHODS:
        raise InputError("method", method, f"expected auto or one of {', '.join(METHODS)}")
    return METHODS[method]
