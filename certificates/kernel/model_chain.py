"""The model's quantities, written once: named definitions as expression trees (SPEC's definitions), which the
checker evaluates with balls (`Chain.balls`), exactly (`Chain.compiled` in `certificates.kernel.exp_field`) and over
balls or first-order series of tokens (`certificates.kernel.ball_model.velocity_field`), and the Coq writer states
(`headflow.certificates.kernel.coq.model_tree`), so that none of them can mean something else.

At rational tokens, heads and beta every score s^h_ij = <x_i, M_h x_j> and every row W_h x_j is an exact rational,
so the trees contain only rationals, `exp` of rational multiples of beta's scores (or the stated interaction phi at
the exact scores), `log` of a softmax normalizer, `sqrt` of the squared norms the normalization schemes divide by,
and the four operations. Tokens may also be symbols (`["sym", name]`): the trees are then the field over any tokens
(the scores are trees too, the softmax is not shifted, the directions x/|x| are named `nx_i` quotients). The trees
are built over named definitions (`Chain.definitions`, in order: each may use the earlier names), which one `Chain`
per configuration builds on first use and once: the weights w^h_ij, the head outputs f^h_i[k], the attention
velocities v_i[k], the scheme's velocities xdot_i[k] (and the directions' ydot_i[k]), the score rates sdot^h_ij and
the softmax rows:
- w^h_ij = m_ij exp(beta s) (usa), m_ij p^h_ij (softmax, shifted by the exact maximum of beta s over the row),
  m_ij max(beta s, 0) / n (relu, exact: the score's sign, which picks the branch of the kink, is a comparison of
  rationals); with an interaction m_ij phi(s^h_ij), normalized over j for softmax; m_ij the mask's entry (1 without);
- v_i = sum_h sum_j w^h_ij W_h y_j (divided by n for usa), y_j the tokens attention reads (x_j, or x_j/|x_j| under
  pre-ln, peri-ln and mix-ln, where exact data must be unit tokens: y = x), xdot_i the scheme's update: P⊥_x v on
  the sphere, v in flat space and under pre-ln, v/|v| (peri-ln), (1-a) P⊥_y v + a v with a = MIX_LN_PRE_SHARE
  (mix-ln), P⊥_x(v/|v|) (ngpt); every rate is taken along ydot_i = P⊥_x xdot_i under pre-ln, peri-ln and mix-ln,
  along xdot_i otherwise;
- E_h = (1/(2 beta n^2)) sum_ij m_ij exp(beta s^h_ij) ((1/(2 n^2)) sum_ij m_ij Phi(s^h_ij) with an interaction, Phi
  its verified antiderivative), dE_h/dt = (1/(2 n^2)) sum_ij m_ij exp(beta s^h_ij) sdot^h_ij (phi for exp);
- H^h_i = -sum_j p_j (beta s_j - m_i - log Z_i), dH^h_i/dt = -sum_j beta p_j (sdot_j - sum_k p_k sdot_k)
  (beta s_j - m_i - log Z_i), p_j = e_j / Z_i, e_j = m_ij exp(beta s_j - m_i) (exp(beta s) only);
- Z^h_i = sum_j m_ij exp(beta s^h_ij), xbar^h_i = sum_j p^h_ij x_j; d|x_i|/dt = <x_i, xdot_i> / |x_i|; R = |m| and
  dR/dt = <m, mdot> / R (|mdot| at m = 0), m the mean of the y_j.
What the data do not define (an entropy of an interaction, an energy without antiderivative, exact tokens of pre-ln,
peri-ln or mix-ln that are not unit) raises ValueError with the reason (the Coq writer refuses it with that reason).
"""

import math
import operator
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial, reduce, wraps
from typing import Any

from flint import arb, fmpq_mat

from .exact_data import ExactConfiguration, attends
from .exprtree import Tree, evaluate, fold, parse_rational, rational_tree, substitute
from .operator_norm import max_operator_norm
from .vocabulary import ATTENTION_KINDS, DIRECTION_GEOMETRIES, MIX_LN_PRE_SHARE

Value = Fraction | list


def tree_of(v: Value) -> list[Any]:
    """The tree of a value (a rational becomes a `rat` node)."""
    return rational_tree(v) if isinstance(v, Fraction) else v


def add(terms: list[Value]) -> Value:
    """The sum, with its rational parts folded (a rational when every term is one)."""
    constant = sum((t for t in terms if isinstance(t, Fraction)), Fraction(0))
    rest = [t for t in terms if not isinstance(t, Fraction)]
    parts = rest + ([constant] if constant or not rest else [])
    return parts[0] if len(parts) == 1 else ["add", *(tree_of(t) for t in parts)]


