"""tests/checks/claimsfile."""
