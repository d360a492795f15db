"""A validated integrator of the model from an exact or ball start: rigorous enclosures of the trajectory, step by step.

No maintained Python package integrates an ODE with rigorous enclosures over python-flint's balls (python-flint has
no ODE solver; heyoka and mpmath's odefun are Taylor integrators without error enclosures; codac and pyibex enclose
with their own interval types and would need the model's formulas written a second time), so the method is written
here, on the model's one chain of definitions (`certificates.kernel.model_chain`, as
`certificates.kernel.ball_model.velocity_field` evaluates it): the field over balls and over truncated power series
(python-flint's arb_series) of tokens, with the configuration's heads, kind, geometry, mask and interaction.

- `program`: the chain compiled once into a straight-line program, and its Jacobian's Taylor coefficients along a
  series by reverse differentiation;
- `taylor`: the field over a flat state vector, the Taylor coefficients of the solution through a point or a box (the
  series recursion x_{k+1} = f_k / (k+1)), and those of the flow's Jacobian (the variational equation);
- `step`: one step: the a priori enclosure of x([t, t+h]) (a high-order inclusion), the state at t+h by a Taylor
  polynomial at the centre with its remainder over the a priori box and a mean-value term from the flow's Jacobian
  in a moving QR frame (Lohner's method), and `recheck_step`, which re-derives a recorded step's inclusions from its
  data;
- `integrator`: the adaptive loop from t = 0 to T and what it returns (`Enclosure`: times, boxes, widths).

Relu attention is not covered: its weights max(beta s, 0)/n have a kink, and the chain builds them only at exact
scores (the sign of a rational decides the branch), so there is no tree over symbolic tokens to compile. Covering it
would take a field with each score's branch fixed, valid on a box where every score's sign is certified constant:
that field would be relu's formula written a second time, outside the kernel.
"""

from headflow.certificates.provers.validated.integrator import Enclosure, enclose
from headflow.certificates.provers.validated.step import Step, StepFailure, recheck_step

__all__ = ["Enclosure", "Step", "StepFailure", "enclose", "recheck_step"]