def mul(a: Value, b: Value) -> Value:
    """The product, folded when a factor is rational 0 or 1 or both are rational."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a * b
    for c, other in ((a, b), (b, a)):
        if isinstance(c, Fraction) and c in (0, 1):
            return other if c == 1 else Fraction(0)
    return ["mul", tree_of(a), tree_of(b)]


def root(a: Value) -> Value:
    """sqrt(a) of a sum of squares: the exact rational when a is a rational square, else a `sqrt` node."""
    if isinstance(a, Fraction) and a >= 0:
        p, q = math.isqrt(a.numerator), math.isqrt(a.denominator)
        if p * p == a.numerator and q * q == a.denominator:
            return Fraction(p, q)
    return ["sqrt", tree_of(a)]


def vector_dot(u: list[Value], w: list[Value]) -> Value:
    return add([mul(a, b) for a, b in zip(u, w, strict=True)])


def matvec(M: Sequence[Sequence[Fraction]], x: list[Value]) -> list[Value]:
    return [vector_dot(list(row), x) for row in M]


def combine(coefficients: list[Value], vectors: list[list[Value]]) -> list[Value]:
    """sum_j c_j u_j, componentwise, of vectors u_j."""
    return [vector_dot(coefficients, list(column)) for column in zip(*vectors, strict=True)]


def _mean(vectors: list[list[Value]]) -> list[Value]:
    """(1/n) sum_i u_i of n vectors."""
    return combine([Fraction(1, len(vectors))] * len(vectors), vectors)


def _at_score(tree: Tree, score: Value, beta: Fraction) -> Value:
    """A function of the score s (and beta) at a score: its tree with s and beta replaced."""
    return substitute(tree, {"s": tree_of(score), "beta": tree_of(beta)})  # type: ignore[no-any-return]


def _ball(tree: Tree, env: dict[str, arb]) -> arb:
    """A tree as a ball over the evaluated definitions. The square root of a sum of squares (a norm, as `root` writes
    it: its terms products t * t of one tree, or non-negative rationals) reads the ball of its non-negative part, as
    Coq's sqrt (0 below 0) does: rounding alone takes such a ball below 0. Any other square root (a stated
    interaction's) is the real one, undefined below 0."""
    if tree[0] == "sqrt" and _sum_of_squares(tree[1]):
        return evaluate(tree[1], env).nonnegative_part().sqrt()
    return evaluate(tree, env)


def _sum_of_squares(tree: Tree) -> bool:
    """Whether the tree is syntactically a sum of squares: each term t * t or a non-negative rational."""
    terms = tree[1:] if tree[0] == "add" else [tree]
    return all((t[0] == "mul" and t[1] == t[2]) or (t[0] == "rat" and parse_rational(t[1]) >= 0) for t in terms)


def compiled_in(tree: Any, rational: Callable[[Fraction], Any]) -> Callable[[dict[str, Any]], Any]:
    """The tree as a function of its symbols' values, its nodes read once by `exprtree.fold` (a chain evaluated at
    many states, a trajectory's, walks its trees once): `rational` makes its rationals, every operation is the
    type's own; ValueError for a function the type has not (no exact logarithm), TreeError for a node outside the
    chain's."""
    rules = {"div": operator.truediv, "add": lambda *v: reduce(operator.add, v)}
    rules |= {"mul": lambda *v: reduce(operator.mul, v)} | {op: partial(_method, op) for op in ("exp", "sqrt", "log")}
    lifted = {op: partial(_lifted, rule) for op, rule in rules.items()}
    lifted |= {"rat": lambda q: lambda env: rational(q), "sym": lambda name: lambda env: env[name]}
    return fold(tree, lifted | {"pow": lambda base, k: lambda env: base(env) ** k})


def _lifted(rule: Callable[..., Any], *parts: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], Any]:
    """A rule on values as one on the functions that give them."""
    return lambda env: rule(*[part(env) for part in parts])


def _method(op: str, value: Any) -> Any:
    """exp, sqrt or log of a value by its type's own method; ValueError when the type has none."""
    if not hasattr(value, op):
        raise ValueError(f"no {op} of {type(value).__name__} values")
    return getattr(value, op)()


