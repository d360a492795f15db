"""tests/checks/constants."""
