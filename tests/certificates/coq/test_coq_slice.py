"""Coq re-checks an equilibrium certified in the Krawczyk box of a one-dimensional symmetry slice, where the
equilibrium has no exact coordinates (`model_tree._slice_frame`): the chain is a function of the chart's variable z,
the Theorem states psi's sign change at the box's ends and |Q(z) - I|_F < 1 at every z of the box.

The stored certificate is the equilateral triangle that `critical-points` finds at n = 3, d = 2 (softmax, heads
lambda = (1, 1/2), beta = 1; its two unstable directions): its tokens (-1/2, +-sqrt(3)/2) have no rational
coordinates, so the centre is a dyadic rounding and the equilibrium lies in a box of radius 2^-30 around it. Attacks:
a box moved off the root (check-cert's Krawczyk test refuses it; Coq does not prove the sign change of the statement
built from it), an X of the wrong inertia (the kernel refuses to state it), and 2 X (the right inertia, Q far from I:
Coq does not prove it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.model_tree import FROBENIUS, SLICED, equilibrium_problem
from headflow.certificates.kernel.coq.statements import SLICE, SliceProblem, statements
from headflow.certificates.kernel.exprtree import parse_rational, rational_text
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.checks import coq_files

from tests.certificates.coq.test_coq_tetrahedron import _scaled
from tests.coq_tier import needs_coqc
from tests.forging import forged_file

STORED = Path(__file__).parents[2] / "data" / "equilibrium_slice_triangle.json"
#: The same triangle in R^3 (usa): its third coordinates are 0 and stay 0 along the slice.
STORED_3D = STORED.with_name("equilibrium_slice_triangle_3d.json")


@pytest.fixture
def written(tmp_path: Path) -> Path:
    path = tmp_path / STORED.name
    path.write_text(STORED.read_text())
    return path


def _payload(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())["payload"]


def test_the_slice_statement_is_a_function_of_the_chart_variable(written: Path) -> None:
    assert check_file(written).ok
    left, built = equilibrium_problem(_payload(written))
    assert left == SLICED and isinstance(built, SliceProblem)
    z0, radius = parse_rational(_payload(written)["point"][0]), parse_rational(_payload(written)["radius"])
    assert (built.low, built.high) == (z0 - radius, z0 + radius)
    *defined, (_, theorem) = statements("t", built)
    assert all(text.startswith(f"Definition {name} ({SLICE} : R) : R := ") for name, text in defined)
    assert f"chart_psi ({rational_text(z0 - radius).replace('/', ' / ')})" in theorem
    assert f"forall {SLICE} : R," in theorem and FROBENIUS[:20] in theorem
    assert "(chart_norm_1 z_slice) <> 0" in theorem  # the chart's definedness, over the box


def test_coordinates_the_slice_keeps_at_zero_are_numbers() -> None:
    """Tokens in a plane of R^3: the chart's third coordinates are the number 0 (no definition), the fixed token's
    coordinates numbers, and K has the three orbit directions of so(3)."""
    payload = json.loads(STORED_3D.read_text())["payload"]
    _, built = equilibrium_problem(payload)
    names = {name for name, _ in built.definitions}
    assert {"x_1_0", "x_1_1", "x_2_0", "x_2_1"} <= names and not names & {"x_0_0", "x_0_2", "x_1_2", "x_2_2"}
    assert len(payload["orbit"]) == 3 and not any(name.startswith("chart_norm_0") for name in names)


@needs_coqc
def test_the_slice_spectrum_is_re_checked_by_coq(written: Path) -> None:
    checked = coq_files.check(written)
    assert checked.status == coq_files.RECHECKED, checked.message


def _moved(d: dict[str, Any]) -> None:
    """The box moved by four radii: the root is outside it."""
    point, radius = parse_rational(d["payload"]["point"][0]), parse_rational(d["payload"]["radius"])
    d["payload"]["point"] = [rational_text(point + 4 * radius)]


def test_a_box_moved_off_the_root_is_refused_by_check_cert(written: Path, tmp_path: Path) -> None:
    assert not check_file(forged_file(written, tmp_path, _moved)).ok


@needs_coqc
def test_coq_does_not_prove_the_sign_change_of_a_box_off_the_root(written: Path, tmp_path: Path) -> None:
    payload = _payload(forged_file(written, tmp_path, _moved))
    _, built = equilibrium_problem(payload)  # the statement built straight from the payload, check-cert bypassed
    assert run.compile_source(source("t", "moved", "s", built)).status != "accepted"


def test_a_lyapunov_matrix_of_the_wrong_inertia_is_not_stated(written: Path, tmp_path: Path) -> None:
    with pytest.raises(Rejected, match="inertia"):
        equilibrium_problem(_payload(forged_file(written, tmp_path, _scaled(-1))))


@needs_coqc
@pytest.mark.slow
def test_coq_does_not_accept_a_lyapunov_matrix_whose_q_is_far_from_i(written: Path, tmp_path: Path) -> None:
    path = forged_file(written, tmp_path, _scaled(2))  # the right inertia; Q = 2 Q_genuine, |Q - I|_F about sqrt 3
    assert check_file(path).ok  # check-cert does not read X: only the Coq file's statement does
    assert coq_files.check(path).status == coq_files.UNPROVED
