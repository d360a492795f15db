"""The model's quantities at exact data as balls, by name, for tests and benchmarks that compare them with the float
model (`headflow.checks.model.field`): nested lists over heads, tokens and coordinates.

Each is the definition of the configuration's one chain (`certificates.kernel.model_chain`) that the kernel reads,
evaluated with balls (`Chain.balls`); this module only names them, gives a model term's ball (`term_ball`) as the
kernel reads it, and a model term at tokens that are not exact data (`TermAtTokens`: balls or power series of the
tokens, as along a validated enclosure of a trajectory).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from typing import Any

from flint import arb
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.kernel.exact import ball_of
from headflow.certificates.kernel.model_chain import Chain, Value
from headflow.certificates.kernel.model_statements import term_of
from headflow.certificates.kernel.model_terms import Term
from headflow.certificates.kernel.model_values import Trees


def balls(cfg: ExactConfiguration, read: Callable[[Chain], Any]) -> Any:
    """What `read` takes from the configuration's chain, as balls at the current precision; ValueError when a value
    of the stated interaction it uses is not a finite ball."""
    chain = Chain(cfg)
    return chain.balls(read(chain))


def grid(quantity: Callable[[Chain, int, int], Value]) -> Callable[[Chain], list[list[Value]]]:
    """A quantity of head h and token i at every head and token (H x n)."""
    return lambda chain: [[quantity(chain, h, i) for i in range(chain.cfg.n)] for h in range(len(chain.scores))]


def per_head(quantity: Callable[[Chain, int], Value]) -> Callable[[Chain], list[Value]]:
    """A quantity of head h at every head."""
    return lambda chain: [quantity(chain, h) for h in range(len(chain.scores))]


attention_weights = partial(balls, read=Chain.weights)
softmax_distributions = partial(balls, read=grid(lambda chain, h, i: chain.softmax(h, i)[0]))
head_outputs = partial(balls, read=Chain.outputs)
head_energies = partial(balls, read=per_head(Chain.head_energy))
head_energy_rates = partial(balls, read=per_head(Chain.head_energy_rate))
attention_entropies = partial(balls, read=grid(Chain.entropy))
entropy_rates = partial(balls, read=grid(Chain.entropy_rate))
partition_functions = partial(balls, read=grid(Chain.partition_function))
attention_means = partial(balls, read=grid(Chain.attention_mean))


def term_ball(
    term: Term, cfg: ExactConfiguration, token: int | None, head: int | None, delta: Fraction | None = None
) -> arb:
    """A model term's ball at exact data, at the token and head given: the kernel's tree of it
    (`certificates.kernel.model_values.Trees`) evaluated over the configuration's chain; `delta` the claim's stated
    bound, for terms that name it."""
    chain = Chain(cfg)
    at = {k: v for k, v in (("i", token), ("h", head)) if v is not None}
    return chain.balls(Trees(chain, delta).tree(term, at))


class TermAtTokens:
    """A scalar model term (a name of `certificates.kernel.model_terms`: `E`, `E_h`, `dE_dt`, ...) as a function of
    the tokens: the configuration's chain built once over symbolic tokens x_i_k (its heads, values, beta, kind,
    geometry and mask; its tokens give only the sizes), as `ball_model.velocity_field` builds the field, and evaluated
    at tokens given as balls or as power series (python-flint's arb_series) with `__call__`."""

    def __init__(self, cfg: ExactConfiguration, name: str, head: int | None = None) -> None:
        symbols = [[["sym", f"x_{i}_{k}"] for k in range(len(x))] for i, x in enumerate(cfg.tokens)]
        self.chain = Chain(dataclasses.replace(cfg, tokens=symbols))  # type: ignore[arg-type]
        at = {} if head is None else {"h": head}
        self.value = Trees(self.chain).tree(term_of(["name", name]), at)

    def __call__(self, tokens: Sequence[Sequence[Any]]) -> Any:
        """The term at the tokens (balls or series; exact rationals are read as balls), at the current precision."""
        env = {f"x_{i}_{k}": t for i, x in enumerate(tokens) for k, t in enumerate(x)}
        return self.chain.compiled(self.value, ball_of)(env)
