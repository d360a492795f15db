"""The interval engine on claims files, through `headflow check`: centred forms, lambda_c over boxes, dependent
bounds refined where they fail, monotone steps; and forged covers that `headflow check-cert` must reject."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel.real_statements import RELATION, goals
from headflow.certificates.statements.real import relation_statement
from headflow.checks.claimsfile import inequality_decider
from headflow.checks.cli import main

from tests.checking import verify_file
from tests.forging import forged, write

DEPENDENT_DOMAIN = '{ n = { min = 2, max = 10, integer = true }, beta = "[1/2, 2]", l = { min = "%s", max = 10 } }'
INFLECTION = "(l*beta - 2)*exp(l*beta) - (n-1)*(l*beta + 2)"
TANGENT = "(1 - beta*l)*exp(beta*l) + n - 1"

CLAIMS = {
    "c-star": ("c_star(H)", ">", "1/(2*H)", '{ H = "[2, 1000]" }'),
    "lambda-c-19": ("lambda_c(n, 1)", "<", "4", "{ n = { min = 2, max = 19, integer = true } }"),
    "lambda-c-20": ("lambda_c(n, 1)", "<", "4", "{ n = { min = 2, max = 20, integer = true } }"),
    "above-root": ("l*beta", ">", "2", DEPENDENT_DOMAIN % "lambda_c(n, beta) + 1/100"),
    "inflection-false": (INFLECTION, ">=", "1/10", DEPENDENT_DOMAIN % "lambda_c(n, beta)"),
    "tangent": (TANGENT, "<=", "0", DEPENDENT_DOMAIN % "lambda_max(n, beta)"),
    "tangent-false": (TANGENT, "<=", "-1/1000", DEPENDENT_DOMAIN % "lambda_max(n, beta)"),
    "tangent-reversed": (TANGENT, ">=", "0", DEPENDENT_DOMAIN % "lambda_max(n, beta)"),
    "one-point-third": ("(x - 1/3)**2", ">", "0", '{ x = "[0, 1]" }'),
    "one-point-half": ("(2*x - 1)**2", ">", "0", '{ x = "[0, 1]" }'),
    "parabola": ("x*(1 - x)", ">=", "0", '{ x = "[0, 1/2]" }'),
}


def claims_text(ids: list[str]) -> str:
    rows = []
    for claim_id in ids:
        lhs, op, rhs, domain = CLAIMS[claim_id]
        rows.append(
            f'[[claim]]\nid = "{claim_id}"\nkind = "inequality"\nlhs = "{lhs}"\nop = "{op}"\nrhs = "{rhs}"\n'
            f"domain = {domain}\n"
        )
    return "\n".join(rows)


def check(tmp_path: Path, ids: list[str], smt: bool = False) -> tuple[dict[str, dict[str, Any]], Path]:
    """`headflow check` on a file of the given claims: the report's claims by id, and the certificate folder.

    Unless `smt`, the SMT route is switched off, so that the interval engine is what decides them (the SMT
    route, tried before it, certifies several of them on its own: `test_smt_route.py`)."""
    claims = tmp_path / "claims.toml"
    claims.write_text(claims_text(ids))
    report, certs = tmp_path / "report.json", tmp_path / "certs"
    with pytest.MonkeyPatch.context() as patch:
        if not smt:
            patch.setattr(inequality_decider, "decide_smt", lambda *_: "SMT route off in this test")
        code = main(["check", str(claims), "--format", "json", "--out", str(report), "--certificates", str(certs)])
    assert code in (0, 1)
    return {c["id"]: c for c in json.loads(report.read_text())["claims"]}, certs


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, dict[str, Any]], Path]:
    return check(tmp_path_factory.mktemp("engine"), list(CLAIMS))


@pytest.mark.slow
def test_with_the_smt_route_on_the_engine_agrees(tmp_path: Path) -> None:
    """The full engine (SMT route first) reaches the same verdicts on the claims both can decide."""
    ids = ["c-star", "lambda-c-19", "lambda-c-20", "tangent-false"]
    claims, _ = check(tmp_path, ids, smt=True)
    assert [claims[i]["verdict"] for i in ids] == ["CERTIFIED", "CERTIFIED", "REFUTED", "REFUTED"]


def _procedure(claim: dict[str, Any]) -> dict[str, Any]:
    (procedure,) = claim["evidence"]["procedures"]
    return procedure


def _certificates(claim: dict[str, Any]) -> list[Path]:
    return [Path(p) for p in _procedure(claim).get("certificates", [])]


@pytest.mark.parametrize(
    ("claim_id", "form"),
    [("c-star", "centred"), ("lambda-c-19", "natural"), ("above-root", "natural"), ("parabola", "monotone")],
)
def test_true_claims_are_certified_by_the_form_that_settles_them(report: tuple, claim_id: str, form: str) -> None:
    claims, _ = report
    assert claims[claim_id]["verdict"] == "CERTIFIED", _procedure(claims[claim_id])
    assert _procedure(claims[claim_id])["details"]["leaves"].get(form, 0) >= 1
    paths = _certificates(claims[claim_id])
    assert paths and all(verify_file(p)[0] for p in paths), [verify_file(p) for p in paths]
    lines = [verify_file(p)[1] for p in paths]
    relation = [line for line in lines if "defined: " not in line]
    assert len(relation) == 1 and "for all " in relation[0] and "domain non-empty" in relation[0], lines


def test_lambda_c_at_twenty_is_refuted_by_a_ball(report: tuple) -> None:
    claims, _ = report
    witness = _procedure(claims["lambda-c-20"])["witness"]
    assert claims["lambda-c-20"]["verdict"] == "REFUTED"
    assert witness["verified_by"] == "ball" and witness["point"] == {"n": "20"}


@pytest.mark.parametrize("claim_id", ["inflection-false", "tangent-false", "tangent-reversed", "one-point-half"])
def test_false_variants_are_refuted_at_a_point_of_the_domain(report: tuple, claim_id: str) -> None:
    claims, _ = report
    assert claims[claim_id]["verdict"] == "REFUTED", _procedure(claims[claim_id])
    assert _procedure(claims[claim_id])["witness"]["verified_by"] in ("ball", "exact")


def test_a_claim_false_at_one_point_no_ball_reaches_is_never_certified(report: tuple) -> None:
    claims, _ = report
    verdict = claims["one-point-third"]["verdict"]  # (x - 1/3)^2 > 0 fails at x = 1/3 only
    assert verdict not in ("CERTIFIED", "PROVED", "CONFIRMED")


def test_a_vanishing_rational_bound_is_proved(report: tuple) -> None:
    claims, _ = report
    assert claims["parabola"]["verdict"] == "CERTIFIED"


def test_exhausted_budget_reports_the_boxes_that_failed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(inequality_decider.MAX_BOXES, "quick", 40)
    claims, _ = check(tmp_path, ["c-star"])
    procedure = _procedure(claims["c-star"])
    assert claims["c-star"]["verdict"] == "INCONCLUSIVE"
    assert "box budget" in procedure["notes"] and "boxes that failed: H in [" in procedure["notes"]
    assert 1 <= len(procedure["details"]["failed_boxes"]) <= 3


# ---------------------------------------------------------------- forged covers


def _genuine(report: tuple, claim_id: str) -> tuple[Path, dict[str, Any]]:
    claims, _ = report
    for path in _certificates(claims[claim_id]):
        data = json.loads(path.read_text())
        if "defined: " not in verify_file(path)[1]:
            return path, data
    raise AssertionError(f"no relation certificate for {claim_id}")


def _nodes(node: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    found = [node] if kind in node else []
    for key in ("low", "high", "face"):
        if key in node:
            found += _nodes(node[key], kind)
    return found


def _rejected(data: dict[str, Any], tmp_path: Path, name: str) -> str:
    ok, line = verify_file(write(data, tmp_path / f"{name}.json"))
    assert not ok, line
    return line


def test_a_forged_derivative_sign_is_rejected(report: tuple, tmp_path: Path) -> None:
    """A monotone node whose derivative sign is flipped: the checker's own derivative refutes it."""
    _, data = _genuine(report, "parabola")
    assert _nodes(data["payload"]["tree"], "monotone")

    def flip(d: dict[str, Any]) -> None:
        node = _nodes(d["payload"]["tree"], "monotone")[0]
        node["sign"] = "<=" if node["sign"] == ">=" else ">="

    line = _rejected(forged(data, flip), tmp_path, "parabola-monotone")
    assert "monotonicity" in line, line


