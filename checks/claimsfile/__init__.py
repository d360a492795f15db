"""Claims files: users state their own variants of the paper's claims in TOML and get verdicts.

`expressions` parses formula text into SymPy with a whitelist (never eval/sympify),
`domains` reads symbol domains, `schema` validates each claim kind, `loader` reads the file,
`evaluation` evaluates expressions rigorously as balls, `deciders` decides each kind and
`register` turns loaded claims into a registry the ordinary runner and report accept.
"""
