"""A real-valued claim as polynomial arithmetic that an SMT solver decides exactly.

Every non-polynomial subterm becomes a fresh real variable bound by facts that are true of it:
- `p**(-k)`: r with r p^k = 1; `p**(a/q)`: r >= 0 with r^q = p^a (r^q p^|a| = 1 when a < 0);
  `sqrt`, and through them `c_star` and `golden`, are exact this way;
- `exp(a)`: an *exponential atom* e > 0 standing for exp(a); `log(a)`: l with exp(l) = a;
  `lambertw(a)`: w >= -1 with w exp(w) = a; `lambda_c(n, beta)`: r with r beta = u, u > 2 and
  (u - 2) exp(u) = (n - 1)(u + 2); `pi` between two rationals.
Exponential atoms are related to each other by monotonicity (a_i <= a_j implies e_i <= e_j, and
strictly) and, beyond that, only through *cuts*, true by Taylor's theorem (T_k the Taylor polynomial
of exp at 0 of odd degree k, so that the remainder e^xi y^(k+1)/(k+1)! is >= 0):
- lower: e >= L T_k(a - t) for every a, with 0 < L <= exp(t);
- upper: |a - t| <= delta (delta <= 1) implies e <= U (T_k(a - t) + M (a - t)^(k+1)), with
  U >= exp(t) and M >= exp(delta)/(k+1)!.
A cut is data (rationals and a degree) that the checker validates with balls.

So the statement `facts and cuts imply goal` only uses true facts about the real values: if its
negation is unsat, the claim holds wherever its sides are defined. A model of the negation proves
nothing by itself (the relaxation may be too weak); it is a candidate to test exactly.

This module is part of the certificate checker: it is deterministic, reads SymPy expressions built
by the claims-file parser, and writes no solver text (certificates.smtlib does, from trees).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp
from flint import ctx

from certificates.exprtree import ball_of, parse_rational, rational_text
from certificates.obligations import SmtStatement

#: Rational bounds of pi (checked with balls in the tests).
PI_BOUNDS = (Fraction(314159265358979, 10**14), Fraction(314159265358980, 10**14))
#: Bits of precision used to validate a cut's bounds.
CUT_PRECISION = 256
#: At most this many cuts in one statement, and this many characters per rational of a cut.
MAX_CUTS = 400
MAX_CUT_RATIONAL_CHARS = 2000
CUT_KINDS = ("lower", "upper")
#: Odd Taylor degrees a cut may use.
CUT_DEGREES = (1, 3, 5, 7, 9, 11, 13, 15)
RELATIONS = {"<": sp.StrictLessThan, "<=": sp.LessThan, ">": sp.StrictGreaterThan, ">=": sp.GreaterThan, "=": sp.Eq}


class NotEncodable(ValueError):
    """The expression has a node without a polynomial encoding (abs, min, floats, ...)."""


@dataclass(frozen=True)
class Exponential:
    """An exponential atom: `symbol` stands for exp(`argument`), the argument a polynomial."""

    symbol: sp.Symbol
    argument: sp.Expr


@dataclass(frozen=True)
class Cut:
    """A true polynomial fact about one exponential atom, given by rationals the checker validates."""

    kind: str
    atom: int
    degree: int
    points: tuple[Fraction, ...]
    bounds: tuple[Fraction, ...]

    def to_data(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "atom": self.atom,
            "degree": self.degree,
            "points": [rational_text(p) for p in self.points],
            "bounds": [rational_text(b) for b in self.bounds],
        }


@dataclass
class Encoding:
    """The claim's variables and auxiliaries, the facts that bind the auxiliaries, and the atoms."""

    variables: tuple[sp.Symbol, ...]
    auxiliaries: list[sp.Symbol] = field(default_factory=list)
    facts: list[sp.Basic] = field(default_factory=list)
    exponentials: list[Exponential] = field(default_factory=list)

    @property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        return (*self.variables, *self.auxiliaries)

    def monotonicity(self) -> list[sp.Basic]:
        """exp is increasing: for every pair of atoms, the order of arguments is the order of values."""
        facts = []
        for i, first in enumerate(self.exponentials):
            for second in self.exponentials[i + 1 :]:
                a, b, ea, eb = first.argument, second.argument, first.symbol, second.symbol
                facts += [
                    sp.Implies(a <= b, ea <= eb),
                    sp.Implies(b <= a, eb <= ea),
                    sp.Implies(a < b, ea < eb),
                    sp.Implies(b < a, eb < ea),
                ]
        return facts

    def cut_fact(self, cut: Cut) -> sp.Basic:
        """The polynomial fact a cut stands for (after `validate_cut`)."""
        atom = self.exponentials[cut.atom]
        e, a = atom.symbol, atom.argument
        y = a - _q(cut.points[0])
        taylor = sum((y**j / sp.factorial(j) for j in range(cut.degree + 1)), sp.Integer(0))
        if cut.kind == "lower":
            return e >= _q(cut.bounds[0]) * taylor
        t, delta = (_q(p) for p in cut.points)
        upper, remainder = (_q(b) for b in cut.bounds)
        return sp.Implies(
            sp.And(a >= t - delta, a <= t + delta), e <= upper * (taylor + remainder * y ** (cut.degree + 1))
        )

    def statement(
        self, name: str, sentence: str, hypotheses: Sequence[sp.Basic], goal: sp.Basic, cuts: Sequence[Cut] = ()
    ) -> SmtStatement:
        """`hypotheses, facts, monotonicity and cuts imply goal` over every variable and auxiliary."""
        for cut in cuts:
            validate_cut(cut, len(self.exponentials))
        facts = [*hypotheses, *self.facts, *self.monotonicity(), *(self.cut_fact(c) for c in cuts)]
        return SmtStatement(name, sentence, self.symbols, tuple(facts), goal)


