"""The model of SPEC section 1 in numpy: a validated configuration, every quantity, the named families."""
