"""Jensen's inequality over the heads as a statement of form `jensen` (`certificates.kernel.jensen`).

Worked by hand: F(u) = u^2 has F'' = 2 >= 0, so sum_h lam_h^2 >= H mean^2 for every H and every real family;
F(u) = e^(beta u) has F'' = beta^2 e^(beta u) > 0 for beta > 0, so the mean of the exponentials beats the exponential
of the mean when the values are not all equal; F(u) = log u has F'' = -1/u^2 < 0 (concave: the claim sum_h log lam_h
>= H log(mean) is false, e.g. at lam = 1, 4: log 4 < 2 log(5/2)); F(u) = u has F'' = 0, so `>=` holds and `>` does not.
Each attack is a test: a concave or linear F, a strict claim on a linear F, a member that is not a variable or that
another bound names, the wrong kind of certificate, a function edited in the certificate.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel import jensen
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.jensen import certify
from headflow.certificates.statements.jensen import statement
from headflow.checks.rechecks import recheck

from tests.checks.claimsfile.test_any_heads import SUPERADDITIVITY
from tests.forging import forged_file

SQUARES = """
[[claim]]
id = "squares"
kind = "inequality"
lhs = "sum_h(lam_h**2)"
op = ">="
rhs = "H * mean_h(lam_h)**2"
domain = { H = "integer>=1", lam_h = "real" }
"""
EXP = """
[[claim]]
id = "exp"
kind = "inequality"
lhs = "mean_h(exp(beta * lam_h))"
op = ">"
rhs = "exp(beta * mean_h(lam_h))"
not_all_equal = true
domain = { beta = "positive", H = "integer>=2", lam_h = "real" }
"""
LOGS = """
[[claim]]
id = "logs"
kind = "inequality"
lhs = "sum_h(log(lam_h))"
op = ">="
rhs = "H * log(mean_h(lam_h))"
domain = { H = "integer>=1", lam_h = "positive" }
"""


def _claim(text: str) -> Any:
    (claim,) = parse_claims(text)
    return claim


def _check(stated: dict[str, Any], cuts: list[Any] | None = None, kind: str = "smt") -> str:
    return jensen.check(stated, stated["claim"], kind, {"cuts": cuts or []}, 20)[0]


def test_a_convex_term_is_certified_and_its_sentence_cites_jensen(tmp_path: Path) -> None:
    for text in (SQUARES, EXP):
        path = certify(_claim(text), tmp_path)
        assert path is not None and check_file(Path(path)).ok
    proved = _check(statement(_claim(EXP)))
    assert "sum_h F(x_h) > H F(mean_h x_h) for every H >= 2" in proved and "F(lam_1) = exp(beta*lam_1)" in proved
    assert "Jensen's inequality" in proved


def test_a_concave_term_is_not_certified() -> None:
    """log is concave: its statement reads as Jensen's, and its convexity is refused (the claim is false)."""
    stated = statement(_claim(LOGS))
    assert stated is not None and stated["function"] == ["log", ["sym", "lam_1"]]
    assert certify(_claim(LOGS), Path("/nonexistent")) is None
    with pytest.raises(Rejected):
        _check(stated)


ATTACKS = {
    "a linear term, strictly": lambda s: s | {"function": ["sym", "lam_1"], "op": ">"},
    "a concave term": lambda s: s | {"function": ["neg", ["pow", ["sym", "lam_1"], 2]]},
    "a member that is not a variable": lambda s: s | {"member": "mu"},
    "another bound names the member": lambda s: (
        s
        | {
            "variables": [
                *s["variables"],
                {
                    "name": "b",
                    "integer": False,
                    "low": ["sym", "lam_1"],
                    "low_open": False,
                    "high": None,
                    "high_open": False,
                },
            ]
        }
    ),
    "a relation <=": lambda s: s | {"op": "<="},
}


@pytest.mark.parametrize("name", ATTACKS)
def test_attacked_statements_are_rejected(name: str) -> None:
    with pytest.raises(Rejected):
        _check(ATTACKS[name](statement(_claim(SQUARES))))


def test_a_linear_term_holds_without_strictness_only() -> None:
    stated = statement(_claim(SQUARES)) | {"function": ["sym", "lam_1"]}
    assert "F(lam_1) = lam_1" in _check(stated)


def test_the_wrong_kind_and_an_edited_function_are_refused(tmp_path: Path) -> None:
    with pytest.raises(Rejected):
        _check(statement(_claim(SQUARES)), kind="witness")
    genuine = certify(_claim(SQUARES), tmp_path)
    assert genuine is not None
    edited = forged_file(Path(genuine), tmp_path, lambda d: d["statement"].__setitem__("function", ["rat", "1"]))
    assert check_file(edited).ok  # F = 1 is convex: the kernel proves the edited statement ...
    assert not recheck(edited, claims={"squares": _claim(SQUARES)}, read_claim=True).ok  # ... which is not the claim's
    assert json.loads(Path(genuine).read_text())["statement"]["function"] == ["pow", ["sym", "lam_1"], 2]


#: The rate 2 lam / (exp(beta lam) + n - 1) past lambda_c (T22's convex regime): F'' is 0 at lambda_c, so the strict
#: claim rests on F'' >= 0 on [lambda_c, oo) and F'' > 0 inside it (`interior`).
PAST_LAMBDA_C = SUPERADDITIVITY.replace("OP", ">").replace("LOW", "lambda_c(n, beta)")


def test_a_strict_claim_whose_second_derivative_vanishes_at_an_end_rests_on_its_interior(tmp_path: Path) -> None:
    claim = _claim(PAST_LAMBDA_C)
    stated = statement(claim)
    assert stated is not None
    with pytest.raises(Rejected):  # F'' > 0 on the closed interval: false at lambda_c
        _check(stated)
    path = certify(claim, tmp_path)
    assert path is not None
    data = json.loads(Path(path).read_text())
    assert set(data["payload"]) == {"cuts", "interior"}
    checked = check_file(Path(path))
    assert checked.ok and "> 0 inside it makes F strictly convex" in checked.proved
    assert recheck(Path(path), claims={"sa": claim}, read_claim=True).ok
    built = jensen.convexity(stated, interior=True)
    assert [b["op"] for b in built] == [">=", ">"] and built[1]["variables"][-1]["low_open"] is True


def test_an_interior_payload_is_refused_for_a_claim_that_is_not_strict() -> None:
    stated = statement(_claim(SQUARES))
    with pytest.raises(Rejected, match="strict"):
        jensen.check(stated, "squares", "smt", {"cuts": [], "interior": []}, 20)
    with pytest.raises(Rejected):  # a linear term: F'' > 0 inside is false, whatever the payload
        jensen.check(
            stated | {"function": ["sym", "lam_1"], "op": ">"}, "squares", "smt", {"cuts": [], "interior": []}, 20
        )
