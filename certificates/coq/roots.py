"""Coq proofs that bracket the lambda_c roots a point problem's Theorem binds (`statements.bound_roots`).

Untrusted, like every proof: coqc checks each lemma and step. The Theorem states, for each root, `forall r,
is_lambda_c n beta r -> ...` (the prelude: 0 < beta, 2 < u = r beta, (u - 2) e^u = (n - 1)(u + 2)). The proof
brackets u between rationals a < u < b from the signs of g(x) = (x - 2) e^x - (n - 1)(x + 2) at a and b, which
`interval` proves at the rational points, and two lemmas proved once per file:
- `hf_lambda_c_left`: 2 <= a and g(a) < 0 give a < u. Were u <= a: (u - 2) e^u <= (u - 2) e^a (exp increasing,
  u > 2), so h(u) = (u - 2) e^a - (n - 1)(u + 2) >= 0; but h is linear in u with h(2) = -4(n - 1) < 0 (n > 1 from
  the equation: its left side is positive) and h(a) = g(a) < 0, so h < 0 on [2, a]: (a - 2) h(u) = (a - u) h(2) +
  (u - 2) h(a).
- `hf_lambda_c_right`: 2 < b and g(b) > 0 give u < b. g(b) > 0 gives e^b > n - 1; were u >= b: (u - 2) e^u >=
  (u - 2) e^b, and k(x) = (x - 2) e^b - (n - 1)(x + 2) increases (slope e^b - (n - 1) > 0) from k(b) = g(b) > 0,
  so (u - 2) e^u > (n - 1)(u + 2), against the equation.
Then `hf_root_bounds` turns a < r beta < b, with rational bounds of beta (`interval`, or `lra` for a rational beta),
into rational bounds of r, which the Theorem's `interval` calls read from the context as the bounds of the atom r.

The rationals are hints from the kernel's own enclosure (`lambda_c.enclose`, bisection with ball signs) at a higher
precision, rounded outwards: a wrong hint fails the file, never proves a false theorem.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from flint import arb
from headflow.certificates.kernel.balls import eval_ball
from headflow.certificates.kernel.coq.statements import NotTranslatable, PointProblem, real, translated
from headflow.certificates.kernel.exact import ball_of, exact_value, precision
from headflow.certificates.kernel.lambda_c import enclose

#: Bits beyond the Theorem's `interval` precision to which a root's bracket is tight, and beyond that, the bits of
#: the ball that gives it and of `interval`'s proofs of the signs of g at its ends.
TIGHT_BITS, BALL_BITS, SIGN_BITS = 16, 32, 48

LEMMAS = """\
Lemma hf_lambda_c_left : forall n beta l a : R,
  2 <= a -> (a - 2) * exp a < (n - 1) * (a + 2) -> is_lambda_c n beta l -> a < l * beta.
Proof.
  intros n beta l a ha hg (hb & hu & he). revert hu he. generalize (l * beta). intros u hu he.
  pose proof (exp_pos u). assert (hn : 0 < n - 1) by nra.
  destruct (Rlt_or_le a u) as [h | h]; [ exact h | exfalso ].
  assert (hE : exp u <= exp a) by (destruct h as [h | h]; [ left; apply exp_increasing, h | right; rewrite h; auto ]).
  assert (h1 : (u - 2) * (exp a - exp u) >= 0) by nra.
  assert (h2 : (u - 2) * ((n - 1) * (a + 2) - (a - 2) * exp a) > 0) by nra.
  assert (h3 : (a - u) * (n - 1) >= 0) by nra.
  nra.
Qed.
Lemma hf_lambda_c_right : forall n beta l b : R,
  2 < b -> (n - 1) * (b + 2) < (b - 2) * exp b -> is_lambda_c n beta l -> l * beta < b.
