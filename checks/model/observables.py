"""The float evaluator of every model quantity of `headflow.certificates.model_quantities.MODEL_QUANTITIES`.

Each is a function of `checks.model.field` at one state (no formula is repeated here); one whose quantity takes a
parameter (`quantity_uses.PARAMETER`: cluster_count's radius, merge_radius's k) takes it as its second argument. A
quantity that is one number per trajectory (clustering_time, merge_time, closest_pair_merges_first) has no evaluator
at a state: it is read off the trajectory (`headflow.checks.claimsfile.dynamics_starts`). The table of names, shapes
and rates stays in the certificates layer, which the checker shares.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from headflow.certificates.kernel.vocabulary import DIRECTION_GEOMETRIES
from headflow.certificates.model_quantities import MODEL_QUANTITIES
from headflow.certificates.quantity_uses import RESCALED, STATE_QUANTITIES
from headflow.checks.model import circle, kde, rescaled
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration

Evaluator = Callable[..., np.ndarray | float]
"""(cfg) -> value, or (cfg, parameter) -> value for a quantity with a parameter; a quantity of the rescaled tokens
(`quantity_uses.RESCALED`) also takes the state's time, `time=t`."""

_FLOAT: dict[str, Evaluator] = {
    "energy": model.energy,
    "head_energies": model.head_energies,
    "energy_rate": model.energy_rate,
    "head_energy_rate": model.head_energy_rates,
    "radial_shadow": model.radial_shadows,
    "tangential_power": model.tangential_powers,
    "attention_entropy": model.attention_entropies,
    "entropy_rate": model.entropy_rates,
    "cluster_gap": model.cluster_gap,
    "first_pair_gap": model.first_pair_gap,
    "condition8_margin": lambda cfg: model.condition8_margins(cfg).min(axis=1),  # the worst token per head
    "least_inner_product": model.least_inner_product,
    "largest_inner_product": model.largest_inner_product,
    "attention_matrix": model.weights,
    "cluster_count": model.cluster_count,
    "merge_radius": model.merge_radius,
    "w2_to_dirac": model.w2_to_dirac,
    "kde_mode_count": kde.kde_mode_count,
    "token_norm": model.token_norms,
    "token_norm_rate": model.token_norm_rates,
    "order_parameter": circle.order_parameter,
    "order_parameter_rate": circle.order_parameter_rate,
    "arc_spread": circle.arc_spread,
    "rescaled_boundary_distance": rescaled.rescaled_boundary_distance,
    "rescaled_cluster_count": rescaled.rescaled_cluster_count,
}
#: The rates taken along the token velocity (`token_rates`), which pre-ln, peri-ln and mix-ln take along the
#: directions' velocity; the quantities that read the scheme themselves (the residual norms, the circle's).
_RATES = ("energy_rate", "head_energy_rate", "entropy_rate")
_OF_RESIDUAL = ("token_norm", "token_norm_rate", "order_parameter", "order_parameter_rate", "arc_spread")


def _at_directions(name: str) -> Evaluator:
    """The evaluator of `name` at the tokens attention reads: for pre-ln, peri-ln and mix-ln every quantity but the
    residual tokens' own is one of the directions y_i = x_i/|x_i|, its rate taken along dy/dt; otherwise as is."""
    evaluator = _FLOAT[name]
    if name in _OF_RESIDUAL or name in RESCALED:  # flat only: the tokens themselves, at the state's `time`
        return evaluator

    def evaluate(cfg: Configuration, *parameter: float) -> np.ndarray | float:
        if cfg.geometry not in DIRECTION_GEOMETRIES:
            return evaluator(cfg, *parameter)
        if name in _RATES:
            return evaluator(model.directions(cfg), model.direction_velocity(cfg))
        return evaluator(model.directions(cfg), *parameter)

    return evaluate


#: Name -> float evaluator, for every quantity with a value at a state (a KeyError names one without an evaluator).
EVALUATORS: dict[str, Evaluator] = {name: _at_directions(name) for name in STATE_QUANTITIES}


def shape(name: str, cfg: Configuration) -> tuple[int, ...]:
    """The shape of the quantity's value at `cfg`, from its axes (head: H, token: n)."""
    return tuple({"head": cfg.H, "token": cfg.n}[axis] for axis in MODEL_QUANTITIES[name].axes)
