"""Energy identities of the usa model, proved for general n, d and H (Theorems 11, 16, 17, Condition 8).

The proofs run in three layers, each computed by SymPy on every call:

1. Gradient lemma (symbolic n): for one head with M = M^T and W = M,
   dE_h/dt = (1/n^2) sum_i <xdot_i, f^h_i>. The double sum over (j, k) is kept as a SymPy Sum
   with symbolic bound n; its summand is symmetrized by relabelling the dummies (j, k) -> (k, j)
   (finite sums with constant bounds commute), and the symmetrized summands of the two sides
   must agree exactly. Pairings are dimension-free (headflow.identities.gram).
2. Orthogonality lemma (symbolic n): for heads with M_h M_g = 0, <f^h_i, f^g_i> = 0, because every
   summand <M_h x_j, M_g x_k> = <x_j, M_h M_g x_k> vanishes.
3. Per-token algebra (Gram symbols, <x_i, x_i> = 1): pairing the velocity with each head's output.
   Sums over heads are linear, so general H follows from per-pair statements (same head / other head).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp
from headflow.identities import signs
from headflow.identities.derivation import Derivation
from headflow.identities.gram import GramSpace, Vector

n, beta = sp.symbols("n beta", positive=True)
i, j, k = sp.symbols("i j k", integer=True, positive=True)
h, g = sp.symbols("h g", integer=True, positive=True)
x, xdot = sp.IndexedBase("x"), sp.IndexedBase("xdot")
M = sp.IndexedBase("M")
f = sp.IndexedBase("f")
#: Symbols of the per-token formulas: tangential power, own radial shadow, sum of the other heads' shadows.
T_sym, a_sym, others_sym = sp.symbols("T a A", real=True)
#: A squared norm (|xdot_i|^2 in T11, |f^h_i|^2 in T16).
q_sym = sp.Symbol("q", nonnegative=True)
#: The number of heads.
HEADS = sp.Symbol("H", integer=True, positive=True)
#: The sign facts the steps use (headflow.identities.signs): n > 0 tokens, H > 0 heads, q a squared norm >= 0.
_FACTS = signs.facts(positive=[n, HEADS], nonnegative=[q_sym])
#: How these proofs decide, as the report states it for each claim they prove.
METHOD = "symbolic (SymPy): general n (symbolic sums), d (Gram algebra), H (per-pair, linear)"


@dataclass
class Proof:
    """A derivation and, when it proves a formula, the formula itself (for numeric cross-checks)."""

    derivation: Derivation
    formula: sp.Expr | None = None


def _double_sum(summand: sp.Expr) -> sp.Sum:
    return sp.Sum(summand, (k, 1, n), (j, 1, n))


def _summand_of_double_sum(expr: sp.Expr) -> sp.Expr | None:
    """F with expr = sum_{j,k=1}^n F(j, k), from a linear combination of such double sums; None otherwise."""
    summand = sp.Integer(0)
    for term in sp.Add.make_args(sp.expand(expr)):
        coefficient, double_sum = term.as_independent(sp.Sum)
        if not isinstance(double_sum, sp.Sum) or double_sum.limits != ((k, 1, n), (j, 1, n)):
            return None
        if coefficient.has(j, k):
            return None
        summand += coefficient * double_sum.function
    return summand


def _symmetrized(space: GramSpace, summand: sp.Expr) -> sp.Expr:
    """(F(j, k) + F(k, j)) / 2: equal sum over 1 <= j, k <= n (relabel the dummies, swap the finite sums)."""
    swapped = space.canonical(summand.xreplace({j: k, k: j}))
    return (summand + swapped) / 2


#: beta < 0 (repulsive attention), for the lemma's variant of that sign.
NEGATIVE_BETA = sp.Symbol("beta", negative=True)
#: The entries m_jk of an attention mask (0 or 1), kept symbolic: nothing is assumed of them.
MASK = sp.IndexedBase("m")
#: A general interaction function phi (an undefined function: nothing about it is used) and its antiderivative.
phi = sp.Function("phi")


class Phi(sp.Function):
    """An antiderivative of phi: the one property a proof may use is Phi' = phi (`fdiff`)."""

    nargs = 1

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        return phi(self.args[0])


