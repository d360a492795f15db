"""The `start` form: a claim about merges and clusters refuted at t = 0 by the user's exact unit tokens.

Worked by hand: (1, 0) and (99/101, 20/101) are at squared distance (2/101)^2 + (20/101)^2 = 404/10201 < 1/16, as are
(0, 1) and (20/101, 99/101); the two groups are at squared distance >= 2 - 2 (99/101)(20/101)... > 1/16. So at merge
radius 1/4 there are 2 clusters at t = 0: "at most 1 cluster" fails, the 2nd merge (n - k = 2 clusters) has happened
(merge time 0 < 1/2), the closest pair is within the radius (closest_pair_merges_first = 1 > 0), and unit tokens lie
on their hull's boundary (distance 0 < 1/100). At the boundary: (1, 0) and (-1, 0) are at squared distance 4, one
cluster at radius 2 (<= r^2 joins) and two at radius 1999/1000. Attacks: a token off the sphere, a radius or bound
edited, a k past n - 1, a property the form does not refute, a payload that is not empty.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel import start
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.checks.rechecks import recheck

from tests.checking import certified_as, decided_claims
from tests.coq_tier import needs_coqc
from tests.forging import forged_file
from tests.sample_claims import dynamics_claim

GROUPS = 'points = [[1, 0], ["99/101", "20/101"], [0, 1], ["20/101", "99/101"]]\nn = 4'


def _claim(claim_id: str, quantity: str, prop: str, extra: str, points: str = GROUPS) -> str:
    setting = 'attention = "softmax"\nheads = "scalar"\nlambdas = [1.0]\ntokens = "given"'
    return dynamics_claim(claim_id, quantity, prop, extra, f"{setting}\n{points}\nd = 2\nbeta = 1.0")


PAIR = "points = [[1, 0], [-1, 0]]\nn = 2"
CLAIMS = (
    _claim("one-cluster", "cluster_count", "at-most", 'bound = "1"\nradius = 0.25')
    + _claim("second-merge-late", "merge_time", "at-least", 'bound = "1/2"\nradius = 0.25\nk = 2')
    + _claim("closest-not-first", "closest_pair_merges_first", "at-most", 'bound = "0"\nradius = 0.25')
    + _claim("inside-hull", "rescaled_boundary_distance", "at-least", 'bound = "1/100"\ntime = 1.0\ngeometry = "flat"')
    + _claim("pair-at-two", "cluster_count", "at-most", 'bound = "1"\nradius = 2', PAIR)
    + _claim("pair-below-two", "cluster_count", "at-most", 'bound = "1"\nradius = 1.999', PAIR)
)
REFUTED = ("one-cluster", "second-merge-late", "closest-not-first", "inside-hull", "pair-below-two")


@pytest.fixture(scope="module")
def decided(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return decided_claims(CLAIMS, tmp_path_factory.mktemp("start"))


def test_claims_violated_at_the_start_are_refuted_with_a_certificate(decided: dict[str, Any]) -> None:
    certified_as(decided, dict.fromkeys(REFUTED, False), "start", CLAIMS)
    assert all(len(decided[claim_id].certificates) == 1 for claim_id in REFUTED)


def test_one_cluster_at_a_radius_equal_to_the_distance(decided: dict[str, Any]) -> None:
    pair = {"form": "start", "claim": "c", "tokens": [["1", "0"], ["-1", "0"]]}
    assert start.value(pair | _fields(2)) == 1
    assert start.value(pair | _fields("1999/1000")) == 2
    assert not decided["pair-at-two"].certificates  # not violated at the start: no certificate of this form


def _fields(radius: object) -> dict[str, Any]:
    return {"quantity": "cluster_count", "radius": str(radius), "k": None, "property": "at-most", "bound": "1"}


def test_the_start_does_not_give_a_merge_that_has_not_happened() -> None:
    fields = _fields("1/100") | {"quantity": "merge_time", "k": 1, "property": "at-least", "bound": "1"}
    with pytest.raises(Rejected, match="does not give"):
        start.value({"form": "start", "claim": "c", "tokens": [["1", "0"], ["0", "1"]]} | fields)


EDITS = {
    "a token off the sphere": lambda c: c["statement"]["tokens"].__setitem__(0, ["1", "1/10"]),
    "bound met": lambda c: c["statement"].update(bound="2"),
    "radius so large one cluster": lambda c: c["statement"].update(radius="2"),
    "k past n - 1": lambda c: c["statement"].update(quantity="merge_time", k=4),
    "a limit": lambda c: c["statement"].update(property="tends-to"),
    "a payload": lambda c: c.update(payload={"holds": False}),
    "a float radius": lambda c: c["statement"].update(radius=0.25),
}


@pytest.mark.parametrize("name", EDITS)
def test_forged_certificates_are_rejected(decided: dict[str, Any], tmp_path: Path, name: str) -> None:
    source = Path(decided["one-cluster"].certificates[0])
    assert not check_file(forged_file(source, tmp_path, EDITS[name])).ok


def test_a_certificate_of_another_radius_is_not_the_files_claim(decided: dict[str, Any], tmp_path: Path) -> None:
    """At radius 1/10 there are 4 clusters, still more than 1: the kernel accepts the edit, `check-cert --claims`
    refuses it (the file's radius is 1/4)."""
    path = forged_file(
        Path(decided["one-cluster"].certificates[0]), tmp_path, lambda c: c["statement"].update(radius="1/10")
    )
    assert check_file(path).ok
    assert not recheck(path, claims={c.id: c for c in parse_claims(CLAIMS)}, read_claim=True).ok


@needs_coqc
def test_coq_re_checks_the_distances_the_clusters_rest_on(decided: dict[str, Any]) -> None:
    for claim_id in REFUTED:
        rechecked = recheck(Path(decided[claim_id].certificates[0]), coq=True)
        assert rechecked.ok and rechecked.coq is not None, claim_id
        assert not rechecked.coq_missing, (claim_id, rechecked.coq_missing)
