"""The kernel: everything `headflow check-cert` trusts, and nothing else.

A certificate carries the core statement it proves (`core`); the kernel checks the payload against it by the
statement's form (`registry_statements`, `real_statements`, `model_statements`) and prints
it, rendered from its own data. It rebuilds every solver input from the data (`smtlib`, `real_encoding`), re-checks
covers, points, configurations and equilibria with balls and exact algebra (`recheck`, `exprtree`, `model_chain`,
`ball_model`, `exp_field`, `equilibrium`), and runs z3 and cvc5 as separate processes (`solvers`, `processes`).
It never searches, proposes or simplifies: a point, a root bracket, an antiderivative, a cut is data it checks.
`verify.check_file` is the one entry point; `coq/` writes the Coq statement of a certificate from the same data.
It imports only itself, the standard library and python-flint (z3 and cvc5 only in their own processes): no
SymPy, no mpmath, nothing of `identities`, `checks` or the rest of `certificates` (tests hold it to that).
"""
