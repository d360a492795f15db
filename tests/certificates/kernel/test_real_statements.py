"""Statements of form `real` (`certificates.kernel.real_statements`): claims-file inequalities certified by covers and
constants certified by point witnesses, written by the real deciders, are accepted from their statements without
SymPy; forged statements (relation flipped, bound widened, constant moved, condition dropped, another claim's
statement, an empty domain) and certificates of false claims are not."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.kernel.format import content_hash
from headflow.certificates.kernel.verify import check_file

ROOT = Path(__file__).resolve().parents[3]
CLAIMS = """
[[claim]]
id = "xx"
kind = "inequality"
lhs = "x**x"
op = ">="
rhs = "1/2"
domain = { x = "[1/10, 2]" }

[[claim]]
id = "xx-dependent"
kind = "inequality"
lhs = "(y + 1)**(y + 1) - x**x / 2"
op = ">"
rhs = "0"
domain = { x = "[1/2, 1]", y = { min = "x", max = 2 } }

[[claim]]
id = "inverse-golden"
kind = "constant"
expr = "1 / golden"
value = "0.6180339887"
digits = 10

[[claim]]
id = "c-star-edge"
kind = "constant"
expr = "1 - c_star(10**30)**2"
value = "1"
digits = 30

[[claim]]
id = "sqrt-square-tiny"
kind = "constant"
expr = "10**40 * (sqrt((-10**-40)**2) - (-10**-40))"
value = "2"
digits = 10

[[claim]]
id = "log-sqrt"
kind = "constant"
expr = "log(golden) + sqrt(golden)"
value = "1.753231475"
digits = 10

[[claim]]
id = "false-constant"
kind = "constant"
expr = "10**30 * c_star(10**30)"
value = "2"
digits = 3
"""


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    """The certificates the deciders write for CLAIMS, by claim id (one file per cover goal)."""
    folder = tmp_path_factory.mktemp("real")
    (folder / "claims.toml").write_text(CLAIMS)
    command = [
        sys.executable,
        "-m",
        "headflow",
        "check",
        str(folder / "claims.toml"),
        "--certificates",
        str(folder / "c"),
    ]
    subprocess.run(
        command, cwd=ROOT, capture_output=True, check=False, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300
    )
    found: dict[str, list[Path]] = {}
    for path in sorted((folder / "c").glob("*.json")):
        found.setdefault(json.loads(path.read_text())["claim_id"], []).append(path)
    return found


def _relation_cover(paths: list[Path]) -> tuple[Path, dict[str, Any]]:
    """The cover of the relation (not of a definedness condition) among a claim's certificates."""
    for path in paths:
        data = json.loads(path.read_text())
        if data["payload"]["expression"][0] == "sub":
            return path, data
    raise AssertionError("no cover of the relation")


def _forged(tmp_path: Path, data: dict[str, Any], name: str = "forged.json") -> Path:
    data["sha256"] = content_hash(data)
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_written_certificates_carry_statements_and_are_accepted(certificates: dict[str, list[Path]]) -> None:
    for claim in ("xx", "xx-dependent", "inverse-golden", "c-star-edge", "sqrt-square-tiny"):
        assert certificates.get(claim), claim
        for path in certificates[claim]:
            assert json.loads(path.read_text())["statement"]["form"] == "real"
            result = check_file(path)
            assert result.ok, result.message
    (refutation,) = certificates["false-constant"]  # refuted: its certificate refutes the side it fails, no proof
    result = check_file(refutation)
    assert result.ok and "'false-constant' is false" in result.message and ">= " in result.message, result.message


def test_a_refuted_constants_certificate_is_its_claims_and_refutes_only_the_failing_side(
    certificates: dict[str, list[Path]], tmp_path: Path
) -> None:
    """`check-cert --claims` elaborates the side the value is outside of (10^30 c*(10^30) ~ 1.41 < 1.995: `>= low`);
    the other side (`<= high`, which holds) carries no counterexample: the kernel rejects the swapped certificate."""
    from headflow.certificates.claims.loader import parse_claims
    from headflow.checks.rechecks import recheck

    (path,) = certificates["false-constant"]
    claims = {claim.id: claim for claim in parse_claims(CLAIMS)}
    assert recheck(path, claims=claims, read_claim=True).ok
    data = json.loads(path.read_text())
    data["statement"] |= {"op": "<=", "rhs": ["rat", "401/200"]}
    assert not check_file(_forged(tmp_path, data)).ok


def test_what_is_printed_is_rendered_from_the_statement(certificates: dict[str, list[Path]]) -> None:
    path, _ = _relation_cover(certificates["xx-dependent"])
    message = check_file(path).message
    assert "for all x in [1/2, 1], y in [x, 2]: (y + 1)**(y + 1) - x**x/2 > 0" in message
    assert "domain non-empty" in message
    (golden,) = certificates["inverse-golden"]
    assert "1/golden lies in [0.61803398865, 0.61803398875]" in check_file(golden).message


