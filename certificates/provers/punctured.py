"""Certificates of an inequality over a punctured domain (form `punctured`, `certificates.kernel.punctured`).

The search (SymPy proposes, the kernel checks): f' = N / Q over one denominator, then g and P with f' = g P from the
candidates the decider's proof uses (`candidates`): g = c - x (x - c for a minimiser) where N / (c - x) cancels to a
K free of the hole, P = K / Q; else g = N or -N, P = 1 / Q or -1 / Q. Each built relation by the smt cuts the limit
prover finds for a relation (`limits.proved_cuts`). The writer runs the kernel's check first and writes nothing it
would reject.
"""

from __future__ import annotations

from pathlib import Path

import sympy as sp
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.expressions import parse_tree
from headflow.certificates.claims.interaction_text import ordinary
from headflow.certificates.claims.schema import InequalityClaim
from headflow.certificates.kernel import punctured
from headflow.certificates.kernel.exprtree import Tree, TreeError
from headflow.certificates.kernel.real_encoding import NotEncodable
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.provers.limits import SECONDS, proved_cuts
from headflow.certificates.statements.punctured import statement
from headflow.certificates.store import write_certificate
from headflow.certificates.sympy_trees import from_sympy


def certify(claim: InequalityClaim, directory: Path) -> str | None:
    """The path of the certificate that f(x) op b for every x != c, or None when the form does not state the claim,
    no candidate's built relations are proved or the kernel refuses it."""
    for numerator, factor in candidates(claim):
        try:
            data = {"numerator": numerator, "factor": factor}
            stated = statement(claim, data)
            cuts = None if stated is None else proved_cuts(punctured.relations(stated))
            if stated is None or cuts is None:
                continue
            punctured.check(stated, claim.id, "smt", data | {"cuts": cuts}, SECONDS)
        except (Rejected, NotEncodable, TreeError):
            continue
        return str(write_certificate(directory, claim.id, "smt", data | {"cuts": cuts}, embedded(claim), stated))
    return None


def candidates(claim: InequalityClaim) -> list[tuple[Tree, Tree]]:
    """(g, P) trees with f' = g P proposed by SymPy (the module's docstring), in order; none where the claim's
    formulas have no SymPy form here."""
    ((x, _),) = claim.punctures.items()
    names, u = {s.name: s for s in claim.order}, sp.Symbol(x.name)
    try:
        sides = [ordinary(parse_tree(claim.raw[side], names)) for side in ("lhs", "rhs")]
        point = ordinary(parse_tree(claim.raw["domain"][x.name]["except"], names))
    except TreeError:
        return []
    f = sides[0] if u in sides[0].free_symbols else sides[1]
    minimiser = (claim.op in (">", ">=")) == (f is sides[0])
    top, bottom = sp.fraction(sp.together(sp.diff(f, u)))
    towards = u - point if minimiser else point - u
    quotient, found = sp.cancel(top / towards), []
    if u not in sp.denom(quotient).free_symbols:
        found.append((towards, quotient / bottom))
    found += [(top, 1 / bottom), (-top, -1 / bottom)]
    try:
        return [(from_sympy(g), from_sympy(p)) for g, p in found]
    except (TreeError, TypeError, ValueError):
        return []