def _nested(value: Any, leaf: Callable[[Any, tuple[int, ...]], Any], *index: int) -> Any:
    """A value or nested lists of values (as the chain's methods return them; or of anything else that is not a
    list, such as the functions `Chain.compiled` makes of them), each mapped by `leaf` (which also takes its indices:
    (h, i, k) for value[h][i][k])."""
    if not isinstance(value, list) or (value and isinstance(value[0], str)):
        return leaf(value, index)
    return [_nested(v, leaf, *index, k) for k, v in enumerate(value)]


def _once(method: Callable[..., Any]) -> Callable[..., Any]:
    """A chain's method built once per arguments (its definitions are named once), on first use."""

    @wraps(method)
    def built(chain: "Chain", *args: int) -> Any:
        if (key := (method.__name__, *args)) not in chain.built:
            chain.built[key] = method(chain, *args)
        return chain.built[key]

    return built


class Chain:
    """One configuration's definitions, each built on first use and once, in one list: the weights, the head
    outputs, the velocities and score rates, the softmax rows, and the quantities over them. Every quantity a
    statement needs (the registry's rates, a claims-file model claim's terms) shares these names, and `balls`
    evaluates each name once."""

    def __init__(self, cfg: ExactConfiguration) -> None:
        self.cfg = cfg
        #: The named definitions (name, tree), in order: each may use the earlier names.
        self.definitions: list[tuple[str, list[Any]]] = []
        y = self.directions = [self._direction(i, list(x)) for i, x in enumerate(cfg.tokens)]
        self.scores = [[[vector_dot(yi, matvec(M, yj)) for yj in y] for yi in y] for M in cfg.score_matrices]
        self.rows = [[matvec(W, yj) for yj in y] for W in cfg.values]
        self.built: dict[tuple[Any, ...], Any] = {}
        #: Quantities with a ball and no tree, max_k |P_k|_op of exact matrices, by their symbol (`measured`).
        self.norms: dict[str, list[fmpq_mat]] = {}

    def define(self, name: str, v: Value) -> Value:
        """A rational stays itself; a tree gets a name, and the name's symbol stands for it."""
        if isinstance(v, Fraction):
            return v
        self.definitions.append((name, v))
        return ["sym", name]

    def _named(self, prefix: str, values: Any) -> Any:
        """A value or nested lists of values, each defined under its prefix and indices (prefix_h_i_k for
        values[h][i][k])."""
        return _nested(values, lambda v, index: self.define("_".join(map(str, (prefix, *index))), v))

    def _direction(self, i: int, x: list[Value]) -> list[Value]:
        """y_i, the token attention reads: x_i, or x_i/|x_i| (|x_i| named nx_i) under pre-ln, peri-ln and mix-ln,
        where exact tokens must be unit (the directions x/|x| exactly, and dy/dt = P⊥_x xdot)."""
        if self.cfg.geometry not in DIRECTION_GEOMETRIES:
            return x
        length = self.define(f"nx_{i}", root(vector_dot(x, x)))
        if all(isinstance(t, Fraction) for t in x) and length != 1:
            raise ValueError(f"exact data of {self.cfg.geometry} need unit tokens (the directions x/|x| exactly)")
        return [self._quotient(xk, length) for xk in x]

    def balls(self, value: Any) -> Any:
        """A value or nested lists of values (as the methods return them) as balls at the current precision, every
        definition evaluated once; ValueError when a value of the stated interaction is not a finite ball, or
        (normalized weights) not one > 0."""
        env = {name: max_operator_norm(matrices) for name, matrices in self.norms.items()}
        for name, tree in self.definitions:
            env[name] = _ball(tree, env)
            if name.startswith("phi_"):
                self._weighs(env[name])
        return _nested(value, lambda v, _: _ball(tree_of(v), env))

    def _weighs(self, phi: arb) -> None:
        """ValueError unless the ball of a value of the stated interaction is finite, and > 0 for normalized weights."""
        assert self.cfg.interaction is not None
        if not phi.is_finite():
            raise ValueError(f"the interaction {self.cfg.interaction.text} is not finite at an exact score (balls)")
        if self.cfg.attention == "softmax" and not phi > 0:
            raise ValueError(f"normalized weights need phi > 0: balls do not show {self.cfg.interaction.text} > 0")

    def compiled(self, value: Any, rational: Callable[[Fraction], Any]) -> Callable[[dict[str, Any]], Any]:
        """A value or nested lists of values in another number type (`compiled_in`), as a function of env (the values
        of the tokens' symbols, when they are symbols): every definition evaluated once, in order, every tree walked
        once; the chain's error when it names a quantity with balls only."""
        if self.norms:
            raise ValueError(f"{', '.join(self.norms)} (an operator norm) has balls only, no exact value")
        definitions = [(name, compiled_in(tree, rational)) for name, tree in self.definitions]
        leaves = _nested(value, lambda v, _: compiled_in(tree_of(v), rational))

        def run(env: dict[str, Any]) -> Any:
            env = dict(env)
            for name, function in definitions:
                env[name] = function(env)
            return _nested(leaves, lambda function, _: function(env))

        return run

    def measured(self, name: str, matrices: list[fmpq_mat]) -> Value:
        """max_k |P_k|_op of exact matrices (0 for none), a quantity with a ball and no tree, as the symbol `name`."""
        self.norms[name] = matrices
        return ["sym", name]
        return ["sym", name]

    @_once
    def weights(self) -> list[list[list[Value]]]:
        """w^h_ij of the configuration's kind, interaction and mask (named; relu's are exact rationals)."""
        return [[self._weight_row(h, i) for i in range(self.cfg.n)] for h in range(len(self.scores))]

    def _weight_row(self, h: int, i: int) -> list[Value]:
        cfg = self.cfg
        if cfg.interaction is not None:
            phi = self.interaction_row(h, i)
            return self._normalized(h, i, phi, ("Z", "p"))[0] if cfg.attention == "softmax" else phi
        if cfg.attention == "relu":
            return self._masked(h, i, lambda s: max(mul(cfg.beta, s), Fraction(0)) / cfg.n)
        if cfg.attention == "usa":
            return self._named(f"w_{h}_{i}", self._exponentials(h, i, named=False))
        if cfg.attention == "softmax":
            return self.softmax(h, i)[0]
        raise ValueError(f"the model covers {', '.join(ATTENTION_KINDS)} attention, not {cfg.attention!r}")

    @_once
    def interaction_row(self, h: int, i: int) -> list[Value]:
        """m_ij phi(s^h_ij) at the exact scores (named phi_h_i_j)."""
        assert self.cfg.interaction is not None
        tree, beta = self.cfg.interaction.tree, self.cfg.beta
        return self._named(f"phi_{h}_{i}", self._masked(h, i, lambda s: _at_score(tree, s, beta)))

    def _masked(self, h: int, i: int, term: Callable[[Value], Value]) -> list[Value]:
        """term(s^h_ij) over j, 0 where token i does not attend to token j (the mask)."""
        return [term(s) if attends(self.cfg, i, j) else Fraction(0) for j, s in enumerate(self.scores[h][i])]

    @_once
    def softmax(self, h: int, i: int) -> tuple[list[Value], Value]:
        """(p^h_i., Z^h_i): softmax_j(beta s^h_ij) over the tokens i attends to, whatever the kind: e_j =
        exp(beta s_j - m_i) with the shift `_shift`, normalized (`_normalized`); named e_h_i_j, Z_h_i, p_h_i_j (the
        attention weights themselves) for softmax attention without an interaction, else eq, Zq, q."""
        cfg = self.cfg
        m, own = self._shift(i, self.scores[h][i]), cfg.attention == "softmax" and cfg.interaction is None
        e = self._masked(h, i, lambda s: ["exp", tree_of(add([mul(cfg.beta, s), -m]))])
        names = ("e", "Z", "p") if own else ("eq", "Zq", "q")
        return self._normalized(h, i, self._named(f"{names[0]}_{h}_{i}", e), names[1:])

    def _shift(self, i: int, row: list[Value]) -> Fraction:
        """m_i, the exact maximum of beta s_ij over the tokens j that token i attends to (0 for scores that are not
        rationals: symbolic tokens)."""
        seen = [mul(self.cfg.beta, sij) for j, sij in enumerate(row) if attends(self.cfg, i, j)]
        return max(seen) if all(isinstance(s, Fraction) for s in seen) else Fraction(0)  # type: ignore[type-var]

    def _normalized(self, h: int, i: int, e: list[Value], names: tuple[str, str]) -> tuple[list[Value], Value]:
        """(e_j / Z, Z) with Z = sum_j e_j (named names[0]_h_i, the quotients names[1]_h_i_j)."""
        Z = self.define(f"{names[0]}_{h}_{i}", add(e))
        return self._named(f"{names[1]}_{h}_{i}", [self._quotient(ej, Z) for ej in e]), Z

    def _quotient(self, a: Value, b: Value) -> Value:
        """a / b: 0 for a rational 0, a product by 1/b for a rational b, else a `div` node (whose definedness, b <> 0,
        a statement asserts)."""
        if isinstance(b, Fraction) and b == 0:
            raise ValueError("a model quantity divides by zero at these data")
        if isinstance(b, Fraction):
            return mul(1 / b, a)
        return a if isinstance(a, Fraction) and a == 0 else ["div", tree_of(a), b]

    def _entropy_terms(self, h: int, i: int) -> tuple[list[Value], list[Value]]:
        """(p^h_ij, log p^h_ij) over j, log p_ij = beta s_ij - m_i - log Z_i (for exp(beta s) weights only)."""
        if self.cfg.interaction is not None:
            raise ValueError("attention entropies are defined for exp(beta s) only, not with an interaction function")
        (p, Z), row = self.softmax(h, i), self.scores[h][i]
        minus_log_Z = mul(Fraction(-1), ["log", tree_of(Z)])
        return p, [add([mul(self.cfg.beta, s), -self._shift(i, row), minus_log_Z]) for s in row]

    @_once
    def outputs(self) -> list[list[list[Value]]]:
        """f^h_i = sum_j w^h_ij W_h y_j (named f_h_i_k)."""
        w = self.weights()
        return self._named("f", [[combine(w[h][i], self.rows[h]) for i in range(self.cfg.n)] for h in range(len(w))])

    @_once
    def attention_velocity(self, i: int) -> list[Value]:
        """v_i = sum_h sum_j w^h_ij W_h y_j, divided by n for usa (named v_i_k)."""
        v = combine([w for head in self.weights() for w in head[i]], [u for head in self.rows for u in head])
        n = self.cfg.n if self.cfg.attention == "usa" else 1
        return self._named(f"v_{i}", [mul(Fraction(1, n), vk) for vk in v])

    @_once
    def velocities(self) -> list[list[Value]]:
        """xdot_i[k], the scheme's update of each token (named xdot_i_k)."""
        return self._named("xdot", [self._scheme(i, self.attention_velocity(i)) for i in range(self.cfg.n)])

    def _scheme(self, i: int, v: list[Value]) -> list[Value]:
        """xdot_i from v_i: P⊥_x v (sphere), v (flat, pre-ln), v/|v| (peri-ln), (1-a) P⊥_y v + a v with y = x/|x|
        (mix-ln), P⊥_x(v/|v|) (ngpt); |v| named nv_i, v/|v| named u_i_k."""
        geometry, x = self.cfg.geometry, list(self.cfg.tokens[i])
        if geometry in ("flat", "pre-ln"):
            return v
        if geometry == "sphere":
            return self._project(f"r_{i}", x, v)
        if geometry in ("peri-ln", "ngpt"):
            length = self.define(f"nv_{i}", root(vector_dot(v, v)))
            unit = self._named(f"u_{i}", [self._quotient(vk, length) for vk in v])
            return unit if geometry == "peri-ln" else self._project(f"r_{i}", x, unit)
        if geometry == "mix-ln":
            share = Fraction(*MIX_LN_PRE_SHARE)
            return combine([1 - share, share], [self._project(f"r_{i}", self.directions[i], v), v])
        raise ValueError(f"the geometry {geometry!r} has no velocity here")

    def _project(self, name: str, x: list[Value], u: list[Value]) -> list[Value]:
        """P⊥_x(u) = u - <u, x> x, with <u, x> named `name`."""
        return combine([Fraction(1), mul(Fraction(-1), self.define(name, vector_dot(u, x)))], [u, x])

    @_once
    def direction_velocities(self) -> list[list[Value]]:
        """dy_i/dt, along which every rate is taken: P⊥_{x_i} xdot_i (named ydot_i_k) at the unit tokens of pre-ln,
        peri-ln and mix-ln (y = x), xdot_i otherwise."""
        xdot = self.velocities()
        if self.cfg.geometry not in DIRECTION_GEOMETRIES:
            return xdot
        return self._named("ydot", [self._project(f"ry_{i}", list(x), xdot[i]) for i, x in enumerate(self.cfg.tokens)])

    @_once
    def score_rates(self) -> list[list[list[Value]]]:
        """sdot^h_ij = <ydot_i, M_h y_j> + <M_h^T y_i, ydot_j> (named), along the direction velocities u = ydot."""
        u, y, rates = self.direction_velocities(), self.directions, []
        for M in self.cfg.score_matrices:
            My, MTy = [matvec(M, yj) for yj in y], [matvec(list(zip(*M, strict=True)), yi) for yi in y]
            r = [[add([vector_dot(a, My[j]), vector_dot(MTy[i], b)]) for j, b in enumerate(u)] for i, a in enumerate(u)]
            rates.append(r)
        return self._named("sdot", rates)

    def _exponentials(self, h: int, i: int, named: bool = True) -> list[Value]:
        """m_ij exp(beta s^h_ij) over j: the named weights where they are ones (usa without an interaction), else
        the terms."""
        cfg = self.cfg
        if named and cfg.attention == "usa" and cfg.interaction is None:
            return self.weights()[h][i]
        return self._masked(h, i, lambda s: ["exp", tree_of(mul(cfg.beta, s))])

    def head_energy(self, h: int) -> Value:
        """E_h = (1/(2 beta n^2)) sum_ij m_ij exp(beta s^h_ij) (the usa energy); with an interaction
        (1/(2 n^2)) sum_ij m_ij Phi(s^h_ij), Phi its verified antiderivative."""
        cfg, n = self.cfg, self.cfg.n
        pairs = [(i, j) for i in range(n) for j in range(n) if attends(cfg, i, j)]
        if cfg.interaction is None:
            return mul(1 / (2 * cfg.beta * n * n), add([e for i in range(n) for e in self._exponentials(h, i)]))
        Phi = cfg.interaction.energy_tree()
        if Phi is None:
            raise ValueError(f"no verified antiderivative of {cfg.interaction.text}: the energy is unavailable")
        return mul(Fraction(1, 2 * n * n), add([_at_score(Phi, self.scores[h][i][j], cfg.beta) for i, j in pairs]))

    def head_energy_rate(self, h: int) -> Value:
        """dE_h/dt = (1/(2 n^2)) sum_ij m_ij exp(beta s^h_ij) sdot^h_ij (phi(s) for exp(beta s) with an
        interaction)."""
        n, sdot, exponential = self.cfg.n, self.score_rates()[h], self.cfg.interaction is None
        rows = [self._exponentials(h, i) if exponential else self.interaction_row(h, i) for i in range(n)]
        return mul(Fraction(1, 2 * n * n), add([vector_dot(rows[i], sdot[i]) for i in range(n)]))

    def entropy(self, h: int, i: int) -> Value:
        """H^h_i = -sum_j p^h_ij log p^h_ij."""
        return mul(Fraction(-1), vector_dot(*self._entropy_terms(h, i)))

    def entropy_rate(self, h: int, i: int) -> Value:
        """dH^h_i/dt = -beta sum_j p_j (sdot_j - sum_k p_k sdot_k) log p_j."""
        (p, log_p), r = self._entropy_terms(h, i), self.score_rates()[h][i]
        minus_mean = mul(Fraction(-1), self.define(f"mean_{h}_{i}", vector_dot(p, r)))
        rates = [mul(pj, add([rj, minus_mean])) for pj, rj in zip(p, r, strict=True)]
        return mul(-self.cfg.beta, vector_dot(rates, log_p))

    def partition_function(self, h: int, i: int) -> Value:
        """Z^h_i = sum_j m_ij exp(beta s^h_ij): the softmax normalizer, the row sum of the usa weights."""
        return add(self._exponentials(h, i))

    def attention_mean(self, h: int, i: int) -> list[Value]:
        """xbar^h_i = sum_j p^h_ij x_j, p^h_ij = softmax_j(beta s^h_ij) whatever the kind."""
        return combine(self.softmax(h, i)[0], [list(x) for x in self.cfg.tokens])

    def token_norm_rate(self, i: int) -> Value:
        """d|x_i|/dt = <x_i, xdot_i> / |x_i|."""
        x = list(self.cfg.tokens[i])
        return self._quotient(vector_dot(x, self.velocities()[i]), root(vector_dot(x, x)))

    def order_parameter(self) -> Value:
        """R = |m|, m = (1/n) sum_j y_j the mean of the tokens attention reads."""
        m = _mean(self.directions)
        return root(vector_dot(m, m))

    def order_parameter_rate(self) -> Value:
        """dR/dt = <m, mdot> / R for m != 0, the right derivative |mdot| at m = 0, mdot the mean of the direction
        velocities."""
        m, mdot = _mean(self.directions), _mean(self.direction_velocities())
        if all(mk == 0 for mk in m):
            return root(vector_dot(mdot, mdot))
        return self._quotient(vector_dot(m, mdot), self.order_parameter())
