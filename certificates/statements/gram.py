"""Every `gram` statement of the registry: inner-product identities, energy, T22's early rate, T27's entropy."""

from __future__ import annotations

from headflow.certificates.statements.clustering_identities import EARLY_RATE
from headflow.certificates.statements.energy_identities import ENERGY
from headflow.certificates.statements.entropy_identities import ENTROPY_IDENTITY
from headflow.certificates.statements.inner_products import IDENTITIES, GramObligation

GRAM: dict[str, GramObligation] = (
    IDENTITIES | ENERGY | {"T22.early-rate": EARLY_RATE, "T27.entropy-identity": ENTROPY_IDENTITY}
)
