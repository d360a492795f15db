"""Critical points: the symbolic structures, the certified equilibria, and certificates that must be rejected."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import headflow.checks as checks
import numpy as np
import pytest
import sympy as sp
from headflow.certificates.kernel import registry_statements
from headflow.certificates.kernel.verify import check_file
from headflow.checks import cli
from headflow.checks.evidence import equilibria
from headflow.checks.verdicts import Verdict
from headflow.identities import critical_points as proofs

from tests.checking import verify_file
from tests.forging import forged_file

ROOT = Path(__file__).resolve().parents[3]
INSTANCE = equilibria.instance(4, 3, [Fraction(1), Fraction(1, 2)], "softmax", Fraction(1), "scalar")


def test_the_structures_are_proved_and_a_wrong_simplex_is_not() -> None:
    assert proofs.prove_single_cluster().proved
    assert proofs.prove_antipodal().proved
    assert proofs.prove_simplex().proved
    assert not proofs.prove_simplex(sp.Rational(-1, 2)).proved  # equiangular tokens that do not sum to zero


def _commutes(A: list[list[Fraction]], M: list[list[Fraction]]) -> bool:
    d = len(M)
    product = [[sum((A[i][k] * M[k][j] for k in range(d)), Fraction(0)) for j in range(d)] for i in range(d)]
    reverse = [[sum((M[i][k] * A[k][j] for k in range(d)), Fraction(0)) for j in range(d)] for i in range(d)]
    return product == reverse


@pytest.mark.parametrize("seed", range(6))
def test_the_commuting_rotations_are_those_the_products_say(seed: int) -> None:
    """The commutator rows are read off the entries of M (no products): every rotation returned commutes with
    every M by the products themselves, and their number is the dimension the products give (so(d) for scalar
    heads, one block's so(k) per block of projections, only 0 for heads with distinct eigenvalues)."""
    rng = np.random.default_rng(seed)
    d = 2 + seed % 3
    scalar = [[Fraction(3, 2) * (i == j) for j in range(d)] for i in range(d)]
    block = [[Fraction(int(i == j and i < 2)) for j in range(d)] for i in range(d)]
    generic = [[Fraction(int(rng.integers(-4, 5)), int(rng.integers(1, 4))) for _ in range(d)] for _ in range(d)]
    generic = [[generic[i][j] + generic[j][i] for j in range(d)] for i in range(d)]
    pairs = d * (d - 1) // 2
    for matrices, expected in (([scalar], pairs), ([block], 1 + (d - 2) * (d - 3) // 2), ([scalar, generic], None)):
        rotations = equilibria.commuting_rotations(d, matrices)
        assert all(_commutes(A, M) for A in rotations for M in matrices)
        assert all(A[i][j] == -A[j][i] for A in rotations for i in range(d) for j in range(d))
        if expected is not None:
            assert len(rotations) == expected
    wrong = [[Fraction(int(i == j) * (i + 1)) for j in range(d)] for i in range(d)]  # distinct eigenvalues
    assert equilibria.commuting_rotations(d, [wrong]) == []


@pytest.fixture(scope="module")
def found() -> dict[str, np.ndarray]:
    return {f.name: f.tokens for f in equilibria.search(INSTANCE, np.random.default_rng(0), 12)}


def _certificate(tokens: np.ndarray, folder: Path, claim: str = "critical-points") -> tuple[Path, dict[str, Any]]:
    outcome = equilibria.certify(INSTANCE, tokens)
    assert outcome["certified"] and outcome["spectrum_decided"], outcome
    return equilibria.write(folder, claim, outcome), outcome


def _float_index(tokens: np.ndarray) -> int:
    """Eigenvalues with positive real part of a finite-difference tangent Jacobian (an independent float check)."""
    n, d = tokens.shape
    basis = []
    for i in range(n):
        q = np.linalg.qr(np.column_stack([tokens[i], np.eye(d)]))[0]
        for k in range(1, d):
            v = np.zeros((n, d))
            v[i] = q[:, k]
            basis.append(v)
    h = 1e-6
    columns = []
    for v in basis:
        plus = equilibria.velocity(INSTANCE, equilibria._normalized(tokens + h * v))
        minus = equilibria.velocity(INSTANCE, equilibria._normalized(tokens - h * v))
        columns.append([np.sum(w * (plus - minus) / (2 * h)) for w in basis])
    return int(np.sum(np.linalg.eigvals(np.array(columns).T).real > 1e-6))


def test_every_class_is_certified_with_the_float_index(found: dict[str, np.ndarray], tmp_path: Path) -> None:
    assert {"single cluster", "regular simplex", "antipodal split 2+2"} <= set(found)
    for name, tokens in found.items():
        path, outcome = _certificate(tokens, tmp_path)
        assert outcome["index"] == _float_index(tokens), name
        ok, reason = verify_file(path)
        assert ok, reason


def test_a_non_equilibrium_is_not_certified() -> None:
    tokens = equilibria._normalized(np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0.0]]))
    assert not equilibria.certify(INSTANCE, tokens)["certified"]


