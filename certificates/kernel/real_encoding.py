"""A statement of form `real` (`certificates.kernel.real_statements`) as polynomial arithmetic that an SMT solver
decides exactly, built from the statement's trees alone (no SymPy).

Every non-polynomial subterm becomes a fresh constant (an *auxiliary*, `aux0`, `aux1`, ... with as many `x`s after
`aux` as the longest variable's name has characters, so that it is no variable's name) bound by facts that are true
of its value:
- `p**(-k)` and `a/p`: r with r p^k = 1; `p**(a/q)`: r >= 0 with r^q = p^a (r > 0 with r^q p^|a| = 1 when a < 0);
  `sqrt` likewise, so the named functions (`c_star`, `golden`, ..., written out by `exprtree.expand`) are exact;
- `exp(a)`: an *exponential atom* e standing for exp(a); `log(a)`: l with exp(l) = a; `b**q` with q not a rational:
  exp(q log(b)) (defined for b > 0, as `exprtree` evaluates it);
  `lambertw(a)`: w >= -1 with w exp(w) = a; `lambda_c(n, beta)`: r with r beta = u, u > 2 and
  (u - 2) exp(u) = (n - 1)(u + 2) (for n > 1 this equation has one root above 2: it is negative at 2 and convex);
  `lambda_max(n, beta)` = (1 + W((n - 1)/e))/beta, defined for n >= 0 and beta != 0: r with r beta = u, u >= 0 and
  (u - 1) exp(u) = n - 1 (u - 1 = W and W e^W = (n - 1)/e), not its closed form, whose atom exp(W) is unrelated
  to exp(beta l) for l near lambda_max (`l >= lambda_max(n, beta)` gives beta l >= u: exp(beta l) >= exp(u));
  `pi` between two rationals.
The facts of a partial operation hold under its *guard*, the condition that it is defined (`q != 0 => r q = 1`), so
they can always be met: where an operation is undefined its auxiliary is free. The guards of the two sides and of the
definedness conditions are part of the goal: a goal proved with them is proved with both sides defined.

Exponential atoms, one per encoded argument (written alike: arguments equal only as polynomials get two atoms, which
the facts make equal), are known through true facts only: e > 0, e >= 1 + a, exp increasing (against exp(0) = 1 and
between every pair: a_i < a_j iff e_i < e_j), and the payload's *cuts*, data (rationals, a degree, atoms by their
index in the order the encoder meets them) that `cut_fact` turns into a fact true for every value of the constants,
so that the kernel checks each without deciding which ones a proof needs:
- product `[i, j, k]`: a_i + a_j = a_k implies e_i e_j = e_k (`[i, j]`: a_i + a_j = 0 implies e_i e_j = 1);
- power, 2 to 4 atoms and their exponents, integers q_m != 0: sum q_m a_m <= 0 iff the product of the e_m^q_m with
  q_m > 0 is <= that of the e_m^(-q_m) with q_m < 0 (exp of the sum is the product's ratio, exp increasing): with
  [1, -1, -1] and [-1, 1, 1] on logarithms, log(x y) = log x + log y;
- lower at t, of odd degree k, factor L with 0 < L <= exp(t) (balls): e >= L T_k(a - t), T_k the Taylor polynomial
  of exp at 0, below exp by Taylor's theorem (the remainder e^xi y^(k+1)/(k+1)! is >= 0; where L T_k(a - t) < 0
  the bound is below 0 < e);
- upper, the same data: e L T_k(-a - t) <= 1, the lower cut of exp(-a) times e = 1/exp(-a) > 0;
- reals: no fact; the integer variables are declared real (the integers of the domain are among its reals, so a proof
  for every real value proves the statement; cvc5's integer arithmetic may not close what its real arithmetic does).

So `domain, facts and cuts imply goal` only uses true facts about the real values: when its negation is unsat,
both sides are defined and the relation holds at every point of the domain. A model of the negation proves nothing by
itself (the facts about exp may be too weak there). The prover (`certificates.provers.smt_refinement`, which chooses
the cuts) and the kernel make the same `Encoding`, so the atoms' numbering and the text agree; the text is printed by
`smtlib`, the printer of every SMT obligation the kernel runs.
"""

import json
import math
from collections.abc import Callable
from contextlib import suppress
from fractions import Fraction
from typing import Any

