"""tests/checks/sweeps."""
