"""The Coq statements of the normalization schemes' and the interactions' certificates are the claims' own: the
statement's value, evaluated with balls over its definitions, lies in the certificate's enclosure (the value
check-cert's balls settled), and `headflow check-cert --coq` re-checks them or says why it cannot (issue 37: the
chain once wrote the flat velocity for every scheme but the sphere, and refused an interaction as an unexpected
key)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import headflow.checks as checks
import pytest
from flint import arb
from headflow.certificates.kernel.coq.certificate import problem as certificate_problem
from headflow.certificates.kernel.exact import interval_ball, precision
from headflow.certificates.kernel.exprtree import evaluate, parse_rational
from headflow.certificates.kernel.verify import check_file

from tests.coq_tier import needs_coqc

EXAMPLES = Path(__file__).parents[3] / "examples"
#: Witnesses of the schemes beyond examples/normalization.toml (nGPT, Mix-LN), found at seed 0.
SCHEMES = """
[[claim]]
id = "ngpt.softmax-two-heads-energy"
kind = "dynamics"
quantity = "energy"
property = "non-decreasing"
geometry = "ngpt"
attention = "softmax"
heads = "random-symmetric"
tokens = "random-sphere"
H = 2
n = 3
d = 2
beta = 1.0
samples = 1

[[claim]]
id = "mix-ln.general-heads-energy"
kind = "dynamics"
quantity = "energy"
property = "non-decreasing"
geometry = "mix-ln"
heads = "random-general"
tokens = "random-sphere"
H = 1
n = 3
d = 2
beta = 1.0
"""


@pytest.fixture(scope="module")
def scheme_certificates(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The configuration witnesses `headflow check` writes for examples/normalization.toml and the claims above (its
    equiangular certificates are `tests/certificates/kernel/test_equiangular_schemes.py`'s)."""
    folder = tmp_path_factory.mktemp("schemes")
    checks.check(EXAMPLES / "normalization.toml", certificates=folder, progress=False)
    checks.check(SCHEMES, certificates=folder, progress=False)
    return sorted(folder.glob("*.witness.*.json"))


def _statement_value(path: Path) -> arb:
    """The value whose sign the Coq theorem states last (the rate, or rhs - lhs), evaluated with balls over the
    statement's definitions in order."""
    _, built = certificate_problem(check_file(path))
    with precision(128):
        env: dict[str, arb] = {}
        for name, tree in built.definitions:
            env[name] = evaluate(tree, env)
        return evaluate(built.conditions[-1]["expression"], env)


def _enclosure(path: Path) -> arb:
    low, high = json.loads(path.read_text())["payload"]["enclosure"]
    return interval_ball(parse_rational(low), parse_rational(high))


def test_the_schemes_certificates_state_the_claims_values(scheme_certificates: list[Path]) -> None:
    geometries = {json.loads(p.read_text())["payload"]["configuration"]["geometry"] for p in scheme_certificates}
    assert geometries == {"pre-ln", "peri-ln", "ngpt", "mix-ln"}
    for path in scheme_certificates:
        value, enclosure = _statement_value(path), _enclosure(path)
        assert value.overlaps(enclosure) and value.rad() < 1e-20, (path.name, value, enclosure)


@pytest.mark.slow
def test_the_interactions_certificates_state_the_claims_values(tmp_path: Path) -> None:
    checks.check(EXAMPLES / "interactions.toml", certificates=tmp_path, progress=False)
    paths = sorted(tmp_path.glob("*.json"))
    assert len(paths) == 3
    for path in paths:
        if len(json.loads(path.read_text())["payload"]["configuration"]["tokens"]) > 4:
            continue  # too large for Coq (n^2 H d past model_tree.MAX_SIZE): see the slow test
        value, enclosure = _statement_value(path), _enclosure(path)
        assert value.overlaps(enclosure), (path.name, value, enclosure)


def _check_cert_coq(paths: list[Path]) -> str:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "headflow",
            "check-cert",
            "--coq",
            "--width=1000",
            "--coq-seconds",
            "900",
            *map(str, paths),
        ],
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return result.stdout


@needs_coqc
@pytest.mark.slow
def test_the_schemes_certificates_are_rechecked_by_coq(scheme_certificates: list[Path]) -> None:
    out = _check_cert_coq(scheme_certificates)
    for path in scheme_certificates:
        assert f"{path}: coq: re-checked by Coq" in out, (path.name, out[-3000:])


@needs_coqc
@pytest.mark.slow
def test_the_interactions_certificates_are_rechecked_by_coq_or_not_translatable(tmp_path: Path) -> None:
    # each witness re-checked by Coq, or refused with its reason (a node Coq has no term for, a size past the cap);
    # the searches' witnesses are small today (n^2 H d <= 100), so all three are re-checked
    checks.check(EXAMPLES / "interactions.toml", certificates=tmp_path, progress=False)
    paths = sorted(tmp_path.glob("*.json"))
    out = _check_cert_coq(paths)
    assert "unexpected" not in out and len(paths) == 3
    for path in paths:
        assert f"{path}: coq: re-checked by Coq" in out or f"{path}: coq: not translatable" in out, out[-3000:]
    assert out.count("coq: re-checked by Coq") >= 1, out[-3000:]


@needs_coqc
@pytest.mark.slow
def test_the_masks_certificates_are_rechecked_by_coq(tmp_path: Path) -> None:
    # causal and given masks, beta < 0, a masked interaction: each re-checked at the claim's own values; a stationary
    # start's cluster gap (a minimum over pairs) reaches Coq as its rational value, pinned by one conjunct per pair
    checks.check(EXAMPLES / "masks.toml", certificates=tmp_path, progress=False)
    paths = sorted(tmp_path.glob("*.json"))
    out = _check_cert_coq(paths)
    for path in paths:
        stationary = "stationary" in json.loads(path.read_text())["payload"].get("hypotheses", [])
        if not stationary:
            value, enclosure = _statement_value(path), _enclosure(path)
            assert value.overlaps(enclosure), (path.name, value, enclosure)
        assert f"{path}: coq: re-checked by Coq" in out, (path.name, out[-3000:])
