"""tests/checks/evidence."""
