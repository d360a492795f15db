"""Coq re-checks a `limit` certificate (`certificates.kernel.limits`): each built relation |h - L| <= C e(v) is a
Theorem over the variables' domain, proved by the prelude's `hf_cleared` (the difference over one denominator,
field_simplify, its sign by nra) with the power cuts' facts (`certificates.coq.cuts.POWER`) where a power is symbolic.

Worked by hand: n/(2n - 1) - 1/2 = 1/(2 (2n - 1)) <= 1/n for n >= 2; n^g/(n^g + n - 1) -> 1 for g in [2, 3], since
1 - h = (n - 1)/(n^g + n - 1) <= 1/n once n^g >= n^2 (exp(g ln n) >= exp(ln n)^2, the power cut 1 * g ln n <= 2 ln n
read backwards); the wrong limit 1 refuted by n/(2n - 1) - 1 -> 1/2 - 1 < 0. A relation the certificate does not
prove (the coefficient 1/4: 1/(2 (2n - 1)) > 1/(4n)) is not proved by coqc either.
"""

from __future__ import annotations

from pathlib import Path

from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.limits import certify
from headflow.checks import coq_files

from tests.certificates.kernel.test_limit_statements import CRITICAL, FROZEN, SUPERCRITICAL
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
