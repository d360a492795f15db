"""The registry's identities of an inner-product space: what a `gram` certificate of each claim states.

The vectors are trees (`certificates.kernel.inner_products`), and the tangent projection is built by the one
definition of `identities.closed_forms.tangent_projection` (P u = u - <u, x> x) applied to them, so the statement
says what the claim says before any expansion: the kernel expands the inner products itself. The entries go into the
kernel's table with the other registry statements (`certificates.statements.registry.build`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from headflow.identities.closed_forms import tangent_projection

Tree = list[Any]


@dataclass(frozen=True)
class VectorTree:
    """A vector as a tree: sums and scalar multiples of named vectors."""

    tree: Tree

    def __add__(self, other: VectorTree) -> VectorTree:
        return VectorTree(["vadd", self.tree, other.tree])

    def __rmul__(self, factor: Tree) -> VectorTree:
        return VectorTree(["vscale", factor, self.tree])

    def __neg__(self) -> VectorTree:
        return VectorTree(["vscale", ["rat", "-1"], self.tree])

    def __sub__(self, other: VectorTree) -> VectorTree:
        return self + (-other)


def inner(a: VectorTree, b: VectorTree) -> Tree:
    """<a, b> as a scalar tree (unexpanded: the kernel expands it)."""
    return ["inner", a.tree, b.tree]


X, U, W = (VectorTree(["vec", name]) for name in ("x", "u", "w"))
PU, PW = (tangent_projection(X, vector, inner) for vector in (U, W))

#: A multiple a x of the unit vector x (a a real symbol): at a single cluster or an antipodal split, every token's
#: velocity field is one (the lemma the critical-point statements name and do not re-check).
AX = ["sym", "a"] * X


def _vanishes_at(token: VectorTree) -> tuple[Tree, Tree]:
    """<P_token(a x), w> = 0: the tangent projection at `token` of a x is 0 (stated against every w)."""
    return inner(tangent_projection(token, AX, inner), W), ["rat", "0"]


#: The lemma of the critical-point statements that check-cert does not re-check.
VELOCITY_LEMMA = (
    "; it rests on a lemma check-cert does NOT re-check (SymPy derives it outside the kernel, "
    "identities.critical_points): at that configuration, for every kind, n, d, H, beta and heads whose value "
    "matrices share the eigenvector x, every token's velocity field sum_h sum_j w^h_ij W_h x_j is a real multiple "
    "a x of x"
)

#: What every projection statement assumes, in its sentence.
SPACE = "for vectors x, u, w of any real inner-product space (every R^d) with <x, x> = 1, and P u = u - <u, x> x"


@dataclass(frozen=True)
class GramObligation:
    """Identities lhs = rhs between scalar trees with inner products, under unit and orthogonality hypotheses."""

    sentence: str
    identities: tuple[tuple[Tree, Tree], ...]
    unit: tuple[str, ...] = ("x",)
    orthogonal: tuple[tuple[str, str], ...] = ()

    def entry(self) -> dict[str, Any]:
        """The kernel's table entry (no integer parameters)."""
        return {
            "kind": "gram",
            "ranges": {},
            "shape": [],
            "sentence": self.sentence,
            "unit": list(self.unit),
            "orthogonal": [list(pair) for pair in self.orthogonal],
            "identities": [list(pair) for pair in self.identities],
        }


GRAM: dict[str, GramObligation] = {
    "projection.self-pairing": GramObligation(f"{SPACE}: <P u, u> = <P u, P u>", ((inner(PU, U), inner(PU, PU)),)),
    "projection.symmetry": GramObligation(f"{SPACE}: <P u, w> = <u, P w>", ((inner(PU, W), inner(U, PW)),)),
    "projection.tangency": GramObligation(
        f"{SPACE}: <P u, x> = 0 and <P P u, w> = <P u, w> for every w (P P u = P u)",
        ((inner(PU, X), ["rat", "0"]), (inner(tangent_projection(X, PU, inner), W), inner(PU, W))),
    ),
    "critical-points.single-cluster": GramObligation(
        "for vectors x, w of any real inner-product space (every R^d) with <x, x> = 1 and every real a: "
        "P_x(a x) = 0 (the tangent projection at x of a multiple of x vanishes, stated as <P_x(a x), w> = 0 for "
        "every w), so x_1 = ... = x_n = x is an equilibrium once each velocity field is a multiple of x"
        + VELOCITY_LEMMA,
        (_vanishes_at(X),),
    ),
    "critical-points.antipodal": GramObligation(
        "for vectors x, w of any real inner-product space (every R^d) with <x, x> = 1 and every real a: "
        "P_x(a x) = 0 and P_{-x}(a x) = 0 (stated against every w), so x_i = sigma_i x, sigma_i in {1, -1}, is an "
        "equilibrium once each velocity field is a multiple of x" + VELOCITY_LEMMA,
        (_vanishes_at(X), _vanishes_at(-X)),
    ),
}
