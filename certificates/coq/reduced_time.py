"""Coq proofs of a `reduced-time` certificate's statements: lemmas on the bracket, proved once per file, then each
statement by them, or by the generic proof of universal statements (`source._universal`).

Nothing here is trusted: the statements are the kernel's (`kernel.coq.certificate`: A' G R = 1, then the built
statements), and coqc checks every proof. The generic proof closes most of them; it fails at once on the factor's
bounds and on A(0) = 0, and times out on the four limit relations (every atom's facts and every pair's, then `nra`:
docs/design/reduced-time.md). Their mathematics is short, so it is written once as lemmas over real numbers in the
very terms the prover's bracket has (`identities.reduced_clustering`), and each statement is their instance:
- `hf_softmax_factor`: with b = beta lam > 0 and 0 <= rho <= rho1, G(rho) = e^(b (1 - rho)) + n - 1 lies between
  e^(b (1 - rho1)) + n - 1 and e^b + n - 1 (exp increasing);
- `hf_softmax_time`: for E = e^a with a >= 0 (an end's e^(b (1 - rho1)) or e^b), n >= 2 and rho1 in (0, 1), the end
  (n - 1 + E) A(rho1), A(rho1) = log((1 + (n - 1) rho1)/(1 - rho1))/(2 lam n), is within C/log n of log(n)/(2 lam)
  from both sides, C = (-log rho1 - log(1 - rho1) + rho1 (E - 1)/(1 - rho1))/(2 lam): with X = 1 + (n - 1) rho1,
  rho1 n <= X <= n, log(X/(1 - rho1)) <= X/(1 - rho1) - 1 = rho1 n/(1 - rho1) (exp above its tangent), E >= 1; then
  `lra` on the statement, whose claim (T/log n -> 1/(2 lam), or a shifted form of it) differs from the lemma's by
  linear arithmetic;
- A(0) = 0: the logarithm's argument is 1 (`field`), `ln_1`; A' G R = 1 by `field`, the bracket's denominators
  shown positive first (the generic proof takes 52 s on it).
An order in beta (`upper`, `infinite`: the other variables pinned, written as numbers) has its own two, one per
reading of an end (`ORDER_LEMMAS`: `hf_order_end`, `hf_infinite_end`); the generic proof overflowed coqc's stack on
those relations.
Relu's bracket (G = 1; three logarithms of d) has its own: d^(-1/2) = 1/sqrt d, the start in (0, rho1], and the time
over n log(d)/(4 lam^2 beta) within C/log d of 1 (`hf_relu_time`: log(1 - 1/sqrt d) and log(1 + (n - 1)/sqrt d) against
rho1's, the 1/n weights in [0, 1]).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from headflow.certificates.kernel.coq.statements import UniversalStatement, binders, translated
from headflow.certificates.kernel.exprtree import symbols
from headflow.certificates.trees import subtrees

#: The two lemmas, in the kernel's terms with n, exp(a) and beta lam as variables (so that `apply` and `lra` see the
#: statements' own subterms).
_END = (
    "((((-1) + N + (exp a)) * (((1 / 2) * (/ (lam ^ 1)) * (/ (N ^ 1)) * (ln ((/ ((1 + ((-1) * rho1)) ^ 1)) * "
    "(1 + (rho1 * ((-1) + N)))))) - 0)) / (ln N))"
)
_LIMIT = "((1 / 2) * (/ (lam ^ 1)))"
_ERROR = (
    "(((1 / 2) * (/ (lam ^ 1)) * (((-1) * (ln rho1)) + ((-1) * (ln (1 + ((-1) * rho1)))) + (rho1 * (/ ((1 + ((-1) * "
    "rho1)) ^ 1)) * ((-1) + (exp a))))) * (exp ((-1) * (ln (ln N)))))"
)
LEMMAS = f"""Lemma hf_softmax_factor : forall b r r1 N : R, 0 < b -> 0 <= r -> r <= r1 ->
  ((exp b) + ((N + (-1)) * (exp (b * r)))) / (exp (b * r)) >= ((-1) + N + (exp (b * (1 + ((-1) * r1))))) /\\
  ((exp b) + ((N + (-1)) * (exp (b * r)))) / (exp (b * r)) <= ((-1) + N + (exp b)).
Proof.
  intros b r r1 N hb hr hr1. pose proof (exp_pos (b * r)) as hp.
  replace (((exp b) + ((N + (-1)) * (exp (b * r)))) / (exp (b * r))) with (exp b * / exp (b * r) + (N + (-1)))
    by (field; lra).
  rewrite <- exp_Ropp, <- exp_plus. split.
  - apply Rle_ge. assert (exp (b * (1 + ((-1) * r1))) <= exp (b + - (b * r))) by (apply hf_exp_le; nra). lra.
  - assert (exp (b + - (b * r)) <= exp b) by (apply hf_exp_le; nra). lra.
