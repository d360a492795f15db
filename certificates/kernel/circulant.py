"""Form `circulant`: the spectrum of n equally spaced tokens on the circle, from the phase form's circulant Jacobian.

The statement: `{"form": "circulant", "claim", "attention": usa or softmax, "n", "beta", "strengths": lambda_h,
"spectrum": {"zeros", "negative", "positive"}}`: d = 2, tokens theta_k = 2 pi k / n, heads M_h = W_h = lambda_h I,
the sphere's field. On the circle the angles move by the phase form (`identities.circle.phase_form`, cited)
theta_i' = c sum_h lambda_h sum_j w^h_ij sin(theta_j - theta_i), c = 1/n and w^h_ij = e^(beta lambda_h cos(theta_j -
theta_i)) for usa, c = 1 and that weight over Z_h = sum_l e^(beta lambda_h C_l) for softmax, C_k = cos(2 pi k / n).
theta' depends on differences only and the shift k -> k + 1 is a rotation, so the Jacobian J_ik = d theta_i'/d theta_k
at the tokens is circulant, J_ik = r_(k - i mod n), with, for k != 0 (d/dx e^(b cos x) sin x = e^(b cos x)(cos x - b
sin^2 x); softmax's normalizer adds a term proportional to sum_j e_j sin(theta_j - theta_0), which is 0 there: the
terms k and n - k cancel), r_k = c sum_h lambda_h e^(beta lambda_h C_k)(C_k - beta lambda_h (1 - C_k^2)) / Z_h
(Z_h = 1 for usa), and r_0 = -sum_(k != 0) r_k. r_k = r_(n - k), so J is symmetric and its eigenvalues are the real
mu_m = sum_(k != 0) r_k (C_(m k mod n) - 1), m = 0 (the rotation, exactly 0), 1, ..., n - 1 (cited: the
eigenvalues of a circulant). The kernel builds each mu_m as a tree (`eigenvalues`), signs it strictly by balls and
compares the counts (one zero, the negative and the positive mu_m) with the statement's; the payload repeats the
spectrum and names the instance for `check-cert --claims`, which ties the statement to the claim's regime.
"""

from fractions import Fraction
from typing import Any

from flint import arb

from .exact import precision
from .exprtree import Tree, evaluate, parse_rational, rational_tree as _rat
from .recheck import Rejected, natural, require_keys, require_list

FORM = "circulant"
KEYS = {"form", "claim", "attention", "n", "beta", "strengths", "spectrum"}
KINDS = ("usa", "softmax")
#: The most tokens and heads, and the bits of the balls that sign each eigenvalue.
MAX_TOKENS, MAX_HEADS, BITS = 64, 16, 256


def cosine(k: int, n: int) -> Tree:
    """C_k = cos(2 pi k / n) as a tree."""
    return ["cos", ["mul", _rat(Fraction(2 * (k % n), n)), ["pi"]]]


def eigenvalues(statement: dict[str, Any]) -> list[Tree]:
    """mu_1, ..., mu_(n-1) as trees (the docstring), after checking the statement's shape."""
    require_keys(statement, KEYS, f"statement of form {FORM}")
    n, kind = statement["n"], statement["attention"]
    if kind not in KINDS or not natural(n, 2, MAX_TOKENS):
        raise Rejected(f"{FORM}: usa or softmax weights and 2 to {MAX_TOKENS} tokens")
    beta = parse_rational(statement["beta"])
    strengths = [parse_rational(s) for s in require_list(statement["strengths"], MAX_HEADS, "the strengths", 1)]
    row: list[Tree] = [["add"] for _ in range(n)]
    for strength in strengths:
        b = _rat(beta * strength)
        weights = [["exp", ["mul", b, cosine(k, n)]] for k in range(n)]
        scale = ["pow", ["add", *weights], -1] if kind == "softmax" else _rat(Fraction(1, n))
        for k in range(1, n):
            slope = ["sub", cosine(k, n), ["mul", b, ["sub", _rat(1), ["pow", cosine(k, n), 2]]]]
            row[k].append(["mul", _rat(strength), scale, weights[k], slope])
    return [["add", *(["mul", row[k], ["sub", cosine(m * k, n), _rat(1)]] for k in range(1, n))] for m in range(1, n)]


def signed(statement: dict[str, Any], claim_id: str) -> list[tuple[Tree, arb]]:
    """Each mu_m with its ball, strictly signed at BITS bits (Rejected when a ball holds 0)."""
    with precision(BITS):
        found = [(mu, evaluate(mu, {})) for mu in eigenvalues(statement)]
    if not all(v < 0 or v > 0 for _, v in found):
        raise Rejected(f"{claim_id}: an eigenvalue's ball holds 0 at {BITS} bits: its sign is not settled")
    return found


def check(statement: dict[str, Any], claim_id: str, kind: str, payload: Any, seconds: float) -> tuple[str, str]:
    """Each mu_m signed strictly by balls, the counts against the statement's spectrum (`seconds` unused: no
    solver)."""
    values = [v for _, v in signed(statement, claim_id)]
    spectrum = require_keys(statement["spectrum"], {"zeros", "negative", "positive"}, "the spectrum")
    if kind != FORM or not isinstance(payload, dict) or payload.get("spectrum") != spectrum:
        raise Rejected(f"{claim_id}: a circulant spectrum is a {FORM} certificate repeating the statement's counts")
    counts = {"zeros": 1, "negative": sum(v < 0 for v in values), "positive": sum(v > 0 for v in values)}
    if counts != spectrum:
        raise Rejected(f"{claim_id}: the eigenvalues' signs give {counts}, not the stated {spectrum}")
    n, kind_of = statement["n"], statement["attention"]
    shown = ", ".join(f"mu_{m} = {v.str(6)}" for m, v in enumerate(values, 1))
    return (
        f"claims-file claim {claim_id!r}: at {n} equally spaced tokens on the circle ({kind_of}, beta = "
        f"{statement['beta']}, lambda = {statement['strengths']}) the angles' Jacobian (the phase form, cited) is "
        f"circulant with eigenvalues mu_0 = 0 (the rotation) and {shown} (balls, {BITS} bits): {counts}",
        "balls",
    )