from . import recheck, smtlib
from .exact import ball_of, precision
from .exprtree import NAMED, Tree, TreeError, exact_rational, expand, parse_rational, rational_tree as _rat, takes
from .recheck import Rejected

#: Rational bounds of pi (pi = 3.14159265358979323...).
PI_BOUNDS = (Fraction(314159265358979, 10**14), Fraction(314159265358980, 10**14))
#: Bits of precision used to validate a cut's rationals.
CUT_PRECISION = 256
#: Odd Taylor degrees a cut may use.
CUT_DEGREES = (1, 3, 5, 7, 9, 11, 13, 15)
#: At most this many cuts; a cut's point lies in [-MAX_CUT_POINT, MAX_CUT_POINT].
MAX_CUTS, MAX_CUT_POINT = 200, Fraction(128)
#: Characters of one rational of a cut (reduced, as printed in the problem).
MAX_CUT_RATIONAL_CHARS = 200
#: At most this many exponential atoms (their monotonicity facts grow with the square).
MAX_EXPONENTIALS = 12
#: The fields of a cut, by kind.
TAYLOR_KEYS = frozenset({"kind", "atom", "degree", "at", "factor"})
CUT_KEYS = {"product": frozenset({"kind", "atoms"}), "lower": TAYLOR_KEYS, "upper": TAYLOR_KEYS}
CUT_KEYS |= {"power": frozenset({"kind", "atoms", "exponents"}), "reals": frozenset({"kind"})}
#: The cut that declares the integer variables real.
REALS = {"kind": "reals"}
ZERO, ONE, MINUS_ONE = ["rat", "0"], ["rat", "1"], ["rat", "-1"]
#: A definedness condition `expr relation 0` as a formula over the encoded expression.
CONDITIONS = {"!=": lambda t: ["not", ["=", t, ZERO]], ">": lambda t: [">", t, ZERO], ">=": lambda t: [">=", t, ZERO]}
#: The nodes written in other nodes before they are encoded: -a, a - b, a / b, sqrt(a).
SHAPES = {"neg": lambda a: ["mul", MINUS_ONE, a], "sub": lambda a, b: ["add", a, ["mul", MINUS_ONE, b]]}
SHAPES |= {"div": lambda a, b: ["mul", a, ["pow", b, -1]], "sqrt": lambda a: ["rpow", a, ["rat", "1/2"]]}


class NotEncodable(Rejected):
    """The statement has a node without a polynomial encoding (a symbolic exponent, an unknown function...)."""


class CutError(Rejected):
    """A cut that is malformed or not true (from a damaged or hostile certificate)."""


def taylor(y: Tree, degree: int) -> Tree:
    """T_k(y) = sum_{j <= k} y^j / j!, the Taylor polynomial of exp at 0 (k >= 1)."""
    return ["add", ONE, y, *(["mul", ["rat", f"1/{math.factorial(j)}"], ["pow", y, j]] for j in range(2, degree + 1))]


