"""A structural sign prover: `> 0`, `>= 0`, `< 0`, `<= 0`, `!= 0` of a SymPy expression, from its tree alone.

SymPy proposes, the kernel disposes: a derivation's sign facts must not come from SymPy's assumption system
(`.is_positive`, ...) or from a numerical evaluation, which can be wrong on expressions that cancel. This prover
reads only `.func` and `.args` and the facts it is given explicitly (`Facts`): for each declared atom (a symbol,
or a whole sub-expression such as `LambdaC(n, beta)` whose sign is a separate lemma) a sign, and shifts
`n = m + k` (m a declared atom >= 0 or > 0, k rational) that encode lower bounds. Every symbol of the expression
must be declared: undeclared symbols are not even known to be real, so nothing about them is proved.

A sign is the set of values {-1, 0, +1} the expression can take at the points allowed by the facts (every point
where each declared atom has its declared sign); a proof says the expression is defined and real at every such
point and its sign lies in the set. Rules (each application is one step of the returned proof):

- a rational number has its exact sign; E and pi are > 0; floats are never read (they are not the number typed);
- a declared atom has its declared sign (compared structurally, never evaluated);
- exp(real) > 0; log(x) is real for x > 0 and has the sign of x - 1; Abs(real) >= 0 (> 0 if non-zero);
  LambertW(x) (principal branch) has the sign of x for x >= 0;
- a sum of terms whose signs agree has that sign (> 0 as soon as one term is > 0 and the others >= 0);
- a product has the product of its factors' signs;
- b^k for an integer k: even k gives >= 0 (> 0 if b != 0), odd k the sign of b; k < 0 needs b != 0;
  b^q for a non-integer rational q needs b >= 0 (q > 0) or b > 0; b^e for a real non-numeric e needs b > 0;
- a sum of terms of mixed signs (each already proved real) is rewritten by exact algebra, and the rewrite is
  re-read: over a common denominator (`sp.together`), its numerator expanded (`sp.expand` with the hints that
  hold for every value: no `log` or `power_base` splitting) or factored (`sp.factor`, a proposal accepted only
  when expanding the difference to the numerator gives 0). These are polynomial identities over Q in the atoms,
  so the rewrite equals the sum wherever the sum is defined.

The prover never says a false thing, and it says nothing when it cannot decide (returns None).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import sympy as sp

#: Sign sets. A sign is a frozenset of the values in {-1, 0, 1} an expression can take.
POSITIVE = frozenset({1})
NEGATIVE = frozenset({-1})
NONNEGATIVE = frozenset({0, 1})
NONPOSITIVE = frozenset({-1, 0})
NONZERO = frozenset({-1, 1})
ZERO = frozenset({0})
REAL = frozenset({-1, 0, 1})

#: The declarable signs of an atom, by name.
SIGN_NAMES: dict[str, frozenset[int]] = {
    "positive": POSITIVE,
    "negative": NEGATIVE,
    "nonnegative": NONNEGATIVE,
    "nonpositive": NONPOSITIVE,
    "nonzero": NONZERO,
    "real": REAL,
}
#: The relations `prove` decides, and the sign sets each one accepts.
RELATIONS: dict[str, frozenset[int]] = {">0": POSITIVE, ">=0": NONNEGATIVE, "<0": NEGATIVE, "<=0": NONPOSITIVE}
RELATIONS["!=0"] = NONZERO

#: Expansion hints that hold for every value of the atoms (no log splitting, no (ab)^c = a^c b^c).
EXACT_EXPAND = {"power_base": False, "log": False, "deep": True, "mul": True, "multinomial": True}
#: Sums larger than this (in operations) are not rewritten: expansion could blow up.
REWRITE_LIMIT = 4000


@dataclass(frozen=True)
class Facts:
    """What is known about the atoms: `signs[atom]` a sign name of SIGN_NAMES; `shifts[n] = (m, k)` for n = m + k.

    A shifted symbol is replaced by m + k before the proof; m must itself be declared in `signs`."""

    signs: Mapping[sp.Expr, str] = field(default_factory=dict)
    shifts: Mapping[sp.Symbol, tuple[sp.Symbol, sp.Rational | int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for atom, name in self.signs.items():
            if name not in SIGN_NAMES:
                raise ValueError(f"unknown sign {name!r} for {atom}")
        for symbol, (base, offset) in self.shifts.items():
            if base not in self.signs or not isinstance(sp.sympify(offset), sp.Rational):
                raise ValueError(f"shift {symbol} = {base} + {offset} needs a declared {base} and a rational offset")

    def with_signs(self, **named: Iterable[sp.Expr]) -> Facts:
        """These facts with more atoms declared: with_signs(positive=[x, y], real=[z])."""
        signs = dict(self.signs)
        for name, atoms in named.items():
            signs.update(dict.fromkeys(atoms, name))
        return Facts(signs, self.shifts)


def facts(
    positive: Iterable[sp.Expr] = (),
    nonnegative: Iterable[sp.Expr] = (),
    real: Iterable[sp.Expr] = (),
    shifts: Mapping[sp.Symbol, tuple[sp.Symbol, sp.Rational | int]] | None = None,
    **others: Iterable[sp.Expr],
) -> Facts:
    """Facts from lists of atoms by sign (a shorthand for Facts)."""
    named = {"positive": positive, "nonnegative": nonnegative, "real": real, **others}
    signs = {atom: name for name, atoms in named.items() for atom in atoms}
    return Facts(signs, dict(shifts or {}))


def declared_facts(expr: sp.Expr) -> Facts:
    """Facts taken from how the free symbols of expr were declared to SymPy (`Symbol("x", positive=True)`): the
    declaration as written (`assumptions0`), never an inferred or evaluated property. For steps whose hypotheses
    are exactly those declarations; symbols declared without a real sign are left out (nothing is proved about
    them)."""
    names = {POSITIVE: "positive", NEGATIVE: "negative", NONNEGATIVE: "nonnegative", NONPOSITIVE: "nonpositive"}
    names |= {NONZERO: "nonzero", REAL: "real"}
    signs = {}
    for symbol in expr.free_symbols:
        declared = declared_sign(symbol)
        if declared in names:
            signs[symbol] = names[declared]
    return Facts(signs)


def prove(expr: sp.Expr, relation: str, known: Facts) -> list[str] | None:
    """A proof (its rule steps) that `expr relation 0` at every point allowed by `known`, or None.

    `relation` is one of RELATIONS. None means "not proved", never "false"."""
    if relation not in RELATIONS:
        raise ValueError(f"unknown relation {relation!r}; expected one of {sorted(RELATIONS)}")
    steps: list[str] = []
    target = _prepared(sp.sympify(expr), known, steps)
    found = None if target is None else _Prover(known, steps).sign(target)
    if found is None or not found <= RELATIONS[relation]:
        return None
    steps.append(f"hence {target} {relation[:-1]} 0")
    return steps


def prove_using_upper_ends(expr: sp.Expr, relation: str, known: Facts) -> list[str] | None:
    """`prove`, and where it does not close, `prove` again with symbols bounded above written from their upper end.

    A symbol s with a declared atom b - s (b rational, > 0 or >= 0: s < b or s <= b, as a domain's upper end gives)
    is replaced by b - w, w a new atom with the atom's sign; the facts that mention s (its lower shift, its atom) are
    dropped for that attempt. Sound: every s the facts allow is b - w for some w they allow, so a sign proved for
    every such w holds at every allowed s. `prove`'s shifts keep only lower ends, so an upper end is needed for
    1 - gamma > 0 on gamma in [1/4, 1/2] (gamma = 1/2 - w). Up to three symbols, every subset, smallest first."""
    found = prove(expr, relation, known)
    if found is not None:
        return found
    ends = {
        s: (end, atom)
        for s, (end, atom) in _upper_ends(known).items()
        if s in sp.sympify(expr, strict=True).free_symbols
    }
    chosen = sorted(ends, key=str)[:3]
    for size in range(1, len(chosen) + 1):
        for subset in itertools.combinations(chosen, size):
            below = {s: sp.Dummy(f"{s}_below") for s in subset}
            swap = {s: ends[s][0] - below[s] for s in subset}
            kept = {atom: name for atom, name in known.signs.items() if not atom.free_symbols & set(subset)}
            kept |= {below[s]: known.signs[ends[s][1]] for s in subset}
            shifts = {k: v for k, v in known.shifts.items() if k not in subset}
            steps = prove(sp.sympify(expr, strict=True).xreplace(swap), relation, Facts(kept, shifts))
            if steps is not None:
                said = [
                    f"substitute {s} = {swap[s]} ({below[s]} {_NAMES[SIGN_NAMES[kept[below[s]]]]}: {s}'s upper end)"
                    for s in subset
                ]
                return said + steps
    return None


def _upper_ends(known: Facts) -> dict[sp.Symbol, tuple[sp.Rational, sp.Expr]]:
    """{s: (b, atom)} for each declared atom that is exactly b - s (b rational, s a symbol), declared > 0 or >= 0."""
    out: dict[sp.Symbol, tuple[sp.Rational, sp.Expr]] = {}
    for atom, name in known.signs.items():
        if name not in ("positive", "nonnegative") or not isinstance(atom, sp.Add) or len(atom.free_symbols) != 1:
            continue
        (symbol,) = atom.free_symbols
        end = sp.expand(atom + symbol)
        if isinstance(symbol, sp.Symbol) and isinstance(end, sp.Rational) and sp.expand(end - symbol - atom) == 0:
            out.setdefault(symbol, (end, atom))
    return out


def sign_of(expr: sp.Expr, known: Facts) -> frozenset[int] | None:
    """The sign set the prover establishes for expr (None: not even shown defined and real)."""
    target = _prepared(sp.sympify(expr), known, [])
    return None if target is None else _Prover(known, []).sign(target)


def declared_sign(symbol: sp.Symbol) -> frozenset[int] | None:
    """The sign set SymPy's declaration of `symbol` promises (its assumptions as written, not inferred), None if
    it is not declared real. SymPy's automatic evaluation may rely on it (sqrt(n**2) -> n for a positive n)."""
    written = symbol.assumptions0
    if not (written.get("real") or written.get("extended_real")) and not any(
        written.get(k) for k in ("positive", "negative", "nonnegative", "nonpositive", "zero")
    ):
        return None
    allowed = REAL
    for key, values in (("positive", POSITIVE), ("negative", NEGATIVE), ("nonnegative", NONNEGATIVE)):
        if written.get(key):
            allowed &= values
    for key, values in (("nonpositive", NONPOSITIVE), ("zero", ZERO), ("nonzero", NONZERO)):
        if written.get(key):
            allowed &= values
    return allowed


def _prepared(expr: sp.Expr, known: Facts, steps: list[str]) -> sp.Expr | None:
    """expr with the shifts substituted, or None when the facts allow points SymPy's declarations exclude (then
    an automatic rewrite SymPy made on the strength of a declaration could be false at a point the facts allow)."""
    signs = {atom: SIGN_NAMES[name] for atom, name in known.signs.items()}
    for symbol, (base, offset) in known.shifts.items():
        declared = declared_sign(symbol)
        shifted = sign_of(base + sp.Rational(offset), Facts(known.signs))
        if declared is not None and (shifted is None or not shifted <= declared):
            return None
    target = expr
    if known.shifts:
        shift = {s: base + sp.Rational(k) for s, (base, k) in known.shifts.items()}
        target = expr.xreplace(shift)
        steps.append("substitute " + ", ".join(f"{s} = {v}" for s, v in shift.items()))
    for symbol in target.free_symbols | set(signs).intersection(target.atoms(sp.Symbol)):
        declared = declared_sign(symbol)
        if declared is not None and symbol in signs and not signs[symbol] <= declared:
            return None
    return target


def exact_expand(expr: sp.Expr) -> sp.Expr:
    """sp.expand with only the hints that are identities for every value of the atoms (see EXACT_EXPAND)."""
    return sp.expand(expr, **EXACT_EXPAND)


_NAMES = {POSITIVE: "> 0", NEGATIVE: "< 0", NONNEGATIVE: ">= 0", NONPOSITIVE: "<= 0", NONZERO: "!= 0"}
_NAMES |= {ZERO: "= 0", REAL: "real"}


def _times(a: frozenset[int], b: frozenset[int]) -> frozenset[int]:
    return frozenset(x * y for x in a for y in b)


def _plus(a: frozenset[int], b: frozenset[int]) -> frozenset[int]:
    out: set[int] = set()
    for x in a:
        for y in b:
            out |= {x} if x == y or y == 0 else {y} if x == 0 else {-1, 0, 1}
    return frozenset(out)


def _power(base: frozenset[int], k: int) -> frozenset[int]:
    return frozenset(x**k if x != 0 else 0 for x in base) if k > 0 else frozenset(x**k for x in base)


class _Prover:
    """One proof: the facts, and the steps recorded so far."""

    def __init__(self, known: Facts, steps: list[str]) -> None:
        self.known = {atom: SIGN_NAMES[name] for atom, name in known.signs.items()}
        self.steps = steps
        self.depth = 0

    def sign(self, e: sp.Expr) -> frozenset[int] | None:
        """The sign set of e, its steps appended; a failed attempt leaves no steps behind."""
        mark = len(self.steps)
        found = self._sign(e)
        if found is None:
            del self.steps[mark:]
        elif not (e.is_Atom and e in self.known) and not isinstance(e, sp.Rational):
            self.steps.append(f"{e} {_NAMES[found]}")
        return found

    def _sign(self, e: sp.Expr) -> frozenset[int] | None:
        if e in self.known:
            self.steps.append(f"{e} {_NAMES[self.known[e]]} (declared)")
            return self.known[e]
        if isinstance(e, sp.Rational):
            return ZERO if e.p == 0 else POSITIVE if e.p > 0 else NEGATIVE
        if e is sp.E or e is sp.pi:
            return POSITIVE
        if isinstance(e, sp.exp):
            return POSITIVE if self.sign(e.args[0]) is not None else None
        if isinstance(e, sp.log):
            return self._log(e.args[0])
        if isinstance(e, sp.Abs):
            inner = self.sign(e.args[0])
            return None if inner is None else POSITIVE if 0 not in inner else NONNEGATIVE
        if isinstance(e, sp.LambertW) and len(e.args) == 1:
            inner = self.sign(e.args[0])
            return inner if inner in (POSITIVE, NONNEGATIVE, ZERO) else None
        if isinstance(e, sp.Add):
            return self._add(e)
        if isinstance(e, sp.Mul):
            return self._product(e.args)
        if isinstance(e, sp.Pow):
            return self._pow(*e.args)
        return None  # an undeclared symbol, a float, or a function without a rule

    def _log(self, x: sp.Expr) -> frozenset[int] | None:
        if self.sign(x) != POSITIVE:
            return None
        against_one = self.sign(x - 1)
        return REAL if against_one is None else against_one

    def _product(self, factors: Iterable[sp.Expr]) -> frozenset[int] | None:
        total = POSITIVE
        for factor in factors:
            part = self.sign(factor)
            if part is None:
                return None
            total = _times(total, part)
        return total

    def _add(self, e: sp.Add) -> frozenset[int] | None:
        total = ZERO
        for term in e.args:
            part = self.sign(term)
            if part is None:
                return None
            total = _plus(total, part)
        if total != REAL or self.depth > 1 or sp.count_ops(e) > REWRITE_LIMIT:
            return total
        return self._rewritten(e) or total

    def _rewritten(self, e: sp.Add) -> frozenset[int] | None:
        """The sign of a mixed sum through an exact rewrite: common denominator, numerator expanded or factored."""
        numerator, denominator = sp.fraction(sp.together(e))
        self.depth += 1
        try:
            below = self.sign(denominator) if denominator != 1 else POSITIVE
            if below is None or 0 in below:
                return None
            for candidate in _proposals(numerator):
                if candidate == e:
                    continue
                self.steps.append(f"rewrite {e} = ({candidate}) / ({denominator}) (exact algebra)")
                above = self.sign(candidate)
                if above is not None and above != REAL:
                    return _times(above, below)
            return None
        finally:
            self.depth -= 1

    def _pow(self, base: sp.Expr, exponent: sp.Expr) -> frozenset[int] | None:
        if isinstance(exponent, sp.Integer):
            k = int(exponent)
            inner = self.sign(base)
            if inner is None or (k < 0 and 0 in inner):
                return None
            return _power(inner, k)
        if isinstance(exponent, sp.Rational):
            inner = self.sign(base)
            if inner == POSITIVE:
                return POSITIVE
            return NONNEGATIVE if inner is not None and inner <= NONNEGATIVE and exponent > 0 else None
        if self.sign(base) == POSITIVE and self.sign(exponent) is not None:
            return POSITIVE
        return None


def _proposals(numerator: sp.Expr) -> list[sp.Expr]:
    """Rewrites of a numerator equal to it as polynomials over Q in its atoms: its expansion, and its
    factorization when SymPy proposes one that expands back to the same polynomial."""
    expanded = exact_expand(numerator)
    out = [expanded]
    factored = sp.factor(expanded)
    if factored != expanded and exact_expand(factored - expanded) == 0:
        out.append(factored)
    return out
