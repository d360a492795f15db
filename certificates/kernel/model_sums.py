"""Model statements for every n, d, H (kind `sums`): both sides in a normal form of sums over tokens and heads.

A universal `model` statement (`model_statements`) of the sphere or flat space without exact data, mask, interaction or
fixed indices, with beta > 0 and `given` conditions (bounds of the sizes, `H >= 2`, or conditions on the configuration),
is proved when rhs - lhs (an equality), or the difference of its sides that should be >= 0 (`<=`, `>=`) or > 0 (`<`,
`>`), is identically sum_k c_k N_k. The payload `{"terms": [{"coefficient": c_k, "term": N_k}, ...]}` (empty for an
equality) gives each c_k as a model term over the sizes alone whose coefficients are all >= 0 once each size is written
as its least value plus a number >= 0 (n >= 2, d >= 1, H >= 1, beta >= 0, or a `given` lower bound), and each N_k as a
model term >= 0 by its shape (`nonnegative`: numbers >= 0, sizes, even powers, squared norms, the quantities >= 0 by
their definitions, and their sums, products and sums over tokens and heads; a given condition's margin outside sums
over heads). A strict relation needs one N_k > 0 (a number > 0, or a strict given condition's margin) whose c_k is
> 0 at the least sizes.

"Identically" is decided in a normal form the kernel builds itself. Every term is expanded over its sums, each sum
binding a fresh dummy index (a summand free of it gains a factor n or H), into monomials: a rational times n^a d^b H^c
beta^e (integer exponents), a product of atoms, and for a vector one basis vector. The atoms are inner products of basis
vectors (the tokens x_t, the head outputs f^h_t and the matrices M_h, W_h applied to them), the pair scalars p^h_tu and
w^h_tu, the logarithms and the model's other named scalars; each is free (nothing else is known of it), so an identity
of the normal form holds at every configuration for every n, d, H and beta. The expansion uses only bilinearity and
symmetry of the inner product, the model's definitions (SPEC section 1: F_t = sum_h f^h_t, v_t = F_t/n (usa) or F_t,
xdot_t = P_t v_t (sphere) or v_t (flat), P_t u = u - <u, x_t> x_t, and `DEFINED`), sum_u p^h_tu = 1 (the softmax
distribution p^h_tu = exp(beta s^h_tu)/Z^h_t, whose logarithm `DEFINED`'s entropy expands), w = p for softmax, and the
statement's hypotheses: <x_t, x_t> = 1 (unit-tokens), M_h self-adjoint (symmetric-scores; so w^h_tu = w^h_ut for usa and
relu, whose weight is a function of the score), W_h = M_h (aligned-values), M_h = lambda_h I (scalar-heads). Monomials
are compared in the relabelling of their dummies whose text is least: relabelling the bound indices of a sum leaves it
unchanged.

Two facts beyond the definitions, each a lemma of the model (`certificates.kernel.coq.sums_statement` states both for
Coq). The rate of head h's usa energy along the geometry's velocity, for usa heads with M_h self-adjoint and W_h = M_h:
dE_h/dt = (1/(2 n^2)) sum_jk e^(beta s_jk) beta (<xdot_j, M_h x_k> + <x_j, M_h xdot_k>) = (1/n^2) sum_j <xdot_j,
f^h_j> (the chain rule, then s_jk = s_kj), and dE/dt = sum_h dE_h/dt (`RATES`). And Theorem 39's bound of the other
heads' pairings (`cross_trees`): with M_h self-adjoint, W_h = M_h and unit tokens, for heads g != h, f^h_i = sum_j
w^h_ij M_h x_j with w >= 0 summing to W^h_i (usa: Z^h_i; softmax: 1), so <f^h_i, f^g_i> = sum_jk w^h_ij w^g_ik <x_j,
M_h M_g x_k> and |<x_j, M_h M_g x_k>| <= delta, where delta is `delta_op` (max_{h' != g'} |M_h' M_g'|_op, by
Cauchy-Schwarz), the `delta` of `orthogonal-heads(delta=q)` (|M_h M_g|_op <= |M_h M_g|_F <= q) or 0 under
`orthogonal-heads` (M_h M_g = 0; both signs then make <f^h_i, F_i> = |f^h_i|^2): so sum_{g != h}
(delta W^h_i W^g_i +- <f^h_i, f^g_i>) >= 0, written sum_g(B_g) - B_h, is a term >= 0 by its shape.
"""

