"""Proving a `model` claim for all n, d, H: the Gram reduction of both sides over tokens and heads, then exact zero
and sign tests.

The sides are interpreted (`headflow.certificates.claims.model_algebra.evaluate`) in a symbolic algebra whose values are
polynomials in the atoms of `checks.claimsfile.model_atoms`: pairings of a token's vectors (x, f^h, F = sum_h f^h,
xbar^h, and words of head h's matrices applied to them, `checks.claimsfile.model_words`), pairings across two tokens,
named scalars at a token or a pair of tokens (Z^h_t, entropies, scores, weights), energies, strengths lambda_h,
logarithms of positive atoms. Every monomial is summed over the
bound tokens (dummies) it contains: a sum over a token binds a fresh dummy (a monomial without it gains a factor n), a
product of two sums renames one's dummies apart (sum_k a_k sum_l b_l = sum_k sum_l a_k b_l), so products of token
sums, double sums and vector-valued sums (`norm2(sum_i(x_i))`) are polynomials too; relabelling the dummies of a
monomial leaves its sum unchanged, which puts the residual in a canonical form (`model_atoms.canonical`).

What makes a general statement reducible is proved once, each time it is used, by `headflow.identities.energy`:

- gradient lemma (usa, M_h = M_h^T, W_h = M_h): dE_h/dt = (1/n^2) sum_k <xdot_k, f^h_k> (and dE/dt with F);
- the same gradient for any kind and values (M_h symmetric): dE_h/dt = (1/n^2) sum_k Z^h_k <xdot_k, M_h xbar^h_k>;
- orthogonality lemma (M_h M_g = 0, symmetric, W = M): <f^h_t, f^g_t> = 0 for h != g, hence <f^h_t, F_t> = |f^h_t|^2
  and |F_t|^2 = sum_h |f^h_t|^2;
- approximate orthogonality lemma (|M_h M_g|_F <= delta, symmetric, W = M, unit tokens, usa or softmax): the lower and
  the upper bound of <f^h_t, F_t> - |f^h_t|^2 (within delta W^h_t (sum_g W^g_t - W^h_t), W the weights' row sums)
  as conditions at every token, tried one after the other;
- entropy lemma (`identities.entropy`): H^h_t = log Z^h_t - beta <x_t, M_h xbar^h_t>, and H^h_t >= 0 (cited) as a
  condition at every token;
- head matrices: M_h = lambda_h I (lambda_h > 0) for scalar heads, W_h = M_h for aligned values; symmetric matrices
  move between the sides of a pairing. A matrix inside a sum over heads, on a vector of another head, or an attention
  mean inside a sum over heads is not reduced (never identified with another head's quantity);
- sums over heads: a term linear in the summed head's quantities is that term with F (E, dE/dt) for f (E_h, dE_h/dt),
  a term free of it H times itself, and a term of higher degree in it (`sum_h(norm2(f_h_i))`) the atom Σ_g of its
  head-dependent part, whose sign is that of the part (a sum over H >= 1 heads);
- the definitions: w^h_ij = p^h_ij for softmax, s^h_ij = s^h_ji (and w^h_ij = w^h_ji for usa and relu) for
  symmetric scores, sum_j p^h_ij = 1, w^h_ij > 0 (usa, softmax; >= 0 for relu), p^h_ij > 0, entropies >= 0,
  E_h > 0, Z^h_t > 0, log n > 0 (n >= 2), log d, log H >= 0.

Unit tokens (<x_t, x_t> = 1) put every other pairing at one token in tangent coordinates, <b, b'> = <P b, P b'> +
<x, b><x, b'>, whose squares |P b|^2 are declared >= 0. A `given` condition m >= 0 (at every token, for head h) is used
by solving m for one atom of rational coefficient and declaring m >= 0, at the free token and at every dummy (one
atom m_c@t per condition c and token t, so that relabelling the dummies maps the conditions to themselves); a global
one (a sum over tokens, such as sum_i a^h_i A^h_i <= sum_i T^h_i or dE_h/dt >= 0 by the gradient lemma) is used as a
whole, rhs - lhs = c G + rest with G its margin and c a multiplier in the sizes whose sign is proved
(`headflow.checks.claimsfile.model_summed_given`). A sum of
a summand with a proved sign has that sign (n >= 1 terms per dummy); a double sum is also decided after folding every
level into the deepest one and averaging over the relabellings of its dummies (n sum_k a_k^2 - (sum_k a_k)^2 =
sum_{k,l} (a_k - a_l)^2 / 2). Zeros are shown by `identities.zero_test` and signs by `identities.signs` (via the
`identities.derivation` steps): nothing SymPy evaluates decides. What does not reduce (an entropy rate, dE_h/dt without
symmetric scores, a Gram double sum's positivity, a head sum of a head sum of higher degree) stays an opaque
atom or makes the claim not provable here; then the search decides. A claim's `domain` enters by the lower ends of
its sizes (n = n_0 + n_min, ...): a proof for those holds on the ranges.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp
from headflow.certificates.claims.model_algebra import evaluate
from headflow.certificates.claims.model_claim import parse_term
from headflow.certificates.claims.schema import ModelClaim
from headflow.certificates.kernel.ball_model import stated_delta
from headflow.certificates.kernel.model_terms import Term
from headflow.checks.claimsfile import model_atoms as atoms
from headflow.checks.claimsfile import model_summed_given as summed_given
from headflow.checks.claimsfile import model_words as words
from headflow.checks.claimsfile.model_atoms import Basis
from headflow.identities import energy, entropy, signs
from headflow.identities.derivation import Derivation

ZERO = sp.Integer(0)
#: Rounds of tangent coordinates: a pairing <x, A b> renamed <A x, b> is written in them again (words are short).
TANGENT_ROUNDS = 4
POSITIVE_SYMBOLS = {name: sp.Symbol(name) for name in ("n", "d", "H", "beta")}
N, HEADS = POSITIVE_SYMBOLS["n"], POSITIVE_SYMBOLS["H"]
#: The most tokens one monomial may be summed over (products of this many token sums).
MAX_DUMMIES = 4
#: The signs of the logarithms of the sizes (n >= 2, d >= 1, H >= 1; beta > 0 has none).
LOG_SIGNS = {N: "positive", POSITIVE_SYMBOLS["d"]: "nonnegative", HEADS: "nonnegative"}
#: The entropy of head h's softmax row at token i, reduced (`identities.entropy.entropy_lemma`, s_ij = <x_i, M_h x_j>).
ENTROPY = "log(Z_h_i) - beta * inner(x_i, M_h(xbar_h_i))"
METHOD = "symbolic: Gram reduction over tokens and heads, lemmas of identities.energy, exact zero and sign tests"


class NotReducible(Exception):
    """The statement leaves the reducible subset (the reason is the message)."""


@dataclass(frozen=True)
class Form:
    """A scalar: a polynomial in atoms, each monomial summed over the dummies it contains."""

    expr: sp.Expr
    algebra: SymbolicAlgebra = field(compare=False, repr=False)

    def __add__(self, other: Form) -> Form:
        return Form(self.expr + other.expr, self.algebra)

    def __sub__(self, other: Form) -> Form:
        return Form(self.expr - other.expr, self.algebra)

    def __neg__(self) -> Form:
        return Form(-self.expr, self.algebra)

    def __mul__(self, other: Form) -> Form:
        right = self.algebra.apart(other.expr, atoms.dummies(self.expr))
        return Form(sp.expand(self.expr * right), self.algebra)

    def __truediv__(self, other: Form) -> Form:
        if other.expr.free_symbols - set(POSITIVE_SYMBOLS.values()) or other.expr == 0:
            raise NotReducible("a division by a model quantity")
        return Form(sp.expand(self.expr / other.expr), self.algebra)

    def __pow__(self, k: int) -> Form:
        out = Form(sp.Integer(1), self.algebra)
        for _ in range(k):
            out = out * self
        return out


Vec = dict[Basis, Form]


def _summed_head(head: str | None) -> bool:
    """Whether `head` is a head a sum is being taken over (s1, s2, ...), not the free head h."""
    return head is not None and head.startswith("s")


def _dummies_of_basis(b: Basis) -> set[str]:
    return {b[2]} if b[2].startswith("t") else set()


def _bound(expr: sp.Expr, bound: set[str]) -> sp.Expr:
    """expr with each monomial multiplied by n for every token of `bound` it lacks (a sum over an unused token)."""
    return sp.Add(*(m * N ** len(bound - atoms.dummies(m)) for m in atoms.monomials(expr)))


@dataclass
class SymbolicAlgebra:
    """Model terms as Forms and Vecs (see the module docstring); `lemmas` records which lemma a reduction used."""

    attention: str
    geometry: str
    hypotheses: tuple[str, ...]
    lemmas: set[str]
    counter: Any = field(default_factory=lambda: itertools.count(1))
    #: Whether the weights are a stated interaction phi(s) (`certificates.kernel.interaction`), not exp(beta s): then
    #: an energy and an unnormalized weight have no known sign, and a normalized weight is not the softmax p.
    interaction: bool = False
    #: The claim's model options beyond the paper (`headflow.certificates.claims.model_claim`): under a mask a weight
    #: is only >= 0 and not symmetric, and the gradient lemma does not hold; beta < 0 makes beta, E, E_h negative.
    mask: str = "none"
    beta_sign: str = "positive"
    token: str = "every"
    #: The free head's entropy was reduced (its non-negativity becomes a condition at every token).
    entropy: bool = False
    #: The claim's domain has one head (H = 1): a sum over the heads is head h's term (its matrices any).
    one_head: bool = False

    @property
    def unit(self) -> bool:
        return "unit-tokens" in self.hypotheses

    @property
    def gradient(self) -> bool:
        """The gradient lemma's hypotheses; a mask breaks it (`energy.gradient_lemma(masked=True)` does not close)."""
        aligned = {"symmetric-scores", "aligned-values"} <= set(self.hypotheses)
        return self.attention == "usa" and aligned and self.mask == "none"

    @property
    def softmax_means(self) -> bool:
        """Softmax weights exp(beta s) over every key: a head output is its values applied to the attention mean,
        f^h_i = sum_j p^h_ij W_h x_j = W_h xbar^h_i (xbar^h_i = sum_j p^h_ij x_j, the same weights)."""
        return self.attention == "softmax" and not self.interaction and self.mask == "none"

    @property
    def first_token_alone(self) -> bool:
        """Under the causal mask the first token attends to itself only: f^h_1 = w^h_11 W_h x_1, a multiple of x_1
        when W_h = I (identity-values) or W_h = M_h = lambda_h I (scalar, aligned heads)."""
        wanted = set(self.hypotheses)
        scalar_values = "identity-values" in wanted or {"scalar-heads", "aligned-values"} <= wanted
        return self.mask == "causal" and self.token == "first" and scalar_values

    @property
    def orthogonal(self) -> bool:
        return {"orthogonal-heads", "symmetric-scores", "aligned-values"} <= set(self.hypotheses)

    def fresh(self, prefix: str) -> str:
        return f"{prefix}{next(self.counter)}"

    def apart(self, expr: sp.Expr, taken: set[str]) -> sp.Expr:
        """expr with its dummies that are in `taken` renamed to fresh ones (independent sums)."""
        shared = atoms.dummies(expr) & taken
        return atoms.rename(expr, {t: self.fresh("t") for t in shared}, {}) if shared else expr

    def number(self, value: Fraction) -> Form:
        return Form(sp.Rational(value.numerator, value.denominator), self)

    def symbol(self, name: str) -> Form:
        return Form(POSITIVE_SYMBOLS[name], self)

    @property
    def identical(self) -> bool:
        """Every M_h = alpha I with one alpha: the heads' scores, weights, means and energies are head h's."""
        return "identical-heads" in self.hypotheses

    @property
    def same_values(self) -> bool:
        """Identical heads whose values are one matrix too (W_h = M_h, or W_h = I): every f^g is f^h."""
        return self.identical and bool({"aligned-values", "identity-values"} & set(self.hypotheses))

    def same_head(self, head: str | None, outputs: bool = False) -> str | None:
        """The free head h for any head, where every head's quantity is head h's (`identical`; for head outputs,
        `same_values`)."""
        if head is None or not (self.same_values if outputs else self.identical):
            return head
        self.lemmas.add("identical")
        return "h"

    def vector(self, name: str, token: str, head: str | None) -> Vec:
        head = self.same_head(head, outputs=name == "f") if name in ("f", "xbar") else head
        if name == "xbar" and _summed_head(head):
            raise NotReducible("an attention mean inside a sum over heads")
        if token == "i" and name in ("f", "F") and self.first_token_alone:  # f^h_1 = c_h x_1, F_1 = (sum_h c_h) x_1
            self.lemmas.add("first-token")
            coefficient = atoms.scalar("c1" if name == "f" else "cF1", head if name == "f" else None, ("i",))
            return {("x", None, "i"): Form(coefficient, self)}
        if name == "F" and self.one_head:  # F = sum_g f^g = f^h, the one head's
            self.lemmas.add("one head")
            return self.vector("f", token, "h")
        if name == "f" and self.softmax_means and not _summed_head(head):  # f^h = sum_j p^h_j W_h x_j = W_h xbar^h
            self.lemmas.add("softmax means")
            return self.apply("W", head, {("xbar", head, token): Form(sp.Integer(1), self)})
        if name == "F" and self.same_values:  # F = sum_g f^g = H f^h
            self.lemmas.add("identical")
            return {("f", "h", token): Form(HEADS, self)}
        return {(name, head if name in ("f", "xbar") else None, token): Form(sp.Integer(1), self)}

    def scalar(self, name: str, token: str | None, head: str | None) -> Form:
        if name in ("E", "dE_dt") and self.one_head:  # E = sum_g E_g = E_h, the one head's
            self.lemmas.add("one head")
            return self.scalar(name.replace("E", "E_h", 1), token, "h")
        if name in ("E", "dE_dt") and self.identical:  # E = sum_g E_g = H E_h, so dE/dt = H dE_h/dt
            self.lemmas.add("identical")
            return Form(HEADS, self) * self.scalar(name.replace("E", "E_h", 1), token, "h")
        head = self.same_head(head, outputs=name == "misalignment_h")  # |W_h - M_h|: the values too
        if name in ("dE_dt", "dE_h_dt") and self.gradient:
            self.lemmas.add("gradient")
            body = "inner(xdot_i, F_i)" if name == "dE_dt" else "inner(xdot_i, f_h_i)"
            return evaluate(parse_term(f"sum_i({body}) / n**2"), self, None, head)
        energy_gradient = not (_summed_head(head) or self.interaction) and self.mask == "none"  # m_jk = m_kj needed
        if name == "dE_h_dt" and energy_gradient and "symmetric-scores" in self.hypotheses:
            self.lemmas.add("energy gradient")  # any kind: the usa energy's gradient, sum_j e^(beta s_kj) M x_j
            return evaluate(parse_term("sum_i(Z_h_i * inner(xdot_i, M_h(xbar_h_i))) / n**2"), self, None, head)
        if name == "entropy_h_i" and not _summed_head(head):
            self.lemmas.add("entropy")
            self.entropy = True
            return evaluate(parse_term(ENTROPY), self, token, head)
        if name == "cluster_gap":
            raise NotReducible("cluster_gap (a minimum over pairs of tokens)")
        if name == "delta_op":  # max_{h != g} |M_h M_g|_op >= 0 of the configuration
            return Form(atoms.scalar("delta_op", None, ()), self)
        if name == "delta":
            delta = stated_delta(self.hypotheses)
            assert delta is not None  # the claim's fields require the hypothesis with its delta
            return self.number(delta)
        named = {
            "E": ("E", None),
            "E_h": ("E", head),
            "dE_dt": ("dE", None),
            "dE_h_dt": ("dE", head),
            "lambda_h": ("lambda", head),
            "misalignment_h": ("misalignment", head),
        }
        if name in named:
            label, at = named[name]
            return Form(atoms.scalar(label, at, ()), self)
        assert token is not None
        return Form(atoms.scalar(name.removesuffix("_h_i"), head, (token,)), self)

    def pair_scalar(self, name: str, head: str, first: str, second: str) -> Form:
        head = self.same_head(head) or head
        if name == "w" and self.attention == "softmax" and not self.interaction:
            name = "p"  # w^h_ij = softmax_j(beta s^h_ij) = p^h_ij
        # w = exp(beta s), max(beta s, 0)/n or phi(s) unnormalized: symmetric with s; a normalized weight is not
        symmetric = "symmetric-scores" in self.hypotheses and (
            name == "s" or (name == "w" and self.attention != "softmax" and self.mask == "none")
        )
        return Form(atoms.scalar(name, head, (first, second), symmetric), self)

    def apply(self, matrix: str, head: str, u: Vec) -> Vec:
        """M_h u or W_h u: lambda_h u for scalar heads (W_h = M_h when aligned), else the word per basis vector
        (`model_words`); a head matrix inside a sum over heads, or on a vector of another head, is not reduced
        (unless every head has the same matrix: identical heads)."""
        head = self.same_head(head, outputs=matrix == "W") or head
        if _summed_head(head):
            raise NotReducible("a head's matrix applied inside a sum over heads")
        if matrix == "W" and "aligned-values" in self.hypotheses:
            matrix = "M"
        if matrix == "M" and self.identical:
            self.lemmas.add("identical")
            return self.scale(Form(atoms.scalar("alpha", None, ()), self), u)
        if matrix == "M" and "scalar-heads" in self.hypotheses:
            self.lemmas.add("scalar")
            return self.scale(Form(atoms.scalar("lambda", head, ()), self), u)
        out: Vec = {}
        for key, c in u.items():
            applied = words.apply(matrix, head, key)
            if applied is None:
                raise NotReducible(f"{matrix}_{head} applied to a vector of another head")
            out = self.add(out, {applied: c})
        return out

    def root(self, value: Form) -> Form:
        raise NotReducible("a norm |u| (a square root)")

    def log(self, value: Form) -> Form:
        """log of a positive atom (Z, E, E_h) or size (n, d, H, beta): an atom of its own."""
        if not isinstance(value.expr, sp.Symbol):
            raise NotReducible("a logarithm of a reduced expression")
        data = atoms.info(value.expr)
        if self.interaction and data is not None and data.label == "E":
            raise NotReducible("the log of an energy of a stated interaction (of no known sign)")
        if self.beta_sign == "negative" and (value.expr == POSITIVE_SYMBOLS["beta"] or (data and data.label == "E")):
            raise NotReducible("the log of beta or of an energy for beta < 0 (both negative)")
        return Form(atoms.logarithm(value.expr), self)

    def add(self, u: Vec, w: Vec) -> Vec:
        out = dict(u)
        for key, c in w.items():
            out[key] = out[key] + c if key in out else c
        return out

    def scale(self, c: Form, u: Vec) -> Vec:
        out: Vec = {}
        for key, value in u.items():
            factor = Form(self.apart(c.expr, _dummies_of_basis(key) | atoms.dummies(value.expr)), self)
            out[key] = factor * value
        return out

    def inner(self, u: Vec, w: Vec) -> Form:
        total = ZERO
        for a, ca in u.items():
            for b, cb in w.items():
                taken = _dummies_of_basis(a) | atoms.dummies(ca.expr)
                shared = (_dummies_of_basis(b) | atoms.dummies(cb.expr)) & taken
                if shared:
                    mapping = {t: self.fresh("t") for t in shared}
                    b = (b[0], b[1], mapping.get(b[2], b[2]))
                    cb = Form(atoms.rename(cb.expr, mapping, {}), self)
                pairing = self.pair(a, b)
                for mu in atoms.monomials(ca.expr):
                    for nu in atoms.monomials(cb.expr):
                        bound = _dummies_of_basis(a) | _dummies_of_basis(b) | atoms.dummies(mu * nu)
                        total += _bound(sp.expand(mu * nu * pairing), bound)
        return Form(sp.expand(total), self)

    def pair(self, a: Basis, b: Basis) -> sp.Expr:
        """<a, b>: symmetric head matrices moved between the sides (`model_words.pairing`); 1 for a unit token with
        itself; by the orthogonality lemma at one token <f^h, F> = |f^h|^2 and |F|^2 = sum_h |f^h|^2."""
        symmetric = {"M": "symmetric-scores", "W": "symmetric-values"}
        a, b = words.pairing(a, b, frozenset(k for k, v in symmetric.items() if v in self.hypotheses))
        if a[0] == b[0] == "x" and a[2] == b[2] and self.unit:
            return sp.Integer(1)
        if self.orthogonal and a[2] == b[2] and "F" in (a[0], b[0]) and {a[0], b[0]} <= {"F", "f"}:
            self.lemmas.add("orthogonality")
            if a[0] == b[0] == "F":
                own = ("f", "g", a[2])
                return atoms.headsum(atoms.gram(own, own), "g")
            own = a if a[0] == "f" else b
            return atoms.gram(own, own)
        return atoms.gram(a, b)

    def token_sum(self, body: Callable[[str], Any], vector: bool = False) -> Any:
        opened, bound = self.fresh("u"), self.fresh("t")
        value = body(opened)
        if not vector:
            return Form(self._bind(value.expr, opened, bound, False), self)
        out: Vec = {}
        for key, coefficient in value.items():
            moved = key[2] == opened
            new_key = (key[0], key[1], bound if moved else key[2])
            term = Form(self._bind(coefficient.expr, opened, bound, moved), self)
            out[new_key] = out[new_key] + term if new_key in out else term
        return out

    def _bind(self, expr: sp.Expr, opened: str, bound: str, present: bool) -> sp.Expr:
        """The sum over the token `opened` of expr, now the dummy `bound` (n times a monomial without it)."""
        expr = atoms.rename(expr, {opened: bound}, {})
        return sp.expand(sp.Add(*(m if present or bound in atoms.dummies(m) else N * m for m in atoms.monomials(expr))))

    def head_sum(self, body: Callable[[str], Any], vector: bool = False) -> Any:
        marker = self.fresh("s")
        value = body(marker)
        if not vector:
            return Form(self.sum_heads(value.expr, marker), self)
        out: Vec = {}
        for key, coefficient in value.items():
            if key[1] == marker:
                if key[0] != "f":
                    raise NotReducible(f"a sum over heads of {key[0]} (only head outputs sum to F)")
                if any(marker in atoms.heads_of(s) for s in coefficient.expr.free_symbols):
                    raise NotReducible("a sum over heads of head outputs with coefficients of the same head")
                new_key, term = ("F", None, key[2]), coefficient
            else:
                new_key, term = key, Form(self.sum_heads(coefficient.expr, marker), self)
            out[new_key] = out[new_key] + term if new_key in out else term
        return out

    def sum_heads(self, expr: sp.Expr, marker: str) -> sp.Expr:
        """The sum over the head `marker` of expr, monomial by monomial (see the module docstring)."""
        total = ZERO
        for term in atoms.monomials(expr):
            powers = term.as_powers_dict()
            dependent = {b: e for b, e in powers.items() if isinstance(b, sp.Symbol) and marker in atoms.heads_of(b)}
            rest = term / sp.Mul(*(b**e for b, e in dependent.items()))
            if not dependent:
                total += HEADS * term
            elif len(dependent) == 1 and next(iter(dependent.values())) == 1 and _linear(next(iter(dependent)), marker):
                total += rest * self.summed(next(iter(dependent)), marker)
            elif any(atoms.info(b).kind == "headsum" for b in dependent):  # type: ignore[union-attr]
                raise NotReducible("a sum over heads of another head sum of higher degree")
            else:
                total += rest * atoms.headsum(sp.Mul(*(b**e for b, e in dependent.items())), marker)
        return sp.expand(total)

    def summed(self, atom: sp.Symbol, marker: str) -> sp.Expr:
        """sum over the head `marker` of an atom linear in it."""
        data = atoms.info(atom)
        assert data is not None
        if data.kind in ("gram", "tangent"):
            if any(v[1] == marker and v[0] != "f" for v in data.bases):
                raise NotReducible("a sum over heads of a pairing with a head's matrices or mean")
            a, b = (("F", None, v[2]) if v[1] == marker else v for v in data.bases)
            return self.pair(a, b) if data.kind == "gram" else atoms.tangent(a, b)
        if data.kind == "global" and data.label in ("E", "dE"):
            return atoms.scalar(data.label, None, ())
        return atoms.headsum(atom, marker)

    def tangent_coordinates(self, expr: sp.Expr) -> sp.Expr:
        """<b, b'>@t -> [P b, P b']@t + <x, b>@t <x, b'>@t for a token's vectors other than x, inside head sums too;
        each <x, b> named by `pair` (a symmetric matrix moved onto x: <x, M xbar> is <M x, xbar>, itself written in
        tangent coordinates in the next round, so equal pairings meet under one name)."""
        for _ in range(TANGENT_ROUNDS):
            rule: dict[sp.Symbol, sp.Expr] = {}
            for s in expr.free_symbols:
                data = atoms.info(s)
                if data is None:
                    continue
                if data.kind == "gram" and len(data.tokens) == 1 and "x" not in (data.bases[0][0], data.bases[1][0]):
                    a, b = data.bases
                    x = ("x", None, a[2])
                    rule[s] = atoms.tangent(a, b) + self.pair(x, a) * self.pair(x, b)
                elif data.kind == "headsum":
                    assert data.inner is not None
                    rule[s] = self.sum_heads(self.tangent_coordinates(data.inner), "g")
            if not rule:
                break
            expr = sp.expand(expr.xreplace(rule))
        return expr

    def sign_name(self, atom: sp.Symbol) -> str:
        """The declared sign of an atom (see the module docstring)."""
        if atom == POSITIVE_SYMBOLS["beta"] and self.beta_sign == "negative":
            return "negative"
        if atom in POSITIVE_SYMBOLS.values():
            return "positive"
        data = atoms.info(atom)
        if data is None:
            return "real"
        if data.kind in ("gram", "tangent") and data.bases[0] == data.bases[1]:
            return "nonnegative"
        if data.kind == "global":  # energies (of exp: beta's sign); a scalar head's strength (lambda_h > 0)
            if data.label == "E" and not self.interaction:  # sum_ij m_ij exp(beta s) / (2 beta n^2)
                return "negative" if self.beta_sign == "negative" else "positive"
            nonnegative = ("delta_op", "misalignment")  # norms
            return "positive" if data.label == "lambda" else "nonnegative" if data.label in nonnegative else "real"
        if data.kind == "scalar":  # entropies; normalizers, sums of exponentials (with any interaction)
            return {"entropy": "nonnegative", "Z": "positive"}.get(data.label, "real")
        if data.kind == "log":  # log n > 0 (n >= 2), log d, log H >= 0
            return LOG_SIGNS.get(data.inner, "real") if isinstance(data.inner, sp.Symbol) else "real"
        if data.kind == "pair":
            weight = "real" if self.interaction else "nonnegative" if self.attention == "relu" else "positive"
            if self.mask != "none":  # a masked weight is 0
                weight = "real" if self.interaction else "nonnegative"
            return {"w": weight, "p": "positive" if self.mask == "none" else "nonnegative"}.get(data.label, "real")
        if data.kind == "headsum":
            assert data.inner is not None
            facts = signs.Facts({s: self.sign_name(s) for s in data.inner.free_symbols})
            found = signs.sign_of(data.inner, facts)
            if found is not None and found <= signs.NONNEGATIVE:
                return "positive" if found <= signs.POSITIVE else "nonnegative"
        return "real"


