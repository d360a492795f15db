"""The one table of the model's quantities: names, shapes, rates, and which ones balls certify.

The recorder (`checks.integrator.recorder`), the dynamics claims of a claims file
(`certificates.claims.schema`, `certificates.statements.dynamics`), the witnesses
(`certificates.provers.witness`) and the certificate checker (`certificates.kernel.recheck`) all name model
quantities from MODEL_QUANTITIES. It lives in this layer because the checker may not import `checks`; the float
evaluator of every quantity is `checks.model.observables.EVALUATORS` (a test checks both have the same names), the ball
evaluator of a certified one is its `ball` here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flint import arb

from certificates.kernel import ball_model


@dataclass(frozen=True)
class ModelQuantity:
    """One quantity of the model at a state.

    axes: what its array is indexed by ("head", then "token"); rate: the quantity that is its time
    derivative; per_head: the quantity that is its value per head (`energy` of one head is E_h);
    ball: its exact-data enclosure (nested lists along `axes`) when witnesses may certify its sign;
    notation: how the checker writes it at given head and token. What the claims file and the recorder need
    besides is `certificates.quantity_uses`."""

    name: str
    axes: tuple[str, ...] = ()
    rate: str | None = None
    per_head: str | None = None
    ball: Callable[[ball_model.ExactConfiguration], Any] | None = None
    notation: str = ""

    def written(self, head: int | None = None, token: int | None = None) -> str:
        """The quantity's notation at the given head and token, e.g. dH^0_2/dt."""
        return self.notation.format(head=head, token=token)


MODEL_QUANTITIES: dict[str, ModelQuantity] = {
    q.name: q
    for q in (
        ModelQuantity("energy", rate="energy_rate", per_head="head_energies"),
        ModelQuantity("head_energies", ("head",), rate="head_energy_rate"),
        ModelQuantity("energy_rate", ball=lambda cfg: sum(ball_model.head_energy_rates(cfg), arb(0)), notation="dE/dt"),
        ModelQuantity("head_energy_rate", ("head",), ball=ball_model.head_energy_rates, notation="dE_{head}/dt"),
        ModelQuantity("radial_shadow", ("head", "token")),
        ModelQuantity("tangential_power", ("head", "token")),
        ModelQuantity("attention_entropy", ("head", "token"), rate="entropy_rate"),
        ModelQuantity(
            "entropy_rate", ("head", "token"), ball=ball_model.entropy_rates, notation="dH^{head}_{token}/dt"
        ),
        ModelQuantity("cluster_gap"),
        ModelQuantity("first_pair_gap"),
        ModelQuantity("condition8_margin", ("head",)),
        ModelQuantity("least_inner_product"),
        ModelQuantity("largest_inner_product"),
        ModelQuantity("attention_matrix", ("head", "token", "token")),
        ModelQuantity("cluster_count"),
        ModelQuantity("clustering_time"),
        ModelQuantity("token_norm", ("token",), rate="token_norm_rate"),
        ModelQuantity("token_norm_rate", ("token",), ball=ball_model.token_norm_rates, notation="d|x_{token}|/dt"),
        ModelQuantity("order_parameter", rate="order_parameter_rate", ball=ball_model.order_parameter),
        ModelQuantity("order_parameter_rate", ball=ball_model.order_parameter_rate, notation="dR/dt"),
        ModelQuantity("arc_spread"),
    )
}
"""Every model quantity by name (claims-file names in the order the claims file lists them)."""

CERTIFIED = tuple(q.name for q in MODEL_QUANTITIES.values() if q.ball is not None)
"""The quantities whose sign at exact data a witness certifies with balls."""


def ball_value(cfg: ball_model.ExactConfiguration, quantity: str, head: int | None, token: int | None) -> arb:
    """The ball of a certified quantity at exact data, at the given head and token (as its axes need)."""
    value = MODEL_QUANTITIES[quantity].ball(cfg)  # type: ignore[misc]
    indices = {"head": head, "token": token}
    for axis in MODEL_QUANTITIES[quantity].axes:
        value = value[indices[axis]]
    return value
