"""The exact text of a witness's enclosures: an end too large to write is a TreeError (what the provers catch for a
rational too large to record), never a crash."""

from __future__ import annotations

import pytest
from flint import arb
from headflow.certificates.kernel.exprtree import TreeError
from headflow.certificates.provers.witness import enclosure_text


@pytest.mark.parametrize("exponent", [10**6, -(10**6), 10**9])
def test_an_end_past_the_bound_is_refused_before_it_is_built(exponent: int) -> None:
    """2^(10^9) is no number to build (a MemoryError once crashed a decider: exp(exp(x)) at large x)."""
    with pytest.raises(TreeError):
        enclosure_text(arb(2) ** exponent)