Qed.
Lemma hf_softmax_time : forall lam rho1 N a : R, 0 < lam -> 0 < rho1 -> rho1 < 1 -> 2 <= N -> 0 <= a ->
  ({_END} - {_LIMIT}) <= {_ERROR} /\\ ({_LIMIT} - {_END}) <= {_ERROR}.
Proof.
  intros lam rho1 N a hl hr0 hrr hN ha.
  assert (hE : 1 <= exp a) by (pose proof (exp_ineq1_le a); lra).
  set (E := exp a) in *.
  assert (hLn : 0 < ln N) by (rewrite <- ln_1; apply ln_increasing; lra).
  replace (exp ((-1) * (ln (ln N)))) with (/ ln N)
    by (replace ((-1) * ln (ln N)) with (- ln (ln N)) by ring; rewrite exp_Ropp, exp_ln; [reflexivity | exact hLn]).
  replace ((1 + ((-1) * rho1)) ^ 1) with (1 - rho1) by ring.
  replace (lam ^ 1) with lam by ring. replace (N ^ 1) with N by ring.
  replace (1 + ((-1) * rho1)) with (1 - rho1) by ring.
  set (X := 1 + rho1 * ((-1) + N)).
  assert (hX : 0 < X) by (unfold X; nra).
  assert (hsplit : ln (/ (1 - rho1) * X) = - ln (1 - rho1) + ln X)
    by (rewrite ln_mult, ln_Rinv; [ring | lra | apply Rinv_0_lt_compat; lra | exact hX]).
  assert (htan : ln (/ (1 - rho1) * X) <= / (1 - rho1) * X - 1) by (pose proof (exp_ineq1_le (ln (/ (1 - rho1) * X)))
    as ht; rewrite exp_ln in ht; [lra | apply Rmult_lt_0_compat; [apply Rinv_0_lt_compat; lra | exact hX]]).
  rewrite hsplit in *.
  assert (hXN : ln X <= ln N) by (apply ln_le; [exact hX | unfold X; nra]).
  assert (hXr : ln rho1 + ln N <= ln X) by (rewrite <- ln_mult by lra; apply ln_le; [nra | unfold X; nra]).
  assert (hq : ln (1 - rho1) <= 0) by (rewrite <- ln_1; apply ln_le; lra).
  set (Lg := - ln (1 - rho1) + ln X) in *.
  assert (hLg : Lg <= rho1 * N / (1 - rho1))
    by (replace (rho1 * N / (1 - rho1)) with (/ (1 - rho1) * X - 1) by (unfold X; field; lra); exact htan).
  assert (hLg0 : 0 <= Lg) by (unfold Lg; assert (ln 1 <= ln X) by (apply ln_le; [lra | unfold X; nra]);
    rewrite ln_1 in H; lra).
  assert (hp : (E - 1) * Lg <= (E - 1) * (rho1 * N / (1 - rho1))) by (apply Rmult_le_compat_l; lra).
  assert (hp0 : 0 <= (E - 1) * Lg) by (apply Rmult_le_pos; lra).
  assert (hd : (E - 1) * Lg / N <= rho1 / (1 - rho1) * (E - 1)) by (apply (Rmult_le_reg_r N); [lra |
    replace ((E - 1) * Lg / N * N) with ((E - 1) * Lg) by (field; lra);
    replace (rho1 / (1 - rho1) * (E - 1) * N) with ((E - 1) * (rho1 * N / (1 - rho1))) by (field; lra); exact hp]).
  assert (hd0 : 0 <= (E - 1) * Lg / N) by (apply Rmult_le_pos; [exact hp0 | left; apply Rinv_0_lt_compat; lra]).
  assert (hq0 : 0 <= rho1 / (1 - rho1) * (E - 1))
    by (apply Rmult_le_pos; [apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra] | lra]).
  split; apply (Rmult_le_reg_r (2 * lam * ln N)); try (apply Rmult_lt_0_compat; lra).
  - replace (((-1 + N + E) * (1 / 2 * / lam * / N * Lg - 0) / ln N - 1 / 2 * / lam) * (2 * lam * ln N)) with
      (Lg - ln N + (E - 1) * Lg / N) by (field; repeat split; lra).
    replace (1 / 2 * / lam * (-1 * ln rho1 + -1 * ln (1 - rho1) + rho1 * / (1 - rho1) * (-1 + E)) * / ln N *
      (2 * lam * ln N)) with (- ln rho1 - ln (1 - rho1) + rho1 / (1 - rho1) * (E - 1)) by (field; repeat split; lra).
    unfold Lg in *. lra.
  - replace ((1 / 2 * / lam - (-1 + N + E) * (1 / 2 * / lam * / N * Lg - 0) / ln N) * (2 * lam * ln N)) with
      (ln N - Lg - (E - 1) * Lg / N) by (field; repeat split; lra).
    replace (1 / 2 * / lam * (-1 * ln rho1 + -1 * ln (1 - rho1) + rho1 * / (1 - rho1) * (-1 + E)) * / ln N *
      (2 * lam * ln N)) with (- ln rho1 - ln (1 - rho1) + rho1 / (1 - rho1) * (E - 1)) by (field; repeat split; lra).
    unfold Lg in *. lra.
