"""Symbolic (SymPy) statements and proofs of the paper's identities and closed forms."""
