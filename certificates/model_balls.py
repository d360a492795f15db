"""The model's quantities at exact data as balls, by name, for tests and benchmarks that compare them with the float
model (`checks.model.field`): nested lists over heads, tokens and coordinates.

The kernel reads the same definitions of the configuration's one chain (`certificates.kernel.model_values.CHAINED`,
evaluated by `certificates.kernel.ball_model.balls`); this module only names them.
"""

from __future__ import annotations

from functools import partial

from certificates.kernel.ball_model import balls
from certificates.kernel.model_values import CHAINED

attention_weights = partial(balls, read=CHAINED["w"])
softmax_distributions = partial(balls, read=CHAINED["p"])
head_outputs = partial(balls, read=CHAINED["f"])
head_energies = partial(balls, read=CHAINED["E_h"])
head_energy_rates = partial(balls, read=CHAINED["dE_h_dt"])
attention_entropies = partial(balls, read=CHAINED["entropy"])
entropy_rates = partial(balls, read=CHAINED["entropy_rate"])
partition_functions = partial(balls, read=CHAINED["Z"])
attention_means = partial(balls, read=CHAINED["xbar"])
