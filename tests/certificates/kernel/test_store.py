"""Certificate files: every kind re-checks from its file in a fresh process; tampering is rejected."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.checking import FreshCheck
from tests.checking import verify_file as verify_certificate
from tests.forging import collapse_first_split, forged_file

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def certs(certified: dict[str, list[Path]]) -> dict[str, list[Path]]:
    """`headflow certify --certificates DIR` (once per session); the files grouped by kind."""
    groups: dict[str, list[Path]] = {"smt": [], "convexity": [], "witness": [], "gram": [], "equiangular": []}
    for path in (p for group in certified.values() for p in group):
        groups[json.loads(path.read_text())["kind"]].append(path)
    return groups


def check_cert(*paths: Path) -> subprocess.CompletedProcess[str]:
    """`python -m headflow check-cert` in a fresh process, an entry per line (however long)."""
    return subprocess.run(
        [sys.executable, "-m", "headflow", "check-cert", "--width=1000", *map(str, paths)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )


def test_certify_writes_every_kind(certs: dict[str, list[Path]]) -> None:
    assert all(certs[kind] for kind in certs), {k: len(v) for k, v in certs.items()}
    claims = {json.loads(p.read_text())["claim_id"] for group in certs.values() for p in group}
    convexity = "T22.superadditivity.reading-b.listed-n"
    assert {
        "T19.threshold",
        "T17.shadow-obstruction",
        convexity,
        "T22.superadditivity",
        "projection.tangency",
        "T22.late-rate",
    } <= claims


@pytest.mark.slow
def test_certify_writes_exactly_the_files_of_the_verify_run(certified: dict[str, list[Path]], tmp_path: Path) -> None:
    """`headflow certify` on the whole paper (half a minute) exits 0 and writes the very files (their names carry
    their checksums) that `certified` reads from the session's verify run, which the tests of this module check."""
    from headflow.checks import cli

    assert cli.main(["certify", "--certificates", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.glob("*.json")) == sorted(p.name for g in certified.values() for p in g)


def test_every_certificate_rechecks_in_a_fresh_process(
    certs: dict[str, list[Path]], certified_fresh_check: FreshCheck
) -> None:
    """`headflow check-cert` of every file `certify` wrote, in the session's fresh process (`certified_fresh_check`,
    after the kernel's checks of the same files: the command's solver problems are answered from that process's
    memo), lists each file as ok in the order given and counts them all."""
    result = certified_fresh_check.check_cert
    assert result is not None
    files = [Path(path) for path in certified_fresh_check.paths]
    assert sorted(files) == sorted(p for group in certs.values() for p in group)
    assert result.returncode == 0, result.stderr
    entries = [line for line in result.stdout.splitlines() if not line.startswith(" ")]
    assert entries[:-1] == [next(e for e in entries if e.startswith(f"{path}: ok: ")) for path in files]
    assert result.stdout.strip().splitlines()[-1] == f"{len(files)} of {len(files)} certificates re-checked"


def _first(certs: dict[str, list[Path]], kind: str, claim: str, needle: str = "") -> Path:
    for path in certs[kind]:
        data = json.loads(path.read_text())
        if data["claim_id"] == claim and needle in json.dumps(data["payload"]):
            return path
    raise AssertionError(f"no {kind} certificate for {claim} containing {needle!r}")


def _statement(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(s for s in data["statement"]["statements"] if s["name"] == name)


def _drop_hypothesis(data: dict[str, Any], name: str, symbol: str) -> None:
    """Remove a hypothesis mentioning `symbol` (a weaker, here false, statement)."""
    statement = _statement(data, name)
    term = next(h for h in statement["hypotheses"] if symbol in json.dumps(h))
    statement["hypotheses"].remove(term)


SMT_MUTATIONS: dict[str, tuple[Callable[[dict[str, Any]], None], bool, str]] = {
    "changed number, hash kept": (
        lambda d: _statement(d, "summary-form")["hypotheses"][0].__setitem__(2, ["rat", "3"]),
        False,
        "sha256",
    ),
    "broken hash": (lambda d: d.update(sha256="0" * 64), False, "sha256"),
    "removed hypothesis": (lambda d: _drop_hypothesis(d, "summary-form", "q_star"), True, "statement.statements"),
    "added answer field": (lambda d: d["payload"].update(answer="sat"), True, "unexpected ['answer']"),
    "smuggled assertion": (
        lambda d: _statement(d, "summary-form")["hypotheses"].append("true) (assert false"),
        True,
        "statement.statements",
    ),
    "true statement relabelled": (
        lambda d: d.update(claim_id="T19.threshold.cauchy-schwarz"),
        True,
        "the statement is of claim 'T19.threshold'",
    ),
}


@pytest.mark.parametrize("mutation", list(SMT_MUTATIONS))
def test_smt_tampering_is_rejected(certs: dict[str, list[Path]], tmp_path: Path, mutation: str) -> None:
    mutate, rehash, expected = SMT_MUTATIONS[mutation]
    source = _first(certs, "smt", "T19.threshold")
    ok, reason = verify_certificate(forged_file(source, tmp_path, mutate, rehash))
    assert not ok and expected in reason, reason


def _first_leaf(node: dict[str, Any]) -> dict[str, Any]:
    """The first leaf of a cover tree (below splits, monotone faces and boundary derivatives)."""
    if "leaf" in node:
        return node
    return _first_leaf(next(node[key] for key in ("low", "face", "derivative") if key in node))


def _convex(data: dict[str, Any]) -> dict[str, Any]:
    return data["payload"]["parts"]["convex"]


def _collapse_first_split(data: dict[str, Any]) -> None:
    _convex(data)["tree"] = collapse_first_split(_convex(data)["tree"])


COVER_MUTATIONS: dict[str, tuple[Callable[[dict[str, Any]], None], bool, str]] = {
    "changed enclosure, hash kept": (
        lambda d: _first_leaf(_convex(d)["tree"]).update(leaf=["1", "2"]),
        False,
        "sha256",
    ),
    "enclosure that excludes the value": (
        lambda d: _first_leaf(_convex(d)["tree"]).update(leaf=["1000", "1001"]),
        True,
        "enclosure",
    ),
    "domain pushed into the concave region": (lambda d: _convex(d)["domain"]["u"].__setitem__(0, "2"), True, "domain"),
    "b pushed into the concave region": (lambda d: d["payload"].update(b="2"), True, "need 0 < a < b"),
    "removed boxes": (_collapse_first_split, True, "box"),
    "flipped relation": (lambda d: _convex(d).update(relation="<"), True, "relation"),
    "leaf count recorded": (lambda d: _convex(d).update(leaves=1), True, "unexpected ['leaves']"),
    "variables listed": (lambda d: _convex(d).update(variables=["u"]), True, "unexpected ['variables']"),
}


@pytest.mark.parametrize("mutation", list(COVER_MUTATIONS))
def test_cover_tampering_is_rejected(certs: dict[str, list[Path]], tmp_path: Path, mutation: str) -> None:
    mutate, rehash, expected = COVER_MUTATIONS[mutation]
    source = certs["convexity"][0]
    ok, reason = verify_certificate(forged_file(source, tmp_path, mutate, rehash))
    assert not ok and expected in reason, reason


def _nudge_token(d: dict[str, Any]) -> None:
    row = d["payload"]["configuration"]["tokens"][0]
    row[0] = row[0] + "1" if "/" in row[0] else row[0] + "/7"


def _break_orthogonality(d: dict[str, Any]) -> None:
    scores = d["payload"]["configuration"]["scores"]
    for h, M in enumerate(scores):
        for i, row in enumerate(M):
            if row[i] == "0":
                row[i] = "1/3"
                d["payload"]["configuration"]["values"][h][i][i] = "1/3"
                return
    raise AssertionError("no zero diagonal entry to change")


WITNESS_MUTATIONS: dict[str, tuple[Callable[[dict[str, Any]], None], bool, str]] = {
    "changed beta, hash kept": (lambda d: d["payload"]["configuration"].update(beta="3"), False, "sha256"),
    "token off the sphere": (_nudge_token, True, "unit-tokens"),
    "heads no longer orthogonal": (_break_orthogonality, True, "orthogonal-heads"),
    "changed beta": (lambda d: d["payload"]["configuration"].update(beta="1/1000"), True, "re-evaluated ball"),
    "flipped relation": (lambda d: d["payload"].update(relation="<"), True, "does not negate"),
    "softmax attention": (lambda d: d["payload"]["configuration"].update(attention="softmax"), True, "attention"),
    "missing hash": (lambda d: d.pop("sha256"), False, "missing"),
}


@pytest.mark.parametrize("mutation", list(WITNESS_MUTATIONS))
def test_witness_tampering_is_rejected(certs: dict[str, list[Path]], tmp_path: Path, mutation: str) -> None:
    mutate, rehash, expected = WITNESS_MUTATIONS[mutation]
    source = _first(certs, "witness", "T17.shadow-obstruction")
    ok, reason = verify_certificate(forged_file(source, tmp_path, mutate, rehash and mutation != "missing hash"))
    assert not ok and expected in reason, reason


def _unsymmetric_values(d: dict[str, Any]) -> None:
    """W_0 with entry (0, 1) moved by 1: no longer symmetric (the scores are untouched)."""
    W = d["payload"]["configuration"]["values"][0]
    W[0][1] = str(Fraction(W[0][1]) + 1)


def _aligned_first_head(d: dict[str, Any]) -> None:
    cfg = d["payload"]["configuration"]
    cfg["values"][0] = cfg["scores"][0]


ALIGNMENT_FORGERIES: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "W_0 not symmetric": (_unsymmetric_values, "symmetric-values"),
    "W_0 = M_0": (_aligned_first_head, "misaligned-values"),
    "W_h = M_h for every h": (
        lambda d: d["payload"]["configuration"].update(values=d["payload"]["configuration"]["scores"]),
        "misaligned-values",
    ),
    "symmetric-values dropped from the list": (
        lambda d: d["payload"]["hypotheses"].remove("symmetric-values"),
        "hypotheses other than the statement's",
    ),
}


@pytest.mark.parametrize("forgery", list(ALIGNMENT_FORGERIES))
def test_no_alignment_witness_must_have_symmetric_misaligned_values(
    certs: dict[str, list[Path]], tmp_path: Path, forgery: str
) -> None:
    """The checker binds the no-alignment hypotheses exactly: W_h symmetric and W_h != M_h at every head."""
    source = _first(certs, "witness", "T11.hypotheses.no-alignment")
    assert verify_certificate(source)[0]
    edit, expected = ALIGNMENT_FORGERIES[forgery]
    ok, reason = verify_certificate(forged_file(source, tmp_path, edit))
    assert not ok and expected in reason, reason


def test_point_witness_tampering_is_rejected(certs: dict[str, list[Path]], tmp_path: Path) -> None:
    source = _first(certs, "witness", "T22.superadditivity")
    moved = forged_file(source, tmp_path, lambda d: d["payload"]["point"].update(lambda1="3"), True)
    ok, reason = verify_certificate(moved)
    assert not ok and "condition" in reason, reason


def test_check_cert_reports_one_line_per_failing_file(certs: dict[str, list[Path]], tmp_path: Path) -> None:
    good = certs["smt"][0]
    bad = forged_file(good, tmp_path, lambda d: d["payload"].update(answer="sat"), True)
    missing = tmp_path / "absent.json"
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    result = check_cert(good, bad, missing, garbage)
    assert result.returncode == 1
    failing = result.stderr.strip().splitlines()
    assert len(failing) == 4 and all("FAIL" in line for line in failing[:3])
    assert failing[3] == "1 of 4 certificates re-checked, 3 failed"
    assert "Traceback" not in result.stderr


#: What the checker may import (besides the standard library, flint, sympy, mpmath and numpy): its own
#: modules, the expression trees with their derivatives, end-point arithmetic and the lambda_c enclosure
#: (whose monotonicity the SymPy derivation of identities.scalar_regime proves), the cover forms and regions,
#: the small ball model, the regime derivation, the closed forms and, for claims-file certificates, the
#: claims-file reader (the same safe parser as `headflow check`).
def test_obligations_cover_exactly_what_certify_writes(certs: dict[str, list[Path]]) -> None:
    """Both ways: every claim certify writes has an obligation, and every obligation is exercised by certify."""
    from headflow.certificates.statements import registry as obligations
    from headflow.checks.commands.certify import certifying_claims

    written = {json.loads(p.read_text())["claim_id"] for group in certs.values() for p in group}
    assert written == set(obligations.CLAIMS)
    registered = {claim.id for claim in certifying_claims(None)}
    assert set(obligations.CLAIMS) <= registered | {"T11.hypotheses.no-symmetry", "T11.hypotheses.no-alignment"}


def _leaf_paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _leaf_paths(v, (*prefix, k))]
    if isinstance(node, list) and node:
        return [p for i, v in enumerate(node) for p in _leaf_paths(v, (*prefix, i))]
    return [prefix]