from fractions import Fraction
from itertools import permutations, product
from math import ceil, comb, factorial, floor, prod
from typing import Any

from .ball_model import stated_delta
from .model_statements import ModelStatement, shown, statement_of, term_of
from .model_terms import Term, make, term_text
from .recheck import Rejected, require_keys, require_list

SIZES = ("n", "d", "H", "beta")
LEAST = {"n": 2, "d": 1, "H": 1, "beta": 0}
HYPOTHESES = ("unit-tokens", "symmetric-scores", "aligned-values", "scalar-heads", "orthogonal-heads")
#: At most this many dummies of a kind in a monomial, monomials in an expansion, terms in a payload, and products of
#: monomials or relabellings tried in all (a count: the same on every machine).
MOST_DUMMIES, MOST_MONOMIALS, MOST_TERMS, MOST_WORK = 5, 20_000, 16, 2_000_000
ZERO = (0, 0, 0, 0)
#: Quantities >= 0 by their definitions (no mask or interaction, beta > 0): the weights (exp(beta s) > 0, the softmax
#: distribution p > 0, max(beta s, 0) / n >= 0), the normalizer Z and the usa energies (sums of exponentials), and an
#: attention row's entropy -sum_u p_u log p_u (each term >= 0 for 0 < p_u <= 1), the tangential power |P f|^2.
POSITIVE = ("w_h_ij", "p_h_ij", "Z_h_i", "E", "E_h", "entropy_h_i", "T_h_i")
#: The free token i and head h, read as themselves.
FREE = {"i": "i", "h": "h"}


def _name(written: str) -> list[str]:
    return ["name", written]


#: The rates of the usa energies (the module's docstring), for usa heads with M_h self-adjoint and W_h = M_h.
RATES = {
    name: term_of(["/", ["sum_j", ["inner", _name("xdot_j"), _name(vector)]], ["pow", _name("n"), 2]], None)
    for name, vector in (("dE_h_dt", "f_h_j"), ("dE_dt", "F_j"))
}
#: The quantities defined from others (SPEC section 1), at token i (and j) and head h.
DEFINED = {
    name: term_of(tree, None)
    for name, tree in {
        "a_h_i": ["inner", _name("f_h_i"), _name("x_i")],
        "T_h_i": ["norm2", ["proj", _name("f_h_i")]],
        "A_h_i": ["inner", ["-", _name("F_i"), _name("f_h_i")], _name("x_i")],
        "s_h_ij": ["inner", _name("x_i"), ["M_h", _name("x_j")]],
        "xbar": ["sum_j", ["*", _name("p_h_ij"), _name("x_j")]],
        "F": ["sum_h", _name("f_h_i")],
        "xdot sphere": ["proj", _name("v_i")],
        "xdot flat": _name("v_i"),
        "entropy_h_i": [
            "neg",
            ["sum_j", ["*", _name("p_h_ij"), ["-", ["*", _name("beta"), _name("s_h_ij")], ["log", _name("Z_h_i")]]]],
        ],
    }.items()
}

Key = tuple[tuple[int, ...], tuple[Any, ...], Any]  # size exponents, sorted atoms, basis vector (None: a number)
Form = dict[Key, Fraction]


def _one(atoms: tuple[Any, ...] = (), basis: Any = None, exponents: tuple[int, ...] = ZERO) -> Form:
    return {(exponents, atoms, basis): Fraction(1)}


def added(a: Form, b: Form, sign: int) -> Form:
    found = dict(a)
    for key, c in b.items():
        found[key] = found.get(key, 0) + sign * c
    return {key: c for key, c in found.items() if c}


def _divided(form: Form, exponents: tuple[int, ...], q: Fraction) -> Form:
    """form / (q n^a d^b H^c beta^e)."""
    return {(tuple(a - b for a, b in zip(k[0], exponents, strict=True)), k[1], k[2]): c / q for k, c in form.items()}


def _dummies(data: Any) -> set[str]:
    """The dummy indices (t1, g2, ...: a letter and a number) in a key's atoms and basis."""
    if isinstance(data, tuple):
        return set().union(*map(_dummies, data))
    return {data} if isinstance(data, str) and data[0] in "tg" and data[1:].isdigit() else set()


def _renamed(data: Any, names: dict[str, str]) -> Any:
    if isinstance(data, tuple):
        return tuple(_renamed(part, names) for part in data)
    return names.get(data, data) if isinstance(data, str) else data


