"""The choices and defaults the command line offers (profiles, report formats, the certificates folder, seeds, the
integrator's methods and engines).

They live in a module that imports nothing, so that every `headflow COMMAND --help` is answered at once: a command
module imports what decides only when it runs (a test holds `--help` free of SymPy, numpy and the solvers).
"""

from __future__ import annotations

#: The search profiles of `verify` and `check`.
PROFILES = ("quick", "thorough")
#: The report formats of `verify` and `check`.
FORMATS = ("table", "json", "markdown", "html")
#: Where certificate files go unless another folder is given.
DEFAULT_CERTIFICATES = "certs"
#: The Runge-Kutta pairs of `simulate --method` (`headflow.checks.integrator.methods` maps each to its tableau).
INTEGRATION_METHODS = ("dp54", "dop853")
#: `--method auto` takes DOP853 for rtol at or below this value (unless the attention is relu), DP5(4) above it.
HIGH_ORDER_RTOL = 1e-3
#: The engines of the integrator: auto (the default of `integrate` and `simulate`: the jitted one when jax is
#: installed and the run is one it covers, else numpy; `headflow.checks.integrator.backends`), numpy (deterministic,
#: what the claim deciders name) and the optional jitted one.
BACKENDS = ("auto", "numpy", "jax")
#: Seeds are non-negative integers below 2^64 (numpy's SeedSequence takes no negative entropy).
MAX_SEED = 2**64 - 1
