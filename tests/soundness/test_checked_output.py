"""`headflow check-cert` prints only what it checked, and accepts no field it does not check (issue 23, item 2).

Genuine claims-file certificates (an smt inequality, a cover, a constant) are written by `headflow check` from
claims carrying free text (`title`, `statement`); their re-check lines must be generated from the checked trees,
and every forgery that smuggles text back in (a top-level `statement` or `method`, an embedded `statement`, an
unknown field, a duplicate key), each with its checksum recomputed, is rejected naming the field.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from headflow.checks.claimsfile import inequality_decider
from headflow.checks.cli import main

from tests.checking import verify_file
from tests.forging import forged, write
from tests.soundness.forgeries import UNCHECKED, unchecked_fields

ROOT = Path(__file__).resolve().parents[2]
LIE = "For all H >= 1: c_star(H) <= 1/2"
CLAIMS = textwrap.dedent(f"""
    [[claim]]
    id = "square-below"
    kind = "inequality"
    title = "Squares stay below"
    statement = "{LIE}"
    lhs = "x**2"
    op = "<="
    rhs = "x"
    domain = {{ x = "[0, 1]" }}

    [[claim]]
    id = "root-two"
    kind = "constant"
    statement = "{LIE}"
    expr = "sqrt(2)"
    value = "1.414"
    digits = 4
""")
COVERED = textwrap.dedent(f"""
    [[claim]]
    id = "parabola"
    kind = "inequality"
    statement = "{LIE}"
    lhs = "x*(1 - x)"
    op = ">="
    rhs = "1/10"
    domain = {{ x = "[1/5, 1/2]" }}
""")
#: What each genuine certificate's line must say, generated from the checked trees.
RENDERED = {
    "square-below": "for all x in [0, 1]: x**2 <= x",
    "root-two": "sqrt(2) lies in [1.4135, 1.4145]",
    "parabola": "for all x in [1/5, 1/2]: x*(1 - x) >= 1/10",
}


def _check(folder: Path, text: str, smt: bool) -> dict[str, Path]:
    claims = folder / "claims.toml"
    claims.write_text(text)
    certs = folder / "certs"
    with pytest.MonkeyPatch.context() as patch:
        if not smt:
            patch.setattr(inequality_decider, "decide_smt", lambda *_: "SMT route off in this test")
        assert main(["check", str(claims), "--certificates", str(certs)]) == 0
    return {json.loads(p.read_text())["claim_id"]: p for p in sorted(certs.glob("*.json"))}


@pytest.fixture(scope="module")
def genuine(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One certificate per claim: smt (square-below), witness (root-two), interval-cover (parabola)."""
    paths = _check(tmp_path_factory.mktemp("smt"), CLAIMS, smt=True)
    paths |= _check(tmp_path_factory.mktemp("cover"), COVERED, smt=False)
    kinds = {claim: json.loads(path.read_text())["kind"] for claim, path in paths.items()}
    assert kinds == {"square-below": "smt", "root-two": "witness", "parabola": "interval-cover"}, kinds
    return paths