def gradient_lemma(
    coefficient: sp.Expr | int = 1, general: bool = False, beta_sign: str = "positive", masked: bool = False
) -> Derivation:
    """dE_h/dt = coefficient * (1/n^2) sum_i <xdot_i, f^h_i> for one usa head, M_h = M_h^T, W_h = M_h.

    The paper's weights exp(beta s) with E_h = (1/(2 beta n^2)) sum exp(beta s_jk); `general`: weights phi(s) for
    an undefined phi, with E_h = (1/(2 n^2)) sum Phi(s_jk), Phi' = phi (any interaction function). The true statement
    has coefficient 1; other values are accepted so that tests can check that a wrong variant does not prove.
    `beta_sign = "negative"` derives it for beta < 0 (repulsive attention): nothing in the derivation uses the sign,
    and SymPy re-derives it for that symbol. `masked` puts a general mask m_jk on the energy's terms and on the head
    output (f^h_j = sum_k m_jk exp(beta s_jk) M_h x_k): the symmetrization then meets m_jk against m_kj, and the
    lemma does not close (it holds for symmetric masks only).
    """
    space = GramSpace.create(unit=[x])
    Mh = M[h]
    score = space.pair((Mh,), x[j], x[k])
    b = NEGATIVE_BETA if beta_sign == "negative" else beta
    mask = MASK[j, k] if masked else sp.Integer(1)
    if general:
        weight, energy = mask * phi(score), _double_sum(mask * Phi(score)) / (2 * n**2)
    else:
        weight, energy = mask * sp.exp(b * score), _double_sum(mask * sp.exp(b * score)) / (2 * b * n**2)
    d = Derivation()
    d.note(
        "Energy of head h with s_jk = <x_j, M_h x_k>, M_h symmetric, n symbolic"
        + (", Phi' = phi for an undefined phi" if general else f", beta {'< 0' if beta_sign == 'negative' else '> 0'}")
        + (", masked terms m_jk" if masked else ""),
        rf"E_h = {sp.latex(energy)}",
    )
    rate = space.directional_derivative(energy, {x: xdot})
    d.note(
        "Differentiate under the finite sum (chain rule through the bilinear score)",
        rf"\frac{{dE_h}}{{dt}} = {sp.latex(rate)}",
    )
    head_output_pairing = space.inner(Vector.named(xdot[j]), Vector.named(x[k]).apply(Mh))
    claimed = coefficient * _double_sum(weight * head_output_pairing) / n**2
    d.note(
        "Claimed form: W_h = M_h gives f^h_j = sum_k "
        + ("m_jk " if masked else "")
        + f"{'phi(s_jk)' if general else 'exp(beta s_jk)'} M_h x_k, so the right side is",
        rf"\frac{{1}}{{n^2}}\sum_j \langle \dot x_j, f^h_j\rangle = {sp.latex(claimed)}",
    )
    summands = [_summand_of_double_sum(side) for side in (rate, claimed)]
    if None in summands:
        d.failures.append("a side is not a combination of double sums over 1 <= j, k <= n")
        return d
    left, right = (_symmetrized(space, summand) for summand in summands)
    d.zero(
        "Symmetrize both summands under (j, k) -> (k, j) (same sum: dummies relabelled, finite sums swapped); "
        "by score symmetry s_kj = s_jk and <x_j, M_h xdot_k> = <M_h x_j, xdot_k>, the symmetrized summands agree",
        left - right,
        rf"\tfrac12\left(F(j,k)+F(k,j)\right) = {sp.latex(sp.factor(left))} \text{{ on both sides}}",
    )
    return d


