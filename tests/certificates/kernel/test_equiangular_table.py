"""The equiangular form's table of quantities (`certificates.kernel.equiangular.values`): limits and properties at every
time of W2, distances, inner products, radial shadows, Condition 8 margins and entropies along the reduction.

Worked by hand: at rho = 1 every distance is 0, so W2 = sqrt(2 - 2 sqrt((1 + (n - 1))/n)) = 0 and the merge radius
sqrt(2 - 2) = 0; at rho = 1 softmax weights are uniform (1/n), so head h's radial shadow lambda_h (1/n + (n - 1)/n) =
lambda_h (1 and 1/2 for strengths 1, 1/2). Under usa with lambda = -1 the pull 2 (1/n) lambda e^(-rho) is negative, so
rho -> -1/(n - 1) = -1/3 (n = 4). Two usa heads of strength 1, n = 3, beta = 1/8, from rho0 = 0: at rho = 0, w_ii =
e^(1/8), w_ij = 1, a_h = e^(1/8), |g|^2 = e^(1/4) + 2, so the margin is (e^(1/4) + 2 - e^(1/4)) - e^(1/8) e^(1/8) =
2 - e^(1/4) > 0; at rho = 1 the tokens coincide, g = 3 e^(1/8) x, the tangential power is 0 and the margin
-9 e^(1/4) < 0. Relu with rho0 = -1/5: the other tokens' weights max(-1/5, 0) vanish, the start is an equilibrium, and
the entropy there is log(1 + 3q) + (6/5) 3q/(1 + 3q), q = e^(-6/5): about 1.213.
"""

from __future__ import annotations

from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel import equiangular
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.statements.equiangular import statement

REGIME = 'kind = "dynamics"\ngeometry = "sphere"\nheads = "scalar"\ntokens = "equiangular"\nd = 6\n'


def _claim(quantity: str, line: str, attention: str, lambdas: str, rho: str, n: int, beta: str = "1.0") -> Any:
    text = f'[[claim]]\nid = "c"\n{REGIME}quantity = "{quantity}"\n{line}\nattention = "{attention}"\n'
    (claim,) = parse_claims(text + f"lambdas = {lambdas}\nrho = {rho}\nn = {n}\nbeta = {beta}\n")
    return claim


def _accepts(claim: Any, holds: bool, fails_at: dict[str, Any] | None = None) -> bool:
    stated = statement(claim, holds, None, fails_at)
    assert stated is not None
    try:
        equiangular.check(stated, "c", equiangular.FORM, {"holds": holds, "point": None, "fails_at": fails_at}, 0)
    except Rejected:
        return False
    return True


W2 = ("w2_to_dirac", "usa", "[1.0]", "0.2", 4)
SHADOW = ("radial_shadow", "softmax", "[1.0, 0.5]", "0.2", 6)
INNER = ("largest_inner_product", "softmax", "[1.0]", "0.2", 4)
MARGIN = ("condition8_margin", "usa", "[1.0, 1.0]", "0.0", 3, "0.125")
ENTROPY = ("attention_entropy", "relu", "[1.0]", "-0.2", 4)


def _at(kind: tuple[Any, ...], line: str) -> Any:
    return _claim(kind[0], line, *kind[1:])


def test_a_limit_of_the_table_is_proved_and_its_wrong_value_refuted() -> None:
    assert _accepts(_at(W2, 'property = "tends-to"\nlimit = "0"'), True)
    assert not _accepts(_at(W2, 'property = "tends-to"\nlimit = "0"'), False)
    assert _accepts(_at(W2, 'property = "tends-to"\nlimit = "1/10"'), False)
    assert not _accepts(_at(W2, 'property = "tends-to"\nlimit = "1/10"'), True)
    merge = ("merge_radius", *W2[1:])
    assert _accepts(_at(merge, 'property = "tends-to"\nlimit = "0"\nk = 1'), True)


def test_a_pull_of_the_other_sign_sends_rho_to_the_simplex() -> None:
    negative = ("largest_inner_product", "usa", "[-1.0]", "0.2", 4)
    assert _accepts(_at(negative, 'property = "tends-to"\nlimit = "-1/3"'), True)
    assert _accepts(_at(negative, 'property = "tends-to"\nlimit = "1"'), False)
    assert not _accepts(_at(negative, 'property = "tends-to"\nlimit = "1"'), True)


