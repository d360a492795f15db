"""The SMT route of claims-file inequalities and identities, through `headflow check` and `headflow check-cert`.

True claims get `smt` certificates that check-cert re-checks from the embedded claim (z3 and cvc5);
false ones are refuted at points verified exactly or with balls; forged certificates (the claim edited,
the statement re-derived for a false claim, a cut that is not true, the SMT forgery generators) are
rejected.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

import pytest
import sympy as sp

from certificates.kernel import smtlib
from certificates.kernel.claims.embedding import claim_text, read_embedded
from certificates.kernel.claims.loader import load_claims, parse_claims
from certificates.kernel.claims.smt_statement import encode_claim
from certificates.kernel.real_encoding import Cut, CutError
from certificates.kernel.verify import verify_file
from checks.claimsfile import identity_decider, smt_route
from checks.claimsfile.inequality_decider import inside, refutation
from checks.cli import main
from checks.registry import Context
from checks.verdicts import Verdict
from tests.forging import forged, forged_file, write
from tests.soundness.forgeries import smt_forgeries

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "smt.toml"
#: Claims of examples/smt.toml that only the SMT route can certify (unbounded, tight, lambda_c, exact sqrt).
BY_SMT = (
    "c-star.at-most-one",
    "c-star.above-half-reciprocal",
    "c-star.above-half-reciprocal.unbounded",
    "lambda-c.below-four",
    "log.tangent",
    "exp.tangent",
    "exp.second-order",
    "sqrt.product",
)
FALSE = (
    "c-star.below-one",
    "c-star.at-most-nine-tenths",
    "lambda-c.below-four.to-twenty",
    "exp.second-order.all-reals",
    "sqrt.product.minus-epsilon",
)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("smt")
    out = folder / "report.json"
    code = main(["check", str(EXAMPLES), "--format", "json", "--out", str(out), "--certificates", str(folder)])
    assert code == 1  # some claims are false
    return {claim["id"]: claim for claim in json.loads(out.read_text())["claims"]}


@pytest.fixture(scope="module")
def smt_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The examples decided with the algebraic identity route off, so that the SMT route certifies the identity
    `c-star.reciprocal` (the full engine proves it algebraically first, without a certificate to forge)."""
    folder = tmp_path_factory.mktemp("smt-only")
    out = folder / "report.json"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(identity_decider, "prove_identity", lambda *_: (None, "algebraic route off in this test"))
        main(["check", str(EXAMPLES), "--format", "json", "--out", str(out), "--certificates", str(folder)])
    return {claim["id"]: claim for claim in json.loads(out.read_text())["claims"]}


def _certificate(report: dict[str, dict[str, Any]], claim_id: str) -> Path:
    (path,) = report[claim_id]["evidence"]["certificates"]
    return Path(path)


def test_true_claims_are_certified_by_smt_and_false_ones_refuted(report: dict[str, dict[str, Any]]) -> None:
    for claim_id in BY_SMT:
        assert report[claim_id]["verdict"] == "CERTIFIED", report[claim_id]
        assert report[claim_id]["method"].startswith("SMT"), report[claim_id]["method"]
    assert report["c-star.reciprocal"]["verdict"] in ("PROVED", "CERTIFIED")
    claims = {claim.id: claim for claim in load_claims(EXAMPLES)}
    for claim_id in FALSE:
        assert report[claim_id]["verdict"] == "REFUTED", report[claim_id]
        witness = report[claim_id]["evidence"]["procedures"][0]["witness"]
        claim = claims[claim_id]
        point = {s: sp.Rational(witness["point"][s.name]) for s in claim.order}
        assert inside(claim, point) and refutation(claim, point) is not None