def _linear(atom: sp.Symbol, marker: str) -> bool:
    """The atom depends on head `marker` through one of its quantities, once."""
    data = atoms.info(atom)
    if data is None or data.kind == "headsum":
        return False
    return [b[1] for b in data.bases].count(marker) + (data.head == marker) == 1


#: `lhs op rhs` as `rhs - lhs relation 0`, with the signs module's relation names.
_TARGET = {"=": "=0", "<=": ">=0", "<": ">0", ">=": "<=0", ">": "<0"}


def prove_model(claim: ModelClaim) -> Derivation:
    """The derivation of the claim for all n, d, H, beta in its ranges (its `proved` says whether every step closed)."""
    d = Derivation()
    algebra = SymbolicAlgebra(
        claim.attention,
        claim.geometry,
        claim.hypotheses,
        set(),
        interaction=claim.interaction is not None,
        mask=claim.mask,
        beta_sign=claim.beta_sign,
        token=claim.token,
        one_head=claim.sizes.high["H"] == 1,
    )
    d.note(
        f"Model: {claim.attention} attention, {claim.geometry} dynamics; hypotheses {', '.join(claim.hypotheses)}"
        + ("; beta < 0" if claim.beta_sign == "negative" else "")
        + ("; causal mask" if claim.mask == "causal" else "")
        + ("; at the first token" if claim.token == "first" else ""),
        r"v_i = " + (r"\tfrac1n F_i" if claim.attention == "usa" else "F_i") + r",\ F_i = \sum_h f^h_i",
    )
    try:
        residual, conditions, summed = _reduce(claim, algebra)
        if algebra.entropy:  # H^h_t >= 0 at every token t, with H^h_t as reduced
            conditions.append((evaluate(parse_term(ENTROPY), algebra, "i", "h").expr, ">=0"))
        choices = _cross_term_bounds(claim, algebra)
        if algebra.unit:
            residual = algebra.tangent_coordinates(residual)
            conditions = [(algebra.tangent_coordinates(m), r) for m, r in conditions]
            choices = [(side, [(algebra.tangent_coordinates(m), r) for m, r in c], op) for side, c, op in choices]
            summed = [(algebra.tangent_coordinates(m), r) for m, r in summed]
        residual = _normalized(d, residual)
        summed = [(sp.Add(*atoms.canonical(_normalized(d, m), MAX_DUMMIES).values()), r) for m, r in summed]
        levels = atoms.canonical(residual, MAX_DUMMIES)
    except (NotReducible, ValueError) as exc:
        d.failures.append(f"not in the reducible subset: {exc}")
        return d
    if "gradient" in algebra.lemmas:
        general = claim.interaction is not None  # any phi: the lemma with phi an undefined function, Phi' = phi
        name = "gradient lemma" + (" (any interaction phi)" if general else "")
        d.include(energy.gradient_lemma(general=general, beta_sign=claim.beta_sign), name)
    elif "energy gradient" in algebra.lemmas:
        d.include(energy.gradient_lemma(beta_sign=claim.beta_sign), "gradient lemma")
    if claim.mask != "none" and {"symmetric-scores", "aligned-values"} <= set(claim.hypotheses):
        d.note("Mask: the gradient lemma with mask terms m_jk does not close (m_jk != m_kj), so dE/dt and dE_h/dt "
               "stay atoms (" + "; ".join(energy.gradient_lemma(masked=True).failures)[:200] + ")")  # fmt: skip
    if "first-token" in algebra.lemmas:
        d.note(
            "Causal mask, first token: it attends to itself only, so f^h_1 = w^h_11 W_h x_1 = c_h x_1 "
            "(W_h = I, or W_h = M_h = lambda_h I) and F_1 = (sum_h c_h) x_1"
        )
    _quantity_lemmas(d, algebra)
    if algebra.orthogonal:
        d.include(energy.orthogonality_lemma(), "orthogonality lemma")
        d.note("By the orthogonality lemma, <f^h_t, F_t> = |f^h_t|^2 and |F_t|^2 = sum_h |f^h_t|^2 at every token t")
    if algebra.unit:
        d.note("Unit tokens: <b, b'> = <P b, P b'> + <x, b><x, b'> for the token's vectors (tangent coordinates)")
    if any(level >= 2 for level in levels):
        d.note("Products of token sums as one sum over several tokens (dummies renamed apart, then relabelled)")
    if not choices:
        _close(d, claim, algebra, levels, (conditions, summed))
        return d
    for index, (side, extra, operator) in enumerate(choices):  # the lemma's lower bound, else its upper bound
        trial = Derivation()
        trial.include(energy.approximate_orthogonality_lemma(operator), "approximate orthogonality lemma")
        bound = "delta_op = max_{h != g} |M_h M_g|_op" if operator else "the stated delta"
        trial.note(
            f"The approximate orthogonality lemma's {side} bound on <f^h_t, F_t> - |f^h_t|^2 at each token t, "
            f"with {bound}"
        )
        _close(trial, claim, algebra, levels, ([*conditions, *extra], summed))
        if trial.proved or index == len(choices) - 1:
            d.steps += trial.steps
            d.failures += trial.failures
            break
    return d


