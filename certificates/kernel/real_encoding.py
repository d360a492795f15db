"""A statement of form `real` (`certificates.kernel.real_statements`) as polynomial arithmetic that an SMT solver
decides exactly, built from the statement's trees alone (no SymPy).

Every non-polynomial subterm becomes a fresh constant (an *auxiliary*, `aux0`, `aux1`, ...) bound by facts that are
true of its value:
- `p**(-k)` and `a/p`: r with r p^k = 1; `p**(a/q)`: r >= 0 with r^q = p^a (r > 0 with r^q p^|a| = 1 when a < 0);
  `sqrt` likewise, so the named functions (`c_star`, `golden`, ..., written out by `exprtree.expand`) are exact;
- `exp(a)`: an *exponential atom* e standing for exp(a); `log(a)`: l with exp(l) = a;
  `lambertw(a)`: w >= -1 with w exp(w) = a; `lambda_c(n, beta)`: r with r beta = u, u > 2 and
  (u - 2) exp(u) = (n - 1)(u + 2) (for n > 1 this equation has one root above 2: it is negative at 2 and convex);
  `pi` between two rationals.
The facts of a partial operation hold under its *guard*, the condition that it is defined (`q != 0 => r q = 1`), so
they can always be met: where an operation is undefined its auxiliary is free. The guards of the two sides and of the
definedness conditions are part of the goal: a goal proved with them is proved with both sides defined.

Exponential atoms are known through true facts only: e > 0, e >= 1 + a, exp increasing (against exp(0) = 1 and
between every pair: a_i < a_j iff e_i < e_j), exp(a + b) = exp(a) exp(b) where the arguments of atoms add up
(decided by an exact identity of polynomials, python-flint's fmpq_mpoly), and *cuts*, true by Taylor's theorem
(T_k the Taylor polynomial of exp at 0, of odd degree k, so that the remainder e^xi y^(k+1)/(k+1)! is >= 0):
- lower: e >= L T_k(a - t) for every a, given 0 < L <= exp(t) (where T_k(a - t) < 0 the bound is below 0 < e);
- upper: |a - t| <= r implies e <= U (T_k(a - t) + M (a - t)^(k+1)), given U >= exp(t) and M >= exp(r)/(k+1)!.
A cut is data (rationals and a degree, the atom by its index in the order the encoder meets them) that
`Cut.validate` checks with balls.

So `domain, facts and cuts imply goal` only uses true facts about the real values: when its negation is unsat,
both sides are defined and the relation holds at every point of the domain. A model of the negation proves nothing by
itself (the facts about exp may be too weak there). The prover (`certificates.provers.smt_refinement`) and the
kernel call the same `encode`, so the atoms' numbering and the text agree; the text is printed by `smtlib`, the
printer of every SMT obligation the kernel runs.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce
from typing import Any

from flint import fmpq, fmpq_mpoly, fmpq_mpoly_ctx

from certificates.kernel import recheck, smtlib
from certificates.kernel.exact import ball_of, precision
from certificates.kernel.exprtree import NAMED, Tree, TreeError, exact_rational, expand, fold, parse_rational, takes
from certificates.kernel.exprtree import rational_text as _text
from certificates.kernel.recheck import Rejected

#: Rational bounds of pi (pi = 3.14159265358979323...).
PI_BOUNDS = (Fraction(314159265358979, 10**14), Fraction(314159265358980, 10**14))
#: Bits of precision used to validate a cut's rationals.
CUT_PRECISION = 256
#: Odd Taylor degrees a cut may use.
CUT_DEGREES = (1, 3, 5, 7, 9, 11, 13, 15)
#: At most this many cuts; a cut's point lies in [-MAX_CUT_POINT, MAX_CUT_POINT].
MAX_CUTS = 200
MAX_CUT_POINT = Fraction(128)
#: Characters of one rational of a cut.
MAX_CUT_RATIONAL_CHARS = 200
#: At most this many exponential atoms (their monotonicity facts grow with the square).
MAX_EXPONENTIALS = 12
#: Terms of an expanded polynomial (`polynomial`): a larger one is not compared.
MAX_TERMS = 2_000
#: Bits of a coefficient of an expanded polynomial: nested powers of constants grow them geometrically (a hostile
#: ((10 x)^64)^64... of a few nodes would take the checker hours), so a larger one is not compared.
MAX_COEFFICIENT_BITS = 65_536
ZERO, ONE, MINUS_ONE = ["rat", "0"], ["rat", "1"], ["rat", "-1"]
#: A definedness condition `expr relation 0` as a formula over the encoded expression.
CONDITIONS = {"!=": lambda t: ["not", ["=", t, ZERO]], ">": lambda t: [">", t, ZERO], ">=": lambda t: [">=", t, ZERO]}
#: The nodes written in other nodes before they are encoded: -a, a - b, a / b, sqrt(a).
SHAPES = {
    "neg": lambda a: ["mul", MINUS_ONE, a],
    "sub": lambda a, b: ["add", a, ["mul", MINUS_ONE, b]],
    "div": lambda a, b: ["mul", a, ["pow", b, -1]],
    "sqrt": lambda a: ["rpow", a, ["rat", "1/2"]],
}


class NotEncodable(Rejected):
    """The statement has a node without a polynomial encoding (a symbolic exponent, an unknown function...)."""


class CutError(Rejected):
    """A cut that is malformed or not true (from a damaged or hostile certificate)."""


def polynomial(tree: Tree, names: tuple[str, ...]) -> fmpq_mpoly | None:
    """The exact polynomial over `names` of a tree of `+ - *`, integer powers 0..MAX_POWER, rationals and those
    names; None for any other node or beyond MAX_TERMS terms."""
    context = fmpq_mpoly_ctx.get(names or ("_",))
    generators = dict(zip(names, context.gens(), strict=True))

    def power(base: fmpq_mpoly, k: int) -> fmpq_mpoly:
        if not 0 <= k <= smtlib.MAX_POWER:
            raise OverflowError(f"power {k}")
        return reduce(_times, [base] * k, context.constant(1))

    rules = {
        "rat": lambda q: context.constant(fmpq(q.numerator, q.denominator)),
        "sym": lambda name: generators[name],
        "add": lambda *parts: sum(parts[1:], parts[0]),
        "sub": lambda a, b: a - b,
        "neg": lambda a: -a,
        "mul": lambda *parts: reduce(_times, parts),
        "pow": power,
    }
    try:
        return fold(tree, rules)
    except (TreeError, KeyError, OverflowError):
        return None


def _times(p: fmpq_mpoly, q: fmpq_mpoly) -> fmpq_mpoly:
    if len(p) * len(q) > MAX_TERMS:
        raise OverflowError(f"a product of more than {MAX_TERMS} terms")
    if _bits(p) + _bits(q) + MAX_TERMS.bit_length() > MAX_COEFFICIENT_BITS:
        raise OverflowError(f"a product with coefficients of more than {MAX_COEFFICIENT_BITS} bits")
    return p * q


def _bits(p: fmpq_mpoly) -> int:
    """The most bits of a coefficient's numerator and denominator together."""
    return max((c.numer().bit_length() + c.denom().bit_length() for c in p.coeffs()), default=0)


