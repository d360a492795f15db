"""Who checked what: for each strong verdict (PROVED, CERTIFIED, REFUTED) of a report re-checked with `--recheck
--coq`, the independent checkers that accepted every certificate of its proof, and why check-cert or Coq is missing.

Issue 40's measure: a strong verdict is covered when both check-cert (the kernel: balls, exact data, or z3 and cvc5
for smt) and Coq accepted its certificates in the run; the others are listed with the reason (no certificate
written for its route, or Coq's status and reason per certificate). The findings page and docs/coq.md show this
table from the committed run (`docs/generate.py`), never a hand-written one.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

#: The verdicts that settle a claim with exact or rigorous methods.
STRONG = ("PROVED", "CERTIFIED", "REFUTED")
#: check-cert's names in the reports: its own re-check of smt certificates and of the others (balls, exact data).
CHECK_CERT = ("check-cert", "check-cert (balls)", "check-cert (exact algebra)")
COQ = "Coq"


def coverage_row(claim: dict[str, Any]) -> dict[str, Any]:
    """One strong verdict of a report: its id, verdict, checkers, and what is missing ("" when covered)."""
    evidence = claim["evidence"]
    checkers = list(evidence.get("independent_checkers", []))
    bare = _parts_without_certificate(claim)
    if not evidence.get("certificates"):
        missing = "no certificate written by its route (" + _deciding_methods(claim) + ")"
    elif bare:  # a conjunction: its certificates prove some parts only
        checkers, missing = [], f"parts with no certificate: {', '.join(bare)}"
    elif "independent_checkers" not in evidence:
        missing = "not re-checked in this run (no --recheck)"
    elif not any(name in checkers for name in CHECK_CERT):
        missing = "check-cert did not accept every certificate"
    elif COQ not in checkers:
        reasons = Counter(evidence.get("coq_missing", {}).values())
        missing = "; ".join(f"{reason} (x{count})" if count > 1 else reason for reason, count in reasons.items())
        missing = missing or "Coq was not run"
    else:
        missing = ""
    return {"id": claim["id"], "verdict": claim["verdict"], "checkers": checkers, "missing": missing}


def coverage(claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The coverage row of every strong verdict, in the report's order."""
    return [coverage_row(claim) for claim in claims if claim["verdict"] in STRONG]


def coverage_summary(rows: list[dict[str, Any]]) -> dict[str, int]:
    """Counts: strong verdicts, those check-cert re-checked, those Coq re-checked, and those both did."""
    kernel = [any(name in row["checkers"] for name in CHECK_CERT) for row in rows]
    coq = [COQ in row["checkers"] for row in rows]
    return {
        "strong": len(rows),
        "check-cert": sum(kernel),
        "Coq": sum(coq),
        "both": sum(k and c for k, c in zip(kernel, coq, strict=True)),
    }


def _parts_without_certificate(claim: dict[str, Any]) -> list[str]:
    """The parts of a conjunction's verdict that carry no certificate: every part of a true one, the refuting part of
    a refuted one (empty for a claim that is no conjunction)."""
    parts = [part for p in claim["evidence"]["procedures"] for part in p.get("details", {}).get("parts", [])]
    if claim["verdict"] == "REFUTED":
        parts = [part for part in parts if part["verdict"] == "REFUTED"][:1]
    return [part["id"] for part in parts if not part.get("certificates")]


def _deciding_methods(claim: dict[str, Any]) -> str:
    """The methods of the procedures that gave the claim its verdict, first 160 characters."""
    procedures = claim["evidence"]["procedures"]
    methods = [p["method"] for p in procedures if p["verdict"] == claim["verdict"]]
    text = "; ".join(methods) or "none"
    return text if len(text) <= 160 else text[:157] + "..."
