"""The claims of SPEC section 2, each stated precisely once (hypotheses, quantifiers, domain).

Procedures attach to these ids from the `*_claims` modules. Readings of an ambiguous claim
(`<id>.reading-a`, ...) are declared by the module that decides them, next to its procedure.
"""

from checks.registry import REGISTRY

_CLAIMS: tuple[tuple[str, str, str], ...] = (
    (
        "projection.self-pairing",
        "Self-pairing of the tangent projection",
        "For every d >= 1, every unit x in R^d and every u in R^d: <P⊥_x u, u> = |P⊥_x u|^2.",
    ),
    (
        "projection.symmetry",
        "Symmetry of the tangent projection",
        "For every d >= 1, every unit x and every u, w in R^d: <P⊥_x u, w> = <u, P⊥_x w>.",
    ),
    (
        "projection.tangency",
        "Tangency and idempotence of the tangent projection",
        "For every d >= 1, every unit x and every u in R^d: <P⊥_x u, x> = 0 and P⊥_x P⊥_x u = P⊥_x u.",
    ),
    (
        "T11.energy-rate.spherical",
        "Theorem 11: total energy rate on the sphere",
        "usa attention, M_h = M_h^T and W_h = M_h for every head, spherical dynamics: for all "
        "n >= 2, d, H >= 1, beta > 0 and all tokens on S^{d-1}, dE/dt = (1/n) sum_i |xdot_i|^2 >= 0.",
    ),
    (
        "T11.energy-rate.flat",
        "Theorem 11: total energy rate in flat space",
        "usa attention, M_h = M_h^T and W_h = M_h for every head, flat dynamics xdot_i = v_i: for all "
        "n >= 2, d, H >= 1, beta > 0 and all tokens in R^d, dE/dt = (1/n) sum_i |xdot_i|^2 >= 0.",
    ),
    (
        "T11.hypotheses",
        "Theorem 11 without its hypotheses",
        "Dropping score symmetry (M_h != M_h^T) or value alignment (W_h != M_h) breaks the identity "
        "dE/dt = (1/n) sum_i |xdot_i|^2, and there are configurations with dE/dt < 0.",
    ),
    (
        "T12.value-misalignment",
        "Theorem 12: robustness to value misalignment",
        "usa attention, M_h symmetric, W_h = M_h + Delta_h, spherical dynamics: "
        "dE/dt >= (1/n) sum_i |xdot_i| (|xdot_i| - |delta_i|) with "
        "|delta_i| <= (1/n) sum_h |Delta_h|_op sum_j exp(beta s^h_ij); in particular dE/dt >= 0 "
        "whenever |xdot_i| >= that bound for every token.",
    ),
    (
        "T16.flat-orthogonal",
        "Theorem 16: per-head monotonicity in flat space",
        "usa attention, symmetric heads with M_h M_h' = 0 (h != h'), W_h = M_h, flat dynamics: "
        "dE_h/dt = (1/n^3) sum_i |f^h_i|^2 >= 0 for every head h.",
    ),
    (
        "T17.shadow-decomposition",
        "Theorem 17: the radial-shadow decomposition",
        "usa attention, symmetric heads with M_h M_h' = 0 (h != h'), W_h = M_h, spherical dynamics: "
        "dE_h/dt = (1/n^3) sum_i (T^h_i - sum_{h' != h} a^h_i a^h'_i) for every head h.",
    ),
    (
        "T17.shadow-obstruction",
        "Theorem 17: the radial-shadow obstruction",
        "There exist n, d, H, beta, tokens on S^{d-1} and symmetric heads with M_h M_h' = 0 exactly "
        "and W_h = M_h (usa, spherical dynamics) such that dE_h/dt < 0 for some head h.",
    ),
    (
        "C8.radial-dominance",
        "Condition 8: radial dominance implies per-head monotonicity",
        "Under the hypotheses of T17.shadow-decomposition, if sum_{h' != h} a^h_i a^h'_i <= T^h_i "
        "for every token i (Condition 8, per-token form) then dE_h/dt >= 0.",
    ),
    (
        "T19.c-star",
        "Theorem 19: the exact nature of c*(H)",
        "c*(H) = (sqrt((H-1)^2 + 4) - (H-1))/2 is the positive root of c^2 + (H-1) c - 1 = 0; for "
        "integer H >= 1 it is algebraic of degree at most 2, lies in (0, 1] and decreases in H.",
    ),
    (
        "T19.golden",
        "Theorem 19: the golden ratio at H = 2",
        "c*(2) = 1/phi with phi = (1 + sqrt 5)/2.",
    ),
    (
        "T19.lambert-w",
        "Theorem 19: the Lambert W connection",
        "The summary says c*(H) relates to the Lambert W function for general H. Decided form: c*(H) is "
        "algebraic over Q(H) (the positive root of c^2 + (H-1)c - 1), so it is a Lambert W value only in the "
        "trivial sense c = W(c e^c) true of every c >= -1; the scalar-regime constant that is a Lambert W value "
        "is lambda_max = (1 + W((n-1)/e))/beta, the unique maximiser of phi on lambda > 0 (n >= 2, beta > 0); "
        "the inflection point lambda_c is pinned by (u-2)e^u = (n-1)(u+2), u = beta lambda_c, whose only "
        "positive root satisfies u_c > 2 (no closed form is claimed for it).",
    ),
    (
        "T19.threshold",
        "Theorem 19: the critical inverse temperature",
        "Scalar heads M_h = alpha I (alpha > 0), W_h = M_h, usa, orthogonal tokens, H >= 2, n >= 2: "
        "beta* = (1/(2 alpha)) ln(c*(H)^2 (n-1)/(1 - c*(H)^2)) compared with the threshold at which "
        "Condition 8 stops holding in the model; and the (H, n) where beta* > 0.",
    ),
    (
        "T22.late-rate",
        "Theorem 22: late clustering rate",
        "softmax, scalar heads M_h = lambda_h I (lambda_h > 0), W_h = M_h, equiangular tokens: "
        "the cluster gap obeys eps(t) ~ C exp(-2 Lambda t) as t -> infinity, Lambda = sum_h lambda_h.",
    ),
    (
        "T22.early-rate",
        "Theorem 22: early clustering rate",
        "softmax, scalar heads M_h = lambda_h I, W_h = M_h, orthogonal tokens (rho = 0, d >= n): "
        "d eps/dt at t = 0 equals -sum_h phi(lambda_h), phi(lambda) = 2 lambda/(exp(lambda beta) + n - 1).",
    ),
    (
        "T22.superadditivity",
        "Theorem 22: super-additivity of heterogeneous heads",
        "For n >= 2, beta > 0, H >= 2 and head strengths lambda_h > 0, not all equal, with mean "
        "lambda_bar > lambda_c(n, beta): sum_h phi(lambda_h) > H phi(lambda_bar).",
    ),
    (
        "T25.softmax-time",
        "Theorem 25: softmax clustering time",
        "softmax, from random initialization on S^{d-1}: the time for the cluster gap to fall below "
        "a fixed tolerance grows as O(n) (upper-bound reading) and as Theta(n) (tight reading).",
    ),
    (
        "T25.relu-time",
        "Theorem 25: ReLU clustering time",
        "relu, from random initialization on S^{d-1}: the time for the cluster gap to fall below a "
        "fixed tolerance grows as O(n log d) (upper-bound reading) and as Theta(n log d) (tight reading).",
    ),
    (
        "T27.entropy-identity",
        "Theorem 27: entropy production identity",
        "For every n >= 2, beta > 0 and every differentiable family of scores s_j(t), the entropy of "
        "p = softmax(beta s) obeys dH/dt = -beta^2 Cov_p(s, sdot).",
    ),
    (
        "T27.entropy-monotone",
        "Theorem 27: entropy is non-decreasing",
        "softmax, scalar heads M_h = lambda_h I (lambda_h > 0), W_h = M_h, equiangular tokens, "
        "spherical dynamics: every attention entropy H^h_i is non-decreasing in time.",
    ),
    (
        "T27.entropy-limit",
        "Theorem 27: entropy tends to log n",
        "In the regime of T27.entropy-monotone, every H^h_i(t) -> log n as t -> infinity.",
    ),
    (
        "T39.approximate-orthogonality",
        "Theorem 39: approximate orthogonality",
        "usa, symmetric heads, W_h = M_h, spherical dynamics, delta = max_{h != h'} |M_h' M_h|_op: "
        "dE_h/dt >= (1/n^3) sum_i (T^h_i - sum_{h' != h} a^h_i a^h'_i - delta sum_{h' != h} S^h_i S^h'_i) "
        "with S^h_i = sum_j exp(beta s^h_ij); so dE_h/dt >= 0 when the bracket's sum is >= 0.",
    ),
)

for _id, _title, _statement in _CLAIMS:
    REGISTRY.declare(_id, _title, _statement)