def _centre_moved(d: dict[str, Any]) -> None:
    """The planar class's centre moved along its slice: the Krawczyk box no longer holds the zero."""
    d["payload"]["point"] = [str(Fraction(v) + Fraction(1, 10)) for v in d["payload"]["point"]]


def _orbit_dropped(d: dict[str, Any]) -> None:
    """One rotation fewer: its zero eigenvalue would have to count as a stable direction."""
    payload = d["payload"]
    payload["orbit"].pop()
    payload["spectrum"].update(zeros=payload["spectrum"]["zeros"] - 1, negative=payload["spectrum"]["negative"] + 1)


def _relabelled(claim: str) -> Callable[[dict[str, Any]], None]:
    """The certificate and its statement filed under another claim: the kernel holds the statement to the registry
    claim's regime (the found equilibrium, in its box, is no single cluster, no orthogonal split, no smt claim)."""

    def edit(d: dict[str, Any]) -> None:
        d["claim_id"] = d["statement"]["claim"] = claim

    return edit


def _registry_statement(d: dict[str, Any]) -> None:
    """The table's own statement of the claim (form `registry`) in place of the explicit one: no checker takes it."""
    d["statement"] = registry_statements.expected("critical-points", {})


FORGERIES = {
    "relabelled with its statement as the single cluster": _relabelled("critical-points.cluster-stable"),
    "relabelled with its statement as the orthogonal split": _relabelled("critical-points.orthogonal-subspaces"),
    "relabelled with its statement as an smt claim": _relabelled("T19.threshold"),
    "the registry form of the statement": _registry_statement,
    "the statement's heads not aligned": lambda d: d["statement"]["values"][1].__setitem__(0, "1/3"),
    "wrong index": lambda d: d["payload"]["spectrum"].update(positive=d["payload"]["spectrum"]["positive"] - 1),
    "box shrunk to nothing": lambda d: d["payload"].update(radius="1/1000000000000000000000000000000"),
    "centre moved": _centre_moved,
    "symmetries dropped (the rotation orbit is back)": lambda d: d["payload"].update(rotations=[], permutations=[]),
    "head strength changed": lambda d: d["payload"]["configuration"]["scores"][1][0].__setitem__(0, "1/3"),
    "relabelled as the single cluster": lambda d: d.update(claim_id="critical-points.cluster-stable"),
    "relabelled as the simplex": lambda d: d.update(claim_id="critical-points.simplex-index"),
    "eigenvectors singular": lambda d: d["payload"]["eigenvectors"].__setitem__(1, d["payload"]["eigenvectors"][0]),
    "kind changed to relu": lambda d: d["payload"]["configuration"].update(attention="relu"),
    "geometry changed to flat": lambda d: d["payload"]["configuration"].update(geometry="flat"),
    "an orbit rotation not skew": lambda d: d["payload"]["orbit"][0][0].__setitem__(0, "1"),
    "an orbit rotation doubled (dependent directions)": lambda d: d["payload"]["orbit"].__setitem__(
        1, [[str(2 * Fraction(v)) for v in row] for row in d["payload"]["orbit"][0]]
    ),
    "an orbit rotation dropped, its zero counted as stable": _orbit_dropped,
    "a permutation that is not one": lambda d: d["payload"]["permutations"].__setitem__(0, [0, 0, 1, 2]),
    "eigenvectors of the tangent size only": lambda d: d["payload"].update(
        eigenvectors=[row[:8] for row in d["payload"]["eigenvectors"][:8]]
    ),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_forged_equilibrium_certificates_are_rejected(name: str, found: dict[str, np.ndarray], tmp_path: Path) -> None:
    planar = next(t for n, t in found.items() if n.startswith("3 distinct"))
    path, _ = _certificate(planar, tmp_path)
    assert verify_file(path)[0]
    assert json.loads(path.read_text())["payload"]["point"]  # a slice of positive dimension: a Krawczyk box
    ok, reason = verify_file(forged_file(path, tmp_path, FORGERIES[name]))
    assert not ok, name
    assert "\n" not in reason


def test_the_cluster_claim_needs_a_stable_cluster(found: dict[str, np.ndarray], tmp_path: Path) -> None:
    path, outcome = _certificate(found["single cluster"], tmp_path, "critical-points.cluster-stable")
    assert outcome["index"] == 0 and verify_file(path)[0]
    path, _ = _certificate(found["antipodal split 2+2"], tmp_path, "critical-points.cluster-stable")
    assert not verify_file(path)[0]


@pytest.mark.parametrize(
    "argv",
    [
        ["--n", "0"],
        ["--lambdas", "1,x"],
        ["--lambdas", "1,-1"],
        ["--beta", "0"],
        ["--d", "2", "--lambdas", "1,1,1", "--head-family", "orthogonal"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["equilibria", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_command_lists_certified_equilibria_with_a_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["equilibria", "--n", "4", "--d", "3", "--lambdas", "1,0.5", "--attention", "softmax", "--beta", "1"]
    assert cli.main([*argv, "--starts", "8", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "single cluster" in out and "CERTIFIED  index 0" in out
    assert (tmp_path / "equilibria.png").stat().st_size > 0


def search_classes() -> str:
    """What the search finds for one seed, to the last bit of the tokens."""
    inst = equilibria.instance(4, 3, [Fraction(1)] * 2, "softmax", Fraction(1), "orthogonal")
    found = equilibria.search(inst, np.random.default_rng(3), 16)
    return repr([(f.name, f.starts, hashlib.sha256(f.tokens.tobytes()).hexdigest()) for f in found])


def test_the_search_finds_the_same_classes_to_the_last_bit_in_every_run() -> None:
    """`headflow equilibria` counted different classes in two runs: SciPy's Levenberg-Marquardt (MINPACK) answered
    the same start differently within one process. The search's own polish does not: twice in this process (with
    other starts polished in between, which moved SciPy's answers) and once in a fresh one, the same classes, starts
    and float tokens."""
    runs = []
    for other in range(2):
        equilibria.polish(INSTANCE, np.random.default_rng(other).standard_normal((4, 3)))
        runs.append(search_classes())
    code = "from tests.checks.theorems.test_critical_points import search_classes\nprint(search_classes())"
    fresh = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert runs[0] == runs[1] == fresh.stdout.strip()


def test_the_orthogonal_claim_takes_the_split_along_the_head_planes_and_no_other_heads(tmp_path: Path) -> None:
    """The split of `critical-points.orthogonal-subspaces` re-checks with its explicit statement (a head per block,
    the block Gram matrices of its tokens); the same statement with heads on both blocks (no longer orthogonal) or
    filed under the single cluster is refused by the registry's regime."""
    inst = equilibria.instance(4, 4, [Fraction(1), Fraction(1, 2)], "softmax", Fraction(1), "orthogonal")
    found = {f.name: f.tokens for f in equilibria.search(inst, np.random.default_rng(0), 2)}
    outcome = equilibria.certify(inst, found["split along the head subspaces (antipodal pairs)"])
    path = equilibria.write(tmp_path, "critical-points.orthogonal-subspaces", outcome)
    ok, reason = verify_file(path)
    assert ok, reason
    statement = json.loads(path.read_text())["statement"]
    assert statement["blocks"] == [2, 2] and statement["scores"] == [["1", "0"], ["0", "1/2"]] and statement["grams"]

    def shared(d: dict[str, Any]) -> None:
        d["statement"]["scores"] = d["statement"]["values"] = [["1", "1"], ["1/2", "1/2"]]

    for edit in (shared, _relabelled("critical-points.cluster-stable")):
        ok, reason = verify_file(forged_file(path, tmp_path, edit))
        assert not ok and "registry's claim" in reason, reason


def test_a_claims_file_claim_sharing_a_registry_id_proves_its_own_statement(tmp_path: Path) -> None:
    """examples/paper.toml states critical-points.cluster-stable as a claims-file equilibrium claim, under the
    registry's id: its certificates name their instance, are checked as that claim's own statements (not held to
    the registry's regime) and are accepted; the registry's own certificates name none and stay pinned."""
    text = (ROOT / "examples" / "paper.toml").read_text(encoding="utf-8")
    start = text.index('id = "critical-points.cluster-stable"')
    block = "[[claim]]\n" + text[start : text.index("[[claim]]", start)]
    report = checks.check(block, certificates=tmp_path, progress=False)
    assert report.verdicts == {"critical-points.cluster-stable": Verdict.CERTIFIED}
    paths = sorted(tmp_path.glob("critical-points.cluster-stable.equilibrium.*.json"))
    assert paths
    for path in paths:
        assert "instance" in json.loads(path.read_text())["payload"]
        result = check_file(path)
        assert result.ok, result.message
