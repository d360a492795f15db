"""Coq proofs of an `exit-gap` certificate's statements: lemmas on the bracket, proved once per file, then each
statement an instance of them closed by `lra`.

Nothing here is trusted: the statements are the kernel's (`kernel.exit_gap.built`: h'' <= 0 on [0, 1], h(0) > 0,
a >= 0, b <= 1, h(1 - a) < 0 < h(1 - b), each end's `limit` relations; at a point `at` of H, each of them there), and
coqc checks every proof. The generic proof closes 4 of the 12 (`No applicable tactic` on the rest), so the mathematics
is written once as lemmas over real alpha, beta, H, n in the very terms the prover's bracket has
(`provers.exit_gap_limit`: its ends, threshold N0, errors and limit (H - 1)/H; the kernel's h, `kernel.exit_gap.EXIT`),
their statements written from those trees, so that a statement is the lemma's instance at the statement's own H and n
(matched in its hypothesis n >= N0: the number 3 at `at = {H: 3}`), whatever the claim's limit L0 it is shifted by:
- `hf_exit_n`: n >= N0 = 1 + 4 H e^2 (e = e^(alpha beta) > 1) gives q = (n - 1)/H >= 4 e^2 and n >= 2;
- `hf_exit_concave`: h'' = -2 (n - 1)^2 - 2 (H - 1)((n - 1) - k E)^2 - 2 (H - 1)(E + (n - 1) rho) E k^2 (k = alpha
  beta, E = e^(k (1 - rho))), each of its three products >= 0 (`lra` adds them);
- `hf_exit_low`: with X = (n - H)/H, (n - 1) a = (H - 1)(1 + X) and (n - 1)(1 - a) = X, so h(1 - a) = (H - 1)((1 +
  X)^2 - (E + X)^2) = -(H - 1)(E - 1)(E + 1 + 2 X) < 0, E = e^(k a) > 1 and 1 + X = n/H > 0;
- `hf_exit_high`: with r = 1 - b = 1/H - 2 e/(n - 1) in [0, 1], (n - 1)(1 - r) = (H - 1) q + 2 e, (n - 1) r =
  q - 2 e and 1 <= E = e^(k (1 - r)) <= e, h(1 - b) = (H - 1)(q - e^2) + (H - 1)(e - E)(2 q - 3 e + E) + 2 e (1 +
  q - 2 e) > 0;
- `hf_exit_ends`: a >= 0, b <= 1, h(0) = (n - 1) - (H - 1) e^2 > 0, N0 > 0 and the four limit relations, each
  difference over one denominator (`_ratio`: `field`, then its numerator's sign by `nra`).
"""

from __future__ import annotations

from fractions import Fraction

from headflow.certificates.kernel.coq.statements import UniversalStatement, binders, formula, translated
from headflow.certificates.kernel.exit_gap import EXIT, FORM
from headflow.certificates.kernel.exprtree import substitute
from headflow.certificates.kernel.limits import SCALES
from headflow.certificates.provers.exit_gap_limit import BRACKET, ERRORS, LIMIT

_ONE, _ZERO, _N = ["rat", "1"], ["rat", "0"], ["sym", "n"]
_LOW, _HIGH, _FROM = BRACKET["low"], BRACKET["high"], BRACKET["from"]


def _at(end: object) -> object:
    """h at rho = 1 - end (the kernel's g(end))."""
    return substitute(EXIT, {"rho": ["sub", _ONE, end]})


def _ratio(numerator: str, denominator: str) -> str:
    """x <= y as (x - y) = P / Q by `field`, with 0 < Q and P <= 0 (`hf_div_nonpos`, the prelude's)."""
    difference = f"apply Rminus_le; replace (x - y) with (({numerator}) / ({denominator}))"
    signs = "apply hf_div_nonpos; [repeat apply Rmult_lt_0_compat; lra | nra]"
    return f"match goal with |- ?x <= ?y => {difference} by (field; repeat split; lra) end; {signs}."


def _relations() -> list[str]:
    """Each end's two `limit` relations against the prover's limit, with its error (`limits.relations`' shape)."""
    found = []
    for end, error in zip((_LOW, _HIGH), ERRORS, strict=True):
        bound = ["mul", error["coefficient"], SCALES[error["scale"]](_N, Fraction(error["rate"]))]
        found += [formula(["<=", ["sub", end, LIMIT], bound]), formula(["<=", ["sub", LIMIT, end], bound])]
    return found