def test_every_smt_certificate_rechecks_in_a_fresh_process(report: dict[str, dict[str, Any]]) -> None:
    paths = [p for claim in report.values() for p in claim["evidence"].get("certificates", [])]
    assert len(paths) >= len(BY_SMT)
    result = subprocess.run(
        [sys.executable, "-m", "checks", "check-cert", *paths, "--claims", str(EXAMPLES)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("unsat in z3 and in cvc5") >= len(BY_SMT)


def test_integer_parameters_are_int_and_cuts_are_at_exact_points(report: dict[str, dict[str, Any]]) -> None:
    lambda_c = json.loads(_certificate(report, "lambda-c.below-four").read_text())["payload"]
    assert lambda_c["logic"] == "QF_NIRA" and lambda_c["statements"][0]["integers"] == ["n"]
    second = json.loads(_certificate(report, "exp.second-order").read_text())["payload"]
    assert any(c["kind"] == "lower" and c["at"] == "0" and c["degree"] >= 3 for c in second["cuts"])


def _decide(text: str, **patches: Any) -> tuple[Verdict, dict[str, Any]]:
    (claim,) = parse_claims(textwrap.dedent(text), "t.toml")
    ctx = Context("quick", seed=3, certificate_dir=Path(tempfile.mkdtemp()))
    outcome = smt_route.decide(claim, ctx, refutation)
    assert not isinstance(outcome, str), outcome
    return outcome.verdict, outcome.as_dict()


def _inequality(lhs: str, op: str, rhs: str, domain: str) -> str:
    return f'[[claim]]\nid = "c"\nkind = "inequality"\nlhs = "{lhs}"\nop = "{op}"\nrhs = "{rhs}"\ndomain = {domain}\n'


def test_a_model_refutes_where_random_points_never_land() -> None:
    """exp(x) >= 1 + x + 1e-30 fails only within about 1e-15 of 0, which random points of the reals never hit."""
    text = _inequality("exp(x)", ">=", "1 + x + 1e-30", '{ x = "real" }')
    verdict, evidence = _decide(text)
    assert verdict is Verdict.REFUTED and evidence["method"].startswith("SMT")
    (claim,) = parse_claims(text, "t.toml")
    point = {s: sp.Rational(evidence["witness"]["point"][s.name]) for s in claim.order}
    assert abs(point[claim.order[0]]) < sp.Rational(1, 10**14) and refutation(claim, point) is not None


@pytest.mark.parametrize(
    ("lhs", "op", "rhs", "domain"),
    [
        ("log(x)", "<=", "x - 1", '{ x = "real" }'),  # log is undefined for x <= 0
        ("1/x", ">=", "0", '{ x = "nonnegative" }'),  # undefined at 0
        ("sqrt(x - 1)", ">=", "0", '{ x = "[0, 2]" }'),
    ],
)
def test_claims_undefined_somewhere_are_refuted_not_certified(lhs: str, op: str, rhs: str, domain: str) -> None:
    verdict, evidence = _decide(_inequality(lhs, op, rhs, domain))
    assert verdict is Verdict.REFUTED and "undefined" in evidence["witness"], evidence


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        (_inequality("sqrt(2)**2", "<=", "2 - 1e-30", "{}"), Verdict.REFUTED),  # SymPy's 2: no unknowns, balls
        (_inequality("exp(x)", ">=", "1 + x + x**2/2 + x**3/6", '{ x = "[0, 1]" }'), Verdict.CERTIFIED),
        (_inequality("exp(x)", ">=", "1 + x + x**2/2 + x**3/5", '{ x = "[0, 1]" }'), Verdict.REFUTED),
        (_inequality("x * sqrt(2)", "<", "x * 1.4142135623730950", '{ x = "[1, 2]" }'), Verdict.REFUTED),
        (_inequality("x * sqrt(2)", "<", "x * 1.4142135623730951", '{ x = "[1, 2]" }'), Verdict.CERTIFIED),
    ],
)
def test_near_misses_get_the_exact_verdict(tmp_path: Path, text: str, verdict: Verdict) -> None:
    """Statements true or false by a hair: never certified when false, whatever floats would say."""
    path = tmp_path / "claims.toml"
    path.write_text(text)
    out = tmp_path / "report.json"
    main(["check", str(path), "--format", "json", "--out", str(out), "--certificates", str(tmp_path)])
    (claim,) = json.loads(out.read_text())["claims"]
    assert claim["verdict"] == verdict.value, claim


