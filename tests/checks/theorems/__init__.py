"""tests/checks/theorems."""
