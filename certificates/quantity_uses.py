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

#: The claim field a quantity's value depends on (a merge radius, a level, the index k of a merge).
PARAMETER = {
    "cluster_count": "radius",
    "clustering_time": "level",
    "merge_radius": "k",
    "merge_time": "radius",
    "closest_pair_merges_first": "radius",
    "rescaled_cluster_count": "radius",
}
#: The parameters that are integers (k from 1 to n - 1: the k-th merge of n tokens); the others are positive numbers.
INTEGER_PARAMETERS = frozenset({"k"})

#: For a number per trajectory, the state quantity whose first fall to the parameter's value it times
#: (clustering_time: the first t with cluster_gap <= level; merge_time: the first t with merge_radius <= radius, i.e.
#: the number of clusters at that radius is n - k, the k-th merge; the timed quantity's own parameter, k, is a field
#: of the claim too).
FIRST_TIME_OF = {"clustering_time": "cluster_gap", "merge_time": "merge_radius"}

#: The quantities that are one number per trajectory: the first times, and whether the first pair of tokens to come
#: within `radius` is the pair closest at t = 0 (1 or 0).
OF_TRAJECTORY = frozenset({*FIRST_TIME_OF, "closest_pair_merges_first"})

#: The quantities of the rescaled tokens z_i(t) = exp(-t V) x_i(t), V = sum_h W_h (`checks.model.rescaled`): their value
#: at a state depends on its time t too (the evaluators take it, the records of a trajectory carry it). They undo
#: the flat softmax dynamics' growth x_i' = V x_i + ..., so they mean nothing in another geometry or attention kind.
RESCALED = frozenset({"rescaled_boundary_distance", "rescaled_cluster_count"})
#: Where the rescaled tokens are defined, and the properties a dynamics claim may state of them (those read off
#: records with their times: no search over states, which carry no time).
RESCALED_GEOMETRY, RESCALED_ATTENTION = "flat", "softmax"
RESCALED_PROPERTIES = ("tends-to", "at-most", "at-least", "decays-at-rate")

STATE_QUANTITIES = tuple(name for name in MODEL_QUANTITIES if name not in OF_TRAJECTORY)
"""The quantities with a value at each state (the others are read off a whole trajectory)."""


def fields_of(quantity: str) -> tuple[str, ...]:
    """The claim fields a quantity takes: its parameter, then that of the state quantity it times (merge_time: radius
    and k)."""
    timed = FIRST_TIME_OF.get(quantity)
    return tuple(PARAMETER[name] for name in (quantity, timed) if name in PARAMETER)
