"""tests/checks."""
