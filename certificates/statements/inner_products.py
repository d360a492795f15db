"""The registry's identities of an inner-product space: what a `gram` certificate of each claim states.

The vectors are trees (`certificates.kernel.inner_products`), and the tangent projection is built by the one
definition of `identities.closed_forms.tangent_projection` (P u = u - <u, x> x) applied to them, so the statement
says what the claim says before any expansion: the kernel expands the inner products itself. The entries go into the
kernel's table with the other registry statements (`certificates.statements.registry.build`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp
from headflow.certificates.kernel.exprtree import substitute
from headflow.certificates.statements.model import model_body
from headflow.certificates.sympy_trees import from_sympy
from headflow.identities import critical_points
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

    def apply(self, operator: str) -> VectorTree:
        """The linear operator named `operator` (uppercase) applied to this vector."""
        return VectorTree(["apply", operator, self.tree])


def inner(a: VectorTree, b: VectorTree) -> Tree:
    """<a, b> as a scalar tree (unexpanded: the kernel expands it)."""
    return ["inner", a.tree, b.tree]


X, U, W, S = (VectorTree(["vec", name]) for name in ("x", "u", "w", "s"))
PU, PW = (tangent_projection(X, vector, inner) for vector in (U, W))

#: A multiple a x of the unit vector x (a a real symbol): at a single cluster or an antipodal split, every token's
#: velocity field is one (the lemma the critical-point statements name and do not re-check).
AX = ["sym", "a"] * X


def model_fields(lhs: str, op: str, rhs: str, **fields: Any) -> dict[str, Any]:
    """The claims-file fields of the model claim `lhs op rhs` that a statement lists (`GramObligation.models`): usa
    attention on the sphere with unit tokens unless `fields` say otherwise (`certificates.statements.model`)."""
    return {**fields, "lhs": lhs, "op": op, "rhs": rhs}


def _at_token(lhs: str, rhs: str) -> dict[str, Any]:
    """The model claim `lhs = rhs` at every token i and head h of every configuration (u = f^h_i, w = F_i: with any
    heads, H >= 2 and any values they are any two vectors at a unit x_i)."""
    return model_fields(lhs, "=", rhs)


def vanishes_at(token: VectorTree, field: VectorTree = AX) -> tuple[Tree, Tree]:
    """<P_token(field), w> = 0: the tangent projection at `token` of the field (a x by default) is 0 (stated against
    every w)."""
    return inner(tangent_projection(token, field, inner), W), ["rat", "0"]


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
    """Identities lhs = rhs between scalar trees with inner products, under unit, orthogonality and Gram-value
    hypotheses, the vectors of `zero` shown 0 first (only where `definite`: `certificates.kernel.inner_products`)."""

    sentence: str
    #: (lhs, rhs), or (lhs, rhs, pairs) for an identity summed over j, k (`certificates.kernel.inner_products`).
    identities: tuple[tuple[Any, ...], ...]
    unit: tuple[str, ...] = ("x",)
    orthogonal: tuple[tuple[str, str], ...] = ()
    #: <a, b> = value hypotheses (a, b, scalar tree); vectors the kernel shows 0 from <v, v> = 0, which needs
    #: `definite` (the space positive-definite, as the sentence must say).
    gram: tuple[tuple[str, str, Tree], ...] = ()
    zero: tuple[Tree, ...] = ()
    definite: bool = False
    #: Self-adjoint operators, pairs of them with product 0, and [vector, its velocity] for `rate` trees.
    symmetric: tuple[str, ...] = ()
    annihilating: tuple[tuple[str, str], ...] = ()
    velocities: tuple[tuple[str, Tree], ...] = ()
    #: [scalar, its rate] for `rate` trees.
    rates: tuple[tuple[str, Tree], ...] = ()
    #: The claims-file `model` claims (their fields: lhs, op, rhs, assume, ...) that are this statement: the sentence
    #: establishes each for every configuration they quantify over (`certificates.statements.model.model_body`). A
    #: model's `open` fields (statement fields: `attention`, `mask`, ...) are left out of its listing: it holds
    #: whatever a claim's value of them (the kernel compares the fields a listed model has).
    models: tuple[dict[str, Any], ...] = ()

    def entry(self) -> dict[str, Any]:
        """The kernel's table entry (no integer parameters)."""
        return {
            "kind": "gram",
            "ranges": {},
            "shape": [],
            "sentence": self.sentence,
            "unit": list(self.unit),
            "orthogonal": [list(pair) for pair in self.orthogonal],
            "gram": [list(entry) for entry in self.gram],
            "zero": list(self.zero),
            "definite": self.definite,
            "symmetric": list(self.symmetric),
            "annihilating": [list(pair) for pair in self.annihilating],
            "velocities": [list(pair) for pair in self.velocities],
            "rates": [list(pair) for pair in self.rates],
            "identities": [list(pair) for pair in self.identities],
        } | ({"models": [listed_model(fields) for fields in self.models]} if self.models else {})


