"""The kernel: everything `headflow check-cert` trusts, and nothing else.

It reads a certificate (`reading`, `format`), knows each claim's obligation (`registry_statements`, `claims`),
rebuilds every solver input from the data (`smtlib`, `real_encoding`), re-checks covers, points and
equilibria with balls (`recheck`, `exprtree`, `ball_model`, `equilibrium`), and runs z3 and cvc5 as
separate processes (`solvers`, `processes`). `verify.check_file` is the one entry point. It imports
only itself, the standard library, SymPy (exact algebra), mpmath, python-flint, z3 and cvc5, and the
modules of `identities` listed in `MATHEMATICS`: the derivations it re-derives.
"""

#: The modules of `identities` the kernel rests on (derivations it re-derives, the exact zero test, the sign
#: prover); they import only each other (a test holds them to it).
MATHEMATICS = (
    "identities.algebraic",
    "identities.closed_forms",
    "identities.condition8_invariance",
    "identities.condition8_scalar",
    "identities.derivation",
    "identities.equiangular_reduction",
    "identities.limits",
    "identities.linearized_clustering",
    "identities.scalar_regime",
    "identities.signs",
    "identities.zero_test",
)
