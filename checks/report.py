"""The one report format: a JSON-ready dict, rendered as a rich table, JSON or markdown."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from checks import __version__
from checks.claim_runner import ClaimResult
from checks.verdicts import Verdict

FORMATS = ("table", "json", "markdown", "html")


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
    """A markdown report: a summary table, then per claim its statement and evidence."""
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
        return ["No claim was found to differ from the paper's summary.", ""]
    lines = ["## Where the summary, or a reading of it, is not what was found", ""]
    lines += [f"- `{d['id']}` ({d['verdict']}): {d['finding']}" for d in differences]
    return [*lines, ""]


def render_table(report: dict[str, Any]) -> Any:
    """A rich Table of claims and verdicts (for the terminal)."""
    from rich.table import Table

    styles = {
        "PROVED": "bold green",
        "CERTIFIED": "green",
        "CONFIRMED": "cyan",
        "REFUTED": "bold red",
        "INCONCLUSIVE": "yellow",
    }
    table = Table(title=f"headflow {report['headflow']} — profile {report['profile']}, seed {report['seed']}")
    table.add_column("claim", style="bold", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    table.add_column("procedures", overflow="fold")
    table.add_column("evidence", ratio=1, overflow="fold")
    table.add_column("s", justify="right", no_wrap=True)
    for c in report["claims"]:
        table.add_row(
            c["id"],
            f"[{styles[c['verdict']]}]{c['verdict']}[/]",
            ", ".join(f"{p['name']}: {p['verdict'].lower()}" for p in c["evidence"]["procedures"]),
            _evidence_line(c["evidence"]),
            f"{c['seconds']:.2f}",
        )
    return table


def _evidence_line(evidence: dict[str, Any]) -> str:
    parts = []
    for proc in evidence["procedures"]:
        bits = []
        if "cases" in proc:
            bits.append(f"{proc['cases']} cases")
        if "worst_margin" in proc:
            bits.append(f"worst {proc['worst_margin']:.3g}")
        if "certificates" in proc:
            bits.append(f"{len(proc['certificates'])} cert")
        if "notes" in proc:
            bits.append(proc["notes"][:80])
        parts.append(", ".join(bits))
    if "conflict" in evidence:
        parts.append(f"CONFLICT: {evidence['conflict']}")
    return "; ".join(p for p in parts if p)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _json_default(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)
