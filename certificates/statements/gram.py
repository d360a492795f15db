"""Every `gram` statement of the registry: the inner-product identities, the energy claims' and T22's early rate."""

from __future__ import annotations

from headflow.certificates.statements.clustering_identities import EARLY_RATE
from headflow.certificates.statements.energy_identities import ENERGY
from headflow.certificates.statements.inner_products import IDENTITIES, GramObligation

GRAM: dict[str, GramObligation] = IDENTITIES | ENERGY | {"T22.early-rate": EARLY_RATE}