Proof.
  intros n beta l b hb2 hg (hb & hu & he). revert hu he. generalize (l * beta). intros u hu he.
  pose proof (exp_pos u). assert (hn : 0 < n - 1) by nra.
  destruct (Rlt_or_le u b) as [h | h]; [ exact h | exfalso ].
  assert (hE : exp b <= exp u) by (destruct h as [h | h]; [ left; apply exp_increasing, h | right; rewrite h; auto ]).
  assert (hs : n - 1 < exp b) by nra.
  assert (h1 : (u - 2) * (exp u - exp b) >= 0) by nra.
  assert (h2 : (u - b) * (exp b - (n - 1)) >= 0) by nra.
  nra.
Qed.
Lemma hf_lambda_c_exists : forall n beta a b : R,
  0 < beta -> 2 <= a -> a < b -> (a - 2) * exp a < (n - 1) * (a + 2) -> (n - 1) * (b + 2) < (b - 2) * exp b ->
  0 < n - 1 -> exists r : R, is_lambda_c n beta r.
Proof.
  intros n beta a b hb ha hab hga hgb hn.
  set (g := fun u => (u - 2) * exp u - (n - 1) * (u + 2)).
  assert (hc : continuity g).
  { unfold g. apply continuity_minus; [ apply continuity_mult | apply continuity_mult ].
    - apply continuity_minus; [ apply derivable_continuous, derivable_id | apply continuity_const; intros x y; auto ].
    - apply derivable_continuous, derivable_exp.
    - apply continuity_const; intros x y; auto.
    - apply continuity_plus; [ apply derivable_continuous, derivable_id | apply continuity_const; intros x y; auto ]. }
  destruct (IVT g a b hc hab) as [z [[hz1 hz2] hz]]; [ unfold g; lra | unfold g; lra | ].
  unfold g in hz.
  assert (h2 : 2 < z) by (destruct (Req_dec z 2) as [e | e]; [ rewrite e in hz; nra | lra ]).
  exists (z / beta). unfold is_lambda_c. replace (z / beta * beta) with z by (field; lra).
  repeat split; lra.
Qed.
Lemma hf_root_bounds : forall l beta a b blo bhi : R,
  0 < a -> 0 < blo -> blo <= beta <= bhi -> a < l * beta < b -> a / bhi <= l <= b / blo.
Proof.
  intros l beta a b blo bhi ha hlo [h1 h2] [h3 h4]. assert (hl : 0 < l) by nra.
  split.
  - apply Rmult_le_reg_r with bhi; [ lra | ]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. nra.
  - apply Rmult_le_reg_r with blo; [ lra | ]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. nra.
Qed.
"""


def bound_roots(problem: PointProblem) -> list[tuple[str, str]]:
    """The roots (n, beta texts) the Theorem binds, in its order (as `statements.statements` finds them)."""
    roots: list[tuple[str, str]] = []
    for condition in problem.conditions:
        translated(condition["expression"], {}, (), roots)
    return roots


def _arguments(tree: Any, found: dict[tuple[str, str], tuple[Any, Any]]) -> None:
    """Every lambda_c node's argument trees, by their texts."""
    if isinstance(tree, list) and tree:
        if tree[0] == "lambda_c" and len(tree) == 3:
            found[(translated(tree[1], {}), translated(tree[2], {}))] = (tree[1], tree[2])
        for child in tree[1:]:
            _arguments(child, found)


def _round(value: Fraction, bits: int, up: bool) -> Fraction:
    """`value` rounded outwards (up or down) to `bits` significant bits."""
    if value == 0:
        return value
    shift = bits - math.floor(math.log2(abs(value)))
    scaled = value * Fraction(2) ** shift
    return Fraction(math.ceil(scaled) if up else math.floor(scaled)) / Fraction(2) ** shift


def _widened(ball: arb, bits: int) -> tuple[Fraction, Fraction]:
    """The ends of `ball`, moved out by 2^-bits of their size and rounded outwards to bits + 16 significant bits."""
    low, high = exact_value(ball.lower()), exact_value(ball.upper())
    slack = max(abs(low), abs(high)) / Fraction(2) ** bits
    return _round(low - slack, bits + 16, up=False), _round(high + slack, bits + 16, up=True)


