"""An equilibrium claim proved instance by instance with `at-rest` witnesses: every tangent velocity exactly 0 at the
block Gram algebra's flat model, re-derived by the kernel (`equilibrium_statements.moving_token` finds no token).

Worked by hand: three clusters of two tokens at the vertices of a triangle (<a, b> = -1/2) are at rest by symmetry (each
token's pull from the two other clusters is symmetric about it); with sizes 2, 1, 1 the larger cluster pulls the
others off their places (a token moves: the claim is refuted by the moving witness). Attacks: an at-rest witness of the
unequal clusters, a witness that names the other direction, an at-rest statement under an equilibrium certificate's
kind, and an at-rest certificate filed for another claim of the file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel.verify import check_file
from headflow.checks.rechecks import recheck

from tests.checking import certified_as, decided_claims
from tests.coq_tier import needs_coqc
from tests.forging import forged_file


def _claim(claim_id: str, sizes: str) -> str:
    return f"""
[[claim]]
id = "{claim_id}"
kind = "equilibrium"
tokens = "clusters"
sizes = {sizes}
d = 2
beta = "1/2"
lambdas = [1]
attention = "usa"
property = "critical-point"
"""


CLAIMS = _claim("equal", "[2, 2, 2]") + _claim("unequal", "[2, 1, 1]")


@pytest.fixture(scope="module")
def decided(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return decided_claims(CLAIMS, tmp_path_factory.mktemp("at-rest"))


def test_equal_clusters_are_proved_at_rest_and_unequal_ones_refuted(decided: dict[str, Any]) -> None:
    found = certified_as(decided, {"equal": True, "unequal": False}, "witness", CLAIMS)
    for claim_id, witness in (("equal", "at-rest"), ("unequal", "moving-regime")):
        assert len(decided[claim_id].certificates) == 1
        assert json.loads(found[claim_id].read_text())["payload"]["witness"] == witness


def _unequal(c: dict[str, Any]) -> None:
    gram = [["1", "1", "-1/2", "-1/2"], ["1", "1", "-1/2", "-1/2"], ["-1/2", "-1/2", "1", "-1/2"]]
    c["statement"].update(n=4, grams=[[*gram, ["-1/2", "-1/2", "-1/2", "1"]]])


EDITS = {
    "unequal clusters at rest": _unequal,
    "the moving witness": lambda c: c["payload"].update(witness="moving-regime"),
    "an equilibrium's kind": lambda c: c.update(kind="equilibrium"),
    "no Gram matrices": lambda c: c["statement"].update(grams=None),
}


@pytest.mark.parametrize("name", EDITS)
def test_forged_at_rest_certificates_are_rejected(decided: dict[str, Any], tmp_path: Path, name: str) -> None:
    assert not check_file(forged_file(Path(decided["equal"].certificates[0]), tmp_path, EDITS[name])).ok


def test_an_at_rest_certificate_is_not_another_claims(decided: dict[str, Any], tmp_path: Path) -> None:
    path = forged_file(Path(decided["equal"].certificates[0]), tmp_path, lambda c: c.update(claim_id="unequal"))
    assert not recheck(path, claims={c.id: c for c in parse_claims(CLAIMS)}, read_claim=True).ok


@needs_coqc
def test_coq_proves_every_tangent_velocity_zero(decided: dict[str, Any]) -> None:
    rechecked = recheck(Path(decided["equal"].certificates[0]), coq=True)
    assert rechecked.ok and rechecked.coq is not None and not rechecked.coq_missing, rechecked.coq_missing
