"""tests/checks/model."""
