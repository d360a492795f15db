"""The energy claims' identities (Theorems 11, 16, 17, Condition 8, Theorem 19's regime) as `gram` statements.

Each claim's statement has the kernel re-check, by the rules of `certificates.kernel.inner_products`, the identities
its SymPy derivation (`identities.energy`) rests on, for every n, d, H and beta:
- the gradient lemma, summed over the pairs of tokens: for every symmetric M and tokens x_j moving with velocities
  xdot_j, sum_{j,k} d/dt exp(beta <x_j, M x_k>) = 2 beta sum_{j,k} exp(beta <x_j, M x_k>) <xdot_j, M x_k>
  (the time derivative by the chain rule, the sum by relabelling (j, k));
- where the heads are orthogonal (M G = 0), each summand of <f^h_i, f^g_i> vanishes: <M x_j, G x_k> = 0;
- the claim's per-token identity (the velocity paired with the head's output).
The sentence names what joins them and is not re-checked: the definitions of E and of the head outputs, and moving
the finite sums over heads and tokens through the inner product (bilinearity over a finite sum).
"""

from __future__ import annotations

from typing import Any

from headflow.certificates.statements.inner_products import GramObligation, VectorTree, inner, model_fields
from headflow.identities.closed_forms import tangent_projection

XJ, XK, VJ, VK, X, U, F, G = (VectorTree(["vec", name]) for name in ("xj", "xk", "vj", "vk", "x", "u", "f", "g"))
BETA = ["sym", "beta"]
#: exp(beta <x_j, M x_k>): the pair's term of 2 beta n^2 E_h for the head with score matrix M.
WEIGHT = ["exp", ["mul", BETA, inner(XJ, XK.apply("M"))]]
#: The gradient lemma, summed over (j, k): its pairs relabel the tokens and their velocities together.
GRADIENT = (
    ["rate", WEIGHT],
    ["mul", ["rat", "2"], BETA, WEIGHT, inner(VJ, XK.apply("M"))],
    [["xj", "xk"], ["vj", "vk"]],
)
#: The heads' orthogonality, summand by summand.
ORTHOGONAL = (inner(XJ.apply("M"), XK.apply("G")), ["rat", "0"])


def projected(vector: VectorTree) -> VectorTree:
    """P_x vector, the tangent projection at the unit token x."""
    return tangent_projection(X, vector, inner)


#: What every statement assumes and what its first identity says.
SETTING = (
    "for every n >= 1, d, H >= 1, beta > 0 and tokens x_1..x_n of R^d (any real inner-product space) moving with "
    "velocities xdot_j, usa attention with symmetric score matrices M_h and W_h = M_h, E = sum_h E_h, E_h = "
    "(1/(2 beta n^2)) sum_{j,k} exp(beta <x_j, M_h x_k>), head outputs f^h_j = sum_k exp(beta <x_j, M_h x_k>) M_h "
    "x_k, v_j = (1/n) sum_h f^h_j. Re-checked: (1) for every symmetric M, sum_{j,k} d/dt exp(beta <x_j, M x_k>) = "
    "2 beta sum_{j,k} exp(beta <x_j, M x_k>) <xdot_j, M x_k> (chain rule; the double sum by relabelling (j, k)), so "
    "that dE_h/dt = (1/n^2) sum_j <xdot_j, f^h_j>"
)
ORTHOGONAL_HEADS = (
    "; (2) for symmetric M, G with M G = 0: <M x_j, G x_k> = 0, so <f^h_i, f^g_i> = 0 for heads h != g with "
    "M_h M_g = 0, and g_i = sum_{g != h} f^g_i is orthogonal to f^h_i"
)
#: What joins the identities and check-cert does not re-check.
JOINED = (
    ". Not re-checked: the definitions above, and moving the finite sums over heads and tokens through the inner "
    "product (bilinearity); "
)
SPHERE_TOKEN = "(3) for a unit token x and u = v_j: <P_x u, u> = <P_x u, P_x u>, P_x u = u - <u, x> x"
SHADOW_TOKEN = (
    "(3) for a unit token x, f = f^h_i and g = g_i with <f, g> = 0: <P_x(f + g), f> = |P_x f|^2 - <f, x> <g, x>, so "
    "with xdot_i = (1/n) P_x(f + g), (1/n^2) <xdot_i, f^h_i> = (1/n^3) (T^h_i - a^h_i A^h_i), T^h_i = |P_x f|^2, "
    "a^h_i = <f, x>, A^h_i = <g, x> = sum_{g != h} a^g_i"
)


#: The claims-file fields of the settings the energy statements' model claims add to usa on the sphere, aligned
#: symmetric heads; Condition 8 summed over the tokens.
FLAT = {"geometry": "flat"}
ORTHOGONAL_MODEL = {"assume": ["symmetric-scores", "aligned-values", "orthogonal-heads"]}
SUMMED_CONDITION8 = "sum_i(a_h_i * A_h_i) <= sum_i(T_h_i)"


def _rate(lhs: str, op: str, rhs: str, setting: dict[str, Any] | None = None) -> dict[str, Any]:
    """The model claim `lhs op rhs` of the energy's rate, usa attention with aligned symmetric heads on the sphere
    unless `setting` says otherwise (claims-file fields: `certificates.statements.model.model_body`)."""
    return model_fields(lhs, op, rhs, **{"assume": ["symmetric-scores", "aligned-values"], **(setting or {})})


