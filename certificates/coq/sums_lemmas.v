Lemma hf_hsum_ext : forall m f g, (forall k, f k = g k) -> hsum m f = hsum m g.
Proof. intros m f g e. apply hsum_proper; [reflexivity | exact e]. Qed.
Lemma hf_hsum_plus : forall m f g, hsum m (fun k => f k + g k) = hsum m f + hsum m g.
Proof. intros m f g. induction m; simpl; [ring | rewrite IHm; ring]. Qed.
Lemma hf_hsum_mult_l : forall m c f, hsum m (fun k => c * f k) = c * hsum m f.
Proof. intros m c f. induction m; simpl; [ring | rewrite IHm; ring]. Qed.
Lemma hf_hsum_mult_r : forall m c f, hsum m (fun k => f k * c) = hsum m f * c.
Proof. intros m c f. induction m; simpl; [ring | rewrite IHm; ring]. Qed.
Lemma hf_hsum_const : forall m c, hsum m (fun _ => c) = INR m * c.
Proof. intros m c. induction m; simpl hsum; [simpl; ring | rewrite IHm, S_INR; ring]. Qed.
Lemma hf_hsum_switch : forall m p (f : nat -> nat -> R),
  hsum m (fun k => hsum p (fun l => f k l)) = hsum p (fun l => hsum m (fun k => f k l)).
Proof. intros m p f. revert p. induction m; intro p; simpl.
 - induction p; simpl; [ring | rewrite <- IHp; ring].
 - rewrite IHm, <- hf_hsum_plus. reflexivity. Qed.
Lemma hf_hsum_nonneg : forall m f, (forall k, (k < m)%nat -> 0 <= f k) -> 0 <= hsum m f.
Proof. intros m f h. induction m; simpl; [lra |]. pose proof (h m (Nat.lt_succ_diag_r m)).
 assert (0 <= hsum m f) by (apply IHm; intros; apply h; lia). lra. Qed.
Lemma hf_hsum_pos : forall m f, (0 < m)%nat -> (forall k, 0 < f k) -> 0 < hsum m f.
Proof. intros m f hm h. destruct m; [lia | simpl]. pose proof (h m).
 pose proof (hf_hsum_nonneg m f (fun k _ => Rlt_le _ _ (h k))). lra. Qed.
Lemma hf_hsum_term_le : forall m f k, (k < m)%nat -> (forall l, 0 < f l) -> f k <= hsum m f.
Proof. intros m f k hk h. induction m; [lia | simpl]. destruct (Nat.eq_dec k m) as [->|e].
 - pose proof (hf_hsum_nonneg m f (fun l _ => Rlt_le _ _ (h l))). lra.
 - pose proof (h m) as hm. assert (hkm : (k < m)%nat) by lia. specialize (IHm hkm). lra. Qed.
Lemma hf_ip_sym : forall (V : ModuleSpace R_Ring) (ip : V -> V -> R), is_inner ip -> forall u w, ip u w = ip w u.
Proof. intros V ip (s & _). exact s. Qed.
Lemma hf_ip_pos : forall (V : ModuleSpace R_Ring) (ip : V -> V -> R), is_inner ip -> forall u, 0 <= ip u u.
Proof. intros V ip (_ & _ & _ & p). exact p. Qed.
Lemma hf_ip_plus_l : forall (V : ModuleSpace R_Ring) (ip : V -> V -> R), is_inner ip ->
  forall u v w, ip (plus u v) w = ip u w + ip v w.
Proof. intros V ip (_ & p & _). exact p. Qed.
Lemma hf_ip_scal_l : forall (V : ModuleSpace R_Ring) (ip : V -> V -> R), is_inner ip ->
  forall (c : R) u w, ip (scal c u) w = c * ip u w.
Proof. intros V ip (_ & _ & a & _). exact a. Qed.
Lemma hf_ip_opp_l : forall (V : ModuleSpace R_Ring) (ip : V -> V -> R), is_inner ip ->
  forall u w, ip (opp u) w = - ip u w.
Proof. intros V ip hi u w. rewrite <- scal_opp_one, (hf_ip_scal_l V ip hi). unfold opp, one; simpl. ring. Qed.
Lemma hf_ip_minus_l : forall (V : ModuleSpace R_Ring) (ip : V -> V -> R), is_inner ip ->
  forall u v w, ip (minus u v) w = ip u w - ip v w.