Qed.
"""
#: An order in beta (statement options `upper`, `infinite`): h at an end is log((m + e^a) DA)/beta or (m + e^a) DA/beta,
#: with a = c beta, DA = A(rho1) - A(rho0) > 0 and the variables other than beta pinned (written as numbers). The first
#: lemma bounds log((m + e^a) DA) - c beta between -log DA and log(n) + log DA (m + e^a between e^a and n e^a for
#: m + 1 <= n), both within log(n (DA + 1/DA)); the second bounds beta/((m + e^a) DA) by 2/(c^2 DA beta), from
#: e^a >= (1 + a/3)^3 >= a^2/2 (exp above its tangent at a/3, cubed); the third bounds sqrt(beta)/log((m + e^a) DA) by
#: k/sqrt(beta) for c k >= 2, from ((m + e^a) DA)^2 >= 4 m DA^2 e^a >= e^a (so log((m + e^a) DA) >= c beta/2) where
#: 4 m DA^2 >= 1.
ORDER_LEMMAS = """Lemma hf_order_end : forall m a c b D N : R,
  0 <= m -> m + 1 <= N -> 0 < D -> 0 <= c -> 0 < b -> a = c * b ->
  (ln ((m + exp a) * D) / b - c) <= ln (N * (D + 1 / D)) * / (b ^ 1) /\\
  (c - ln ((m + exp a) * D) / b) <= ln (N * (D + 1 / D)) * / (b ^ 1).
Proof.
  intros m a c b D N hm hN hD hc hb ha.
  assert (ha0 : 0 <= a) by nra.
  assert (hE : 1 <= exp a) by (pose proof (exp_ineq1_le a); lra).
  assert (hln : ln (exp a) = a) by apply ln_exp.
  set (E := exp a) in *.
  assert (hiD : 0 < 1 / D) by (unfold Rdiv; rewrite Rmult_1_l; apply Rinv_0_lt_compat; lra).
  rewrite (ln_mult (m + E) D) by lra. rewrite (ln_mult N (D + 1 / D)) by lra.
  assert (hup : ln (m + E) <= ln N + a)
    by (rewrite <- hln, <- ln_mult by lra; apply ln_le; nra).
  assert (hlo : a <= ln (m + E)) by (rewrite <- hln; apply ln_le; lra).
  assert (hN0 : 0 <= ln N) by (rewrite <- ln_1; apply ln_le; lra).
  assert (hD1 : ln D <= ln (D + 1 / D)) by (apply ln_le; lra).
  assert (hD2 : - ln D <= ln (D + 1 / D))
    by (rewrite <- ln_Rinv by lra; apply ln_le; [apply Rinv_0_lt_compat; lra |
        unfold Rdiv; rewrite Rmult_1_l; lra]).
  assert (hib : 0 < / b) by (apply Rinv_0_lt_compat; lra).
  rewrite pow_1. split.
  - replace ((ln (m + E) + ln D) / b - c) with ((ln (m + E) + ln D - c * b) * / b) by (field; lra).
    apply Rmult_le_compat_r; lra.
  - replace (c - (ln (m + E) + ln D) / b) with ((c * b - (ln (m + E) + ln D)) * / b) by (field; lra).
    apply Rmult_le_compat_r; lra.
Qed.
Lemma hf_infinite_end : forall m a c k b D : R, 0 <= m -> 0 < D -> 0 < c -> 0 < b -> a = c * b -> 0 < k ->
  k <= c * c ->
  ((m + exp a) * D / b > 0) /\\
  (~ ((m + exp a) * D / b = 0) /\\ (1 / ((m + exp a) * D / b) - 0) <= (2 / (k * D)) * / (b ^ 1)) /\\
  (~ ((m + exp a) * D / b = 0) /\\ (0 - 1 / ((m + exp a) * D / b)) <= (2 / (k * D)) * / (b ^ 1)).
