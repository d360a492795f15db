"""Coq re-checks equilibrium certificates at their centre: every velocity coordinate is exactly 0 (`ring` over the
model chain's definitions, exp and inverses as atoms); the spectrum stays check-cert's (the header says so).

A genuine single-cluster certificate compiles; a forged one (a token moved, the index changed) is not accepted; the
Coq proof of a configuration that moves does not go through; an equilibrium in a Krawczyk box has no Coq statement.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.model_tree import SPECTRUM_LEFT, equilibrium_problem
from headflow.certificates.kernel.coq.statements import NotTranslatable, guard
from headflow.checks import cli, coq_files

from tests.forging import forged_file

needs_coq = pytest.mark.skipif(run.coqc() is None, reason="coqc is not installed (apt-get install coq libcoq-interval)")


@pytest.fixture(scope="module")
def clusters(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The single-cluster certificates `verify` writes, by kind, at n = 3 tokens in R^2."""
    out = tmp_path_factory.mktemp("equilibria")
    assert cli.main(["verify", "--only", "critical-points.cluster-stable", "--certificates", str(out)]) in (0, 1)
    found = {}
    for path in sorted(out.glob("*.json")):
        payload = json.loads(path.read_text())["payload"]
        cfg = payload["configuration"]
        if len(cfg["tokens"]) == 3 and len(cfg["tokens"][0]) == 2:
            found[cfg["attention"]] = path
    assert set(found) == {"usa", "softmax"}
    return found


@needs_coq
@pytest.mark.parametrize("kind", ["usa", "softmax"])
def test_a_single_cluster_is_re_checked_by_coq(kind: str, clusters: dict[str, Path]) -> None:
    checked = coq_files.check(clusters[kind])
    assert checked.status == coq_files.RECHECKED, checked.message
    text = coq_files.coq_text(clusters[kind])
    assert SPECTRUM_LEFT in text
    assert "(* velocity *) xdot_0_0 = 0 /\\" in text


def _token_moved(d: dict[str, Any]) -> None:
    d["payload"]["configuration"]["tokens"][1] = ["3/5", "4/5"]


def _index_changed(d: dict[str, Any]) -> None:
    for spectrum in (d["payload"]["spectrum"], d["statement"]["spectrum"]):
        spectrum.update(negative=spectrum["negative"] - 1, positive=spectrum["positive"] + 1)


@pytest.mark.parametrize("edit", [_token_moved, _index_changed])
def test_a_forged_cluster_is_not_accepted(edit: Any, clusters: dict[str, Path], tmp_path: Path) -> None:
    checked = coq_files.check(forged_file(clusters["usa"], tmp_path, edit))
    assert checked.status == coq_files.REJECTED, checked.message


@needs_coq
def test_coq_does_not_prove_a_moving_configuration_at_rest(clusters: dict[str, Path]) -> None:
    """The statement written for tokens that move (past check-cert, which would refuse them): coqc rejects it."""
    payload = json.loads(clusters["usa"].read_text())["payload"]
    payload["configuration"]["tokens"][1] = ["3/5", "4/5"]
    problem = equilibrium_problem(payload)
    text = source("moving", "critical-points.cluster-stable", "moving", problem)
    answer = run.compile_source(text, **guard("moving", "critical-points.cluster-stable", "moving", problem))
    assert answer.status == "rejected", answer.message


def test_an_equilibrium_in_a_krawczyk_box_has_no_coq_statement(clusters: dict[str, Path]) -> None:
    payload = json.loads(clusters["usa"].read_text())["payload"]
    with pytest.raises(NotTranslatable):
        equilibrium_problem(payload | {"point": ["0"]})
    payload["configuration"]["tokens"][0] = ["3/4", "0"]  # not unit
    with pytest.raises(NotTranslatable):
        equilibrium_problem(payload)
