"""Coq facts for a statement that binds two Lambert W values of equal arguments (`rate.at-lambda-max`: W((n - 1)
exp(-1)), lambda_max's stored form, and W((n - 1)/e), the claim's): no library defines W, a statement binds each as
`is_lambertw z w` (w >= -1, w e^w = z). Where the lean tactics do not close a conjunct, its proof first makes the two
one: x e^x is strictly increasing on [-1, oo) (`hf_lambertw_same`, from the mean value theorem, Coquelicot's
`MVT_gen`, on [a, (a + b)/2] and [(a + b)/2, b], where the derivative (1 + x) e^x is >= 0 and > 0). Untrusted, like
every proof: coqc proves the lemmas and each equation, skipped (`try`) where the arguments are not shown equal."""

from __future__ import annotations

#: x e^x is increasing on [-1, oo), strictly: one W per argument.
LEMMAS = """\
Lemma hf_xexp_derive : forall x, is_derive (fun y => y * exp y) x ((1 + x) * exp x).
Proof. intro x. auto_derive; [exact I | ring]. Qed.
Lemma hf_xexp_continuous : forall x, continuity_pt (fun y => y * exp y) x.
Proof.
  intro x. apply continuity_pt_mult; [apply continuity_pt_id | apply derivable_continuous_pt, derivable_pt_exp].
Qed.
Lemma hf_xexp_le : forall a b, -1 <= a -> a <= b -> a * exp a <= b * exp b.
Proof.
  intros a b ha hab. destruct (Req_dec a b) as [e | ne]; [ subst; lra | ].
  destruct (MVT_gen (fun x => x * exp x) a b (fun x => (1 + x) * exp x)) as [c [hc e]].
  - intros x _. apply hf_xexp_derive.
  - intros x _. apply hf_xexp_continuous.
  - rewrite Rmin_left, Rmax_right in hc by lra. pose proof (exp_pos c).
    assert (0 <= (1 + c) * exp c) by (apply Rmult_le_pos; lra). simpl in e. nra.
Qed.
Lemma hf_xexp_lt : forall a b, -1 <= a -> a < b -> a * exp a < b * exp b.
Proof.
  intros a b ha hab. set (m := (a + b) / 2). pose proof (hf_xexp_le a m ha ltac:(unfold m; lra)).
  destruct (MVT_gen (fun x => x * exp x) m b (fun x => (1 + x) * exp x)) as [c [hc e]].
  - intros x _. apply hf_xexp_derive.
  - intros x _. apply hf_xexp_continuous.
  - unfold m in *. rewrite Rmin_left, Rmax_right in hc by lra. pose proof (exp_pos c).
    assert (0 < (1 + c) * exp c) by (apply Rmult_lt_0_compat; lra). simpl in e. nra.
Qed.
Lemma hf_lambertw_same : forall z1 z2 w1 w2, is_lambertw z1 w1 -> is_lambertw z2 w2 -> z1 = z2 -> w1 = w2.
Proof.
  intros z1 z2 w1 w2 [h1 e1] [h2 e2] ez. destruct (Rtotal_order w1 w2) as [l | [q | g]]; [ | exact q | ].
  - pose proof (hf_xexp_lt w1 w2 h1 l). lra.
  - pose proof (hf_xexp_lt w2 w1 h2 g). lra.
Qed.
"""
#: Shows two arguments equal: by `field`, exp(-1) first written 1/e.
_EQUAL = (
    "try replace (exp (-1)) with (/ exp 1) by (rewrite <- exp_Ropp; f_equal; ring); field; apply Rgt_not_eq, exp_pos"
)


def same(lambertw: list[int]) -> str:
    """A tactic that rewrites each later W value into an earlier one of an equal argument (the hypotheses named
    `hw{k}l`, `hw{k}e` by the intros), where coqc shows the arguments equal; "" with fewer than two."""
    return "; ".join(
        f"try (let e := fresh in assert (e : lambertw'{m} = lambertw'{k}) by (symmetry; apply (hf_lambertw_same _ _ "
        f"_ _ (conj hw{k}l hw{k}e) (conj hw{m}l hw{m}e)); {_EQUAL}); rewrite e in *)"
        for i, k in enumerate(lambertw)
        for m in lambertw[i + 1 :]
    )
