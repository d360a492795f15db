"""Inequality and dynamics claims of a claims file: true ones certified or confirmed, false ones never."""

from __future__ import annotations

import json
import re
import textwrap
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import sympy as sp
from headflow.certificates.claims.loader import parse_claims
from headflow.checks.claimsfile import inequality_decider, smt_route
from headflow.checks.claimsfile.inequality_decider import inside, refutation
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.cli import main
from headflow.checks.registry import Context, load_all
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import TRUE_VERDICTS, Verdict

from tests.checking import verify_file

if TYPE_CHECKING:
    from headflow.checks.reports.report import Report

ROOT = Path(__file__).resolve().parents[3]


def decide(text: str, directory: Path) -> dict[str, tuple[Verdict, dict]]:
    registry = register_claims(parse_claims(textwrap.dedent(text), "t.toml"))
    results = run_claims(registry.claims(), Context("quick", seed=3, certificate_dir=directory))
    assert not any(r.crashed for r in results)
    return {r.claim.id: (r.verdict, r.outcomes[0][1].as_dict()) for r in results}


INEQUALITIES = """
[[claim]]
id = "rate-bounded"
kind = "inequality"
lhs = "rate(l, n, beta)"
op = "<="
rhs = "3/2"
domain = { n = { min = 2, max = 5, integer = true }, beta = "[1/2, 2]", l = "[0, 5]" }

[[claim]]
id = "rate-below-quarter"
kind = "inequality"
lhs = "rate(l, n, beta)"
op = "<"
rhs = "1/4"
domain = { n = { min = 2, max = 6, integer = true }, beta = "[1/2, 2]", l = "[0, 5]" }

[[claim]]
id = "dependent"
kind = "inequality"
lhs = "l"
op = ">="
rhs = "2 / beta"
domain = { beta = "[1, 2]", l = { min = "lambda_c(3, beta)", max = 10 } }

[[claim]]
id = "square-strict"
kind = "inequality"
lhs = "x**2 + 1"
op = ">"
rhs = "2 * x"
domain = { x = "[-3, 3]" }

[[claim]]
id = "unbounded"
kind = "inequality"
lhs = "exp(x)"
op = ">"
rhs = "x"
domain = { x = "real" }

[[claim]]
id = "unbounded-no-encoding"
kind = "inequality"
lhs = "x**y"
op = ">"
rhs = "0"
domain = { x = "positive", y = "[0, 1]" }

[[claim]]
id = "unbounded-false"
kind = "inequality"
lhs = "x"
op = "<"
rhs = "100"
domain = { x = "positive" }
"""


@pytest.fixture(scope="module")
def inequalities(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Verdict, dict]]:
    return decide(INEQUALITIES, tmp_path_factory.mktemp("certs"))


def test_true_inequalities_are_certified_with_certificates_that_recheck(inequalities: dict) -> None:
    for claim_id in (
        "rate-bounded",
        "dependent",
        "unbounded",
    ):  # exp(x) >= 1 + x > x: SMT, any domain  # max phi = 2 W((n-1)/e) / (beta (n-1)) <= 1.12; u_c(3) > 2
        verdict, evidence = inequalities[claim_id]
        assert verdict is Verdict.CERTIFIED, (claim_id, evidence)
        assert evidence["certificates"] and all(verify_file(Path(p))[0] for p in evidence["certificates"])


def test_false_inequality_refuted_at_a_point_of_the_domain(inequalities: dict) -> None:
    verdict, evidence = inequalities["rate-below-quarter"]  # phi(l) > 1/4 near lambda_max for n = 2, beta = 1/2
    assert verdict is Verdict.REFUTED
    witness = evidence["witness"]
    assert witness["verified_by"] == "ball"
    (claim,) = [c for c in parse_claims(INEQUALITIES, "t.toml") if c.id == "rate-below-quarter"]
    point = {s: sp.Rational(witness["point"][str(s)]) for s in claim.order}
    assert inside(claim, point) and refutation(claim, point) is not None
    n, beta, lam = (float(point[s]) for s in claim.order)
    assert 2 * lam / (sp.exp(beta * lam) + n - 1) >= 0.25