class Expansion:
    """The normal form of one statement's terms, with its kind, geometry and hypotheses, and a counter of dummies."""

    def __init__(self, claim: ModelStatement) -> None:
        self.claim, self.hypotheses, self.count = claim, set(claim.hypotheses), 0
        self.open: set[str] = set()  # the dummies of the sums being expanded (not yet bound)
        self.work = 0  # products of monomials and relabellings tried so far

    def spend(self, work: int) -> None:
        self.work += work
        if self.work > MOST_WORK:
            raise Rejected(f"sums: more than {MOST_WORK} products or relabellings of monomials")

    def fresh(self, kind: str) -> str:
        self.count += 1
        return f"{kind}{self.count}"

    def term(self, term: Term, env: dict[str, str]) -> Form:
        """The expansion of `term`, its index letters read as `env` says (the free i and h: themselves)."""
        op, args = term.op, term.args
        if op == "num":
            return {(ZERO, (), None): args[0]} if args[0] else {}
        if op == "symbol":
            return _one(exponents=tuple(int(s == args[0]) for s in SIZES))
        if op in ("vector", "scalar", "pair"):
            slots = args[2]
            pair = slots.pair and (env[slots.pair[0]], env[slots.pair[1]])
            return self.named(args[0], env.get(slots.head or ""), env.get(slots.token or ""), pair)
        if op == "neg":
            return added({}, self.term(args[0], env), -1)
        if op in ("+", "-"):
            return added(self.term(args[0], env), self.term(args[1], env), 1 if op == "+" else -1)
        if op in ("*", "inner", "norm2"):
            left = self.term(args[0], env)
            return self.product(left, left if op == "norm2" else self.term(args[1], env))
        if op == "/":  # by a non-zero monomial of numbers and sizes (`model_terms.make`)
            [((exponents, _, _), q)] = self.term(args[1], env).items()
            return _divided(self.term(args[0], env), exponents, q)
        if op == "pow":
            found = _one()
            for _ in range(args[1]):
                found = self.product(found, self.term(args[0], env))
            return found
        if op == "proj":  # P_t u = u - <u, x_t> x_t
            u, x = self.term(args[0], env), self.named("x", None, env["i"], None)
            return added(u, self.product(self.product(u, x), x), -1)
        if op in ("M_h", "W_h"):
            name = "M" if op == "M_h" or "aligned-values" in self.hypotheses else "W"
            if name == "M" and "scalar-heads" in self.hypotheses:
                return self.product(self.named("lambda_h", env["h"], None, None), self.term(args[0], env))
            return {(k[0], k[1], (name, env["h"], k[2])): c for k, c in self.term(args[0], env).items()}
        if op == "log":
            inner = args[0].args
            at = () if args[0].op == "symbol" else (env.get(inner[2].head or ""), env.get(inner[2].token or ""))
            return _one((("log", inner[0], *at),))
        if op in ("sum_i", "sum_j", "sum_h", "sum_g"):
            dummy = self.fresh("t" if op in ("sum_i", "sum_j") else "g")
            self.open.add(dummy)
            body = self.term(args[0], env | {op[-1]: dummy})
            self.open.discard(dummy)
            return self.closed(body, dummy)
        raise Rejected(f"sums: {op} has no normal form here (a square root)")

    def named(self, name: str, head: str | None, token: str | None, pair: tuple[str, str] | None) -> Form:
        """A named quantity (a vector by its primitive, a scalar by its declared name) at these indices."""
        kind, geometry = self.claim.attention, self.claim.geometry
        if name in ("x", "f"):
            return _one(basis=(name, token) if name == "x" else (name, head, token))
        if name == "v":
            total = self.named("F", head, token, None)
            return _divided(total, (1, 0, 0, 0), Fraction(1)) if kind == "usa" else total
        if name == "xdot":
            return self.term(DEFINED[f"xdot {geometry}"], {"i": token})
        if name in RATES and kind == "usa" and {"symmetric-scores", "aligned-values"} <= self.hypotheses:
            return self.term(RATES[name], {"h": head})
        if name in DEFINED:
            letters = {"i": pair[0], "j": pair[1]} if pair else {"i": token}
            return self.term(DEFINED[name], letters | {"h": head})
        if name in ("p_h_ij", "w_h_ij"):
            name = "p" if name == "p_h_ij" or kind == "softmax" else "w"
            symmetric = name == "w" and "symmetric-scores" in self.hypotheses
            return _one(((name, head, *(sorted(pair) if symmetric else pair)),))
        return _one((("scalar", name, head, token),))

    def product(self, a: Form, b: Form) -> Form:
        """a b (a scalar times a scalar or a vector), or <a, b> (two vectors); the dummies b binds renamed apart."""
        self.spend(len(a) * len(b))
        names = {d: self.fresh(d[0]) for key in b for d in _dummies(key[1:]) - self.open}
        found: Form = {}
        for (ea, fa, ua), ca in a.items():
            for key, cb in b.items():
                eb, fb, ub = _renamed(key, names)
                pairing = () if ua is None or ub is None else self.pairing(ua, ub)
                exponents = tuple(x + y for x, y in zip(ea, eb, strict=True))
                k = (
                    exponents,
                    tuple(sorted(fa + fb + pairing, key=repr)),
                    ub if ua is None else (ua if ub is None else None),
                )
                found[k] = found.get(k, 0) + ca * cb
                if len(found) > MOST_MONOMIALS:
                    raise Rejected(f"sums: more than {MOST_MONOMIALS} monomials")
        return {k: c for k, c in found.items() if c}

    def pairing(self, u: Any, w: Any) -> tuple[Any, ...]:
        """The atom <u, w> of two basis vectors, () for 1 (a unit token with itself): with self-adjoint M_h each M
        moves to the other side (`moved`), either way round, whichever text is least; else the two sides sorted."""
        if "unit-tokens" in self.hypotheses and u == w and u[0] == "x":
            return ()
        if "symmetric-scores" in self.hypotheses:
            return (("inner", *min(self.moved(u, w), self.moved(w, u), key=repr)),)
        return (("inner", *sorted((u, w), key=repr)),)

    @staticmethod
    def moved(u: Any, w: Any) -> tuple[Any, Any]:
        """(a, M_1 .. M_k w) for u = M_k .. M_1 a: <M a, w> = <a, M w> for self-adjoint M, one M at a time."""
        while u[0] == "M":
            u, w = u[2], (*u[:2], w)
        return u, w

    def closed(self, form: Form, dummy: str) -> Form:
        """sum over `dummy` (t: the n tokens, g: the H heads) of `form`: a monomial free of it times n or H, and a
        monomial whose only atom at the dummy is p^h_t,dummy (t another index) summed to 1; the others bound."""
        found: Form = {}
        for (exponents, atoms, basis), c in form.items():
            at, free = [a for a in atoms if dummy in _dummies(a)], dummy not in _dummies(basis)
            if not at and free:
                exponents = tuple(e + (k == (0 if dummy[0] == "t" else 2)) for k, e in enumerate(exponents))
            elif free and len(at) == 1 and at[0][0] == "p" and at[0][3] == dummy and at[0][2] != dummy:
                atoms = tuple(a for a in atoms if a is not at[0])
            key = (exponents, atoms, basis)
            found[key] = found.get(key, 0) + c
        return {k: c for k, c in found.items() if c}

    def canonical(self, form: Form) -> Form:
        """The form with each monomial read in the relabelling of its dummies whose text is least."""
        found: Form = {}
        for key, c in form.items():
            tokens = sorted(d for d in _dummies(key[1:]) if d[0] == "t")
            heads = sorted(d for d in _dummies(key[1:]) if d[0] == "g")
            if len(tokens) > MOST_DUMMIES or len(heads) > MOST_DUMMIES:
                raise Rejected(f"sums: a monomial with more than {MOST_DUMMIES} dummies of a kind")
            self.spend(factorial(len(tokens)) * factorial(len(heads)))
            readings = []
            for pt, ph in product(permutations(range(len(tokens))), permutations(range(len(heads)))):
                names = {d: f"t{k}" for d, k in zip(tokens, pt, strict=True)}
                names |= {d: f"g{k}" for d, k in zip(heads, ph, strict=True)}
                readings.append(self.relabelled(key, names))
            best = min(readings, key=repr)
            found[best] = found.get(best, 0) + c
        return {k: c for k, c in found.items() if c}

    def relabelled(self, key: Key, names: dict[str, str]) -> Key:
        """The key with its dummies renamed, each atom written again in its own normal form."""
        exponents, atoms, basis = _renamed(key, names)
        again: list[Any] = []
        for atom in atoms:
            if atom[0] == "inner":
                again += self.pairing(*atom[1:])
            elif atom[0] == "w" and "symmetric-scores" in self.hypotheses:
                again.append(("w", atom[1], *sorted(atom[2:])))
            else:
                again.append(atom)
        return exponents, tuple(sorted(again, key=repr)), basis