def listed_model(fields: dict[str, Any]) -> dict[str, Any]:
    """The model statement of claims-file `fields`, less the statement fields `fields["open"]` names; with `scheme`, a
    normalization scheme's statement (which no claims-file model claim states, `pointwise.SCHEMES`): the sphere's
    with the scheme's geometry, its tokens' norms free (the directions x/|x| are unit by construction)."""
    body = model_body({key: value for key, value in fields.items() if key not in ("open", "scheme")})
    if "scheme" in fields:
        body |= {"geometry": fields["scheme"], "hypotheses": [h for h in body["hypotheses"] if h != "unit-tokens"]}
    return {key: value for key, value in body.items() if key not in fields.get("open", ())}


def simplex_obligation(rho: sp.Expr = critical_points.SIMPLEX_RHO) -> GramObligation:
    """The regular simplex's lemma: with <s, s> = n + n(n-1) rho (s the sum of the tokens, `identities.critical_points`'
    formula, rho = -1/(n-1) unsimplified: the kernel shows it 0) s = 0, and the field nu (a x + b (s - x)) of a head at
    the token x has no tangent part. Another `rho` gives the statement of that angle (a test's wrong one)."""
    rho_symbol = sp.Symbol("rho", real=True)
    norm = substitute(from_sympy(critical_points.squared_sum(rho_symbol)), {"rho": from_sympy(rho)})
    field = critical_points.simplex_field(X, S, (["sym", "a"], ["sym", "b"]), ["sym", "nu"])
    return GramObligation(
        SIMPLEX_SENTENCE, (vanishes_at(X, field),), gram=(("s", "s", norm),), zero=(S.tree,), definite=True
    )


#: What the simplex's certificate proves, and the two steps it does not re-check.
SIMPLEX_SENTENCE = (
    "for every n >= 2, all real a, b, nu and vectors x, s, w of any real inner-product space (every R^d), "
    "positive-definite (<v, v> = 0 only for v = 0: the one fact used beyond bilinearity and symmetry), with "
    "<x, x> = 1 and <s, s> = n + n(n-1) rho, rho = -1/(n-1): <s, s> = 0 (exact algebra in n), so s = 0, and "
    "P_x(nu (a x + b (s - x))) = 0 (stated as <P_x(nu (a x + b (s - x))), w> = 0 for every w); so the regular "
    "simplex (x = x_i, s = sum_j x_j) is an equilibrium once every token's velocity is of that form; it rests on two "
    "steps check-cert does NOT re-check (SymPy derives them outside the kernel, identities.critical_points): "
    "|sum_j x_j|^2 = n + n(n-1) rho for n unit tokens with <x_i, x_j> = rho (i != j), and, for scalar heads "
    "M_h = lambda_h I, W_h = nu_h I and every kind, n, d, H, beta, each head's weights take one value a_h on the "
    "diagonal and one b_h off it in every row, so that the velocity c sum_h nu_h (a_h x_i + b_h (s - x_i)) is "
    "nu (a x_i + b (s - x_i)) with nu = 1, a = c sum_h nu_h a_h, b = c sum_h nu_h b_h"
)


IDENTITIES: dict[str, GramObligation] = {
    "projection.self-pairing": GramObligation(
        f"{SPACE}: <P u, u> = <P u, P u>",
        ((inner(PU, U), inner(PU, PU)),),
        models=(_at_token("inner(proj(f_h_i), f_h_i)", "norm2(proj(f_h_i))"),),
    ),
    "projection.symmetry": GramObligation(
        f"{SPACE}: <P u, w> = <u, P w>",
        ((inner(PU, W), inner(U, PW)),),
        models=(_at_token("inner(proj(f_h_i), F_i)", "inner(f_h_i, proj(F_i))"),),
    ),
    "projection.tangency": GramObligation(
        f"{SPACE}: <P u, x> = 0 and <P P u, w> = <P u, w> for every w (P P u = P u), so <P u, x>^2 + |P P u - P u|^2 "
        "= 0",
        ((inner(PU, X), ["rat", "0"]), (inner(tangent_projection(X, PU, inner), W), inner(PU, W))),
        models=(_at_token("inner(proj(f_h_i), x_i)**2 + norm2(proj(proj(f_h_i)) - proj(f_h_i))", "0"),),
    ),
    "critical-points.single-cluster": GramObligation(
        "for vectors x, w of any real inner-product space (every R^d) with <x, x> = 1 and every real a: "
        "P_x(a x) = 0 (the tangent projection at x of a multiple of x vanishes, stated as <P_x(a x), w> = 0 for "
        "every w), so x_1 = ... = x_n = x is an equilibrium once each velocity field is a multiple of x"
        + VELOCITY_LEMMA,
        (vanishes_at(X),),
    ),
    "critical-points.antipodal": GramObligation(
        "for vectors x, w of any real inner-product space (every R^d) with <x, x> = 1 and every real a: "
        "P_x(a x) = 0 and P_{-x}(a x) = 0 (stated against every w), so x_i = sigma_i x, sigma_i in {1, -1}, is an "
        "equilibrium once each velocity field is a multiple of x" + VELOCITY_LEMMA,
        (vanishes_at(X), vanishes_at(-X)),
    ),
    "critical-points.simplex": simplex_obligation(),
}
