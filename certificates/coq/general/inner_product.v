(* headflow export coq: the dimension-free identities of the paper over an abstract real inner-product space.
   V is any type with an addition, a scaling, a zero and a symmetric bilinear positive semi-definite inner
   product (no dimension, basis or completeness is assumed), so every theorem holds in every dimension d.
   Sums over heads and tokens are Coq standard-library lists (List.fold_right). *)
Require Import Reals Lra Psatz List.
Import ListNotations.
Open Scope R_scope.

Section InnerProductSpace.

Variable V : Type.
Variable add : V -> V -> V.
Variable scale : R -> V -> V.
Variable zero : V.
Variable inner : V -> V -> R.

Hypothesis inner_sym : forall u w, inner u w = inner w u.
Hypothesis inner_add_l : forall u v w, inner (add u v) w = inner u w + inner v w.
Hypothesis inner_scale_l : forall a u w, inner (scale a u) w = a * inner u w.
Hypothesis inner_zero_l : forall w, inner zero w = 0.
Hypothesis inner_nonneg : forall u, 0 <= inner u u.

Lemma inner_add_r (u v w : V) : inner u (add v w) = inner u v + inner u w.
Proof. rewrite inner_sym, inner_add_l, (inner_sym v u), (inner_sym w u). reflexivity. Qed.
Lemma inner_scale_r (a : R) (u w : V) : inner u (scale a w) = a * inner u w.
Proof. rewrite inner_sym, inner_scale_l, inner_sym. reflexivity. Qed.

(* The tangent projection at x: P(x) u = u - <u, x> x. *)
Definition proj (x u : V) : V := add u (scale (- inner u x) x).

Section UnitVector.
Variable x : V.
Hypothesis x_unit : inner x x = 1.

Theorem projection_tangency (u : V) : inner (proj x u) x = 0.
Proof. unfold proj. rewrite inner_add_l, inner_scale_l, x_unit. ring. Qed.

Theorem projection_symmetry (u w : V) : inner (proj x u) w = inner u (proj x w).
Proof.
  unfold proj. rewrite inner_add_l, inner_scale_l, inner_add_r, inner_scale_r, (inner_sym x w). ring.
Qed.

Theorem projection_self_pairing (u : V) : inner (proj x u) u = inner (proj x u) (proj x u).
Proof.
  unfold proj. rewrite !inner_add_l, !inner_scale_l, !inner_add_r, !inner_scale_r, x_unit, (inner_sym x u). ring.
Qed.

(* Idempotence, as an identity of pairings with every vector w (V need not have an extensional equality). *)
Theorem projection_idempotence (u w : V) : inner (proj x (proj x u)) w = inner (proj x u) w.
Proof.
  unfold proj at 1. rewrite inner_add_l, inner_scale_l, projection_tangency. ring.
Qed.

(* Theorem 11, per token: the velocity xdot = P(x) v pairs with v as its squared norm, so the token's term
   (1/n) <xdot, v> of dE/dt is (1/n) |xdot|^2 >= 0; in flat space xdot = v and this is immediate. *)
Theorem T11_per_token (n : R) (v : V) :
  0 < n -> inner (proj x v) v / n = inner (proj x v) (proj x v) / n /\ 0 <= inner (proj x v) v / n.
Proof.
  intro hn. rewrite projection_self_pairing. split; [reflexivity|].
  apply Rmult_le_pos; [apply inner_nonneg | left; apply Rinv_0_lt_compat; exact hn].
Qed.

(* T17 per token: head h's output f and the other heads' outputs gs, each orthogonal to f (M_h M_g = 0).
   The velocity direction P(x)(f + sum gs) pairs with f as T - a A: T = |P f|^2 the tangential power,
   a = <f, x> the head's radial shadow, A = sum_{g != h} <g, x>. *)
Definition vsum (gs : list V) : V := fold_right add zero gs.
Definition shadows (gs : list V) : R := fold_right Rplus 0 (map (fun g => inner g x) gs).

Lemma pairing_of_others (f : V) (gs : list V) :
  Forall (fun g => inner g f = 0) gs -> inner (proj x (vsum gs)) f = - inner f x * shadows gs.
Proof.
  intro orth. induction gs as [|g gs IH].
  - unfold proj, vsum, shadows. simpl. rewrite inner_add_l, inner_scale_l, !inner_zero_l. ring.
  - change (vsum (g :: gs)) with (add g (vsum gs)).
    change (shadows (g :: gs)) with (inner g x + shadows gs).
    inversion orth as [|g' gs' hg hgs]; subst.
    assert (split : inner (proj x (add g (vsum gs))) f
                    = inner (proj x g) f + inner (proj x (vsum gs)) f).
    { unfold proj. rewrite !inner_add_l, !inner_scale_l. ring. }
    rewrite split, (IH hgs). unfold proj. rewrite inner_add_l, inner_scale_l, hg, (inner_sym x f). ring.
Qed.

Theorem T17_per_token (f : V) (gs : list V) :
  Forall (fun g => inner g f = 0) gs ->
  inner (proj x (add f (vsum gs))) f = inner (proj x f) (proj x f) - inner f x * shadows gs.
Proof.
  intro orth.
  assert (split : inner (proj x (add f (vsum gs))) f = inner (proj x f) f + inner (proj x (vsum gs)) f).
  { unfold proj. rewrite !inner_add_l, !inner_scale_l. ring. }
  rewrite split, pairing_of_others by exact orth. rewrite projection_self_pairing. ring.
Qed.

End UnitVector.

(* Condition 8 implies dE_h/dt >= 0: over the tokens (x_i unit, head output f_i, the other heads' outputs
   gs_i orthogonal to f_i), dE_h/dt = (1/n^3) sum_i <P(x_i)(f_i + sum gs_i), f_i> (T17's per-token terms);
   when every margin T^h_i - a^h_i A^h_i is >= 0, the sum is >= 0. *)
Definition token_term (t : V * V * list V) : R :=
  let '(xi, f, gs) := t in inner (proj xi (add f (vsum gs))) f.
Definition margin (t : V * V * list V) : R :=
  let '(xi, f, gs) := t in inner (proj xi f) (proj xi f) - inner f xi * shadows xi gs.
Definition admissible (t : V * V * list V) : Prop :=
  let '(xi, f, gs) := t in inner xi xi = 1 /\ Forall (fun g => inner g f = 0) gs.

Theorem C8_implies_head_energy_nondecreasing (n : R) (tokens : list (V * V * list V)) :
  0 < n -> Forall admissible tokens -> Forall (fun t => 0 <= margin t) tokens ->
  0 <= fold_right Rplus 0 (map token_term tokens) / n ^ 3.
Proof.
  intros hn adm cond.
  assert (sum : 0 <= fold_right Rplus 0 (map token_term tokens)).
  { induction tokens as [|[[xi f] gs] rest IH]; simpl; [lra|].
    inversion adm as [|t r hadm hr]; subst. inversion cond as [|t r hm hc]; subst.
    simpl in hadm, hm. destruct hadm as [hu ho]. rewrite (T17_per_token xi hu f gs ho). specialize (IH hr hc). lra. }
  apply Rmult_le_pos; [exact sum | left; apply Rinv_0_lt_compat; apply pow_lt; exact hn].
Qed.

End InnerProductSpace.