Proof. intros V ip hi u v w. unfold minus. rewrite (hf_ip_plus_l V ip hi), (hf_ip_opp_l V ip hi). ring. Qed.
Lemma hf_ip_zero_l : forall (V : ModuleSpace R_Ring) (ip : V -> V -> R), is_inner ip -> forall w, ip zero w = 0.
Proof. intros V ip hi w. rewrite <- (scal_zero_l zero), (hf_ip_scal_l V ip hi). apply Rmult_0_l. Qed.
Lemma hf_ip_vsum_l : forall (V : ModuleSpace R_Ring) (ip : V -> V -> R), is_inner ip ->
  forall m g w, ip (vsum m g) w = hsum m (fun k => ip (g k) w).
Proof. intros V ip hi m g w. induction m; simpl; [apply hf_ip_zero_l, hi | rewrite (hf_ip_plus_l V ip hi), IHm; reflexivity]. Qed.
Lemma hf_ip_plus_r : forall (V : ModuleSpace R_Ring) (ip : V -> V -> R), is_inner ip ->
  forall u v w, ip u (plus v w) = ip u v + ip u w.
Proof. intros V ip hi u v w. rewrite !(hf_ip_sym V ip hi u). apply (hf_ip_plus_l V ip hi). Qed.
Lemma hf_ip_scal_r : forall (V : ModuleSpace R_Ring) (ip : V -> V -> R), is_inner ip ->
  forall (c : R) u w, ip u (scal c w) = c * ip u w.
Proof. intros V ip hi c u w. rewrite !(hf_ip_sym V ip hi u). apply (hf_ip_scal_l V ip hi). Qed.
Lemma hf_ip_opp_r : forall (V : ModuleSpace R_Ring) (ip : V -> V -> R), is_inner ip ->
  forall u w, ip u (opp w) = - ip u w.
Proof. intros V ip hi u w. rewrite !(hf_ip_sym V ip hi u). apply (hf_ip_opp_l V ip hi). Qed.
Lemma hf_ip_minus_r : forall (V : ModuleSpace R_Ring) (ip : V -> V -> R), is_inner ip ->
  forall u v w, ip u (minus v w) = ip u v - ip u w.
Proof. intros V ip hi u v w. rewrite !(hf_ip_sym V ip hi u). apply (hf_ip_minus_l V ip hi). Qed.
Lemma hf_ip_vsum_r : forall (V : ModuleSpace R_Ring) (ip : V -> V -> R), is_inner ip ->
  forall m g u, ip u (vsum m g) = hsum m (fun k => ip u (g k)).
Proof. intros V ip hi m g u. rewrite (hf_ip_sym V ip hi), (hf_ip_vsum_l V ip hi).
 apply hf_hsum_ext. intro k. apply (hf_ip_sym V ip hi). Qed.
Lemma hf_map_plus : forall (V : ModuleSpace R_Ring) (L : nat -> V -> V), (forall g, is_linear (L g)) ->
  forall g u v, L g (plus u v) = plus (L g u) (L g v).
Proof. intros V L hl g. apply (hl g). Qed.
Lemma hf_map_scal : forall (V : ModuleSpace R_Ring) (L : nat -> V -> V), (forall g, is_linear (L g)) ->
  forall g (c : R) u, L g (scal c u) = scal c (L g u).
Proof. intros V L hl g. apply (hl g). Qed.
Lemma hf_map_opp : forall (V : ModuleSpace R_Ring) (L : nat -> V -> V), (forall g, is_linear (L g)) ->
  forall g u, L g (opp u) = opp (L g u).
Proof. intros V L hl g u. rewrite <- !scal_opp_one. apply (hf_map_scal V L hl). Qed.
Lemma hf_map_minus : forall (V : ModuleSpace R_Ring) (L : nat -> V -> V), (forall g, is_linear (L g)) ->
  forall g u v, L g (minus u v) = minus (L g u) (L g v).
Proof. intros V L hl g u v. unfold minus. rewrite (hf_map_plus V L hl), (hf_map_opp V L hl). reflexivity. Qed.
Lemma hf_map_vsum : forall (V : ModuleSpace R_Ring) (L : nat -> V -> V), (forall g, is_linear (L g)) ->
  forall g m f, L g (vsum m f) = vsum m (fun k => L g (f k)).