def _set_path(data: Any, path: tuple, value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


@pytest.mark.parametrize("kind", ["smt", "convexity", "witness", "gram"])
def test_hostile_values_are_rejected_without_a_crash(certs: dict[str, list[Path]], tmp_path: Path, kind: str) -> None:
    """Any payload value (an smt or gram certificate's data: its statement's) replaced by junk (and the hash
    recomputed): a clean (ok, reason), never an exception."""
    rng = np.random.default_rng(11)
    source = certs[kind][0]
    part = "statement" if kind in ("smt", "gram") else "payload"
    paths = _leaf_paths(json.loads(source.read_text())[part])
    junk = [None, -1, 10**6, "x", "1/0", [], {}, ["rat"], 0.5, True]
    rejected = 0
    for k in rng.choice(len(paths), size=min(25, len(paths)), replace=False):
        value = junk[int(rng.integers(len(junk)))]
        mutated = forged_file(source, tmp_path, lambda d, k=k, value=value: _set_path(d[part], paths[k], value), True)
        ok, reason = verify_certificate(mutated)
        assert isinstance(reason, str) and "\n" not in reason
        rejected += not ok
    assert rejected > 0


def test_witness_head_out_of_range_is_rejected(certs: dict[str, list[Path]], tmp_path: Path) -> None:
    source = _first(certs, "witness", "T17.shadow-obstruction")
    ok, reason = verify_certificate(forged_file(source, tmp_path, lambda d: d["payload"].update(head=-1), True))
    assert not ok and "head" in reason
