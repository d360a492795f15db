"""Proof scripts for the statements `nra` does not close alone, by statement name (T19: threshold, Lambert W).

A proof is untrusted: only the statement (generated from the obligation) matters, and coqc checks the proof.
A statement without an entry here is proved by `hf_decide` (split, then `lra`/`nra`) after its atoms' facts.
The scripts use the names the obligation gives its constants (H, n, alpha, t, c, q_star; beta, w, u_c, E_d, ...),
its hypotheses' labels (h0, h1, ... in order) and the prelude's `hf_summary`, `le_iff_factor` and `factor_mod`.
"""

from __future__ import annotations

_CAUCHY_SCHWARZ = """\
  hf_summary H n c q_star.
  assert (ha : 0 < alpha ^ 4) by (apply pow_lt; lra).
  assert (hP : 0 < ((-1) + H) * t ^ 2 + (c + H - 1) * ((-1) + n)) by nra.
  assert (hK : 0 < alpha ^ 4 * (((-1) + H) * t ^ 2 + (c + H - 1) * ((-1) + n))) by (apply Rmult_lt_0_compat; lra).
  match goal with
  | hp : (-1) + (c ^ 2) + (c * ((-1) + H)) = 0 |- (_ <-> (?L <= ?R0)) =>
    rewrite (le_iff_factor L R0 (((-1) + H) * t ^ 2 - c * ((-1) + n)) _ hK);
    [ | apply (factor_mod _ _ _ _ _ (alpha ^ 4 * ((-1) + n) ^ 2) hp); ring ]
  end.
  split; intro; nra."""

#: lambda_max's maximiser (T19.lambert-w and its reading-b): D = beta (lambda - lambda_max) != 0, so exp(D) >= T(D) >
#: 1 + D (by cases on D: <= -3, in (-3, 0), > 0); with n - 1 = E_v w and beta lambda_max = 1 + w the goal is
#: beta E_v (1 + w)(E_d + w - beta lambda) > 0 after multiplying by beta.
_LAMBDA_MAX = """\
  assert (hw : w > 0) by nra.
  assert (hD : beta * lambda + (-1) * beta * lambda_max <> 0).
  { intro e. apply h3. apply (Rmult_eq_reg_l beta); [ nra | apply Rgt_not_eq; lra ]. }
  assert (hE : E_d > 1 + (beta * lambda + (-1) * beta * lambda_max)).
  { remember (beta * lambda + (-1) * beta * lambda_max) as D eqn:hDd.
    destruct (Rtotal_order D 0) as [hn|[he|hp]]; [ | contradiction | ].
    - destruct (Rle_lt_dec D (-3)); [ lra | ].
      assert (h3D : 0 < D * D * (3 + D)) by (apply Rmult_lt_0_compat; nra).
      nra.
    - assert (h3D : 0 < D * D * (3 + D)) by (apply Rmult_lt_0_compat; nra).
      nra. }
  assert (hn : n = 1 + E_v * w) by lra. subst n. subst E_u.
  assert (k1 : beta * lambda_max * (E_d + w) * E_v = (1 + w) * (E_d + w) * E_v) by (rewrite h7; ring).
  assert (k2 : 0 < E_v * (1 + w) * (E_d + w - beta * lambda)).
  { apply Rmult_lt_0_compat; [ apply Rmult_lt_0_compat; lra | nra ]. }
  repeat split; try nra."""

#: W_0 is defined at c e^c (c >= -1): y = c + 1, E_x (1 - y) <= E_x T(-y) <= 1 for y <= 3 (T(-y) - (1 - y) =
#: y^2 (3 - y)/6), and c e^c > 0 for c >= 1.
_W0_DEFINED = """\
  destruct (Rle_lt_dec 1 c) as [hc|hc]; [ nra | ].
  assert (hk : 0 <= E_x * ((c + 1) ^ 2 * (2 - c))) by (apply Rmult_le_pos; [ lra | apply Rmult_le_pos; nra ]).
  nra."""