Proof.
  intros m a c k b D hm hD hc hb ha hk hkc.
  assert (ha0 : 0 <= a) by nra.
  assert (h3 : exp a = exp (a / 3) * exp (a / 3) * exp (a / 3))
    by (rewrite <- !exp_plus; f_equal; field).
  assert (ht : 1 + a / 3 <= exp (a / 3)) by apply exp_ineq1_le.
  assert (hcube : a * a / 2 <= exp a)
    by (rewrite h3; assert (0 <= 1 + a / 3) by lra;
        assert ((1 + a / 3) * (1 + a / 3) <= exp (a / 3) * exp (a / 3)) by (apply Rmult_le_compat; lra);
        assert ((1 + a / 3) * (1 + a / 3) * (1 + a / 3) <= exp (a / 3) * exp (a / 3) * exp (a / 3))
          by (apply Rmult_le_compat; nra);
        nra).
  assert (hE : 0 < exp a) by apply exp_pos.
  set (E := exp a) in *.
  assert (hh : 0 < (m + E) * D / b) by (apply Rdiv_lt_0_compat; nra).
  rewrite pow_1.
  assert (hbound : 1 / ((m + E) * D / b) <= 2 / (k * D) * / b).
  { replace (1 / ((m + E) * D / b)) with (b / ((m + E) * D)) by (field; repeat split; nra).
    replace (2 / (k * D) * / b) with (2 / (k * D * b)) by (field; repeat split; nra).
    assert (hP : 0 < (m + E) * D * (k * D * b)) by (assert (0 < m + E) by lra;
      assert (0 < k * D * b) by (apply Rmult_lt_0_compat; [nra | lra]); apply Rmult_lt_0_compat; nra).
    apply (Rmult_le_reg_r _ _ _ hP).
    replace (b / ((m + E) * D) * ((m + E) * D * (k * D * b))) with (k * b * b * D) by (field; repeat split; nra).
    replace (2 / (k * D * b) * ((m + E) * D * (k * D * b))) with (2 * (m + E) * D) by (field; repeat split; nra).
    assert (k * b * b <= a * a) by (rewrite ha; nra). nra. }
  assert (0 < 1 / ((m + E) * D / b)) by (apply Rdiv_lt_0_compat; lra).
  assert (0 < 2 / (k * D) * / b)
    by (apply Rmult_lt_0_compat; [apply Rdiv_lt_0_compat; nra | apply Rinv_0_lt_compat; lra]).
  split; [lra | split; split; lra].
Qed.
Lemma hf_sqrt_end : forall m a c k b D : R, 0 < m -> 0 < D -> 0 < c -> 1 <= b -> a = c * b ->
  1 <= 4 * m * D * D -> 2 <= c * k ->
  (ln ((m + exp a) * D) / sqrt b > 0) /\\
  (~ (ln ((m + exp a) * D) / sqrt b = 0) /\\ (1 / (ln ((m + exp a) * D) / sqrt b) - 0) <= k * exp ((-1 / 2) * ln b)) /\\
  (~ (ln ((m + exp a) * D) / sqrt b = 0) /\\ (0 - 1 / (ln ((m + exp a) * D) / sqrt b)) <= k * exp ((-1 / 2) * ln b)).
Proof.
  intros m a c k b D hm hD hc hb ha hmD hck.
  assert (hs : 0 < sqrt b) by (apply sqrt_lt_R0; lra).
  assert (hss : sqrt b * sqrt b = b) by (apply sqrt_sqrt; lra).
  assert (hpow : exp ((-1 / 2) * ln b) = / sqrt b).
  { assert (h2 : 2 * ln (sqrt b) = ln b) by (rewrite <- hss at 2; rewrite ln_mult by lra; ring).
    rewrite <- (exp_ln (sqrt b)) by exact hs. rewrite <- exp_Ropp. f_equal. lra. }
  rewrite hpow.
  assert (ha0 : 0 < a) by nra.
  assert (hy : exp (a / 2) * exp (a / 2) = exp a) by (rewrite <- exp_plus; f_equal; field).
  assert (hz : 0 < exp (a / 2)) by apply exp_pos.
  assert (hy1 : 1 <= exp a) by (pose proof (exp_ineq1_le a); lra).
  set (y := exp a) in *. set (z := exp (a / 2)) in *.
  assert (hX : z <= (m + y) * D).
  { assert (hsq : z * z <= ((m + y) * D) * ((m + y) * D)).
    { rewrite hy.
      assert (h4 : 4 * m * y <= (m + y) * (m + y)) by (pose proof (Rle_0_sqr (m - y)); unfold Rsqr in *; nra).
      assert (h5 : 4 * m * y * (D * D) <= (m + y) * (m + y) * (D * D)) by (apply Rmult_le_compat_r; nra).
      assert (h6 : y <= y * (4 * m * D * D)) by nra.
      replace ((m + y) * D * ((m + y) * D)) with ((m + y) * (m + y) * (D * D)) by ring. nra. }
    assert (hX0 : 0 < (m + y) * D) by (apply Rmult_lt_0_compat; lra).
    destruct (Rle_or_lt z ((m + y) * D)) as [l | l]; [exact l |].
    assert (((m + y) * D) * ((m + y) * D) < z * z) by (apply Rmult_le_0_lt_compat; lra). lra. }
  assert (hL : a / 2 <= ln ((m + y) * D)).
  { replace (a / 2) with (ln z) by (unfold z; rewrite ln_exp; reflexivity). apply ln_le; lra. }
  set (L := ln ((m + y) * D)) in *.
  assert (hL0 : 0 < L) by lra.
  assert (hh : L / sqrt b > 0) by (apply Rdiv_lt_0_compat; lra).
  assert (hinv : 1 / (L / sqrt b) <= k * / sqrt b).
  { replace (1 / (L / sqrt b)) with (sqrt b / L) by (field; lra).
    apply (Rmult_le_reg_r (L * sqrt b)); [apply Rmult_lt_0_compat; lra |].
    replace (sqrt b / L * (L * sqrt b)) with (sqrt b * sqrt b) by (field; lra).
    replace (k * / sqrt b * (L * sqrt b)) with (k * L) by (field; lra).
    rewrite hss. rewrite ha in hL. nra. }
  assert (0 < 1 / (L / sqrt b)) by (apply Rdiv_lt_0_compat; lra).
  split; [lra | split; split; lra].