def orthogonality_lemma() -> Derivation:
    """<f^h_i, f^g_i> = 0 for h != g when M_h, M_g are symmetric with M_h M_g = 0 (any weights, n symbolic)."""
    space = GramSpace.create(unit=[x], annihilating=[(M[h], M[g])])
    w = sp.IndexedBase("w")
    summand = w[h, i, j] * w[g, i, k] * space.inner(Vector.named(x[j]).apply(M[h]), Vector.named(x[k]).apply(M[g]))
    total = sp.Sum(summand, (k, 1, n), (j, 1, n))
    d = Derivation()
    d.note(
        "Heads h != g with M_h M_g = 0 (hence M_g M_h = (M_h M_g)^T = 0); f^h_i = sum_j w^h_ij M_h x_j",
        r"\langle f^h_i, f^g_i\rangle = \sum_{j=1}^n\sum_{k=1}^n w^h_{ij} w^g_{ik} \langle x_j, M_h M_g x_k\rangle",
    )
    d.zero(
        "Every summand vanishes, so the sum over symbolic n does",
        total.doit(),
        rf"\langle f^h_i, f^g_i\rangle = {sp.latex(total.doit())}",
    )
    return d


def approximate_orthogonality_lemma(operator: bool = False) -> Derivation:
    """|<f^h_i, f^g_i>| <= delta W^h_i W^g_i for h != g: symmetric M_h = W_h with |M_h M_g|_F <= delta, unit tokens,
    non-negative weights w^h_ij with row sums W^h_i (usa: Z^h_i = sum_j e^(beta s^h_ij); softmax: 1). With
    `operator`, delta is max_{h != g} |M_h M_g|_op itself (Theorem 39's delta_op), which the same step bounds."""
    space = GramSpace.create(unit=[x])
    w = sp.IndexedBase("w")
    pairing = space.inner(Vector.named(x[j]).apply(M[h]), Vector.named(x[k]).apply(M[g]))
    d = Derivation()
    d.note(
        "Heads h != g, f^h_i = sum_j w^h_ij M_h x_j (W_h = M_h), w >= 0, W^h_i = sum_j w^h_ij",
        r"\langle f^h_i, f^g_i\rangle = \sum_{j,k} w^h_{ij} w^g_{ik} \langle M_h x_j, M_g x_k\rangle",
    )
    d.zero(
        "M_h symmetric: <M_h x_j, M_g x_k> = <x_j, M_h M_g x_k>",
        w[h, i, j] * w[g, i, k] * (pairing - space.pair((M[h], M[g]), x[j], x[k])),
    )
    if operator:
        d.cite(
            "Cauchy-Schwarz",
            "|<x_j, M_h M_g x_k>| <= |M_h M_g|_op |x_j| |x_k| <= max_{h' != g'} |M_h' M_g'|_op = delta (unit tokens)",
            "|<u, A w>| <= |u| |A w| <= |u| |A|_op |w|, the operator norm being the largest stretch of A",
        )
    else:
        d.cite(
            "Cauchy-Schwarz, |A|_op <= |A|_F",
            "|<x_j, M_h M_g x_k>| <= |M_h M_g|_op |x_j| |x_k| <= |M_h M_g|_F <= delta (unit tokens)",
            "the operator norm is the largest singular value, the Frobenius norm the root of the sum of their squares",
        )
    d.cite(
        "triangle inequality, non-negative weights",
        "|<f^h_i, f^g_i>| <= delta W^h_i W^g_i; summed over g != h, "
        "|<f^h_i, F_i> - |f^h_i|^2| <= delta W^h_i (sum_g W^g_i - W^h_i)",
        "w^h_ij w^g_ik >= 0 and F_i = sum_g f^g_i",
    )
    return d


def _token_space(orthogonal_heads: bool) -> GramSpace:
    pairs = [(f[h], f[g])] if orthogonal_heads else []
    return GramSpace.create(unit=[x[i]], orthogonal=pairs)