def _close(
    d: Derivation,
    claim: ModelClaim,
    algebra: SymbolicAlgebra,
    levels: dict[int, sp.Expr],
    given: tuple[list[tuple[sp.Expr, str]], list[tuple[sp.Expr, str]]],
) -> None:
    """The conditions (each at the free token and at every dummy) used, then the zero or sign test of the residual.
    Condition c's margin at token t is the atom m_c@t, the same function of the configuration at every token (so
    that relabelling the dummies maps it to itself); a condition free of the token is used once, at i. `given` is
    (those per-token conditions, the global ones): the per-token ones are used in the residual and in the global
    ones' margins alike (an identity in both), then each way of using the global ones (`model_summed_given.uses`,
    most used first) is tried until one closes; when none does, the first one's failures are reported."""
    conditions, summed = given
    start = sp.Add(*levels.values())
    deepest = max(max(atoms.canonical(e, MAX_DUMMIES), default=0) for e in (start, *(m for m, _ in summed)))
    tokens = ["i", *(f"t{k + 1}" for k in range(deepest))]
    instances = {}
    for index, (m, r) in enumerate(conditions):
        for t in tokens:
            instances.setdefault((atoms.rename(m, {"i": t}, {}), r), atoms.margin(index, t))
    margins = [(m, r, mu) for (m, r), mu in instances.items()]
    total, facts, moved = _use_margins(d, start, margins, algebra, [m for m, _ in summed])
    facts |= {s: algebra.sign_name(s) for m in moved for s in m.free_symbols if s not in facts}
    trials = []
    uses = summed_given.uses(total, [(m, r) for m, (_, r) in zip(moved, summed, strict=True)], MAX_DUMMIES)
    for expr, declared, note in uses:
        trial = Derivation()
        if note:
            trial.note(f"Using {note}")
        _decide(trial, atoms.canonical(expr, MAX_DUMMIES), _TARGET[claim.relation.op], facts | declared, claim)
        trials.append(trial)
        if trial.proved:
            break
    chosen = trials[-1] if trials[-1].proved else trials[0]
    d.steps += chosen.steps
    d.failures += chosen.failures


