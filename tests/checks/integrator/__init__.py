"""tests/checks/integrator."""
