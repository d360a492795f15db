"""The model's quantities at exact data as balls, by name, for tests and benchmarks that compare them with the float
model (`headflow.checks.model.field`): nested lists over heads, tokens and coordinates.

Each is the definition of the configuration's one chain (`certificates.kernel.model_chain`) that the kernel reads,
evaluated with balls (`Chain.balls`); this module only names them, and gives a model term's ball (`term_ball`) as the
kernel reads it.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

from flint import arb
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.kernel.model_chain import Chain, Value
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