def _cross_term_bounds(
    claim: ModelClaim, algebra: SymbolicAlgebra
) -> list[tuple[str, list[tuple[sp.Expr, str]], bool]]:
    """With symmetric, aligned heads on unit tokens (usa or softmax): under `orthogonal-heads(delta=q)`, and when the
    claim names `delta_op` (max_{h != g} |M_h M_g|_op, which bounds the same pairings), the lower and the upper bound
    of |<f^h_t, F_t> - |f^h_t|^2| <= delta W^h_t (sum_g W^g_t - W^h_t) as conditions at the free token (W = Z for
    usa, 1 for softmax: the weights' row sums), each with whether delta is delta_op; none otherwise."""
    needed = {"symmetric-scores", "aligned-values", "unit-tokens"}
    bounds = [("delta", False)] if stated_delta(claim.hypotheses) is not None else []
    bounds += [("delta_op", True)] if _names_delta_op(claim) else []
    if (
        claim.interaction is not None  # the lemma's weights are the kind's own (exp(beta s), softmax)
        or claim.attention not in ("usa", "softmax")
        or not needed <= set(claim.hypotheses)
    ):
        return []
    weight = "Z_h_i * (sum_h(Z_h_i) - Z_h_i)" if claim.attention == "usa" else "(H - 1)"
    cross = "inner(f_h_i, F_i) - norm2(f_h_i)"
    return [
        (side, [(evaluate(parse_term(text), algebra, "i", "h").expr, ">=0")], operator)
        for name, operator in bounds
        for side, text in (("lower", f"{cross} + {name} * {weight}"), ("upper", f"{name} * {weight} - ({cross})"))
    ]