def taylor(y: Tree, degree: int) -> Tree:
    """T_k(y) = sum_{j <= k} y^j / j!, the Taylor polynomial of exp at 0."""
    terms = [ONE, y] + [["mul", ["rat", f"1/{math.factorial(j)}"], ["pow", y, j]] for j in range(2, degree + 1)]
    return ["add", *terms[: degree + 1]]


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

    @staticmethod
    def from_data(data: object) -> Cut:
        """A cut from certificate data; Rejected when malformed (its truth is `validate`'s business)."""
        if not isinstance(data, dict) or data.get("kind") not in ("lower", "upper"):
            raise CutError(f"a cut is lower or upper: {data!r:.80}")
        rationals = ("at", "factor", "radius", "remainder") if data["kind"] == "upper" else ("at", "factor")
        recheck.require_keys(data, {"kind", "atom", "degree", *rationals}, f"a {data['kind']} cut")
        texts = {key: data[key] for key in rationals}
        if not recheck.natural(data["atom"]) or not recheck.natural(data["degree"]):
            raise CutError("a cut's atom and degree are integers")
        if any(not isinstance(text, str) or len(text) > MAX_CUT_RATIONAL_CHARS for text in texts.values()):
            raise CutError(f"a cut's rationals are exact texts 'p/q' of at most {MAX_CUT_RATIONAL_CHARS} characters")
        return Cut(data["kind"], data["atom"], data["degree"], **recheck.rational_map(texts, "a cut"))

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

    def fact(self, atom: Tree, argument: Tree) -> Tree:
        """The polynomial fact the cut stands for on the atom `atom` = exp(`argument`) (true once `validate` passed)."""
        y = ["add", argument, _rat(-self.at)]
        if self.kind == "lower":
            return [">=", atom, ["mul", _rat(self.factor), taylor(y, self.degree)]]
        inside = ["and", [">=", argument, _rat(self.at - self.radius)], ["<=", argument, _rat(self.at + self.radius)]]
        remainder = ["mul", _rat(self.remainder), ["pow", y, self.degree + 1]]
        return ["implies", inside, ["<=", atom, ["mul", _rat(self.factor), ["add", taylor(y, self.degree), remainder]]]]