Qed.
"""
#: A' G R = 1 by `field`, once the bracket's denominators are shown positive (1 - rho, 1 + (n - 1) rho, and softmax's
#: e^b + (n - 1) e^(b rho)), each side condition by one of them.
_DENOMINATORS = """  assert (0 < 1 + ((-1) * rho)) by lra. assert (0 < 1 + (rho * ((-1) + (IZR n)))) by nra.
  assert (0 < (exp (beta * lam)) + (((IZR n) + (-1)) * (exp ((beta * lam) * rho)))) by nra.
  field; repeat split; first [ apply pow_nonzero; lra | lra | nra | (apply Rmult_integral_contrapositive; split;
    first [ apply pow_nonzero; lra | apply Rinv_neq_0_compat; apply pow_nonzero; lra | lra | nra ]) ]."""
#: Relu's bracket in the kernel's terms (n written N): A(rho1), A(d^(-1/2)) as the prover writes it, h at either end
#: (G = 1: T = A(rho1) - A(rho0)) and the error on the log scale; the same with the logarithms named, for the proof.
_RELU_A1 = (
    "((1 / 2) * N * (/ (beta ^ 1)) * (/ (lam ^ 2)) * (((-1) * (/ (N ^ 1)) * (ln (1 + ((-1) * rho1)))) + ((-1) * "
    "(/ (N ^ 1)) * ((-1) + N) * (ln (1 + (rho1 * ((-1) + N))))) + (ln rho1)))"
)
_RELU_A0 = (
    "((1 / 2) * N * (/ (beta ^ 1)) * (/ (lam ^ 2)) * (((-1 / 2) * (ln d)) + ((-1) * (/ (N ^ 1)) * (ln (1 + ((-1) * "
    "(/ ((sqrt d) ^ 1)))))) + ((-1) * (/ (N ^ 1)) * ((-1) + N) * (ln (1 + ((/ ((sqrt d) ^ 1)) * ((-1) + N)))))))"
)
_RELU_H = f"((1 * ({_RELU_A1} - {_RELU_A0})) / ((N * (ln d)) / ((4 * (lam ^ 2)) * beta)))"
_RELU_ERROR = (
    "((((-2) * (ln rho1)) + ((-2) * (ln (1 + ((-1) * rho1)))) + (2 * (ln (1 + (rho1 * ((-1) + N)))))) * "
    "(exp ((-1) * (ln (ln d)))))"
)
_RELU_NAMES = {
    "(N ^ 1)": "N",
    "(beta ^ 1)": "beta",
    "(ln (1 + ((-1) * rho1)))": "a",
    "(ln (1 + (rho1 * ((-1) + N))))": "x",
    "(ln rho1)": "r",
    "(/ ((sqrt d) ^ 1))": "t",
    "(ln (1 + ((-1) * t)))": "b",
    "(ln (1 + (t * ((-1) + N))))": "y",
    "(ln d)": "L",
}
_RELU_NAMED = functools.reduce(lambda text, pair: text.replace(*pair), _RELU_NAMES.items(), _RELU_H)
#: Relu's lemmas: d^(-1/2) = 1/sqrt d, the start d^(-1/2) in (0, rho1] for d >= rho1^(-2), and the time over its scale
#: n log(d)/(4 lam^2 beta) within C/log d of 1 (each logarithm of d against rho1's, the weights 1/n in [0, 1]).
RELU_LEMMAS = f"""Lemma hf_relu_time : forall lam beta rho1 N d : R,
  0 < lam -> 0 < beta -> 0 < rho1 -> rho1 < 1 -> 2 <= N -> d >= (/ (rho1 ^ 2)) ->
  ({_RELU_H} - 1) <= {_RELU_ERROR} /\\ (1 - {_RELU_H}) <= {_RELU_ERROR}.