def gradient_obligation(
    sentence: str, *identities: tuple[Any, ...], gradient: tuple[Any, ...] = GRADIENT, **space: Any
) -> GramObligation:
    """A statement with the gradient lemma first (exp(beta s)'s unless `gradient` says another weight's), then
    `identities`, over M symmetric (G too where orthogonal), the tokens x_j, x_k moving with v_j, v_k."""
    operators = ("G", "M") if ORTHOGONAL in identities else ("M",)
    return GramObligation(
        sentence,
        (gradient, *identities),
        symmetric=operators,
        annihilating=(("M", "G"),) * (operators == ("G", "M")),
        velocities=(("xj", VJ.tree), ("xk", VK.tree)),
        **space,
    )


SHADOW = (
    ORTHOGONAL,
    (inner(projected(F + G), F), ["sub", inner(projected(F), projected(F)), ["mul", inner(F, X), inner(G, X)]]),
)
SHADOW_SPACE = {"unit": ("x",), "orthogonal": (("f", "g"),)}
SPHERE = ((inner(projected(U), U), inner(projected(U), projected(U))),)

ENERGY: dict[str, GramObligation] = {
    "T11.energy-rate.spherical": gradient_obligation(
        f"{SETTING}; {SPHERE_TOKEN}{JOINED}so, with xdot_j = P_(x_j) v_j (unit tokens), dE/dt = (1/n^2) sum_j "
        "<xdot_j, n v_j> = (1/n) sum_j |xdot_j|^2 >= 0 (a sum of squared norms)",
        *SPHERE,
        unit=("x",),
        models=(_rate("dE_dt", "=", "sum_i(norm2(xdot_i)) / n"), _rate("dE_dt", ">=", "0")),
    ),
    "T11.energy-rate.flat": gradient_obligation(
        f"{SETTING}{JOINED}so, with xdot_j = v_j, dE/dt = (1/n^2) sum_j <xdot_j, n v_j> = (1/n) sum_j |xdot_j|^2 >= 0",
        models=(_rate("dE_dt", "=", "sum_i(norm2(xdot_i)) / n", FLAT), _rate("dE_dt", ">=", "0", FLAT)),
    ),
    "T16.flat-orthogonal": gradient_obligation(
        f"{SETTING}{ORTHOGONAL_HEADS}; (3) <f + g, f> = <f, f> for <f, g> = 0{JOINED}so, with xdot_i = (1/n) "
        "(f^h_i + g_i) (flat), dE_h/dt = (1/n^3) sum_i <f^h_i + g_i, f^h_i> = (1/n^3) sum_i |f^h_i|^2 >= 0",
        ORTHOGONAL,
        (inner(F + G, F), inner(F, F)),
        orthogonal=(("f", "g"),),
        models=(_rate("dE_h_dt", "=", "sum_i(norm2(f_h_i)) / n**3", FLAT | ORTHOGONAL_MODEL),),
    ),
    "T17.shadow-decomposition": gradient_obligation(
        f"{SETTING}{ORTHOGONAL_HEADS}; {SHADOW_TOKEN}{JOINED}so dE_h/dt = (1/n^3) sum_i (T^h_i - a^h_i A^h_i)",
        *SHADOW,
        **SHADOW_SPACE,
        models=(_rate("dE_h_dt", "=", "sum_i(T_h_i - a_h_i * A_h_i) / n**3", ORTHOGONAL_MODEL),),
    ),
    "C8.radial-dominance": gradient_obligation(
        f"{SETTING}{ORTHOGONAL_HEADS}; {SHADOW_TOKEN}{JOINED}so dE_h/dt = (1/n^3) sum_i m_i with m_i = T^h_i - "
        "a^h_i A^h_i, and where every m_i >= 0 (Condition 8, per token) dE_h/dt >= 0",
        *SHADOW,
        **SHADOW_SPACE,
        models=(_rate("dE_h_dt", ">=", "0", ORTHOGONAL_MODEL | {"given": ["condition8"]}),),
    ),
    "C8.radial-dominance.reading-b": gradient_obligation(
        f"{SETTING}{ORTHOGONAL_HEADS}; {SHADOW_TOKEN}{JOINED}so n^3 dE_h/dt = sum_i T^h_i - sum_i a^h_i A^h_i, and "
        "as n^3 > 0, dE_h/dt >= 0 if and only if sum_i a^h_i A^h_i <= sum_i T^h_i",
        *SHADOW,
        **SHADOW_SPACE,
        models=(
            _rate("dE_h_dt", ">=", "0", ORTHOGONAL_MODEL | {"given": [SUMMED_CONDITION8]}),
            _rate("sum_i(a_h_i * A_h_i)", "<=", "sum_i(T_h_i)", ORTHOGONAL_MODEL | {"given": ["dE_h_dt >= 0"]}),
        ),
    ),
    "T19.monotonicity-regime": gradient_obligation(
        f"{SETTING}; {SPHERE_TOKEN}{JOINED}so, with xdot_j = P_(x_j) v_j, dE/dt = (1/n) sum_j |xdot_j|^2; with "
        "every head M_h = W_h = alpha I (symmetric; alpha real) the E_h are equal, E = H E_h, and dE_h/dt = "
        "(1/(n H)) sum_j |xdot_j|^2 >= 0 for every beta > 0, so H dE_h/dt = dE/dt",
        *SPHERE,
        unit=("x",),
        models=tuple(
            _rate(lhs, op, rhs, {"assume": ["identical-heads", "aligned-values"]})
            for lhs, op, rhs in (("dE_h_dt", ">=", "0"), ("H * dE_h_dt", "=", "dE_dt"))
        ),
    ),
}
