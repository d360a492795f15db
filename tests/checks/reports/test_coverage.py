"""The coverage table: each strong verdict with the checkers that accepted its proof, and what is missing."""

from __future__ import annotations

from typing import Any

from headflow.checks.reports.coverage import coverage, coverage_row, coverage_summary


def _claim(verdict: str, checkers: list[str] | None, certificates: int = 1, **evidence: Any) -> dict[str, Any]:
    procedures = [{"method": "route m", "verdict": verdict}, {"method": "numeric", "verdict": "CONFIRMED"}]
    data: dict[str, Any] = {"procedures": procedures, **evidence}
    if certificates:
        data["certificates"] = [f"c{k}.json" for k in range(certificates)]
    if checkers is not None:
        data["independent_checkers"] = checkers
    return {"id": f"claim-{verdict}-{len(checkers or [])}", "verdict": verdict, "evidence": data}


def test_only_strong_verdicts_are_listed() -> None:
    claims = [_claim(v, ["check-cert (balls)", "Coq"]) for v in ("PROVED", "CONFIRMED", "INCONCLUSIVE", "REFUTED")]
    assert [row["verdict"] for row in coverage(claims)] == ["PROVED", "REFUTED"]


def test_what_is_missing_and_why() -> None:
    rows = coverage(
        [
            _claim("PROVED", [], certificates=0),
            _claim("CERTIFIED", ["check-cert", "z3", "cvc5", "Coq"]),
            _claim(
                "CERTIFIED",
                ["check-cert (balls)"],
                coq_missing={"a": "not translatable: X", "b": "not translatable: X"},
            ),
            _claim("REFUTED", None),
            _claim("REFUTED", ["Coq"]),
        ]
    )
    missing = [row["missing"] for row in rows]
    assert missing[0] == "no certificate written by its route (route m)"  # the deciding procedure's method only
    assert missing[1] == ""
    assert missing[2] == "not translatable: X (x2)"
    assert missing[3].startswith("not re-checked in this run")
    assert missing[4] == "check-cert did not accept every certificate"
    assert coverage_summary(rows) == {"strong": 5, "check-cert": 2, "Coq": 2, "both": 1}


def test_check_cert_counts_once_across_kinds_of_certificate() -> None:
    """A verdict with an smt certificate (check-cert, z3, cvc5) and a witness (check-cert (balls)), both accepted:
    check-cert re-checked every certificate, so it is listed (and the row is covered when Coq accepted both too); a
    certificate check-cert did not accept keeps it out."""
    from headflow.checks.reports.document import _common

    both = _common([["check-cert", "z3", "cvc5", "Coq"], ["check-cert (balls)", "Coq"]])
    assert both == ["check-cert", "Coq"]
    assert coverage_row(_claim("REFUTED", both))["missing"] == ""
    assert _common([["check-cert (balls)", "Coq"], ["check-cert (balls)", "Coq"]]) == ["check-cert (balls)", "Coq"]
    assert _common([["check-cert (balls)", "Coq"], ["Coq"]]) == ["Coq"]


def test_a_conjunction_is_covered_only_when_every_part_it_rests_on_has_a_certificate() -> None:
    parts = [{"id": "p1", "verdict": "PROVED", "certificates": ["a.json"]}, {"id": "p2", "verdict": "PROVED"}]
    claim = _claim("PROVED", ["check-cert", "Coq"])
    claim["evidence"]["procedures"][0]["details"] = {"parts": parts}
    row = coverage_row(claim)
    assert row["checkers"] == [] and row["missing"] == "parts with no certificate: p2"
    parts[1] |= {"verdict": "REFUTED", "certificates": ["b.json"]}
    claim["verdict"] = "REFUTED"  # the refuting part has its certificate: the other part does not matter
    assert coverage_row(claim)["missing"] == ""
