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
#: times a positive rate) are asserted first; the rest is nra, lra, ring and field. The refutations of the tight
#: readings (`*-log`, `relu-speed-square`, `relu-time-bounded`) name such products (`set ... clearbody`) so that each
#: last step is one nra product of two facts.
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
    "linear-speed-log": (
        "assert (hq : 0 < (-1) + E_u + n) by lra.\n"
        "assert (hL : 0 < lambda ^ 2) by (apply pow_lt; lra).\n"
        "assert (hb : 0 < beta * lambda ^ 2) by nra.\n"
        "assert (hg : 0 <= 2 * E_u * beta * lambda ^ 2) by nra.\n"
        "assert (e : (k - a * ((-2) + n)) * ((-1) + E_u + n) ^ 2 = 2 * E_u * beta * lambda ^ 2).\n"
        "{ transitivity (k * ((-1) + E_u + n) ^ 2 - (a * ((-1) + E_u + n)) * ((-2) + n) * ((-1) + E_u + n)); "
        "[ ring | rewrite h9, h8; ring ]. }\n"
        "set (q := (-1) + E_u + n) in *. set (g := 2 * E_u * beta * lambda ^ 2) in *. clearbody q g.\n"
        "assert (hq2 : 0 < q ^ 2) by (apply pow_lt; lra).\n"
        "assert (hk : 0 <= k - a * ((-2) + n)) by nra.\n"
        "rewrite h10. nra.\n"
    ),
    "linear-time-log": (
        "assert (hq : 0 < (-1) + E_u + n) by lra.\n"
        "assert (ha : 0 < a) by nra.\n"
        "assert (hn : 0 < (-2) + n) by lra.\n"
        "assert (han : 0 < a * ((-2) + n)) by nra.\n"
        "assert (hU : 0 < U) by nra.\n"
        "split; [ exact hU | ].\n"
        "assert (e : C * a * ((-1) + E_u + n) = 2 + E_u) by (transitivity (C * (a * ((-1) + E_u + n))); [ "
        "ring | rewrite h4; lra ]).\n"
        "assert (e2 : (C * a * ((-2) + n)) * ((-1) + E_u + n) = (2 + E_u) * ((-2) + n)) by (rewrite <- e; "
        "ring).\n"
        "assert (hqn : (-1) + E_u + n <= (2 + E_u) * ((-2) + n)) by nra.\n"
        "assert (eL : C * L = (C * a * ((-2) + n)) * U) by (rewrite <- h5; ring).\n"
        "rewrite eL.\n"
        "set (q := (-1) + E_u + n) in *. set (X := C * a * ((-2) + n)) in *. clearbody q X.\n"
        "assert (hc : 1 <= X) by nra.\n"
        "nra.\n"
    ),
    "reduced-speed-log": (
        "assert (hD : 0 < (-1) + E_v + n) by lra.\n"
        "assert (hM : (-1) + E_v + n <= E_u * n) by nra.\n"
        "assert (hR : 0 <= 1 + rho * ((-1) + n)) by nra.\n"
        "assert (e : v * ((-1) + E_v + n) = 2 * lambda * ((1 + (-1) * rho) * (1 + rho * ((-1) + n)))) by "
        "(rewrite h10; ring).\n"
        "assert (hA : (1 + (-1) * rho_1) * (1 + rho * ((-1) + n)) <= (1 + (-1) * rho) * (1 + rho * ((-1) + "
        "n))) by nra.\n"
        "assert (hQ : 0 <= (1 + (-1) * rho) * (1 + rho * ((-1) + n))) by nra.\n"
        "replace (2 * lambda * (1 + (-1) * rho_1) * (1 + rho * ((-1) + n))) with (2 * lambda * ((1 + (-1) * "
        "rho_1) * (1 + rho * ((-1) + n)))) by ring.\n"
        "set (D := (-1) + E_v + n) in *. set (Q := (1 + (-1) * rho) * (1 + rho * ((-1) + n))) in *.\n"
        "set (Q1 := (1 + (-1) * rho_1) * (1 + rho * ((-1) + n))) in *.\n"
        "clearbody D Q Q1. clear h10.\n"
        "assert (hv : 0 <= v) by nra.\n"
        "assert (hW : v * D <= v * (E_u * n)) by nra.\n"
        "nra.\n"
    ),
    "reduced-time-log": (
        "assert (hm : 0 < lambda * (1 + (-1) * rho_1)) by nra.\n"
        "assert (e : 2 * U * (lambda * (1 + (-1) * rho_1)) * ((-1) + n) = E_u * L * n) by (rewrite <- h6; "
        "ring).\n"
        "assert (e2 : C * (lambda * (1 + (-1) * rho_1)) = E_u) by (rewrite <- h7; ring).\n"
        "set (m := lambda * (1 + (-1) * rho_1)) in *. clearbody m. clear h6 h7.\n"
        "assert (hEL : 0 < E_u * L) by nra.\n"
        "assert (hn : 0 < (-1) + n) by lra.\n"
        "assert (hUm : 0 < U * m) by nra.\n"
        "split; [ nra | ].\n"
        "assert (hX : 2 * (U * m) * ((-1) + n) <= 2 * (C * m) * L * ((-1) + n)) by (rewrite e2; nra).\n"
        "assert (hY : U * m <= C * L * m) by nra.\n"
        "nra.\n"
    ),
    "relu-speed-square": (
        "assert (hL : 0 < lambda ^ 2) by (apply pow_lt; lra).\n"
        "assert (hK : 0 < beta * lambda ^ 2) by nra.\n"
        "assert (hr : 0 <= rho * ((-1) + n)) by nra.\n"
        "assert (hP : (1 + (-1) * rho_1) * (rho * ((-1) + n)) <= (1 + (-1) * rho) * (1 + rho * ((-1) + n))) "
        "by nra.\n"
        "assert (hw : 0 < (1 + (-1) * rho_1) * rho) by nra.\n"
        "assert (hQ : n * ((1 + (-1) * rho_1) * rho) <= 2 * ((1 + (-1) * rho_1) * (rho * ((-1) + n)))) by "
        "nra.\n"
        "assert (e : n * v = (2 * (beta * lambda ^ 2) * rho) * ((1 + (-1) * rho) * (1 + rho * ((-1) + n)))) "
        "by (rewrite h6; ring).\n"
        "replace (beta * lambda ^ 2 * rho ^ 2 * (1 + (-1) * rho_1)) with (beta * lambda ^ 2 * rho * ((1 + "
        "(-1) * rho_1) * rho)) by ring.\n"
        "set (K := beta * lambda ^ 2) in *. set (P := (1 + (-1) * rho) * (1 + rho * ((-1) + n))) in *.\n"
        "set (W := (1 + (-1) * rho_1) * rho) in *. set (Z := (1 + (-1) * rho_1) * (rho * ((-1) + n))) in *.\n"
        "clearbody K P W Z. clear h6.\n"
        "assert (hKr : 0 < K * rho) by nra.\n"
        "assert (h1' : 2 * (K * rho) * Z <= 2 * (K * rho) * P) by nra.\n"
        "assert (h2' : (K * rho) * (n * W) <= 2 * (K * rho) * Z) by nra.\n"
        "assert (hnv : n * (K * rho * W) <= n * v) by nra.\n"
        "nra.\n"
    ),
    "relu-time-bounded": (
        "assert (hL : 0 < lambda ^ 2) by (apply pow_lt; lra).\n"
        "assert (hK : 0 < beta * lambda ^ 2 * (1 + (-1) * rho_1)) by (apply Rmult_lt_0_compat; [nra | lra]).\n"
        "assert (e : U * (beta * lambda ^ 2 * (1 + (-1) * rho_1)) * rho_1 = (-1) + rho_1 * s) by (rewrite <- "
        "h5; ring).\n"
        "replace (U * beta * lambda ^ 2 * (1 + (-1) * rho_1)) with (U * (beta * lambda ^ 2 * (1 + (-1) * "
        "rho_1))) by ring.\n"
        "set (K := beta * lambda ^ 2 * (1 + (-1) * rho_1)) in *. clearbody K. clear h5.\n"
        "assert (hUK : 0 < U * K) by nra.\n"
        "split; nra.\n"
    ),
    "reduced-speed-bound": (
        "  assert (hq : 0 < 2 * lambda * (1 + (-1) * rho_1)) by nra.\n"
        "  assert (hC : C > 0) by nra.\n"
        "  split; [ exact hC | ].\n"
        "  assert (h : 0 <= C * (E_u * n * v - 2 * lambda * (1 + (-1) * rho_1))) by nra.\n"
        "  nra."
    ),
}
