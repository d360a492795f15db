"""Coq facts past a lambda_c root that a universal statement's hypothesis bounds a variable by (`v >= lambda_c(n,
beta)`, bound just before it: `statements._universal`).

Untrusted, like every proof: coqc checks each lemma. With u = v beta, c = r beta (r the root: 2 < c and (c - 2) e^c =
(n - 1)(c + 2), the prelude's `is_lambda_c`) and g(x) = (x - 2) e^x - (n - 1)(x + 2), `hf_past_root` gives g(u) >= 0
for v >= r and g(u) > 0 for v > r: e^u >= e^c (1 + u - c) (exp lies above its tangent at c), and then, with
(n - 1)(c + 2) = (c - 2) e^c, (c + 2) g(u) >= e^c ((u - c) c^2 + (c + 2)(u - c)^2) by `ring` and the tangent's sign.
g(beta lam) is the sign factor of the second derivative of the rate 2 lam / (e^(beta lam) + n - 1) (T22's convex
regime), which the factored proof (`factored`) then reads off these facts.
"""

from __future__ import annotations

from typing import Any

from headflow.certificates.kernel.coq.statements import identifier

LEMMAS = """\
Lemma hf_exp_tangent : forall a b : R, exp b * (1 + (a - b)) <= exp a.
Proof.
  intros a b. replace (exp a) with (exp b * exp (a - b)) by (rewrite <- exp_plus; f_equal; ring).
  pose proof (exp_pos b). pose proof (exp_ineq1_le (a - b)). nra.
Qed.
Lemma hf_past_root_cu : forall n c u : R, 2 < c -> (c - 2) * exp c = (n - 1) * (c + 2) -> c <= u ->
  (c + 2) * ((u - 2) * exp u - (n - 1) * (u + 2)) >= exp c * ((u - c) * c * c + (c + 2) * (u - c) * (u - c)).
Proof.
  intros n c u hu he hd.
  pose proof (hf_exp_tangent u c) as ht. pose proof (exp_pos c) as hc.
  assert (h2 : (c + 2) * ((u - 2) * (exp c * (1 + (u - c)))) <= (c + 2) * ((u - 2) * exp u)).
  { apply Rmult_le_compat_l; [lra | apply Rmult_le_compat_l; [lra | exact ht]]. }
  assert (e : (c + 2) * ((u - 2) * (exp c * (1 + (u - c)))) - (c - 2) * exp c * (u + 2)
              = exp c * ((u - c) * c * c + (c + 2) * (u - c) * (u - c))) by ring.
  replace ((c + 2) * ((u - 2) * exp u - (n - 1) * (u + 2)))
    with ((c + 2) * ((u - 2) * exp u) - (c - 2) * exp c * (u + 2)) by (rewrite he; ring).
  lra.
Qed.
Lemma hf_past_root : forall n beta r v : R, is_lambda_c n beta r -> r <= v ->
  0 <= (v * beta - 2) * exp (v * beta) - (n - 1) * (v * beta + 2) /\\
  (r < v -> 0 < (v * beta - 2) * exp (v * beta) - (n - 1) * (v * beta + 2)).
Proof.
  intros n beta r v [hb [hu he]] hrv.
  assert (hd : r * beta <= v * beta) by nra.
  pose proof (hf_past_root_cu n (r * beta) (v * beta) hu he hd) as key.
  pose proof (exp_pos (r * beta)) as hc.
  assert (hs : r < v -> r * beta < v * beta) by (intro; nra).
  set (c := r * beta) in *. set (u := v * beta) in *. clearbody c u.
  assert (hp1 : 0 <= (u - c) * c * c) by (apply Rmult_le_pos; [apply Rmult_le_pos | ]; lra).
  assert (hp2 : 0 <= (c + 2) * (u - c) * (u - c)) by (apply Rmult_le_pos; [apply Rmult_le_pos | ]; lra).
  split.
  - assert (0 <= exp c * ((u - c) * c * c + (c + 2) * (u - c) * (u - c))) by (apply Rmult_le_pos; lra).
    nra.
  - intro hlt. pose proof (hs hlt) as hlt'.
    assert (hq : 0 < (c + 2) * (u - c) * (u - c)) by (apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat | ]; lra).
    assert (0 < exp c * ((u - c) * c * c + (c + 2) * (u - c) * (u - c))) by (apply Rmult_lt_0_compat; lra).
    nra.
Qed.
"""


def facts(hypotheses: list[Any], roots: list[tuple[str, ...]], named: list[int], integers: Any = ()) -> list[str]:
    """Proof lines that pose `hf_past_root` for each hypothesis `v >= r` or `v > r` with r the lambda_c root
    `named[k]` (the root a hypothesis k binds, or -1; v an integer variable as `IZR v`), and specialize its strict
    half where v > r follows."""
    lines = []
    for tree, root in zip(hypotheses, named, strict=True):
        if root < 0 or tree[0] not in (">=", ">") or tree[1][:1] != ["sym"] or tree[2][:1] != ["lambda_c"]:
            continue
        (n, beta), v = roots[root], identifier(tree[1][1])
        v = f"(IZR {v})" if v in integers else v
        proof = f"(conj hr{root}b (conj hr{root}u hr{root}e))"
        lines.append(
            f"  pose proof (hf_past_root {n} {beta} lambda_c'{root} {v} {proof} ltac:(lra)) as [hpr{root} hprs{root}]."
        )
        lines.append(f"  try specialize (hprs{root} ltac:(lra)).")
    return lines