def test_without_cvc5_agreeing_there_is_no_certificate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(smt_route.solvers, "answers", lambda solver, texts, timeout: ["unknown"] * len(texts))
    (claim,) = parse_claims(_inequality("c_star(H)", "<=", "1", "{ H = { min = 1 } }"), "t.toml")
    folder = Path(tempfile.mkdtemp())
    reason = smt_route.decide(claim, Context("quick", seed=3, certificate_dir=folder), refutation)
    assert isinstance(reason, str) and "cvc5 answers 'unknown'" in reason
    assert not list(folder.iterdir())


# ---------------------------------------------------------------- forged certificates


def _edit_claim(data: dict[str, Any], old: str, new: str) -> None:
    text = data["claim"]["toml"]
    assert old in text, (old, text)
    data["claim"]["toml"] = text.replace(old, new)


def _honest_statement(data: dict[str, Any]) -> None:
    """The statement the (edited) embedded claim encodes with the file's cuts, even cuts that are not true
    (their facts appended as the encoding does, without its validation); unchanged when a cut does not parse."""
    claim = read_embedded(data["claim"])
    encoded = encode_claim(claim)
    try:
        cuts = [Cut.from_data(c) for c in data["payload"]["cuts"]]
        facts = tuple(cut.fact(encoded.encoding.exponentials[cut.atom]) for cut in cuts)
    except (CutError, IndexError):
        return
    statement = encoded.statement()
    statement = dataclasses.replace(statement, hypotheses=statement.hypotheses + facts)
    data["payload"]["statements"] = [statement.tree()]
    data["payload"]["logic"] = smtlib.logic(statement.tree().get("integers", []))


#: name -> (claim, text in its embedded TOML, replacement, whether the edited claim is still true).
CLAIM_EDITS = {
    "relation flipped": ("c-star.at-most-one", '"op" = "<="', '"op" = ">="', False),
    "relation made strict": ("c-star.at-most-one", '"op" = "<="', '"op" = "<"', False),
    "bound moved": ("c-star.at-most-one", '"min" = 1', '"min" = 0', False),
    "a TOML float for a rational bound": (
        "c-star.above-half-reciprocal.unbounded",
        '"min" = 2',
        '"min" = 1.9999999',
        True,
    ),
    "rhs changed": ("lambda-c.below-four", '"rhs" = "4"', '"rhs" = "3"', False),
    "integer range widened": ("lambda-c.below-four", '"max" = 19', '"max" = 20', False),
    "integer parameter made real": ("lambda-c.below-four", '"max" = 19, "integer" = true', '"max" = 19.5', False),
    "identity for another": ("c-star.reciprocal", '"rhs" = "H - 1"', '"rhs" = "H - 2"', False),
}


@pytest.mark.parametrize("edit", sorted(CLAIM_EDITS))
def test_a_certificate_whose_claim_was_edited_is_rejected(
    smt_report: dict[str, dict[str, Any]], tmp_path: Path, edit: str
) -> None:
    """The claim edited alone: the statement no longer matches, rejected. Edited with the statement the new
    claim encodes: rejected when the new claim is false (its negation is satisfiable), accepted when it is
    true (the checker proves what the embedded claim says, whatever the file's statement claims)."""
    claim_id, old, new, still_true = CLAIM_EDITS[edit]
    assert smt_report[claim_id]["verdict"] == "CERTIFIED", smt_report[claim_id]
    source = _certificate(smt_report, claim_id)
    alone = forged_file(source, tmp_path, lambda d: _edit_claim(d, old, new), name="alone.json")
    ok, reason = verify_file(alone)
    assert not ok and ("differs from the encoding" in reason or "logic" in reason), reason

    def rederived(d: dict[str, Any]) -> None:
        _edit_claim(d, old, new)
        _honest_statement(d)

    both = forged_file(source, tmp_path, rederived, name="both.json")
    ok, reason = verify_file(both)
    assert ok is still_true, reason


