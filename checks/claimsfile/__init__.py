"""Claims files: users state their own variants of the paper's claims in TOML and get verdicts.

- `names`: the whitelisted functions and constants (from `identities.closed_forms`, plus the
  implicit `lambda_c`); `expressions`: formula text -> SymPy through a whitelist walk of the
  syntax tree (never eval/sympify); `problems`: errors located at claim, line and column.
- `domains`: symbol domains and sampling inside them; `schema`: the four claim kinds, validated;
  `loader`: the TOML file -> claims.
- `evaluation`: rigorous ball evaluation (with lambda_c); `symbolic`: SymPy under time and memory
  limits; `identity_decider`, `constant_decider`, `deciders` (kind -> decider); `register`: a
  fresh registry for the ordinary runner and report (`headflow check`).
"""