def _relabelled(data: dict[str, Any], text: str) -> dict[str, Any]:
    """The certificate moved to the one claim of `text`, with that claim's expression and relation (so only the
    re-check of the tree can reject it)."""
    (claim,) = parse_claims(text, "forged.toml")

    statement = relation_statement(claim)

    def edit(d: dict[str, Any]) -> None:
        d.update(claim_id=claim.id, claim=embedded(claim), statement=statement)
        d["payload"].update(expression=goals(statement)[0][0], relation=RELATION[claim.op])

    return forged(data, edit)


def test_a_forged_monotone_step_on_a_false_claim_is_rejected(report: tuple, tmp_path: Path) -> None:
    """(x - 1)^2 >= 1/100 on [0, 2] is false at x = 1; a cover claiming it monotone, with a true value at an end
    as the face, must fail on the derivative 2 (x - 1), which changes sign on the box."""
    _, data = _genuine(report, "parabola")
    text = '[[claim]]\nid = "forged"\nkind = "inequality"\nlhs = "(x - 1)**2"\nop = ">="\nrhs = "1/100"\n'
    text += 'domain = { x = "[0, 2]" }\n'
    for sign in ("<=", ">="):
        forgery = _relabelled(data, text)
        tree = {"monotone": "x", "sign": sign, "face": {"leaf": ["-2", "-1/2"]}}
        forgery["payload"].update(domain={"x": ["0", "2"]}, tree=tree)
        line = _rejected(forged(forgery, lambda d: None), tmp_path, f"monotone-{sign}")
        assert "monotonicity" in line, line


