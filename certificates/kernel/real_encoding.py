"""A real-valued claim as polynomial arithmetic that an SMT solver decides exactly.

Every non-polynomial subterm becomes a fresh variable (an *auxiliary*) bound by facts that are true
of its value:
- `p**(-k)`: r with r p^k = 1; `p**(a/q)`: r >= 0 with r^q = p^a (r^q p^|a| = 1 when a < 0); so
  `sqrt`, and through it `c_star`, `golden` and `beta_star`'s c*, are exact;
- `exp(a)`: an *exponential atom* e standing for exp(a); `log(a)`: l with exp(l) = a;
  `lambertw(a)`: w >= -1 with w exp(w) = a; `lambda_c(n, beta)`: r with r beta = u, u > 2 and
  (u - 2) exp(u) = (n - 1)(u + 2) (`identities.closed_forms.lambda_c_equation`); `abs(a)`: b >= 0 with
  b^2 = a^2; `pi` between two rationals.
The facts of a partial operation hold under its *guard*, the condition that it is defined
(`q != 0 => r q = 1`), so they can always be met: where an operation is undefined its auxiliary is
free. The guards of everything encoded for a goal are collected (`guards`): a goal proved together
with them is proved with both sides defined.

Exponential atoms are known through true facts only: e > 0, e >= 1 + a, exp increasing (against
exp(0) = 1 and between every pair: a_i < a_j iff e_i < e_j), exp(a + b) = exp(a) exp(b) where the
arguments of atoms add up exactly, and *cuts*, true by Taylor's theorem (T_k the Taylor polynomial of exp at 0,
of odd degree k, so that the remainder e^xi y^(k+1)/(k+1)! is >= 0):
- lower: e >= L T_k(a - t) for every a, given 0 < L <= exp(t) (where T_k(a - t) < 0 the bound is
  below 0 < e);
- upper: |a - t| <= r implies e <= U (T_k(a - t) + M (a - t)^(k+1)), given U >= exp(t) and
  M >= exp(r)/(k+1)!.
A cut is data (rationals and a degree) that `Cut.validate` checks with balls.

So `hypotheses, facts and cuts imply goal` only uses true facts about the real values: when its
negation is unsat, the goal holds at every point of the hypotheses. A model of the negation proves
nothing by itself (the facts about exp may be too weak there): it is a candidate to test exactly.

This module is part of the certificate checker: it is deterministic, encodes SymPy expressions built
by the claims-file parser (inert nodes of `certificates.kernel.inert`, which no SymPy evaluation has rewritten;
the ordinary SymPy classes are accepted too) and writes no solver text (`certificates.kernel.smtlib` does, from
trees). Nothing here asks SymPy for a sign: the only SymPy it runs is polynomial arithmetic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from certificates.kernel.exact import ball_of, precision
from certificates.kernel.exprtree import TreeError, formula_from_sympy, parse_rational, rational_text
from certificates.kernel.inert import Exp, Log, Pi, RealPower, Sqrt, W
from certificates.kernel.smtlib import MAX_CONSTANTS, MAX_POWER
from identities.closed_forms import lambda_c_equation

#: Rational bounds of pi (pi = 3.14159265358979323...).
PI_BOUNDS = (Fraction(314159265358979, 10**14), Fraction(314159265358980, 10**14))
#: Bits of precision used to validate a cut's rationals.
CUT_PRECISION = 256
#: Odd Taylor degrees a cut may use.
CUT_DEGREES = (1, 3, 5, 7, 9, 11, 13, 15)
#: At most this many cuts in a statement; a cut's point lies in [-MAX_CUT_POINT, MAX_CUT_POINT] (so that
#: exp of it, rounded to 80 bits, is a short rational).
MAX_CUTS = 200
MAX_CUT_POINT = Fraction(128)
#: Characters of one rational of a cut.
MAX_CUT_RATIONAL_CHARS = 200
#: At most this many exponential atoms (their monotonicity facts grow with the square).
MAX_EXPONENTIALS = 12
RELATIONS = {"<": sp.StrictLessThan, "<=": sp.LessThan, ">": sp.StrictGreaterThan, ">=": sp.GreaterThan, "=": sp.Eq}
#: `expr relation 0` of a definedness condition (`certificates.kernel.claims.conditions`) as a formula.
CONDITIONS = {"!=": sp.Ne, ">": sp.StrictGreaterThan, ">=": sp.GreaterThan}


@dataclass(frozen=True)
class SmtStatement:
    """`hypotheses => goal` for all real values of `symbols`, with a name and a sentence.

    `integers` (a subset of `symbols`) range over the integers instead (declared `Int`)."""

    name: str
    sentence: str
    symbols: tuple[sp.Symbol, ...]
    hypotheses: tuple[sp.Basic, ...]
    goal: sp.Basic
    integers: tuple[sp.Symbol, ...] = ()

    def tree(self) -> dict[str, Any]:
        """The statement as certificate data: constants, hypothesis and goal trees (and the integer
        constants, only when there are some, so that a statement over the reals has no such field)."""
        tree: dict[str, Any] = {
            "name": self.name,
            "constants": [s.name for s in self.symbols],
            "hypotheses": [formula_from_sympy(h) for h in self.hypotheses],
            "goal": formula_from_sympy(self.goal),
        }
        if self.integers:
            tree["integers"] = [s.name for s in self.integers]
        return tree


class NotEncodable(ValueError):
    """The expression has a node without a polynomial encoding (a symbolic exponent, an unknown function...)."""


class CutError(ValueError):
    """A cut that is malformed or not true (from a damaged or hostile certificate)."""


@dataclass(frozen=True)
class Exponential:
    """An exponential atom: `symbol` stands for exp(`argument`), the argument a polynomial."""

    symbol: sp.Symbol
    argument: sp.Expr


def taylor(y: sp.Expr, degree: int) -> sp.Expr:
    """T_k(y) = sum_{j <= k} y^j / j!, the Taylor polynomial of exp at 0."""
    return sp.Add(*[y**j / sp.factorial(j) for j in range(degree + 1)])


@dataclass(frozen=True)
class Cut:
    """A Taylor bound on one exponential atom at the point `at`: lower (`factor` <= exp(at)) or upper
    (`factor` >= exp(at), valid for |a - at| <= `radius`, with `remainder` >= exp(radius)/(degree + 1)!)."""

    kind: str
    atom: int
    degree: int
    at: Fraction
    factor: Fraction
    radius: Fraction = Fraction(0)
    remainder: Fraction = Fraction(0)

    def data(self) -> dict[str, object]:
        """The cut as certificate data (exact rational texts)."""
        data: dict[str, object] = {
            "kind": self.kind,
            "atom": self.atom,
            "degree": self.degree,
            "at": rational_text(self.at),
            "factor": rational_text(self.factor),
        }
        if self.kind == "upper":
            data |= {"radius": rational_text(self.radius), "remainder": rational_text(self.remainder)}
        return data

    @staticmethod
    def from_data(data: object) -> Cut:
        """A cut from certificate data; CutError when malformed (its truth is `validate`'s business)."""
        keys = {"kind", "atom", "degree", "at", "factor"}
        kind = data.get("kind") if isinstance(data, dict) else None
        if kind == "upper":
            keys |= {"radius", "remainder"}
        if not isinstance(data, dict) or kind not in ("lower", "upper") or set(data) != keys:
            raise CutError(
                f"a cut is lower {{atom, degree, at, factor}} or upper (also radius, remainder): {data!r:.80}"
            )
        atom, degree = data["atom"], data["degree"]
        if any(isinstance(v, bool) or not isinstance(v, int) for v in (atom, degree)):
            raise CutError("a cut's atom and degree are integers")
        texts = [data[key] for key in sorted(keys - {"kind", "atom", "degree"})]
        if any(not isinstance(text, str) or len(text) > MAX_CUT_RATIONAL_CHARS for text in texts):
            raise CutError(f"a cut's rationals are exact texts 'p/q' of at most {MAX_CUT_RATIONAL_CHARS} characters")
        try:
            values = {key: parse_rational(data[key]) for key in keys - {"kind", "atom", "degree"}}
        except TreeError as exc:
            raise CutError(str(exc)) from None
        return Cut(kind, atom, degree, **values)

    def validate(self, atoms: int) -> None:
        """CutError unless the cut is well formed for `atoms` atoms and its rationals bound exp as stated (balls)."""
        if self.kind not in ("lower", "upper") or not 0 <= self.atom < atoms:
            raise CutError(f"a {self.kind!r:.20} cut on atom {self.atom} (there are {atoms} exponential atoms)")
        if self.degree not in CUT_DEGREES:
            raise CutError(f"a cut's Taylor degree is one of {CUT_DEGREES}, not {self.degree}")
        if not -MAX_CUT_POINT <= self.at <= MAX_CUT_POINT:
            raise CutError(f"a cut's point lies in [-{MAX_CUT_POINT}, {MAX_CUT_POINT}]")
        with precision(CUT_PRECISION):
            exp_at = ball_of(self.at).exp()
            if self.kind == "lower":
                if not (self.factor > 0 and exp_at >= ball_of(self.factor)):
                    raise CutError(f"lower cut: {self.factor} is not in (0, exp({self.at})]")
                return
            if not 0 < self.radius <= 1:
                raise CutError("an upper cut's radius is in (0, 1]")
            if not exp_at <= ball_of(self.factor):
                raise CutError(f"upper cut: {self.factor} is not at least exp({self.at})")
            if not ball_of(self.radius).exp() / math.factorial(self.degree + 1) <= ball_of(self.remainder):
                raise CutError("upper cut: the remainder factor is below exp(radius)/(degree + 1)!")

    def fact(self, atom: Exponential) -> sp.Basic:
        """The polynomial fact the cut stands for (true once `validate` passed)."""
        y = atom.argument - _q(self.at)
        if self.kind == "lower":
            return atom.symbol >= _q(self.factor) * taylor(y, self.degree)
        inside = sp.And(atom.argument >= _q(self.at - self.radius), atom.argument <= _q(self.at + self.radius))
        bound = _q(self.factor) * (taylor(y, self.degree) + _q(self.remainder) * y ** (self.degree + 1))
        return sp.Implies(inside, atom.symbol <= bound)


@dataclass
class Encoding:
    """The variables and auxiliaries, the facts that bind the auxiliaries, the exponential atoms and the
    guards (definedness) of the partial operations encoded so far."""

    variables: tuple[sp.Symbol, ...]
    integers: tuple[sp.Symbol, ...] = ()
    auxiliaries: list[sp.Symbol] = field(default_factory=list)
    facts: list[sp.Basic] = field(default_factory=list)
    exponentials: list[Exponential] = field(default_factory=list)
    guards: list[sp.Basic] = field(default_factory=list)

    @property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        """Every constant of the statement: the variables, then the auxiliaries."""
        return (*self.variables, *self.auxiliaries)

    def exponential_facts(self) -> list[sp.Basic]:
        """For each atom: e > 0, e >= 1 + a, and e against exp(0) = 1 (a < 0 iff e < 1, a > 0 iff e > 1); for
        every pair, exp increasing (a_i < a_j iff e_i < e_j); and exp(a + b) = exp(a) exp(b) wherever the
        arguments of atoms add up exactly (e_i e_j = 1 when a_i + a_j = 0, e_i e_j = e_k when a_i + a_j = a_k)."""
        atoms = self.exponentials
        facts: list[sp.Basic] = []
        for atom in atoms:
            a, e = atom.argument, atom.symbol
            facts += [e > 0, e >= 1 + a, sp.Equivalent(a < 0, e < 1), sp.Equivalent(a > 0, e > 1)]
        for i, first in enumerate(atoms):
            for second in atoms[i + 1 :]:
                a, b, ea, eb = first.argument, second.argument, first.symbol, second.symbol
                facts += [sp.Equivalent(a < b, ea < eb), sp.Equivalent(b < a, eb < ea)]
        for i, first in enumerate(atoms):
            for second in atoms[i:]:
                total = sp.expand(first.argument + second.argument)
                product = first.symbol * second.symbol
                if total == 0:
                    facts.append(sp.Eq(product, 1))
                facts += [sp.Eq(product, sum_.symbol) for sum_ in atoms if sp.expand(sum_.argument) == total]
        return facts

    def statement(
        self, name: str, sentence: str, hypotheses: Sequence[sp.Basic], goal: sp.Basic, cuts: Sequence[Cut] = ()
    ) -> SmtStatement:
        """`hypotheses, facts and cuts imply goal` over every variable and auxiliary; CutError for a bad cut."""
        if len(cuts) > MAX_CUTS:
            raise CutError(f"at most {MAX_CUTS} cuts")
        for cut in cuts:
            cut.validate(len(self.exponentials))
        if len(self.symbols) > MAX_CONSTANTS:
            raise NotEncodable(f"more than {MAX_CONSTANTS} variables and auxiliaries")
        facts = [*hypotheses, *self.facts, *self.exponential_facts()]
        facts += [cut.fact(self.exponentials[cut.atom]) for cut in cuts]
        facts = [fact for fact in facts if fact is not sp.true]
        return SmtStatement(name, sentence, self.symbols, tuple(facts), goal, self.integers)


class Encoder:
    """Encodes expressions over the variables, sharing auxiliaries between equal subterms.

    Each variable is replaced by a symbol of the same name that is only real (or integer, for those in
    `integers`): what its domain says must be stated as hypotheses, where the solver sees it, not
    assumed by SymPy (`x >= 0` of a nonnegative symbol would turn into True and vanish).
    `lambda_c` is the SymPy function class that stands for lambda_c(n, beta) (the claims-file reader's),
    encoded by its defining equation."""

    def __init__(
        self, variables: Sequence[sp.Symbol], integers: Sequence[sp.Symbol] = (), lambda_c: type | None = None
    ) -> None:
        self._plain = {
            v: sp.Symbol(v.name, integer=True) if v in integers else sp.Symbol(v.name, real=True) for v in variables
        }
        self.encoding = Encoding(tuple(self._plain.values()), tuple(self._plain[v] for v in integers))
        taken = {v.name for v in variables}
        prefix = "aux"
        while any(name.startswith(prefix) for name in taken):
            prefix += "x"
        self._prefix = prefix
        self._lambda_c = lambda_c
        self._memo: dict[sp.Basic, sp.Expr] = {}

    def relation(self, lhs: sp.Expr, op: str, rhs: sp.Expr) -> sp.Basic:
        """`lhs op rhs` as a polynomial relation (op one of < <= > >= =)."""
        if op not in RELATIONS:
            raise NotEncodable(f"relation {op!r}")
        return RELATIONS[op](self.term(lhs), self.term(rhs))

    def condition(self, expr: sp.Expr, relation: str) -> sp.Basic:
        """A definedness condition `expr relation 0` (relation != > >=) as a polynomial formula."""
        if relation not in CONDITIONS:
            raise NotEncodable(f"condition relation {relation!r}")
        return CONDITIONS[relation](self.term(expr), 0)

    def term(self, expr: sp.Expr) -> sp.Expr:
        """A polynomial standing for `expr` (auxiliaries added to the encoding as needed)."""
        if not isinstance(expr, sp.Expr):
            raise NotEncodable(f"not a SymPy expression: {type(expr).__name__}")
        if expr not in self._memo:
            self._memo[expr] = self._encode(expr)
        return self._memo[expr]

    def _fresh(self) -> sp.Symbol:
        symbol = sp.Symbol(f"{self._prefix}{len(self.encoding.auxiliaries)}", real=True)
        self.encoding.auxiliaries.append(symbol)
        return symbol

    def _partial(self, guard: sp.Basic, *facts: sp.Basic) -> None:
        """Facts that hold where the operation is defined, and the guard that says where."""
        self.encoding.guards.append(guard)
        self.encoding.facts.append(sp.Implies(guard, sp.And(*facts)))

    def _exponential(self, argument: sp.Expr) -> sp.Symbol:
        for atom in self.encoding.exponentials:
            if atom.argument == argument:
                return atom.symbol
        if len(self.encoding.exponentials) >= MAX_EXPONENTIALS:
            raise NotEncodable(f"more than {MAX_EXPONENTIALS} different exponentials")
        e = self._fresh()
        self.encoding.exponentials.append(Exponential(e, argument))
        return e

    def _encode(self, expr: sp.Expr) -> sp.Expr:
        if expr.is_Rational:
            return expr
        if expr.is_Symbol:
            if expr not in self._plain:
                raise NotEncodable(f"unknown symbol {expr}")
            return self._plain[expr]
        if expr is sp.E:
            return self._exponential(sp.Integer(1))
        if expr is sp.pi or isinstance(expr, Pi):
            p = self._fresh()
            self.encoding.facts += [p >= _q(PI_BOUNDS[0]), p <= _q(PI_BOUNDS[1])]
            return p
        if isinstance(expr, sp.Add):
            return sp.Add(*[self.term(a) for a in expr.args])
        if isinstance(expr, sp.Mul):
            return sp.Mul(*[self.term(a) for a in expr.args])
        if isinstance(expr, sp.Pow | RealPower):
            return self._power(self.term(expr.args[0]), expr.args[1])
        if isinstance(expr, Sqrt):
            return self._power(self.term(expr.args[0]), sp.Rational(1, 2))
        if isinstance(expr, sp.exp | Exp):
            return self._exponential(self.term(expr.args[0]))
        if isinstance(expr, sp.log | Log) and len(expr.args) == 1:
            argument, value = self.term(expr.args[0]), self._fresh()
            self._partial(argument > 0, sp.Eq(self._exponential(value), argument))
            return value
        if isinstance(expr, sp.LambertW | W) and len(expr.args) == 1:
            argument, w = self.term(expr.args[0]), self._fresh()
            self._partial(
                argument + self._exponential(sp.Integer(-1)) >= 0, w >= -1, sp.Eq(w * self._exponential(w), argument)
            )
            return w
        if isinstance(expr, sp.Abs):
            argument, b = self.term(expr.args[0]), self._fresh()
            self.encoding.facts += [b >= 0, sp.Eq(b**2, argument**2)]
            return b
        if self._lambda_c is not None and isinstance(expr, self._lambda_c) and len(expr.args) == 2:
            tokens, inverse_temperature = (self.term(a) for a in expr.args)
            u, value = self._fresh(), self._fresh()
            root = lambda_c_equation(u, tokens).replace(sp.exp, self._exponential)
            guard = sp.And(tokens - 1 > 0, inverse_temperature > 0)
            self._partial(guard, u > 2, sp.Eq(root, 0), sp.Eq(value * inverse_temperature, u))
            return value
        raise NotEncodable(f"no polynomial encoding of {type(expr).__name__}")

    def _power(self, base: sp.Expr, exponent: sp.Expr) -> sp.Expr:
        if not exponent.is_Rational or abs(exponent.p) > MAX_POWER or exponent.q > MAX_POWER:
            raise NotEncodable(f"power with exponent {exponent} (rationals with terms up to {MAX_POWER} only)")
        p, q = int(exponent.p), int(exponent.q)
        if q == 1 and p >= 0:
            return base**p
        r = self._fresh()
        if q == 1:
            self._partial(sp.Ne(base, 0), sp.Eq(r * base ** (-p), 1))
        elif p > 0:
            self._partial(base >= 0, r >= 0, sp.Eq(r**q, base**p))
        else:
            self._partial(base > 0, r > 0, sp.Eq(r**q * base ** (-p), 1))
        return r


def _q(value: Fraction | int) -> sp.Rational:
    value = Fraction(value)
    return sp.Rational(value.numerator, value.denominator)
