(* headflow prelude: the libraries and the few names every generated file uses (certificates/coq/prelude.v). *)
Require Import Reals Lra Lia Psatz.
From Interval Require Import Tactic.
(* Coquelicot: derivatives (is_derive, auto_derive) for the convexity chain's statements. *)
Set Warnings "-ambiguous-paths".
From Coquelicot Require Import Coquelicot.
Open Scope R_scope.

(* c*(H): the positive root of c^2 + (H - 1) c - 1. *)
Definition c_star (H : R) : R := (sqrt ((H - 1) ^ 2 + 4) - (H - 1)) / 2.

(* lambda_c(n, beta) = u_c / beta, u_c > 2 the root of (u - 2) e^u = (n - 1)(u + 2): stated by its equation. *)
Definition is_lambda_c (n beta l : R) : Prop :=
  0 < beta /\ 2 < l * beta /\ (l * beta - 2) * exp (l * beta) = (n - 1) * (l * beta + 2).

(* The principal branch of Lambert W: w >= -1 and w e^w = z. *)
Definition is_lambertw (z w : R) : Prop := -1 <= w /\ w * exp w = z.

(* x <> 0 from |x| > 0, which the interval tactic proves. *)
Lemma nonzero_of_abs (x : R) : 0 < Rabs x -> x <> 0.
Proof. intros H E. rewrite E, Rabs_R0 in H. lra. Qed.

(* exp against exp(0) = 1, and exp increasing: the facts of an exp atom and of a pair of them. *)
Lemma exp_lt_1_iff (a : R) : a < 0 <-> exp a < 1.
Proof. rewrite <- exp_0. split; [apply exp_increasing | apply exp_lt_inv]. Qed.
Lemma exp_gt_1_iff (a : R) : 0 < a <-> 1 < exp a.
Proof. rewrite <- exp_0. split; [apply exp_increasing | apply exp_lt_inv]. Qed.
Lemma exp_lt_iff (a b : R) : a < b <-> exp a < exp b.
Proof. split; [apply exp_increasing | apply exp_lt_inv]. Qed.

(* A product, sum or quotient of factors each positive by lra (exponentials are) is positive; the equivalences among
   the hypotheses (the exponentials' order facts) are set aside first: lra would split on each. *)
Ltac hf_positive := solve [ repeat match goal with h : _ <-> _ |- _ => clear h end; unfold Rgt;
  repeat first [ lra | apply Rmult_lt_0_compat | apply Rplus_lt_0_compat | apply Rinv_0_lt_compat | apply exp_pos ] ].
(* exp a: its sign, 1 + a <= exp a, its order against 1 (and 1 < exp a outright where a > 0 by `hf_positive`). *)
Ltac hf_exp_facts a :=
  pose proof (exp_pos a); pose proof (exp_ineq1_le a); pose proof (exp_lt_1_iff a); pose proof (exp_gt_1_iff a);
  try (let h := fresh "hpos" in assert (h : 1 < exp a) by (apply exp_gt_1_iff; hf_positive)).
Ltac hf_exp_pair a b := pose proof (exp_plus a b); pose proof (exp_lt_iff a b); pose proof (exp_lt_iff b a).
(* sqrt a: its sign, and sqrt a * sqrt a = a once 0 <= a is proved from the hypotheses. *)
Ltac hf_sqrt_facts a :=
  pose proof (sqrt_pos a);
  try (let h := fresh "hdef" in assert (h : 0 <= a) by nra; pose proof (sqrt_sqrt a h));
  (* a radicand p^2 + c: the bounds -p < sqrt a and p < sqrt a when nra finds them (c*(H) compared across H needs
     them: nra does not chain the two products they take) *)
  lazymatch a with
  | ?p ^ 2 + ?c => try (let h := fresh "hlow" in assert (h : p < sqrt a) by nra);
                   try (let h := fresh "hlow" in assert (h : - p < sqrt a) by nra)
  | _ => idtac
  end.
(* ln a: exp (ln a) = a once 0 < a is proved from the hypotheses (and 0 < ln a where 1 < a by nra). *)
Ltac hf_log_facts a := try (let h := fresh "hdef" in assert (h : 0 < a) by nra; pose proof (exp_ln a h);
  try (let g := fresh "hlog" in assert (g : 0 < ln a) by (apply exp_gt_1_iff; rewrite (exp_ln a h); nra))).
(* / a: a * / a = 1 once a <> 0 is proved from the hypotheses (and 0 < / a where a > 0 by `hf_positive`). *)
Ltac hf_inverse_facts a :=
  try (let h := fresh "hpos" in assert (h : 0 < a) by hf_positive; pose proof (Rinv_0_lt_compat a h));
  try (let h := fresh "hdef" in assert (h : a <> 0) by (try unfold c_star in *;
  first [ apply Rgt_not_eq; hf_positive | intro; nra ]); pose proof (Rinv_r a h)).
(* An integer is at most k or at least k + 1: a cover's split of an integer variable at a point between k and k + 1. *)
Lemma hf_int_split (n k : Z) : IZR n <= IZR k \/ IZR k + 1 <= IZR n.
Proof.
  destruct (Z_le_gt_dec n k) as [h|h]; [left; apply IZR_le; exact h | right; rewrite <- plus_IZR; apply IZR_le; lia].
Qed.
(* A relation between rational functions: its difference over one denominator (field_simplify) P / Q, 0 < Q and P's
   sign by nra, the denominators field_simplify asks to be nonzero by nra too (the equivalences set aside first). *)
Lemma hf_div_nonpos (P Q : R) : 0 < Q -> P <= 0 -> P / Q <= 0.
Proof. intros hq hp. unfold Rdiv. pose proof (Rinv_0_lt_compat Q hq). nra. Qed.
Lemma hf_div_neg (P Q : R) : 0 < Q -> P < 0 -> P / Q < 0.
Proof. intros hq hp. unfold Rdiv. pose proof (Rinv_0_lt_compat Q hq). nra. Qed.
Ltac hf_cleared :=
  lazymatch goal with |- context [ / _ ] => idtac end;
  repeat match goal with h : _ <-> _ |- _ => clear h end;
  match goal with
  | |- _ <= _ => apply Rminus_le
  | |- _ >= _ => apply Rle_ge, Rminus_le
  | |- _ < _ => apply Rminus_lt
  | |- _ > _ => apply Rminus_lt
  end;
  field_simplify; [ first [ apply hf_div_nonpos | apply hf_div_neg | idtac ]; solve [ nra ] | repeat split; intro; nra .. ].
(* Split conjunctions, equivalences and negations of the goal, then close each part by real arithmetic (a relation
   between rational functions over one denominator first: nra on the fractions as they stand may search long). *)
Ltac hf_decide :=
  unfold Rdiv in *;
  repeat match goal with
         | |- _ /\ _ => split
         | |- _ <-> _ => split; intro
         | |- ~ _ => intro
         end;
  solve [ lra | hf_cleared | nra ].

(* Polynomial facts for the T19 statements (c* pinned by c^2 + (H - 1) c - 1 = 0). *)
Lemma le_iff_factor (L R0 A K : R) : 0 < K -> L - R0 = A * K -> (L <= R0 <-> A <= 0).
Proof. intros hK e. split; intro; nra. Qed.
(* An identity modulo a polynomial relation p = 0: L - R0 - A K is a multiple of p. *)
Lemma factor_mod (L R0 A K p m : R) : p = 0 -> L - R0 - A * K = m * p -> L - R0 = A * K.
Proof. intros hp e. rewrite hp, Rmult_0_r in e. lra. Qed.
(* From c > 0, H >= 2, c^2 + (H - 1) c - 1 = 0 and q (1 - c^2) = c^2 (n - 1): q (H - 1) = c (n - 1) and c < 1. *)
Ltac hf_summary H n c q :=
  match goal with
  | hp : (-1) + (c ^ 2) + (c * ((-1) + H)) = 0 |- _ =>
    assert (hs : q * ((-1) + H) = c * ((-1) + n));
    [ assert (q * ((-1) + (c ^ 2) + (c * ((-1) + H))) = 0) by (rewrite hp; ring);
      let E := fresh "E" in
      assert (E : c * (q * ((-1) + H) - c * ((-1) + n)) = 0) by nra;
      destruct (Rmult_integral _ _ E); lra
    | assert (hc1 : c < 1) by nra ]
  end.

(* Sums over a symbolic number of tokens or heads (a `sums` certificate's statement): hsum m g = g 0 + ... +
   g (m - 1) (0 for m = 0), vsum the same in a real vector space; an inner product (a symmetric bilinear form >= 0 on
   the diagonal) and a linear map; each sum respects pointwise equality (so that proofs rewrite under its binder). *)
Fixpoint hsum (m : nat) (g : nat -> R) : R := match m with O => 0 | S k => hsum k g + g k end.
Fixpoint vsum {V : ModuleSpace R_Ring} (m : nat) (g : nat -> V) : V :=
  match m with O => zero | S k => plus (vsum k g) (g k) end.
Definition is_inner {V : ModuleSpace R_Ring} (ip : V -> V -> R) : Prop :=
  (forall u w, ip u w = ip w u) /\ (forall u v w, ip (plus u v) w = ip u w + ip v w) /\
  (forall (c : R) u w, ip (scal c u) w = c * ip u w) /\ (forall u, 0 <= ip u u).
Definition is_linear {V : ModuleSpace R_Ring} (L : V -> V) : Prop :=
  (forall u v, L (plus u v) = plus (L u) (L v)) /\ (forall (c : R) u, L (scal c u) = scal c (L u)).
Require Import Setoid Morphisms.
#[global] Instance hsum_proper : Proper (eq ==> pointwise_relation nat eq ==> eq) hsum.
Proof. intros m m' <- f g e. induction m; simpl; [reflexivity | rewrite IHm, (e m); reflexivity]. Qed.
#[global] Instance vsum_proper {V : ModuleSpace R_Ring} : Proper (eq ==> pointwise_relation nat eq ==> eq) (@vsum V).
Proof. intros m m' <- f g e. induction m; simpl; [reflexivity | rewrite IHm, (e m); reflexivity]. Qed.