Proof.
  intros lam beta rho1 N d hl hb hr0 hrr hN hd.
  assert (hr2 : 1 < / (rho1 ^ 2)) by (rewrite <- Rinv_1; apply Rinv_lt_contravar; nra).
  assert (hd1 : 1 < d) by lra.
  assert (hLn : 0 < ln d) by (rewrite <- ln_1; apply ln_increasing; lra).
  replace (exp ((-1) * (ln (ln d)))) with (/ ln d)
    by (replace ((-1) * ln (ln d)) with (- ln (ln d)) by ring; rewrite exp_Ropp, exp_ln; [reflexivity | exact hLn]).
  assert (hs : 0 < sqrt d) by (apply sqrt_lt_R0; lra).
  replace ((sqrt d) ^ 1) with (sqrt d) by ring. replace (N ^ 1) with N by ring. replace (beta ^ 1) with beta by ring.
  set (t := / sqrt d).
  assert (ht0 : 0 < t) by (apply Rinv_0_lt_compat; exact hs).
  assert (htt : t * t = / d) by (unfold t; rewrite <- Rinv_mult, sqrt_sqrt; [reflexivity | lra]).
  assert (hdr : / d <= rho1 * rho1) by (replace (rho1 * rho1) with (/ / (rho1 ^ 2)) by (field; lra);
    apply Rinv_le_contravar; [apply Rinv_0_lt_compat; nra | lra]).
  assert (htr : t <= rho1) by nra.
  assert (L1 : ln (1 + ((-1) * rho1)) <= 0) by (rewrite <- ln_1; apply ln_le; lra).
  assert (Lr : ln rho1 <= 0) by (rewrite <- ln_1; apply ln_le; lra).
  assert (LX : 0 <= ln (1 + (rho1 * ((-1) + N)))) by (rewrite <- ln_1; apply ln_le; nra).
  assert (Lt1 : ln (1 + ((-1) * rho1)) <= ln (1 + ((-1) * t))) by (apply ln_le; lra).
  assert (Lt1' : ln (1 + ((-1) * t)) <= 0) by (rewrite <- ln_1; apply ln_le; lra).
  assert (LtX : ln (1 + (t * ((-1) + N))) <= ln (1 + (rho1 * ((-1) + N)))) by (apply ln_le; nra).
  assert (LtX' : 0 <= ln (1 + (t * ((-1) + N)))) by (rewrite <- ln_1; apply ln_le; nra).
  set (a := ln (1 + ((-1) * rho1))) in *. set (r := ln rho1) in *. set (x := ln (1 + (rho1 * ((-1) + N)))) in *.
  set (b := ln (1 + ((-1) * t))) in *. set (y := ln (1 + (t * ((-1) + N)))) in *. set (L := ln d) in *.
  assert (e : {_RELU_NAMED} =
      2 * (- / N * a - / N * ((-1) + N) * x + r + L / 2 + / N * b + / N * ((-1) + N) * y) / L)
    by (field; repeat split; lra).
  rewrite e.
  set (u := / N).
  assert (hu : N * u = 1) by (unfold u; field; lra).
  assert (hu0 : 0 < u) by (unfold u; apply Rinv_0_lt_compat; lra).
  assert (hu1 : u <= 1) by nra.
  assert (p1 : 0 <= (1 - u) * (- a)) by (apply Rmult_le_pos; lra).
  assert (p2 : 0 <= (1 - u) * (x - y)) by (apply Rmult_le_pos; lra).
  assert (p3 : 0 <= u * (- b)) by (apply Rmult_le_pos; lra).
  assert (p4 : 0 <= u * (b - a)) by (apply Rmult_le_pos; lra).
  assert (p5 : 0 <= u * x) by (apply Rmult_le_pos; lra).
  assert (p6 : 0 <= (1 - u) * y) by (apply Rmult_le_pos; lra).
  assert (q1 : u * ((-1) + N) * x = x - u * x) by (replace (u * ((-1) + N) * x) with ((N * u) * x - u * x) by ring;
      rewrite hu; ring).
  assert (q2 : u * ((-1) + N) * y = y - u * y) by (replace (u * ((-1) + N) * y) with ((N * u) * y - u * y) by ring;
      rewrite hu; ring).
  split; apply (Rmult_le_reg_r L); try exact hLn.
  - replace ((2 * (- u * a - u * ((-1) + N) * x + r + L / 2 + u * b + u * ((-1) + N) * y) / L - 1) * L) with
      (2 * (- u * a - u * ((-1) + N) * x + r + L / 2 + u * b + u * ((-1) + N) * y) - L) by (field; lra).
    replace (((-2) * r + (-2) * a + 2 * x) * / L * L) with ((-2) * r + (-2) * a + 2 * x) by (field; lra).
    rewrite q1, q2. nra.
  - replace ((1 - 2 * (- u * a - u * ((-1) + N) * x + r + L / 2 + u * b + u * ((-1) + N) * y) / L) * L) with
      (L - 2 * (- u * a - u * ((-1) + N) * x + r + L / 2 + u * b + u * ((-1) + N) * y)) by (field; lra).
    replace (((-2) * r + (-2) * a + 2 * x) * / L * L) with ((-2) * r + (-2) * a + 2 * x) by (field; lra).
    rewrite q1, q2. nra.
Qed.
Lemma hf_rpow_half : forall d : R, 0 < d -> exp ((-1 / 2) * (ln d)) = / sqrt d.
Proof.
  intros d hd. assert (hs : 0 < sqrt d) by (apply sqrt_lt_R0; lra).
  assert (h2 : 2 * ln (sqrt d) = ln d) by (rewrite <- (sqrt_sqrt d) at 2 by lra; rewrite ln_mult by lra; ring).
  rewrite <- (exp_ln (sqrt d)) by exact hs. rewrite <- exp_Ropp. f_equal. lra.
Qed.
Lemma hf_relu_start : forall rho1 d : R, 0 < rho1 -> rho1 < 1 -> d >= (/ (rho1 ^ 2)) ->
  0 < exp ((-1 / 2) * (ln d)) /\\ exp ((-1 / 2) * (ln d)) <= rho1.
Proof.
  intros rho1 d hr0 hrr hd. split; [apply exp_pos |].
  assert (hq : 0 < / (rho1 ^ 2)) by (apply Rinv_0_lt_compat; nra).
  rewrite hf_rpow_half by lra.
  assert (hs : 0 < sqrt d) by (apply sqrt_lt_R0; lra).
  assert (htt : / sqrt d * / sqrt d = / d) by (rewrite <- Rinv_mult, sqrt_sqrt; [reflexivity | lra]).
  assert (hdr : / d <= rho1 * rho1) by (replace (rho1 * rho1) with (/ / (rho1 ^ 2)) by (field; lra);
    apply Rinv_le_contravar; [exact hq | lra]).
  assert (0 < / sqrt d) by (apply Rinv_0_lt_compat; exact hs). nra.
Qed.
"""
#: Each conjunct of a relu statement: linear, a product of non-zero factors, rho1^(-2) > 1, A(d^(-1/2)) as written
#: (ln (exp x) = x, d^(-1/2) = 1/sqrt d), or an instance of `hf_relu_time` (the conjunct itself: `lra` does not close
#: a polynomial of that size).
_RELU = (
    "first [ lra | (repeat apply Rmult_integral_contrapositive_currified; first [ lra | apply pow_nonzero; lra ]) "
    "| (unfold Rgt; rewrite <- Rinv_1; apply Rinv_lt_contravar; nra) "
    "| (rewrite ln_exp, (hf_rpow_half d hd0), ?pow_1; ring) "
    "| (pose proof (hf_relu_time lam beta rho1 (IZR n) d ltac:(lra) ltac:(lra) ltac:(lra) ltac:(lra) ltac:(lra) "
    "ltac:(lra)) as [hup hlo]; assumption) ]"
)
#: A(rho0) = 0 at rho0 = 0: each logarithm's argument is 1.
_AT_ZERO = "repeat match goal with |- context [ln ?x] => replace x with 1 by field; rewrite ln_1 end; ring"


def lemmas(attention: str) -> str:
    """The lemmas of a `reduced-time` file of that attention."""
    return LEMMAS if attention == "softmax" else RELU_LEMMAS


def proof(statement: UniversalStatement, attention: str) -> str | None:
    """The proof of a statement the lemmas close (a limit relation, a bound of the factor, A(0) = 0; relu's start
    and A(rho0) too), else None (the generic proof)."""
    names = [name for group, _ in binders(statement) for name in group]
    relation = statement.goal[-1] if statement.goal[0] == "and" else statement.goal
    intros = f"  intros {' '.join(names + [f'h{k}' for k in range(len(statement.hypotheses))])}."
    nodes = list(subtrees(statement.goal))

    def text(tree: object) -> str:
        return translated(tree, {}, statement.integers)

    if "rho" not in names and (ends := _order_ends(nodes)):
        return (
            f"{intros}\n"
            + "\n".join(f"  {line}" for line in _order_facts(ends, statement.goal, text))
            + (
                "\n  repeat match goal with H : _ /\\ _ |- _ => destruct H end."
                "\n  unfold Rdiv in *; repeat match goal with |- _ /\\ _ => split end; first [ assumption | lra ]."
            )
        )
    if attention == "relu":
        of_d = [node for node in nodes if node[:2] in (["rpow", ["sym", "d"]], ["rpow", ["log", ["sym", "d"]]])]
        if "rho" in names or not (of_d or ["pow", ["sym", "rho1"], -2] in nodes):
            return None
        known = (
            "  assert (hq : 0 < / (rho1 ^ 2)) by (apply Rinv_0_lt_compat; nra). assert (hd0 : 0 < d) by lra.\n"
            "  pose proof (hf_relu_start rho1 d ltac:(lra) ltac:(lra) ltac:(lra)) as [hs0 hs1]."
        )
        return f"{intros}\n{known}\n  repeat match goal with |- _ /\\ _ => split end; {_RELU}."
    if any(node[:2] == ["rpow", ["log", ["sym", "n"]]] for node in nodes):  # h at an end against L, error C/log n
        ends = dict.fromkeys(text(node[1]) for node in nodes if node[:1] == ["exp"] and "beta" in symbols(node[1]))
        posed = [
            f"pose proof (hf_softmax_time lam rho1 (IZR n) ({end}) ltac:(lra) ltac:(lra) ltac:(lra) ltac:(lra) "
            "ltac:(repeat apply Rmult_le_pos; lra))"
            for end in ends
        ]
        same = "unfold Rdiv in *; rewrite ?Rinv_mult, ?pow_1 in *"  # 1/(2 lam) and (1/2) / lam^1 as one monomial
        closing = f"first [ lra | ({'; '.join(posed)}; {same}; lra) ]"
        return f"{intros}\n  repeat match goal with |- _ /\\ _ => split end; {closing}."
    quotient = any(node[0] == "div" for node in subtrees(relation))
    if {"rho", "lam", "rho1", "n"} <= set(names) and relation[0] in (">=", "<=") and quotient:  # G between a and b
        bounds = "(hf_softmax_factor (beta * lam) rho rho1 (IZR n) ltac:(nra) ltac:(lra) ltac:(lra))"
        return f"{intros}\n  first [ apply (proj1 {bounds}) | apply (proj2 {bounds}) ]."
    if relation[0] == "=" and "rho" in names and relation[2] == ["rat", "1"]:  # A' G R = 1: its denominators' signs
        signs = dict.fromkeys(f"  pose proof (exp_pos ({text(node[1])}))." for node in nodes if node[:1] == ["exp"])
        return "\n".join([intros, *signs, _DENOMINATORS])
    if relation[0] == "=" and "rho" not in names and relation[2] == ["rat", "0"]:  # A(0) = 0
        return f"{intros}\n  {_AT_ZERO}."
    return None


#: beta and beta^(-1/2) (the rate of the error in an order of log T against sqrt(beta)) as the statements write them.
BETA = ["sym", "beta"]
SQRT_RATE = ["rpow", BETA, ["rat", "-1/2"]]


def _order_ends(nodes: list) -> list[tuple[object, object, object, object]]:
    """(m, a, c, DA) of each end (m + e^a) DA in an order-in-beta statement: a = c beta, DA free of variables."""
    ends = []
    for node in nodes:
        if node[:1] != ["mul"] or len(node) != 3 or node[1][:1] != ["add"] or node[1][-1][:1] != ["exp"]:
            continue
        exponent, factor = node[1][-1][1], node[2]
        if symbols(factor) or exponent[:1] != ["mul"] or ["sym", "beta"] not in exponent[1:]:
            continue
        rest = [f for f in exponent[1:] if f != ["sym", "beta"]]
        if len(rest) != len(exponent) - 2 or "beta" in symbols(["mul", *rest]):
            continue
        ends.append((["add", *node[1][1:-1]], exponent, ["mul", *rest], factor))
    return [end for k, end in enumerate(ends) if end not in ends[:k]]


def _order_facts(ends: list, goal: list, text: Callable[[object], str]) -> list[str]:
    """`pose proof` of each end's lemma by the form of h at that end: log(G DA)/beta (`hf_order_end`, n the literal
    that the error's logarithm multiplies), log(G DA)/sqrt(beta) (`hf_sqrt_end`, k the error's coefficient of
    beta^(-1/2), else 2/c) or G DA/beta (`hf_infinite_end`, k the literal of the error 2/(k DA), else c^2)."""
    facts, nodes = [], list(subtrees(goal))
    for m, a, c, factor in ends:
        args, end, beta = f"({text(m)}) ({text(a)}) ({text(c)})", ["mul", ["add", *m[1:], ["exp", a]], factor], BETA
        if ["div", ["log", end], beta] in nodes:
            (n,) = dict.fromkeys(
                text(x[1][1])
                for x in nodes
                if x[:1] == ["log"] and x[1][2:] == [["add", factor, ["div", ["rat", "1"], factor]]]
            )
            facts.append(
                f"pose proof (hf_order_end {args} beta ({text(factor)}) ({n}) ltac:(lra) "
                "ltac:(lra) ltac:(interval) ltac:(lra) ltac:(lra) ltac:(ring))."
            )
        elif ["div", ["log", end], ["sqrt", beta]] in nodes:
            rates = dict.fromkeys(text(x[1]) for x in nodes if x[:1] == ["mul"] and x[2:] == [SQRT_RATE])
            facts += [
                f"pose proof (hf_sqrt_end {args} ({k}) beta ({text(factor)}) ltac:(lra) ltac:(interval) "
                "ltac:(lra) ltac:(lra) ltac:(ring) ltac:(interval) ltac:(lra))."
                for k in rates or [f"2 / {text(c)}"]
            ]
        elif ["div", end, beta] in nodes:
            scales = dict.fromkeys(
                text(x[2][1])
                for x in nodes
                if x[:2] == ["div", ["rat", "2"]] and x[2][:1] == ["mul"] and x[2][2:] == [factor]
            )
            facts += [
                f"pose proof (hf_infinite_end {args} ({k}) beta ({text(factor)}) ltac:(lra) ltac:(interval) "
                "ltac:(lra) ltac:(lra) ltac:(ring) ltac:(lra) ltac:(nra))."
                for k in scales or [f"{text(c)} * {text(c)}"]
            ]
    return facts
