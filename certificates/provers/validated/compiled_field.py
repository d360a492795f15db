"""A trajectory statement's field and residuals compiled once into closures, for the prover's trial steps.

The kernel's `Statement.field` walks every tree of its chain at each evaluation (`model_chain.Chain.values`: each
named definition by `evaluate_in`, an `exprtree.fold` per node); a chain is evaluated hundreds of times per step
(once per column of the Jacobian, once per series coefficient), and at n d = 64 the walk costs about two thirds of
the time. Here each tree becomes nested closures once, with `evaluate_in`'s own operations in its order (a sum and a
product folded left with + and *, `**` an integer power, `/`, and the value type's own exp, sqrt and log; a
rational its `ball_of`), so the values are the walk's. The prover tries its steps on this copy and keeps the kernel's
`replay_step` as the judge of each (it calls `field`, whichever statement it is given); the written certificate is
replayed by the kernel's own walk (`check_file`), so nothing here is trusted.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from functools import reduce
from typing import Any

from headflow.certificates.kernel.exact import ball_of
from headflow.certificates.kernel.exprtree import TreeError, node_parts, parse_rational
from headflow.certificates.kernel.model_chain import tree_of
from headflow.certificates.kernel.trajectory import Statement

Closure = Callable[[dict[str, Any]], Any]
#: `evaluate_in`'s operations on the values of a node's arguments.
OPERATIONS: dict[str, Callable[..., Any]] = {
    "add": lambda *values: reduce(operator.add, values),
    "mul": lambda *values: reduce(operator.mul, values),
    "div": operator.truediv,
} | {name: operator.methodcaller(name) for name in ("exp", "sqrt", "log")}


def compiled(tree: Any, depth: int = 0) -> Closure:
    """The closure giving the tree's value from the values of its symbols (TreeError for a node `evaluate_in` has no
    rule for)."""
    op, args = node_parts(tree, depth)
    if op == "rat":
        value = ball_of(parse_rational(args[0]))
        return lambda env: value
    if op == "sym":
        name = args[0]
        return lambda env: env[name]
    if op == "pow":
        base, k = compiled(args[0], depth + 1), args[1]
        return lambda env: base(env) ** k
    if op not in OPERATIONS:
        raise TreeError(f"no rule for {op!r}")
    rule, parts = OPERATIONS[op], [compiled(a, depth + 1) for a in args]
    return lambda env: rule(*[part(env) for part in parts])


class CompiledStatement:
    """The statement with `field` compiled (at the precision in force at the first evaluation, the prover's); every
    other attribute is the kernel statement's."""

    def __init__(self, statement: Statement) -> None:
        self.statement = statement
        self._programs: dict[str, tuple[list[tuple[str, Closure]], list[Closure]]] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.statement, name)

    def field(self, state: Sequence[Any], trees: str = "velocities") -> list[Any]:
        """F (or, with "residuals", the residuals) over a flat state of balls or series, as the kernel's `field`."""
        if trees not in self._programs:
            definitions = [(name, compiled(tree)) for name, tree in self.statement.chain.rate.definitions]
            outputs = [compiled(tree_of(value)) for value in getattr(self.statement, trees)]
            self._programs[trees] = definitions, outputs
        definitions, outputs = self._programs[trees]
        env = dict(zip(self.statement.names, state, strict=True))
        for name, closure in definitions:
            env[name] = closure(env)
        return [closure(env) for closure in outputs]
