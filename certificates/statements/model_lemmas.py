"""Lemmas that claims-file `model` claims beyond the paper's identities follow from, as `gram` statements.

Each lemma is an entry of the kernel's table like the paper's identities (`certificates.statements.gram`): identities
of an inner-product space the kernel re-checks (and Coq proves), a sentence that says which definitions of the model
join them to the claims and are not re-checked, and the model statements (`models`) the sentence establishes. A
claims-file claim whose statement one of them implies carries that lemma's certificate
(`certificates.kernel.registry_statements.model_check`). A model's `open` fields are those it holds for whatever
their value: the tangent projection kills the radial part of any field, so tangency holds for every kind, mask and
interaction.
"""

from __future__ import annotations

from typing import Any

from headflow.certificates.statements.energy_identities import (
    JOINED,
    SETTING,
    SPHERE,
    SPHERE_TOKEN,
    gradient_obligation,
)
from headflow.certificates.statements.inner_products import PU, SPACE, GramObligation, X, inner, vanishes_at

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
#: The sentence of T11 for beta < 0 (repulsive attention): its identities hold for every real beta.
REPULSIVE = f"{SETTING.replace('beta > 0', 'beta < 0 (repulsive attention)')}; {SPHERE_TOKEN}"


def _claim(lhs: str, op: str, rhs: str, **fields: Any) -> dict[str, Any]:
    """The claims-file fields of the model claim `lhs op rhs` (on the sphere, with unit tokens, unless `fields` say
    otherwise)."""
    return {**fields, "lhs": lhs, "op": op, "rhs": rhs}


MODEL_LEMMAS: dict[str, GramObligation] = {
    "lemma.sphere-tangency": GramObligation(
        f"{SPACE}: <P u, x> = 0. Not re-checked: the sphere dynamics' definition, xdot_i = P_(x_i) v_i with v_i the "
        "token's attention field, whatever its kind, beta, mask, interaction and heads; so <x_i, xdot_i> = 0 at every "
        "token of every configuration of unit tokens",
        ((inner(PU, X), ["rat", "0"]),),
        models=(_claim("inner(x_i, xdot_i)", "=", "0", open=(*ANY_WEIGHTS, "mask")),),
    ),
    "lemma.causal-first-token": GramObligation(
        "for vectors x, w of any real inner-product space (every R^d) with <x, x> = 1 and every real a: P_x(a x) = 0 "
        "(stated as <P_x(a x), w> = 0 for every w). Not re-checked: the definitions: under the causal mask the first "
        "token attends to itself only, so for every kind, beta, interaction, n, d and H, with value matrices W_h = I "
        "(identity values) or W_h = M_h = lambda_h I (scalar aligned heads), its field v_1 = c sum_h w^h_11 W_h x_1 is "
        "a real multiple a x_1; on the sphere xdot_1 = P_(x_1)(a x_1) = 0, so |xdot_1|^2 = 0",
        (vanishes_at(X),),
        models=tuple(
            _claim("norm2(xdot_i)", "=", "0", mask="causal", token="first", assume=assume, open=ANY_WEIGHTS)
            for assume in (["identity-values"], ["scalar-heads", "aligned-values"])
        ),
    ),
    "lemma.softmax-gradient": gradient_obligation(
        f"{SOFTMAX}{JOINED}".rstrip("; "),
        models=(
            _claim(
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
        "P_(x_j) v_j, hence dE/dt = (1/n^2) sum_j Z_j <P_(x_j) v_j, v_j> = (1/n^2) sum_j Z_j |xdot_j|^2 >= 0 (Z_j > 0)",
        *SPHERE,
        models=(
            _claim(
                "dE_dt", ">=", "0", attention="softmax", assume=["symmetric-scores", "aligned-values"], given=["H <= 1"]
            ),
        ),
    ),
    "lemma.repulsive-energy-rate": gradient_obligation(
        f"{REPULSIVE}{JOINED}so, with xdot_j = P_(x_j) v_j (unit tokens), dE/dt = (1/n^2) sum_j <xdot_j, n v_j> = "
        "(1/n) sum_j |xdot_j|^2 >= 0 (a sum of squared norms)",
        *SPHERE,
        models=tuple(
            _claim("dE_dt", op, rhs, beta="negative", assume=["symmetric-scores", "aligned-values"])
            for op, rhs in (("=", "sum_i(norm2(xdot_i)) / n"), (">=", "0"))
        ),
    ),
}