def least_sizes(claim: ModelStatement) -> dict[str, Fraction]:
    """Each size's least value: the model's (n >= 2, d, H >= 1, beta >= 0), or a `given` lower bound (integers for
    n, d, H); an upper bound only narrows the statement."""
    least = {name: Fraction(q) for name, q in LEAST.items()}
    for given in claim.given:
        if given.lhs.op != "symbol" or given.rhs.op != "num":
            continue  # a condition on the configuration: its margin is a term >= 0 (`margins`)
        name, q = given.lhs.args[0], given.rhs.args[0]
        if given.op in (">=", ">"):
            bound = q if name == "beta" else Fraction(ceil(q) if given.op == ">=" else floor(q) + 1)
            least[name] = max(least[name], bound)
    return least


def _shifted(form: Form, least: dict[str, Fraction]) -> dict[tuple[int, ...], Fraction] | None:
    """A polynomial in the sizes with each size s written least_s + y (y >= 0), its coefficients by the y's exponents;
    None when it is not one (atoms, a basis vector, a negative exponent). It is >= 0 on the sizes' ranges when every
    coefficient is, and > 0 when its constant coefficient is too."""
    shifted: dict[tuple[int, ...], Fraction] = {}
    for (exponents, atoms, basis), c in form.items():
        if atoms or basis is not None or min(exponents) < 0:
            return None
        for ks in product(*(range(e + 1) for e in exponents)):
            parts = (comb(e, k) * least[s] ** (e - k) for s, e, k in zip(SIZES, exponents, ks, strict=True))
            shifted[ks] = shifted.get(ks, 0) + c * prod(parts)
    return shifted


