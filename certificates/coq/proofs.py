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

#: Statement name -> the tactic lines after `intros`.
PROOFS: dict[str, str] = {
    "c8-threshold": "  assert (ha : 0 < alpha ^ 2) by nra.\n  split; intro; nra.",
    "summary-form": "  hf_summary H n c q_star. lra.",
    "strictly-below": "  hf_summary H n c q_star. split; nra.",
    "sufficient": "  hf_summary H n c q_star.\n  assert (ha : 0 < alpha ^ 2) by nra.\n"
    "  assert (hm : (t ^ 2) * ((-1) + H) <= (-1) + n) by nra.\n  nra.",
    "positive-region": "  hf_summary H n c q_star. split; intro; nra.",
    "cauchy-schwarz-exact": _CAUCHY_SCHWARZ,
}
