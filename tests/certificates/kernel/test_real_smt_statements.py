"""smt certificates of statements of form `real` (`headflow.certificates.kernel.real_statements`, `real_encoding`): the
example claims' certificates, written by the SMT route, are accepted from their statements alone without SymPy or
mpmath; a false claim gets no certificate, and certificates forged for false statements (relation flipped, domain
widened, hypothesis dropped, a false cut, another claim's statement) are rejected."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.kernel.format import content_hash
from headflow.certificates.kernel.verify import check_file

from tests.command import headflow
from tests.sample_claims import claims_of

ROOT = Path(__file__).resolve().parents[3]
#: The example files whose claims the SMT route certifies, with the claims of each whose certificates are smt ones
#: (None: every claim); the other claims of conjunctions.toml write a witness or no certificate, and take seconds.
EXAMPLES = {"smt.toml": None, "conjunctions.toml": ("c-star.root-range-monotone", "c-star.open-range")}
CLAIMS = """
[[claim]]
id = "sqrt-square"
kind = "identity"
lhs = "sqrt(x**2)"
rhs = "x"
symbols = { x = "nonnegative" }

[[claim]]
id = "sqrt-square.all-reals"             # false: sqrt((-1)**2) = 1
kind = "identity"
lhs = "sqrt(x**2)"
rhs = "x"
symbols = { x = "real" }
"""


def _check(claims: Path, folder: Path, *extra: str) -> None:
    """`headflow check CLAIMS --certificates FOLDER`, in this process (only the certificates it writes are read)."""
    headflow("check", str(claims), "--certificates", str(folder), *extra)


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The smt certificates the deciders write for the examples and CLAIMS, by claim id: one `headflow check` of
    the examples' claims and CLAIMS in one file."""
    folder = tmp_path_factory.mktemp("smt")
    texts = []
    for name, ids in EXAMPLES.items():
        text = (ROOT / "examples" / name).read_text()
        texts.append(text if ids is None else claims_of(text, *ids))
    (folder / "claims.toml").write_text("\n".join([*texts, CLAIMS]))
    _check(folder / "claims.toml", folder / "c")
    return {json.loads(p.read_text())["claim_id"]: p for p in sorted((folder / "c").glob("*.smt.*.json"))}


def _data(certificates: dict[str, Path], claim: str) -> dict[str, Any]:
    return json.loads(certificates[claim].read_text())


def _forged(tmp_path: Path, data: dict[str, Any]) -> Path:
    data["sha256"] = content_hash(data)
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data))
    return path


def test_the_examples_smt_certificates_carry_statements_and_are_accepted_without_sympy(
    certificates: dict[str, Path],
) -> None:
    assert len(certificates) >= 12, sorted(certificates)
    assert {"exp.second-order", "lambda-c.below-four", "sqrt.product", "sqrt-square"} <= set(certificates)
    assert all(json.loads(p.read_text())["statement"]["form"] == "real" for p in certificates.values())
    script = (
        "import sys\nfrom headflow.certificates.kernel.verify import check_file\n"
        f"results = [check_file(p) for p in {[str(p) for p in certificates.values()]!r}]\n"
        "assert all(r.ok for r in results), [r.message for r in results if not r.ok]\n"
        "print([m for m in sys.modules if m.split('.')[0] in ('sympy', 'mpmath')])"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_what_is_printed_is_rendered_from_the_statement(certificates: dict[str, Path]) -> None:
    message = check_file(certificates["lambda-c.below-four"]).message
    assert "for all n integer in [2, 19]: lambda_c(n, 1) < 4 (both sides defined on the whole domain)" in message
    assert "unsat in z3" in message or "re-checked by" in message
    assert "for all x >= 0: sqrt(x**2) = x" in check_file(certificates["sqrt-square"]).message


def test_a_false_identity_gets_no_certificate_and_a_forged_one_is_rejected(
    certificates: dict[str, Path], tmp_path: Path
) -> None:
    """sqrt(x**2) = x holds for x >= 0 only: the claim over all reals is refuted, and the true claim's
    certificate, relabelled with the domain widened to it, does not prove it."""
    assert "sqrt-square.all-reals" not in certificates
    data = _data(certificates, "sqrt-square")
    data["claim_id"] = "sqrt-square.all-reals"
    data["statement"]["claim"] = "sqrt-square.all-reals"
    data["statement"]["variables"][0] |= {"low": None}
    assert not check_file(_forged(tmp_path, data)).ok


@pytest.mark.parametrize(
    ("claim", "edit"),
    [
        ("exp.tangent", lambda s: s.update(op="<=")),  # flipped
        ("c-star.at-most-one", lambda s: s.update(op="<")),  # made strict: c*(1) = 1
        ("c-star.above-half-reciprocal", lambda s: s["variables"][0].update(low=["rat", "0"])),  # widened
        ("exp.second-order", lambda s: s["variables"][0].update(low=None)),  # the hypothesis x >= 0 dropped
        ("log.tangent", lambda s: s["variables"][0].update(low=None, low_open=False)),  # log undefined for x <= 0
        ("lambda-c.below-four", lambda s: s["variables"][0].update(high=["rat", "20"])),  # false at n = 20
        ("sqrt.product", lambda s: s.update(rhs=["sub", s["rhs"], ["rat", "1/1000000000000000000000000000000"]])),
    ],
)
def test_forged_statements_are_rejected(certificates: dict[str, Path], tmp_path: Path, claim: str, edit: Any) -> None:
    data = _data(certificates, claim)
    assert check_file(certificates[claim]).ok
    edit(data["statement"])
    assert not check_file(_forged(tmp_path, data)).ok


def test_a_false_cut_is_rejected_even_where_it_would_prove_the_claim(
    certificates: dict[str, Path], tmp_path: Path
) -> None:
    """A lower cut with a factor above exp(0) = 1 is refused by its ball check, whatever it would prove."""
    data = _data(certificates, "exp.second-order")
    cut = next(c for c in data["payload"]["cuts"] if c["kind"] == "lower" and c["at"] == "0")
    cut["factor"] = "2"
    result = check_file(_forged(tmp_path, data))
    assert not result.ok and "cut" in result.message


def test_another_claims_statement_is_rejected(certificates: dict[str, Path], tmp_path: Path) -> None:
    data = _data(certificates, "exp.tangent")
    other = _data(certificates, "exp.second-order")["statement"]
    data["statement"] = copy.deepcopy(other)
    assert "of claim" in check_file(_forged(tmp_path, data)).message
    data["statement"]["claim"] = "exp.tangent"  # relabelled: exp.tangent's certificate has no cut at 0
    assert not check_file(_forged(tmp_path, data)).ok
