"""The model's field compiled once into a straight-line program, evaluated over balls and truncated power series, and
differentiated in reverse (the Taylor coefficients of its Jacobian along a series).

The program is the kernel's chain (`certificates.kernel.model_chain.Chain`, the one definition of the model) over
symbolic tokens, as `ball_model.velocity_field` builds it, with the configuration's mask and interaction: its named
definitions and velocities, walked once by `exprtree.fold` into binary operations, every repeated operation kept once
(the scores s_ij and s_ji, the rows W_h x_j that every token reads). Nothing of the model is written here; the
operations mean what the number type's own operations mean, as in `Chain.compiled`. Evaluating the flat list of
operations replaces rebuilding and walking the chain's trees at every call, which cost more than the arithmetic.

`Program.jacobian_series` differentiates the program in reverse: the Taylor coefficients of the field's Jacobian
J(x(t)) along a state of series, each entry enclosing its value at every point of the balls. Forward differentiation
carried each register's derivatives in all the state directions it depends on, which is every direction past a
softmax normalizer; backwards, a register reaches the velocities of at most two tokens.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from typing import Any

from flint import arb, arb_mat, arb_series
from headflow.certificates.kernel.exact import ball_of
from headflow.certificates.kernel.exact_data import ExactConfiguration
from headflow.certificates.kernel.exprtree import fold
from headflow.certificates.kernel.model_chain import Chain, tree_of

#: Operations whose operands may be swapped (kept once for either order).
COMMUTATIVE = ("add", "mul")


class FieldUndefined(ArithmeticError):
    """The field is not defined over the given state (a division by a ball or series that may be 0)."""


def _exp(x: Any, _: Any) -> Any:
    return x.exp()


def _log(x: Any, _: Any) -> Any:
    return x.log()


def _sqrt(x: Any, _: Any) -> Any:
    return x.sqrt()


def _neg(x: Any, _: Any) -> Any:
    return -x


def _power(k: int, x: Any, _: Any) -> Any:
    return x**k


#: Each operation's evaluation over any number type with the four operations, integer powers, exp, log and sqrt.
OPERATIONS: dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "div": operator.truediv,
    "neg": _neg,
    "exp": _exp,
    "log": _log,
    "sqrt": _sqrt,
}


class Program:
    """Operations over N inputs (the state, index i d + k for token i's coordinate k) and constants: operation m
    writes register N + C + m from registers a and b (b unused by unary ones, the exponent of a power); the outputs
    are registers."""

    def __init__(
        self,
        inputs: int,
        constants: tuple[Fraction | str, ...],
        operations: tuple[tuple[str, int, int], ...],
        outputs: tuple[int, ...],
    ) -> None:
        self.inputs, self.constants, self.operations, self.outputs = inputs, constants, operations, outputs
        self._steps = [(partial(_power, b), a, a) if op == "pow" else (OPERATIONS[op], a, b) for op, a, b in operations]

    def __call__(self, state: Sequence[Any]) -> list[Any]:
        """The field at the state (balls, or series of one length), as the outputs' values."""
        registers = self.registers(state)
        return [registers[r] for r in self.outputs]

    def registers(self, state: Sequence[Any]) -> list[Any]:
        """Every register's value at the state: the inputs, the constants, each operation's result."""
        if len(state) != self.inputs:
            raise ValueError(f"the field takes {self.inputs} coordinates, not {len(state)}")
        registers = list(state) + [_constant(c) for c in self.constants]
        append = registers.append
        try:
            for op, a, b in self._steps:
                append(op(registers[a], registers[b]))
        except (ValueError, ZeroDivisionError) as exc:  # python-flint's series division by a possible 0
            raise FieldUndefined(f"the field is not defined over the state ({exc})") from None
        return registers

    def jacobian_series(self, state: Sequence[Any], length: int) -> list[arb_mat]:
        """J_0 .. J_{length-1}: the Taylor coefficients of the field's Jacobian J(x(t)) along a state of series x(t)
        (of length `length`; balls give J_0, the Jacobian over the box), each entry enclosing its value at every
        point of the state's balls. Reverse differentiation: the registers' values, then one backward sweep in
        which a register's adjoint is the derivative of each output it reaches with respect to it (a few outputs
        for all but the inputs: a score reaches its two tokens' velocities), pushed to its operands by the chain
        rule (`_partials`); the inputs' adjoints are the Jacobian's columns."""
        n, registers = self.inputs, self.registers(state)
        adjoints: list[dict[int, Any] | None] = [None] * len(registers)
        for m, r in enumerate(self.outputs):
            adjoints[r] = _plus(adjoints[r], {m: ONE})
        first = n + len(self.constants)
        try:
            for index in range(len(self.operations) - 1, -1, -1):
                adjoint = adjoints[first + index]
                if adjoint is None:
                    continue
                op, a, b = self.operations[index]
                for target, partial in _partials(op, a, b, registers, registers[first + index]):
                    if target < n or target >= first:  # constants have no adjoint
                        pushed = adjoint if partial is None else {m: g * partial for m, g in adjoint.items()}
                        adjoints[target] = _plus(adjoints[target], pushed)
        except (ValueError, ZeroDivisionError) as exc:
            raise FieldUndefined(f"the field's Jacobian is not defined over the state ({exc})") from None
        entries: list[list[Any]] = [[ZERO] * (n * n) for _ in range(length)]
        for column in range(n):
            for m, derivative in (adjoints[column] or {}).items():
                if isinstance(derivative, arb_series):
                    if derivative.prec < length:
                        raise ValueError(f"a series of length {derivative.prec} has no coefficient {length - 1}")
                    for j, c in enumerate(derivative.coeffs()[:length]):
                        entries[j][m * n + column] = c
                else:
                    entries[0][m * n + column] = derivative
        return [arb_mat(n, n, e) for e in entries]


#: An adjoint's seed (the derivative of an output with respect to itself), and a derivative that is 0.
ONE, ZERO = arb(1), arb(0)


def _plus(adjoint: dict[int, Any] | None, pushed: dict[int, Any]) -> dict[int, Any]:
    """The sum of two adjoints (a new dict: adjoints are shared between registers without copies)."""
    if adjoint is None:
        return pushed
    total = dict(adjoint)
    for m, g in pushed.items():
        total[m] = total[m] + g if m in total else g
    return total


def _partials(op: str, a: int, b: int, registers: list[Any], value: Any) -> list[tuple[int, Any]]:
    """(operand, d result / d operand) of an operation at the registers' values (None: a derivative of 1)."""
    if op == "add":
        return [(a, None), (b, None)]
    if op == "sub":
        return [(a, None), (b, -ONE)]
    if op == "mul":
        return [(a, registers[b]), (b, registers[a])]
    if op == "div":
        inverse = 1 / registers[b]
        return [(a, inverse), (b, -value * inverse)]
    if op == "neg":
        return [(a, -ONE)]
    if op == "exp":
        return [(a, value)]
    if op == "log":
        return [(a, 1 / registers[a])]
    if op == "sqrt":
        return [(a, 1 / (2 * value))]
    if op == "pow":  # b is the integer exponent k >= 1
        return [(a, b * registers[a] ** (b - 1))]
    raise ValueError(f"no derivative of the operation {op!r}")


def _constant(c: Fraction | str) -> arb:
    """A constant's ball at the working precision (pi and e by python-flint)."""
    if c == "pi":
        return arb.pi()
    if c == "e":
        return arb(1).exp()
    return ball_of(c)  # type: ignore[arg-type]


class _Builder:
    """The program under construction, its registers as integers: the inputs 0 .. N-1, operation m as N + m,
    constant c as -1 - c; every operation (op, a, b) kept once, every constant once."""

    def __init__(self, inputs: int) -> None:
        self.inputs = inputs
        self.constants: dict[Fraction | str, int] = {}
        self.operations: dict[tuple[str, int, int], int] = {}

    def constant(self, c: Fraction | str) -> int:
        return -1 - self.constants.setdefault(c, len(self.constants))

    def node(self, op: str, a: int, b: int | None = None) -> int:
        """The register of op(a, b) (a new operation unless the same one exists; b = a for a unary one)."""
        b = a if b is None else b
        if op in COMMUTATIVE and b < a:
            a, b = b, a
        return self.inputs + self.operations.setdefault((op, a, b), len(self.operations))

    def power(self, a: int, k: int) -> int:
        """a**k for an integer k (a quotient for k < 0)."""
        if k < 0:
            return self.node("div", self.constant(Fraction(1)), self.power(a, -k))
        if k == 0:
            return self.constant(Fraction(1))
        return self.inputs + self.operations.setdefault(("pow", a, k), len(self.operations))

    def rules(self, env: dict[str, int]) -> dict[str, Callable[..., int]]:
        """`exprtree.fold`'s rules building the program: the operations of `Chain.values` (the four, integer powers,
        exp, log, sqrt) and the interaction's own nodes (neg, sub, a real power b**q as exp(q log b), which is
        defined where b > 0, pi, e)."""

        def chained(op: str, *values: int) -> int:
            result = values[0]
            for v in values[1:]:
                result = self.node(op, result, v)
            return result

        unary = {op: partial(self.node, op) for op in ("neg", "exp", "log", "sqrt")}
        return unary | {
            "rat": self.constant,
            "sym": env.__getitem__,
            "add": partial(chained, "add"),
            "mul": partial(chained, "mul"),
            "sub": partial(self.node, "sub"),
            "div": partial(self.node, "div"),
            "pow": self.power,
            "rpow": lambda base, exponent, walk: self.node(
                "exp", self.node("mul", walk(exponent), self.node("log", walk(base)))
            ),
            "pi": lambda: self.constant("pi"),
            "e": lambda: self.constant("e"),
        }

    def finished(self, outputs: list[int]) -> Program:
        """The program with every operation the outputs do not need dropped, its registers numbered: the inputs,
        then the constants, then the operations in order."""
        operations = list(self.operations)
        needed: set[int] = set()
        stack = [o - self.inputs for o in outputs if o >= self.inputs]
        while stack:
            m = stack.pop()
            if m not in needed:
                needed.add(m)
                op, a, b = operations[m]
                stack += [r - self.inputs for r in ((a,) if op == "pow" else (a, b)) if r >= self.inputs]
        kept = sorted(needed)
        base = self.inputs + len(self.constants)
        number = {self.inputs + m: base + k for k, m in enumerate(kept)}

        def register(r: int) -> int:
            return r if 0 <= r < self.inputs else self.inputs - 1 - r if r < 0 else number[r]

        program = [(op, register(a), b if op == "pow" else register(b)) for op, a, b in (operations[m] for m in kept)]
        return Program(self.inputs, tuple(self.constants), tuple(program), tuple(register(o) for o in outputs))


def compile_field(cfg: ExactConfiguration, geometry: str | None = None) -> Program:
    """The velocities of the configuration's chain over symbolic tokens (its heads, beta, kind, mask, interaction
    and geometry; its tokens give only n and d) as a program; ValueError where the chain has a node outside the
    rules (relu's kink, which the chain builds only at exact scores)."""
    n, d = cfg.n, len(cfg.tokens[0])
    symbols = [[["sym", f"x_{i}_{k}"] for k in range(d)] for i in range(n)]
    symbolic = ExactConfiguration(
        symbols,  # type: ignore[arg-type]
        cfg.score_matrices,
        cfg.values,
        cfg.beta,
        geometry or cfg.geometry,
        cfg.attention,
        cfg.mask,
        cfg.interaction,
    )
    chain = Chain(symbolic)
    velocities = chain.velocities()
    builder = _Builder(n * d)
    env = {f"x_{i}_{k}": i * d + k for i in range(n) for k in range(d)}
    rules = builder.rules(env)
    for name, tree in chain.definitions:
        env[name] = fold(tree, rules)
    return builder.finished([fold(tree_of(v), rules) for x in velocities for v in x])
