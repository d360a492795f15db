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

import sys

#: Decimal digits Python may print of one integer. Its default (4300) is below what a claims file may hold: the
#: grammar admits exact numbers of 20,000 bits (about 6,000 digits), and the closed forms square them
#: (c_star(x) holds (x - 1)**2 + 4), so its formulas, conditions and reports print integers of up to about
#: 12,100 digits. Printing one that size takes milliseconds; larger values (exact points raised to high powers)
#: are shown approximately (`certificates.exact.shown`).
INT_DIGITS = 13_000

if 0 < sys.get_int_max_str_digits() < INT_DIGITS:
    sys.set_int_max_str_digits(INT_DIGITS)
