"""Hypothesis settings of the fuzz tests: a quick default, scaled up with HEADFLOW_FUZZ_SCALE (e.g. 20)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings


def fuzz_settings(examples: int) -> settings:
    """`examples` examples times HEADFLOW_FUZZ_SCALE (default 1), no deadline (runs vary in cost)."""
    scale = max(1, int(os.environ.get("HEADFLOW_FUZZ_SCALE", "1")))
    return settings(
        max_examples=examples * scale,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
