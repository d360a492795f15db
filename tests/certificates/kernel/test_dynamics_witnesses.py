"""Witnesses of dynamics claims, checked as the `model` statements they elaborate into
(`certificates.statements.dynamics`): certificates written by the real deciders are accepted and load no SymPy or
mpmath; forged statements (another relation, term, limit, exact data, hypotheses, claim, or a statement the witness
does not prove) and forged witnesses (a start that is not stationary) are rejected; the interaction
phi = s**2 + sqrt(a**2) - a with a > 0 tiny (so phi = s**2) cannot be turned into a refutation of a true claim
(issue 37: SymPy once rebuilt it as s**2 - 2a)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.interaction_text import parse_interaction
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.kernel.exact import ball_of
from headflow.certificates.kernel.format import content_hash
from headflow.certificates.kernel.interaction import Interaction, is_antiderivative
from headflow.certificates.model_balls import head_energies
from headflow.certificates.statements import restated
from headflow.checks.api import decide
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.verdicts import Verdict

from tests.checking import verify_file

ROOT = Path(__file__).resolve().parents[3]

#: A configuration witness (general heads: the energy falls) and a stationary start (relu, some start stays apart).
GENERAL = """
[[claim]]
id = "general-energy"
kind = "dynamics"
quantity = "energy"
property = "non-decreasing"
heads = "random-general"
tokens = "given"
points = [["3/5", "4/5", "0"], [1, 0, 0], [0, "-4/5", "3/5"], [0, 0, 1]]
n = 4
d = 3
H = 2
beta = 1.0
"""
STAYS = """
[[claim]]
id = "relu-stays"
kind = "dynamics"
exists = true
quantity = "least_inner_product"
property = "does-not-tend-to"
limit = "1"
attention = "relu"
heads = "scalar"
lambdas = [2.0]
tokens = "hemisphere"
n = 4
d = 3
beta = 1.0
"""
#: a = 1 - (1 - 10^-30)^2 > 0, written out as a rational and as an expression: phi = s**2 exactly.
A_RATIONAL = str(1 - (1 - Fraction(1, 10**30)) ** 2)
A_EXPRESSION = "(1 - (1 - 10**(-30))**2)"
#: SymPy's antiderivative of the issue, s**3/3 - 2as: negative at s = 1, where the true s**3/3 is not.
WRONG_ENERGY = [
    "sub",
    ["mul", ["rat", "1/3"], ["pow", ["sym", "s"], 3]],
    ["mul", ["rat", "2"], ["rat", A_RATIONAL], ["sym", "s"]],
]


def _phi(a: str) -> str:
    return f"s**2 + sqrt(({a})**2) - ({a})"


def _energy_claim(a: str) -> str:
    """True: the scores of these tokens are 1 and 0, where Phi = s**3/3 is >= 0 (SymPy's s**3/3 - 2as is not)."""
    return f"""
[[claim]]
id = "square-energy-non-negative"
kind = "dynamics"
quantity = "energy"
property = "non-negative"
interaction = "{_phi(a)}"
heads = "scalar"
lambdas = [1.0]
tokens = "given"
points = [[1, 0], [0, 1]]
n = 2
d = 2
beta = 1.0
"""


def _decide(text: str, folder: Path) -> tuple[Verdict, list[Path]]:
    report = decide(register_claims(parse_claims(text)).claims(), progress=False, certificates=folder)
    (claim,) = report.claims
    return claim.verdict, sorted(folder.rglob("*.json"))


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The certificates the deciders write for GENERAL and STAYS, by claim id."""
    folder = tmp_path_factory.mktemp("dynamics")
    out = {}
    for text in (GENERAL, STAYS):
        verdict, paths = _decide(text, folder / str(len(out)))
        assert len(paths) == 1, (verdict, paths)
        certificate = json.loads(paths[0].read_text())
        out[certificate["claim_id"]] = certificate
    return out


def _check(certificate: dict[str, Any], folder: Path, name: str = "c.json") -> tuple[bool, str]:
    certificate = dict(certificate)
    certificate["sha256"] = content_hash(certificate)
    path = folder / name
    path.write_text(json.dumps(certificate))
    return verify_file(path)


def _forged(certificate: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    forged = copy.deepcopy(certificate)
    change(forged["statement"])
    return forged


def test_the_deciders_certificates_are_accepted(written: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    general, stays = written["general-energy"], written["relu-stays"]
    assert general["statement"]["form"] == stays["statement"]["form"] == "model"
    assert general["statement"]["relation"] == {"lhs": ["name", "dE_dt"], "op": ">=", "rhs": ["num", "0"]}
    assert "stationary" in stays["statement"]["hypotheses"] and stays["statement"]["exists"]
    ok, message = _check(general, tmp_path)
    assert ok and "refutes claim 'general-energy'" in message and "dE_dt >= 0 fails" in message, message
    ok, message = _check(stays, tmp_path)
    assert ok and "proves claim 'relu-stays'" in message and "stationary" in message, message


def test_the_certificates_carry_the_statement_the_claims_elaborate(written: dict[str, dict[str, Any]]) -> None:
    for certificate in written.values():
        assert restated(certificate, certificate["claim"]) is None


def test_checking_loads_neither_sympy_nor_mpmath(written: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    for claim_id, certificate in written.items():
        path = tmp_path / f"{claim_id}.json"
        path.write_text(json.dumps(certificate))
        script = (
            "import sys; from headflow.certificates.kernel.verify import check_file; "
            f"r = check_file({str(path)!r}); assert r.ok, r.message; "
            "print([m for m in sys.modules if m.split('.')[0] in ('sympy', 'mpmath')])"
        )
        env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT)
        assert out.returncode == 0 and out.stdout.strip() == "[]", (out.stdout, out.stderr)


FORGERIES: dict[str, tuple[str, Callable[[dict[str, Any]], None], str]] = {
    "relation": ("general-energy", lambda s: s["relation"].update(op="<="), "negate"),
    "term": ("general-energy", lambda s: s["relation"].update(lhs=["name", "E"]), "does not satisfy"),
    "beta": ("general-energy", lambda s: s["data"].update(beta="2"), "the stated beta"),
    "given token": ("general-energy", lambda s: s["data"]["tokens"][1].__setitem__(0, "-1"), "the stated tokens"),
    "symmetric heads": ("general-energy", lambda s: s["hypotheses"].append("symmetric-scores"), "hypotheses"),
    "sizes": ("general-energy", lambda s: s["given"][0].update(rhs=["num", "5"]), "given n >= 5 is not settled"),
    "another claim": ("general-energy", lambda s: s.update(claim="relu-stays"), "not 'general-energy'"),
    "not stationary": ("relu-stays", lambda s: s["hypotheses"].remove("stationary"), "hypotheses"),
    "universal": ("relu-stays", lambda s: s.update(exists=False), "negate"),
    "limit": ("relu-stays", lambda s: s["relation"].update(rhs=["num", "0"]), "does not satisfy"),
    "strength": ("relu-stays", lambda s: s["data"]["scores"][0][0].__setitem__(0, "3"), "the stated scores"),
    "no hemisphere": ("relu-stays", lambda s: s["given"][-1].update(rhs=["num", "2"]), "not settled"),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_a_forged_statement_is_rejected(name: str, written: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    claim_id, change, reason = FORGERIES[name]
    ok, message = _check(_forged(written[claim_id], change), tmp_path)
    assert not ok and reason in message, message


def test_another_claims_statement_pasted_in_is_rejected(written: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    forged = copy.deepcopy(written["general-energy"])
    forged["statement"] = copy.deepcopy(written["relu-stays"]["statement"])
    ok, message = _check(forged, tmp_path)
    assert not ok and "not 'general-energy'" in message, message
    forged["statement"]["claim"] = "general-energy"  # and relabelled: the stationary start is not this payload
    ok, message = _check(forged, tmp_path)
    assert not ok, message


def test_a_start_that_is_not_stationary_is_rejected(written: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    """The stationary start's tokens moved to another hemisphere start (3/5, 4/5, 0): its velocity is not 0."""
    forged = copy.deepcopy(written["relu-stays"])
    forged["payload"]["configuration"]["tokens"][0] = ["3/5", "4/5", "0"]
    ok, message = _check(forged, tmp_path)
    assert not ok and "violates stationary" in message, message


def test_a_certificate_without_a_statement_is_rejected(written: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    forged = copy.deepcopy(written["general-energy"])
    forged["statement"] = None
    ok, message = _check(forged, tmp_path)
    assert not ok and "core statement" in message, message


@pytest.mark.parametrize("a", [A_RATIONAL, A_EXPRESSION])
def test_the_kernel_accepts_only_the_true_antiderivative_of_the_square_attack(a: str) -> None:
    phi = parse_interaction(_phi(a), "usa")
    s3 = ["mul", ["rat", "1/3"], ["pow", ["sym", "s"], 3]]
    assert not is_antiderivative(WRONG_ENERGY, phi.tree)  # SymPy's s**3/3 - 2as of issue 37
    assert not is_antiderivative(["add", s3, ["sym", "s"]], phi.tree)
    energy = phi.energy_tree()
    assert energy is None or is_antiderivative(energy, phi.tree)


@pytest.mark.parametrize("a", [A_RATIONAL, A_EXPRESSION])
def test_no_refutation_of_the_true_energy_claim_is_accepted(a: str, tmp_path: Path) -> None:
    verdict, paths = _decide(_energy_claim(a), tmp_path)
    assert verdict is not Verdict.REFUTED
    assert all(not verify_file(path)[0] for path in paths)


def test_the_energy_of_the_square_attack_uses_only_an_antiderivative_the_kernel_accepts() -> None:
    """At scores 1 and 0 the energy with SymPy's s**3/3 - 2as of the issue would be negative; the kernel refuses that
    Phi (the energy is unavailable) and evaluates the true s**3/3 to a positive ball."""
    phi = parse_interaction(_phi(A_RATIONAL), "usa")
    one, zero = Fraction(1), Fraction(0)
    heads = [[[one, zero], [zero, one]]]

    def energies(energy: Any) -> Any:
        stated = Interaction(phi.text, phi.tree, energy)
        return head_energies(ExactConfiguration([[one, zero], [zero, one]], heads, heads, one, interaction=stated))

    with pytest.raises(ValueError, match="energy is unavailable"):
        energies(WRONG_ENERGY)
    (energy,) = energies(["mul", ["rat", "1/3"], ["pow", ["sym", "s"], 3]])
    assert energy > 0 and energy.contains(ball_of(Fraction(1, 12)))  # (1/(2 n^2)) (Phi(1) + Phi(1)) = 1/12


def test_no_refutation_of_the_true_energy_rate_claim_is_accepted(tmp_path: Path) -> None:
    """dE/dt >= 0 for every phi on the sphere with symmetric aligned heads (a gradient flow of E): true for the
    square attack too, so no certificate of its refutation may be accepted; the one accepted proves it (the weight
    lemma, with the claim's phi written in as the tree it is)."""
    text = f"""
[[claim]]
id = "square-energy-rate"
kind = "dynamics"
quantity = "energy"
property = "non-decreasing"
interaction = "{_phi(A_EXPRESSION)}"
heads = "random-symmetric"
tokens = "random-sphere"
n = 4
d = 3
H = 2
beta = 1.0
"""
    verdict, paths = _decide(text, tmp_path)
    assert verdict is not Verdict.REFUTED
    accepted = [message for ok, message in map(verify_file, paths) if ok]
    assert all('"relation": "dE_dt >= 0"' in m and "follows from lemma.interaction-energy-rate" in m for m in accepted)
