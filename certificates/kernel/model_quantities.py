"""The one table of the model's quantities: names, shapes, rates, and which ones balls certify.

The recorder (`checks.integrator.recorder`), the dynamics claims of a claims file
(`certificates.claims.schema`, `certificates.statements.dynamics`), the witnesses
(`certificates.provers.witness`) and the certificate checker (`certificates.kernel.recheck`) all name model
quantities from MODEL_QUANTITIES. It lives in this layer because the checker may not import `checks`; the float
evaluator of every quantity is `checks.model.observables.EVALUATORS` (a test checks both have the same names), the
definition of a certified one is its `value` in the model's chain (`certificates.kernel.model_chain`), which the
checker evaluates with balls (`ball_value`) and the Coq writer states (`certificates.kernel.coq.model_tree`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flint import arb

from certificates.kernel.ball_model import ExactConfiguration, balls
from certificates.kernel.model_chain import Chain, Value


@dataclass(frozen=True)
class ModelQuantity:
    """One quantity of the model at a state.

    axes: what its array is indexed by ("head", then "token"); rate: the quantity that is its time
    derivative; per_head: the quantity that is its value per head (`energy` of one head is E_h);
    value: its definition in a configuration's chain (a method of `Chain`, at the indices its axes take) when
    witnesses may certify its sign; notation: how the checker writes it at given head and token. What the claims
    file and the recorder need besides is `certificates.quantity_uses`."""

    name: str
    axes: tuple[str, ...] = ()
    rate: str | None = None
    per_head: str | None = None
    value: Callable[..., Value] | None = None
    notation: str = ""

    def written(self, head: int | None = None, token: int | None = None) -> str:
        """The quantity's notation at the given head and token, e.g. dH^0_2/dt."""
        return self.notation.format(head=head, token=token)


MODEL_QUANTITIES: dict[str, ModelQuantity] = {
    q.name: q
    for q in (
        ModelQuantity("energy", rate="energy_rate", per_head="head_energies"),
        ModelQuantity("head_energies", ("head",), rate="head_energy_rate"),
        ModelQuantity("energy_rate", value=Chain.energy_rate, notation="dE/dt"),
        ModelQuantity("head_energy_rate", ("head",), value=Chain.head_energy_rate, notation="dE_{head}/dt"),
        ModelQuantity("radial_shadow", ("head", "token")),
        ModelQuantity("tangential_power", ("head", "token")),
        ModelQuantity("attention_entropy", ("head", "token"), rate="entropy_rate"),
        ModelQuantity("entropy_rate", ("head", "token"), value=Chain.entropy_rate, notation="dH^{head}_{token}/dt"),
        ModelQuantity("cluster_gap"),
        ModelQuantity("first_pair_gap"),
        ModelQuantity("condition8_margin", ("head",)),
        ModelQuantity("least_inner_product"),
        ModelQuantity("largest_inner_product"),
        ModelQuantity("attention_matrix", ("head", "token", "token")),
        ModelQuantity("cluster_count"),
        ModelQuantity("clustering_time"),
        ModelQuantity("token_norm", ("token",), rate="token_norm_rate"),
        ModelQuantity("token_norm_rate", ("token",), value=Chain.token_norm_rate, notation="d|x_{token}|/dt"),
        ModelQuantity("order_parameter", rate="order_parameter_rate", value=Chain.order_parameter),
        ModelQuantity("order_parameter_rate", value=Chain.order_parameter_rate, notation="dR/dt"),
        ModelQuantity("arc_spread"),
    )
}
"""Every model quantity by name (claims-file names in the order the claims file lists them)."""

CERTIFIED = tuple(q.name for q in MODEL_QUANTITIES.values() if q.value is not None)
"""The quantities whose sign at exact data a witness certifies with balls."""


def chain_value(chain: Chain, quantity: str, at: dict[str, int | None]) -> Value:
    """A certified quantity's definition in the chain, at the indices `at` gives its axes."""
    model = MODEL_QUANTITIES[quantity]
    return model.value(chain, *(at[axis] for axis in model.axes))  # type: ignore[misc]


def ball_value(cfg: ExactConfiguration, quantity: str, head: int | None, token: int | None) -> arb:
    """The ball of a certified quantity at exact data, at the given head and token (as its axes need)."""
    return balls(cfg, lambda chain: chain_value(chain, quantity, {"head": head, "token": token}))
