"""The regime's constants: certified digits from balls, mpmath's cross-check, floats, tables, number parsing."""
