"""The claims-file reader the checker trusts: TOML -> validated claims, formulas as inert SymPy and trees.

- `names`: the whitelisted functions and constants; `expressions`: formula text -> SymPy through a whitelist
  walk of the syntax tree (never eval/sympify); `problems`: errors located at claim, line and column;
- `domains`, `conditions`, `numbers`: symbol domains, definedness conditions, exact numbers; `schema`: the claim
  kinds, validated; `loader`: the TOML file -> claims; `embedding`: the claim embedded in a certificate;
- `evaluation`: ball evaluation of formulas; `symbolic`: SymPy under time and memory limits.
"""

import sys

#: Decimal digits Python may print of one integer. Its default (4300) is below what a claims file may hold: the
#: grammar admits exact numbers of 20,000 bits (about 6,000 digits), and the closed forms square them
#: (c_star(x) holds (x - 1)**2 + 4), so its formulas, conditions and reports print integers of up to about
#: 12,100 digits. Printing one that size takes milliseconds; larger values (exact points raised to high powers)
#: are shown approximately (`headflow.certificates.ball_reading.shown`).
INT_DIGITS = 13_000

if 0 < sys.get_int_max_str_digits() < INT_DIGITS:
    sys.set_int_max_str_digits(INT_DIGITS)