def test_checking_loads_neither_sympy_nor_mpmath(certificates: dict[str, list[Path]]) -> None:
    paths = [str(p) for claim in ("xx", "xx-dependent", "inverse-golden", "c-star-edge") for p in certificates[claim]]
    script = (
        "import sys\nfrom headflow.certificates.kernel.verify import check_file\n"
        f"assert all(check_file(p).ok for p in {paths!r})\n"
        "print([m for m in sys.modules if m.split('.')[0] in ('sympy', 'mpmath')])"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("where", "value"),
    [
        ("op", "<="),  # the relation flipped
        ("rhs", ["rat", "3/4"]),  # a stronger claim than the cover proves
        ("claim", "xx-dependent"),  # filed under another claim
    ],
)
def test_forged_relation_statements_are_rejected(
    certificates: dict[str, list[Path]], tmp_path: Path, where: str, value: object
) -> None:
    _, data = _relation_cover(certificates["xx"])
    data["statement"][where] = value
    assert not check_file(_forged(tmp_path, data)).ok


def test_a_widened_bound_or_a_dropped_condition_is_rejected(
    certificates: dict[str, list[Path]], tmp_path: Path
) -> None:
    _, data = _relation_cover(certificates["xx"])
    wider = copy.deepcopy(data)
    wider["statement"]["variables"][0]["high"] = ["rat", "3"]  # the cover's root box no longer holds the domain
    assert "does not contain" in check_file(_forged(tmp_path, wider)).message
    condition = next(p for p in certificates["xx"] if json.loads(p.read_text())["payload"]["expression"][0] != "sub")
    dropped = json.loads(condition.read_text())
    dropped["statement"]["conditions"] = []
    assert not check_file(_forged(tmp_path, dropped)).ok


def test_another_claims_statement_is_rejected(certificates: dict[str, list[Path]], tmp_path: Path) -> None:
    _, data = _relation_cover(certificates["xx"])
    _, other = _relation_cover(certificates["xx-dependent"])
    data["statement"] = other["statement"] | {"claim": "xx"}
    assert not check_file(_forged(tmp_path, data)).ok


def test_an_empty_domain_proves_nothing(certificates: dict[str, list[Path]], tmp_path: Path) -> None:
    _, data = _relation_cover(certificates["xx"])
    outside = copy.deepcopy(data)
    outside["statement"]["point"] = {"x": "3"}
    assert "empty domain" in check_file(_forged(tmp_path, outside)).message
    empty = copy.deepcopy(data)
    empty["statement"]["variables"][0] |= {"low": ["rat", "2"], "high": ["rat", "1/10"]}
    empty["statement"]["point"] = {"x": "1"}
    assert not check_file(_forged(tmp_path, empty)).ok


@pytest.mark.parametrize("claim", ["c-star-edge", "sqrt-square-tiny", "inverse-golden"])
def test_a_moved_constant_is_rejected(certificates: dict[str, list[Path]], tmp_path: Path, claim: str) -> None:
    (path,) = certificates[claim]
    data = json.loads(path.read_text())
    data["statement"] |= {"low": "0", "high": "1/2"}
    assert not check_file(_forged(tmp_path, data)).ok


def test_a_false_constant_is_not_certified_by_a_forged_payload(
    certificates: dict[str, list[Path]], tmp_path: Path
) -> None:
    """10**30 c*(10**30) is about 1: the honest certificate of 1 - c*^2 cannot be turned into one of the false
    claim that it lies in [1.995, 2.005], whatever the statement says."""
    (path,) = certificates["c-star-edge"]
    data = json.loads(path.read_text())
    data["statement"] |= {"claim": "false-constant", "expression": ["mul", ["pow", ["rat", "10"], 30], ["c_star", [
        "pow", ["rat", "10"], 30]]], "low": "399/200", "high": "401/200"}  # fmt: skip
    data["claim_id"] = "false-constant"
    assert not check_file(_forged(tmp_path, data)).ok
    data["payload"]["conditions"][-2]["expression"] = ["sub", data["statement"]["expression"], ["rat", "399/200"]]
    data["payload"]["conditions"][-1]["expression"] = ["sub", ["rat", "401/200"], data["statement"]["expression"]]
    data["payload"]["conditions"] = data["payload"]["conditions"][-2:]
    assert not check_file(_forged(tmp_path, data)).ok


@pytest.mark.parametrize("claim", ["inverse-golden", "log-sqrt"])
def test_a_constants_definedness_condition_has_the_statements_relation(
    certificates: dict[str, list[Path]], tmp_path: Path, claim: str
) -> None:
    """A point condition of a definedness condition states its relation (a ball settles `!=` by excluding 0): a
    payload that states another, stronger or weaker, even one the ball also settles, is not the statement's."""
    (path,) = certificates[claim]
    genuine = json.loads(path.read_text())
    assert check_file(path).ok and genuine["statement"]["conditions"]
    for k, condition in enumerate(genuine["statement"]["conditions"]):
        assert genuine["payload"]["conditions"][k]["relation"] == condition["relation"]
        for other in {"!=", ">", ">=", "<"} - {condition["relation"]}:
            data = json.loads(path.read_text())
            data["payload"]["conditions"][k]["relation"] = other
            result = check_file(_forged(tmp_path, data))
            assert not result.ok and "relation is not the obligation" in result.message, result.message


def test_a_constant_over_a_variable_is_rejected(certificates: dict[str, list[Path]], tmp_path: Path) -> None:
    """A constant is closed: a statement that gives it a variable (bounded, with a point) is not one."""
    (path,) = certificates["c-star-edge"]
    data = json.loads(path.read_text())
    variable = {"name": "x", "integer": False, "low": ["rat", "0"], "low_open": False, "high": ["rat", "1"]}
    data["statement"] |= {"variables": [variable | {"high_open": False}], "point": {"x": "1/2"}}
    result = check_file(_forged(tmp_path, data))
    assert not result.ok and "a constant's variables" in result.message, result.message