def _names_delta_op(claim: ModelClaim) -> bool:
    """Whether a side or a given condition of the claim names delta_op."""

    def names(term: Term) -> bool:
        if term.op == "scalar":
            return term.args[0] == "delta_op"
        return any(names(a) for a in term.args if isinstance(a, Term))

    return any(names(t) for r in (claim.relation, *claim.given) for t in (r.lhs, r.rhs))


#: The note each lemma of the Gram algebra adds to a derivation (in this order), when the algebra used it.
LEMMA_NOTES = {
    "scalar": "Scalar heads: M_h = lambda_h I with lambda_h > 0 (and W_h = M_h when the values are aligned)",
    "identical": (
        "Identical heads: M_h = alpha I for every head h, one real alpha of any sign, so every head's scores, "
        "weights, attention means and energies are head h's (E = H E_h, dE/dt = H dE_h/dt); with W_h = M_h or "
        "W_h = I also every output, f^g = f^h and F = H f^h"
    ),
    "one head": "One head (the domain's H = 1): the sums over heads are head h's terms, E = E_h and F = f^h",
    "softmax means": (
        "Softmax weights exp(beta s) over every key: f^h_k = sum_j p^h_kj W_h x_j = W_h xbar^h_k (linearity; "
        "xbar^h_k = sum_j p^h_kj x_j with the same weights)"
    ),
    "energy gradient": (
        "The lemma holds for any motion xdot (any attention kind, any values): with M_h symmetric, "
        "dE_h/dt = (1/n^2) sum_k <xdot_k, sum_j e^(beta s_kj) M_h x_j>, and sum_j e^(beta s_kj) M_h x_j = "
        "Z^h_k M_h xbar^h_k by linearity (xbar^h_k = sum_j p^h_kj x_j, p^h_kj = e^(beta s_kj) / Z^h_k)"
    ),
}