def cut_fact(data: object, atoms: list[tuple[Tree, Tree]]) -> Tree:
    """The fact a cut (the module's docstring) states on the exponential atoms, given as (atom, argument); CutError
    when the data is malformed or a factor is not shown in (0, exp(t)] with balls."""
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind not in CUT_KEYS:
        raise CutError(f"a cut is lower, upper or a product: {data!r:.80}")
    recheck.require_keys(data, CUT_KEYS[kind], f"a {kind} cut")
    if kind == "reals":  # no fact: the integer variables are declared real (`Encoding.problem`)
        return ["true"]
    if kind == "product":
        indices = recheck.require_list(data["atoms"], 3, "a product cut's atoms", 2)  # type: ignore[index]
        if not all(recheck.natural(i, 0, len(atoms) - 1) for i in indices):
            raise CutError(f"a product cut names 2 or 3 exponential atoms by their index (there are {len(atoms)})")
        (ea, a), (eb, b), (ec, c) = [*(atoms[i] for i in indices), (ONE, ZERO)][:3]
        return ["implies", ["=", ["add", a, b], c], ["=", ["mul", ea, eb], ec]]
    if kind == "power":  # sum q_m a_m <= 0 iff the e_m^q_m with q_m > 0 <= those with q_m < 0 (exp(sum) = product)
        indices = recheck.require_list(data["atoms"], 4, "a power cut's atoms", 2)  # type: ignore[index]
        exponents = recheck.require_list(data["exponents"], 4, "a power cut's exponents", 2)  # type: ignore[index]
        named = all(recheck.natural(i, 0, len(atoms) - 1) for i in indices) and len(set(indices)) == len(indices)
        if not named or len(exponents) != len(indices) or not all(recheck.natural(q, -9, 9) and q for q in exponents):
            raise CutError(f"a power cut names 2 to 4 of the {len(atoms)} atoms, each with an exponent +-1..9")
        terms = [(atoms[i], q) for i, q in zip(indices, exponents, strict=True)]
        powers = [[["pow", e, s * q] for (e, _), q in terms if s * q > 0] for s in (1, -1)]
        sides = [["mul", ONE, *p] if p else ONE for p in powers]
        return ["iff", ["<=", ["add", *(["mul", _rat(q), a] for (_, a), q in terms)], ZERO], ["<=", *sides]]
    atom, degree = data["atom"], data["degree"]  # type: ignore[index]
    if not recheck.natural(atom, 0, len(atoms) - 1) or not recheck.natural(degree) or degree not in CUT_DEGREES:
        raise CutError(f"a cut names one of the {len(atoms)} exponential atoms and a degree in {CUT_DEGREES}")
    at, factor = recheck.rational_map({key: data[key] for key in ("at", "factor")}, "a cut").values()  # type: ignore[index]
    if not -MAX_CUT_POINT <= at <= MAX_CUT_POINT or max(len(str(at)), len(str(factor))) > MAX_CUT_RATIONAL_CHARS:
        raise CutError(f"a cut's point lies in [-{MAX_CUT_POINT}, {MAX_CUT_POINT}], its rationals are short texts")
    with precision(CUT_PRECISION):
        if not (factor > 0 and ball_of(at).exp() >= ball_of(factor)):
            raise CutError(f"{kind} cut: {factor} is not in (0, exp({at})]")
    e, argument = atoms[atom]
    side = ["mul", ONE if kind == "lower" else MINUS_ONE, argument]
    bound = ["mul", _rat(factor), taylor(["add", side, _rat(-at)], degree)]
    return [">=", e, bound] if kind == "lower" else ["<=", ["mul", e, bound], ONE]


def bound_facts(variables: list[dict[str, Any]], term: Callable[[Tree], Tree]) -> list[Tree]:
    """`x >= low`, `x < high`, ... for the bounds of the statement's variables, each bound written by `term`."""
    ends = (("low", ">", ">="), ("high", "<", "<="))
    bounds = [(v, end, strict if v[f"{end}_open"] else loose) for v in variables for end, strict, loose in ends]
    return [[relation, ["sym", v["name"]], term(v[end])] for v, end, relation in bounds if v[end] is not None]


