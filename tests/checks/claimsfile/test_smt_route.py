"""The SMT route of claims-file inequalities and identities, through `headflow check` and `headflow check-cert`.

True claims get `smt` certificates whose statement (form `real`) check-cert encodes itself and re-checks
(z3 and cvc5); false ones are refuted at points verified exactly or with balls; forged certificates (the
statement edited into a false claim, a cut that is not true, malformed trees, another claim's statement) are
rejected.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

import pytest
import sympy as sp
from headflow.certificates.claims.loader import load_claims, parse_claims
from headflow.certificates.kernel import real_statements
from headflow.checks.claimsfile import identity_decider, smt_route
from headflow.checks.claimsfile.inequality_decider import inside, refutation
from headflow.checks.cli import main
from headflow.checks.registry import Context
from headflow.checks.verdicts import Verdict

from tests.checking import verify_file
from tests.forging import forged, forged_file, write

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
        [sys.executable, "-m", "headflow", "check-cert", "--width=1000", *paths, "--claims", str(EXAMPLES)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("unsat in z3 and in cvc5") >= len(BY_SMT)


def test_integer_parameters_are_int_and_cuts_are_at_exact_points(report: dict[str, dict[str, Any]]) -> None:
    lambda_c = json.loads(_certificate(report, "lambda-c.below-four").read_text())
    assert [v["integer"] for v in lambda_c["statement"]["variables"]] == [True]
    assert "(set-logic QF_NIRA)" in real_statements.smt_problem(lambda_c["statement"], lambda_c["payload"])
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


def _variable(data: dict[str, Any], **fields: Any) -> None:
    data["statement"]["variables"][0].update(fields)


#: name -> (claim, edit of its certificate's statement, whether the edited statement is still true).
STATEMENT_EDITS = {
    "relation flipped": ("c-star.at-most-one", lambda d: d["statement"].update(op=">="), False),
    "relation made strict": ("c-star.at-most-one", lambda d: d["statement"].update(op="<"), False),
    "bound moved": ("c-star.at-most-one", lambda d: _variable(d, low=["rat", "0"]), False),
    "a bound of another form, still true": (
        "c-star.above-half-reciprocal.unbounded",
        lambda d: _variable(d, low=["rat", "19999999/10000000"]),
        True,
    ),
    "rhs changed": ("lambda-c.below-four", lambda d: d["statement"].update(rhs=["rat", "3"]), False),
    "integer range widened": ("lambda-c.below-four", lambda d: _variable(d, high=["rat", "20"]), False),
    "integer parameter made real, still true": ("lambda-c.below-four", lambda d: _variable(d, integer=False), True),
    "integer parameter made real up to 19.5": (  # u_c(n) < 4 while n - 1 < e^4/3 = 18.2
        "lambda-c.below-four",
        lambda d: _variable(d, integer=False, high=["rat", "39/2"]),
        False,
    ),
    "identity for another": (
        "c-star.reciprocal",
        lambda d: d["statement"].update(rhs=["sub", ["sym", "H"], ["rat", "2"]]),
        False,
    ),
    "domain bound dropped (exp)": ("exp.second-order", lambda d: _variable(d, low=None), False),
    "domain bound dropped (sqrt undefined below -1)": ("sqrt.product", lambda d: _variable(d, low=None), False),
    "epsilon subtracted": (
        "sqrt.product",
        lambda d: d["statement"].update(
            rhs=["sub", d["statement"]["rhs"], ["rat", "1/1000000000000000000000000000000"]]
        ),
        False,
    ),
}


@pytest.mark.parametrize("edit", sorted(STATEMENT_EDITS))
def test_a_certificate_whose_statement_was_edited_proves_only_what_is_true(
    smt_report: dict[str, dict[str, Any]], tmp_path: Path, edit: str
) -> None:
    """The kernel encodes the statement itself: an edit into a false claim is rejected (its negation is
    satisfiable or not refuted), an edit into a true claim is accepted (the checker proves what the statement says,
    and prints it)."""
    claim_id, change, still_true = STATEMENT_EDITS[edit]
    assert smt_report[claim_id]["verdict"] == "CERTIFIED", smt_report[claim_id]
    ok, reason = verify_file(forged_file(_certificate(smt_report, claim_id), tmp_path, change))
    assert ok is still_true, reason


def _cuts(d: dict[str, Any]) -> list[dict[str, Any]]:
    return d["payload"]["cuts"]


def _set_cut(**fields: Any) -> Any:
    """Change the cut at 0 (the one the claim needs)."""
    return lambda d: next(c for c in _cuts(d) if c["at"] == "0").update(fields)


def _upper_cut(d: dict[str, Any], **fields: Any) -> None:
    cut = {"kind": "upper", "atom": 0, "degree": 1, "at": "0", "factor": "1"}
    _cuts(d).append(cut | fields)


CUT_FORGERIES = {
    "lower factor above exp(at)": _set_cut(factor="1000001/1000000"),
    "cut moved to a point where its factor is too large": _set_cut(at="-1"),
    "even degree": _set_cut(degree=2),
    "degree beyond the table": _set_cut(degree=17),
    "atom that does not exist": _set_cut(atom=5),
    "point far out": _set_cut(at="1000"),
    "float factor": _set_cut(factor=1.0),
    "extra key": lambda d: _cuts(d)[0].update(note="trust me"),
    "upper factor above exp(at)": lambda d: _upper_cut(d, factor="101/100"),
    "upper with a radius": lambda d: _upper_cut(d, radius="1/2"),
    "upper at a float point": lambda d: _upper_cut(d, at=0.0),
    "product of an atom that does not exist": lambda d: _cuts(d).append({"kind": "product", "atoms": [0, 1]}),
    "product of one atom": lambda d: _cuts(d).append({"kind": "product", "atoms": [0]}),
    "product with a point": lambda d: _cuts(d).append({"kind": "product", "atoms": [0, 0], "at": "0"}),
}


@pytest.mark.parametrize("name", sorted(CUT_FORGERIES))
def test_a_certificate_with_a_false_or_malformed_cut_is_rejected(
    report: dict[str, dict[str, Any]], tmp_path: Path, name: str
) -> None:
    source = _certificate(report, "exp.second-order")
    assert _cuts(json.loads(source.read_text()))  # the genuine certificate has cuts to forge
    ok, reason = verify_file(forged_file(source, tmp_path, CUT_FORGERIES[name]))
    assert not ok and "cut" in reason, reason


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: _cuts(d).clear(),
        _set_cut(kind="upper"),  # a true fact (exp(x) T_k(-x) <= 1), not the one the claim needs
        lambda d: d["payload"].update(cuts=[{"kind": "product", "atoms": [0, 0]}]),  # exp(x)^2 = 1 where 2x = 0
    ],
)
def test_without_its_cut_the_claim_is_not_re_checked(
    report: dict[str, dict[str, Any]], tmp_path: Path, edit: Any
) -> None:
    """exp(x) >= 1 + x + x^2/2 needs its cut at 0: dropped, or replaced by true facts that do not give it, the
    solvers find the problem satisfiable."""
    source = _certificate(report, "exp.second-order")
    ok, reason = verify_file(forged_file(source, tmp_path, edit))
    assert not ok and "sat" in reason, reason


def _statement_forgeries() -> list[tuple[str, Any]]:
    """Malformed statements and payloads: smuggled text in trees, unknown nodes, huge or deep trees, extra fields."""
    edits: list[tuple[str, Any]] = []
    for k, text in enumerate(["(check-sat)", "x0) (assert false", "|z|", "; comment", "1e5", "m", ""]):
        edits.append((f"text for a side {k}", lambda d, t=text: d["statement"].update(lhs=t)))
        edits.append((f"text as a rational {k}", lambda d, t=text: d["statement"].update(rhs=["rat", t])))
        edits.append((f"text as a node {k}", lambda d, t=text: d["statement"].update(rhs=[t, ["rat", "1"]])))
        edits.append((f"text as an operator {k}", lambda d, t=text: d["statement"].update(op=t)))
        edits.append((f"text as a variable name {k}", lambda d, t=text: _variable(d, name=t)))
    edits += [
        ("huge power", lambda d: d["statement"].update(lhs=["pow", ["sym", "n"], 10**6])),
        ("deep tree", lambda d: d["statement"].update(rhs=_deep(300))),
        ("extra payload field", lambda d: d["payload"].update(smtlib="(check-sat)")),
        ("legacy statements in the payload", lambda d: d["payload"].update(statements=[])),
        ("extra statement field", lambda d: d["statement"].update(note="trust me")),
        ("variable without bounds' flags", lambda d: d["statement"]["variables"][0].pop("low_open")),
        ("kind changed to witness", lambda d: d.update(kind="witness")),
        ("kind changed to interval-cover", lambda d: d.update(kind="interval-cover")),
        ("no statement", lambda d: d.update(statement=None)),
    ]
    return edits


def _deep(depth: int) -> list[Any]:
    tree: list[Any] = ["rat", "1"]
    for _ in range(depth):
        tree = ["add", tree]
    return tree


def test_malformed_statements_are_rejected(report: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    genuine = json.loads(_certificate(report, "lambda-c.below-four").read_text())
    assert verify_file(_certificate(report, "lambda-c.below-four"))[0]
    accepted = []
    for k, (name, edit) in enumerate(_statement_forgeries()):
        data = forged(genuine, edit)
        ok, reason = verify_file(write(data, tmp_path / f"forgery-{k}.json"))
        if ok:
            accepted.append(f"{name}: {reason}")
    assert not accepted, accepted


def test_an_smt_certificate_of_one_claim_is_not_one_of_another(
    report: dict[str, dict[str, Any]], tmp_path: Path
) -> None:
    """Another claim's statement pasted in: rejected as it is (filed under another claim), and relabelled (the
    cuts of one claim do not prove the other)."""
    source = _certificate(report, "c-star.above-half-reciprocal")
    other = json.loads(_certificate(report, "exp.second-order").read_text())["statement"]
    ok, reason = verify_file(forged_file(source, tmp_path, lambda d: d.update(statement=copy.deepcopy(other))))
    assert not ok and "of claim" in reason, reason
    relabelled = other | {"claim": "c-star.above-half-reciprocal"}
    ok, reason = verify_file(forged_file(source, tmp_path, lambda d: d.update(statement=copy.deepcopy(relabelled))))
    assert not ok, reason
