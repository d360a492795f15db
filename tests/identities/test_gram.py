"""The Gram algebra against numpy: pairings mean what they say, in several dimensions."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from headflow.checks.model import field as model
from headflow.identities.gram import GramSpace, Pairing, Vector

x, u, w = sp.symbols("x u w")
M1, M2 = sp.symbols("M1 M2")


def evaluate(expr: sp.Expr, vectors: dict, operators: dict) -> float:
    """Replace each pairing <a, W b> by a . (W b) computed in numpy, then evaluate."""

    def value(e: Pairing) -> sp.Float:
        word, a, b = e.args
        right = vectors[b]
        for op in reversed(tuple(word)):
            right = operators[op] @ right
        return sp.Float(float(vectors[a] @ right))

    return float(expr.replace(lambda e: isinstance(e, Pairing), value))


@pytest.mark.parametrize("d", [1, 2, 5, 9])
def test_projection_expressions_match_the_model(d: int) -> None:
    rng = np.random.default_rng(d)
    space = GramSpace.create(unit=[x])
    vx = rng.standard_normal(d)
    vx /= np.linalg.norm(vx)
    vu, vw = rng.standard_normal(d), rng.standard_normal(d)
    vectors = {x: vx, u: vu, w: vw}
    pu = space.project(Vector.named(x), Vector.named(u))
    tangent = model.project(vx[None], vu[None])[0]
    assert evaluate(space.norm2(pu), vectors, {}) == pytest.approx(tangent @ tangent, rel=1e-12, abs=1e-12)
    assert evaluate(space.inner(pu, Vector.named(w)), vectors, {}) == pytest.approx(tangent @ vw, abs=1e-12)


def test_operator_words_use_symmetry_and_annihilation() -> None:
    rng = np.random.default_rng(1)
    d = 6
    A = rng.standard_normal((d, d))
    B = np.zeros((d, d))
    S1, S2 = A + A.T, B
    S1[3:, :] = 0
    S1[:, 3:] = 0
    S2[3:, 3:] = 1.0
    space = GramSpace.create(annihilating=[(M1, M2)])
    vectors = {u: rng.standard_normal(d), w: rng.standard_normal(d)}
    operators = {M1: S1, M2: S2}
    expr = space.inner(Vector.named(u).apply(M1), Vector.named(w).apply(M1))
    assert evaluate(expr, vectors, operators) == pytest.approx((S1 @ vectors[u]) @ (S1 @ vectors[w]))
    assert space.inner(Vector.named(u).apply(M1), Vector.named(w).apply(M2)) == 0
    assert space.pair((M1,), u, w) == space.pair((M1,), w, u)


def test_unit_vectors_only_where_declared() -> None:
    space = GramSpace.create(unit=[x])
    assert space.pair((), x, x) == 1
    assert space.pair((), u, u) != 1
    indexed = sp.IndexedBase("y")
    family = GramSpace.create(unit=[indexed])
    assert family.pair((), indexed[1], indexed[1]) == 1
    assert family.pair((), indexed[1], indexed[2]) != 1
