"""Coq equations that split the logarithm of a product (ln (rho1 * sqrt d) = 1 * ln rho1 + 1/2 * ln d), posed and
rewritten in a proof where the statement has one: nra knows each ln term as an atom, and the limits of logarithms
at the log scale (T25's relu time ~ n log d) rest on the split. Untrusted, like every proof: coqc proves each
equation from Coq's `ln_mult`, `ln_Rinv`, `ln_pow`, `ln_exp` and the two lemmas here, each factor's sign by the
prelude's `hf_positive` or nra; an equation it cannot prove is skipped (`try`)."""

from __future__ import annotations

import json
from typing import Any

from headflow.certificates.kernel.coq.statements import real, translated
from headflow.certificates.log_products import split

LEMMAS = """\
Lemma hf_ln_sqrt : forall x, 0 < x -> ln (sqrt x) = ln x / 2.
Proof.
  intros x h. pose proof (sqrt_lt_R0 x h) as hs. pose proof (ln_mult (sqrt x) (sqrt x) hs hs) as e.
  rewrite sqrt_sqrt in e by lra. lra.
Qed.
Lemma hf_ln_div : forall x y, 0 < x -> 0 < y -> ln (x / y) = ln x - ln y.
Proof. intros x y hx hy. unfold Rdiv. rewrite ln_mult, ln_Rinv by (try apply Rinv_0_lt_compat; lra). ring. Qed.
"""
#: A factor's sign: a product of positive terms, a root or a power of one, or nra.
_POSITIVE = "first [ hf_positive | apply sqrt_lt_R0; hf_positive | apply pow_lt; hf_positive | nra ]"
#: Proves ln X = sum q ln f: rewrites the logarithm of a product, quotient, root or power into a sum (each factor's
#: sign proved first), then `field`.
PROOF = "repeat first [ {} | rewrite ln_exp ]; simpl INR; field".format(
    " | ".join(
        f"rewrite {lemma} by ({_POSITIVE})" for lemma in ("ln_mult", "hf_ln_div", "hf_ln_sqrt", "ln_Rinv", "ln_pow")
    )
)


def splits(logs: list[Any], integers: Any = (), roots: list[tuple[str, ...]] | None = None) -> list[str]:
    """Proof lines that pose ln X = sum q ln f for each logarithm `["log", X]` of a statement (its atoms, as the proof's
    facts found them) whose argument X is a product of powers of factors f (`log_products.split`), and rewrite it
    everywhere; none without one."""

    def text(tree: Any) -> str:
        return translated(tree, {}, integers, roots)

    lines = []
    for _, argument in map(json.loads, dict.fromkeys(map(json.dumps, logs))):  # each logarithm once
        if (parts := split(argument)) is not None:
            total = " + ".join(f"{real(q)} * (ln {text(json.loads(f))})" for f, q in parts.items())
            lines.append(
                f"  try (let h := fresh in assert (h : ln {text(argument)} = {total}) by ({PROOF}); rewrite h in *)."
            )
    return lines
