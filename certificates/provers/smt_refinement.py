"""Decide an encoded statement with z3, adding Taylor cuts on exp until the answer no longer depends on them.

The encoding (`certificates.kernel.real_encoding`, the kernel's own, so that its text is the one check-cert runs)
knows each exponential atom only through true facts
(e > 0, e >= 1 + a, monotonicity). Each round asks z3 for a model of `facts and cuts and not goal`:
- unsat: proved; the cuts used are the certificate's data;
- a model whose variables falsify the claim (the caller's test, exact or with balls): a
  counterexample, with the caller's witness;
- otherwise, at each atom whose value is not exp of its argument at the model, cuts that remove the
  model: when the value is too small, a lower Taylor bound at 0 (the one point where exp is a known
  rational, so claims tight there, like exp(x) >= 1 + x + x^2/2, can be proved; its degree rises each
  time: 3, 5, ...) and one at the model's argument (rounded to a short rational; its degree rises
  when the point comes again); when too large, an upper bound (exp(-a) bounded below) at it likewise.
Before the first round, the products exp(a_i) exp(a_j) = exp(a_k) wherever the arguments of atoms add up exactly
(an identity of polynomials, python-flint's fmpq_mpoly: `polynomial`) join the cuts.
No new cut, a spent budget of rounds or of z3's resources (counted: `certificates.provers.smt`), or any answer of
z3 but sat and unsat leaves the answer unknown.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import reduce
from typing import Any

import sympy as sp
from flint import arb, fmpq, fmpq_mpoly, fmpq_mpoly_ctx
from headflow.certificates.claims.interaction_text import ordinary
from headflow.certificates.kernel import smtlib
from headflow.certificates.kernel.balls import eval_ball
from headflow.certificates.kernel.exact import ball_of, exact_value, precision
from headflow.certificates.kernel.exprtree import (
    Tree,
    TreeError,
    exact_rational,
    fold,
    rational_text,
    substitute,
    symbols,
)
from headflow.certificates.kernel.real_encoding import (
    CUT_DEGREES,
    CUT_PRECISION,
    MAX_CUT_POINT,
    MAX_CUTS,
    ZERO,
    Encoding,
)
from headflow.certificates.log_products import factors
from headflow.certificates.provers.smt import SAFETY_SECONDS, solve

#: A model's argument whose text is longer is rounded to a fraction with at most this denominator.
POINT_DENOMINATOR = 1024
SHORT_POINT_CHARS = 24
#: Lower cuts at 0 are raised in degree for arguments at most this far from 0.
NEAR_ZERO = Fraction(4)
#: Bits kept in a cut's factor (rounded outward).
SIGNIFICANT_BITS = 80
MAX_ROUNDS = 40
#: Terms of an expanded polynomial (`polynomial`): a larger one is not compared.
MAX_TERMS = 2_000
#: Bits of a coefficient of an expanded polynomial: nested powers of constants grow them geometrically (a hostile
#: ((10 x)^64)^64... of a few nodes would take hours), so a larger one is not compared.
MAX_COEFFICIENT_BITS = 65_536

#: The caller's test of a model's variables (by name): the verified witness that the claim fails there, or None.
Falsifier = Callable[[dict[str, Fraction]], dict[str, Any] | None]


@dataclass(frozen=True)
class Cut:
    """A Taylor cut of one exponential atom (`headflow.certificates.kernel.real_encoding`: lower or upper, at `at`)."""

    kind: str
    atom: int
    degree: int
    at: Fraction
    factor: Fraction

    def data(self) -> dict[str, object]:
        """The cut as certificate data (exact rational texts), as `real_encoding.cut_fact` reads it."""
        return {"kind": self.kind, "atom": self.atom, "degree": self.degree} | {
            "at": rational_text(self.at),
            "factor": rational_text(self.factor),
        }


@dataclass
class Refinement:
    """`proved`, `counterexample` or `unknown`, with the last problem's text, its cuts (and their data, the products
    first: the payload's `cuts`) and what was learnt, the resources z3 counted and the seconds it took."""

    status: str
    text: str
    cuts: list[Cut] = field(default_factory=list)
    witness: dict[str, Any] | None = None
    rounds: int = 0
    resources: int = 0
    seconds: float = 0.0
    reason: str = ""
    data: list[dict[str, object]] = field(default_factory=list)