def test_wrong_and_undecidable_inequalities_are_never_certified(inequalities: dict) -> None:
    verdict, evidence = inequalities["square-strict"]  # (x - 1)^2 > 0 fails only at x = 1
    assert verdict not in TRUE_VERDICTS and verdict is not Verdict.CONFIRMED
    verdict, evidence = inequalities["unbounded-no-encoding"]  # a symbolic exponent: no SMT encoding, no cover
    assert verdict is Verdict.INCONCLUSIVE and "no SMT encoding" in evidence["notes"]
    verdict, evidence = inequalities["unbounded-false"]  # sampling refutes even without a cover
    assert verdict is Verdict.REFUTED


def test_box_budget_leaves_the_claim_inconclusive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(inequality_decider.MAX_BOXES, "quick", 3)
    monkeypatch.setitem(smt_route.RLIMIT, "quick", 0)  # the SMT route would certify it first
    text = INEQUALITIES.split("[[claim]]")[1]
    verdict, evidence = decide("[[claim]]" + text, tmp_path)["rate-bounded"]
    assert verdict is Verdict.INCONCLUSIVE and "box budget" in evidence["notes"]


DYNAMICS = """
[[claim]]
id = "energy-monotone"
kind = "dynamics"
quantity = "energy"
property = "non-decreasing"
heads = "random-symmetric"
tokens = "random-sphere"
n = 6
d = 3
H = 2
beta = 1.0
time = 2.0

[[claim]]
id = "entropy-rate-any-symmetric"
kind = "dynamics"
quantity = "entropy_rate"
property = "non-negative"
attention = "softmax"
heads = "random-symmetric"
tokens = "random-sphere"
n = 4
d = 3
H = 1
beta = 2.0
time = 1.0

[[claim]]
id = "gap-rate-wrong"
kind = "dynamics"
quantity = "cluster_gap"
property = "decays-at-rate"
rate = "1"
attention = "softmax"
heads = "scalar"
lambdas = [1.0, 0.5]
tokens = "equiangular"
rho = 0.2
n = 4
d = 4
beta = 1.0

[[claim]]
id = "energy-decreasing"
kind = "dynamics"
quantity = "energy_rate"
property = "non-negative"
heads = "scalar"
lambdas = [-1.0]
tokens = "equiangular"
rho = 0.3
n = 4
d = 4
beta = 1.0
time = 1.0
"""


def test_dynamics_true_confirmed_false_refuted_or_inconclusive(tmp_path: Path) -> None:
    verdicts = decide(DYNAMICS, tmp_path)
    verdict, evidence = verdicts["energy-monotone"]
    # through its pointwise statement dE/dt >= 0 (a model claim, PROVED): the float route is `test_confirmed`'s
    assert verdict is Verdict.PROVED and evidence["method"].startswith("pointwise"), evidence
    verdict, evidence = verdicts["entropy-rate-any-symmetric"]  # T27 reading-c is false
    assert verdict is Verdict.REFUTED
    (path,) = evidence["certificates"]
    assert verify_file(Path(path))[0]
    assert "symmetric-scores" in evidence["witness"]["hypotheses"]
    verdict, evidence = verdicts["gap-rate-wrong"]  # the rate is 2 Lambda = 3, not 1: decided on the reduced ODE
    assert verdict is Verdict.REFUTED and evidence["witness"]["exact_rate"] == "3"
    # A negative scalar head moves tokens apart (dE/dt = (1/n) sum |xdot|^2 still >= 0 when W = M):
    # the claim holds; equiangular starts are not "any configuration", so never a certified refutation.
    assert verdicts["energy-decreasing"][0] is not Verdict.REFUTED