#: The hypotheses of every lemma, as a statement of the form states them (n >= N0 verbatim, so that `match` reads H
#: and n off it).
_GIVEN = f"alpha > 0 -> beta > 0 -> H >= 2 -> {formula(['>=', _N, _FROM])} ->"
_ENDS = [
    formula([">=", _LOW, _ZERO]),
    formula(["<=", _HIGH, _ONE]),
    formula([">", substitute(EXIT, {"rho": _ZERO}), _ZERO]),
    formula([">", _FROM, _ZERO]),
    *_relations(),
]
_ENDS_TEXT = " /\\\n  ".join(_ENDS)
_E = "(exp (alpha * beta))"
#: The lemmas (`hf_exp_le`, exp increasing, is `cuts.POWER`'s, which `source` adds where a lemma uses it).
LEMMAS = f"""Lemma hf_exit_n : forall alpha beta H n : R, {_GIVEN}
  1 < {_E} /\\ (n - 1) / H >= 4 * {_E} * {_E} /\\ 2 <= n.
Proof.
  intros alpha beta H n ha hb hH hn.
  assert (he : 1 < {_E}) by (apply exp_gt_1_iff; apply Rmult_lt_0_compat; lra).
  set (e := {_E}) in *.
  assert (hq : (n - 1) / H = (n - 1 - 4 * H * e * e) / H + 4 * e * e) by (field; lra).
  assert (h0 : 0 <= (n - 1 - 4 * H * e * e) / H) by (apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]).
  assert (1 < e * e) by nra. assert (2 <= H * (e * e)) by nra.
  repeat split; lra.
Qed.
Lemma hf_exit_concave : forall alpha beta H n rho : R, {_GIVEN} 0 <= rho ->
  0 <= (n - 1) * (n - 1) /\\
  0 <= (H - 1) * (((exp ((alpha * beta) * (1 - rho))) * (alpha * beta) - (n - 1)) *
    ((exp ((alpha * beta) * (1 - rho))) * (alpha * beta) - (n - 1))) /\\
  0 <= (H - 1) * (((exp ((alpha * beta) * (1 - rho))) + (n - 1) * rho) *
    ((exp ((alpha * beta) * (1 - rho))) * ((alpha * beta) * (alpha * beta)))).
Proof.
  intros alpha beta H n rho ha hb hH hn hr.
  destruct (hf_exit_n alpha beta H n ha hb hH hn) as [he [hq h2]].
  pose proof (exp_pos ((alpha * beta) * (1 - rho))).
  assert (hk : 0 < alpha * beta) by (apply Rmult_lt_0_compat; lra).
  set (E := exp ((alpha * beta) * (1 - rho))) in *. set (k := alpha * beta) in *.
  assert (hp : 0 <= (n - 1) * rho) by (apply Rmult_le_pos; lra).
  repeat split; [apply Rmult_le_pos; lra | apply Rmult_le_pos; [lra | apply Rle_0_sqr] | ].
  repeat apply Rmult_le_pos; lra.
Qed.
Lemma hf_exit_low : forall alpha beta H n : R, {_GIVEN}
  {formula(["<", _at(_LOW), _ZERO])}.
Proof.
  intros alpha beta H n ha hb hH hn.
  destruct (hf_exit_n alpha beta H n ha hb hH hn) as [he [hq h2]].
  set (a := {translated(_LOW, {})}).
  assert (ha0 : 0 < a) by (unfold a; apply Rmult_lt_0_compat; [nra | apply Rinv_0_lt_compat; nra]).
  assert (hE : 1 < exp ((alpha * beta) * (1 - (1 - a)))) by (apply exp_gt_1_iff; apply Rmult_lt_0_compat; nra).
  set (E := exp ((alpha * beta) * (1 - (1 - a)))) in *.
  assert (hX : (n - 1) * (1 - a) = (n - H) / H) by (unfold a; field; lra).
  assert (hm : (n - 1) * (1 - (1 - a)) = (H - 1) * (1 + (n - H) / H)) by (unfold a; field; lra).
  assert (hp : 0 < 1 + (n - H) / H) by (replace (1 + (n - H) / H) with (n / H) by (field; lra);
    apply Rmult_lt_0_compat; [lra | apply Rinv_0_lt_compat; lra]).
  rewrite hX, hm. set (X := (n - H) / H) in *. clearbody E X.
  assert (0 < (H - 1) * ((E - 1) * (E + 1 + 2 * X))) by (repeat apply Rmult_lt_0_compat; lra).
  lra.
Qed.
Lemma hf_exit_high : forall alpha beta H n : R, {_GIVEN}
  {formula([">", _at(_HIGH), _ZERO])}.
Proof.
  intros alpha beta H n ha hb hH hn.
  destruct (hf_exit_n alpha beta H n ha hb hH hn) as [he [hq h2]].
  set (e := {_E}) in *.
  set (r := {translated(_HIGH[2], {}).replace(_E, "e")}).
  set (q := (n - 1) / H) in *.
  assert (hqH : q * H = n - 1) by (unfold q; field; lra).
  assert (hee : e <= e * e) by nra.
  assert (hr : r = (q - 2 * e) / (n - 1)) by (unfold r, q; field; lra).
  assert (hr0 : 0 <= r) by (rewrite hr; apply Rmult_le_pos; [nra | left; apply Rinv_0_lt_compat; lra]).
  assert (hr1 : r <= 1) by (unfold r; assert (0 < (2 * e) / (n - 1)) by (apply Rmult_lt_0_compat;
    [lra | apply Rinv_0_lt_compat; lra]); assert (1 / H <= 1) by (unfold Rdiv; rewrite Rmult_1_l;
    rewrite <- Rinv_1; apply Rinv_le_contravar; lra); lra).
  assert (hk : 0 < alpha * beta) by (apply Rmult_lt_0_compat; lra).
  assert (hkr : 0 <= (alpha * beta) * r) by (apply Rmult_le_pos; lra).
  assert (hE1 : 1 <= exp ((alpha * beta) * (1 - (1 - (1 - r)))))
    by (pose proof (exp_ineq1_le ((alpha * beta) * (1 - (1 - (1 - r)))));
        assert (0 <= (alpha * beta) * (1 - (1 - (1 - r)))) by (apply Rmult_le_pos; lra); lra).
  assert (hEe : exp ((alpha * beta) * (1 - (1 - (1 - r)))) <= e) by (unfold e; apply hf_exp_le; lra).
  set (E := exp ((alpha * beta) * (1 - (1 - (1 - r))))) in *.
  assert (hm1 : (n - 1) * (1 - (1 - (1 - r))) = (H - 1) * q + 2 * e) by (unfold r, q; field; lra).
  assert (hm2 : (n - 1) * (1 - (1 - r)) = q - 2 * e) by (unfold r, q; field; lra).
  rewrite hm1, hm2. clearbody E q e.
  assert (f1 : 0 < (H - 1) * (q - e * e)) by (apply Rmult_lt_0_compat; nra).
  assert (f2 : 0 <= (H - 1) * ((e - E) * (2 * q - 3 * e + E))) by (repeat apply Rmult_le_pos; nra).
  assert (f3 : 0 < e * (1 + q - 2 * e)) by (apply Rmult_lt_0_compat; nra).
  lra.
Qed.
Lemma hf_exit_ends : forall alpha beta H n : R, {_GIVEN}
  {_ENDS_TEXT}.
Proof.
  intros alpha beta H n ha hb hH hn.
  destruct (hf_exit_n alpha beta H n ha hb hH hn) as [he [hq h2]].
  replace (exp ((alpha * beta) * (1 - 0))) with {_E} by (f_equal; ring).
  set (e := {_E}) in *. clearbody e.
  assert (0 < H * e) by nra. assert (2 * H * e <= 4 * H * e * e) by nra. assert (0 < H * e * e) by nra.
  repeat split.
  - apply Rle_ge, Rmult_le_pos; [nra | left; apply Rinv_0_lt_compat; nra].
  - {_ratio("- (n - 1 - 2 * H * e)", "H * (n - 1)")}
  - nra.
  - lra.
  - {_ratio("- (n * (H + 1) - 2 * H)", "H * n * (n - 1)")}
  - {_ratio("- ((H - 1) * n + 2 * H * (n - 1))", "H * n * (n - 1)")}
  - {_ratio("2 * e * (2 - n)", "n * (n - 1)")}
  - {_ratio("- (2 * e * n + 4 * e * (n - 1))", "n * (n - 1)")}
Qed.
"""
#: The lemmas at the statement's own alpha, beta, H and n, read off its hypothesis n >= N0.
_FACTS = (
    "match goal with h : ?n >= (1 + (4 * ?H * (exp (?a * ?b)) * _)) |- _ =>\n"
    "    pose proof (hf_exit_ends a b H n ltac:(lra) ltac:(lra) ltac:(lra) h);\n"
    "    {more}pose proof (hf_exit_n a b H n ltac:(lra) ltac:(lra) ltac:(lra) h) end."
)
_ENDS_SIGNS = (
    "pose proof (hf_exit_low a b H n ltac:(lra) ltac:(lra) ltac:(lra) h);\n"
    "    pose proof (hf_exit_high a b H n ltac:(lra) ltac:(lra) ltac:(lra) h);\n    "
)
_CONCAVE = "pose proof (hf_exit_concave a b H n rho ltac:(lra) ltac:(lra) ltac:(lra) h ltac:(lra));\n    "


def lemmas(_bracket: str = FORM) -> str:
    """The lemmas of an `exit-gap` file (`source`'s interface: a `reduced-time` file's depend on its attention)."""
    return LEMMAS


def proof(statement: UniversalStatement, _bracket: str = FORM) -> str | None:
    """The proof of a built statement (one with the hypothesis n >= N0): the lemmas' instances, then each conjunct
    by `lra` (a conjunct H <> 0 after `intro`); None for another (the point `at` in its domain: the generic proof)."""
    names = [name for group, _ in binders(statement) for name in group]
    if not {"alpha", "beta", "n"} <= set(names):
        return None
    intros = f"  intros {' '.join(names + [f'h{k}' for k in range(len(statement.hypotheses))])}."
    more = _CONCAVE if "rho" in names else _ENDS_SIGNS
    close = "repeat match goal with |- _ /\\ _ => split end; first [ lra | intro; lra ]."
    return f"{intros}\n  {_FACTS.format(more=more)}\n  {close}"