def _quantity_lemmas(d: Derivation, algebra: SymbolicAlgebra) -> None:
    """The steps behind the reductions of head matrices, dE_h/dt for any kind and entropies."""
    for lemma, note in LEMMA_NOTES.items():
        if lemma in algebra.lemmas:
            d.note(note)
    if "entropy" in algebra.lemmas:
        entropy.entropy_lemma(d)
        d.note("sum_j p^h_tj s^h_tj = <x_t, M_h xbar^h_t>: the score is linear in its second token")
        d.cite(
            "entropy is non-negative",
            "H^h_t >= 0 at every token t, used as a condition where H^h_t occurs",
            "0 < p^h_tj <= 1, so every term -p log p is >= 0",
        )


def _reduce(
    claim: ModelClaim, algebra: SymbolicAlgebra
) -> tuple[sp.Expr, list[tuple[sp.Expr, str]], list[tuple[sp.Expr, str]]]:
    """rhs - lhs, each per-token given condition's margin m (m >= 0 or m > 0) at the free token, and each global
    one's (a sum over tokens free of the token i: `model_summed_given`)."""
    relation = claim.relation
    value = evaluate(relation.rhs, algebra, "i", "h") - evaluate(relation.lhs, algebra, "i", "h")
    margins, summed = [], []
    for condition in claim.given:
        m = (evaluate(condition.rhs, algebra, "i", "h") - evaluate(condition.lhs, algebra, "i", "h")).expr
        if atoms.dummies(m) and not summed_given.is_global(m):
            raise NotReducible(f"given {condition.text} mixes the token i with a sum over tokens")
        sign = {"<=": ">=0", "<": ">0", ">=": "<=0", ">": "<0"}[condition.op]
        margin = (sp.expand(m if sign[0] == ">" else -m), ">" + sign[1:])
        (summed if atoms.dummies(m) else margins).append(margin)
    return value.expr, margins, summed


