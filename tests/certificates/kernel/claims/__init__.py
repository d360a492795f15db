"""tests/certificates/kernel/claims."""