class Encoding:
    """The encoding of a statement of a relation (read by `real_statements.read_region` first): the constants
    (variables, then auxiliaries), the domain's hypotheses (the variables' bounds: their own guards are not goals),
    the facts binding the auxiliaries, the exponential atoms (atom, argument polynomial) and the goal `guards and
    conditions and relation` (the sides and the definedness conditions); NotEncodable when a node has no polynomial
    encoding. It encodes trees over the variables (`term`), sharing auxiliaries between equal subterms."""

    def __init__(self, statement: dict[str, Any]) -> None:
        self.variables = [v["name"] for v in statement["variables"]]
        self.integers = [v["name"] for v in statement["variables"] if v["integer"]]
        self.constants = [*self.variables]  # then the auxiliaries, as `term` makes them
        self.facts: list[Tree] = []
        self.exponentials: list[tuple[Tree, Tree]] = []
        self.guards: list[Tree] = []
        self._prefix = "aux" + "x" * max(map(len, self.variables), default=0)  # longer than any variable's name
        self._memo: dict[str, Tree] = {}
        relation = [statement["op"], self.term(statement["lhs"]), self.term(statement["rhs"])]
        conditions = [CONDITIONS[c["relation"]](self.term(c["expression"])) for c in statement["conditions"]]
        self.goal = ["and", *self.guards, *conditions, relation]
        self.hypotheses = bound_facts(statement["variables"], self.term)

    def problem(self, cuts: list[object]) -> str:
        """The SMT-LIB2 text of `domain, facts and cuts imply goal` (`smtlib.problem_text`), the facts on the
        exponential atoms being: for each atom, e > 0 and e >= 1 + a; for every pair of atoms, and for each against
        exp(0) = 1, exp increasing; then the cuts' facts. CutError for a bad cut, TreeError (`smtlib.SmtTextError`)
        for a problem that is not one (no unknowns, too large)."""
        facts = [*self.hypotheses, *self.facts]
        for i, (ea, a) in enumerate(self.exponentials):
            facts += [[">", ea, ZERO], [">=", ea, ["add", ONE, a]]]
            for eb, b in [*self.exponentials[i + 1 :], (ONE, ZERO)]:
                facts += [["iff", ["<", a, b], ["<", ea, eb]], ["iff", ["<", b, a], ["<", eb, ea]]]
        facts += [cut_fact(cut, self.exponentials) for cut in cuts]
        return smtlib.problem_text(self.constants, facts, self.goal, [] if REALS in cuts else self.integers)

    def term(self, tree: Tree) -> Tree:
        """A polynomial tree standing for `tree` (auxiliaries added as needed)."""
        if (key := json.dumps(tree)) not in self._memo:
            self._memo[key] = self._encode(tree)
        return self._memo[key]

    def meaning(self) -> dict[str, Tree]:
        """Each auxiliary's name -> the statement's subtree it stands for (read by a prover to propose cuts)."""
        return {v[1]: json.loads(k) for k, v in self._memo.items() if v[0] == "sym" and v[1] not in self.variables}

    def _fresh(self) -> Tree:
        self.constants.append(f"{self._prefix}{len(self.constants) - len(self.variables)}")
        return ["sym", self.constants[-1]]

    def _partial(self, guard: Tree, *facts: Tree) -> None:
        """Facts that hold where the operation is defined, and the guard that says where."""
        self.guards.append(guard)
        self.facts.append(["implies", guard, ["and", *facts]])

    def _exponential(self, argument: Tree) -> Tree:
        if known := [e for e, a in self.exponentials if a == argument]:
            return known[0]
        if len(self.exponentials) >= MAX_EXPONENTIALS:
            raise NotEncodable(f"more than {MAX_EXPONENTIALS} different exponentials")
        self.exponentials.append((self._fresh(), argument))
        return self.exponentials[-1][0]

    def _encode(self, tree: Tree) -> Tree:
        op, args = tree[0], tree[1:]  # a node (`real_statements.read_region` read every node's shape)
        if len(args) == 1 and (op == "rat" or (op == "sym" and args[0] in self.variables)):
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
        if op in ("lambda_c", "lambda_max") and len(args) == 2:  # value beta = u, a root of phi'' or of phi' in u
            tokens, inverse_temperature = self.term(args[0]), self.term(args[1])
            u, value, two, fewer = self._fresh(), self._fresh(), ["rat", "2"], ["add", tokens, MINUS_ONE]
            if op == "lambda_c":  # (u - 2) exp(u) = (n - 1)(u + 2), u > 2
                left, right = ["mul", ["add", u, ["rat", "-2"]], self._exponential(u)], [fewer, ["add", u, two]]
                least, guard = [">", u, two], ["and", [">", fewer, ZERO], [">", inverse_temperature, ZERO]]
            else:  # (u - 1) exp(u) = n - 1, u = 1 + W((n - 1)/e) >= 0, where that is defined: n >= 0, beta != 0
                left, right = ["mul", ["add", u, MINUS_ONE], self._exponential(u)], [fewer]
                least, guard = [">=", u, ZERO], ["and", [">=", tokens, ZERO], ["not", ["=", inverse_temperature, ZERO]]]
            root = ["add", left, ["mul", MINUS_ONE, *right]]
            self._partial(guard, least, ["=", root, ZERO], ["=", ["mul", value, inverse_temperature], u])
            return value
        if op in NAMED and len(args) == len(NAMED[op]):
            return self.term(expand(tree))
        if op in ("add", "mul") and args:
            return [op, *[self.term(a) for a in args]]
        if op == "pow" and len(args) == 2 and type(args[1]) is int:
            return self._power(self.term(args[0]), Fraction(args[1]))
        if op == "rpow" and len(args) == 2 and isinstance(args[1], list) and len(args[1]) == 2 and args[1][0] == "rat":
            return self._power(self.term(args[0]), parse_rational(args[1][1]))
        if op == "rpow" and len(args) == 2:  # a symbolic exponent: exp(q log b), as `exprtree` evaluates it
            return self.term(["exp", ["mul", args[1], ["log", args[0]]]])
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
