"""Proving a `model` claim for all n, d, H: the per-token Gram reduction of both sides, then exact zero and sign tests.

The sides are interpreted (`certificates.kernel.claims.model_terms.evaluate`) in a symbolic algebra whose values are
`Form`s: a part at the free token i plus a sum over tokens of a per-token summand (dummy token k). A token's
vectors are combinations of x, f (head h's output; f_s for a summed head) and F = sum_h f^h, with dimension-free
pairings <b, b'> as atoms (`identities.gram` in spirit: bilinearity and symmetry only). What makes a general statement
reducible is proved once, each time it is used, by `identities.energy`:

- gradient lemma (usa, M_h = M_h^T, W_h = M_h): dE_h/dt = (1/n^2) sum_k <xdot_k, f^h_k> (and dE/dt with F);
- orthogonality lemma (M_h M_g = 0, symmetric, W = M): <f^h_i, f^g_i> = 0, hence <f^h_i, F_i> = |f^h_i|^2;
- sums over heads are linear: sum_h of a term linear in head h's quantities is that term with F (E, dE/dt) for f
  (E_h, dE_h/dt), plus H times the part free of h; a part of higher degree in them is not reduced.

Unit tokens (<x, x> = 1) put every other pairing in tangent coordinates, <b, b'> = <P b, P b'> + <x, b><x, b'>,
whose squares |P b|^2 are declared >= 0. A `given` condition m >= 0 (at every token, for head h) is used by solving
m for one atom of rational coefficient and declaring m >= 0. A sum over tokens of a summand with a proved sign has
that sign (n >= 1 terms). Zeros are shown by `identities.zero_test` and signs by `identities.signs` (via the
`identities.derivation` steps): nothing SymPy evaluates decides. What does not reduce (a product of two token sums,
a head sum of a quadratic term, dE_h/dt without the lemma's hypotheses, an entropy) stays an opaque atom or makes
the claim not provable here; then the search decides.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from certificates.kernel.claims.model_terms import evaluate, parse_term
from certificates.kernel.claims.schema import ModelClaim
from identities import energy, signs
from identities.derivation import Derivation

ZERO = sp.Integer(0)
#: The least value of each integer size of the model (n >= 2 tokens, d >= 1, H >= 1).
LEAST = {"n": 2, "d": 1, "H": 1}
POSITIVE_SYMBOLS = {name: sp.Symbol(name) for name in ("n", "d", "H", "beta")}
METHOD = "symbolic: per-token Gram reduction, lemmas of identities.energy, exact zero and sign tests (all n, d, H)"


class NotReducible(Exception):
    """The statement leaves the reducible subset (the reason is the message)."""


def _atom(name: str) -> sp.Symbol:
    return sp.Symbol(name)


@dataclass(frozen=True)
class Form:
    """free + sum_k summand: `free` holds atoms of the free token i (and global ones), `summand` those of k."""

    free: sp.Expr
    summand: sp.Expr = ZERO

    def __add__(self, other: Form) -> Form:
        return Form(self.free + other.free, self.summand + other.summand)

    def __sub__(self, other: Form) -> Form:
        return Form(self.free - other.free, self.summand - other.summand)

    def __neg__(self) -> Form:
        return Form(-self.free, -self.summand)

    def __mul__(self, other: Form) -> Form:
        if self.summand != 0 and other.summand != 0:
            raise NotReducible("a product of two sums over tokens")
        summand = self.summand * other.free + other.summand * self.free
        return Form(sp.expand(self.free * other.free), sp.expand(summand))

    def __truediv__(self, other: Form) -> Form:
        if other.summand != 0:
            raise NotReducible("a division by a sum over tokens")
        return Form(self.free / other.free, self.summand / other.free)

    def __pow__(self, k: int) -> Form:
        out = Form(sp.Integer(1))
        for _ in range(k):
            out = out * self
        return out


Vec = dict[str, Form]


@dataclass
class SymbolicAlgebra:
    """Model terms as Forms: tokens are markers ("i" free, "j" inside a sum, "k" the dummy of a finished sum), heads
    are "h" (free) or "s" (summed); `lemmas` records which lemma of identities.energy a reduction used."""

    attention: str
    geometry: str
    hypotheses: tuple[str, ...]
    lemmas: set[str]

    @property
    def unit(self) -> bool:
        return "unit-tokens" in self.hypotheses

    @property
    def gradient(self) -> bool:
        return self.attention == "usa" and {"symmetric-scores", "aligned-values"} <= set(self.hypotheses)

    def number(self, value: Fraction) -> Form:
        return Form(sp.Rational(value.numerator, value.denominator))

    def symbol(self, name: str) -> Form:
        return Form(POSITIVE_SYMBOLS[name])

    def vector(self, name: str, token: str, head: str | None) -> Vec:
        base = f"f_{head}" if name == "f" else name
        return {f"{base}@{token}": Form(sp.Integer(1))}

    def scalar(self, name: str, token: str | None, head: str | None) -> Form:
        if name in ("dE_dt", "dE_h_dt") and self.gradient:
            self.lemmas.add("gradient")
            body = "inner(xdot_i, F_i)" if name == "dE_dt" else "inner(xdot_i, f_h_i)"
            return evaluate(parse_term(f"sum_i({body}) / n**2"), self, None, head)
        label = {"E": "E", "dE_dt": "dE/dt", "E_h": f"E_{head}", "dE_h_dt": f"dE_{head}/dt"}.get(name)
        if label is None:
            label = f"{name.removesuffix('_h_i')}_{head}@{token}"
        return Form(_atom(label))

    def add(self, u: Vec, w: Vec) -> Vec:
        out = dict(u)
        for key, c in w.items():
            out[key] = out[key] + c if key in out else c
        return out

    def scale(self, c: Form, u: Vec) -> Vec:
        return {key: c * value for key, value in u.items()}

    def inner(self, u: Vec, w: Vec) -> Form:
        total = Form(sp.Integer(0))
        for a, ca in u.items():
            for b, cb in w.items():
                total = total + ca * cb * Form(self.pair(a, b))
        return total

    def pair(self, a: str, b: str) -> sp.Expr:
        (base_a, token), (base_b, _) = a.split("@"), b.split("@")
        if base_a == base_b == "x" and self.unit:
            return sp.Integer(1)
        first, second = sorted((base_a, base_b))
        return _atom(f"<{first},{second}>@{token}")

    def token_sum(self, body: Callable[[str], Form]) -> Form:
        inner = body("j")
        if _markers(inner.summand, "j"):
            raise NotReducible("a sum over tokens of a term with another sum over tokens in a product")
        return Form(sp.Integer(0), sp.expand(_retoken(inner.free, "j", "k") + POSITIVE_SYMBOLS["n"] * inner.summand))

    def head_sum(self, body: Callable[[str], Form]) -> Form:
        value = body("s")
        return Form(_sum_heads(value.free), _sum_heads(value.summand))


def _markers(expr: sp.Expr, token: str) -> bool:
    return any(str(s).endswith(f"@{token}") for s in expr.free_symbols)


def _retoken(expr: sp.Expr, old: str, new: str) -> sp.Expr:
    return expr.xreplace({s: _atom(str(s)[: -len(old)] + new) for s in expr.free_symbols if str(s).endswith(f"@{old}")})


def _head_atoms(expr: sp.Expr, head: str) -> list[sp.Symbol]:
    return sorted(
        (s for s in expr.free_symbols if f"f_{head}" in str(s) or f"_{head}" in str(s).split("@")[0]), key=str
    )


def _sum_heads(expr: sp.Expr) -> sp.Expr:
    """sum over the head s of `expr`: H times its part free of s, plus its part linear in s's atoms with each atom
    summed over the heads (<f_s, u> -> <F, u>, E_s -> E, dE_s/dt -> dE/dt, entropy_s -> sum_h entropy)."""
    expr = sp.expand(expr)
    atoms = _head_atoms(expr, "s")
    if not atoms:
        return sp.expand(POSITIVE_SYMBOLS["H"] * expr)
    weight = sp.Dummy("t")  # <f_s, f_s> is of degree 2 in head s's output, <f_s, u> and E_s of degree 1
    weighted = expr.xreplace({a: a * weight ** max(str(a).count("f_s"), 1) for a in atoms})
    if sp.Poly(weighted, weight).degree() > 1:
        raise NotReducible("a sum over heads of a term that is not linear in the head's quantities")
    free = expr.xreplace(dict.fromkeys(atoms, sp.Integer(0)))
    summed = {a: _atom(_summed_name(str(a))) for a in atoms}
    return sp.expand(POSITIVE_SYMBOLS["H"] * free + (expr - free).xreplace(summed))


def _summed_name(name: str) -> str:
    if name.startswith("<"):
        first, second = name[1:].split(">")[0].split(",")
        token = name.split("@")[1]
        bases = sorted("F" if b == "f_s" else b for b in (first, second))
        return f"<{bases[0]},{bases[1]}>@{token}"
    if name in ("E_s", "dE_s/dt"):
        return {"E_s": "E", "dE_s/dt": "dE/dt"}[name]
    return "sum_h " + name.replace("_s@", "@")


@dataclass
class Reduced:
    """A statement's residual `rhs - lhs` as free + sum_k summand, and the conditions (margin >= or > 0 per token)."""

    residual: Form
    relation: str
    margins: list[tuple[sp.Expr, str]]


