"""tests/certificates/coq."""
