"""The one report format: a JSON-ready dict, rendered as JSON or markdown (HTML and terminal: their own modules)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from checks import __version__
from checks.claim_runner import ClaimResult
from checks.verdicts import Verdict

FORMATS = ("table", "json", "markdown", "html")
#: The heading of the list of claims where what was found differs from the summary (every format shows it).
DIFFERENCES_HEADING = "Where the summary, or a reading of it, is not what was found"
#: What every format says when that list is empty.
NO_DIFFERENCES = "No claim was found to differ from the paper's summary."


def build_report(results: list[ClaimResult], profile: str, seed: int) -> dict[str, Any]:
    """The report dict: {"headflow", "profile", "seed", "claims": [...], "summary": {...}}."""
    claims = []
    for r in results:
        evidence: dict[str, Any] = {"procedures": [o.as_dict() | {"name": n} for n, o in r.outcomes]}
        if r.certificates:
            evidence["certificates"] = r.certificates
        if r.conflict:
            evidence["conflict"] = r.conflict
        if r.crashed:
            evidence["crashed"] = True
        claims.append(
            {
                "id": r.claim.id,
                "title": r.claim.title,
                "statement": r.claim.statement,
                "verdict": r.verdict.value,
                "method": r.method,
                "evidence": evidence,
                "seconds": round(r.seconds, 4),
            }
        )
    counts = Counter(r.verdict.value for r in results)
    summary = {v.value: counts.get(v.value, 0) for v in Verdict}
    return {
        "headflow": __version__,
        "profile": profile,
        "seed": seed,
        "claims": claims,
        "summary": summary,
        "differences": summary_differences(claims),
    }


def summary_differences(claims: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Claims where what was found differs from the paper's summary: refuted, or with a finding."""
    differences = []
    for claim in claims:
        findings = [p["finding"] for p in claim["evidence"]["procedures"] if p.get("finding")]
        if claim["verdict"] == Verdict.REFUTED.value:
            findings.insert(0, "refuted as stated" + _witness_summary(claim["evidence"]["procedures"]))
        if findings:
            differences.append({"id": claim["id"], "verdict": claim["verdict"], "finding": "; ".join(findings)})
    return differences


def render_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=2, sort_keys=False, default=_json_default) + "\n"


def render_markdown(report: dict[str, Any]) -> str:
    """A markdown report: the overview, then per claim its statement, evidence and figures."""
    lines = [render_markdown_overview(report)]
    for c in report["claims"]:
        lines += [f"## `{c['id']}`: {c['title']}", "", f"**Verdict: {c['verdict']}**", ""]
        lines += [f"*Statement.* {c['statement']}", ""]
        for proc in c["evidence"]["procedures"]:
            lines.append(f"- **{proc['name']}** ({proc['verdict']}): {proc['method']}")
            for key in ("cases", "worst_margin", "tolerance", "notes", "finding"):
                if key in proc:
                    lines.append(f"  - {key.replace('_', ' ')}: {proc[key]}")
            for path in proc.get("certificates", []):
                lines.append(f"  - certificate: `{path}`")
            if "witness" in proc:
                lines.append(f"  - witness: `{json.dumps(proc['witness'], default=_json_default)[:400]}`")
            for step in proc.get("steps", []):
                formula = f": $${step['latex']}$$" if step["latex"] else ""
                lines.append(f"  1. {step['text']}{formula}")
        for figure in report.get("figures", {}).get(c["id"], []):
            lines += ["", f"![{figure['title']}](data:image/png;base64,{figure['png_base64']})"]
        lines.append("")
    return "\n".join(lines)


def render_markdown_overview(report: dict[str, Any]) -> str:
    """The heading, the verdict counts, the differences from the summary and the table of claims."""
    lines = [
        f"# headflow report (version {report['headflow']}, profile {report['profile']}, seed {report['seed']})",
        "",
        "| verdict | count |",
        "|---|---|",
        *(f"| {verdict} | {count} |" for verdict, count in report["summary"].items()),
        "",
        *_markdown_differences(report.get("differences", [])),
        "| claim | verdict | method | seconds |",
        "|---|---|---|---|",
        *(
            f"| `{c['id']}` | **{c['verdict']}** | {_cell(c['method'])} | {c['seconds']:.2f} |"
            for c in report["claims"]
        ),
        "",
    ]
    return "\n".join(lines)


#: Witness fields that name the counterexample's parameters (tokens and matrices are left to the evidence).
_WITNESS_PARAMETERS = ("H", "n", "d", "alpha", "beta", "lambdas", "point", "parameters", "example", "quantity", "ball")


def _witness_summary(procedures: list[dict[str, Any]]) -> str:
    """', witness: H=2, n=3, ...' from the first rigorous witness, or '' when there is none."""
    witness = next((p["witness"] for p in procedures if "witness" in p), None)
    if not witness:
        return ""
    shown = [f"{key}={witness[key]}" for key in _WITNESS_PARAMETERS if key in witness]
    return f" (witness, verified by {witness['verified_by']}: {', '.join(shown)})" if shown else ""


def _markdown_differences(differences: list[dict[str, str]]) -> list[str]:
    if not differences:
        return [NO_DIFFERENCES, ""]
    lines = [f"## {DIFFERENCES_HEADING}", ""]
    lines += [f"- `{d['id']}` ({d['verdict']}): {d['finding']}" for d in differences]
    return [*lines, ""]


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _json_default(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)