def test_graph_and_boundary_nodes_are_no_node_kinds(report: tuple, tmp_path: Path) -> None:
    """The kernel knows leaves, empty boxes, splits and monotone steps only: a tree with a step of a former kind (a
    face on a bound's graph, a boundary step on a bound where the expression vanishes) is refused by its fields."""
    _, data = _genuine(report, "parabola")
    steps = {
        "graph": {"graph": "x", "end": "low", "sign": ">=", "face": {"leaf": ["0", "0"]}},
        "boundary": {"boundary": "x", "end": "low", "derivative": {"leaf": ["1/2", "1"]}},
    }
    for kind, tree in steps.items():
        line = _rejected(forged(data, lambda d, t=tree: d["payload"].update(tree=t)), tmp_path, kind)
        unknown = min(set(tree) - {"sign", "face"})  # the first of its fields that no node kind has
        assert f"cover node: unknown field {unknown!r}" in line, line


def test_a_bound_where_the_claim_vanishes_only_through_lambertw_has_no_cover(report: tuple) -> None:
    """tangent is 0 on l = lambda_max(n, beta) only by W(z) e^W(z) = z, which the kernel does not prove: no cover
    certifies it (the SMT route does, with the route on), and no certificate of its false variant exists."""
    claims, _ = report
    assert claims["tangent"]["verdict"] != "CERTIFIED"
    assert not _certificates(claims["tangent-false"])


def test_covers_that_miss_part_of_the_domain_are_rejected(report: tuple, tmp_path: Path) -> None:
    _, data = _genuine(report, "above-root")
    edits = {
        "root box above the dependent bound": lambda d: d["payload"]["domain"]["l"].__setitem__(0, "3"),
        "root box without n = 10": lambda d: d["payload"]["domain"]["n"].__setitem__(1, "9"),
        "an integer fixed as a constant": lambda d: d["payload"].update(constants={"n": "2"}),  # covers have none
        "a node marked empty": lambda d: d["payload"].update(tree={"empty": True}),
    }
    for name, edit in edits.items():
        line = _rejected(forged(data, edit), tmp_path, name.replace(" ", "-"))
        assert any(word in line for word in ("contain", "unexpected ['constants']", "empty", "differs")), (name, line)


def test_a_forged_centred_enclosure_is_rejected(report: tuple, tmp_path: Path) -> None:
    _, data = _genuine(report, "c-star")

    def shift(d: dict[str, Any]) -> None:
        leaf = next(n for n in _nodes(d["payload"]["tree"], "leaf") if n.get("form") == "centred")
        leaf["leaf"] = ["-1", "-1/2"]

    line = _rejected(forged(data, shift), tmp_path, "centred")
    assert "not inside the recorded enclosure" in line or "does not satisfy" in line, line