def _normalized(d: Derivation, expr: sp.Expr) -> sp.Expr:
    """sum_t p^h_{a t} = 1 (softmax normalization) for every monomial where a dummy t occurs only in one p, once.
    Under a mask too: p^h_at is the masked softmax, 0 at a masked t, so its sum over every t is still 1."""
    out, used = ZERO, False
    for term in atoms.monomials(expr):
        changed = True
        while changed:
            changed = False
            powers = term.as_powers_dict()
            for atom, power in powers.items():
                data = atoms.info(atom) if isinstance(atom, sp.Symbol) else None
                if data is None or data.kind != "pair" or data.label != "p" or power != 1:
                    continue
                first, second = data.tokens
                others = [t for s in term.free_symbols if s != atom for t in atoms.tokens_of(s)]
                if second.startswith("t") and second != first and second not in others:
                    lost = atoms.dummies(term) - {second} - atoms.dummies(term / atom)  # still summed over: n each
                    term, changed, used = term / atom * N ** len(lost), True, True
                    break
        out += term
    if used:
        d.note("Softmax normalization: sum_j p^h_ij = 1 (a sum over j of p alone)")
    return sp.expand(out)


def _use_margins(
    d: Derivation,
    total: sp.Expr,
    margins: list[tuple[sp.Expr, str, sp.Symbol]],
    algebra: SymbolicAlgebra,
    alongside: list[sp.Expr],
) -> tuple[sp.Expr, dict[sp.Expr, str], list[sp.Expr]]:
    """Each margin m (>= 0 or > 0 at its token) solved for one atom of rational coefficient, replaced by (an
    expression in) its own atom mu = m of that sign: an identity, so the residual is unchanged as a function of the
    configuration; the same replacements in the expressions `alongside` (the global conditions' margins)."""
    known = {s: algebra.sign_name(s) for m, _, _ in margins for s in m.free_symbols}
    known |= {s: algebra.sign_name(s) for s in total.free_symbols}
    margins = list(margins)
    for index, (margin, relation, mu) in enumerate(margins):
        poly_atoms = sorted(margin.free_symbols - set(POSITIVE_SYMBOLS.values()), key=str)
        chosen = None
        for atom in poly_atoms:
            coefficient = sp.expand(margin).coeff(atom, 1)
            rest = sp.expand(margin - coefficient * atom)
            if isinstance(coefficient, sp.Rational) and coefficient != 0 and not rest.has(atom):
                chosen = (atom, coefficient, rest)
                if total.has(atom):
                    break
        if chosen is None:
            d.failures.append(f"given condition {margin} {relation} has no atom to solve for")
            continue
        atom, coefficient, rest = chosen
        token = atoms.tokens_of(mu)[0]
        value = (mu - rest) / coefficient
        total = sp.expand(total.xreplace({atom: value}))
        alongside = [sp.expand(e.xreplace({atom: value})) for e in alongside]
        margins[index + 1 :] = [(sp.expand(m.xreplace({atom: value})), r, v) for m, r, v in margins[index + 1 :]]
        known = {s: v for s, v in known.items() if s != atom} | {mu: "positive" if relation == ">0" else "nonnegative"}
        d.note(f"Condition at token {token}: {mu} = {margin} {relation[:-1]} 0, so {atom} = {value}")
    return total, known, alongside


