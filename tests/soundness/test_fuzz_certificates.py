"""Fuzzing `headflow check-cert` with hostile files: binary junk, random JSON, truncated and mutated
real certificates, and structure-aware mutations whose hash is recomputed.

The contract: exit code 1 and one `FAIL` line per rejected file (0 only when every file re-checks),
never a traceback; a file whose content changed without a matching hash is always rejected.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from headflow.checks.cli import main
from hypothesis import given
from hypothesis import strategies as st

from tests.forging import forged_file
from tests.soundness.fuzzing import fuzz_settings

FUZZ = fuzz_settings(60)


REAL = {
    "smt": "T19.threshold",
    "convexity": "T22.superadditivity.reading-b.listed-n",
    "point": "T19.threshold.exact",
    "configuration": "T17.shadow-obstruction",
}
KINDS = list(REAL)


@pytest.fixture(scope="module")
def real(certified: dict[str, list[Path]]) -> dict[str, Path]:
    """One genuine certificate of each kind: smt, convexity (point and covers), point witness, configuration."""
    return {kind: certified[claim][0] for kind, claim in REAL.items()}


def check_cert(capsys: pytest.CaptureFixture[str], *paths: Path) -> tuple[int, str, str]:
    try:
        code = main(["check-cert", "--width=1000", *map(str, paths)])  # one line per entry
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in err + out
    return code, out, err


def write(tmp: Path, data: bytes) -> Path:
    path = tmp / f"{uuid.uuid4().hex}.json"
    path.write_bytes(data)
    return path


def assert_rejected(code: int, err: str, path: Path) -> None:
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"{path}: FAIL: "), err
    assert lines[1] == "0 of 1 certificate re-checked, 1 failed"


def test_every_real_certificate_rechecks(capsys, real) -> None:
    code, out, err = check_cert(capsys, *real.values())
    assert code == 0, err
    assert out.strip().splitlines()[-1] == f"{len(real)} of {len(real)} certificates re-checked"
    assert len(out.strip().splitlines()) == len(real) + 1  # an entry each, then the summary


@FUZZ
@given(data=st.binary(max_size=400))
def test_binary_junk_is_rejected(capsys, tmp_path, data: bytes) -> None:
    path = write(tmp_path, data)
    code, _, err = check_cert(capsys, path)
    assert_rejected(code, err, path)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@FUZZ
@given(value=json_values | st.fixed_dictionaries({"schema": st.just("headflow-certificate/3"), "kind": json_values}))
def test_random_json_is_rejected(capsys, tmp_path, value: Any) -> None:
    path = write(tmp_path, json.dumps(value).encode())
    code, _, err = check_cert(capsys, path)
    assert_rejected(code, err, path)


@FUZZ
@given(kind=st.sampled_from(KINDS), cut=st.floats(0, 1))
def test_truncated_certificates_are_rejected(capsys, tmp_path, real, kind: str, cut: float) -> None:
    text = real[kind].read_bytes()
    path = write(tmp_path, text[: int(cut * (len(text) - 2))])
    code, _, err = check_cert(capsys, path)
    assert_rejected(code, err, path)


@FUZZ
@given(
    kind=st.sampled_from(KINDS),
    position=st.floats(0, 1, exclude_max=True),
    byte=st.integers(0, 255),
)
def test_a_changed_byte_is_rejected_unless_the_content_is_unchanged(
    capsys, tmp_path, real, kind: str, position: float, byte: int
) -> None:
    original = real[kind].read_bytes()
    index = int(position * len(original))
    mutated = original[:index] + bytes([byte]) + original[index + 1 :]
    path = write(tmp_path, mutated)
    code, _, err = check_cert(capsys, path)
    try:
        unchanged = json.loads(mutated) == json.loads(original)
    except (ValueError, UnicodeDecodeError):
        unchanged = False
    if not unchanged:
        assert_rejected(code, err, path)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside a JSON document."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


@FUZZ
@given(
    kind=st.sampled_from(KINDS),
    choice=st.floats(0, 1, exclude_max=True),
    replacement=json_values,
)
def test_payload_mutations_with_a_valid_hash_never_crash(capsys, tmp_path, real, kind, choice, replacement) -> None:
    """Any value of the payload (an smt certificate's data: its statement's) replaced by random JSON, hash
    recomputed: a clean verdict, never a crash."""
    part = "statement" if kind == "smt" else "payload"
    paths = _paths(json.loads(real[kind].read_text())[part])[1:]
    target = paths[int(choice * len(paths))]

    def replace(data: dict[str, Any]) -> None:
        holder = data[part]
        for key in target[:-1]:
            holder = holder[key]
        holder[target[-1]] = replacement

    path = forged_file(real[kind], tmp_path, replace)
    code, _, err = check_cert(capsys, path)
    assert code in (0, 1)
    if code == 1:
        assert_rejected(code, err, path)


@pytest.mark.parametrize(
    ("name", "edit"),
    [
        ("deep expression", lambda p: p.__setitem__("expression", _deep_expression(900))),
        ("deep tree", lambda p: p.__setitem__("tree", _deep_tree(900))),
        ("huge exponent", lambda p: p.__setitem__("expression", ["pow", ["sym", "u"], 10**9])),
        ("huge rational", lambda p: p["domain"].__setitem__("u", ["1" * 20_000, "2"])),
        ("huge precision", lambda p: p.__setitem__("prec", 10**9)),
    ],
)
def test_hostile_sizes_are_rejected_quickly(capsys, tmp_path, real, name: str, edit) -> None:
    path = forged_file(real["convexity"], tmp_path, lambda d: edit(d["payload"]["parts"]["convex"]))
    code, _, err = check_cert(capsys, path)
    assert_rejected(code, err, path)


def test_json_nested_beyond_the_parser_is_rejected(capsys, tmp_path) -> None:
    path = write(tmp_path, b'{"schema": "headflow-certificate/3", "payload": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    code, _, err = check_cert(capsys, path)
    assert_rejected(code, err, path)


def _deep_expression(depth: int) -> list[Any]:
    node: list[Any] = ["sym", "u"]
    for _ in range(depth):
        node = ["exp", node]
    return node


def _deep_tree(depth: int) -> dict[str, Any]:
    node: dict[str, Any] = {"leaf": ["0", "1"]}
    for _ in range(depth):
        node = {"split": "u", "at": "5", "low": node, "high": {"leaf": ["0", "1"]}}
    return node


def test_a_folder_of_junk_fails_file_by_file(capsys, tmp_path, real) -> None:
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "a.json").write_bytes(b"\x00\xff")
    (junk / "b.json").write_text("{}")
    code, out, err = check_cert(capsys, junk, real["point"])
    assert code == 1
    assert len(err.strip().splitlines()) == 3 and len(out.strip().splitlines()) == 1
    assert err.strip().splitlines()[-1] == "1 of 3 certificates re-checked, 2 failed"