class Encoder:
    """Encodes expressions over the claim's variables, sharing auxiliaries between equal subterms."""

    def __init__(self, variables: Sequence[sp.Symbol]) -> None:
        self.encoding = Encoding(tuple(variables))
        taken = {v.name for v in variables}
        prefix = "aux"
        while any(name.startswith(prefix) for name in taken):
            prefix += "x"
        self._prefix = prefix
        self._memo: dict[sp.Basic, sp.Expr] = {}

    def relation(self, lhs: sp.Expr, op: str, rhs: sp.Expr) -> sp.Basic:
        """`lhs op rhs` as a polynomial relation (op one of < <= > >= =)."""
        if op not in RELATIONS:
            raise NotEncodable(f"relation {op!r}")
        return RELATIONS[op](self.term(lhs), self.term(rhs))

    def term(self, expr: sp.Expr) -> sp.Expr:
        """A polynomial standing for `expr` (auxiliaries added to the encoding as needed)."""
        expr = sp.sympify(expr)
        if expr in self._memo:
            return self._memo[expr]
        value = self._encode(expr)
        self._memo[expr] = value
        return value

    def _fresh(self) -> sp.Symbol:
        symbol = sp.Symbol(f"{self._prefix}{len(self.encoding.auxiliaries)}", real=True)
        self.encoding.auxiliaries.append(symbol)
        return symbol

    def _fact(self, *facts: sp.Basic) -> None:
        self.encoding.facts.extend(facts)

    def _exponential(self, argument: sp.Expr) -> sp.Symbol:
        for atom in self.encoding.exponentials:
            if atom.argument == argument:
                return atom.symbol
        e = self._fresh()
        self._fact(e > 0)
        self.encoding.exponentials.append(Exponential(e, argument))
        return e

    def _encode(self, expr: sp.Expr) -> sp.Expr:
        if expr.is_Rational:
            return expr
        if expr.is_Symbol:
            if expr not in self.encoding.variables:
                raise NotEncodable(f"unknown symbol {expr}")
            return expr
        if expr is sp.E:
            return self._exponential(sp.Integer(1))
        if expr is sp.pi:
            p = self._fresh()
            self._fact(p >= _q(PI_BOUNDS[0]), p <= _q(PI_BOUNDS[1]))
            return p
        if isinstance(expr, sp.Add):
            return sp.Add(*[self.term(a) for a in expr.args])
        if isinstance(expr, sp.Mul):
            return sp.Mul(*[self.term(a) for a in expr.args])
        if isinstance(expr, sp.Pow):
            return self._power(self.term(expr.base), expr.exp)
        name = type(expr).__name__
        if name == "exp":
            return self._exponential(self.term(expr.args[0]))
        if name == "log" and len(expr.args) == 1:
            value = self._fresh()
            self._fact(sp.Eq(self._exponential(value), self.term(expr.args[0])))
            return value
        if name == "LambertW" and len(expr.args) == 1:
            w = self._fresh()
            self._fact(w >= -1, sp.Eq(w * self._exponential(w), self.term(expr.args[0])))
            return w
        if name == "LambdaC" and len(expr.args) == 2:
            tokens, inverse_temperature = (self.term(a) for a in expr.args)
            u, value = self._fresh(), self._fresh()
            self._fact(u > 2, sp.Eq((u - 2) * self._exponential(u), (tokens - 1) * (u + 2)))
            self._fact(sp.Eq(value * inverse_temperature, u))
            return value
        raise NotEncodable(f"no polynomial encoding of {name}")

    def _power(self, base: sp.Expr, exponent: sp.Expr) -> sp.Expr:
        if exponent.is_Integer and exponent >= 0:
            return base ** int(exponent)
        if exponent.is_Integer:
            r = self._fresh()
            self._fact(sp.Eq(r * base ** int(-exponent), 1))
            return r
        if exponent.is_Rational:
            p, q = int(exponent.p), int(exponent.q)
            r = self._fresh()
            self._fact(r >= 0, sp.Eq(r**q, base**p) if p > 0 else sp.Eq(r**q * base ** (-p), 1))
            return r
        raise NotEncodable(f"power with exponent {exponent}")