#: `lhs op rhs` as `rhs - lhs relation 0`, with the signs module's relation names.
_TARGET = {"=": "=0", "<=": ">=0", "<": ">0", ">=": "<=0", ">": "<0"}


def prove_model(claim: ModelClaim) -> Derivation:
    """The derivation of the claim for all n, d, H, beta (its `proved` says whether every step closed)."""
    d = Derivation()
    algebra = SymbolicAlgebra(claim.attention, claim.geometry, claim.hypotheses, set())
    d.note(
        f"Model: {claim.attention} attention, {claim.geometry} dynamics; hypotheses {', '.join(claim.hypotheses)}",
        r"v_i = " + (r"\tfrac1n F_i" if claim.attention == "usa" else "F_i") + r",\ F_i = \sum_h f^h_i",
    )
    try:
        reduced = _reduce(claim, algebra)
    except NotReducible as exc:
        d.failures.append(f"not in the reducible subset: {exc}")
        return d
    if "gradient" in algebra.lemmas:
        general = claim.interaction is not None  # any phi: the lemma with phi an undefined function, Phi' = phi
        name = "gradient lemma" + (" (any interaction phi)" if general else "")
        d.include(energy.gradient_lemma(general=general), name)
    orthogonal = {"orthogonal-heads", "symmetric-scores", "aligned-values"} <= set(claim.hypotheses)
    residual, margins = reduced.residual, reduced.margins
    if orthogonal:
        d.include(energy.orthogonality_lemma(), "orthogonality lemma")
        residual = Form(_orthogonal(residual.free), _orthogonal(residual.summand))
        margins = [(_orthogonal(m), r) for m, r in margins]
        d.note("By the orthogonality lemma, <f^h_t, F_t> = |f^h_t|^2 at every token t (sum over the heads, linear)")
    if algebra.unit:
        residual = Form(_tangent(residual.free), _tangent(residual.summand))
        margins = [(_tangent(m), r) for m, r in margins]
        d.note("Unit tokens: <b, b'> = <P b, P b'> + <x, b><x, b'> for the token's vectors (tangent coordinates)")
    residual, facts = _use_margins(d, residual, margins, _facts(residual, margins, claim.interaction is None))
    _decide(d, residual, reduced.relation, facts)
    return d


