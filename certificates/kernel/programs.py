"""Expression trees compiled once into straight-line programs over the ball evaluator's own operations.

`certificates.kernel.exprtree.evaluate` walks its tree at every evaluation; at 1,000 digits the walk of a constant's
stored tree costs as much as its arithmetic, and a certified constant is evaluated at each precision its digits need
(lambda_c's root finder evaluates g and g' a dozen times). `compile_trees` walks the trees once: every distinct
subtree (equal by structure, so that the two copies of c* in beta* and e^u in g and g' are one) becomes one step of
a list, and the step applies the operation `evaluate` applies to that node: `arb(p/q)` of a rational (`ball_of`),
`+` folded left for add, `endpoints.times` folded left for mul, `endpoints.power` for an integer power,
`endpoints.increasing` of exp, log, sqrt and lambertw. So a program's balls are `evaluate`'s balls bit for bit at
every precision (`tests/certificates/test_programs.py` holds them equal); nothing here is another evaluator's
arithmetic, only its order fixed once. Only that node set compiles (the stored forms' and lambda_c's equation's);
any other node is a TreeError (evaluate such a tree instead).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flint import arb, fmpq

from certificates.kernel import endpoints
from certificates.kernel.exprtree import _UNARY_BALLS, UNARY, Tree, TreeError, node_parts, parse_rational

#: One step: (the values of the steps before it, the environment) -> its ball.
Step = Callable[[list[arb], Mapping[str, arb]], arb]


class Program:
    """Trees compiled into steps; `run(env)` returns the ball of each tree at the current flint precision."""

    def __init__(self, steps: list[Step], outputs: tuple[int, ...], symbols: frozenset[str]) -> None:
        self._steps, self._outputs, self.symbols = steps, outputs, symbols

    def run(self, env: Mapping[str, arb]) -> tuple[arb, ...]:
        """The balls of the trees, each symbol at its ball in `env` (TreeError for a symbol without one)."""
        missing = self.symbols.difference(env)
        if missing:
            raise TreeError(f"no value for symbol {sorted(missing)[0]!r}")
        values: list[arb] = []
        for step in self._steps:
            values.append(step(values, env))
        return tuple(values[i] for i in self._outputs)


def compile_trees(*trees: Tree) -> Program:
    """One program computing every tree (shared subtrees once)."""
    steps: list[Step] = []
    index: dict[tuple[Any, ...], int] = {}
    names: set[str] = set()

    def add(key: tuple[Any, ...], step: Step) -> int:
        if key not in index:
            index[key] = len(steps)
            steps.append(step)
        return index[key]

    def visit(tree: object, depth: int) -> int:
        op, args = node_parts(tree, depth)
        if op == "rat" and len(args) == 1 and isinstance(args[0], str):
            value = parse_rational(args[0])
            return add(("rat", value), _rational(fmpq(value.numerator, value.denominator)))
        if op == "sym" and len(args) == 1 and isinstance(args[0], str):
            names.add(args[0])
            return add(("sym", args[0]), _symbol(args[0]))
        if op == "pow" and len(args) == 2 and isinstance(args[1], int) and not isinstance(args[1], bool):
            if abs(args[1]) > 1000:
                raise TreeError("exponent too large")
            base = visit(args[0], depth + 1)
            return add(("pow", base, args[1]), _power(base, args[1]))
        children = tuple(visit(child, depth + 1) for child in args)
        if op in ("add", "mul") and children:
            return add((op, *children), _fold(op, children))
        if op in UNARY and len(children) == 1:
            return add((op, *children), _increasing(_UNARY_BALLS[op], children[0]))
        raise TreeError(f"node {op!r} does not compile (evaluate the tree instead)")

    outputs = tuple(visit(tree, 0) for tree in trees)
    return Program(steps, outputs, frozenset(names))


def _rational(value: fmpq) -> Step:
    return lambda values, env: arb(value)


def _symbol(name: str) -> Step:
    return lambda values, env: env[name]


def _power(base: int, k: int) -> Step:
    return lambda values, env: endpoints.power(values[base], k)


def _increasing(function: Callable[[arb], arb], argument: int) -> Step:
    return lambda values, env: endpoints.increasing(function, values[argument])


def _fold(op: str, children: tuple[int, ...]) -> Step:
    first, rest = children[0], children[1:]
    if op == "add":

        def total(values: list[arb], env: Mapping[str, arb]) -> arb:
            result = values[first]
            for i in rest:
                result = result + values[i]
            return result

        return total

    def product(values: list[arb], env: Mapping[str, arb]) -> arb:
        result = values[first]
        for i in rest:
            result = endpoints.times(result, values[i])
        return result

    return product
