"""Coq re-checks the spectrum of an equilibrium certificate at its exact centre (tokens +-e_k, no Krawczyk point):
besides the zero velocity, the tangent Jacobian M (the kernel's symbolic derivatives of the model chain) kills the
orbit directions K, and Q = M'^T X + X M' (M' = M - K K^T, X the writer's Lyapunov matrix) has |Q - I|_F < 1; the
kernel checks X's inertia (the counts' negative + zeros, positive) exactly before it writes the statement.

A genuine certificate (usa cluster; softmax 2 + 1 split, whose Jacobian is not symmetric) is re-checked by Coq with
its spectrum (RECHECKED); without its Lyapunov matrix it stays PARTIAL; changed counts are rejected (by check-cert, and
by the kernel's inertia check of X when the statement is built straight from a payload); an X of the wrong inertia is
rejected, one of the right inertia with Q indefinite is not accepted by Coq, and a statement that contradicts the
file's own conjunct is refuted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.coq.model_tree import FROBENIUS, SPECTRUM, SPECTRUM_LEFT, equilibrium_problem
from headflow.certificates.kernel.coq.statements import guard
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.checks import cli, coq_files

from tests.coq_tier import needs_coqc
from tests.forging import forged_file

#: The tokens of the two smallest exact centres (n = 3 in R^2): a cluster and the 2 + 1 split.
CLUSTER = [["1", "0"], ["1", "0"], ["1", "0"]]
SPLIT = [["1", "0"], ["1", "0"], ["-1", "0"]]


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    """The equilibrium certificates `verify` writes for critical-points at n = 3 tokens in R^2, by (kind, tokens)."""
    out = tmp_path_factory.mktemp("spectra")
    assert cli.main(["verify", "--only", "critical-points", "--certificates", str(out)]) in (0, 1)
    found = {}
    for path in sorted(out.glob("*.json")):
        payload = json.loads(path.read_text())["payload"]
        tokens = payload.get("configuration", {}).get("tokens")
        if tokens in (CLUSTER, SPLIT):
            found[payload["configuration"]["attention"], "cluster" if tokens == CLUSTER else "split"] = path
    assert {("usa", "cluster"), ("softmax", "split")} <= set(found)
    assert all("lyapunov" in json.loads(p.read_text())["payload"] for p in found.values())
    return found


@needs_coqc
@pytest.mark.parametrize("which", [("usa", "cluster"), ("softmax", "split")])
def test_the_spectrum_is_re_checked_by_coq(which: tuple[str, str], written: dict[tuple[str, str], Path]) -> None:
    checked = coq_files.check(written[which])
    assert checked.status == coq_files.RECHECKED, checked.message
    text = coq_files.coq_text(written[which])
    assert SPECTRUM in text and SPECTRUM_LEFT not in text
    assert "(* M K_0, row 0 *)" in text and "D0_xdot_" in text and FROBENIUS[:40] in text


def _without_lyapunov(d: dict[str, Any]) -> None:
    del d["payload"]["lyapunov"]


@needs_coqc
def test_an_old_certificate_without_lyapunov_data_stays_partial(
    written: dict[tuple[str, str], Path], tmp_path: Path
) -> None:
    path = forged_file(written["usa", "cluster"], tmp_path, _without_lyapunov)
    checked = coq_files.check(path)
    assert checked.status == coq_files.PARTIAL, checked.message
    assert SPECTRUM_LEFT in coq_files.coq_text(path)


def _stable_claimed_unstable(d: dict[str, Any]) -> None:
    for spectrum in (d["payload"]["spectrum"], d["statement"]["spectrum"]):
        spectrum.update(negative=spectrum["negative"] - 1, positive=spectrum["positive"] + 1)


def test_changed_counts_are_rejected(written: dict[tuple[str, str], Path], tmp_path: Path) -> None:
    """One stable direction claimed unstable: check-cert rejects the file; a statement built straight from the
    payload (past check-cert) is refused by the kernel's inertia check of X."""
    path = forged_file(written["softmax", "split"], tmp_path, _stable_claimed_unstable)
    assert coq_files.check(path).status == coq_files.REJECTED
    payload = json.loads(path.read_text())["payload"]
    with pytest.raises(Rejected, match="inertia"):
        equilibrium_problem(payload)


def _negated(d: dict[str, Any]) -> None:
    """X -> -X: the inertia is swapped (for the split: 1 negative, 2 positive instead of 2 and 1)."""
    d["payload"]["lyapunov"] = [
        [v[1:] if v.startswith("-") else f"-{v}" for v in row] for row in d["payload"]["lyapunov"]
    ]


def test_a_lyapunov_matrix_of_the_wrong_inertia_is_rejected(
    written: dict[tuple[str, str], Path], tmp_path: Path
) -> None:
    checked = coq_files.check(forged_file(written["softmax", "split"], tmp_path, _negated))
    assert checked.status == coq_files.REJECTED and "inertia" in checked.message, checked.message


def _signs(d: dict[str, Any]) -> None:
    """X -> diag(-1, -1, 1): the right inertia (2 negative, 1 positive), but at the split Q = M'^T X + X M' has the
    eigenvalues about -1.15, 2.44, 3.72 (floats): not positive definite."""
    d["payload"]["lyapunov"] = [["-1", "0", "0"], ["0", "-1", "0"], ["0", "0", "1"]]


@needs_coqc
def test_coq_does_not_accept_a_lyapunov_matrix_whose_q_is_indefinite(
    written: dict[tuple[str, str], Path], tmp_path: Path
) -> None:
    path = forged_file(written["softmax", "split"], tmp_path, _signs)
    assert check_file(path).ok  # check-cert does not read X: only the Coq file's statement does
    checked = coq_files.check(path)
    assert checked.status == coq_files.UNPROVED, checked.message


@needs_coqc
def test_a_wrong_spectrum_statement_is_refuted(written: dict[tuple[str, str], Path]) -> None:
    """The genuine file's statement with its last conjunct reversed (1 - |Q - I|_F^2 < 0): coqc refuses it."""
    path = written["usa", "cluster"]
    sentence, built = problem(check_file(path))
    conditions = [*built.conditions[:-1], built.conditions[-1] | {"relation": "<"}]
    flipped = built._replace(conditions=conditions)
    text = source(path.name, "critical-points", sentence, flipped)
    assert run.compile_source(text, **guard(path.name, "critical-points", sentence, flipped)).status == "rejected"
