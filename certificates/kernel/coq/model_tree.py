"""The model at an exact configuration for Coq's `interval`: the one chain of named definitions
(`certificates.kernel.model_chain`, which the checker also evaluates with balls), within what Coq can state, and a
`model` claim's own terms over it.

`NotTranslatable` beyond MAX_SIZE (n^2 H d), for an interaction (or its antiderivative) with a node Coq has no
term for, and for every quantity the data do not define (the chain's own errors), with the reason. `Chain.problem` is
the one way a chain's rows become a point problem, for a model statement's terms (`witness_problem`: a claims-file
model claim's, a dynamics claim's refutation, a registry claim's configuration witness).

A claim's sides and `given` conditions (`certificates.kernel.model_terms`, parsed from the embedded claim)
are interpreted by the one interpreter, `model_terms.evaluate`, in the algebra of `model_values.NumericAlgebra`, here
over `Real`s: rationals or expression trees over the named definitions of one `Chain` (weights, head outputs,
velocities, score rates, softmax rows, energies, entropies and their rates at the exact data, sums over the witness's
n tokens and H heads expanded). What the named quantities mean (a_h_i = <f_h_i, x_i>, xdot_i = P_i v_i, ...) is
therefore written once, in `model_terms`; this module supplies only the primitives, and a primitive it has no tree
for is `NotTranslatable` with its name. Each inner product and each sum is named too (`ip_k`, `sum_k`), and so are
the two sides (`lhs`, `rhs`), so that each `interval` call sees a short term.

The Theorem of a claim's witness states, at the exact data, every `given` condition at every token i, for the
witness's head h when it names one (as the statement reads: "if the conditions hold at every token i"; `rhs - lhs` of
each with the sign it states) and `rhs - lhs` with the sign that negates the claim's relation (a universal claim: its
counterexample) or that states it (an existence claim: its instance), `model_values.witnessed`. The kind, geometry and
hypotheses (unit tokens, symmetric, aligned, orthogonal or scalar heads) are exact rational facts about the data,
which the Coq text does not mention as matrices: check-cert's own re-check (`model_statements.check`) decides them
exactly with Fractions before this problem is built, and the file's header says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from certificates.kernel import model_chain
from certificates.kernel.coq import terms
from certificates.kernel.coq.statements import PointProblem
from certificates.kernel.coq.terms import NotTranslatable
from certificates.kernel.exact_data import ExactConfiguration
from certificates.kernel.exprtree import Tree, TreeError
from certificates.kernel.model_chain import Value, add, mul, tree_of
from certificates.kernel.model_statements import witness_configuration
from certificates.kernel.model_values import STATED, NumericAlgebra, evaluate, index_values, residual, witnessed

#: The largest n^2 H d a configuration's Coq statement may have. The file proves one bound per definition
#: (`statements`), so coqc's time grows with the number of definitions: about 20 s of CPU at n^2 H d = 216
#: (the largest registry witness); past this bound it would near coqc's time limit.
MAX_SIZE = 512
#: Bits `interval` works with on a model witness, less `certificates.coq.source.EXTRA_BITS` (its sign has a wide
#: margin; coqc checks).
PRECISION = 14


class Chain(model_chain.Chain):
    """The chain of a configuration Coq can state: not larger than MAX_SIZE, every function of the score it states
    with a Coq term (`terms.term`), NotTranslatable where the chain has no definition."""

    error = NotTranslatable

    def __init__(self, cfg: ExactConfiguration) -> None:
        size = cfg.n * cfg.n * len(cfg.score_matrices) * len(cfg.tokens[0])
        if size > MAX_SIZE:
            raise NotTranslatable(f"too large: n^2 H d = {size} (the Coq statement takes at most {MAX_SIZE})")
        super().__init__(cfg)

    def _function(self, tree: Tree, what: str) -> Tree:
        try:
            terms.term(tree)
        except (NotTranslatable, TreeError) as exc:
            raise NotTranslatable(f"{what}: {exc}") from None
        return tree

    def problem(self, rows: list[tuple[str, Any, str]]) -> PointProblem:
        """The rows (name, tree over the chain's names, relation) at the exact data, over the chain's definitions."""
        return PointProblem({}, rows, PRECISION, tuple(self.rate.definitions))


#: What the header says first (its comment is cut at 300 characters) of the facts Coq does not re-prove.
EXACT_FACTS = "kind, geometry and hypotheses checked exactly on the rational data by check-cert, not restated in Coq"


class Real:
    """A real number at the exact data: a Fraction or a tree (`model_chain.Value`), with + - * / and ** as the
    algebra's scalars need them. Integers are exact; a float (inexact) is refused."""

    __slots__ = ("value",)

    def __init__(self, value: Value) -> None:
        self.value = value

    @staticmethod
    def lift(other: object) -> Value:
        if isinstance(other, Real):
            return other.value
        if isinstance(other, int | Fraction) and not isinstance(other, bool):
            return Fraction(other)
        raise NotTranslatable(f"a model term met the inexact value {str(other)[:30]!r}")

    def __add__(self, other: object) -> Real:
        return Real(add([self.value, Real.lift(other)]))

    def __neg__(self) -> Real:
        return Real(mul(Fraction(-1), self.value))

    def __sub__(self, other: object) -> Real:
        return self + -Real(Real.lift(other))

    def __rsub__(self, other: object) -> Real:
        return -self + other

    def __mul__(self, other: object) -> Real:
        return Real(mul(self.value, Real.lift(other)))

    __radd__, __rmul__ = __add__, __mul__

    def __truediv__(self, other: object) -> Real:
        divisor = Real.lift(other)
        if divisor == 0:
            raise NotTranslatable("a model term divides by zero at the witness")
        if isinstance(divisor, Fraction):
            return Real(mul(1 / divisor, self.value))
        return Real(["div", tree_of(self.value), divisor])  # its definedness (divisor <> 0) is stated

    def __rtruediv__(self, other: object) -> Real:
        return Real(Real.lift(other)) / self

    def __pow__(self, k: int) -> Real:
        if isinstance(self.value, Fraction):
            return Real(self.value**k)
        return Real(Fraction(1) if k == 0 else self.value if k == 1 else ["pow", self.value, k])


def _source(chain: Chain) -> Callable[[str], Any]:
    """The primitives of `NumericAlgebra` as Reals over the chain's definitions."""
    cfg, H = chain.cfg, len(chain.scores)

    def named(name: str, value: Value) -> Real:
        return Real(chain.rate.define(name, value))

    def grid(name: str, read: Callable[[int, int], Value]) -> list[list[Real]]:
        return [[named(name.format(h=h, i=i), read(h, i)) for i in range(cfg.n)] for h in range(H)]

    readers: dict[str, Callable[[], Any]] = {
        "n": lambda: cfg.n,
        "d": lambda: len(cfg.tokens[0]),
        "H": lambda: H,
        "beta": lambda: Real(cfg.beta),
        "x": lambda: [[Real(v) for v in x] for x in cfg.tokens],
        "f": lambda: [[[Real(v) for v in f] for f in head] for head in chain.outputs()],
        "E_h": lambda: [named(f"E_{h}", chain.head_energy(h)) for h in range(H)],
        "dE_h_dt": lambda: [named(f"dE_{h}_dt", chain.head_energy_rate(h)) for h in range(H)],
        "entropy": lambda: grid("H_{h}_{i}", chain.entropy),
        "entropy_rate": lambda: grid("dH_{h}_{i}_dt", chain.entropy_rate),
        "R": lambda: named("R", chain.order_parameter()),
        "dR_dt": lambda: named("dR_dt", chain.order_parameter_rate()),
        "norm_rate": lambda: [named(f"dnx_{i}_dt", chain.token_norm_rate(i)) for i in range(cfg.n)],
    }

    def source(name: str) -> Any:
        if name not in readers:
            raise NotTranslatable(f"the model quantity {name!r} has no Coq term yet")
        return readers[name]()

    return source


@dataclass
class TreeAlgebra(NumericAlgebra):
    """`NumericAlgebra` over Reals: n, d, H are exact rationals as symbols (integers as loop bounds), and every
    inner product and scalar sum is a named definition of the chain (the same value once)."""

    chain: Chain = field(kw_only=True)
    named: dict[str, Real] = field(default_factory=dict)

    def _name(self, prefix: str, value: Real) -> Real:
        if isinstance(value.value, Fraction) or value.value[0] == "sym":
            return value
        key = repr(value.value)
        if key not in self.named:
            self.named[key] = Real(self.chain.rate.define(f"{prefix}_{len(self.named)}", value.value))
        return self.named[key]

    def inner(self, u: Any, w: Any) -> Any:
        return self._name("ip", super().inner(u, w))

    def _total(self, values: Iterator[Any], vector: bool) -> Any:
        total = super()._total(values, vector)
        return total if vector else self._name("sum", total)

    def log(self, value: Any) -> Any:
        raise NotTranslatable("a logarithm of a model quantity has no Coq term yet")

    def root(self, value: Any) -> Any:
        raise NotTranslatable("a norm |u| (a square root) of a model quantity has no Coq term yet")


def tree_algebra(cfg: ExactConfiguration) -> TreeAlgebra:
    """The model terms at exact data as Reals over one chain of definitions (NotTranslatable past its size)."""
    chain = Chain(cfg)
    return TreeAlgebra(_source(chain), Real, cfg.attention, cfg.geometry, chain=chain)


def witness_problem(claim: Any, payload: dict[str, Any]) -> PointProblem:
    """The Coq problem of a model claim's witness whose payload check-cert has already re-checked
    (`model_statements.check`: hypotheses exact, conditions and sign in balls): the given conditions at every token
    and the witnessed sign of rhs - lhs at the witness's token and head, over the chain's definitions."""
    if claim.exists and claim.relation.op == "=":
        raise NotTranslatable("an exact identity at the witness (exponential polynomials): interval proves no equality")
    cfg = witness_configuration(claim, payload)
    algebra, at = tree_algebra(cfg), dict(payload["at"])
    sizes = {"i": cfg.n, "h": len(cfg.score_matrices)}

    def where(binding: dict[str, int]) -> str:
        return " at " + ", ".join(f"{k} = {v}" for k, v in sorted(binding.items())) if binding else ""

    rows: list[tuple[str, Any, str]] = []
    for condition in claim.given:
        for binding in index_values(condition.free, {k: v for k, v in at.items() if k == "h"}, sizes):
            gap = residual(condition, algebra, binding)
            rows.append((f"given {condition.text}{where(binding)}", tree_of(gap.value), STATED[condition.op]))
    token, head = at.get("i"), at.get("h")
    lhs, rhs = (
        tree_of(algebra.chain.rate.define(name, evaluate(side, algebra, token, head).value))
        for name, side in (("lhs", claim.relation.lhs), ("rhs", claim.relation.rhs))
    )
    what = "holds" if claim.exists else "fails"
    name = f"{claim.relation.text} {what}{where(at)}: rhs - lhs {witnessed(claim)} 0"
    rows.append((name, ["sub", rhs, lhs], witnessed(claim)))
    return algebra.chain.problem(rows)