def _reduce(claim: ModelClaim, algebra: SymbolicAlgebra) -> Reduced:
    relation = claim.relation
    value = evaluate(relation.rhs, algebra, "i", "h") - evaluate(relation.lhs, algebra, "i", "h")
    margins = []
    for condition in claim.given:
        tokens = ("i", "k") if "i" in condition.free else (None,)
        for token in tokens:
            m = evaluate(condition.rhs, algebra, token or "i", "h") - evaluate(
                condition.lhs, algebra, token or "i", "h"
            )
            if m.summand != 0:
                raise NotReducible(f"given {condition.text} holds per token, not as a sum over tokens")
            sign = {"<=": ">=0", "<": ">0", ">=": "<=0", ">": "<0"}[condition.op]
            m_expr = m.free if token != "k" else _retoken(m.free, "i", "k")
            margins.append((m_expr if sign[0] == ">" else -m_expr, ">" + sign[1:]))
    return Reduced(value, _TARGET[relation.op], margins)


def _orthogonal(expr: sp.Expr) -> sp.Expr:
    """<f_h, F>@t -> <f_h, f_h>@t (orthogonality lemma)."""
    rule = {s: _atom(str(s).replace("<F,f_h>", "<f_h,f_h>")) for s in expr.free_symbols if "<F,f_h>" in str(s)}
    return sp.expand(expr.xreplace(rule))


def _tangent(expr: sp.Expr) -> sp.Expr:
    """<b, b'>@t -> [P b, P b']@t + <x, b>@t <x, b'>@t for b, b' other than x (unit tokens)."""
    rule = {}
    for s in expr.free_symbols:
        name = str(s)
        if name.startswith("<") and not name.startswith("<x,") and ",x>" not in name:
            first, second = name[1:].split(">")[0].split(",")
            token = name.split("@")[1]
            radial = _atom(f"<{min('x', first)},{max('x', first)}>@{token}")
            radial2 = _atom(f"<{min('x', second)},{max('x', second)}>@{token}")
            rule[s] = _atom(f"[P{first},P{second}]@{token}") + radial * radial2
    return sp.expand(expr.xreplace(rule))


