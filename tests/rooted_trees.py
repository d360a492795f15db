"""Rooted trees and the Runge-Kutta order conditions they index (Butcher's theory), for the tableau tests.

A tree is the sorted tuple of its subtrees (the single node is `()`), so equal trees compare
equal. A method with coefficients a and weights b has order p when, for every tree t with at
most p nodes, sum_i b_i g_i(t) = 1 / gamma(t), where g(node) = 1 and g(t)_i = prod over the
subtrees u of t of (a g(u))_i, and gamma(t) = |t| prod gamma(u). A continuous extension b(theta)
has order q when sum_i b_i(theta) g_i(t) = theta^|t| / gamma(t) for every t with at most q nodes.
The arithmetic is generic: Fractions or mpmath numbers give exact or high-precision residuals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from math import prod
from typing import Any

Tree = tuple


@cache
def trees(order: int) -> tuple[Tree, ...]:
    """Every rooted tree with `order` nodes (1, 1, 2, 4, 9, 20, 48, 115, 286 of them for orders 1..9)."""
    if order == 1:
        return ((),)
    grown = {tree for smaller in trees(order - 1) for tree in _with_a_leaf(smaller)}
    return tuple(sorted(grown, key=repr))


def _with_a_leaf(tree: Tree) -> set[Tree]:
    """Every tree made from `tree` by attaching one new leaf to one of its nodes."""
    result = {tuple(sorted((*tree, ()), key=repr))}
    for k, child in enumerate(tree):
        for grown in _with_a_leaf(child):
            result.add(tuple(sorted((*tree[:k], grown, *tree[k + 1 :]), key=repr)))
    return result


def size(tree: Tree) -> int:
    return 1 + sum(size(child) for child in tree)


def density(tree: Tree) -> int:
    """gamma(t) = |t| times the densities of the subtrees."""
    return size(tree) * prod(density(child) for child in tree)


def stage_weights(a: Sequence[Sequence[Any]], one: Any) -> Callable[[Tree], list[Any]]:
    """t -> the vector g(t) over the stages of the strictly lower-triangular a (rows of any lengths <= i)."""
    memo: dict[Tree, list[Any]] = {}

    def g(tree: Tree) -> list[Any]:
        if tree not in memo:
            vector = [one] * len(a)
            for child in tree:
                inner = g(child)
                products = [sum((a_ij * inner[j] for j, a_ij in enumerate(row)), 0 * one) for row in a]
                vector = [v * w for v, w in zip(vector, products, strict=True)]
            memo[tree] = vector
        return memo[tree]

    return g


def largest_defect(b: Sequence[Any], a: Sequence[Sequence[Any]], order: int, one: Any, theta: Any = None) -> Any:
    """max |sum_i b_i g_i(t) - theta^|t| / gamma(t)| over the trees of at most `order` nodes (theta = 1 if None)."""
    g = stage_weights(a, one)
    theta = one if theta is None else theta
    worst = 0 * one
    for p in range(1, order + 1):
        for tree in trees(p):
            weights = g(tree)
            value = sum((b_i * w for b_i, w in zip(b, weights, strict=False)), 0 * one)
            worst = max(worst, abs(value - theta**p / density(tree)))
    return worst