def brackets(problem: PointProblem, bits: int) -> list[tuple[Fraction, Fraction, Fraction, Fraction]]:
    """For each bound root: (a, b, beta_lo, beta_hi), a < u < b for u = beta lambda_c(n, beta) (the signs of g at a
    and b hold by a margin of about 2^-bits), beta_lo <= beta <= beta_hi (equal for a rational beta)."""
    found: dict[tuple[str, str], tuple[Any, Any]] = {}
    for condition in problem.conditions:
        _arguments(condition["expression"], found)
    out = []
    with precision(bits + BALL_BITS):
        env = {name: ball_of(value) for name, value in problem.point.items()}
        for key in bound_roots(problem):
            tokens, beta = found[key]
            try:
                u = enclose(eval_ball(tokens, env), arb(1))
                beta_ball = eval_ball(beta, env)
            except (ArithmeticError, ValueError) as exc:
                raise NotTranslatable(f"lambda_c{key} has no enclosure: {exc}") from exc
            a, b = _widened(u, bits)
            exact = beta_ball.rad() == 0  # a rational beta: its bounds are itself, proved by lra
            low, high = (exact_value(beta_ball.mid()),) * 2 if exact else _widened(beta_ball, bits)
            if low <= 0:
                raise NotTranslatable(f"lambda_c{key}: beta is not certainly positive")
            out.append((max(a, Fraction(2)), b, low, high))
    return out


def proof(problem: PointProblem, unfold: str, bits: int) -> tuple[str, list[str]]:
    """(the lemmas, the proof's opening lines) for the roots the Theorem binds: for each root the signs of g at its
    bracket's ends, its guards and its existence (`hf_lambda_c_exists`), which prove the Theorem's guards; then each
    root introduced and bounded by rationals (`unfold`: the tactic prefix that unfolds the point's names, or "");
    ("", []) without roots. The Theorem's `interval` works at `bits`; the brackets are tighter by TIGHT_BITS."""
    roots = bound_roots(problem)
    if not roots:
        return "", []
    close = f"interval with (i_prec {bits + TIGHT_BITS + SIGN_BITS})"
    bracketed = list(zip(roots, brackets(problem, bits + TIGHT_BITS), strict=True))
    lines, bounds = [], []
    for k, ((n, beta), (a, b, low, high)) in enumerate(bracketed):
        root, a, b, low, high = f"lambda_c'{k}", real(a), real(b), real(low), real(high)
        lines += [
            f"  assert (hs{k} : ({a} - 2) * exp {a} < ({n} - 1) * ({a} + 2) /\\",
            f"    ({n} - 1) * ({b} + 2) < ({b} - 2) * exp {b}) by (split; {unfold}{close}).",
            f"  assert (hg{k} : 0 < {n} - 1 /\\ 0 < {beta}) by (split; {unfold}first [ lra | {close} ]).",
            f"  assert (he{k} : exists r' : R, is_lambda_c {n} {beta} r')",
            f"    by (apply (hf_lambda_c_exists {n} {beta} {a} {b}); first [ tauto | lra ]).",
        ]
        bounds += [
            f"  assert (hb{k} : {a} < {root} * {beta} < {b})",
            f"    by (split; [ apply (hf_lambda_c_left {n} {beta}) | apply (hf_lambda_c_right {n} {beta}) ];",
            "        first [ assumption | lra | tauto ]).",
            f"  assert (hB{k} : {a} / {high} <= {root} <= {b} / {low}).",
            f"  {{ apply (hf_root_bounds _ {beta}); [ lra | lra | split; {unfold}first [ lra | {close} ] |",
            f"      exact hb{k} ]. }}",
            f"  clear hs{k} hg{k} he{k} hr{k} hb{k}.",
        ]
    lines.append("  split; [ tauto | ].")
    lines.append("  intros " + " ".join(f"lambda_c'{k} hr{k}" for k in range(len(roots))) + ".")
    return LEMMAS, lines + bounds