def _total_rate_summand(geometry: str) -> tuple[sp.Expr, sp.Expr]:
    """((1/n) <xdot_i, v_i>, |xdot_i|^2) for one token, v_i = (1/n) F_i, F_i = sum_h f^h_i."""
    space = _token_space(False)
    F = Vector.named(sp.Symbol("F"))
    v = F.scaled(1 / n)
    velocity = space.project(Vector.named(x[i]), v) if geometry == "sphere" else v
    return space.inner(velocity, v) / n, space.norm2(velocity)


def prove_energy_rate(geometry: str, claimed: Callable[[sp.Expr], sp.Expr] | None = None) -> Proof:
    """T11: dE/dt = sum_i claimed(|xdot_i|^2); by default claimed(q) = q / n.

    Per token, (1/n^2) sum_h <xdot_i, f^h_i> = (1/n) <xdot_i, v_i> (usa: v_i = (1/n) sum_h f^h_i), and
    <xdot_i, v_i> = |xdot_i|^2 by self-pairing on the sphere, trivially in flat space.
    """
    claimed = claimed or (lambda q: q / n)
    d = Derivation()
    d.include(gradient_lemma(), "gradient lemma")
    d.note(
        "Sum over heads (linear) with the usa velocity v_i = (1/n) sum_h f^h_i",
        r"\frac{dE}{dt} = \frac{1}{n^2}\sum_i \langle \dot x_i, \textstyle\sum_h f^h_i\rangle "
        r"= \frac{1}{n}\sum_i \langle \dot x_i, v_i\rangle",
    )
    summand, speed2 = _total_rate_summand(geometry)
    rule = r"\dot x_i = P^\perp_{x_i} v_i" if geometry == "sphere" else r"\dot x_i = v_i"
    d.zero(
        f"Per token ({geometry} dynamics, Gram symbols, <x_i, x_i> = 1): (1/n) <xdot_i, v_i> equals the claimed term",
        summand - claimed(speed2),
        rf"{rule}:\quad \frac1n\langle \dot x_i, v_i\rangle = {sp.latex(sp.expand(summand))} "
        rf"= {sp.latex(sp.expand(claimed(speed2)))}",
    )
    d.sign(
        "Each term is a squared norm over n > 0, so dE/dt >= 0",
        claimed(q_sym),
        ">=0",
        _FACTS,
        r"\frac{dE}{dt} = \frac1n \sum_{i=1}^n |\dot x_i|^2 \ge 0",
    )
    return Proof(d, claimed(q_sym))


def prove_flat_orthogonal(claimed: Callable[[sp.Expr], sp.Expr] | None = None) -> Proof:
    """T16: flat dynamics, orthogonal heads: dE_h/dt = sum_i claimed(|f^h_i|^2), by default |f|^2 / n^3."""
    claimed = claimed or (lambda q: q / n**3)
    d = Derivation()
    d.include(gradient_lemma(), "gradient lemma")
    d.include(orthogonality_lemma(), "orthogonality lemma")
    space = _token_space(True)
    own, other = Vector.named(f[h]), Vector.named(f[g])
    d.note(
        "Flat usa velocity xdot_i = (1/n) sum_g f^g_i; split the heads into g = h and g != h (linear)",
        r"\frac{dE_h}{dt} = \frac{1}{n^3}\sum_i\Big(|f^h_i|^2 + \sum_{g\ne h}\langle f^g_i, f^h_i\rangle\Big)",
    )
    d.zero("Other head g != h: <f^g_i, f^h_i> = 0 (orthogonality lemma)", space.inner(other, own))
    per_token = (space.inner(own, own) + space.inner(other, own)) / n**3
    d.zero(
        "Per token the rate term equals the claimed term",
        per_token - claimed(space.norm2(own)),
        rf"\frac{{1}}{{n^2}}\langle \dot x_i, f^h_i\rangle = {sp.latex(sp.expand(claimed(space.norm2(own))))}",
    )
    d.sign(
        "Each term is a squared norm over n^3 > 0, so dE_h/dt >= 0",
        claimed(q_sym),
        ">=0",
        _FACTS,
        r"\frac{dE_h}{dt} = \frac{1}{n^3}\sum_i |f^h_i|^2 \ge 0",
    )
    return Proof(d, claimed(q_sym))


