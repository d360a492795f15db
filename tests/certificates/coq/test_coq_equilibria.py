"""Coq re-checks equilibrium certificates at their centre: every velocity coordinate is exactly 0 (`ring` over the
model chain's definitions, exp and inverses as atoms); with the writer's Lyapunov matrix the spectrum too
(`test_coq_spectrum`), without it the spectrum stays check-cert's (the header says so).

A genuine single-cluster certificate compiles; a forged one (a token moved, the index changed) is not accepted; the
Coq proof of a configuration that moves does not go through; an equilibrium in a Krawczyk box has no Coq statement
unless its slice has dimension 1 and the payload a Lyapunov matrix (`test_coq_slice`).
A witness that a configuration moves states its moving token's squared tangent speed > 0, which coqc proves.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.coq.model_tree import SPECTRUM, equilibrium_problem
from headflow.certificates.kernel.coq.statements import NotTranslatable, guard
from headflow.certificates.kernel.verify import check_file
from headflow.checks import cli, coq_files

from tests.coq_tier import needs_coqc
from tests.forging import forged_file
from tests.sample_claims import EXAMPLES, certificates_of, claims_of


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The single-cluster certificates `verify` writes."""
    out = tmp_path_factory.mktemp("equilibria")
    assert cli.main(["verify", "--only", "critical-points.cluster-stable", "--certificates", str(out)]) in (0, 1)
    return sorted(out.glob("*.json"))


def _configuration(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())["payload"]["configuration"]


@pytest.fixture(scope="module")
def clusters(written: list[Path]) -> dict[str, Path]:
    """The single-cluster certificates at n = 3 tokens in R^2, by kind."""
    found = {_configuration(p)["attention"]: p for p in written if _configuration(p)["tokens"] == [["1", "0"]] * 3}
    assert set(found) == {"usa", "softmax"}
    return found


@needs_coqc
@pytest.mark.parametrize("kind", ["usa", pytest.param("softmax", marks=pytest.mark.slow)])
def test_a_single_cluster_is_re_checked_by_coq(kind: str, clusters: dict[str, Path]) -> None:
    checked = coq_files.check(clusters[kind])
    assert checked.status == coq_files.RECHECKED, checked.message  # the spectrum with it (the Lyapunov matrix)
    text = coq_files.coq_text(clusters[kind])
    assert SPECTRUM in text
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


FRAME = [["1", "0"], ["0", "1"], ["-1", "0"], ["0", "-1"]]  # an equilibrium (its cancellations need `field`)
MOVING = [["1", "0"], ["3/5", "4/5"], ["1", "0"], ["1", "0"]]


@needs_coqc
@pytest.mark.parametrize(
    ("tokens", "status"), [pytest.param(FRAME, "accepted", marks=pytest.mark.slow), (MOVING, "rejected")]
)
def test_coq_proves_the_zero_velocity_only_at_rest(tokens: list[list[str]], status: str, written: list[Path]) -> None:
    """The statement written straight from a payload at other tokens (past check-cert, whose symmetries would not
    fit them): coqc proves the velocity of the frame e_1, e_2, -e_1, -e_2 zero, and not that of tokens that move."""
    usa = (
        p
        for p in written
        if _configuration(p)["attention"] == "usa" and _configuration(p)["tokens"] == [["1", "0"]] * 4
    )
    payload = json.loads(next(usa).read_text())["payload"]
    payload["configuration"]["tokens"] = tokens
    del payload["lyapunov"]  # the zero velocity alone
    problem = equilibrium_problem(payload)[1]
    text = source("tokens", "critical-points.cluster-stable", "tokens", problem)
    answer = run.compile_source(text, **guard("tokens", "critical-points.cluster-stable", "tokens", problem))
    assert answer.status == status, answer.message


def test_an_equilibrium_in_a_krawczyk_box_has_no_coq_statement(clusters: dict[str, Path]) -> None:
    payload = json.loads(clusters["usa"].read_text())["payload"]
    with pytest.raises(NotTranslatable, match="dimension"):  # the cluster's fixed set has dimension 0, not 1
        equilibrium_problem(payload | {"point": ["0"]})
    with pytest.raises(NotTranslatable, match="Krawczyk box"):  # without X: the zero velocity alone needs a centre
        equilibrium_problem({k: v for k, v in payload.items() if k != "lyapunov"} | {"point": ["0"]})
    payload["configuration"]["tokens"][0] = ["3/4", "0"]  # not unit: the zero velocity alone needs unit rationals
    with pytest.raises(NotTranslatable):
        equilibrium_problem({k: v for k, v in payload.items() if k != "lyapunov"})
    payload["configuration"]["tokens"][0] = ["1", "1"]  # the spectrum: one norm after scaling (here 2 and 1)
    with pytest.raises(NotTranslatable, match="one"):
        equilibrium_problem(payload)


@needs_coqc
def test_a_moving_witness_is_re_checked_by_coq_and_a_flipped_speed_is_not(tmp_path: Path) -> None:
    """Orthonormal tokens are no equilibrium: the REFUTED claim's witness states the moving token's squared tangent
    speed b^T G b > 0 at the flat model of its Gram algebra, and coqc proves it; the same statement with the speed
    < 0 is refused."""
    text = claims_of((EXAMPLES / "equilibria.toml").read_text(), "orthonormal-tokens-at-rest")
    path = certificates_of(text, tmp_path)["orthonormal-tokens-at-rest"]
    checked = coq_files.check(path)
    assert checked.status == coq_files.RECHECKED, checked.message
    assert "|P v_" in coq_files.coq_text(path)
    sentence, built = problem(check_file(path))
    flipped = built._replace(conditions=[c | {"relation": "<"} for c in built.conditions])
    assert run.compile_source(source(path.name, "orthonormal-tokens-at-rest", sentence, flipped)).status == "rejected"