def cross_trees(claim: ModelStatement) -> list[list[Any]]:
    """The trees sum_g(B_g) - B_h, B_g = delta W^h_i W^g_i +- <f^h_i, f^g_i>, that Theorem 39's bound makes >= 0 (the
    module's docstring), for each delta the statement may use and each sign; none outside the lemma's hypotheses."""
    needed = {"symmetric-scores", "aligned-values", "unit-tokens"}
    if claim.attention not in ("usa", "softmax") or not needed <= set(claim.hypotheses):
        return []

    def bound(delta: str, op: str, g: str) -> list[Any]:
        scale = ["num", delta] if delta == "0" else _name(delta)
        weight = ["*", ["*", scale, _name("Z_h_i")], _name(f"Z_{g}_i")] if claim.attention == "usa" else None
        return [op, weight or scale, ["inner", _name("f_h_i"), _name(f"f_{g}_i")]]

    deltas = ["delta_op", *(["delta"] if stated_delta(claim.hypotheses) is not None else [])]
    deltas += ["0"] * ("orthogonal-heads" in claim.hypotheses)  # M_h M_g = 0: delta = 0
    return [["-", ["sum_g", bound(delta, op, "g")], bound(delta, op, "h")] for delta in deltas for op in "+-"]


def margins(claim: ModelStatement, strict: bool = False) -> tuple[Term, ...]:
    """Each `given` condition's margin (lhs - rhs for >= and >, rhs - lhs for <= and <): >= 0 wherever the statement
    is stated, at its token i and head h; with `strict`, the strict conditions' (< and >) only: > 0 there."""
    given = [g for g in claim.given if not strict or g.op in ("<", ">")]
    return tuple(make("-", (g.lhs, g.rhs) if g.op in (">=", ">") else (g.rhs, g.lhs)) for g in given)


