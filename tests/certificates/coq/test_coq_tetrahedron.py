"""Coq re-checks the spectrum of an equilibrium at the regular tetrahedron, whose tokens (+-1, +-1, +-1)/sqrt 3 have
no rational coordinates (`model_tree._spectrum_problem`): the chain is folded exactly in Q(exp)(t), t = sqrt(1/3),
and the tangent Jacobian is read in the rational basis of `tangent_frame`, so the statement has t only in the
velocities (t times a rational-exponential term) and the Lyapunov matrix's conjunct none.

The genuine certificate of `tetrahedron-stable-repulsive` (usa, beta = -3, 5 stable directions) is re-checked by Coq
with its spectrum; changed counts are rejected (by check-cert, and by the kernel's inertia check of X when the
statement is built straight from the payload); an X of the wrong inertia is rejected, and one of the right inertia
(2 X: Q near 2 I) is not accepted by Coq.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.kernel.coq.model_tree import FROBENIUS, SPECTRUM, equilibrium_problem, tangent_frame
from headflow.certificates.kernel.exact_data import dot
from headflow.certificates.kernel.exprtree import parse_rational, rational_text
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.checks import cli, coq_files

from tests.coq_tier import needs_coqc
from tests.forging import forged_file

CLAIM = "tetrahedron-stable-repulsive"


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The equilibrium certificate `check` writes for the tetrahedron at beta = -3 (usa)."""
    out = tmp_path_factory.mktemp("tetrahedron")
    arguments = ["check", "examples/equilibria.toml", "--only", CLAIM, "--certificates", str(out)]
    assert cli.main([*arguments, "--format", "json", "--out", str(out / "report.json")]) in (0, 1)
    (path,) = out.glob(f"{CLAIM}.equilibrium.*.json")
    return path


def test_the_tetrahedron_has_a_statement_with_its_spectrum(written: Path) -> None:
    payload = json.loads(written.read_text())["payload"]
    centre, basis = tangent_frame([[parse_rational(v) for v in x] for x in payload["configuration"]["tokens"]])
    assert {dot(x, x) for x in centre} == {3} and len(basis) == 8  # (+-1, +-1, +-1): q = 3, n (d - 1) tangent
    assert check_file(written).ok and "lyapunov" in payload
    left, built = equilibrium_problem(payload)
    assert left == SPECTRUM and built.conditions[-1]["name"] == FROBENIUS
    velocities = [c["expression"] for c in built.conditions if c["name"] == "velocity"]
    assert len(velocities) == 12 and all(v[0] == "mul" and v[1] == ["sqrt", ["rat", "1/3"]] for v in velocities)


@needs_coqc
@pytest.mark.slow
def test_the_tetrahedron_spectrum_is_re_checked_by_coq(written: Path) -> None:
    checked = coq_files.check(written)
    assert checked.status == coq_files.RECHECKED, checked.message
    text = coq_files.coq_text(written)
    assert "(* M K_0, row 0 *)" in text and "sqrt (1 / 3)" in text and "xdot_0_0_odd" in text


def _stable_claimed_unstable(d: dict[str, Any]) -> None:
    for spectrum in (d["payload"]["spectrum"], d["statement"]["spectrum"]):
        spectrum.update(negative=spectrum["negative"] - 1, positive=spectrum["positive"] + 1)


def test_changed_counts_are_rejected(written: Path, tmp_path: Path) -> None:
    path = forged_file(written, tmp_path, _stable_claimed_unstable)
    assert coq_files.check(path).status == coq_files.REJECTED
    with pytest.raises(Rejected, match="inertia"):
        equilibrium_problem(json.loads(path.read_text())["payload"])


def _scaled(factor: int) -> Any:
    def edit(d: dict[str, Any]) -> None:
        d["payload"]["lyapunov"] = [
            [rational_text(factor * parse_rational(v)) for v in r] for r in d["payload"]["lyapunov"]
        ]

    return edit


def test_a_lyapunov_matrix_of_the_wrong_inertia_is_rejected(written: Path, tmp_path: Path) -> None:
    checked = coq_files.check(forged_file(written, tmp_path, _scaled(-1)))
    assert checked.status == coq_files.REJECTED and "inertia" in checked.message, checked.message


@needs_coqc
@pytest.mark.slow
def test_coq_does_not_accept_a_lyapunov_matrix_whose_q_is_far_from_i(written: Path, tmp_path: Path) -> None:
    path = forged_file(written, tmp_path, _scaled(2))  # the right inertia; Q = 2 Q_genuine, |Q - I|_F about sqrt 8
    assert check_file(path).ok  # check-cert does not read X: only the Coq file's statement does
    assert coq_files.check(path).status == coq_files.UNPROVED