#: W_0(c e^c) = c: w E_d = c with E_d = exp(w - c) (E_c > 0 cancelled). w < c: exp(D) > 1 + D (D = w - c, by cases
#: D <= -3 or T(D) - 1 - D = D^2 (3 + D)/6 > 0) and E_d < 1 (the upper cut) make w = -D/(E_d - 1) < -1. w > c:
#: E_d (1 - D) < 1 (the upper cut, T(-D) - (1 - D) = D^2 (3 - D)/6) and E_d > 1 make c = -D E_d/(E_d - 1) < -1.
_W0_TRIVIAL = """\
  subst E_w.
  assert (hwd : w * E_d = c).
  { apply (Rmult_eq_reg_l E_c); [ | lra ]. lra. }
  destruct (Rtotal_order w c) as [hl|[he|hg]]; [ exfalso | exact he | exfalso ].
  - assert (hE : E_d > 1 + (w - c)).
    { destruct (Rle_lt_dec (w - c) (-3)); [ lra | ].
      assert (h3D : 0 < (w - c) * (w - c) * (3 + (w - c))) by (apply Rmult_lt_0_compat; nra).
      nra. }
    assert (h1E : E_d < 1).
    { assert (h3D : 0 < (c - w) * (c - w) * (3 + (c - w))) by (apply Rmult_lt_0_compat; nra).
      nra. }
    assert (hk : 0 <= (w + 1) * (1 - E_d)) by (apply Rmult_le_pos; lra).
    nra.
  - assert (hE : E_d * (1 - (w - c)) < 1).
    { destruct (Rle_lt_dec 3 (w - c)); [ nra | ].
      assert (h3D : 0 < E_d * ((w - c) * (w - c) * (3 - (w - c)))).
      { apply Rmult_lt_0_compat; [ lra | apply Rmult_lt_0_compat; nra ]. }
      nra. }
    assert (hd3 : 0 < (w - c) ^ 3) by (apply pow_lt; lra).
    assert (h1E : E_d > 1) by nra.
    assert (hk : 0 <= (c + 1) * (E_d - 1)) by (apply Rmult_le_pos; lra).
    nra."""

#: phi'' = 2 E_u beta r^3 g(beta lambda) by `ring`, and 2 E_u beta r^3 > 0 (r > 0 from r (E_u + n - 1) = 1).
_INFLECTION = """\
  assert (hr : r > 0) by nra.
  assert (hK : 0 < 2 * E_u * beta * r ^ 3).
  { repeat apply Rmult_lt_0_compat; try lra; apply pow_lt; lra. }
  match goal with
  | |- ((?g > 0 <-> ?s > 0) /\\ _) => replace s with ((2 * E_u * beta * r ^ 3) * g) by ring
  end.
  split; split; intro; nra."""

#: g(u) < 0 iff (u - 2)/(u + 2) e^u < n - 1, and (u - 2)/(u + 2) e^u increases on u > 0: for 2 < u_1 < u_c (D = u_c -
#: u_1, E_d >= 1 + D) (u_1 - 2)(u_c + 2) < (1 + D)(u_c - 2)(u_1 + 2) (the difference is 4 D + D (u_c - 2)(u_1 + 2));
#: then the cross product with g(u_c) = 0 (times u_1 + 2) and E_u. u_1 <= 2 makes both terms of g(u_1) <= 0.
_BELOW_ROOT = """\
  destruct (Rle_lt_dec u_1 2) as [hl|hl].
  - assert (hk : 0 <= E_u * (2 - u_1)) by (apply Rmult_le_pos; lra). nra.
  - assert (hd3 : 0 < (u_c - u_1) ^ 3) by (apply pow_lt; lra).
    assert (hd : E_d >= 1 + (u_c - u_1)) by nra.
    assert (hP : 0 < (u_c - 2) * (u_1 + 2)) by (apply Rmult_lt_0_compat; lra).
    assert (hq : E_d * ((u_c - 2) * (u_1 + 2)) >= (1 + (u_c - u_1)) * ((u_c - 2) * (u_1 + 2))).
    { apply Rmult_ge_compat_r; lra. }
    assert (key : (u_1 - 2) * (u_c + 2) < E_d * ((u_c - 2) * (u_1 + 2))) by nra.
    assert (key2 : E_u * ((u_1 - 2) * (u_c + 2)) < E_u * (E_d * ((u_c - 2) * (u_1 + 2)))).
    { apply Rmult_lt_compat_l; lra. }
    assert (e1 : ((-1) + n) * (2 + u_c) = E_d * E_u * ((-2) + u_c)) by (rewrite h7 in h5; lra).
    assert (e2 : ((-1) + n) * (2 + u_c) * (u_1 + 2) = E_d * E_u * ((-2) + u_c) * (u_1 + 2)) by (rewrite e1; ring).
    apply (Rmult_lt_reg_r (u_c + 2)); [ lra | ].
    lra."""