def products(encoding: Encoding) -> list[dict[str, object]]:
    """The products of atoms whose arguments add up exactly: `[i, j]` when a_i + a_j = 0, `[i, j, k]` when
    a_i + a_j = a_k (i <= j), as polynomials or, for arguments with a quotient (beta (1 + w)/beta), as rational
    functions (SymPy's `cancel`: a proposal; the cut's fact is an implication the solvers use only where it holds)."""
    quotients = {name: tree for name, tree in encoding.meaning().items() if tree[0] in ("div", "pow")}
    atoms, found = [argument for _, argument in encoding.exponentials], []
    for i, a in enumerate(atoms):
        for j in range(i, len(atoms)):
            for k, c in [(None, ZERO), *enumerate(atoms)]:
                if _vanishes(["sub", ["add", a, atoms[j]], c], tuple(encoding.constants), quotients):
                    found.append({"kind": "product", "atoms": [i, j] if k is None else [i, j, k]})
    return found + log_relations(encoding)


def log_relations(encoding: Encoding) -> list[dict[str, object]]:
    """Power cuts that say log X = sum q_f log f where X is a product of powers of factors f whose logarithms are atoms
    too (log(rho1 sqrt d) = log rho1 + (1/2) log d), both ways (<= and >=, the relation scaled to integers): the
    encoding knows each logarithm only as l with exp(l) = X."""
    logs = {name: tree[1] for name, tree in encoding.meaning().items() if tree[0] == "log"}
    atoms = {argument[1]: k for k, (_, argument) in enumerate(encoding.exponentials) if argument[0] == "sym"}
    named = {k: factors(logs[name]) for name, k in atoms.items() if name in logs}
    bases = {next(iter(f)): k for k, f in named.items() if len(f) == 1 and next(iter(f.values())) == 1}
    found: list[dict[str, object]] = []
    for k, parts in named.items():
        if k in bases.values() or not parts or not set(parts) <= set(bases) or len(parts) > 3:
            continue
        scale = math.lcm(*(q.denominator for q in parts.values()))
        exponents = [scale, *(-int(q * scale) for q in parts.values())]
        if max(map(abs, exponents)) <= 9:
            indices = [k, *(bases[f] for f in parts)]
            found += [{"kind": "power", "atoms": indices, "exponents": [s * q for q in exponents]} for s in (1, -1)]
    return found


def _vanishes(tree: Tree, names: tuple[str, ...], quotients: dict[str, Tree]) -> bool:
    """Whether the tree is 0 as a polynomial over `names`, or else, with the auxiliaries that stand for `quotients`
    put back (1/beta), as a rational function."""
    difference = polynomial(tree, names)
    if difference is not None and difference == 0:
        return True
    if not symbols(tree) & set(quotients):
        return False
    try:
        return bool(sp.cancel(ordinary(substitute(tree, quotients))) == 0)
    except (TreeError, TypeError, ValueError):
        return False


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


def refine(
    encoding: Encoding,
    falsifies: Falsifier,
    rlimit: int,
    max_rounds: int = MAX_ROUNDS,
    extra: Sequence[dict[str, object]] = (),
    timeout: float = SAFETY_SECONDS,
) -> Refinement:
    """Decide `encoding.problem(cuts)` for growing cuts on its atoms, within `rlimit` of z3's resources in all
    (`extra`: cuts the caller proposes, after the products; `timeout`: z3's wall-clock limit per problem, seconds)."""
    cuts: list[Cut] = []
    used, seconds, found = 0, 0.0, products(encoding) + list(extra)
    data = found
    text = encoding.problem(data)
    for round_number in range(1, max_rounds + 1):
        if used >= rlimit:
            reason = f"z3's resource budget ({rlimit:,}) is spent"
            return Refinement("unknown", text, cuts, None, round_number - 1, used, seconds, reason, data)
        data = found + [cut.data() for cut in cuts]
        text = encoding.problem(data)
        result = solve(text, encoding.constants, rlimit - used, timeout)
        used, seconds = used + result.resources, seconds + result.seconds
        if result.status == "unsat":
            return Refinement("proved", text, cuts, None, round_number, used, seconds, data=data)
        if result.status != "sat":
            return Refinement("unknown", text, cuts, None, round_number, used, seconds, result.reason, data)
        values = {name: result.point.get(name, Fraction(0)) for name in encoding.constants}
        witness = falsifies({name: values[name] for name in encoding.variables})
        if witness is not None:
            return Refinement("counterexample", text, cuts, witness, round_number, used, seconds, data=data)
        new = [cut for cut in model_cuts(encoding, values, cuts) if cut not in cuts][: MAX_CUTS - len(data)]
        if not new:
            where = ", ".join(f"{name} = {result.model.get(name, '?')}" for name in encoding.variables)
            reason = f"z3 finds a model of the negation ({where}) that no cut removes and that is not a counterexample"
            return Refinement("unknown", text, cuts, None, round_number, used, seconds, reason, data)
        cuts += new
    reason = f"{max_rounds} rounds of cuts spent"
    return Refinement("unknown", text, cuts, None, max_rounds, used, seconds, reason, data)