def encode(statement: dict[str, Any]) -> Encoding:
    """The encoding of a statement of a relation (read by `real_statements.read_region` first): its sides and
    definedness conditions as the goal, then its bounds as hypotheses (their own guards are not goals);
    NotEncodable when a node has no polynomial encoding."""
    encoding = Encoding(statement["variables"])
    relation = [statement["op"], encoding.term(statement["lhs"]), encoding.term(statement["rhs"])]
    conditions = [CONDITIONS[c["relation"]](encoding.term(c["expression"])) for c in statement["conditions"]]
    encoding.goal = ["and", *encoding.guards, *conditions, relation]
    encoding.hypotheses = bound_facts(statement["variables"], encoding.term)
    return encoding


def bound_facts(variables: list[dict[str, Any]], term: Callable[[Tree], Tree]) -> list[Tree]:
    """`x >= low`, `x < high`, ... for the bounds of the statement's variables, each bound written by `term`."""
    facts = []
    for variable in variables:
        for end, strict, loose in (("low", ">", ">="), ("high", "<", "<=")):
            if variable[end] is not None:
                relation = strict if variable[f"{end}_open"] else loose
                facts.append([relation, ["sym", variable["name"]], term(variable[end])])
    return facts


class Encoding:
    """The constants (variables, then auxiliaries), the domain's hypotheses, the facts binding the auxiliaries, the
    exponential atoms (auxiliary name, argument polynomial) and the goal `guards and conditions and relation`; it
    encodes trees over the variables (`term`), sharing auxiliaries between equal subterms."""

    def __init__(self, variables: list[dict[str, Any]]) -> None:
        self.variables = [v["name"] for v in variables]
        self.integers = [v["name"] for v in variables if v["integer"]]
        self.auxiliaries: list[str] = []
        self.hypotheses: list[Tree] = []
        self.facts: list[Tree] = []
        self.exponentials: list[tuple[str, Tree]] = []
        self.guards: list[Tree] = []
        self.goal: Tree = ["true"]
        self._prefix = "aux"
        while any(name.startswith(self._prefix) for name in self.variables):
            self._prefix += "x"
        self._memo: dict[str, Tree] = {}

    @property
    def constants(self) -> list[str]:
        """Every constant of the problem: the variables, then the auxiliaries."""
        return [*self.variables, *self.auxiliaries]

    def exponential_facts(self) -> list[Tree]:
        """For each atom: e > 0, e >= 1 + a, and e against exp(0) = 1; for every pair, exp increasing; and
        exp(a + b) = exp(a) exp(b) wherever the arguments of atoms add up exactly (e_i e_j = 1 when a_i + a_j = 0,
        e_i e_j = e_k when a_i + a_j = a_k)."""
        atoms = [(["sym", name], argument) for name, argument in self.exponentials]
        facts: list[Tree] = []
        for e, a in atoms:
            facts += [[">", e, ZERO], [">=", e, ["add", ONE, a]]]
            facts += [["iff", ["<", a, ZERO], ["<", e, ONE]], ["iff", [">", a, ZERO], [">", e, ONE]]]
        for i, (ea, a) in enumerate(atoms):
            for eb, b in atoms[i + 1 :]:
                facts += [["iff", ["<", a, b], ["<", ea, eb]], ["iff", ["<", b, a], ["<", eb, ea]]]
        for i, (ea, a) in enumerate(atoms):
            for eb, b in atoms[i:]:
                facts += [
                    ["=", ["mul", ea, eb], ec] for ec, c in [(ONE, ZERO), *atoms] if self._equal(["add", a, b], c)
                ]
        return facts

    def problem(self, cuts: list[Cut]) -> str:
        """The SMT-LIB2 text of `domain, facts and cuts imply goal` (`smtlib.problem_text`); CutError for a bad cut,
        NotEncodable for a problem that is not one (no unknowns, too large)."""
        for cut in cuts:
            cut.validate(len(self.exponentials))
        facts = [*self.hypotheses, *self.facts, *self.exponential_facts()]
        facts += [cut.fact(["sym", self.exponentials[cut.atom][0]], self.exponentials[cut.atom][1]) for cut in cuts]
        try:
            return smtlib.problem_text(self.constants, facts, self.goal, self.integers)
        except (smtlib.SmtTextError, TreeError) as exc:
            raise NotEncodable(str(exc)) from None

    def term(self, tree: Tree) -> Tree:
        """A polynomial tree standing for `tree` (auxiliaries added as needed)."""
        key = json.dumps(tree)
        if key not in self._memo:
            self._memo[key] = self._encode(tree)
        return self._memo[key]

    def _equal(self, a: Tree, b: Tree) -> bool:
        """a = b as polynomials over the constants (exactly; False when either is not compared)."""
        difference = polynomial(["sub", a, b], tuple(self.constants))
        return difference is not None and difference == 0

    def _fresh(self) -> Tree:
        name = f"{self._prefix}{len(self.auxiliaries)}"
        self.auxiliaries.append(name)
        return ["sym", name]

    def _partial(self, guard: Tree, *facts: Tree) -> None:
        """Facts that hold where the operation is defined, and the guard that says where."""
        self.guards.append(guard)
        self.facts.append(["implies", guard, ["and", *facts]])

    def _exponential(self, argument: Tree) -> Tree:
        for name, known in self.exponentials:
            if self._equal(known, argument):
                return ["sym", name]
        if len(self.exponentials) >= MAX_EXPONENTIALS:
            raise NotEncodable(f"more than {MAX_EXPONENTIALS} different exponentials")
        e = self._fresh()
        self.exponentials.append((e[1], argument))
        return e

    def _encode(self, tree: Tree) -> Tree:
        op, args = tree[0], tree[1:]
        if op == "rat" or (op == "sym" and args[0] in self.variables):
            return tree
        if (constant := exact_rational(tree, {})) is not None:  # arithmetic on numbers alone (10**100): its value
            with suppress(TreeError):  # unless its text is too long for a tree (then encoded as it is)
                return _rat(constant)
        if op == "pi" and not args:
            p = self._fresh()
            self.facts += [[">=", p, _rat(PI_BOUNDS[0])], ["<=", p, _rat(PI_BOUNDS[1])]]
            return p
        if op in SHAPES and takes(op, len(args)):
            return self.term(SHAPES[op](*args))
        if op in NAMED and len(args) == len(NAMED[op]):
            return self.term(expand(tree))
        if op in ("add", "mul") and args:
            return [op, *[self.term(a) for a in args]]
        if op == "pow" and len(args) == 2 and type(args[1]) is int:
            return self._power(self.term(args[0]), Fraction(args[1]))
        if op == "rpow" and len(args) == 2 and isinstance(args[1], list) and args[1][0] == "rat":
            return self._power(self.term(args[0]), parse_rational(args[1][1]))
        if op == "exp" and len(args) == 1:
            return self._exponential(self.term(args[0]))
        if op == "log" and len(args) == 1:
            argument, value = self.term(args[0]), self._fresh()
            self._partial([">", argument, ZERO], ["=", self._exponential(value), argument])
            return value
        if op == "lambertw" and len(args) == 1:
            argument, w = self.term(args[0]), self._fresh()
            guard = [">=", ["add", argument, self._exponential(MINUS_ONE)], ZERO]
            self._partial(guard, [">=", w, MINUS_ONE], ["=", ["mul", w, self._exponential(w)], argument])
            return w
        if op == "lambda_c" and len(args) == 2:
            tokens, inverse_temperature = self.term(args[0]), self.term(args[1])
            u, value = self._fresh(), self._fresh()
            root = ["add", ["mul", ["add", u, ["rat", "-2"]], self._exponential(u)],
                    ["mul", MINUS_ONE, ["add", tokens, MINUS_ONE], ["add", u, ["rat", "2"]]]]  # fmt: skip
            guard = ["and", [">", ["add", tokens, MINUS_ONE], ZERO], [">", inverse_temperature, ZERO]]
            self._partial(
                guard, [">", u, ["rat", "2"]], ["=", root, ZERO], ["=", ["mul", value, inverse_temperature], u]
            )
            return value
        raise NotEncodable(f"no polynomial encoding of a {str(op)[:20]!r} node")

    def _power(self, base: Tree, exponent: Fraction) -> Tree:
        p, q = exponent.numerator, exponent.denominator
        if abs(p) > smtlib.MAX_POWER or q > smtlib.MAX_POWER:
            raise NotEncodable(f"power with exponent {exponent} (rationals with terms up to {smtlib.MAX_POWER} only)")
        if q == 1 and p >= 0:
            return ONE if p == 0 else base if p == 1 else ["pow", base, p]
        r = self._fresh()
        if q == 1:
            self._partial(["not", ["=", base, ZERO]], ["=", ["mul", r, ["pow", base, -p]], ONE])
        elif p > 0:
            self._partial([">=", base, ZERO], [">=", r, ZERO], ["=", ["pow", r, q], ["pow", base, p]])
        else:
            self._partial([">", base, ZERO], [">", r, ZERO], ["=", ["mul", ["pow", r, q], ["pow", base, -p]], ONE])
        return r


def _rat(value: Fraction) -> Tree:
    return ["rat", _text(value)]
