"""The model's quantities at an exact configuration for Coq's `interval`: the one chain of named definitions
(`certificates.kernel.model_chain`, which the checker also evaluates with balls), within what Coq can state.

`NotTranslatable` beyond MAX_SIZE (n^2 H d), for an interaction (or its antiderivative) with a node Coq has no
term for, and for every quantity the data do not define (the chain's own errors), with the reason.
"""

from __future__ import annotations

from collections.abc import Callable

from certificates.kernel import model_chain
from certificates.kernel.coq import terms
from certificates.kernel.coq.terms import NotTranslatable
from certificates.kernel.exact_data import ExactConfiguration
from certificates.kernel.exprtree import Tree, TreeError
from certificates.kernel.model_chain import Rate, Value, add

#: The largest n^2 H d a configuration's Coq statement may have. The file proves one bound per definition
#: (`statements`), so coqc's time grows with the number of definitions: about 20 s of CPU at n^2 H d = 216
#: (the largest registry witness); past this bound it would near coqc's time limit.
MAX_SIZE = 512


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


def _rate(cfg: ExactConfiguration, quantity: Callable[[Chain], Value]) -> Rate:
    chain = Chain(cfg)
    chain.rate.value = quantity(chain)
    return chain.rate


def head_energy_rate(cfg: ExactConfiguration, head: int) -> Rate:
    """dE_h/dt at the configuration, over its definitions."""
    return _rate(cfg, lambda chain: chain.head_energy_rate(head))


def energy_rate(cfg: ExactConfiguration) -> Rate:
    """dE/dt = sum_h dE_h/dt at the configuration, over its definitions."""
    return _rate(cfg, lambda chain: add([chain.head_energy_rate(h) for h in range(len(cfg.score_matrices))]))


def entropy_rate(cfg: ExactConfiguration, head: int, token: int) -> Rate:
    """dH^h_i/dt at the configuration (softmax distributions of the scores), over its definitions."""
    return _rate(cfg, lambda chain: chain.entropy_rate(head, token))


#: The tree builder of each certified model quantity (`model_quantities.CERTIFIED`), with the indices its axes take.
BUILDERS: dict[str, Callable[[ExactConfiguration, dict[str, int]], Rate]] = {
    "energy_rate": lambda cfg, at: energy_rate(cfg),
    "head_energy_rate": lambda cfg, at: head_energy_rate(cfg, at["head"]),
    "entropy_rate": lambda cfg, at: entropy_rate(cfg, at["head"], at["token"]),
    "token_norm_rate": lambda cfg, at: _rate(cfg, lambda chain: chain.token_norm_rate(at["token"])),
    "order_parameter": lambda cfg, at: _rate(cfg, Chain.order_parameter),
    "order_parameter_rate": lambda cfg, at: _rate(cfg, Chain.order_parameter_rate),
}
