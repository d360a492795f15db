"""The SMT statement of a claims-file inequality or identity, built from the parsed claim alone.

`domain => defined and lhs op rhs` over the claim's symbols (integer ones declared `Int`), in the
polynomial encoding of `certificates.kernel.real_encoding`:
- hypotheses: every declared bound (`x >= lambda_c(n, beta)` encodes its right side too);
- goal: the guard of every partial operation encoded in lhs and rhs (SymPy's forms) and every
  definedness condition recorded from the formulas as written, then the relation (`=` for an
  identity).
Its negation unsat means: at every point of the domain both sides are defined and the relation holds
(an undefined bound leaves its auxiliary free, so such a point only makes the statement stronger).
The decider (`checks.claimsfile.smt_route`) and `headflow check-cert`
(`certificates.kernel.claims.certificate_obligations`) both call `encode_claim`, so a certificate holds exactly
the statement re-derived from the claim it embeds, with its cuts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sympy as sp

from certificates.kernel.claims.names import LambdaC
from certificates.kernel.claims.schema import IdentityClaim, InequalityClaim
from certificates.kernel.real_encoding import Cut, Encoder, Encoding, NotEncodable, SmtStatement

#: The name of the one statement of a claims-file SMT certificate.
NAME = "claim"


@dataclass(frozen=True)
class EncodedClaim:
    """A claim's encoding, hypotheses and goal: `statement(cuts)` is the SMT statement with those cuts."""

    encoding: Encoding
    hypotheses: tuple[sp.Basic, ...]
    goal: sp.Basic
    sentence: str

    def statement(self, cuts: Sequence[Cut] = ()) -> SmtStatement:
        """The statement with these cuts (CutError when one is not valid)."""
        return self.encoding.statement(NAME, self.sentence, self.hypotheses, self.goal, cuts)


def relation_of(claim: InequalityClaim | IdentityClaim) -> tuple[sp.Expr, str, sp.Expr]:
    """(lhs, op, rhs): an identity is the relation `=`."""
    return (claim.lhs, claim.op, claim.rhs) if isinstance(claim, InequalityClaim) else (claim.lhs, "=", claim.rhs)


def encode_claim(claim: InequalityClaim | IdentityClaim) -> EncodedClaim:
    """The claim's encoding; NotEncodable when a formula has no polynomial encoding or there are no unknowns."""
    integers = [s for s in claim.order if claim.domains[s].integer]
    encoder = Encoder(claim.order, integers, LambdaC)
    lhs, op, rhs = relation_of(claim)
    relation = encoder.relation(lhs, op, rhs)
    conditions = [encoder.condition(c.expr, c.relation) for c in claim.conditions]
    guards = list(encoder.encoding.guards)  # the bounds' own guards are not goals: see the module docstring
    hypotheses: list[sp.Basic] = []
    for symbol in claim.order:
        domain, variable = claim.domains[symbol], encoder.term(symbol)
        if domain.low is not None:
            low = encoder.term(domain.low)
            hypotheses.append(variable > low if domain.low_open else variable >= low)
        if domain.high is not None:
            high = encoder.term(domain.high)
            hypotheses.append(variable < high if domain.high_open else variable <= high)
    if not encoder.encoding.symbols:
        raise NotEncodable("no unknowns (the relation is between numbers: balls decide it)")
    sentence = f"{claim.statement} Both sides are defined on the whole domain."
    goal = sp.And(*guards, *conditions, relation)
    return EncodedClaim(encoder.encoding, tuple(h for h in hypotheses if h is not sp.true), goal, sentence)
