"""A true claim that keeps cvc5 busy: AM-GM in 7 variables, (a + ... + h)^7 >= 7^7 a...h for positive reals.

z3 proves its SMT statement in under a second; cvc5 needs more than half a minute on it (35 s to over 60 s
on the development machine, cvc5 1.x), far past `headflow check`'s confirmation budget, so `check` keeps a
cvc5 child busy until that budget runs out and writes no certificate. `certificate` writes the certificate
`check` would write if cvc5 agreed in time: the z3 route itself, with only cvc5's confirmation stubbed out.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.checks.claimsfile import smt_route
from headflow.checks.claimsfile.inequality_decider import refutation
from headflow.checks.registry import Context

NAMES = "abcdfgh"  # e is the constant
CLAIM = (
    '[[claim]]\nid = "am-gm.7"\nkind = "inequality"\n'
    f'lhs = "({" + ".join(NAMES)})**7"\nop = ">="\nrhs = "{7**7}*{"*".join(NAMES)}"\n'
    "domain = { " + ", ".join(f'{name} = "positive"' for name in NAMES) + " }\n"
)


def claims_file(folder: Path) -> Path:
    """A claims file holding the claim."""
    path = folder / "am-gm.toml"
    path.write_text(CLAIM)
    return path


def certificate(folder: Path) -> Path:
    """The claim's smt certificate, written into `folder` by the SMT route (z3 in-process, cvc5 not asked)."""
    (claim,) = parse_claims(CLAIM, "am-gm.toml")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(smt_route.solvers, "answers", lambda solver, texts, seconds: ["unsat"] * len(texts))
        outcome = smt_route.decide(claim, Context("quick", seed=0, certificate_dir=folder), refutation)
    assert not isinstance(outcome, str), outcome
    (path,) = outcome.certificates
    return Path(path)
