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
  when the point comes again); when too large, an upper bound on a small interval around it.
No new cut, a spent budget of rounds or of z3's resources (counted: `certificates.provers.smt`), or any answer of
z3 but sat and unsat leaves the answer unknown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from flint import arb

from certificates.kernel.exact import ball_of, exact_value, precision
from certificates.kernel.exprtree import exact_rational, rational_text
from certificates.kernel.real_encoding import CUT_DEGREES, CUT_PRECISION, MAX_CUT_POINT, MAX_CUTS, Cut, Encoding
from certificates.provers.smt import solve

#: A model's argument whose text is longer is rounded to a fraction with at most this denominator.
POINT_DENOMINATOR = 1024
SHORT_POINT_CHARS = 24
#: Lower cuts at 0 are raised in degree for arguments at most this far from 0.
NEAR_ZERO = Fraction(4)
#: Bits kept in a cut's factor (rounded outward).
SIGNIFICANT_BITS = 80
#: Upper cuts use radii 2^-k, k at most this.
MIN_RADIUS_EXPONENT = 20
MAX_ROUNDS = 40

#: The caller's test of a model's variables (by name): the verified witness that the claim fails there, or None.
Falsifier = Callable[[dict[str, Fraction]], dict[str, Any] | None]


@dataclass
class Refinement:
    """`proved`, `counterexample` or `unknown`, with the last problem's text, its cuts and what was learnt, the
    resources z3 counted and the seconds it took."""

    status: str
    text: str
    cuts: list[Cut] = field(default_factory=list)
    witness: dict[str, Any] | None = None
    rounds: int = 0
    resources: int = 0
    seconds: float = 0.0
    reason: str = ""


def cut_data(cut: Cut) -> dict[str, object]:
    """The cut as certificate data (exact rational texts), as `Cut.from_data` reads it."""
    data: dict[str, object] = {"kind": cut.kind, "atom": cut.atom, "degree": cut.degree}
    data |= {"at": rational_text(cut.at), "factor": rational_text(cut.factor)}
    if cut.kind == "upper":
        data |= {"radius": rational_text(cut.radius), "remainder": rational_text(cut.remainder)}
    return data


def refine(encoding: Encoding, falsifies: Falsifier, rlimit: int, max_rounds: int = MAX_ROUNDS) -> Refinement:
    """Decide `encoding.problem(cuts)` for growing cuts on its atoms, within `rlimit` of z3's resources in all."""
    cuts: list[Cut] = []
    used, seconds = 0, 0.0
    text = encoding.problem(cuts)
    for round_number in range(1, max_rounds + 1):
        if used >= rlimit:
            reason = f"z3's resource budget ({rlimit:,}) is spent"
            return Refinement("unknown", text, cuts, None, round_number - 1, used, seconds, reason)
        text = encoding.problem(cuts)
        result = solve(text, encoding.constants, rlimit - used)
        used, seconds = used + result.resources, seconds + result.seconds
        if result.status == "unsat":
            return Refinement("proved", text, cuts, None, round_number, used, seconds)
        if result.status != "sat":
            return Refinement("unknown", text, cuts, None, round_number, used, seconds, result.reason)
        values = {name: result.point.get(name, Fraction(0)) for name in encoding.constants}
        witness = falsifies({name: values[name] for name in encoding.variables})
        if witness is not None:
            return Refinement("counterexample", text, cuts, witness, round_number, used, seconds)
        new = [cut for cut in model_cuts(encoding, values, cuts) if cut not in cuts][: MAX_CUTS - len(cuts)]
        if not new:
            where = ", ".join(f"{name} = {result.model.get(name, '?')}" for name in encoding.variables)
            reason = f"z3 finds a model of the negation ({where}) that no cut removes and that is not a counterexample"
            return Refinement("unknown", text, cuts, None, round_number, used, seconds, reason)
        cuts += new
    return Refinement("unknown", text, cuts, None, max_rounds, used, seconds, f"{max_rounds} rounds of cuts spent")


def model_cuts(encoding: Encoding, values: Mapping[str, Fraction], placed: Sequence[Cut]) -> list[Cut]:
    """Cuts that remove the model (values by constant name) at the atoms where its value is not exp of its argument."""
    cuts: list[Cut] = []
    with precision(CUT_PRECISION):
        for index, (name, polynomial) in enumerate(encoding.exponentials):
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
            if not value <= exact:  # too large: an upper bound around the argument
                cuts += _upper(index, argument, at, placed)
    return cuts


def _next_degree(index: int, at: Fraction, placed: Sequence[Cut], start: int) -> list[Cut]:
    """A lower cut at `at` of the first degree (from `start`) above those placed there already; [] at the top."""
    degrees = [c.degree for c in placed if c.kind == "lower" and c.atom == index and c.at == at]
    above = [d for d in CUT_DEGREES if d >= start and d > max(degrees, default=0)]
    if not above:
        return []
    return [Cut("lower", index, above[0], at, _below(ball_of(at).exp()))]


def _upper(index: int, argument: Fraction, at: Fraction, placed: Sequence[Cut]) -> list[Cut]:
    """An upper cut at `at` whose interval holds the argument: the radius halves, then the degree rises."""
    distance = abs(argument - at)
    for k in range(MIN_RADIUS_EXPONENT + 1):
        radius = Fraction(1, 2**k)
        if radius < distance:
            break
        for degree in CUT_DEGREES:
            cut = Cut("upper", index, degree, at, _above(ball_of(at).exp()), radius, _remainder(radius, degree))
            if cut not in placed:
                return [cut]
    return []


def _remainder(radius: Fraction, degree: int) -> Fraction:
    """A short rational at or above exp(radius) / (degree + 1)!."""
    factorial = 1
    for j in range(2, degree + 2):
        factorial *= j
    return _above(ball_of(radius).exp() / factorial)


def _short(value: Fraction) -> Fraction:
    """The value itself when its text is short, else the nearest fraction with a small denominator."""
    return value if len(rational_text(value)) <= SHORT_POINT_CHARS else value.limit_denominator(POINT_DENOMINATOR)


def _below(ball: arb) -> Fraction:
    """A short rational at or below every point of the ball."""
    return _rounded(exact_value(ball.lower()), -1)


def _above(ball: arb) -> Fraction:
    """A short rational at or above every point of the ball."""
    return _rounded(exact_value(ball.upper()), 1)


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
