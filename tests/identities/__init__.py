"""tests/identities."""