def test_each_head_is_held_to_its_own_limit() -> None:
    head0 = _at(SHADOW, 'property = "tends-to"\nlimit = "1"\nhead = 0')
    every = _at(SHADOW, 'property = "tends-to"\nlimit = "1"')
    assert _accepts(head0, True) and not _accepts(head0, False, {"head": 0, "rho": None})
    assert not _accepts(every, True)  # head 1 tends to 1/2
    assert _accepts(every, False, {"head": 1, "rho": None})
    assert not _accepts(every, False, {"head": 0, "rho": None})  # head 0 does tend to 1
    assert not _accepts(every, False, {"head": 2, "rho": None})  # no such head
    assert not _accepts(every, False, {"head": True, "rho": None})
    stated = statement(head0, True) | {"head": 5}  # the parser refuses it; a forged statement is refused too
    with pytest.raises(Rejected):
        equiangular.check(stated, "c", equiangular.FORM, {"holds": True, "point": None, "fails_at": None}, 0)


BOUND = 'property = "at-most"\nbound = "1/2"'


@pytest.mark.parametrize(
    ("rho", "accepted"),
    [("3/5", True), (None, True), ("1/10", False), ("2/5", False), ("1", False), ("1/5", False)],
    ids=["visited, above 1/2", "the limit 1", "before the start", "visited, below 1/2", "the limit itself", "rho0"],
)
def test_a_property_at_every_time_fails_at_a_visited_correlation(rho: str | None, accepted: bool) -> None:
    """rho goes from 1/5 up to 1: 3/5 is visited and above 1/2; 1/10 is never visited, 2/5 and 1/5 are below 1/2, and
    rho never reaches 1 (the limit: without a correlation, the margin there, negative for all large t)."""
    assert _accepts(_at(INNER, BOUND), False, {"head": 0, "rho": rho}) == accepted


def test_a_property_at_every_time_holds_only_at_an_equilibrium() -> None:
    assert not _accepts(_at(INNER, 'property = "at-most"\nbound = "2"'), True)  # true, but along a moving path
    assert _accepts(_at(ENTROPY, 'property = "at-least"\nbound = "1"'), True)
    assert not _accepts(_at(ENTROPY, 'property = "at-least"\nbound = "13/10"'), True)
    assert _accepts(_at(ENTROPY, 'property = "at-least"\nbound = "13/10"'), False, {"head": 0, "rho": "-1/5"})
    assert not _accepts(_at(ENTROPY, 'property = "at-least"\nbound = "1"'), False, {"head": 0, "rho": "-1/5"})


def test_condition_8_is_lost_as_the_tokens_collapse() -> None:
    stays = _at(MARGIN, 'property = "stays-non-negative"')
    assert _accepts(stays, False, {"head": 0, "rho": None})
    assert not _accepts(stays, True)
    assert not _accepts(stays, True, {"head": 0, "rho": None})  # vacuous only where a margin at rho0 is < 0
    at_least = _at(MARGIN, 'property = "at-least"\nbound = "1"')
    assert not _accepts(at_least, True, {"head": 0, "rho": None})  # a margin < 0 at rho0 refutes, never proves


FAMILY = """
[[claim]]
id = "c"
kind = "dynamics"
quantity = "cluster_gap"
property = "tends-to"
limit = "0"
attention = "usa"
heads = "scalar"
H = "H"
lambdas = "lam_h"
tokens = "equiangular"
rho = 0.5
n = 3
d = 3
beta = 1.0
[claim.domain]
H = "{heads}"
lam_h = "[0, 2]"
"""


def _family_accepts(heads: str, strength: str) -> bool:
    (claim,) = parse_claims(FAMILY.replace("{heads}", heads))
    stated = statement(claim, False, {"lam_h": strength})
    if stated is None:
        return False
    payload = {"holds": False, "point": stated["point"], "fails_at": None}
    try:
        equiangular.check(stated, "c", equiangular.FORM, payload, 0)
    except Rejected:
        return False
    return True


def test_a_family_of_heads_is_refuted_at_one_head_of_the_points_strength() -> None:
    """Any H heads of strength lam_h in [0, 2]: the gap tends to 0 unless every strength is 0, where usa does not move
    (rho stays 1/2, the gap 1/2). Refuted at lam_h = 0 by one head, H = 1, when the claim's H may be 1; not at lam_h =
    1 (the gap does tend to 0); not stated where H >= 2 (one head is not an instance of the claim)."""
    assert _family_accepts("integer>=1", "0")
    assert not _family_accepts("integer>=1", "1")
    assert not _family_accepts("integer>=2", "0")
