"""The `arc` form: angles within a half circle, whose arc spread never grows under attraction.

Worked by hand: the angles 0, 1/2, pi/4, 3 pi/4, 2 (radians) lie on [0, 3 pi/4] (2 < 3 pi/4 = 2.356...), an arc shorter
than pi; the largest gap runs from 3 pi/4 round to 2 pi. So "arc_spread at most 3 pi/4" holds (with equality at the
start: settled exactly, pi - pi is 0 at e), while bounds 10^-30 and 10^-300 below are violated at t = 0 (by balls of
more bits until they separate: floats, which cannot see the difference, once confirmed the first), each with an arc
certificate of the refutation: the tokens in their order along the arc, every gap between neighbours at most the one
round the circle, so the spread is the arc's length. Attacks on a proof: a token moved off the arc by its winding, the
ends swapped, a bound below the arc, a repulsive head, beta <= 0, angles spread past pi, the flat geometry; a larger
bound (true) is refused by `check-cert --claims`, not by the kernel; on a refutation, its verdict turned, a bound above
the spread, the order scrambled or a token left out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel.verify import check_file
from headflow.checks.rechecks import recheck

from tests.checking import certified_as, decided_claims
from tests.coq_tier import needs_coqc
from tests.forging import forged_file
from tests.sample_claims import dynamics_claim


def _claim(claim_id: str, bound: str) -> str:
    setting = 'attention = "softmax"\nheads = "scalar"\nlambdas = [1.0, 2.0]\ntokens = "angles"'
    angles = 'angles = ["0", "1/2", "pi/4", "3*pi/4", "2"]\nn = 5\nd = 2\nbeta = 1.0'
    return dynamics_claim(claim_id, "arc_spread", "at-most", f'bound = "{bound}"', f"{setting}\n{angles}")


CLAIMS = _claim("at-start", "3*pi/4") + _claim("below-start", "3*pi/4 - 10**(-30)")
CLAIMS += _claim("a-hair-below", "3*pi/4 - 10**(-300)")


@pytest.fixture(scope="module")
def decided(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return decided_claims(CLAIMS, tmp_path_factory.mktemp("arc"))


def test_a_bound_equal_to_the_start_is_proved_with_a_certificate(decided: dict[str, Any]) -> None:
    # balls of more bits below the start, until they separate: REFUTED, never CONFIRMED
    found = certified_as(decided, {"at-start": True, "below-start": False, "a-hair-below": False}, "arc", CLAIMS)
    assert len(decided["at-start"].certificates) == 1
    assert all("fails at t = 0" in check_file(found[below]).proved for below in ("below-start", "a-hair-below"))


def _refutation(decided: dict[str, Any]) -> Path:
    return Path(next(p for p in decided["below-start"].certificates if ".arc." in p))


REFUTATION_EDITS = {
    "a proof's verdict": lambda c: c["statement"].update(holds=True),
    "a bound above": lambda c: c["statement"].update(bound=["pi"]),
    "order scrambled": lambda c: c["payload"]["order"].reverse(),
    "a token left out": lambda c: c["payload"]["order"].pop(2),
}


@pytest.mark.parametrize("name", REFUTATION_EDITS)
def test_forged_refutations_are_rejected(decided: dict[str, Any], tmp_path: Path, name: str) -> None:
    assert not check_file(forged_file(_refutation(decided), tmp_path, REFUTATION_EDITS[name])).ok


EDITS = {
    "a token off the arc": lambda c: c["payload"]["windings"].__setitem__(4, 1),
    "ends swapped": lambda c: c["payload"].update(low=c["payload"]["high"], high=c["payload"]["low"]),
    "a bound below": lambda c: c["statement"].update(bound=["mul", ["rat", "1/2"], ["pi"]]),
    "a repulsive head": lambda c: c["statement"].update(strengths=["1", "-2"]),
    "beta <= 0": lambda c: c["statement"].update(beta="0"),
    "past pi": lambda c: c["statement"]["angles"].__setitem__(1, ["rat", "-2"]),
    "flat": lambda c: c["statement"].update(geometry="flat"),
    "a huge winding": lambda c: c["payload"]["windings"].__setitem__(0, 10**6),
}


@pytest.mark.parametrize("name", EDITS)
def test_forged_certificates_are_rejected(decided: dict[str, Any], tmp_path: Path, name: str) -> None:
    source = Path(decided["at-start"].certificates[0])
    assert not check_file(forged_file(source, tmp_path, EDITS[name])).ok


def test_a_larger_bound_is_not_the_files_claim(decided: dict[str, Any], tmp_path: Path) -> None:
    edit = lambda c: c["statement"].update(bound=["pi"])  # noqa: E731
    path = forged_file(Path(decided["at-start"].certificates[0]), tmp_path, edit)
    assert check_file(path).ok
    assert not recheck(path, claims={c.id: c for c in parse_claims(CLAIMS)}, read_claim=True).ok


@needs_coqc
def test_coq_re_checks_the_arc(decided: dict[str, Any]) -> None:
    rechecked = recheck(Path(decided["at-start"].certificates[0]), coq=True)
    assert rechecked.ok and rechecked.coq is not None and not rechecked.coq_missing, rechecked.coq_missing
