"""tests/certificates/claims."""