def model_cuts(encoding: Encoding, values: Mapping[str, Fraction], placed: Sequence[Cut]) -> list[Cut]:
    """Cuts that remove the model (values by constant name) at the atoms where its value is not exp of its argument."""
    cuts: list[Cut] = []
    with precision(CUT_PRECISION):
        for index, ((_, name), polynomial) in enumerate(encoding.exponentials):
            argument = exact_rational(polynomial, values)
            if argument is None or abs(argument) > MAX_CUT_POINT:
                continue
            value, exact = ball_of(values[name]), ball_of(argument).exp()
            at = _short(argument)
            if not value >= exact:  # too small (or not told apart): lower bounds
                if abs(argument) <= NEAR_ZERO:
                    cuts += _next_degree(index, Fraction(0), placed, start=3)
                if at != 0:
                    cuts += _next_degree(index, at, placed, start=1)
            if not value <= exact:  # too large: an upper bound at the argument (exp(-a) bounded below at -a)
                cuts += _next_degree(index, -at, placed, start=1, kind="upper")
    return cuts


def constant_cuts(encoding: Encoding) -> list[dict[str, object]]:
    """Taylor cuts of degree 3 below and above each atom whose argument is a number (a logarithm of a constant, which
    the solvers know only through e >= 1 + a and exp(l) = its argument), at its value rounded (`_short`): together they
    pin it within about the rounding, which a relation between logarithms of constants needs (log 397 - log 2 > 4)."""
    meaning, cuts = encoding.meaning(), []
    for index, (_, argument) in enumerate(encoding.exponentials):
        tree = meaning.get(argument[1], argument) if argument[0] == "sym" else argument
        if symbols(tree):
            continue
        with precision(SIGNIFICANT_BITS + 20):
            try:
                ball = eval_ball(tree, {})
            except (TreeError, ValueError, ZeroDivisionError):
                continue
            if not ball.is_finite():
                continue
            at = _short(exact_value(ball.mid()))
            cuts += [Cut("lower", index, 3, at, _below(ball_of(at).exp()))]
            cuts += [Cut("upper", index, 3, -at, _below(ball_of(-at).exp()))]
    return [cut.data() for cut in cuts]


def _next_degree(index: int, at: Fraction, placed: Sequence[Cut], start: int, kind: str = "lower") -> list[Cut]:
    """A cut at `at` of the first degree (from `start`) above those of its kind placed there already; [] at the
    top."""
    degrees = [c.degree for c in placed if c.kind == kind and c.atom == index and c.at == at]
    above = [d for d in CUT_DEGREES if d >= start and d > max(degrees, default=0)]
    if not above:
        return []
    return [Cut(kind, index, above[0], at, _below(ball_of(at).exp()))]


def _short(value: Fraction) -> Fraction:
    """The value itself when its text is short, else the nearest fraction with a small denominator."""
    return value if len(rational_text(value)) <= SHORT_POINT_CHARS else value.limit_denominator(POINT_DENOMINATOR)


def _below(ball: arb) -> Fraction:
    """A short rational at or below every point of the ball."""
    return _rounded(exact_value(ball.lower()), -1)


def _rounded(value: Fraction, direction: int) -> Fraction:
    """`value` rounded down (direction -1) or up (+1) to SIGNIFICANT_BITS significant bits; exact values
    that are short already (exp(0) = 1) stay as they are."""
    if value == 0:
        return value
    shift = max(0, value.numerator.bit_length() - value.denominator.bit_length()) - SIGNIFICANT_BITS
    scale = Fraction(2) ** -shift
    scaled = value * scale
    whole = scaled.numerator // scaled.denominator if direction < 0 else -(-scaled.numerator // scaled.denominator)
    return Fraction(whole) / scale


def symbolic_power(tree: Any) -> bool:
    """Whether a statement of a relation (or a tree) has an `rpow` node whose exponent is not a rational: encoded as
    exp(q log b), where z3's nonlinear search may not stop at its limits (the interval route decides such claims)."""
    if isinstance(tree, dict):
        return any(map(symbolic_power, [tree["lhs"], tree["rhs"], *(c["expression"] for c in tree["conditions"])]))
    if not isinstance(tree, list) or not tree or tree[0] in ("rat", "sym"):
        return False
    return (tree[0] == "rpow" and tree[2][:1] != ["rat"]) or any(symbolic_power(t) for t in tree[1:])
