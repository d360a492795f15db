"""tests/checks/reports."""