#: The mirror of _BELOW_ROOT: u_c > 2 (g(u_c) = 0), D = u_1 - u_c, (u_c - 2)(u_1 + 2) < (1 + D)(u_1 - 2)(u_c + 2).
_ABOVE_ROOT = """\
  assert (hc2 : u_c > 2) by nra.
  assert (hd3 : 0 < (u_1 - u_c) ^ 3) by (apply pow_lt; lra).
  assert (hd : E_d >= 1 + (u_1 - u_c)) by nra.
  assert (hQ : 0 < (u_1 - 2) * (u_c + 2)) by (apply Rmult_lt_0_compat; lra).
  assert (hq : E_d * ((u_1 - 2) * (u_c + 2)) >= (1 + (u_1 - u_c)) * ((u_1 - 2) * (u_c + 2))).
  { apply Rmult_ge_compat_r; lra. }
  assert (key : (u_c - 2) * (u_1 + 2) < E_d * ((u_1 - 2) * (u_c + 2))) by nra.
  assert (key2 : E_c * ((u_c - 2) * (u_1 + 2)) < E_c * (E_d * ((u_1 - 2) * (u_c + 2)))).
  { apply Rmult_lt_compat_l; lra. }
  assert (e1 : ((-1) + n) * (2 + u_c) = E_c * ((-2) + u_c)) by lra.
  assert (e2 : ((-1) + n) * (2 + u_c) * (u_1 + 2) = E_c * ((-2) + u_c) * (u_1 + 2)) by (rewrite e1; ring).
  subst E_u.
  apply (Rmult_lt_reg_r (u_c + 2)); [ lra | ].
  lra."""

#: Theorem 25's closed-form times (the T25 readings' SMT statements): nra multiplies two hypotheses at a time, so the
#: products of three or more factors it needs (beta lambda^2 > 0, (1 - rho)(1 + rho (n - 1)) >= 1 - rho_1, the time
#: times a positive rate) are asserted first; the rest is nra, lra, ring and field.
_POSITIVE_SCALE = "  assert (hK : 0 < beta * lambda ^ 2) by (apply Rmult_lt_0_compat; [lra | apply pow_lt; lra]).\n"
_SPEED_FACTOR = (
    "  assert (hr : 0 <= rho * ((-1) + n)) by nra.\n"
    "  assert (hA : 1 + (-1) * rho_1 <= (1 + (-1) * rho) * (1 + rho * ((-1) + n))) by nra.\n"
)

