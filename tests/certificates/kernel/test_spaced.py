"""The `spaced` form: equally spaced tokens on a circle stay fixed, so a quantity keeps its start value.

Worked by hand: at n equally spaced tokens R = |(1/n) sum_k e^(2 pi i k/n)| = 0 and the arc spread is 2 pi (n - 1)/n
(8 pi/5 at n = 5). So "R -> 0" holds and "R -> 1", "R -> 1/2" fail; "arc >= 8 pi/5" holds with equality (settled
exactly: pi - pi is 0 as a polynomial in pi, tested at e), "arc >= 8 pi/5 + 10^-30" fails (balls separate them at
256 bits) and "arc >= 8 pi/5 + 10^-300" fails too, settled by balls of more bits (never taken for the equality).
Attacks: the verdict turned in the statement and the payload, a claim edited in the statement (then the file's claim
elaborates another), a scheme at beta <= 0, a target where none belongs, an integer `holds`, relu weights.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel import spaced
from headflow.certificates.kernel.verify import check_file
from headflow.checks.rechecks import recheck
from headflow.checks.verdicts import Verdict

from tests.checking import certified_as, decided_claims
from tests.coq_tier import needs_coqc
from tests.forging import VERDICT_EDITS, forged_file
from tests.sample_claims import dynamics_claim


def _claim(claim_id: str, quantity: str, prop: str, extra: str, geometry: str = "sphere", n: int = 5) -> str:
    setting = f'geometry = "{geometry}"\nheads = "scalar"\nlambdas = [1.0, 0.5]\ntokens = "equally-spaced"'
    return dynamics_claim(claim_id, quantity, prop, extra, f"{setting}\nn = {n}\nd = 2\nbeta = 2.0")


CLAIMS = (
    _claim("stays", "order_parameter", "tends-to", 'limit = "0"')
    + _claim("synchronize", "order_parameter", "tends-to", 'limit = "1"')
    + _claim("half", "order_parameter", "tends-to", 'limit = "1/2"', n=4)
    + _claim("arc-exact", "arc_spread", "at-least", 'bound = "2*pi*4/5"', geometry="pre-ln")
    + _claim("arc-above", "arc_spread", "at-least", 'bound = "2*pi*4/5 + 10**(-30)"')
    + _claim("arc-hair", "arc_spread", "at-least", 'bound = "2*pi*4/5 + 10**(-300)"')
    + _claim("gap", "cluster_gap", "at-most", 'bound = "5/2"', n=6)
    + _claim("constant", "largest_inner_product", "non-decreasing", "")
)
EXPECTED = {"stays": True, "synchronize": False, "half": False, "arc-exact": True, "arc-above": False, "gap": True}
EXPECTED |= {"constant": True, "arc-hair": False}


@pytest.fixture(scope="module")
def decided(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return decided_claims(CLAIMS, tmp_path_factory.mktemp("spaced"))


def test_true_claims_are_proved_and_false_ones_refuted_each_with_a_certificate(decided: dict[str, Any]) -> None:
    for claim_id, path in certified_as(decided, EXPECTED, "spaced", CLAIMS).items():
        assert len(decided[claim_id].certificates) == 1
        assert json.loads(path.read_text())["statement"]["holds"] is EXPECTED[claim_id]


def test_a_bound_a_hair_above_the_start_value(decided: dict[str, Any]) -> None:
    """128-bit balls do not separate 8 pi/5 from 8 pi/5 + 10^-300, nor is their difference 0: the route takes more
    bits (never the equality) and refutes it, and the kernel's 4,096 bits accept the refutation, not a proof."""
    (path,) = [Path(p) for p in decided["arc-hair"].certificates]
    assert decided["arc-hair"].verdict is Verdict.REFUTED and check_file(path).ok
    stated = json.loads(path.read_text())["statement"]
    with pytest.raises(spaced.Rejected, match="is False, not True"):
        spaced.check(stated | {"holds": True}, stated["claim"], spaced.FORM, {"holds": True}, 0)


EDITS = {
    **VERDICT_EDITS,
    "an integer holds": lambda c: (c["statement"].update(holds=1), c["payload"].update(holds=1)),
    "limit moved": lambda c: c["statement"].update(target=["rat", "0"]),
    "no target": lambda c: c["statement"].update(target=None),
    "a constant's target": lambda c: c["statement"].update(property="non-decreasing"),
    "a scheme at beta <= 0": lambda c: c["statement"].update(geometry="pre-ln", beta="-1"),
    "relu": lambda c: c["statement"].update(attention="relu"),
    "one token": lambda c: c["statement"].update(n=1),
    "unknown quantity": lambda c: c["statement"].update(quantity="energy"),
}


@pytest.mark.parametrize("name", EDITS)
def test_forged_certificates_are_rejected(decided: dict[str, Any], tmp_path: Path, name: str) -> None:
    source = Path(decided["synchronize"].certificates[0])
    assert not check_file(forged_file(source, tmp_path, EDITS[name])).ok


def test_a_certificate_of_another_n_is_not_the_files_claim(decided: dict[str, Any], tmp_path: Path) -> None:
    """R -> 0 holds at every n: a certificate of n = 7 is accepted by the kernel, and refused by `check-cert --claims`
    (the file's claim is about n = 5)."""
    path = forged_file(Path(decided["stays"].certificates[0]), tmp_path, lambda c: c["statement"].update(n=7))
    assert check_file(path).ok
    assert not recheck(path, claims={c.id: c for c in parse_claims(CLAIMS)}, read_claim=True).ok


@needs_coqc
def test_coq_proves_the_pairing_the_roots_of_unity_and_the_start_values(decided: dict[str, Any]) -> None:
    for claim_id in ("stays", "synchronize", "half", "arc-exact", "gap"):
        rechecked = recheck(Path(decided[claim_id].certificates[0]), coq=True)
        assert rechecked.ok and rechecked.coq is not None, claim_id
        assert not rechecked.coq_missing, (claim_id, rechecked.coq_missing)
