"""The facts of the named families that decide whether exact data can be one of their members: whether a token family
is `free` or has `exact_members`, and which hypotheses a head family implies and whether it `rounds`.
`certificates.statements.dynamics` derives from them the `model` statement a dynamics claim's witness settles; the full
records (sizes, options, short names: `headflow.certificates.families`) read the same facts from here."""

from __future__ import annotations

from typing import NamedTuple


class TokenFacts(NamedTuple):
    """`free`: every unit-token configuration near a member is a member too (a rounded state stays in the family);
    `exact_members`: exact data are tested for membership exactly (`headflow.certificates.statements.dynamics`)."""

    free: bool
    exact_members: bool = False


class HeadFacts(NamedTuple):
    """The hypotheses (`certificates.kernel.ball_model.HYPOTHESES`) every generic member satisfies, and `rounds`:
    exact data rounded from a member (scalar heads reset to the stated strengths) is a member."""

    hypotheses: tuple[str, ...]
    rounds: bool = False


_TOKEN_NAMES = (
    "random-sphere orthogonal equiangular rational-sphere given hemisphere groups near-collision equally-spaced angles"
)
_FREE, _EXACT_MEMBERS = {"random-sphere", "rational-sphere"}, {"given", "hemisphere"}
TOKEN_FAMILIES: dict[str, TokenFacts] = {
    name: TokenFacts(name in _FREE, name in _EXACT_MEMBERS) for name in _TOKEN_NAMES.split()
}
"""The token families a claims file names, in the order it lists them."""

SYMMETRIC = ("symmetric-scores",)
HEAD_FAMILIES: dict[str, HeadFacts] = {
    "scalar": HeadFacts((*SYMMETRIC, "scalar-heads"), rounds=True),
    "random-symmetric": HeadFacts(SYMMETRIC, rounds=True),
    "random-general": HeadFacts((), rounds=True),
    "orthogonal-subspace": HeadFacts((*SYMMETRIC, "orthogonal-heads")),
    "approximately-orthogonal": HeadFacts(SYMMETRIC),
    "given": HeadFacts((), rounds=True),
}
"""The head families a claims file names, in the order it lists them."""