def _facts(residual: Form, margins: list[tuple[sp.Expr, str]], positive_energy: bool = True) -> dict[sp.Expr, str]:
    """The sign of every atom: symbols, energies > 0 (exp weights only: an interaction's Phi has no known sign);
    squared norms, entropies >= 0; everything else real."""
    atoms = set(residual.free.free_symbols | residual.summand.free_symbols)
    for m, _ in margins:
        atoms |= m.free_symbols
    known: dict[sp.Expr, str] = {}
    for s in atoms:
        name = str(s).split("@")[0]
        first, _, second = name.strip("<>[]").partition(",")
        energy = name == "E" or (name.startswith("E_") and "/" not in name)
        if s in POSITIVE_SYMBOLS.values() or (energy and positive_energy):
            known[s] = "positive"
        elif (name.startswith(("<", "[")) and first == second) or _is_entropy(name):
            known[s] = "nonnegative"
        else:
            known[s] = "real"
    return known


def _is_entropy(name: str) -> bool:
    """An attention entropy (of one head, or summed over the heads): >= 0; not its rate."""
    return name == "sum_h entropy" or (name.startswith("entropy_") and not name.startswith("entropy_rate"))


def _use_margins(
    d: Derivation, residual: Form, margins: list[tuple[sp.Expr, str]], known: dict[sp.Expr, str]
) -> tuple[Form, dict[sp.Expr, str]]:
    """Each margin m (>= 0 or > 0 at its token) solved for one atom of rational coefficient, replaced by a new atom
    of that sign: an identity, so the residual is unchanged as a function of the configuration."""
    margins = list(margins)
    for index, (margin, relation) in enumerate(margins):
        poly_atoms = sorted(margin.free_symbols - set(POSITIVE_SYMBOLS.values()), key=str)
        chosen = None
        for atom in poly_atoms:
            coefficient = sp.expand(margin).coeff(atom, 1)
            rest = sp.expand(margin - coefficient * atom)
            if isinstance(coefficient, sp.Rational) and coefficient != 0 and not rest.has(atom):
                chosen = (atom, coefficient, rest)
                if residual.free.has(atom) or residual.summand.has(atom):
                    break
        if chosen is None:
            d.failures.append(f"given condition {margin} {relation} has no atom to solve for")
            continue
        atom, coefficient, rest = chosen
        mu = _atom(f"m{index}@{str(atom).split('@')[1]}")
        value = (mu - rest) / coefficient
        residual = Form(
            sp.expand(residual.free.xreplace({atom: value})), sp.expand(residual.summand.xreplace({atom: value}))
        )
        margins[index + 1 :] = [(sp.expand(m.xreplace({atom: value})), r) for m, r in margins[index + 1 :]]
        known = {s: v for s, v in known.items() if s != atom} | {mu: "positive" if relation == ">0" else "nonnegative"}
        d.note(f"Given condition at token {str(atom).split('@')[1]}: m = {margin} {relation[0]} 0, so {atom} = {value}")
    return residual, known


def _decide(d: Derivation, residual: Form, relation: str, known: dict[sp.Expr, str]) -> None:
    """Zero or sign of free + sum_k summand: folded into one summand when the free part is global."""
    free, summand = residual.free, residual.summand
    n = POSITIVE_SYMBOLS["n"]
    if not _markers(free, "i") and summand != 0:
        summand, free = sp.expand(summand + free / n), sp.Integer(0)
        d.note("Terms free of the tokens are spread over the sum (sum_k c / n = c)")
    present = free.free_symbols | summand.free_symbols
    declared = {s: v for s, v in known.items() if s in present}
    shifts = {}
    for name, least in LEAST.items():  # n = n_0 + 2, d = d_0 + 1, H = H_0 + 1 with n_0, d_0, H_0 >= 0
        symbol = POSITIVE_SYMBOLS[name]
        if symbol in present:
            base = _atom(f"{name}_0")
            declared[base] = "nonnegative"
            shifts[symbol] = (base, least)
    facts = signs.Facts(declared, shifts)
    if relation == "=0":
        d.zero("Per token k, the summand of rhs - lhs is identically 0", summand)
        d.zero("The part at the free token is identically 0", free)
        return
    sign = relation if relation[0] == ">" else ">" + relation[1:]
    flip = 1 if relation[0] == ">" else -1
    if summand == 0:
        d.sign(f"rhs - lhs {relation[:-1]} 0 at the free token", flip * free, sign, facts)
        return
    if free == 0:
        d.sign(
            f"Per token k, the summand of rhs - lhs is {relation[:-1]} 0, hence so is the sum",
            flip * summand,
            sign,
            facts,
        )
        return
    total = _atom("S")
    if d.sign(f"Per token k, the summand is {relation[:-1]} 0: so is S = its sum", flip * summand, sign, facts):
        d.sign("With S, rhs - lhs has the sign", flip * free + total, sign, facts.with_signs(**{_name(sign): [total]}))


def _name(sign: str) -> str:
    return "positive" if sign == ">0" else "nonnegative"
