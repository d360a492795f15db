"""Every `gram` statement of the registry: the inner-product identities and the energy claims' identities."""

from __future__ import annotations

from headflow.certificates.statements.energy_identities import ENERGY
from headflow.certificates.statements.inner_products import IDENTITIES, GramObligation

GRAM: dict[str, GramObligation] = IDENTITIES | ENERGY