Proof. intros V L hl g m f. induction m; simpl.
 - rewrite <- (scal_zero_l zero) at 1. rewrite (hf_map_scal V L hl). apply scal_zero_l.
 - rewrite (hf_map_plus V L hl), IHm. reflexivity. Qed.
Lemma hf_softmax_row : forall n (s : nat -> R), (0 < n)%nat ->
  hsum n (fun u => exp (s u) / hsum n (fun v => exp (s v))) = 1.
Proof. intros n s hn. assert (hz : 0 < hsum n (fun v => exp (s v))) by (apply hf_hsum_pos; [exact hn | intro; apply exp_pos]).
 unfold Rdiv. rewrite hf_hsum_mult_r. field. lra. Qed.
Lemma hf_softmax_log : forall n (s : nat -> R) u, (0 < n)%nat ->
  ln (exp (s u) / hsum n (fun v => exp (s v))) = s u - ln (hsum n (fun v => exp (s v))).
Proof. intros n s u hn. assert (hz : 0 < hsum n (fun v => exp (s v))) by (apply hf_hsum_pos; [exact hn | intro; apply exp_pos]).
 rewrite ln_div; [rewrite ln_exp; reflexivity | apply exp_pos | exact hz]. Qed.
Lemma hf_entropy_nonneg : forall n (s : nat -> R), (0 < n)%nat ->
  0 <= - hsum n (fun u => exp (s u) / hsum n (fun v => exp (s v)) * ln (exp (s u) / hsum n (fun v => exp (s v)))).
Proof. intros n s hn. assert (hz : 0 < hsum n (fun v => exp (s v))) by (apply hf_hsum_pos; [exact hn | intro; apply exp_pos]).
 assert (e : forall m f, hsum m (fun k => - f k) = - hsum m f) by (intros m f; induction m; simpl; [ring | rewrite IHm; ring]).
 rewrite <- e. apply hf_hsum_nonneg. intros u hu.
 assert (hle : exp (s u) <= hsum n (fun v => exp (s v))) by (apply (hf_hsum_term_le n (fun v => exp (s v)) u); [exact hu | intro; apply exp_pos]).
 assert (hp : 0 < exp (s u) / hsum n (fun v => exp (s v))) by (apply Rdiv_lt_0_compat; [apply exp_pos | exact hz]).
 assert (hl : ln (exp (s u) / hsum n (fun v => exp (s v))) <= 0).
 { assert (h1 : exp (s u) / hsum n (fun v => exp (s v)) <= 1).
   { apply (Rmult_le_reg_r (hsum n (fun v => exp (s v)))); [exact hz |].
     unfold Rdiv. rewrite Rmult_assoc, Rinv_l, Rmult_1_r, Rmult_1_l; lra. }
   rewrite <- ln_1. apply ln_le; [exact hp | exact h1]. }
 nra. Qed.
Lemma hf_hsum_le : forall m f g, (forall k, (k < m)%nat -> f k <= g k) -> hsum m f <= hsum m g.
Proof. intros m f g h. induction m; simpl; [lra |]. pose proof (h m (Nat.lt_succ_diag_r m)).
 assert (hsum m f <= hsum m g) by (apply IHm; intros; apply h; lia). lra. Qed.
Lemma hf_hsum_opp : forall m f, hsum m (fun k => - f k) = - hsum m f.
Proof. intros m f. induction m; simpl; [ring | rewrite IHm; ring]. Qed.
Lemma hf_offdiag : forall H h (B : nat -> R), (h < H)%nat -> (forall g, (g < H)%nat -> g <> h -> 0 <= B g) ->
  0 <= hsum H B - B h.
Proof. intros H h B hh hB. induction H as [|H IH]; [lia | simpl]. destruct (Nat.eq_dec h H) as [->|e].
 - assert (0 <= hsum H B) by (apply hf_hsum_nonneg; intros; apply hB; lia). lra.
 - assert (hH : (h < H)%nat) by lia. assert (0 <= B H) by (apply hB; lia).
   assert (0 <= hsum H B - B h) by (apply IH; [exact hH | intros; apply hB; lia]). lra. Qed.