def _cuts(d: dict[str, Any]) -> list[dict[str, Any]]:
    return d["payload"]["cuts"]


def _set_cut(**fields: Any) -> Any:
    """Change the cut at 0 (the one the claim needs), and write the statement that cut gives."""

    def edit(d: dict[str, Any]) -> None:
        next(c for c in _cuts(d) if c["at"] == "0").update(fields)
        _honest_statement(d)  # only the cut is wrong: the statement is the one it would give

    return edit


def _upper_cut(d: dict[str, Any], **fields: Any) -> None:
    cut = {"kind": "upper", "atom": 0, "degree": 1, "at": "0", "factor": "1", "radius": "1/2", "remainder": "1"}
    _cuts(d).append(cut | fields)
    _honest_statement(d)


CUT_FORGERIES = {
    "lower factor above exp(at)": _set_cut(factor="1000001/1000000"),
    "cut moved to a point where its factor is too large": _set_cut(at="-1"),
    "even degree": _set_cut(degree=2),
    "degree beyond the table": _set_cut(degree=17),
    "atom that does not exist": _set_cut(atom=5),
    "point far out": _set_cut(at="1000"),
    "float factor": _set_cut(factor=1.0),
    "extra key": lambda d: _cuts(d)[0].update(note="trust me"),
    "upper factor below exp(at)": lambda d: _upper_cut(d, factor="99/100"),
    "upper radius above 1": lambda d: _upper_cut(d, radius="2"),
    "upper remainder too small": lambda d: _upper_cut(d, remainder="1/100"),
    "cut dropped, its fact kept": lambda d: _cuts(d).pop(0),
    "cut added, the statement kept": lambda d: _cuts(d).append(dict(_cuts(d)[0], degree=15)),
    "kind flipped to upper": _set_cut(kind="upper"),
}


@pytest.mark.parametrize("name", sorted(CUT_FORGERIES))
def test_a_certificate_with_a_false_or_changed_cut_is_rejected(
    report: dict[str, dict[str, Any]], tmp_path: Path, name: str
) -> None:
    source = _certificate(report, "exp.second-order")
    assert _cuts(json.loads(source.read_text()))  # the genuine certificate has cuts to forge
    ok, reason = verify_file(forged_file(source, tmp_path, CUT_FORGERIES[name]))
    assert not ok, reason
    assert "cut" in reason or "differ" in reason, reason


def test_the_smt_forgery_generators_are_rejected_on_a_claims_file_certificate(
    report: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    """The standing SMT forgeries (smuggled text, dropped hypotheses, swapped goal, ...), on a claims-file one."""
    genuine = json.loads(_certificate(report, "lambda-c.below-four").read_text())
    assert verify_file(_certificate(report, "lambda-c.below-four"))[0]
    accepted = []
    for k, (name, edit) in enumerate(smt_forgeries(genuine)):
        data = forged(genuine, edit)
        if data == genuine:
            continue
        ok, reason = verify_file(write(data, tmp_path / f"forgery-{k}.json"))
        if ok:
            accepted.append(f"{name}: {reason}")
    assert not accepted, accepted


def test_an_smt_certificate_of_one_claim_is_not_one_of_another(
    report: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    """The embedded claim swapped for another claim of the file (with its own id): the statement differs."""
    source = _certificate(report, "c-star.above-half-reciprocal")
    other = next(c for c in load_claims(EXAMPLES) if c.id == "c-star.above-half-reciprocal.unbounded")

    def swap(d: dict[str, Any]) -> None:
        d["claim"] = {"toml": claim_text(other.raw)}
        d["claim_id"] = other.id

    ok, reason = verify_file(forged_file(source, tmp_path, swap))
    assert not ok and "differ" in reason, reason
