"""The model's quantities at an exact configuration for Coq's `interval`: the one chain of named definitions
(`certificates.kernel.model_chain`, which the checker also evaluates with balls), within what Coq can state.

`NotTranslatable` beyond MAX_SIZE (n^2 H d), for an interaction (or its antiderivative) with a node Coq has no
term for, and for every quantity the data do not define (the chain's own errors), with the reason. `problem` is the
one way a chain's rows become a point problem (for the registry's and dynamics' rates here, `configuration_problem`,
and for a model claim's terms, `model_claims`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certificates.kernel import model_chain
from certificates.kernel.coq import terms
from certificates.kernel.coq.statements import PointProblem
from certificates.kernel.coq.terms import NotTranslatable
from certificates.kernel.exact_data import ExactConfiguration
from certificates.kernel.exprtree import Tree, TreeError
from certificates.kernel.model_quantities import CERTIFIED, MODEL_QUANTITIES, chain_value

#: The largest n^2 H d a configuration's Coq statement may have. The file proves one bound per definition
#: (`statements`), so coqc's time grows with the number of definitions: about 20 s of CPU at n^2 H d = 216
#: (the largest registry witness); past this bound it would near coqc's time limit.
MAX_SIZE = 512
#: Bits `interval` works with on a model witness, less `certificates.coq.source.EXTRA_BITS` (its sign has a wide
#: margin; coqc checks).
PRECISION = 14


class Chain(model_chain.Chain):
    """The chain of a configuration Coq can state: not larger than MAX_SIZE, every function of the score it states
    with a Coq term (`terms.term`), NotTranslatable where the chain has no definition."""

    error = NotTranslatable

    def __init__(self, cfg: ExactConfiguration) -> None:
        size = cfg.n * cfg.n * len(cfg.score_matrices) * len(cfg.tokens[0])
        if size > MAX_SIZE:
            raise NotTranslatable(f"too large: n^2 H d = {size} (the Coq statement takes at most {MAX_SIZE})")
        super().__init__(cfg)

    def _function(self, tree: Tree, what: str) -> Tree:
        try:
            terms.term(tree)
        except (NotTranslatable, TreeError) as exc:
            raise NotTranslatable(f"{what}: {exc}") from None
        return tree

    def problem(self, rows: list[tuple[str, Any, str]]) -> PointProblem:
        """The rows (name, tree over the chain's names, relation) at the exact data, over the chain's definitions."""
        return PointProblem({}, rows, PRECISION, tuple(self.rate.definitions))


def configuration_problem(
    quantity: str, relation: str, cfg: ExactConfiguration, payload: dict[str, Any]
) -> tuple[str, PointProblem]:
    """(the quantity's written name, `quantity relation 0` at the exact configuration `cfg`) for a witness the checker
    has already re-checked; `cfg` is the checker's own reading of the payload's data (with the claim's interaction,
    mask and sign of beta), the payload gives the quantity's head and token. The tree is built from the exact data
    (never from file text), over named definitions that the Coq file bounds one by one (`statements`)."""
    if quantity not in CERTIFIED:
        raise NotTranslatable(f"the model quantity {quantity} has no Coq term yet")
    at = {axis: payload[axis] for axis in MODEL_QUANTITIES[quantity].axes}
    chain = Chain(cfg)
    value = chain_value(chain, quantity, at)
    name = MODEL_QUANTITIES[quantity].written(**at)
    if isinstance(value, Fraction):
        raise NotTranslatable(f"{name} is the rational {value} at these data (no exponential to bound)")
    return name, chain.problem([(f"{name} {relation} 0", value, relation)])
