"""Test-wide settings: under CI, property tests draw the same examples on every run.

A fuzz test that explores new inputs on every run is how bugs are found locally; in CI a run
must be reproducible, so the `ci` profile derandomizes hypothesis (set HEADFLOW_FUZZ_RANDOM=1 to
explore there too).
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI") and not os.environ.get("HEADFLOW_FUZZ_RANDOM"):
    settings.load_profile("ci")
