"""Lemmas that claims-file `model` claims beyond the paper's identities follow from, as `gram` statements.

Each lemma is an entry of the kernel's table beside the paper's identities (`certificates.statements.registry.build`;
no registry claim): identities of an inner-product space the kernel re-checks (and Coq proves), a sentence that says
which definitions of the model join them to the claims and are not re-checked, and the model statements (`models`)
the sentence establishes. A
claims-file claim whose statement one of them implies carries that lemma's certificate
(`certificates.kernel.registry_statements.model_check`). A model's `open` fields are those it holds for whatever
their value: the tangent projection kills the radial part of any field, so tangency holds for every kind, mask and
interaction.
"""

from __future__ import annotations

from headflow.certificates.statements.energy_identities import (
    GRADIENT,
    JOINED,
    ORTHOGONAL,
    SETTING,
    SPHERE,
    SPHERE_TOKEN,
    VJ,
    VK,
    XJ,
    XK,
    gradient_obligation,
)
from headflow.certificates.statements.inner_products import (
    PU,
    SPACE,
    GramObligation,
    U,
    VectorTree,
    W,
    X,
    inner,
    model_fields,
    vanishes_at,
)
from headflow.certificates.statements.pointwise import SCHEMES
from headflow.identities.closed_forms import tangent_projection

#: A scheme's token z, its velocity zdot and s = 1/|z|; its direction y = s z moves with s P_y zdot (given s' = -s^3
#: <z, zdot>), stated against every constant w; and a positive speed sigma times P_x u paired with u.
Z, ZDOT, S, SIGMA = VectorTree(["vec", "z"]), VectorTree(["vec", "zdot"]), ["sym", "s"], ["sym", "sigma"]
DIRECTION = (["rate", ["mul", S, inner(Z, W)]], ["mul", S, inner(tangent_projection(S * Z, ZDOT, inner), W)])
SPEED = (inner(SIGMA * PU, U), ["mul", SIGMA, inner(PU, PU)])
#: Every head's scalar under identical heads (M_h = alpha I).
ALPHA = ["sym", "alpha"]
#: The fields a lemma about every kind of weight leaves open.
ANY_WEIGHTS = ("attention", "beta", "interaction", "energy")
#: What the softmax statements define and their first identity says.
SOFTMAX = (
    "for every n >= 1, d, H >= 1, beta > 0 and tokens x_1..x_n of R^d (any real inner-product space) moving with "
    "velocities xdot_j, softmax attention with symmetric score matrices M_h, E_h = (1/(2 beta n^2)) sum_{j,k} "
    "exp(beta <x_j, M_h x_k>) (the usa energy, for every kind), Z^h_j = sum_k exp(beta <x_j, M_h x_k>) and xbar^h_j = "
    "(1/Z^h_j) sum_k exp(beta <x_j, M_h x_k>) x_k. Re-checked: (1) for every symmetric M, sum_{j,k} d/dt "
    "exp(beta <x_j, M x_k>) = 2 beta sum_{j,k} exp(beta <x_j, M x_k>) <xdot_j, M x_k> (chain rule; the double sum by "
    "relabelling (j, k)), so that dE_h/dt = (1/n^2) sum_j <xdot_j, sum_k exp(beta <x_j, M_h x_k>) M_h x_k> = (1/n^2) "
    "sum_j Z^h_j <xdot_j, M_h xbar^h_j>"
)
#: The weight of the pair (j, k) under any interaction: the kernel writes in the claim's phi(<x_j, M x_k>)
#: (`certificates.kernel.registry_statements.implying_identity`).
PHI = ["sym", "phi_jk"]
#: sum_{j,k} phi(s_jk) d/dt s_jk = 2 sum_{j,k} phi(s_jk) <xdot_j, M x_k>, s_jk = <x_j, M x_k>, by relabelling (j, k).
INTERACTION_GRADIENT = (
    ["mul", PHI, ["rate", inner(XJ, XK.apply("M"))]],
    ["mul", ["rat", "2"], PHI, inner(VJ, XK.apply("M"))],
    [["xj", "xk"], ["vj", "vk"]],
)
INTERACTION = (
    "for every n >= 1, d, H >= 1, real beta and tokens x_1..x_n of R^d (any real inner-product space) moving with "
    "velocities xdot_j, usa attention with weights phi(s^h_jk) of the scores s^h_jk = <x_j, M_h x_k> (the claim's "
    "interaction phi, or exp(beta s) without one), symmetric score matrices M_h and W_h = M_h: dE_h/dt = (1/(2 n^2)) "
    "sum_{j,k} phi(s^h_jk) d/dt s^h_jk (the model's rate of the energy), head outputs f^h_j = sum_k phi(s^h_jk) M_h "
    "x_k, v_j = (1/n) sum_h f^h_j. Re-checked, with the claim's phi written in: (1) for every symmetric M, sum_{j,k} "
    "phi(<x_j, M x_k>) d/dt <x_j, M x_k> = 2 sum_{j,k} phi(<x_j, M x_k>) <xdot_j, M x_k> (the double sum by "
    "relabelling (j, k)), so that dE_h/dt = (1/n^2) sum_j <xdot_j, f^h_j>"
)


