"""Coq re-checks a `limit` certificate (`certificates.kernel.limits`): each built relation |h - L| <= C e(v) is a
Theorem over the variables' domain, proved by the prelude's `hf_cleared` (the difference over one denominator,
field_simplify, its sign by nra) with the power cuts' facts (`certificates.coq.cuts.POWER`) where a power is symbolic.

Worked by hand: n/(2n - 1) - 1/2 = 1/(2 (2n - 1)) <= 1/n for n >= 2; n^g/(n^g + n - 1) -> 1 for g in [2, 3], since
1 - h = (n - 1)/(n^g + n - 1) <= 1/n once n^g >= n^2 (exp(g ln n) >= exp(ln n)^2, the power cut 1 * g ln n <= 2 ln n
read backwards); n rate(lam, n, beta) -> 2 lam with error 4 lam e^(beta lam)/n, whose cleared numerator
-2 lam (3 n E - n + 2 E^2 - 2 E) (E = e^(beta lam) > 1) is a product nra does not find (`certificates.coq.factored`:
each factor's sign, then the products two at a time); the wrong limit 1 refuted by n/(2n - 1) - 1 -> 1/2 - 1 < 0.
A relation the certificate does not prove (the coefficient 1/4: 1/(2 (2n - 1)) > 1/(4n)) is not proved by coqc
either.
"""

from __future__ import annotations

from pathlib import Path

from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.coq import logs
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.coq.statements import PRELUDE
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.limits import certify
from headflow.checks import coq_files

from tests.certificates.kernel.test_limit_statements import CRITICAL, FROZEN, GROWING, RATE, SUPERCRITICAL
from tests.certificates.kernel.test_log_of_products import RELU_TIME
from tests.coq_tier import module_needs_coqc

pytestmark = module_needs_coqc("Coq tests of the limit form")


def _certificate(tmp_path: Path, text: str, holds: bool = True, limit: str | None = None) -> Path:
    (claim,) = parse_claims(text)
    path = certify(claim, holds, limit, tmp_path)
    assert path is not None
    return path


def test_the_critical_weight_is_re_checked_by_coq(tmp_path: Path) -> None:
    path = _certificate(tmp_path, CRITICAL.replace("{limit}", "1/2"))
    checked = coq_files.check(path)
    assert checked.status == coq_files.RECHECKED, checked.message
    text = coq_files.coq_text(path)
    assert "Theorem claim_critical_0" in text and "Theorem claim_critical_1" in text


def test_a_shrunk_coefficient_is_not_proved_by_coq(tmp_path: Path) -> None:
    """The first relation with C = 1/4 instead of 1: false at every n >= 2, so coqc refuses the same proof script."""
    path = _certificate(tmp_path, CRITICAL.replace("{limit}", "1/2"))
    sentence, built = problem(check_file(path))
    first = built[0]
    op, lhs, (_, coefficient, scale) = first.goal[-1]
    assert coefficient == ["rat", "1"]
    shrunk = first._replace(goal=[*first.goal[:-1], [op, lhs, ["mul", ["rat", "1/4"], scale]]])
    assert run.compile_source(source(path.name, "critical", sentence, [shrunk])).status == "rejected"
    assert run.compile_source(source(path.name, "critical", sentence, [first])).status == "accepted"


def test_the_wrong_limit_refuted_is_re_checked_by_coq(tmp_path: Path) -> None:
    path = _certificate(tmp_path, CRITICAL.replace("{limit}", "1"), holds=False, limit="1/2")
    checked = coq_files.check(path)
    assert checked.status == coq_files.RECHECKED, checked.message
    assert "Theorem claim_critical_2" in coq_files.coq_text(path)  # the sign of 1/2 - 1


def test_a_symbolic_power_is_re_checked_by_coq_with_its_power_cuts(tmp_path: Path) -> None:
    path = _certificate(tmp_path, SUPERCRITICAL)
    checked = coq_files.check(path)
    assert checked.status == coq_files.RECHECKED, checked.message
    text = coq_files.coq_text(path)
    assert "(exp (gamma * (ln (IZR n))))" in text and "(IZR n) > 0" in text  # n^gamma where n > 0
    assert "Lemma hf_power_le" in text and "apply hf_power_le" in text


def test_a_tree_rate_is_re_checked_by_coq(tmp_path: Path) -> None:
    """(e^(lam beta) + n - 1)/e^(lam beta) -> 1 with n e^(-lam beta): e^(lam beta) e^(-(lam beta)) = 1 is posed for
    the pair of atoms whose arguments sum to 0 by ring, and lam > 0 is the third Theorem."""
    path = _certificate(tmp_path, FROZEN, limit="1")
    checked = coq_files.check(path)
    assert checked.status == coq_files.RECHECKED, checked.message
    assert "Theorem claim_frozen_2" in coq_files.coq_text(path)