def prove_shadow_decomposition(claimed: Callable[[sp.Expr, sp.Expr, sp.Expr], sp.Expr] | None = None) -> Proof:
    """T17: sphere, orthogonal heads: per token n^3 dE_h/dt-term = claimed(T^h_i, a^h_i, sum_{g != h} a^g_i).

    By default claimed(T, a, A) = (T - a A) / n^3.
    """
    claimed = claimed or (lambda T, a, A: (T - a * A) / n**3)
    d = Derivation()
    d.include(gradient_lemma(), "gradient lemma")
    d.include(orthogonality_lemma(), "orthogonality lemma")
    space = _token_space(True)
    xi = Vector.named(x[i])
    own, other = Vector.named(f[h]), Vector.named(f[g])
    power = space.norm2(space.project(xi, own))
    shadow_own, shadow_other = space.inner(own, xi), space.inner(other, xi)
    d.note(
        "Spherical usa velocity xdot_i = (1/n) sum_g P⊥_{x_i} f^g_i; split g = h and g != h (linear); "
        "T^h_i = |P⊥ f^h_i|^2, a^g_i = <f^g_i, x_i>",
        r"\frac{dE_h}{dt} = \frac{1}{n^3}\sum_i\Big(\langle P^\perp f^h_i, f^h_i\rangle + "
        r"\sum_{g\ne h}\langle P^\perp f^g_i, f^h_i\rangle\Big)",
    )
    d.zero(
        "Same head: <P f^h, f^h> = T^h_i (self-pairing)",
        space.inner(space.project(xi, own), own) - power,
        rf"\langle P^\perp f^h_i, f^h_i\rangle = {sp.latex(power)} = T^h_i",
    )
    cross = space.inner(space.project(xi, other), own)
    d.zero(
        "Other head g != h: <P f^g, f^h> = <f^g, f^h> - a^g a^h = -a^g_i a^h_i (orthogonality lemma)",
        cross + shadow_own * shadow_other,
        rf"\langle P^\perp f^g_i, f^h_i\rangle = {sp.latex(cross)} = -a^g_i a^h_i",
    )
    # Summing the per-pair value -a^g a^h over g != h gives -a^h A with A = sum_{g != h} a^g (linear in a^g).
    per_token = (space.inner(space.project(xi, own), own) - shadow_own * others_sym) / n**3
    target = claimed(power, shadow_own, others_sym)
    d.zero(
        "Per token, with A^h_i = sum_{g != h} a^g_i, the rate term equals the claimed term",
        per_token - target,
        r"\frac{dE_h}{dt} = \frac{1}{n^3}\sum_{i=1}^n\Big(T^h_i - a^h_i \sum_{g\ne h} a^g_i\Big)",
    )
    formula = claimed(T_sym, a_sym, others_sym)
    return Proof(d, formula)


def prove_radial_dominance(claimed: Callable[[sp.Expr, sp.Expr, sp.Expr], sp.Expr] | None = None) -> Derivation:
    """C8 per-token form: if T^h_i - a^h_i sum_{g != h} a^g_i >= 0 for every i then dE_h/dt >= 0.

    `claimed` is the per-token rate term the margin stands for (default T17's, see
    prove_shadow_decomposition); a wrong one is accepted so that tests can check it does not prove."""
    d = Derivation()
    d.include(prove_shadow_decomposition(claimed).derivation, "T17")
    margin = sp.Symbol("m_i", nonnegative=True)
    d.note(
        "Condition 8 (per token): the margin m_i = T^h_i - sum_{g != h} a^h_i a^g_i is >= 0 for every token i",
        r"m_i = T^h_i - \sum_{g\ne h} a^h_i a^g_i \ge 0 \quad (i = 1..n)",
    )
    d.sign(
        "By T17, dE_h/dt = (1/n^3) sum_i m_i, a sum of n non-negative terms over n^3 > 0",
        margin / n**3,
        ">=0",
        _FACTS.with_signs(nonnegative=[margin]),
        r"\frac{dE_h}{dt} = \frac{1}{n^3}\sum_{i=1}^n m_i \ge 0",
    )
    return d