def _data(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def test_the_line_after_ok_is_rendered_from_what_was_checked(genuine: dict[str, Path]) -> None:
    for claim, path in genuine.items():
        ok, line = verify_file(path)
        assert ok, line
        assert RENDERED[claim] in line, line
        assert "c_star" not in line and "Squares" not in line, line


def test_the_writers_write_only_checked_fields(genuine: dict[str, Path], tmp_path: Path) -> None:
    for path in genuine.values():
        data = _data(path)
        assert set(data) == {"schema", "claim_id", "claim", "kind", "statement", "payload", "tools", "sha256"}
        assert "statement" not in data["claim"]["toml"] and "title" not in data["claim"]["toml"]
    claims = tmp_path / "claims.toml"
    claims.write_text(CLAIMS)  # --claims compares the checked fields: the free text in the user's file is no difference
    result = subprocess.run(
        [sys.executable, "-m", "headflow", "check-cert", str(genuine["square-below"]), "--claims", str(claims)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def _embed_statement(d: dict[str, Any]) -> None:
    d["claim"]["toml"] += f'"statement" = "{LIE}"\n'


FORGERIES = {
    "top-level statement": (lambda d: d.update(statement=LIE), "statement"),
    "top-level method": (lambda d: d.update(method="proved by hand"), "method"),
    "embedded statement": (_embed_statement, "statement"),
    "embedded title": (lambda d: d["claim"].update(toml=d["claim"]["toml"] + '"title" = "x"\n'), "title"),
    "field next to the embedded claim": (lambda d: d["claim"].update(note=LIE), "note"),
    "comment in the embedded claim": (lambda d: d["claim"].update(toml=d["claim"]["toml"] + f"# {LIE}\n"), "canonical"),
    "unknown tool": (lambda d: d["tools"].update(note=LIE), "note"),
    "tool version as a sentence": (lambda d: d["tools"].update(z3=LIE), "tools.z3"),
}


@pytest.mark.parametrize("forgery", list(FORGERIES))
@pytest.mark.parametrize("claim", list(RENDERED))
def test_smuggled_text_is_rejected_naming_the_field(
    genuine: dict[str, Path], tmp_path: Path, claim: str, forgery: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """By `headflow check-cert`: the kernel holds the embedded claim (provenance) to its form, the command reads its
    text (`headflow.checks.certificate_lines`)."""
    edit, field = FORGERIES[forgery]
    path = write(forged(_data(genuine[claim]), edit), tmp_path / "forged.json")
    capsys.readouterr()
    assert main(["check-cert", str(path)]) == 1
    reason = " ".join(capsys.readouterr().err.split())
    assert "FAIL: " in reason and field in reason, reason
    if forgery.startswith(("embedded", "comment")):  # provenance only: the kernel accepts the proof itself
        assert verify_file(path)[0]


def test_an_unknown_field_at_any_level_is_rejected_by_name(genuine: dict[str, Path], tmp_path: Path) -> None:
    accepted = []
    for claim, path in genuine.items():
        for name, edit in unchecked_fields(_data(path)):
            ok, reason = verify_file(write(forged(_data(path), edit), tmp_path / "forged.json"))
            if ok or UNCHECKED not in reason:
                accepted.append(f"{claim}: {name}: {reason}")
    assert not accepted, accepted


@pytest.mark.parametrize("where", ["top", "payload"])
@pytest.mark.parametrize("claim", list(RENDERED))
def test_a_duplicate_key_is_rejected_naming_it(
    genuine: dict[str, Path], tmp_path: Path, claim: str, where: str
) -> None:
    """json.loads keeps the last of two equal keys; the checker refuses the file instead."""
    data = _data(genuine[claim])
    text = json.dumps(data)
    if where == "top":  # a first "kind" that a reader keeping the first value would see
        text = '{"kind": "smt", ' + text[1:]
        key = "kind"
    else:
        key = next(iter(data["payload"]))
        text = text.replace('"payload": {', f'"payload": {{"{key}": null, ', 1)
    path = tmp_path / "duplicate.json"
    path.write_text(text)
    ok, reason = verify_file(path)
    assert not ok and f"duplicate key {key!r}" in reason, reason


@pytest.mark.parametrize("claim_field", ["a claim", ["toml"], {}, {"toml": ["[[claim]]"]}, {"toml": {"id": "x"}}])
def test_the_kernel_holds_the_claim_field_to_its_form(
    genuine: dict[str, Path], tmp_path: Path, claim_field: Any
) -> None:
    """The embedded claim is provenance, but not a place for unchecked data: null or exactly {"toml": <text>}."""
    path = write(forged(_data(genuine["square-below"]), lambda d: d.update(claim=claim_field)), tmp_path / "f.json")
    ok, reason = verify_file(path)
    assert not ok and "claim" in reason, reason
