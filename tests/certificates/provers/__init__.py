"""tests/certificates/provers."""