Lemma hf_cross_pair : forall (V : ModuleSpace R_Ring) (ip : V -> V -> R), is_inner ip ->
  forall n (a b : nat -> R) (y z : nat -> V) (delta : R),
  (forall u, 0 <= a u) -> (forall u, 0 <= b u) -> (forall u v, Rabs (ip (y u) (z v)) <= delta) ->
  Rabs (ip (vsum n (fun u => scal (a u) (y u))) (vsum n (fun v => scal (b v) (z v))))
    <= delta * hsum n a * hsum n b.
Proof. intros V ip hi n a b y z delta ha hb hyz.
 rewrite (hf_ip_vsum_l V ip hi).
 assert (e : forall u, ip (scal (a u) (y u)) (vsum n (fun v => scal (b v) (z v)))
   = hsum n (fun v => a u * b v * ip (y u) (z v))).
 { intro u. rewrite (hf_ip_scal_l V ip hi), (hf_ip_vsum_r V ip hi), <- hf_hsum_mult_l. apply hf_hsum_ext.
   intro v. rewrite (hf_ip_scal_r V ip hi). ring. }
 rewrite (hf_hsum_ext n _ _ e).
 assert (t : delta * hsum n a * hsum n b = hsum n (fun u => hsum n (fun v => a u * b v * delta))).
 { transitivity (hsum n (fun u => a u * (hsum n b * delta))).
   - rewrite hf_hsum_mult_r. ring.
   - apply hf_hsum_ext. intro u. rewrite <- hf_hsum_mult_r, <- hf_hsum_mult_l. apply hf_hsum_ext. intro v. ring. }
 rewrite t. apply Rabs_le. split.
 - rewrite <- hf_hsum_opp. apply hf_hsum_le. intros u _. rewrite <- hf_hsum_opp. apply hf_hsum_le. intros v _.
   pose proof (Rmult_le_pos _ _ (ha u) (hb v)). pose proof (hyz u v) as hb'.
   pose proof (Rle_abs (- ip (y u) (z v))) as hn. rewrite Rabs_Ropp in hn. nra.
 - apply hf_hsum_le. intros u _. apply hf_hsum_le. intros v _.
   pose proof (Rmult_le_pos _ _ (ha u) (hb v)). pose proof (hyz u v).
   pose proof (Rle_abs (ip (y u) (z v))). nra. Qed.
