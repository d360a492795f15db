"""tests/checks/commands."""
