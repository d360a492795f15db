"""Coq lemmas for the Taylor and power cuts of exp an smt certificate's payload carries
(`certificates.kernel.real_encoding`).

Untrusted, like every proof: coqc re-proves each lemma. A lower cut at t of odd degree k with factor L states, for
every real y, `L T_k(y - t) <= exp y` (T_k the Taylor polynomial of exp at 0); an upper cut `exp y (L T_k(-y - t))
<= 1`. They rest on Taylor's theorem for exp at every real point, `hf_taylor_odd` (T_{2n+1}(y) <= exp y: for
y >= 0 Coquelicot's `exp_ge_taylor`, for y < 0 Coquelicot's `Taylor_Lagrange` on exp(-x), whose remainder has an even
power), then `L <= exp t` by `interval`, and `exp y = exp t exp (y - t)`. The proof of the claim poses each cut's
lemma at every exponential atom of its statement and closes the goal with `nra` as without cuts.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from headflow.certificates.kernel.coq.statements import real

#: A tactic for a power cut's premise at the atoms a, b (their texts) and the cut's q, p, or None.
Premise = Callable[[str, str, int, int], str | None]
#: Bits `interval` uses to prove L <= exp t (the kernel shows L <= exp t with balls of 256 bits).
CUT_BITS = 320

#: Taylor's theorem for exp (odd degrees, every real y) and the factorials of its sum as products.
TAYLOR = """\
Lemma hf_exp_derive_n : forall k x, Coquelicot.Derive.ex_derive_n exp k x.
Proof.
  intros [|k] x; [exact I | eexists; exact (Coquelicot.ElemFct.is_derive_n_exp (S k) x)].
Qed.
Lemma hf_taylor_odd : forall n y, sum_f_R0 (fun j => y ^ j / INR (fact j)) (S (2 * n)) <= exp y.
Proof.
  intros n y.
  destruct (Rle_or_lt 0 y) as [hy | hy].
  - apply Coquelicot.ElemFct.exp_ge_taylor; exact hy.
  - assert (hd : forall k t, Coquelicot.Derive.is_derive_n (fun x => exp (- x)) k t ((-1) ^ k * exp (- t))).
    { intros k t. apply Coquelicot.Derive.is_derive_n_comp_opp.
      - apply Coquelicot.Hierarchy.filter_forall. intros z j _. apply hf_exp_derive_n.
      - apply Coquelicot.ElemFct.is_derive_n_exp. }
    assert (hpos : 0 < - y) by lra.
    destruct (Coquelicot.Derive.Taylor_Lagrange (fun x => exp (- x)) (S (2 * n)) 0 (- y) hpos) as [z [hz e]].
    + intros t _ [|k] _; [exact I | eexists; exact (hd (S k) t)].
    + rewrite Ropp_involutive in e. rewrite e.
      rewrite (Coquelicot.Derive.is_derive_n_unique _ _ _ _ (hd _ z)).
      assert (hs : sum_f_R0 (fun m => (- y - 0) ^ m / INR (fact m)
                     * Coquelicot.Derive.Derive_n (fun x => exp (- x)) m 0) (S (2 * n))
                   = sum_f_R0 (fun j => y ^ j / INR (fact j)) (S (2 * n))).
      { apply sum_eq. intros i _. rewrite (Coquelicot.Derive.is_derive_n_unique _ _ _ _ (hd i 0)).
        rewrite Ropp_0, exp_0, Rminus_0_r.
        replace (y ^ i) with ((- y) ^ i * (-1) ^ i) by (rewrite <- Rpow_mult_distr; f_equal; ring).
        unfold Rdiv. ring. }
      rewrite hs.
      set (A := (- y - 0) ^ S (S (2 * n))). set (F := INR (fact (S (S (2 * n))))).
      assert (hr : 0 <= A * (-1) ^ S (S (2 * n))).
      { unfold A. rewrite <- Rpow_mult_distr. replace (S (S (2 * n))) with (2 * S n)%nat by lia.
        rewrite pow_sqr. apply pow_le. apply Rle_0_sqr. }
      assert (hf : 0 < / F) by (apply Rinv_0_lt_compat, INR_fact_lt_0).
      pose proof (exp_pos (- z)).
      assert (0 <= (A * (-1) ^ S (S (2 * n))) * / F * exp (- z)) by (apply Rmult_le_pos; [apply Rmult_le_pos|]; lra).
      unfold Rdiv. lra.
Qed.
Lemma hf_fact_S : forall j, INR (fact (S j)) = INR (S j) * INR (fact j).
Proof. intro j. rewrite <- mult_INR. reflexivity. Qed.
"""

#: A power cut's fact (q a <= p b gives exp(a)^q <= exp(b)^p), from exp(a)^k = exp(k a) and exp increasing.
POWER = """\
Lemma hf_exp_pow : forall (k : nat) (a : R), exp a ^ k = exp (INR k * a).
Proof.
  intros k a. induction k as [|k IH]; [ simpl; rewrite Rmult_0_l, exp_0; reflexivity | ].
  rewrite <- tech_pow_Rmult, IH, <- exp_plus, S_INR. f_equal. ring.
