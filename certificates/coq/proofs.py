"""Proof scripts for the statements `nra` does not close alone, by statement name (the T19 threshold family).

A proof is untrusted: only the statement (generated from the obligation) matters, and coqc checks the proof.
A statement without an entry here is proved by `hf_decide` (split, then `lra`/`nra`) after its atoms' facts.
The scripts use the names the obligation gives its constants (H, n, alpha, t, c, q_star) and the prelude's
`hf_summary`, `le_iff_factor` and `factor_mod`.
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
}