Lemma hf_derive_hsum : forall m (F : nat -> R -> R) (F' : nat -> R) (t0 : R),
  (forall k, is_derive (F k) t0 (F' k)) -> is_derive (fun t => hsum m (fun k => F k t)) t0 (hsum m F').
Proof. intros m F F' t0 hF. induction m; simpl.
 - apply (is_derive_const 0).
 - apply (is_derive_plus (fun t => hsum m (fun k => F k t)) (F m)); [exact IHm | apply hF]. Qed.
Lemma hf_ip_line : forall (V : ModuleSpace R_Ring) (ip : V -> V -> R), is_inner ip ->
  forall (L : V -> V), is_linear L -> forall a b c e (t : R),
  ip (plus a (scal t b)) (L (plus c (scal t e))) = ip a (L c) + t * (ip a (L e) + ip b (L c)) + t ^ 2 * ip b (L e).
Proof. intros V ip hi L [lp ls] a b c e t. rewrite lp, ls.
 rewrite (hf_ip_plus_l V ip hi), !(hf_ip_plus_r V ip hi), (hf_ip_scal_l V ip hi), !(hf_ip_scal_r V ip hi),
   (hf_ip_scal_l V ip hi). ring. Qed.
Lemma hf_energy_rate : forall (V : ModuleSpace R_Ring) (ip : V -> V -> R), is_inner ip ->
  forall (L : V -> V), is_linear L -> (forall u w, ip (L u) w = ip u (L w)) ->
  forall (x xd : nat -> V) n beta, beta <> 0 -> INR n <> 0 ->
  Derive (fun t => / (2 * beta * INR n ^ 2) *
    hsum n (fun j => hsum n (fun k => exp (beta * ip (plus (x j) (scal t (xd j))) (L (plus (x k) (scal t (xd k)))))))) 0
  = hsum n (fun j => ip (xd j) (vsum n (fun k => scal (exp (beta * ip (x j) (L (x k)))) (L (x k))))) / INR n ^ 2.
Proof. intros V ip hi L hl hs x xd n beta hb hn.
 apply is_derive_unique.
 set (q := fun j k => ip (x j) (L (xd k)) + ip (xd j) (L (x k))).
 apply (is_derive_ext (fun t => / (2 * beta * INR n ^ 2) *
   hsum n (fun j => hsum n (fun k => exp (beta * (ip (x j) (L (x k)) + t * q j k + t ^ 2 * ip (xd j) (L (xd k)))))))).
 { intro t. f_equal. apply hf_hsum_ext. intro j. apply hf_hsum_ext. intro k. f_equal. f_equal. symmetry.
   unfold q. apply (hf_ip_line V ip hi L hl). }
 assert (hD : is_derive (fun t => hsum n (fun j => hsum n (fun k =>
   exp (beta * (ip (x j) (L (x k)) + t * q j k + t ^ 2 * ip (xd j) (L (xd k))))))) 0
   (hsum n (fun j => hsum n (fun k => beta * q j k * exp (beta * ip (x j) (L (x k))))))).
 { apply (hf_derive_hsum n (fun j t => hsum n (fun k => _))). intro j.
   apply (hf_derive_hsum n (fun k t => exp _)). intro k.
   auto_derive; [exact I |]. repeat rewrite Rmult_0_l. repeat rewrite Rplus_0_r. ring. }
 set (e := fun j k => exp (beta * ip (x j) (L (x k)))).
 set (S := hsum n (fun j => hsum n (fun k => e j k * ip (xd j) (L (x k))))).
 assert (Es : forall j k, e j k = e k j).
 { intros j k. unfold e. rewrite (hf_ip_sym V ip hi (x k) (L (x j))), (hs (x j) (x k)). reflexivity. }
 assert (Eq : forall j k, ip (x j) (L (xd k)) = ip (xd k) (L (x j))).
 { intros j k. rewrite <- (hs (x j) (xd k)). apply (hf_ip_sym V ip hi). }
 assert (Half : hsum n (fun j => hsum n (fun k => e j k * ip (x j) (L (xd k)))) = S).
 { transitivity (hsum n (fun j => hsum n (fun k => e k j * ip (xd k) (L (x j))))).
   - apply hf_hsum_ext. intro j. apply hf_hsum_ext. intro k. rewrite Es, Eq. reflexivity.
   - rewrite hf_hsum_switch. reflexivity. }
 assert (Lhs : hsum n (fun j => hsum n (fun k => beta * q j k * e j k)) = 2 * beta * S).
 { transitivity (beta * hsum n (fun j => hsum n (fun k => e j k * ip (x j) (L (xd k)))) + beta * S).
   - unfold S. rewrite <- !hf_hsum_mult_l, <- hf_hsum_plus. apply hf_hsum_ext. intro j.
     rewrite <- !hf_hsum_mult_l, <- hf_hsum_plus. apply hf_hsum_ext. intro k. unfold q. ring.
   - rewrite Half. ring. }
 assert (Rhs : hsum n (fun j => ip (xd j) (vsum n (fun k => scal (e j k) (L (x k))))) = S).
 { apply hf_hsum_ext. intro j. rewrite (hf_ip_vsum_r V ip hi). apply hf_hsum_ext. intro k.
   rewrite (hf_ip_scal_r V ip hi). reflexivity. }
 change (is_derive (fun t => / (2 * beta * INR n ^ 2) * hsum n (fun j => hsum n (fun k =>
   exp (beta * (ip (x j) (L (x k)) + t * q j k + t ^ 2 * ip (xd j) (L (xd k))))))) 0
   (hsum n (fun j => ip (xd j) (vsum n (fun k => scal (e j k) (L (x k))))) / INR n ^ 2)).
 rewrite Rhs.
 replace (S / INR n ^ 2) with (/ (2 * beta * INR n ^ 2) * hsum n (fun j => hsum n (fun k => beta * q j k * e j k)))
   by (rewrite Lhs; field; split; assumption).
 apply (is_derive_scal (fun t => hsum n (fun j => hsum n (fun k =>
   exp (beta * (ip (x j) (L (x k)) + t * q j k + t ^ 2 * ip (xd j) (L (xd k)))))))).
 exact hD.
Qed.