MODEL_LEMMAS: dict[str, GramObligation] = {
    "lemma.sphere-tangency": GramObligation(
        f"{SPACE}: <P u, x> = 0. Not re-checked: the sphere dynamics' definition, xdot_i = P_(x_i) v_i with v_i the "
        "token's attention field, whatever its kind, beta, mask, interaction and heads; so <x_i, xdot_i> = 0 at every "
        "token of every configuration of unit tokens",
        ((inner(PU, X), ["rat", "0"]),),
        models=(model_fields("inner(x_i, xdot_i)", "=", "0", open=(*ANY_WEIGHTS, "mask")),),
    ),
    "lemma.causal-first-token": GramObligation(
        "for vectors x, w of any real inner-product space (every R^d) with <x, x> = 1 and every real a: P_x(a x) = 0 "
        "(stated as <P_x(a x), w> = 0 for every w). Not re-checked: the definitions: under the causal mask the first "
        "token attends to itself only, so for every kind, beta, interaction, n, d and H, with value matrices W_h = I "
        "(identity values) or W_h = M_h = lambda_h I (scalar aligned heads), its field v_1 = c sum_h w^h_11 W_h x_1 is "
        "a real multiple a x_1; on the sphere xdot_1 = P_(x_1)(a x_1) = 0, so |xdot_1|^2 = 0",
        (vanishes_at(X),),
        models=tuple(
            model_fields("norm2(xdot_i)", "=", "0", mask="causal", token="first", assume=assume, open=ANY_WEIGHTS)
            for assume in (["identity-values"], ["scalar-heads", "aligned-values"])
        ),
    ),
    "lemma.softmax-gradient": gradient_obligation(
        f"{SOFTMAX}{JOINED}".rstrip("; "),
        models=(
            model_fields(
                "dE_h_dt",
                "=",
                "sum_i(Z_h_i * inner(xdot_i, M_h(xbar_h_i))) / n**2",
                attention="softmax",
                assume=["symmetric-scores"],
            ),
        ),
    ),
    "lemma.softmax-one-head": gradient_obligation(
        f"{SOFTMAX}; {SPHERE_TOKEN}{JOINED}so "
        "with one head (H = 1) and W = M, the softmax field is v_j = sum_k p_jk W x_k = M xbar_j and xdot_j = "
        "P_(x_j) v_j, hence dE/dt = (1/n^2) sum_j Z_j <P_(x_j) v_j, v_j> = (1/n^2) sum_j Z_j |xdot_j|^2 >= 0 "
        "(Z_j > 0); with one head E = E_1, so dE_h/dt >= 0 too",
        *SPHERE,
        models=tuple(
            model_fields(
                rate, ">=", "0", attention="softmax", assume=["symmetric-scores", "aligned-values"], given=["H <= 1"]
            )
            for rate in ("dE_dt", "dE_h_dt")
        ),
    ),
    "lemma.orthogonal-heads": GramObligation(
        "for vectors x_j, x_k of any real inner-product space (every R^d) and symmetric operators M, G with M G = 0: "
        "<M x_j, G x_k> = 0. Not re-checked: the definitions: with value matrices W_h = M_h, every head's output "
        "f^h_i = sum_j w^h_ij M_h x_j (whatever its kind, beta, mask and interaction) and F_i = sum_h f^h_i, so that "
        "<f^h_i, f^g_i> = 0 for heads h != g with M_h M_g = 0 (a sum of such terms), and |F_i|^2 = sum_h sum_g "
        "<f^h_i, f^g_i> = sum_h |f^h_i|^2 (bilinearity over the finite sums)",
        (ORTHOGONAL,),
        unit=(),
        symmetric=("G", "M"),
        annihilating=(("M", "G"),),
        models=(
            model_fields(
                "norm2(F_i)",
                "=",
                "sum_h(norm2(f_h_i))",
                assume=["symmetric-scores", "aligned-values", "orthogonal-heads"],
                open=(*ANY_WEIGHTS, "mask"),
            ),
        ),
    ),
    "lemma.identical-heads-energy": GramObligation(
        "for vectors x_j, x_k of any real inner-product space (every R^d) and every real alpha: <x_j, alpha x_k> = "
        "alpha <x_j, x_k>. Not re-checked: the definitions: for every kind, beta, mask m, interaction phi and values, "
        "n >= 1, d and H >= 1, E = sum_h E_h with E_h = (1/(2 n^2)) sum_{j,k} m_jk Phi(<x_j, M_h x_k>) (Phi the "
        "energy's antiderivative of the weight, exp(beta s)/beta without an interaction), which depends on the head "
        "only through its scores <x_j, M_h x_k>; with M_h = alpha I for every head they are alpha <x_j, x_k> for every "
        "h, so the E_h are equal and E = H E_h (H equal terms): E_h = E/H",
        ((inner(XJ, ALPHA * XK), ["mul", ALPHA, inner(XJ, XK)]),),
        unit=(),
        models=(model_fields("E_h", "=", "E / H", assume=["identical-heads"], open=(*ANY_WEIGHTS, "mask")),),
    ),
    "lemma.scheme-energy": GramObligation(
        f"{SETTING.replace('tokens x_1', 'unit directions x_1')}; (2) for a vector z != 0 moving with velocity zdot "
        "and s = 1/|z|, s' = -s^3 <z, zdot> (the derivative of 1/|z|): d/dt (s <z, w>) = s <P_y zdot, w> for every "
        "constant w, y = s z, P_y u = u - <u, y> y (the direction's velocity is P_y zdot / |z|); (3) for a unit x, a "
        "real sigma and a vector u: <sigma P_x u, u> = sigma <P_x u, P_x u>. Not re-checked: the definitions above, "
        "each scheme's update and the speed it gives its directions (docs/models.md; by (2), y_j' = sigma_j P_(y_j) "
        "v_j(Y) with sigma_j = 1/r_j under pre-ln and mix-ln, 1/(r_j |v_j|) under peri-ln, 1/|v_j| under ngpt, each > "
        "0 where the flow is defined), that the energy is that of the unit directions y_j = x_j/|x_j| (of x_j under "
        "ngpt, which keeps them unit) with their velocities, and bilinearity over the finite sums; so dE/dt = (1/n^2) "
        "sum_j <y_j', n v_j> = (1/n) sum_j sigma_j |P_(y_j) v_j|^2 >= 0 (usa), and with one softmax head (W = M, v_j "
        "= M xbar_j) dE/dt = (1/n^2) sum_j Z_j sigma_j |P_(y_j) v_j|^2 >= 0 (Z_j > 0, the softmax gradient lemma)",
        (GRADIENT, DIRECTION, SPEED),
        unit=("x",),
        symmetric=("M",),
        velocities=(("xj", VJ.tree), ("xk", VK.tree), ("z", ZDOT.tree)),
        rates=(("s", ["mul", ["rat", "-1"], ["pow", S, 3], inner(Z, ZDOT)]),),
        models=tuple(
            model_fields("dE_dt", ">=", "0", scheme=scheme, assume=["symmetric-scores", "aligned-values"], **kind)
            for scheme in SCHEMES
            for kind in ({}, {"attention": "softmax", "given": ["H <= 1"]})
        ),
    ),
    "lemma.interaction-energy-rate": gradient_obligation(
        f"{INTERACTION}; {SPHERE_TOKEN}{JOINED}so, with xdot_j = P_(x_j) v_j (unit tokens), dE/dt = (1/n^2) sum_j "
        "<xdot_j, n v_j> = (1/n) sum_j |xdot_j|^2 >= 0 (a sum of squared norms, whatever the sign of phi)",
        *SPHERE,
        gradient=INTERACTION_GRADIENT,
        models=tuple(
            model_fields(
                "dE_dt", op, rhs, assume=["symmetric-scores", "aligned-values"], open=("beta", "interaction", "energy")
            )
            for op, rhs in (("=", "sum_i(norm2(xdot_i)) / n"), (">=", "0"))
        ),
    ),
}