Qed.
Lemma hf_power_le : forall (q p : nat) (a b : R), INR q * a <= INR p * b -> exp a ^ q <= exp b ^ p.
Proof.
  intros q p a b. rewrite !hf_exp_pow. intro h. destruct (Rle_lt_or_eq_dec _ _ h) as [l | e].
  - left. apply exp_increasing. exact l.
  - right. rewrite e. reflexivity.
Qed.
Lemma hf_exp_le : forall a b : R, a <= b -> exp a <= exp b.
Proof. intros a b h. rewrite <- (pow_1 (exp a)), <- (pow_1 (exp b)). apply (hf_power_le 1 1). simpl INR. lra. Qed.
Lemma hf_product_le : forall a b c : R, a + b <= c -> exp a * exp b <= exp c.
Proof. intros a b c h. rewrite <- exp_plus. apply hf_exp_le. exact h. Qed.
Lemma hf_product_ge : forall a b c : R, c <= a + b -> exp c <= exp a * exp b.
Proof. intros a b c h. rewrite <- exp_plus. apply hf_exp_le. exact h. Qed.
"""


def polynomial(z: str, degree: int) -> str:
    """T_degree(z) = 1 + z + z^2/2 + ... as Coq text, z a parenthesized term."""
    return "(" + " + ".join(["1", z, *(f"{z} ^ {j} / {math.factorial(j)}" for j in range(2, degree + 1))]) + ")"


def _degree_lemma(degree: int) -> str:
    """`hf_taylor_k : forall z, T_k(z) <= exp z`, from `hf_taylor_odd` with its factorials multiplied out."""
    return (
        f"Lemma hf_taylor_{degree} : forall z, {polynomial('z', degree)} <= exp z.\nProof.\n"
        f"  intro z. pose proof (hf_taylor_odd {(degree - 1) // 2} z) as h. change (S (2 * {(degree - 1) // 2})) "
        f"with {degree}%nat in h.\n  cbn [sum_f_R0] in h. rewrite ?hf_fact_S in h. rewrite ?INR_IZR_INZ in h. "
        "simpl Z.of_nat in h.\n  eapply Rle_trans; [ | exact h ]. right. field.\nQed.\n"
    )


def _cut_lemma(index: int, cut: dict[str, Any]) -> str:
    """`hf_cut_i`, the fact of cut i for every real y (an upper cut from its lower form at -y, `hf_cut_i_at`)."""
    at, factor, degree = real(Fraction(cut["at"])), real(Fraction(cut["factor"])), cut["degree"]
    name = f"hf_cut_{index}" + "_at" * (cut["kind"] == "upper")
    bound = f"{factor} * {polynomial(f'(y - {at})', degree)}"
    exp_at = "rewrite exp_0; lra" if Fraction(cut["at"]) == 0 else f"interval with (i_prec {CUT_BITS})"
    text = (
        f"Lemma {name} : forall y : R, {bound} <= exp y.\nProof.\n"
        f"  intro y. pose proof (hf_taylor_{degree} (y - {at})) as hT.\n"
        f"  assert (hL : {factor} <= exp {at}) by ({exp_at}).\n"
        f"  pose proof (exp_plus {at} (y - {at})) as he. replace ({at} + (y - {at})) with y in he by ring.\n"
        f"  pose proof (exp_pos {at}). pose proof (exp_pos (y - {at})). pose proof (exp_pos y).\n"
        f"  revert hT. generalize {polynomial(f'(y - {at})', degree)}. intros p hT.\n"
        "  destruct (Rle_or_lt 0 p); nra.\nQed.\n"
    )
    if cut["kind"] == "upper":
        upper = f"{factor} * {polynomial(f'(- y - {at})', degree)}"
        text += (
            f"Lemma hf_cut_{index} : forall y : R, exp y * ({upper}) <= 1.\nProof.\n"
            f"  intro y. pose proof ({name} (- y)) as hc. pose proof (exp_pos y).\n"
            "  assert (hm : exp y * exp (- y) = 1) by (rewrite <- exp_plus; replace (y + - y) with 0 by ring; "
            "apply exp_0).\n"
            f"  revert hc. generalize ({upper}). intros q hc. nra.\nQed.\n"
        )
    return text


def lemmas(cuts: list[dict[str, Any]]) -> str:
    """The lemmas of a file's cuts (numbered in order), after Taylor's theorem, the power cuts' lemma and one lemma per
    degree; "" if none."""
    if not cuts:
        return ""
    degrees = sorted({cut["degree"] for cut in cuts if cut["kind"] in ("lower", "upper")})
    texts = (
        [POWER] * any(cut["kind"] == "power" for cut in cuts)
        + [_degree_lemma(k) for k in degrees]
        + [_cut_lemma(i, c) for i, c in enumerate(cuts) if c["kind"] in ("lower", "upper")]
    )
    return TAYLOR + "".join(texts)


#: The premise q a <= p b is shown from the inequalities free of exp and inverses (the domain's bounds, a log's sign):
#: nra on every hypothesis may search for a minute before it fails on a false premise.
_ORDER_ONLY = (
    "repeat match goal with h : _ <-> _ |- _ => clear h | h : _ = _ |- _ => clear h | h : _ <> _ |- _ => clear h "
    "| h : context [ exp _ ] |- _ => clear h | h : context [ / _ ] |- _ => clear h end;"
)


def facts(
    cuts: list[dict[str, Any]], atoms: list[str], first: int = 0, premise: Premise = lambda a, b, q, p: None
) -> tuple[list[str], list[str]]:
    """Proof lines (the Taylor cuts', then the pairs') that pose every Taylor cut's lemma (numbered from `first` in the
    file) at every exponential atom's argument (a cut names its atom in the SMT encoding's numbering; posing it at all
    of them is sound and small), and every two-atom power cut's fact at every ordered pair of them where nra shows its
    premise (or `premise`'s tactic for the
    atoms a, b and the cut's q, p does: the factors' signs, `factored.power_premise`)."""
    taylor = [i for i, c in enumerate(cuts, first) if c["kind"] in ("lower", "upper")]
    lines = [f"  pose proof (hf_cut_{i} {a})." for i in taylor for a in atoms]
    pairs_of = [c["exponents"] for c in cuts if c["kind"] == "power" and len(c["exponents"]) == 2]
    powers = dict.fromkeys((q, -p) for q, p in pairs_of if q > 0 > p)  # q a - p b <= 0: exp(a)^q <= exp(b)^p
    pairs = [(a, b) for a in atoms for b in atoms if a != b]
    return lines, (
        [  # a power cut's fact at every ordered pair of atoms whose exponents nra orders
            f"  try (assert (exp {a} ^ {q} <= exp {b} ^ {p}) by (apply hf_power_le; simpl INR; {_ORDER_ONLY} "
            + (f"first [ nra | {tactic} ]))." if (tactic := premise(a, b, q, p)) else "nra)).")
            for q, p in powers
            for a, b in pairs
        ]
        + (product_facts(atoms) if multiplied(cuts, atoms) else [])
    )


def multiplied(cuts: list[dict[str, Any]], atoms: list[str]) -> bool:
    """Whether the proof orders products of atoms (`product_facts`): with power cuts, or an atom exp(ln x) (a power x^a
    is exp(a ln x))."""
    return any(cut["kind"] == "power" for cut in cuts) or any(a.startswith("(ln ") for a in atoms)


def product_facts(atoms: list[str]) -> list[str]:
    """Proof lines that order the product of every two atoms' exponentials against a third's (or 1) where nra orders
    the exponents, exp(ln x) written x: n^gamma <= n^(-1/2) n, a power cut's consequence that nra does not find (it
    would divide u^2 <= N = r^2 N^2 by u + r N)."""
    return [f"  try ({fact})." for fact in product_tactics(atoms, "nra")]


def product_tactics(atoms: list[str], premise: str) -> list[str]:
    """Each product fact of `product_facts` as one tactic that fails where `premise` (a tactic) does not order the
    exponents."""
    tactics = []
    for k, a in enumerate(atoms):
        for b in atoms[k:]:
            for c in [x for x in atoms if x not in (a, b)] + ["0"]:
                for lemma, fact in (("le", f"exp {a} * exp {b} <= exp {c}"), ("ge", f"exp {c} <= exp {a} * exp {b}")):
                    tactics.append(
                        f"let h := fresh in assert (h : {fact}) by (apply hf_product_{lemma}; "
                        f"{_ORDER_ONLY} {premise}); rewrite ?exp_0, ?exp_ln in h by lra"
                    )
    return tactics


def closing(cuts: list[dict[str, Any]], atoms: list[str], tactic: str) -> str:
    """The proof's last line, `tactic` (a goal closer); where the proof orders products, first without the power
    facts and the equivalences where the products suffice: nra's search grows with every hypothesis (47 s with them,
    1 s without, measured on `long-context.self-weight.subcritical`), and some proofs need the equivalences."""
    if not multiplied(cuts, atoms):
        return f"  {tactic}."
    dropped = "repeat match goal with h : exp _ ^ _ <= exp _ ^ _ |- _ => clear h | h : _ <-> _ |- _ => clear h end"
    return f"  first [ ({dropped}; {tactic}) | {tactic} ]."
