"""The named families of configurations as records: names, sizes, options with their domains, hypotheses.

TOKEN_FAMILIES and HEAD_FAMILIES are the one vocabulary of families. Each record declares as data what a
claims file may state about the family (the least dimension d, the options it takes with their domains and
defaults), what a search may move and its short command-line name; what the family implies (free tokens, exact
members, hypotheses, rounding) is read from the facts of `headflow.certificates.family_names`,
whose names are the records' names. The
claims-file schema checks a file's options from the records, the test strategies draw from their domains,
the manual's table of families is rendered from them (`headflow.checks.model.family_table`), and the seeded draws of
`headflow.checks.model.families` are registered once per record. The records hold no numbers to draw, so the
claims-file checker reads them without numpy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from headflow.certificates import family_names

Options = Mapping[str, Any]
"""A family's parameters as a claims file states them: the values of its `Option`s, by name."""


@dataclass(frozen=True)
class End:
    """One end of an interval: `value`, divided by n - 1 when `per_pair` (the bound -1/(n-1) of a common inner
    product of n unit vectors), included in the interval when `closed`."""

    value: Fraction
    closed: bool = False
    per_pair: bool = False

    def at(self, n: int) -> Fraction:
        """The end for n tokens."""
        return self.value / (n - 1) if self.per_pair else self.value

    def text(self) -> str:
        return f"{self.value}/(n-1)" if self.per_pair else str(self.value)


@dataclass(frozen=True)
class Interval:
    """A set of reals as data: the numbers between `low` and `high` (None: unbounded on that side)."""

    low: End | None = None
    high: End | None = None

    def contains(self, value: Fraction, n: int) -> bool:
        """Whether the exact number `value` lies in the interval for n tokens."""
        low, high = self.low, self.high
        above = low is None or (value >= low.at(n) if low.closed else value > low.at(n))
        below = high is None or (value <= high.at(n) if high.closed else value < high.at(n))
        return above and below

    def text(self) -> str:
        """The interval as written in the manual and in errors: "(0, oo)", "[0, oo)", "(-1/(n-1), 1)"."""
        left = "(-oo" if self.low is None else ("[" if self.low.closed else "(") + self.low.text()
        right = "oo)" if self.high is None else self.high.text() + ("]" if self.high.closed else ")")
        return f"{left}, {right}"


POSITIVE = Interval(End(Fraction(0)))
NON_NEGATIVE = Interval(End(Fraction(0), closed=True))
REAL = Interval()


@dataclass(frozen=True)
class Option:
    """A number a claims file gives a family (`per_head`: a list of one number per head, whose length H defaults
    to): its domain, its default (None: the family needs it), and `generic`, the values at which every member
    has all the hypotheses the family declares, when that is narrower than the domain (None: the domain).
    `kind` is what the file writes: "number", "count" (an integer in the domain and at most n), "tokens" (the
    user's own tokens, `headflow.certificates.claims.given_tokens`), "matrices" (the user's own exact head matrices,
    `headflow.certificates.claims.given_matrices`; for both the domain is unused) or "angles" (the tokens on the circle
    as exact angles, `headflow.certificates.claims.given_angles`, d = 2)."""

    name: str
    domain: Interval
    meaning: str
    default: float | None = None
    per_head: bool = False
    generic: Interval | None = None
    kind: str = "number"


SCALE = Option("scale", POSITIVE, "size of the score matrices' entries (times 1/sqrt(d))", default=1.0)
LAMBDAS = Option("lambdas", REAL, "strength lambda_h of each head, M_h = lambda_h I", per_head=True, generic=POSITIVE)
DELTA = Option("delta", NON_NEGATIVE, "max |M_h' M_h|_op over pairs of heads h != h'")
RHO = Option("rho", Interval(End(Fraction(-1), per_pair=True), End(Fraction(1))), "common inner product <x_i, x_j>")
POINTS = Option("points", REAL, "the tokens: inline rows of numbers, or a .npy/.csv file", kind="tokens")
ANGLES = Option("angles", REAL, "the tokens on the circle as exact angles (pi/3, 1/2)", kind="angles")
GROUPS = Option(
    "groups", Interval(End(Fraction(1), closed=True)), "number k of separated groups (k <= n)", kind="count"
)
SPREAD = Option(
    "spread",
    Interval(End(Fraction(0)), End(Fraction(3, 8))),
    "angle of each token from its group's centre",
    default=0.05,
)
SCORES = Option("scores", REAL, "the score matrices M_h: inline rational rows or a .npy/.csv file", kind="matrices")
QUERIES = Option("queries", REAL, "queries Q_h (r x d), with keys: M_h = Q_h^T K_h", kind="matrices")
KEYS = Option("keys", REAL, "keys K_h (r x d), with queries", kind="matrices")
SEPARATION = Option(
    "separation", Interval(End(Fraction(0)), End(Fraction(2))), "distance |x_0 - x_1| of the close pair", default=0.001
)


