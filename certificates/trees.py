"""Walks over the expression trees of `headflow.certificates.kernel.exprtree` for the code around the kernel (provers,
proof writers), which reads trees but need not add to the kernel's size."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def subtrees(tree: Any) -> Iterator[list[Any]]:
    """Every subtree of a tree, the tree first: the nodes only (lists), never a power's integer exponent, so that
    `node[:1]` and `node[1]` can be read on each."""
    if isinstance(tree, list):
        yield tree
        for child in tree[1:] if tree and tree[0] not in ("rat", "sym") else ():
            yield from subtrees(child)
