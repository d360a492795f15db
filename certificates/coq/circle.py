"""Coq proofs of the `spaced` form's trigonometric facts (`certificates.kernel.spaced.facts`) at the statement's n.

Untrusted, like every proof: coqc checks them. `tangent` (sum_h lambda_h sum_(k=1)^(n-1) w_h(C_k) S_k = 0) and `sines`
(sum_k S_k = 0) pair the terms k and n - k: each angle 2 pi k / n with k > n / 2 is rewritten 2 pi - 2 pi (n - k) / n,
then cos (2 PI - x) = cos x and sin (2 PI - x) = - sin x (`hf_reflect_*`), sin PI = 0 for k = n / 2, and `ring`
cancels the pairs. `cosines` (sum_(k=0)^(n-1) C_k = 0) telescopes: 2 sin (PI / n) cos b = sin (b + PI / n) - sin (b -
PI / n) (`hf_prod`), the sum of these is sin ((2 n - 1) PI / n) - sin (- PI / n) = 0, and sin (PI / n) > 0
(`interval`). a > 0 is a strict sign by `interval`; the start value against the target is `lra` (linear in PI) or a
strict sign by `interval` (`START`).
"""

from __future__ import annotations

from fractions import Fraction

from headflow.certificates.kernel.coq.statements import UniversalStatement, translated
from headflow.certificates.kernel.exprtree import rational_tree

#: The lemmas the proofs use (once per file).
LEMMAS = """\
Lemma hf_reflect_cos : forall x, cos (2 * PI - x) = cos x.
Proof. intro x. rewrite cos_minus, cos_2PI, sin_2PI. ring. Qed.
Lemma hf_reflect_sin : forall x, sin (2 * PI - x) = - sin x.
Proof. intro x. rewrite sin_minus, cos_2PI, sin_2PI. ring. Qed.
Lemma hf_prod : forall a b, 2 * sin a * cos b = sin (b + a) - sin (b - a).
Proof. intros a b. rewrite sin_plus, sin_minus. ring. Qed.
"""


def _angle(q: Fraction) -> str:
    """The Coq text of the angle q pi, as the kernel's trees write it."""
    return translated(["mul", rational_tree(q), ["pi"]], {})


def _paired(n: int) -> list[str]:
    """Each angle past pi as 2 pi minus its partner, the reflections, sin PI = 0; then `ring`."""
    lines = [
        f"  try replace {_angle(Fraction(2 * k, n))} with (2 * PI - {_angle(Fraction(2 * (n - k), n))}) by field."
        for k in range(n // 2 + 1, n)
    ]
    lines.append("  rewrite ?hf_reflect_cos, ?hf_reflect_sin.")
    lines.append(f"  try replace {_angle(Fraction(0))} with 0 by ring. rewrite ?sin_0.")
    if n % 2 == 0:
        lines.append(f"  try replace {_angle(Fraction(1))} with PI by ring. rewrite ?sin_PI.")
    return [*lines, "  ring."]


def _telescoped(n: int, total: str) -> list[str]:
    """2 sin (PI / n) times the sum of the cosines telescopes to 0; sin (PI / n) > 0."""
    lines = [f"  assert (hs : 0 < sin (PI / {n})) by interval."]
    for k in range(n):
        b = _angle(Fraction(2 * k, n))
        lines += [
            f"  pose proof (hf_prod (PI / {n}) {b}) as h{k}.",
            f"  replace ({b} + PI / {n}) with {_angle(Fraction(2 * k + 1, n))} in h{k} by field.",
            f"  replace ({b} - PI / {n}) with {_angle(Fraction(2 * k - 1, n))} in h{k} by field.",
        ]
    last, first = _angle(Fraction(2 * n - 1, n)), _angle(Fraction(-1, n))
    lines += [
        f"  assert (he1 : sin {last} = - sin (PI / {n})) by "
        f"(replace {last} with (2 * PI - PI / {n}) by field; apply hf_reflect_sin).",
        f"  assert (he0 : sin {first} = - sin (PI / {n})) by "
        f"(replace {first} with (- (PI / {n})) by field; apply sin_neg).",
        f"  assert (ht : 2 * sin (PI / {n}) * {total} = 0) by (rewrite ?Rmult_plus_distr_l; lra).",
        f"  apply (Rmult_eq_reg_l (2 * sin (PI / {n}))); [rewrite Rmult_0_r; exact ht | lra].",
    ]
    return lines


#: A start value against its target: linear in PI (`lra`), else a strict sign by `interval`, turned into the
#: negated relation of a refutation.
START = (
    "first [ lra | intro; lra | interval with (i_prec 256) | (apply Rlt_not_le; interval with (i_prec 256)) "
    "| (apply Rlt_not_ge; interval with (i_prec 256)) | (apply Rlt_not_eq; interval with (i_prec 256)) "
    "| (apply Rgt_not_eq; interval with (i_prec 256)) ]."
)


def proof(statement: UniversalStatement) -> str | None:
    """The proof of a `spaced` fact, or a comparison between numbers (`arc`, `clusters`), by its name (None for any
    other statement)."""
    if not statement.name.startswith(("spaced_", "compared_")) or statement.constants:
        return None
    if statement.name == "spaced_radial":
        return "  interval with (i_prec 256)."
    if statement.name == "spaced_start" or statement.name.startswith("compared_"):
        return f"  {START}"
    n = _tokens(statement.goal[1])
    if n is None:
        return None
    total = translated(statement.goal[1], {})
    return "\n".join(_telescoped(n, total) if statement.name == "spaced_cosines" else _paired(n))


def _tokens(total: object) -> int | None:
    """n, read off the least positive angle 2 pi / n of the sum (None when there is none)."""
    found: list[Fraction] = []

    def walk(node: object) -> None:
        if isinstance(node, list) and node[:1] == ["mul"] and len(node) == 3 and node[2] == ["pi"]:
            found.append(Fraction(node[1][1]))
        elif isinstance(node, list):
            for child in node[1:]:
                walk(child)

    walk(total)
    least = min((q for q in found if q > 0), default=None)
    return None if least is None or (2 / least).denominator != 1 else int(2 / least)