@dataclass(frozen=True)
class Family:
    """What every family declares: its name, the sizes d must reach (`d_at_least`: numbers, or "n" or "H"), the
    options a claims file may give it, and its short name in `headflow simulate` (None: not offered there)."""

    name: str
    d_at_least: tuple[int | str, ...] = field(default=(), kw_only=True)
    options: tuple[Option, ...] = field(default=(), kw_only=True)
    short: str | None = field(default=None, kw_only=True)

    def least_d(self, n: int, H: int) -> int:
        """The least dimension a member with n tokens and H heads has."""
        sizes = {"n": n, "H": H}
        return max((sizes[bound] if isinstance(bound, str) else bound for bound in self.d_at_least), default=1)

    def d_text(self) -> str:
        """The dimension bounds as written in the manual and in errors ("d >= n"; "" when there is none)."""
        return ", ".join(f"d >= {bound}" for bound in self.d_at_least)


@dataclass(frozen=True)
class TokenFamily(Family):
    """Named initial tokens; `fixed` when every member is one configuration up to a rotation (so, with scalar heads,
    one start decides all). `free` and `exact_members` are the facts of (`family_names.TokenFacts`)."""

    fixed: bool = field(default=False, kw_only=True)

    @property
    def free(self) -> bool:
        """Whether the adversarial search may move the tokens (a rounded state stays in the family)."""
        return family_names.TOKEN_FAMILIES[self.name].free

    @property
    def exact_members(self) -> bool:
        """Whether exact data are tested for membership exactly."""
        return family_names.TOKEN_FAMILIES[self.name].exact_members


@dataclass(frozen=True)
class HeadFamily(Family):
    """Named heads: `moves` ("symmetric" or "general") when the adversarial search may move the heads within the
    family. `hypotheses` and `rounds` are the facts of (`family_names.HeadFacts`)."""

    moves: str | None = field(default=None, kw_only=True)

    @property
    def hypotheses(self) -> tuple[str, ...]:
        """The hypotheses every generic member satisfies and no generic member exceeds."""
        return family_names.HEAD_FAMILIES[self.name].hypotheses

    @property
    def rounds(self) -> bool:
        """Whether exact data rounded from a member is a member."""
        return family_names.HEAD_FAMILIES[self.name].rounds


TOKEN_FAMILIES: dict[str, TokenFamily] = {
    f.name: f
    for f in (
        TokenFamily("random-sphere", short="random"),
        TokenFamily("orthogonal", fixed=True, d_at_least=("n",), short="orthogonal"),
        TokenFamily("equiangular", fixed=True, d_at_least=("n",), options=(RHO,), short="equiangular"),
        TokenFamily("rational-sphere", d_at_least=(2,)),
        TokenFamily("given", fixed=True, options=(POINTS,)),
        TokenFamily("hemisphere", d_at_least=(2,)),
        TokenFamily("groups", d_at_least=(2,), options=(GROUPS, SPREAD)),
        TokenFamily("near-collision", d_at_least=(2,), options=(SEPARATION,)),
        TokenFamily("equally-spaced", fixed=True, d_at_least=(2,), short="circle"),
        TokenFamily("angles", fixed=True, d_at_least=(2,), options=(ANGLES,)),
    )
}
"""The token families a claims file names, in the order it lists them."""

HEAD_FAMILIES: dict[str, HeadFamily] = {
    f.name: f
    for f in (
        HeadFamily("scalar", options=(LAMBDAS,), short="scalar"),
        HeadFamily(
            "random-symmetric",
            moves="symmetric",
            options=(SCALE,),
            short="symmetric",
        ),
        HeadFamily("random-general", moves="general", options=(SCALE,), short="general"),
        HeadFamily(
            "orthogonal-subspace",
            d_at_least=("H",),
            options=(SCALE,),
            short="orthogonal",
        ),
        HeadFamily("approximately-orthogonal", d_at_least=("H",), options=(SCALE, DELTA)),
        HeadFamily("given", options=(SCORES, QUERIES, KEYS)),
    )
}
"""The head families a claims file names, in the order it lists them."""


def _short(families: Mapping[str, Family]) -> dict[str, str]:
    return {f.short: f.name for f in families.values() if f.short is not None}


#: The short names of the families that `headflow simulate` offers and the numeric checks sample.
SHORT_TOKEN_NAMES = _short(TOKEN_FAMILIES)
SHORT_HEAD_NAMES = _short(HEAD_FAMILIES)

#: Every option a claims file may give some family, by name (a name means one option in every family).
OPTIONS: dict[str, Option] = {o.name: o for f in (*HEAD_FAMILIES.values(), *TOKEN_FAMILIES.values()) for o in f.options}
