"""A configuration of the model on exact rational data, and what is exact about it: the scores and the mask.

With rational tokens, heads and beta every score s^h_ij = <x_i, M_h x_j> and every row W_h x_j is an exact rational;
the model's quantities over them are written once, as the named definitions of `certificates.kernel.model_chain`.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .interaction import Interaction
from .masks import Mask

Matrix = list[list[Fraction]]


@dataclass(frozen=True)
class ExactConfiguration:
    """Rational tokens (n x d), score and value matrices (H x d x d), rational beta (either sign: beta < 0 is
    repulsive attention), kind, geometry, and the attention mask (`certificates.kernel.masks`; None: no mask)."""

    tokens: list[list[Fraction]]
    score_matrices: list[Matrix]
    values: list[Matrix]
    beta: Fraction
    geometry: str = "sphere"
    attention: str = "usa"
    mask: Mask | None = None
    #: The stated interaction phi(s) of the weights (`headflow.certificates.kernel.interaction`; None: the kind's own).
    interaction: Interaction | None = None

    @property
    def n(self) -> int:
        return len(self.tokens)


def dot(u: Sequence, w: Sequence):  # type: ignore[no-untyped-def]
    """<u, w> of two vectors of any one number type (Fractions, balls, series, exponential polynomials): 0 + the
    products, in order."""
    return sum((a * b for a, b in zip(u, w, strict=True)), 0)


def attends(cfg: ExactConfiguration, i: int, j: int) -> bool:
    """Whether token i attends to token j (the mask entry; always without a mask)."""
    return cfg.mask is None or cfg.mask[i][j]