def nonnegative(term: Term, cross: tuple[Term, ...] = (), given: tuple[Term, ...] = ()) -> bool:
    """Whether a term is >= 0 by its shape: numbers >= 0, the sizes (beta > 0), squared norms, even powers, the
    quantities >= 0 by their definitions (`POSITIVE`), the statement's `cross` bounds, and their sums, products,
    quotients (by a non-zero monomial: `model_terms.make`) and sums over tokens and heads; and the `given` conditions'
    margins, outside sums over heads (a given holds at every token, for the statement's head h only)."""
    op, args = term.op, term.args
    if op == "num":
        return args[0] >= 0
    if op == "pow":
        return args[1] % 2 == 0 or nonnegative(args[0], cross, given)
    if op in ("sum_i", "sum_j", "sum_h", "sum_g"):  # a given holds at every token, at the statement's head only
        return nonnegative(args[0], cross, given if op in ("sum_i", "sum_j") else ())
    shaped = op in ("+", "*", "/") and all(nonnegative(a, cross, given) for a in args)
    named = op in ("scalar", "pair") and args[0] in POSITIVE
    return op in ("symbol", "norm2") or shaped or named or term in cross or term in given


def difference(claim: ModelStatement) -> tuple[Expansion, Form]:
    """The statement's expansion and the difference of its sides that should be >= 0 (> 0 for a strict relation; rhs -
    lhs for =, <= and <)."""
    expansion = Expansion(claim)
    lhs, rhs = (expansion.term(side, FREE) for side in (claim.relation.lhs, claim.relation.rhs))
    return expansion, added(lhs, rhs, -1) if claim.relation.op in (">=", ">") else added(rhs, lhs, -1)


def check(data: dict[str, Any], claim_id: str, payload: Any) -> tuple[str, str]:
    """(what the certificate proves, how it was re-checked): the statement's sides, less the payload's sum_k c_k N_k
    for an inequality, are identical in the normal form (the module's docstring). A strict relation needs one term
    > 0: a number > 0 or a strict `given` condition's margin, whose coefficient is > 0 where the sizes are least (so
    everywhere on their ranges, its coefficients in the shifted sizes all >= 0)."""
    claim = statement_of(data, claim_id)
    relation, plain = claim.relation, not (claim.exists or claim.fixed or claim.data or claim.interaction)
    plain = plain and claim.mask == "none" and claim.beta_sign == "positive" and claim.geometry in ("sphere", "flat")
    if not plain or relation.op not in ("=", "<=", ">=", "<", ">"):
        raise Rejected(
            "sums: a universal =, <=, >=, < or > statement on the sphere or in flat space, beta > 0, without data, "
            "fixed indices, mask or interaction"
        )
    if not all(name in HYPOTHESES or stated_delta([name]) is not None for name in claim.hypotheses):
        raise Rejected(f"sums: the hypotheses are among {', '.join(HYPOTHESES)} and orthogonal-heads(delta=q)")
    terms = require_list(require_keys(payload, {"terms"}, "sums payload")["terms"], MOST_TERMS, "sums terms")
    least = least_sizes(claim)
    if relation.op == "=" and terms:
        raise Rejected("sums: an equality has no terms")
    expansion, residual = difference(claim)
    monomials, cross = len(residual), tuple(map(term_of, cross_trees(claim)))
    strict = relation.op in ("<", ">")  # until a term > 0 is found
    for item in terms:
        require_keys(item, {"coefficient", "term"}, "a sums term")
        coefficient, term = term_of(item["coefficient"], frozenset()), term_of(item["term"])
        expanded = expansion.term(coefficient, FREE)
        shifted = _shifted(expanded, least)
        if not nonnegative(term, cross, margins(claim)) or shifted is None or min(shifted.values(), default=0) < 0:
            raise Rejected(f"sums: {term_text(coefficient)} * ({term_text(term)}) is not >= 0 by its shape")
        positive = (term.op == "num" and term.args[0] > 0) or term in margins(claim, strict=True)
        strict = strict and not (positive and shifted.get(ZERO, 0) > 0)
        residual = added(residual, expansion.product(expanded, expansion.term(term, FREE)), -1)
    if strict:
        raise Rejected("sums: a strict relation needs a term > 0 (a number or a strict given's margin) times c > 0")
    left = expansion.canonical(residual)
    if left:
        raise Rejected(f"sums: the sides differ by {len(left)} monomials of the normal form, not by sum_k c_k N_k")
    sizes = ", ".join(f"{s} >= {least[s]}" for s in SIZES[:3])
    what = "rhs - lhs = 0" if relation.op == "=" else f"the sides differ by {len(terms)} term(s) >= 0"
    what += ", one > 0" if relation.op in ("<", ">") else ""
    proved = f"proves claim {claim_id!r}: the model statement {shown(data, claim)} [every {sizes}, beta > 0: {what}]"
    return proved, f"the sides expanded over their sums ({monomials} monomials) and compared in normal form"
