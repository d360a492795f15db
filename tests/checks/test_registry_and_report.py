"""The registry, the verdict rules, the runner and the report format."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from headflow.certificates.errors import InputError
from headflow.checks import api, cli
from headflow.checks.evidence.energy_rates import check_energy_rate
from headflow.checks.registry import REGISTRY, Context, Registry, load_all
from headflow.checks.reports.document import build_report, render_markdown
from headflow.checks.reports.report import Report
from headflow.checks.runner import run_claim
from headflow.checks.verdicts import EvidenceError, Outcome, Step, Verdict, combine


def test_every_spec_claim_is_declared() -> None:
    load_all()
    ids = {c.id for c in REGISTRY.claims()}
    for expected in (
        "projection.tangency",
        "T11.energy-rate.flat",
        "T17.shadow-obstruction",
        "T19.threshold",
        "T22.superadditivity",
        "T25.relu-time",
        "T27.entropy-limit",
        "T39.approximate-orthogonality",
    ):
        assert expected in ids


#: Prints the registry's claims as `test_the_claim_set_is_the_recorded_one` compares them, in a fresh process: the
#: order of declaration is the order of first import, which other tests' imports would change here.
_CLAIM_SET = """
import hashlib, json
from headflow.checks.registry import load_all
claims = load_all().claims()
print(json.dumps({
    "claims": [
        [c.id, hashlib.sha256(f"{c.title}\\n{c.statement}".encode()).hexdigest()[:16], [n for n, _ in c.procedures]]
        for c in claims
    ],
    "figures": {c.id: [title for title, _ in c.figures] for c in claims if c.figures},
}))
"""


def test_the_claim_set_is_the_recorded_one() -> None:
    """Splitting and moving theorem code changes no claim: ids in report order, their text and their procedures (by
    name, in order) against tests/data/registry_claims.json, recorded before the split; and the figure titles."""
    recorded = json.loads((Path(__file__).resolve().parents[1] / "data" / "registry_claims.json").read_text())
    run = subprocess.run([sys.executable, "-c", _CLAIM_SET], capture_output=True, text=True, check=True)
    found = json.loads(run.stdout)
    assert found["claims"] == recorded["claims"]
    assert found["figures"] == recorded["figures"]


def test_a_derivation_table_registers_the_derived_procedure() -> None:
    """A table row becomes the procedure derived(prove(), method), owned by the module named; a failed derivation
    is not PROVED."""
    from headflow.identities.derivation import Derivation

    registry = Registry()
    registry.declare("x", "x", "x")
    registry.declare("y", "y", "y")
    proved, failed = Derivation(), Derivation()
    proved.holds("1 = 1", True)
    failed.holds("1 = 2", False)
    registry.derivations("headflow.checks.theorems.example", (("x", lambda: proved, "m"), ("y", lambda: failed, "m")))
    ((name, procedure),) = registry.get("x").procedures
    assert (name, procedure.__module__) == ("symbolic", "headflow.checks.theorems.example")
    assert procedure(Context()).verdict is Verdict.PROVED
    assert registry.get("y").procedures[0][1](Context()).verdict is not Verdict.PROVED


def test_a_figure_is_declared_on_its_claim() -> None:
    registry = Registry()
    registry.declare("x", "x", "x")
    registry.figure("x", "the title")(object)
    assert registry.get("x").figures == [("the title", object)]
    with pytest.raises(InputError):
        registry.figure("no-such-claim", "t")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"verdict": Verdict.PROVED},
        {"verdict": Verdict.CERTIFIED},
        {"verdict": Verdict.CONFIRMED, "tolerance": 1e-9},
        {"verdict": Verdict.CONFIRMED, "cases": 3},
        {"verdict": Verdict.REFUTED, "witness": {"verified_by": "float"}},
        {"verdict": Verdict.REFUTED},
        {"verdict": Verdict.INCONCLUSIVE},
    ],
)
def test_outcomes_without_their_required_evidence_are_rejected(kwargs: dict) -> None:
    with pytest.raises(EvidenceError):
        Outcome(method="m", **kwargs)


def test_combine_flags_a_refutation_next_to_a_proof() -> None:
    proved = Outcome(Verdict.PROVED, "sympy", steps=[Step("a")])
    refuted = Outcome(Verdict.REFUTED, "ball", witness={"verified_by": "ball"})
    confirmed = Outcome(Verdict.CONFIRMED, "float", cases=3, tolerance=0.0)
    assert combine([proved, refuted])[0] is Verdict.INCONCLUSIVE
    assert combine([confirmed, refuted])[0] is Verdict.REFUTED
    assert combine([confirmed, proved])[0] is Verdict.PROVED


def test_t11_spherical_is_confirmed_and_a_wrong_coefficient_is_not() -> None:
    ctx = Context(claim_id="T11.energy-rate.spherical")
    assert check_energy_rate(ctx, "sphere").verdict is Verdict.CONFIRMED
    wrong = check_energy_rate(ctx, "sphere", coefficient=2.0)
    assert wrong.verdict is not Verdict.CONFIRMED
    assert wrong.details["max_relative_identity_discrepancy"] > 0.1


def test_flat_t11_is_confirmed_and_a_wrong_coefficient_is_not() -> None:
    ctx = Context(claim_id="T11.energy-rate.flat")
    assert check_energy_rate(ctx, "flat").verdict is Verdict.CONFIRMED
    assert check_energy_rate(ctx, "flat", coefficient=0.5).verdict is not Verdict.CONFIRMED


def _crashing_registry() -> Registry:
    registry = Registry()
    registry.declare("demo.crash", "crashes", "a procedure that raises")
    registry.declare("demo.ok", "fine", "a procedure that confirms")

    @registry.procedure("demo.crash", "boom")
    def _boom(ctx: Context) -> Outcome:
        raise ZeroDivisionError("on purpose")

    @registry.procedure("demo.ok", "fine")
    def _fine(ctx: Context) -> Outcome:
        return Outcome(Verdict.CONFIRMED, "fine", cases=1, tolerance=0.0)

    return registry


def test_a_crashed_procedure_is_inconclusive_with_the_error() -> None:
    result = run_claim(_crashing_registry().get("demo.crash"), Context())
    assert result.verdict is Verdict.INCONCLUSIVE
    assert result.crashed
    assert "ZeroDivisionError" in result.outcomes[0][1].notes


def test_verify_exits_1_after_a_crash_and_writes_the_json_shape(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(api, "load_all", _crashing_registry)
    out = tmp_path / "report.json"
    code = cli.main(["verify", "--format", "json", "--out", str(out), "--seed", "5"])
    assert code == 1
    report = json.loads(out.read_text())
    assert set(report) >= {"headflow", "profile", "seed", "claims", "summary"}
    assert report["seed"] == 5
    assert [c["id"] for c in report["claims"]] == ["demo.crash", "demo.ok"]
    for claim in report["claims"]:
        assert set(claim) >= {"id", "title", "statement", "verdict", "method", "evidence", "seconds"}
    assert report["summary"]["INCONCLUSIVE"] == 1 and report["summary"]["CONFIRMED"] == 1
    assert not list(tmp_path.glob("*.part"))


def test_verify_json_lists_the_t11_claims_with_evidence(capsys) -> None:
    assert cli.main(["verify", "--only", "T11.energy-rate.*", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    by_id = {c["id"]: c for c in report["claims"]}
    assert set(by_id) == {"T11.energy-rate.spherical", "T11.energy-rate.flat"}
    for claim in by_id.values():
        numeric = next(p for p in claim["evidence"]["procedures"] if p["name"] == "numeric")
        assert numeric["cases"] > 0 and "max_relative_identity_discrepancy" in numeric["details"]


def test_markdown_report_names_every_claim() -> None:
    registry = _crashing_registry()
    results = [run_claim(c, Context()) for c in registry.claims()]
    text = render_markdown(build_report(results, "quick", 0))
    assert "`demo.crash`" in text and "`demo.ok`" in text


def test_html_and_markdown_reports_contain_every_claim_and_no_external_resources(whole_paper: Report) -> None:
    """The whole paper's reports (the session's run): every claim in both, nothing the page would load or run."""
    page = whole_paper.to_html(figures=False)
    markdown = whole_paper.to_markdown(figures=False)
    for claim in load_all().claims():
        assert claim.id in page and claim.id in markdown
    assert "http://" not in page and "https://" not in page and "<script" not in page


def test_findings_and_refutations_are_listed_as_differences_from_the_summary() -> None:
    registry = Registry()
    registry.declare("demo.refuted", "t", "s")
    registry.declare("demo.finding", "t", "s")
    registry.declare("demo.agrees", "t", "s")

    @registry.procedure("demo.refuted", "w")
    def _refuted(ctx: Context) -> Outcome:
        return Outcome(Verdict.REFUTED, "w", witness={"verified_by": "exact", "n": 3, "tokens": [[1, 0]]})

    @registry.procedure("demo.finding", "f")
    def _finding(ctx: Context) -> Outcome:
        return Outcome(Verdict.CONFIRMED, "f", cases=1, tolerance=0.0, finding="sufficient, not exact")

    @registry.procedure("demo.agrees", "a")
    def _agrees(ctx: Context) -> Outcome:
        return Outcome(Verdict.CONFIRMED, "a", cases=1, tolerance=0.0)

    report = build_report([run_claim(c, Context()) for c in registry.claims()], "quick", 0)
    listed = {d["id"]: d["finding"] for d in report["differences"]}
    assert set(listed) == {"demo.refuted", "demo.finding"}
    assert "sufficient, not exact" in listed["demo.finding"]
    assert "n=3" in listed["demo.refuted"] and "tokens" not in listed["demo.refuted"]
