"""A geometric adaptive integrator for the model's dynamics (DP5(4), PI control, sphere retraction).

`integrate(cfg, t_final, ...)` is the entry point; the tableau and step (`tableau`), the
step-size controller (`controller`), the observables recorded along the way (`recorder`) and
the events (`events`) are separate modules.
"""

from checks.integrator.events import Event, cluster_gap_below, speed_below
from checks.integrator.solver import IntegrationFailure, Trajectory, integrate

__all__ = ["Event", "IntegrationFailure", "Trajectory", "cluster_gap_below", "integrate", "speed_below"]