@pytest.mark.slow
def test_paper_file_and_registry_agree_on_shared_ids(tmp_path: Path, whole_paper: Report) -> None:
    """On every id they share, `headflow check examples/paper.toml` decides as much as `headflow verify` (the
    session's whole-paper run: same profile and seed, and each claim's searches are seeded by its id alone), except
    where the file's claim is INCONCLUSIVE because its samples do not reach its whole domain (issue 39: a claims
    file's CONFIRMED covers the whole stated domain; the registry's sampled CONFIRMED is evidence on its own terms)."""
    paper = ROOT / "examples" / "paper.toml"
    ids = [c["id"] for c in tomllib.loads(paper.read_text())["claim"]]
    shared = sorted(set(ids) & {c.id for c in load_all().claims()})
    # every registry claim a kind can state faithfully (the header says why each other one cannot)
    assert len(shared) >= 40, shared  # issue 27: at least 40 registry ids
    assert {"model", "asymptotic"} <= {
        c["kind"] for c in tomllib.loads(paper.read_text())["claim"] if c["id"] in shared
    }
    out = tmp_path / "c.json"
    code = main(["check", str(paper), "--format", "json", "--certificates", str(tmp_path), "--out", str(out)])
    assert code in (0, 1)
    claims = {c["id"]: c for c in json.loads(out.read_text())["claims"]}
    registry_verdicts = {i: whole_paper.verdicts[i].value for i in shared}
    pairs = {i: (claims[i]["verdict"], registry_verdicts[i]) for i in shared}
    unreached = {i for i in shared if any(note in json.dumps(claims[i]) for note in UNREACHED)}
    honest = {i for i, pair in pairs.items() if pair == ("INCONCLUSIVE", "CONFIRMED") and i in unreached}
    weaker = {i: pair for i, pair in pairs.items() if not _as_strong(*pair) and i not in honest}
    assert not weaker, weaker


def test_the_paper_file_states_or_names_every_registry_claim() -> None:
    """Each registry id is a claim of examples/paper.toml or is named in the header's list of what is left out (a
    wildcard such as T25.* does not count); no id is both."""
    text = (ROOT / "examples" / "paper.toml").read_text()
    stated = {c["id"] for c in tomllib.loads(text)["claim"]}
    header = text[: text.index("[[claim]]")]
    named = set(re.findall(r"[A-Za-z0-9][A-Za-z0-9_.+:-]*[A-Za-z0-9]", header))
    registry = {c.id for c in load_all().claims()}
    missing = sorted(registry - stated - named)
    assert not missing, f"neither stated nor listed as left out: {missing}"
    assert not registry & stated & named, "an id both stated and listed as left out"


#: How much a verdict decides: a proof, a certificate or a refutation decide; CONFIRMED is evidence.
_STRENGTH = {"PROVED": 2, "CERTIFIED": 2, "REFUTED": 2, "CONFIRMED": 1, "INCONCLUSIVE": 0}


#: What a claims file's INCONCLUSIVE says when its points or its search do not reach the claim's whole domain.
UNREACHED = ("reaches past what the search drew", "the points do not reach the whole domain")


def _as_strong(file_verdict: str, registry_verdict: str) -> bool:
    """The file's verdict decides at least as much as the registry's, and never the opposite way."""
    opposite = (file_verdict == "REFUTED") != (registry_verdict == "REFUTED") and "INCONCLUSIVE" not in (
        file_verdict,
        registry_verdict,
    )
    return not opposite and _STRENGTH[file_verdict] >= _STRENGTH[registry_verdict]


@pytest.mark.parametrize(
    ("file_verdict", "registry_verdict", "expected"),
    [
        ("PROVED", "PROVED", True),
        ("CERTIFIED", "CONFIRMED", True),
        ("CONFIRMED", "PROVED", False),
        ("INCONCLUSIVE", "CONFIRMED", False),
        ("REFUTED", "CONFIRMED", False),
        ("CERTIFIED", "REFUTED", False),
        ("REFUTED", "REFUTED", True),
    ],
)
def test_as_strong_orders_verdicts(file_verdict: str, registry_verdict: str, expected: bool) -> None:
    assert _as_strong(file_verdict, registry_verdict) is expected
