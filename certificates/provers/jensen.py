"""Certificates of Jensen's inequality over the heads (form `jensen`, `certificates.kernel.jensen`): the convexity
F'' >= 0 (> 0) of the claim's per-head term on its domain (for a strict claim where F'' > 0 fails at an end of it,
F'' >= 0 on it and F'' > 0 inside), by the smt cuts the limit prover finds for a relation
(`limits.proved_cuts`: products and powers of the exponentials, else Taylor cuts). The writer runs the kernel's check
first and writes nothing it would reject.
"""

from __future__ import annotations

from pathlib import Path

from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.schema import InequalityClaim
from headflow.certificates.kernel import jensen
from headflow.certificates.kernel.real_encoding import NotEncodable
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.provers.limits import SECONDS, proved_cuts
from headflow.certificates.statements.jensen import statement
from headflow.certificates.store import write_certificate


def certify(claim: InequalityClaim, directory: Path) -> str | None:
    """The path of the certificate that the claim holds by Jensen's inequality, or None when the form does not state
    it, no cuts prove the convexity or the kernel refuses it."""
    try:
        stated = statement(claim)
        if stated is None:
            return None
        for interior in (False, True)[: 1 + (stated["op"] == ">")]:  # a strict claim: F'' > 0 inside, if not on I
            cuts = proved_cuts(jensen.convexity(stated, interior))
            if cuts is not None:
                payload = {"cuts": cuts[0]} | ({"interior": cuts[1]} if interior else {})
                jensen.check(stated, claim.id, "smt", payload, SECONDS)
                return str(write_certificate(directory, claim.id, "smt", payload, embedded(claim), stated))
    except (Rejected, NotEncodable):
        return None
    return None