#: Statement name -> the tactic lines after `intros`.
PROOFS: dict[str, str] = {
    "c8-threshold": "  assert (ha : 0 < alpha ^ 2) by nra.\n  split; intro; nra.",
    "summary-form": "  hf_summary H n c q_star. lra.",
    "strictly-below": "  hf_summary H n c q_star. split; nra.",
    "sufficient": "  hf_summary H n c q_star.\n  assert (ha : 0 < alpha ^ 2) by nra.\n"
    "  assert (hm : (t ^ 2) * ((-1) + H) <= (-1) + n) by nra.\n  nra.",
    "positive-region": "  hf_summary H n c q_star. split; intro; nra.",
    "cauchy-schwarz-exact": _CAUCHY_SCHWARZ,
    "lambda-max-maximiser": _LAMBDA_MAX,
    "w0-defined": _W0_DEFINED,
    "w0-trivial": _W0_TRIVIAL,
    "lambda-c-inflection": _INFLECTION,
    "lambda-c-below-root": _BELOW_ROOT,
    "lambda-c-above-root": _ABOVE_ROOT,
    "linear-time-theta-n-log-d": _POSITIVE_SCALE + ("  hf_decide."),
    "relu-speed-bound": _POSITIVE_SCALE
    + _SPEED_FACTOR
    + ("  assert (hB : 0 < 2 * beta * lambda ^ 2 * rho) by nra.\n  split; [ rewrite h7; nra | rewrite h6, h7; nra ]."),
    "relu-time-bound": _POSITIVE_SCALE
    + (
        "  assert (hk : 0 < k) by (rewrite h8; nra).\n"
        "  assert (hC : 2 * C * k = 1) by (rewrite h8; nra).\n"
        "  assert (e : k * (C * L_d * n - T) = (1 / 2) * (L_d - 2 * L) * n).\n"
        "  { transitivity ((2 * C * k) * (L_d * n) / 2 - T * k); [ field | rewrite hC, h9; field ]. }\n"
        "  split; nra."
    ),
    "frozen-time-theta-n": (
        "  assert (hb : 0 < beta * lambda) by nra.\n"
        "  assert (hb3 : 0 < (beta * lambda) ^ 3) by (apply pow_lt; lra).\n"
        "  assert (hb2 : 0 < (beta * lambda) ^ 2) by (apply pow_lt; lra).\n"
        "  assert (hE : E_u >= 1) by nra.\n"
        "  assert (e : 2 * T * lambda = rho_1 * ((-1) + E_u + n)).\n"
        "  { transitivity (T * (phi * ((-1) + E_u + n))); [ rewrite h6; ring | rewrite <- h7; ring ]. }\n"
        "  assert (hm : 0 <= (E_u - 1) * (n - 1)) by nra.\n"
        "  split; [ nra | split; nra ]."
    ),
    "reduced-speed-below": _SPEED_FACTOR
    + (
        "  assert (hD : 0 < (-1) + E_v + n) by lra.\n"
        "  assert (hM : (-1) + E_v + n <= E_u * n) by nra.\n"
        "  assert (h10' : v * ((-1) + E_v + n) = 2 * lambda * ((1 + (-1) * rho) * (1 + rho * ((-1) + n))))"
        " by (rewrite h10; ring).\n"
        "  set (Q := (1 + (-1) * rho) * (1 + rho * ((-1) + n))) in *.\n"
        "  assert (hQ : 0 < Q) by lra.\n"
        "  clearbody Q.\n"
        "  assert (hLQ : 0 < 2 * lambda * Q) by nra.\n"
        "  assert (hX : ((-1) + E_v + n) * (2 * lambda * Q) <= (E_u * n * v) * ((-1) + E_v + n)).\n"
        "  { assert (hprod : (E_u * n * v) * ((-1) + E_v + n) = E_u * n * (2 * lambda * Q))"
        " by (rewrite <- h10'; ring).\n"
        "    rewrite hprod. nra. }\n"
        "  assert (hW : 2 * lambda * Q <= E_u * n * v) by nra.\n"
        "  assert (hL : 2 * lambda * (1 + (-1) * rho_1) <= 2 * lambda * Q) by nra.\n"
        "  lra."
    ),
    "reduced-speed-bound": (
        "  assert (hq : 0 < 2 * lambda * (1 + (-1) * rho_1)) by nra.\n"
        "  assert (hC : C > 0) by nra.\n"
        "  split; [ exact hC | ].\n"
        "  assert (h : 0 <= C * (E_u * n * v - 2 * lambda * (1 + (-1) * rho_1))) by nra.\n"
        "  nra."
    ),
}
