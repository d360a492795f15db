"""The one table of the model's quantities: names, shapes, rates, and which ones witnesses certify.

The recorder (`checks.integrator.recorder`), the dynamics claims of a claims file (`certificates.claims.schema`,
`certificates.statements.dynamics`) and the witnesses (`certificates.provers`) name model quantities from
MODEL_QUANTITIES; the float evaluator of every quantity is `checks.model.observables.EVALUATORS` (a test checks both
have the same names). A certified quantity is a model term (`term`, `certificates.kernel.model_terms`), defined once
in the model's chain (`certificates.kernel.model_chain`): a dynamics claim's witness refutes a `model` statement
about that term (`headflow.certificates.statements.dynamics`), which the checker evaluates with balls and the Coq writer
states.
"""

from __future__ import annotations

from dataclasses import dataclass

from flint import arb
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.kernel.model_statements import term_of
from headflow.certificates.model_balls import term_ball


@dataclass(frozen=True)
class ModelQuantity:
    """One quantity of the model at a state.

    axes: what its array is indexed by ("head", then "token"); rate: the quantity that is its time
    derivative; per_head: the quantity that is its value per head (`energy` of one head is E_h);
    term: the model term that is its value at the free head h and token i (`certificates.kernel.model_terms`) when
    witnesses may certify its sign. What the claims file and the recorder need besides is
    `headflow.certificates.quantity_uses`."""

    name: str
    axes: tuple[str, ...] = ()
    rate: str | None = None
    per_head: str | None = None
    term: str | None = None


MODEL_QUANTITIES: dict[str, ModelQuantity] = {
    q.name: q
    for q in (
        ModelQuantity("energy", rate="energy_rate", per_head="head_energies"),
        ModelQuantity("head_energies", ("head",), rate="head_energy_rate"),
        ModelQuantity("energy_rate", term="dE_dt"),
        ModelQuantity("head_energy_rate", ("head",), term="dE_h_dt"),
        ModelQuantity("radial_shadow", ("head", "token")),
        ModelQuantity("tangential_power", ("head", "token")),
        ModelQuantity("attention_entropy", ("head", "token"), rate="entropy_rate"),
        ModelQuantity("entropy_rate", ("head", "token"), term="entropy_rate_h_i"),
        ModelQuantity("cluster_gap"),
        ModelQuantity("first_pair_gap"),
        ModelQuantity("condition8_margin", ("head",)),
        ModelQuantity("least_inner_product"),
        ModelQuantity("largest_inner_product"),
        ModelQuantity("attention_matrix", ("head", "token", "token")),
        ModelQuantity("cluster_count"),
        ModelQuantity("clustering_time"),
        ModelQuantity("merge_radius"),
        ModelQuantity("merge_time"),
        ModelQuantity("closest_pair_merges_first"),
        ModelQuantity("w2_to_dirac"),
        ModelQuantity("kde_mode_count"),
        ModelQuantity("rescaled_boundary_distance", ("token",)),
        ModelQuantity("rescaled_cluster_count"),
        ModelQuantity("token_norm", ("token",), rate="token_norm_rate"),
        ModelQuantity("token_norm_rate", ("token",), term="norm_rate_i"),
        ModelQuantity("order_parameter", rate="order_parameter_rate", term="R"),
        ModelQuantity("order_parameter_rate", term="dR_dt"),
        ModelQuantity("arc_spread"),
    )
}
"""Every model quantity by name (claims-file names in the order the claims file lists them)."""

CERTIFIED = tuple(q.name for q in MODEL_QUANTITIES.values() if q.term is not None)
"""The quantities whose sign at exact data a witness certifies with balls."""


def ball_value(cfg: ExactConfiguration, quantity: str, head: int | None, token: int | None) -> arb:
    """The ball of a certified quantity at exact data, at the given head and token (as its axes need): its model
    term, read as the checker's own trees (`headflow.certificates.model_balls.term_ball`)."""
    return term_ball(term_of(["name", MODEL_QUANTITIES[quantity].term]), cfg, token, head)
