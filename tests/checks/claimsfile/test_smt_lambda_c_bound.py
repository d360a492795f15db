"""A relation on a domain a lambda_c root bounds: certified by the SMT route with the pair cuts, re-checked by Coq.

1 + W((n - 1)/e) < lambda_c(n, 1) for n = 2..30 (examples/paper.toml's `variant.T19.lambda-max-below-lambda-c`): cvc5
does not prove the route's Taylor-cut problem, and a cover of a domain bounded by a root has no Coq proof, so the route
asks the kernel's check for the products and powers between every two atoms (`limits.proved_cuts`). Coq proves it by
contradiction from lambda_c <= 1 + w (e^lambda_c <= e e^w against both equations). Its certificate, edited into a false
claim, is rejected.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from headflow.checks import coq_files

from tests.checking import accepted_for, decided_claims, verify_file
from tests.coq_tier import needs_coqc
from tests.forging import forged_file

DOMAIN = '{ n = { min = 2, max = 30, integer = true }, u = { min = "lambda_c(n, 1)", max = "lambda_c(n, 1)" } }'
CLAIMS = f"""
[[claim]]
id = "below"
kind = "inequality"
lhs = "1 + lambertw((n - 1) / e)"
op = "<"
rhs = "u"
domain = {DOMAIN}

"""


@pytest.fixture(scope="module")
def decided(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return decided_claims(CLAIMS, tmp_path_factory.mktemp("lambda-c-bound"))


@pytest.fixture(scope="module")
def certificate(decided: dict[str, Any]) -> Path:
    """The one smt certificate of the true claim."""
    claim = decided["below"]
    assert claim.verdict.name == "CERTIFIED", claim
    (path,) = [Path(p) for p in claim.certificates]
    assert ".smt." in path.name
    return path


def test_the_true_claim_has_an_smt_certificate_of_pair_cuts(decided: dict[str, Any], certificate: Path) -> None:
    assert "products and powers" in decided["below"].method  # the report says which cuts prove it
    cuts = json.loads(certificate.read_text())["payload"]["cuts"]
    assert any(cut["kind"] == "power" and len(cut["atoms"]) == 2 for cut in cuts)
    assert accepted_for(certificate, CLAIMS)


def _shift(d: dict[str, Any], tree: Any) -> None:
    d["statement"]["lhs"] = ["add", d["statement"]["lhs"], tree]


def _lowered(d: dict[str, Any]) -> None:
    (u,) = d["statement"]["variables"][1:]
    u.update(low=["sub", u["low"], ["rat", "2"]], high=["sub", u["high"], ["rat", "2"]])


#: name -> (edit of the certificate's statement, whether the edited statement is still true).
EDITS = {
    # at n = 2: 1 + W(1/e) = 1.28 and lambda_c(2, 1) = 2.40; at n = 30: 2.79 and 4.37
    "lhs raised by 3/2 (false at n = 2)": (lambda d: _shift(d, ["rat", "3/2"]), False),
    "n at most 20, still true": (lambda d: d["statement"]["variables"][0].update(high=["rat", "20"]), True),
    "relation reversed": (lambda d: d["statement"].update(op=">"), False),
    "u's bounds lowered by 2": (_lowered, False),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edited_statement_is_accepted_only_when_true(certificate: Path, tmp_path: Path, edit: str) -> None:
    change, still_true = EDITS[edit]
    ok, reason = verify_file(forged_file(certificate, tmp_path, change))
    assert ok is still_true, reason


@needs_coqc
def test_coq_re_checks_it(certificate: Path) -> None:
    checked = coq_files.check(certificate)
    assert checked.status == "re-checked by Coq", checked
