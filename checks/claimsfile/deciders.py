"""One decision procedure per claim kind; a new kind's decider plugs in here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from checks.claimsfile.constant_decider import decide_constant
from checks.claimsfile.dynamics_decider import decide_dynamics
from checks.claimsfile.identity_decider import decide_identity
from checks.claimsfile.inequality_decider import decide_inequality
from checks.registry import Context
from checks.verdicts import Outcome

Decider = Callable[[Any, Context], Outcome]


#: kind -> (procedure name, decider).
DECIDERS: dict[str, tuple[str, Decider]] = {
    "identity": ("symbolic+ball+smt", decide_identity),
    "constant": ("ball", decide_constant),
    "inequality": ("ball search+smt+cover", decide_inequality),
    "dynamics": ("reduction+trajectories", decide_dynamics),
}
