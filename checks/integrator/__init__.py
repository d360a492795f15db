"""A geometric adaptive integrator for the model's dynamics (explicit Runge-Kutta pairs, PI control, sphere retraction).

`integrate(cfg, t_final, ...)` is the entry point (`solver`); the tableaus are data (`tableau`,
`dormand_prince`, `dop853`), chosen by name or from the tolerance (`methods`) and stepped by one
stepper with dense output (`stepper`); the step-size controller (`controller`), the observables
recorded along the way (`recorder`) and the events (`events`) are separate modules.
"""

from headflow.checks.integrator.events import Event, cluster_gap_below, speed_below
from headflow.checks.integrator.methods import tableau_for
from headflow.checks.integrator.solver import integrate
from headflow.checks.integrator.trajectory import IntegrationFailure, Trajectory

__all__ = ["Event", "IntegrationFailure", "Trajectory", "cluster_gap_below", "integrate", "speed_below", "tableau_for"]
