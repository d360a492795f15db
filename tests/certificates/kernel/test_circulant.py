"""The `circulant` form: the spectrum of equally spaced tokens on the circle, re-derived by the kernel.

The kernel writes each eigenvalue mu_m of the angles' circulant Jacobian as a tree of cosines and exponentials and
signs it by balls; the SymPy route (`identities.circle_spectrum`) differentiates the phase form itself: the two must
agree. Worked by hand for the repulsive triangle (usa, one head lambda = 1, n = 3, C_1 = C_2 = -1/2): r_1 = r_2 =
(1/3) e^(-beta/2)(-1/2 - 3 beta/4), mu_1 = mu_2 = -3 r_1, so the triangle is stable exactly when -1/2 - 3 beta/4 > 0,
beta < -2/3: stable at beta = -1, unstable at -13/20, and at -2/3 the eigenvalue is exactly 0 (no ball settles it:
no certificate). Attacks: the counts swapped, the payload's counts not the statement's, a beta edited (the file's claim
then elaborates another statement), the threshold itself, relu weights, sizes past the form's.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.evaluation import ball
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel import circulant
from headflow.certificates.kernel.exprtree import evaluate
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.checks.rechecks import recheck
from headflow.checks.verdicts import Verdict
from headflow.identities import circle_spectrum
from headflow.identities.derivation import Derivation

from tests.checking import decided_claims
from tests.coq_tier import needs_coqc
from tests.forging import forged_file
from tests.soundness.test_boundary_attacks import triangle

CLAIMS = triangle("stable", "-1", '["usa", "softmax"]') + triangle("above-threshold", '"-13/20"')


def _statement(n: int, kind: str, beta: str, strengths: list[str], spectrum: Any = None) -> dict[str, Any]:
    fields = {"form": "circulant", "claim": "c", "attention": kind, "n": n, "beta": beta, "strengths": strengths}
    return fields | {"spectrum": spectrum}


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("kind", ["usa", "softmax"])
def test_the_kernels_eigenvalues_are_the_differentiated_phase_forms(n: int, kind: str) -> None:
    for beta, strengths in ((Fraction(-1), [Fraction(1)]), (Fraction(2), [Fraction(1), Fraction(1, 2)])):
        stated = _statement(n, kind, str(beta), [str(s) for s in strengths])
        mine = [evaluate(mu, {}) for mu in circulant.eigenvalues(stated)]
        theirs = [ball(v, {}, 128) for v in circle_spectrum.real_parts(Derivation(), n, kind, strengths, beta)]
        assert len(mine) == len(theirs) == n - 1
        assert all(
            abs(float((a - b).mid())) < 1e-12 * (1 + abs(float(b.mid()))) for a, b in zip(mine, theirs, strict=True)
        )


def test_the_triangle_by_hand() -> None:
    for beta, sign in (("-1", -1), ("-13/20", 1)):
        b = Fraction(beta)
        stated = _statement(3, "usa", beta, ["1"])
        by_hand = -3 * (Fraction(1, 3) * (Fraction(-1, 2) - 3 * b / 4))  # times e^(-beta/2) > 0
        values = [v for _, v in circulant.signed(stated, "c")]
        assert all((v > 0) == (sign > 0) and (v < 0) == (sign < 0) for v in values)
        assert (by_hand > 0) == (sign > 0)
    with pytest.raises(Rejected, match="holds 0"):  # the threshold: mu is exactly 0
        circulant.signed(_statement(3, "usa", "-2/3", ["1"]), "c")


@pytest.fixture(scope="module")
def certified(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    folder = tmp_path_factory.mktemp("circulant")
    return decided_claims(CLAIMS, folder), folder


def test_a_stable_triangle_is_proved_and_a_wrong_threshold_refuted_each_with_certificates(certified: Any) -> None:
    claims, _ = certified
    assert claims["stable"].verdict is Verdict.PROVED
    assert claims["above-threshold"].verdict is Verdict.REFUTED
    user = {claim.id: claim for claim in parse_claims(CLAIMS)}
    for claim_id, count in (("stable", 2), ("above-threshold", 1)):  # usa and softmax; the refuting instance
        paths = [Path(p) for p in claims[claim_id].certificates]
        assert len(paths) == count and all(".circulant." in p.name for p in paths)
        for path in paths:
            assert check_file(path).ok
            assert recheck(path, claims=user, read_claim=True).ok
    stated = json.loads(Path(claims["above-threshold"].certificates[0]).read_text())["statement"]
    assert stated["spectrum"] == {"zeros": 1, "negative": 0, "positive": 2}


EDITS = {
    "counts swapped": lambda c: c["statement"].update(spectrum={"zeros": 1, "negative": 2, "positive": 0}),
    "payload's counts": lambda c: c["payload"].update(spectrum={"zeros": 1, "negative": 2, "positive": 0}),
    "the threshold": lambda c: c["statement"].update(beta="-2/3"),
    "relu": lambda c: c["statement"].update(attention="relu"),
    "one token": lambda c: c["statement"].update(n=1),
    "too many tokens": lambda c: c["statement"].update(n=65),
    "no strengths": lambda c: c["statement"].update(strengths=[]),
    "a float beta": lambda c: c["statement"].update(beta=-0.65),
    "another kind": lambda c: c.update(kind="equilibrium"),
}


@pytest.mark.parametrize("name", EDITS)
def test_forged_certificates_are_rejected(certified: Any, tmp_path: Path, name: str) -> None:
    claims, _ = certified
    source = Path(claims["above-threshold"].certificates[0])
    assert not check_file(forged_file(source, tmp_path, EDITS[name])).ok


def test_a_certificate_of_another_beta_is_not_the_files_claim(certified: Any, tmp_path: Path) -> None:
    """Both counts edited to a consistent stable spectrum at beta = -1: the kernel accepts it (it is true there), and
    `check-cert --claims` refuses it, since the file's claim is about beta = -13/20."""
    claims, _ = certified
    source = Path(claims["above-threshold"].certificates[0])
    stable = {"zeros": 1, "negative": 2, "positive": 0}

    def edit(c: dict[str, Any]) -> None:
        c["statement"].update(beta="-1", spectrum=stable)
        c["payload"].update(spectrum=stable)

    path = forged_file(source, tmp_path, edit)
    assert check_file(path).ok
    user = {claim.id: claim for claim in parse_claims(CLAIMS)}
    assert not recheck(path, claims=user, read_claim=True).ok


@needs_coqc
def test_coq_re_checks_each_eigenvalues_sign(certified: Any) -> None:
    claims, _ = certified
    for claim_id in ("stable", "above-threshold"):
        for path in claims[claim_id].certificates:
            rechecked = recheck(Path(path), coq=True)
            assert rechecked.ok and rechecked.coq is not None and not rechecked.coq_missing, rechecked.coq_missing