def prove_summed_radial_dominance(
    claimed: Callable[[sp.Expr, sp.Expr, sp.Expr], sp.Expr] | None = None,
) -> Derivation:
    """C8 summed form: n^3 dE_h/dt = sum_i T^h_i - sum_i a^h_i A^h_i exactly, so the summed
    condition sum_i a^h_i A^h_i <= sum_i T^h_i is equivalent to dE_h/dt >= 0 (`claimed` as in
    prove_radial_dominance)."""
    d = Derivation()
    d.include(prove_shadow_decomposition(claimed).derivation, "T17")
    T, a, A = sp.IndexedBase("T"), sp.IndexedBase("a"), sp.IndexedBase("A")
    rate = sp.Sum((T[i] - a[i] * A[i]) / n**3, (i, 1, n))
    split = (sp.Sum(T[i], (i, 1, n)) - sp.Sum(a[i] * A[i], (i, 1, n))) / n**3
    d.zero(
        "Linearity of the finite sum: n^3 dE_h/dt = sum_i T^h_i - sum_i a^h_i A^h_i",
        sp.expand(rate) - sp.expand(split),
        r"\frac{dE_h}{dt} = \frac{1}{n^3}\Big(\sum_i T^h_i - \sum_i a^h_i A^h_i\Big)",
    )
    d.sign(
        "n^3 > 0, so dE_h/dt >= 0 if and only if sum_i a^h_i A^h_i <= sum_i T^h_i",
        n**3,
        ">0",
        _FACTS,
        r"\frac{dE_h}{dt}\ge 0 \iff \sum_i \sum_{g\ne h} a^h_i a^g_i \le \sum_i T^h_i",
    )
    return d


def prove_equal_heads_monotonicity(claimed_total: sp.Expr = HEADS) -> Derivation:
    """T19's regime: with every head M_h = W_h = alpha I, E_h = E/H, so by T11 each E_h is non-decreasing for all beta.

    No step uses a bound on beta or on the tokens: per-head monotonicity in this regime does not need
    Condition 8 (which fails above its threshold), only T11 and the equality of the heads.
    `claimed_total` is the claimed ratio E/E_h (a wrong one is accepted so that tests can check it does not prove).
    """
    d = Derivation()
    alpha, heads = sp.Symbol("alpha", real=True), HEADS
    G = sp.IndexedBase("G")
    d.note(
        "every head is M_h = W_h = alpha I (symmetric, value-aligned), so s^h_jk = <x_j, alpha x_k> = alpha G_jk "
        "for every h",
        r"s^h_{jk} = \alpha\,\langle x_j, x_k\rangle",
    )
    head_energy = _double_sum(sp.exp(beta * alpha * G[j, k])) / (2 * beta * n**2)
    d.holds("E_h = (1/(2 beta n^2)) sum_{j,k} exp(beta alpha G_jk) does not depend on h", not head_energy.has(h))
    d.zero(
        "E = sum_{h=1}^H E_h = H E_h",
        sp.Sum(head_energy, (h, 1, heads)).doit() - claimed_total * head_energy,
        r"E = \sum_{h=1}^{H} E_h = H\,E_h",
    )
    d.include(prove_energy_rate("sphere").derivation, "T11 (symmetric, value-aligned heads)")
    d.sign(
        "dE_h/dt = (1/H) dE/dt = (1/(n H)) sum_i |xdot_i|^2 >= 0, for every beta > 0 and every unit tokens",
        q_sym / (n * heads),
        ">=0",
        _FACTS,
        r"\frac{dE_h}{dt} = \frac{1}{H}\frac{dE}{dt} = \frac{1}{nH}\sum_i |\dot x_i|^2 \ge 0",
    )
    return d