def _decide(d: Derivation, levels: dict[int, sp.Expr], relation: str, known: dict[sp.Expr, str], claim: Any) -> None:
    """Zero or sign of the residual, a sum over 0, 1, 2, ... dummies per level."""
    if relation == "=0":
        if not levels:
            d.zero("rhs - lhs is identically 0", ZERO)
        for level, expr in sorted(levels.items()):
            where = "The part at the free token" if level == 0 else f"Per {_tokens(level)}, the summand of rhs - lhs"
            d.zero(f"{where} is identically 0", expr)
        return
    present = set().union(*(e.free_symbols for e in levels.values()))
    declared = {s: v for s, v in known.items() if s in present}
    shifts = {}
    for name, least in claim.sizes.low.items():  # n = n_0 + n_min, ... with n_0, ... >= 0
        symbol = POSITIVE_SYMBOLS[name]
        if symbol in present:
            base = sp.Symbol(f"{name}_0")
            declared[base] = "nonnegative"
            shifts[symbol] = (base, least)
    facts = signs.Facts(declared, shifts)
    sign = relation if relation[0] == ">" else ">" + relation[1:]
    flip = 1 if relation[0] == ">" else -1
    deepest = max(levels, default=0)
    if deepest <= 1:
        _decide_single(d, levels.get(0, ZERO), levels.get(1, ZERO), relation, sign, flip, facts)
        return
    trial = Derivation()
    if _by_levels(trial, levels, relation, sign, flip, facts):
        d.steps += trial.steps
        return
    folded = sp.Add(*(symmetrized_level(levels, level, deepest) for level in levels))
    d.sign(
        f"Every level folded into the sum over {deepest} tokens and averaged over their relabellings: the summand "
        f"is {relation[:-1]} 0, hence so is the sum",
        flip * sp.expand(folded),
        sign,
        facts,
    )


def symmetrized_level(levels: dict[int, sp.Expr], level: int, deepest: int) -> sp.Expr:
    """sum over `level` dummies of e = sum over `deepest` of e / n^(deepest - level), averaged over relabellings."""
    return atoms.symmetrized(levels[level] / N ** (deepest - level), deepest)


def _tokens(level: int) -> str:
    return "token k" if level == 1 else f"{level} tokens"


def _by_levels(d: Derivation, levels: dict[int, sp.Expr], relation: str, sign: str, flip: int, facts: Any) -> bool:
    """Each level's summand has the sign: then so has each sum, S_m, and the free part with them."""
    sums = []
    for level, expr in sorted(levels.items()):
        if level == 0:
            continue
        text = f"Per {_tokens(level)}, the summand is {relation[:-1]} 0: so is its sum"
        if not d.sign(text, flip * expr, sign, facts):
            return False
        sums.append(sp.Symbol(f"S{level}"))
    free = levels.get(0, ZERO)
    if free == 0 and len(sums) == 1:
        return True
    return d.sign("With the sums S, rhs - lhs has the sign", flip * free + sp.Add(*sums), sign,
                  facts.with_signs(**{_name(sign): sums}))  # fmt: skip


def _decide_single(
    d: Derivation, free: sp.Expr, summand: sp.Expr, relation: str, sign: str, flip: int, facts: Any
) -> None:
    """free + sum_k summand: folded into one summand when the free part is global."""
    if not any("i" in atoms.tokens_of(s) for s in free.free_symbols) and summand != 0:
        summand, free = sp.expand(summand + free / N), ZERO
        d.note("Terms free of the tokens are spread over the sum (sum_k c / n = c)")
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
    total = sp.Symbol("S")
    if d.sign(f"Per token k, the summand is {relation[:-1]} 0: so is S = its sum", flip * summand, sign, facts):
        d.sign("With S, rhs - lhs has the sign", flip * free + total, sign, facts.with_signs(**{_name(sign): [total]}))


def _name(sign: str) -> str:
    return "positive" if sign == ">0" else "nonnegative"