def test_a_product_of_three_factors_is_re_checked_by_coq(tmp_path: Path) -> None:
    """rate(lam, n, beta) is not o(1/n): n rate -> 2 lam, whose relations nra alone does not prove (it multiplies two
    hypotheses at a time, the numerator is lam times a factor whose sign takes a product itself)."""
    path = _certificate(tmp_path, RATE.replace("{order}", "o(1/n)"), holds=False, limit="2*lam")
    checked = coq_files.check(path)
    assert checked.status == coq_files.RECHECKED, checked.message
    text = coq_files.coq_text(path)
    assert "assert (hs0 : 0 <= lam) by hf_decide" in text and "by (clear - hs0 hs1; nra)" in text


def test_a_factor_given_the_wrong_sign_is_not_proved_by_coq(tmp_path: Path) -> None:
    """The factored proof with one factor's sign flipped (lam <= 0 asserted) is rejected; so is the second relation
    (2 lam - n Q <= C e) with its error shrunk to a quarter, false at lam = 1, n = 10, e^beta = 3
    (2 (E - 1) n > E (n - 1 + E)), by the proof written for it."""
    path = _certificate(tmp_path, RATE.replace("{order}", "o(1/n)"), holds=False, limit="2*lam")
    text = coq_files.coq_text(path)
    forged = text.replace("assert (hs0 : 0 <= lam) by hf_decide", "assert (hs0 : lam <= 0) by hf_decide")
    assert forged != text
    assert run.compile_source(forged).status == "rejected"
    sentence, built = problem(check_file(path))
    second = built[1]
    op, lhs, (_, coefficient, scale) = second.goal[-1]
    shrunk = second._replace(goal=[*second.goal[:-1], [op, lhs, ["mul", ["rat", "1/4"], coefficient, scale]]])
    assert run.compile_source(source(path.name, "rate", sentence, [shrunk])).status == "rejected"
    assert run.compile_source(source(path.name, "rate", sentence, [second])).status == "accepted"


def test_an_unbounded_ratio_is_re_checked_by_coq(tmp_path: Path) -> None:
    """n^2/(n + 1) is not O(1): Coq states the reciprocal's relations, (n + 1)/n^2 <= 2/n, with n^2/(n + 1) <> 0 (the
    built condition: Coq's division is total, 1/0 = 0)."""
    path = _certificate(tmp_path, GROWING.replace("{order}", "O(1)"), holds=False, limit="oo")
    checked = coq_files.check(path)
    assert checked.status == coq_files.RECHECKED, checked.message
    assert "~ (((((IZR n) * (IZR n)) / ((IZR n) + 1)) / 1) = 0)" in coq_files.coq_text(path)


def test_exponentials_with_rational_ratios_share_one_atom(tmp_path: Path) -> None:
    """(e^(lam beta) + n - 1)/(2 lam) is not O(e^(lam beta / 2)): the reciprocal 2 lam e^(lam beta / 2)/(e^(lam beta)
    + n - 1) <= 2 lam e^(-lam beta / 2) needs e^(lam beta) = (e^(lam beta / 2))^2, which the factored proof writes by
    rewriting each exponential as a power of exp((lam * beta) / 2)."""
    text = FROZEN.replace('order = "~ exp(lam * beta) / (2 * lam)"', 'order = "O(exp(lam * beta / 2))"')
    path = _certificate(tmp_path, text, holds=False, limit="oo")
    checked = coq_files.check(path)
    assert checked.status == coq_files.RECHECKED, checked.message
    assert "hf_exp_pow" in coq_files.coq_text(path)


def test_a_log_scale_limit_is_re_checked_by_coq_with_its_logarithms_split(tmp_path: Path) -> None:
    """T25's first-order relu time over n log d/(4 lam^2 beta) -> 1 as d -> oo: the proof poses ln (rho1 * sqrt d) = 1 *
    ln rho1 + 1/2 * ln d (`certificates.coq.logs`), which the split's proof shows; a wrong split (ln d for 1/2 ln d:
    rho1 sqrt d is not rho1 d) it does not."""
    path = _certificate(tmp_path, RELU_TIME.replace("{k}", "4"), limit="1")
    checked = coq_files.check(path)
    assert checked.status == coq_files.RECHECKED, checked.message
    assert "(h : ln (rho1 * (sqrt d)) = 1 * (ln rho1) + (1 / 2) * (ln d))" in coq_files.coq_text(path)
    lemma = "Lemma split : forall rho1 d : R, 0 < rho1 -> 0 < d -> ln (rho1 * sqrt d) = 1 * ln rho1 + {} * ln d."
    for coefficient, status in (("1 / 2", "accepted"), ("1", "rejected")):
        text = f"{PRELUDE}{logs.LEMMAS}{lemma.format(coefficient)}\nProof. intros. {logs.PROOF}. Qed.\n"
        assert run.compile_source(text).status == status
