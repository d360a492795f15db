"""Claims about any number H of heads: per-head symbols, `sum_h(...)` and `mean_h(...)` in formulas.

A symbol whose name ends in `_h` (`lam_h`) is *per head* in a claim whose domain declares the count `H` (or whose
dynamics fixes it): it stands for the H values lambda_1..lambda_H, each in the symbol's domain, and a formula may
use it only inside `sum_h(E)` (the sum over h = 1..H of E at the h-th values) or `mean_h(E)` (that sum over H).
Sums do not nest. Without values a sum is the SymPy node `HeadSum(E)` (never evaluated: what is known of it comes
from linearity, which `head_families` in the deciders uses); with a family (an instance: H and each head's values,
as (values, multiplicity) pairs so that a huge H costs no more than its distinct members) it is the explicit sum.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

#: A per-head symbol's name ends with this.
SUFFIX = "_h"
#: The functions over the heads, by name.
HEAD_FUNCTIONS = ("sum_h", "mean_h")
#: Most distinct members of a family written out explicitly (a member may repeat any number of times).
MAX_MEMBERS = 64

#: One member of a family: each per-head symbol's value, and how many heads take those values.
Member = tuple[dict[str, sp.Rational], int]


class HeadSum(sp.Function):
    """sum_{h=1}^{H} of its argument at the h-th head's values: an opaque node (no automatic evaluation)."""

    nargs = 1

    @classmethod
    def eval(cls, argument: sp.Expr) -> None:
        return None


def per_head(name: str) -> bool:
    """Whether a symbol name is that of a per-head symbol."""
    return name.endswith(SUFFIX) and len(name) > len(SUFFIX)


@dataclass(frozen=True)
class HeadScope:
    """What `sum_h`/`mean_h` mean in one formula: the per-head symbol names, the count H (a symbol or an
    integer), and a family (explicit sums) or None (HeadSum nodes)."""

    names: frozenset[str]
    count: sp.Expr
    family: tuple[Member, ...] | None = None

    def members(self) -> tuple[Member, ...]:
        """The family (ValueError when there is none)."""
        if self.family is None:
            raise ValueError("no family of heads given")
        return self.family


def family_size(family: tuple[Member, ...]) -> int:
    """H of a family: the sum of its multiplicities."""
    return sum(multiplicity for _, multiplicity in family)


def expand_sums(expr: sp.Expr, symbols: dict[str, sp.Symbol], family: tuple[Member, ...], count: sp.Expr) -> sp.Expr:
    """`expr` with every HeadSum written out over the family and `count` (H) put in as the family's size."""

    def written(node: HeadSum) -> sp.Expr:
        (argument,) = node.args
        return sum(
            (
                multiplicity * argument.xreplace({symbols[name]: value for name, value in values.items()})
                for values, multiplicity in family
            ),
            sp.Integer(0),
        )

    summed = expr.replace(lambda e: isinstance(e, HeadSum), written)
    return summed.xreplace({count: sp.Integer(family_size(family))}) if isinstance(count, sp.Symbol) else summed
