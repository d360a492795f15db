"""Expression trees compiled once into straight-line programs over the ball evaluator's own operations.

`certificates.kernel.exprtree.evaluate` walks its tree at every evaluation; at 1,000 digits the walk of a constant's
stored tree costs as much as its arithmetic, and a certified constant is evaluated at each precision its digits need
(lambda_c's root finder evaluates g and g' a dozen times). `compile_trees` walks the trees once: every distinct
subtree (equal by structure, so that the two copies of c* in beta* and e^u in g and g' are one) becomes one value of
a list, and each value is what `evaluate` gives that node: `arb(p/q)` of a rational (`ball_of`), the symbol's ball,
`+` folded left for add, `endpoints.times` folded left for mul, `endpoints.power` for an integer power,
`endpoints.increasing` of exp, log, sqrt and lambertw. So a program's balls are `evaluate`'s balls bit for bit at
every precision (`tests/certificates/provers/test_programs.py` holds them equal); nothing here is another evaluator's
arithmetic, only its order fixed once. The leaves (rationals, the integer exponents of powers and symbols, which
depend on no other value) come first, and the rationals' balls, which depend only on the precision, are made once
per precision; a step is one operation on one or two earlier values (a sum or product of k terms is k - 1 steps,
in `evaluate`'s order), so running a program costs one Python call per operation at most. Only that node set
compiles (the stored forms', lambda_c's equation's and the exit function's); any other node is a TreeError
(evaluate such a tree instead).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from functools import cache, partial
from typing import Any

from flint import arb, ctx, fmpq
from headflow.certificates.kernel import endpoints, stored_forms
from headflow.certificates.kernel.exprtree import UNARY, UNARY_BALLS, Tree, TreeError, node_parts, parse_rational

#: One step: (an operation, the values it takes: one or two earlier values' places; None for the second of a
#: function of one argument).
Step = tuple[Callable[..., arb], int, int | None]


class Program:
    """Trees compiled into steps; `run(env)` returns the ball of each tree at the current flint precision.

    Its values are, in order, the constants (the rationals' balls and the powers' integer exponents), the symbols'
    balls (from `env`) and one ball per step."""

    #: Precisions whose constants a program keeps (a constant is certified at a few; past them all are dropped).
    KEPT_PRECISIONS = 64

    def __init__(
        self, constants: tuple[fmpq | int, ...], names: tuple[str, ...], steps: list[Step], outputs: tuple[int, ...]
    ) -> None:
        self._constants, self._names, self._steps, self._outputs = constants, names, steps, outputs
        self.symbols = frozenset(names)
        self._kept: dict[int, list[arb | int]] = {}

    def _constant_values(self, prec: int) -> list[arb | int]:
        """The constants at `prec` bits, the context precision (`arb(p/q)` depends on nothing else)."""
        found = self._kept.get(prec)
        if found is None:
            if len(self._kept) >= self.KEPT_PRECISIONS:
                self._kept.clear()  # (one operation: safe should threads share the program)
            found = self._kept[prec] = [v if isinstance(v, int) else arb(v) for v in self._constants]
        return found

    def run(self, env: Mapping[str, arb]) -> tuple[arb, ...]:
        """The balls of the trees, each symbol at its ball in `env` (TreeError for a symbol without one)."""
        prec = ctx.prec
        kept = self._kept.get(prec)
        values = (self._constant_values(prec) if kept is None else kept).copy()
        append = values.append
        try:
            for name in self._names:
                append(env[name])
        except KeyError:
            missing = next(name for name in self._names if name not in env)
            raise TreeError(f"no value for symbol {missing!r}") from None
        for function, first, second in self._steps:
            append(function(values[first]) if second is None else function(values[first], values[second]))
        if len(self._outputs) == 1:
            return (values[self._outputs[0]],)
        return tuple([values[i] for i in self._outputs])


def compile_trees(*trees: Tree) -> Program:
    """One program computing every tree (shared subtrees once)."""
    #: Each distinct constant, ("rat", fmpq) or ("int", exponent), by its place among the values.
    constants: dict[tuple[str, fmpq | int], int] = {}
    names: set[str] = set()
    #: Each distinct inner node: its key (operation, children as ("rat", v), ("sym", name) or ("node", k), payload).
    nodes: dict[tuple[Any, ...], int] = {}

    def visit(tree: object, depth: int) -> tuple[str, Any]:
        op, args = node_parts(tree, depth)
        if op == "rat" and len(args) == 1 and isinstance(args[0], str):
            value = parse_rational(args[0])
            leaf = ("rat", fmpq(value.numerator, value.denominator))
            constants.setdefault(leaf, len(constants))
            return leaf
        if op == "sym" and len(args) == 1 and isinstance(args[0], str):
            names.add(args[0])
            return "sym", args[0]
        if op == "pow" and len(args) == 2 and isinstance(args[1], int) and not isinstance(args[1], bool):
            if abs(args[1]) > 1000:
                raise TreeError("exponent too large")
            constants.setdefault(("int", args[1]), len(constants))
            return "node", nodes.setdefault(("pow", visit(args[0], depth + 1), ("int", args[1])), len(nodes))
        children = tuple(visit(child, depth + 1) for child in args)
        if (op in ("add", "mul") and children) or (op in UNARY and len(children) == 1):
            return "node", nodes.setdefault((op, *children), len(nodes))
        raise TreeError(f"node {op!r} does not compile (evaluate the tree instead)")

    found = [visit(tree, 0) for tree in trees]
    order = tuple(sorted(names))
    slots: dict[tuple[str, Any], int] = dict(constants)
    slots.update((("sym", name), len(constants) + i) for i, name in enumerate(order))
    steps: list[Step] = []

    def emit(step: Step) -> int:
        steps.append(step)
        return len(constants) + len(order) + len(steps) - 1

    for key, k in nodes.items():  # in order of first visit: every child before its parent
        op, *rest = key
        if op == "pow":
            slots["node", k] = emit((endpoints.power, slots[rest[0]], slots[rest[1]]))
        elif op in UNARY:
            slots["node", k] = emit((partial(endpoints.increasing, UNARY_BALLS[op]), slots[rest[0]], None))
        else:  # the left fold of `evaluate`, one operation per step
            combine = operator.add if op == "add" else endpoints.times
            result = slots[rest[0]]
            for child in rest[1:]:
                result = emit((combine, result, slots[child]))
            slots["node", k] = result
    values = tuple(value for _, value in sorted(constants, key=constants.__getitem__))
    return Program(values, order, steps, tuple(slots[f] for f in found))


@cache
def program(name: str) -> Program:
    """The stored tree `name` (`certificates.kernel.stored_forms`) compiled once into a program: `evaluate`'s balls,
    the tree walked once per process instead of once per evaluation."""
    return compile_trees(stored_forms.tree(name))
