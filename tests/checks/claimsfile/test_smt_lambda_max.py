"""A claim tight on the bound l = lambda_max(n, beta), certified by the SMT route and re-checked by check-cert.

phi'(l) <= 0 beyond lambda_max: (1 - beta l) e^(beta l) + n - 1 is exactly 0 on the bound (W(z) e^W(z) = z), so no
ball cover proves it; the kernel encodes lambda_max by its equation (u - 1) e^u = n - 1, u = beta lambda_max
(`headflow.certificates.kernel.real_encoding`). Its certificate, edited into a false claim, is rejected.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from headflow.checks.cli import main

from tests.checking import verify_file
from tests.forging import forged_file

CLAIM = """
[[claim]]
id = "tangent"
kind = "inequality"
lhs = "(1 - beta*l)*exp(beta*l) + n - 1"
op = "<="
rhs = "0"
[claim.domain]
n = { min = 2, max = 6, integer = true }
beta = "[1/2, 2]"
l = { min = "lambda_max(n, beta)", max = 8 }
"""


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`headflow check` on the claim: CERTIFIED by the SMT route, with one smt certificate."""
    folder = tmp_path_factory.mktemp("lambda-max")
    (folder / "claims.toml").write_text(CLAIM)
    out = folder / "report.json"
    assert main(["check", str(folder / "claims.toml"), "--format", "json", "--out", str(out), "--certificates",
                 str(folder / "certs")]) == 0  # fmt: skip
    (claim,) = json.loads(out.read_text())["claims"]
    assert claim["verdict"] == "CERTIFIED", claim
    (path,) = claim["evidence"]["certificates"]
    return Path(path)


def test_the_certificate_re_checks(certificate: Path) -> None:
    data = json.loads(certificate.read_text())
    assert data["kind"] == "smt" and data["payload"]["cuts"] == []  # the equation suffices: no Taylor cut
    ok, line = verify_file(certificate)
    assert ok and "lambda_max(n, beta)" in line, line


def _low(d: dict[str, Any], tree: Any) -> None:
    d["statement"]["variables"][2].update(low=tree)


def _lambda_max(shift: Any) -> Any:
    return ["lambda_max", ["add", ["sym", "n"], shift], ["sym", "beta"]]


#: name -> (edit of the certificate's statement, whether the edited statement is still true).
EDITS = {
    "shifted below 0": (lambda d: d["statement"].update(rhs=["rat", "-1/1000"]), False),
    "relation reversed": (lambda d: d["statement"].update(op=">="), False),
    "bound lowered by 1/10": (
        lambda d: _low(d, ["sub", d["statement"]["variables"][2]["low"], ["rat", "1/10"]]),
        False,
    ),
    "bound on lambda_max(n - 1, beta), below": (lambda d: _low(d, _lambda_max(["rat", "-1"])), False),
    "bound on lambda_max(n + 1, beta), above: still true": (lambda d: _low(d, _lambda_max(["rat", "1"])), True),
    "n real in [2, 6], still true": (lambda d: d["statement"]["variables"][0].update(integer=False), True),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edited_statement_is_accepted_only_when_true(certificate: Path, tmp_path: Path, edit: str) -> None:
    change, still_true = EDITS[edit]
    ok, reason = verify_file(forged_file(certificate, tmp_path, change))
    assert ok is still_true, reason