def validate_cut(cut: Cut, atoms: int) -> None:
    """ValueError unless the cut is well formed and its bounds hold (checked with balls)."""
    if cut.kind not in CUT_KINDS or not isinstance(cut.atom, int) or not 0 <= cut.atom < atoms:
        raise ValueError(f"malformed cut {cut.kind!r} on atom {cut.atom!r}")
    if cut.degree not in CUT_DEGREES:
        raise ValueError(f"a cut's Taylor degree is one of {CUT_DEGREES}")
    size = 1 if cut.kind == "lower" else 2
    if len(cut.points) != size or len(cut.bounds) != size:
        raise ValueError(f"a {cut.kind} cut has {size} point(s) and {size} bound(s)")
    if any(len(rational_text(v)) > MAX_CUT_RATIONAL_CHARS for v in (*cut.points, *cut.bounds)):
        raise ValueError("a cut's rational is too long")
    old = ctx.prec
    ctx.prec = CUT_PRECISION
    try:
        at_t = ball_of(cut.points[0]).exp()
        if cut.kind == "lower":
            if not (cut.bounds[0] > 0 and at_t >= ball_of(cut.bounds[0])):
                raise ValueError(f"lower cut: {cut.bounds[0]} is not in (0, exp({cut.points[0]}))")
            return
        delta, (upper, remainder) = cut.points[1], cut.bounds
        if not 0 < delta <= 1:
            raise ValueError("an upper cut's half-width is in (0, 1]")
        if not at_t <= ball_of(upper):
            raise ValueError(f"upper cut: {upper} is not above exp({cut.points[0]})")
        if not ball_of(delta).exp() / math.factorial(cut.degree + 1) < ball_of(remainder):
            raise ValueError("upper cut: the remainder factor is below exp(delta)/(k+1)!")
    finally:
        ctx.prec = old


def cut_from_data(data: object) -> Cut:
    """A cut from certificate data (exact rational strings only); ValueError when malformed."""
    if not isinstance(data, Mapping) or set(data) != {"kind", "atom", "degree", "points", "bounds"}:
        raise ValueError("a cut has exactly the keys kind, atom, degree, points, bounds")
    points, bounds = data["points"], data["bounds"]
    if not isinstance(points, list) or not isinstance(bounds, list) or len(points) > 2 or len(bounds) > 2:
        raise ValueError("a cut's points and bounds are short lists")
    atom, degree = data["atom"], data["degree"]
    if any(isinstance(v, bool) or not isinstance(v, int) for v in (atom, degree)):
        raise ValueError("a cut's atom and degree are integers")
    return Cut(
        str(data["kind"]), atom, tuple(parse_rational(p) for p in points), tuple(parse_rational(b) for b in bounds)
    )


def _q(value: Fraction) -> sp.Rational:
    return sp.Rational(value.numerator, value.denominator)
