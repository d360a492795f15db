"""Certificate files: format, writers and an independent verifier."""
