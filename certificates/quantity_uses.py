"""What the claims file, the recorder and the float evaluators need of the model quantities beyond the kernel's table.

The kernel's table (`headflow.certificates.model_quantities.MODEL_QUANTITIES`) holds what the certificate checker reads:
axes, rates, balls, notation. The rest is not checking and lives here, by quantity name: whether a dynamics claim
may name a quantity, its observable name in the recorder (`checks.integrator.recorder`), the claim field its value
depends on, and, for a number per trajectory, the state quantity whose first fall to that field's value it times.
"""

from __future__ import annotations

from headflow.certificates.model_quantities import MODEL_QUANTITIES

#: The quantities a dynamics claim may not name (a per-head array, which claims reach as `energy` with a head).
UNCLAIMED = frozenset({"head_energies"})

#: The recorder's observable name of each recorded quantity.
RECORDED_AS = {
    "energy": "energy",
    "head_energies": "head_energies",
    "attention_entropy": "entropies",
    "cluster_gap": "cluster_gap",
    "condition8_margin": "condition8_margin",
}

#: The claim field a quantity's value depends on (a merge radius, a level).
PARAMETER = {"cluster_count": "radius", "clustering_time": "level"}

#: For a number per trajectory, the state quantity whose first fall to the parameter's value it times
#: (clustering_time: the first t with cluster_gap <= level).
FIRST_TIME_OF = {"clustering_time": "cluster_gap"}

STATE_QUANTITIES = tuple(name for name in MODEL_QUANTITIES if name not in FIRST_TIME_OF)
"""The quantities with a value at each state (the others time a state quantity along a trajectory)."""
