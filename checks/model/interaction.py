"""An interaction function's tree compiled into a vectorized float64 evaluator (numpy ops, no eval of any text).

`certificates.kernel.interaction` parses phi(s) into a `certificates.kernel.exprtree` tree; `compiled` walks the
tree once into nested numpy closures over an (H, n, n) array of scores, so the float model evaluates phi, and the
antiderivative Phi of its energy, with the same node meanings as the balls. A value that is not finite (an
overflow such as exp(s**2) at large scores, or a point outside the domain) is an InputError naming phi, never a
silent inf or nan in a verdict.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache

import numpy as np
from headflow.certificates.errors import InputError
from headflow.certificates.kernel import exprtree
from headflow.certificates.kernel.interaction import Interaction

#: An evaluator: (scores, beta) -> values of the same shape.
Evaluator = Callable[[np.ndarray, float], np.ndarray]


def weights_of(interaction: Interaction, s: np.ndarray, beta: float, normalized: bool) -> np.ndarray:
    """phi(s) elementwise (finite, and > 0 when the weights are normalized), else InputError."""
    values = _checked(_compiled(_key(interaction.tree)), s, beta, interaction.text, "phi")
    if normalized and not np.all(values > 0):
        raise InputError("interaction", interaction.text, "normalized (softmax) weights need phi > 0 at every score")
    return values


def energies_of(interaction: Interaction, s: np.ndarray, beta: float) -> np.ndarray:
    """Phi(s) elementwise, Phi the verified antiderivative; InputError when there is none (energy unavailable)."""
    tree = interaction.energy_tree()
    if tree is None:
        raise InputError("interaction", interaction.text, "no verified antiderivative Phi: the energy is unavailable")
    return _checked(_compiled(_key(tree)), s, beta, interaction.text, "Phi")


def _checked(evaluate: Evaluator, s: np.ndarray, beta: float, text: str, what: str) -> np.ndarray:
    with np.errstate(all="ignore"):
        values = np.broadcast_to(np.asarray(evaluate(s, beta), dtype=float), s.shape)
    if not np.all(np.isfinite(values)):
        raise InputError("interaction", text, f"{what} is not finite in float64 at some score (overflow or undefined)")
    return np.array(values)


def _key(tree: exprtree.Tree) -> str:
    return json.dumps(tree)


@lru_cache(maxsize=64)
def _compiled(key: str) -> Evaluator:
    """The evaluator of a tree (keyed by its JSON text: trees are lists, not hashable)."""
    return _compile(json.loads(key))


_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {"exp": np.exp, "log": np.log, "sqrt": np.sqrt}


def _compile(tree: exprtree.Tree) -> Evaluator:
    """The evaluator of one node (TreeError for a node outside `headflow.certificates.kernel.interaction.NODES`)."""
    op, args = tree[0], tree[1:]
    if op == "rat":
        value = float(exprtree.parse_rational(args[0]))
        return lambda s, beta: np.float64(value)
    if op == "sym":
        return (lambda s, beta: s) if args[0] == "s" else (lambda s, beta: np.float64(beta))
    if op in ("pi", "e"):
        value = float(np.pi if op == "pi" else np.e)
        return lambda s, beta: np.float64(value)
    if op == "pow":
        base, k = _compile(args[0]), int(args[1])
        return lambda s, beta: np.power(base(s, beta), float(k)) if k < 0 else base(s, beta) ** k
    parts = [_compile(a) for a in args]
    if op in _UNARY:
        function, inner = _UNARY[op], parts[0]
        return lambda s, beta: function(inner(s, beta))
    if op == "neg":
        return lambda s, beta: -parts[0](s, beta)
    if op == "sub":
        return lambda s, beta: parts[0](s, beta) - parts[1](s, beta)
    if op == "div":
        return lambda s, beta: parts[0](s, beta) / parts[1](s, beta)
    if op == "rpow":  # a rational exponent a/b: the real b-th root of base**a (odd b admits a negative base)
        return _real_power(args, parts)
    if op in ("add", "mul"):
        return _fold(parts, np.add if op == "add" else np.multiply)
    raise exprtree.TreeError(f"no float evaluator of node {op!r}")


def _fold(parts: list[Evaluator], combine: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Evaluator:
    def evaluate(s: np.ndarray, beta: float) -> np.ndarray:
        total = parts[0](s, beta)
        for part in parts[1:]:
            total = combine(total, part(s, beta))
        return total

    return evaluate


def _real_power(args: list[object], parts: list[Evaluator]) -> Evaluator:
    """base**q as `exprtree`'s rpow: base >= 0 (> 0 unless q is a rational literal > 0); nan elsewhere."""
    base, exponent = parts
    exponent_tree = args[1]
    if isinstance(exponent_tree, list) and exponent_tree[0] == "rat":
        q = float(exprtree.parse_rational(exponent_tree[1]))
        least = 0.0 if q > 0 else np.nextafter(0.0, 1.0)
        return lambda s, beta: _where_defined(base(s, beta), least, lambda b: b**q)
    return lambda s, beta: _where_defined(base(s, beta), np.nextafter(0.0, 1.0), lambda b: b ** exponent(s, beta))


def _where_defined(base: np.ndarray, least: float, power: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    return np.where(base >= least, power(np.abs(base)), np.nan)
