"""The one report format: a JSON-ready dict, rendered as JSON or markdown (HTML and terminal: their own modules).

The dict holds plain values only (`headflow.checks.reports.values.plain`), so every format prints it as it is.
Markdown text from claims and evidence is escaped (`markdown_text`, `markdown_code`): a claims file's
title or statement reaches the page as words, never as a link, an image or HTML, and its control characters as
escapes (`headflow.checks.reports.values.visible`, as in the terminal and HTML).
"""

from __future__ import annotations

import html
import re
from collections import Counter
from typing import Any, Literal

from headflow.checks import __version__
from headflow.checks.reports.values import dumps, plain, visible
from headflow.checks.reports.wrapping import PLAIN_WIDTH, wrapped
from headflow.checks.runner import ClaimResult
from headflow.checks.verdicts import Verdict

#: What a report decides: the paper's claims (`headflow verify`) or the claims of a user's file (`headflow check`).
Subject = Literal["paper", "claims file"]
#: Per subject, the heading of the block of claims that need a reader's attention, and what every format says
#: when there is none: for the paper, the claims where what was found differs from its summary; for a
#: claims file, those refuted or left undecided.
ATTENTION_WORDS: dict[str, tuple[str, str]] = {
    "paper": (
        "Where the summary, or a reading of it, is not what was found",
        "No claim was found to differ from the paper's summary.",
    ),
    "claims file": ("Refuted or undecided claims, with their reasons", "No claim was refuted or left undecided."),
}


def build_report(results: list[ClaimResult], profile: str, seed: int, subject: Subject = "paper") -> dict[str, Any]:
    """The report dict: {"headflow", "profile", "seed", "subject", "claims": [...], "summary", "differences"}."""
    claims = []
    for r in results:
        evidence: dict[str, Any] = {"procedures": [o.as_dict() | {"name": n} for n, o in r.outcomes]}
        if r.certificates:
            evidence["certificates"] = r.certificates
        if r.rechecked is not None:
            evidence["independent_checkers"] = _common(list(r.rechecked.values())) if r.certificates else []
            evidence["rechecked_by"] = r.rechecked
            if r.coq_missing:
                evidence["coq_missing"] = r.coq_missing
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
    claims = plain(claims)
    counts = Counter(r.verdict.value for r in results)
    summary = {v.value: counts.get(v.value, 0) for v in Verdict}
    return {
        "headflow": __version__,
        "profile": profile,
        "seed": seed,
        "subject": subject,
        "claims": claims,
        "summary": summary,
        "differences": summary_differences(claims) if subject == "paper" else unsettled_claims(claims),
    }


def checkers_text(evidence: dict[str, Any], path: str | None = None) -> str | None:
    """The independent checkers that re-checked the verdict (or, given `path`, that one certificate) as text, the
    same in every format; None when no re-check ran (`--recheck`)."""
    if "independent_checkers" not in evidence:
        return None
    names = evidence["independent_checkers"] if path is None else evidence["rechecked_by"].get(path, [])
    return ", ".join(names) or ("none" if path is not None or evidence.get("certificates") else "none (no certificate)")


def _common(checkers: list[list[str]]) -> list[str]:
    """The checkers that re-checked every one of a verdict's certificates, in the order of the first. check-cert
    counts once however it re-checked each (balls, exact algebra, or z3 and cvc5 for smt): a verdict with an smt and a
    witness certificate that it accepted both lists plain `check-cert`."""
    common = [name for name in checkers[0] if all(name in other for other in checkers[1:])]
    if all(_own(names) for names in checkers) and not _own(common):
        common.insert(0, "check-cert")
    return common


def _own(names: list[str]) -> bool:
    """Whether check-cert is among the names (its own re-check, of any kind)."""
    return any(name.startswith("check-cert") for name in names)


def attention_words(report: dict[str, Any]) -> tuple[str, str]:
    """The heading of the report's "differences" block and the sentence shown when it is empty."""
    return ATTENTION_WORDS[report.get("subject", "paper")]


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


def unsettled_claims(claims: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Claims of a claims file that were refuted (with the witness) or not decided (with each reason)."""
    listed = []
    for claim in claims:
        procedures = claim["evidence"]["procedures"]
        if claim["verdict"] == Verdict.REFUTED.value:
            reasons = ["refuted as stated" + _witness_summary(procedures)]
        elif claim["verdict"] == Verdict.INCONCLUSIVE.value:
            reasons = [f"not decided: {p['notes']}" for p in procedures if p["verdict"] == Verdict.INCONCLUSIVE.value]
            reasons += [f"conflict: {claim['evidence']['conflict']}"] if "conflict" in claim["evidence"] else []
        else:
            continue
        reasons += [p["finding"] for p in procedures if p.get("finding")]
        listed.append({"id": claim["id"], "verdict": claim["verdict"], "finding": "; ".join(reasons)})
    return listed


def render_json(report: dict[str, Any]) -> str:
    return dumps(report, indent=2) + "\n"


def render_markdown(report: dict[str, Any]) -> str:
    """A markdown report: the overview, then per claim its statement, evidence and figures."""
    report, text, code = visible(report), markdown_text, markdown_code
    lines = [render_markdown_overview(report)]
    for c in report["claims"]:
        lines += [f"## {code(c['id'])}: {text(c['title'])}", "", f"**Verdict: {c['verdict']}**", ""]
        lines += [f"*Statement.* {text(c['statement'])}", ""]
        checkers = checkers_text(c["evidence"])
        lines += [f"*Independent checkers:* {text(checkers)}", ""] if checkers is not None else []
        for proc in c["evidence"]["procedures"]:
            lines.append(f"- **{text(proc['name'])}** ({proc['verdict']}): {text(proc['method'])}")
            for key in ("cases", "worst_margin", "error_bound", "tolerance", "notes", "finding"):
                if key in proc:
                    lines.append(f"  - {key.replace('_', ' ')}: {text(proc[key])}")
            for path in proc.get("certificates", []):
                by = checkers_text(c["evidence"], path)
                lines.append(f"  - certificate: {code(path)}" + (f" (re-checked by: {text(by)})" if by else ""))
            if "witness" in proc:
                lines.append(f"  - witness: {code(dumps(proc['witness'])[:400])}")
            for step in proc.get("steps", []):
                formula = f": $${step['latex']}$$" if step["latex"] else ""
                lines.append(f"  1. {text(step['text'])}{formula}")
        for figure in report.get("figures", {}).get(c["id"], []):
            lines += ["", f"![{text(figure['title'])}](data:image/png;base64,{figure['png_base64']})"]
        lines.append("")
    return markdown_wrapped("\n".join(lines))


def render_markdown_overview(report: dict[str, Any]) -> str:
    """The heading, the verdict counts, the block of claims that need attention and the table of claims."""
    report = visible(report)
    lines = [
        f"# headflow report (version {report['headflow']}, profile {report['profile']}, seed {report['seed']})",
        "",
        "| verdict | count |",
        "|---|---|",
        *(f"| {verdict} | {count} |" for verdict, count in report["summary"].items()),
        "",
        *_markdown_differences(report),
        "| claim | verdict | method | seconds |",
        "|---|---|---|---|",
        *(
            f"| {markdown_code(c['id'])} | **{c['verdict']}** | {markdown_text(c['method'])} | {c['seconds']:.2f} |"
            for c in report["claims"]
        ),
        "",
    ]
    return markdown_wrapped("\n".join(lines))


#: A line that stays as it is: a heading, a table row, a figure (markdown has no continuation for them).
_WHOLE_LINE = re.compile(r"#|\||!\[")
#: Where a wrapped line's continuation starts: under the text of its list item (none for a paragraph).
_ITEM_TEXT = re.compile(r" *(?:(?:[-+*]|\d+[.)]) )?")
#: A word that would open a block (a list item, a heading, a quote, a table row, a fence, a setext underline) as the
#: first of a continuation; a formula, whose spaces are not breaks.
_OPENS_BLOCK = re.compile(r" (?=(?:[-+*]|=+|#{1,6}|\d{1,9}[.)])(?:\s|$)|>|`{3}|~{3})|\$\$.*?\$\$")
#: What joins the words that must stay on one line while the line is wrapped (not markdown text: never escaped in it).
_JOIN = "\x00"


def markdown_wrapped(text: str, width: int = PLAIN_WIDTH) -> str:
    """Markdown `text` with each paragraph's and list item's line wrapped at words to `width` columns, its
    continuations under the item's text: it renders as before (a line break in a paragraph is a space). A word that
    would open a block at the start of a line stays on the line of the word before it, a formula on one line;
    headings, table rows and figures are left whole, and a word longer than a line (a path) too."""
    out = []
    for line in text.split("\n"):
        if _WHOLE_LINE.match(line.lstrip()) or len(line) <= width:
            out.append(line)
            continue
        joined = _OPENS_BLOCK.sub(lambda found: found[0].replace(" ", _JOIN), line)
        indent = " " * _ITEM_TEXT.match(line).end()
        out += [part.replace(_JOIN, " ") for part in wrapped(joined, width, then=indent)]
    return "\n".join(out)


#: Characters with a meaning in (GitHub) markdown inside a line: emphasis, code, links and images,
#: headings' closing marks, table cells, strikethrough, math. Each is written with a backslash.
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_\[\]#!|~$])")


def markdown_text(value: Any) -> str:
    """`value` as words on one markdown line: whitespace collapsed, HTML characters as entities, and
    markdown punctuation escaped, so that no title or note becomes a link, an image, markup or a new block."""
    words = " ".join(str(value).split())
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", html.escape(words, quote=False))


def markdown_code(value: Any) -> str:
    """`value` as an inline code span (on one line; its fence is longer than any run of backticks inside)."""
    words = " ".join(str(value).split())
    fence = "`" * (max((len(run) for run in re.findall(r"`+", words)), default=0) + 1)
    pad = " " if words.startswith("`") or words.endswith("`") else ""
    return f"{fence}{pad}{words}{pad}{fence}"


#: Witness fields that name the counterexample's parameters (tokens and matrices are left to the evidence).
_WITNESS_PARAMETERS = ("H", "n", "d", "alpha", "beta", "lambdas", "point", "parameters", "example", "quantity", "ball")


def _witness_summary(procedures: list[dict[str, Any]]) -> str:
    """', witness: H=2, n=3, ...' from the first rigorous witness, or '' when there is none."""
    witness = next((p["witness"] for p in procedures if "witness" in p), None)
    if not witness:
        return ""
    shown = [f"{key}={witness[key]}" for key in _WITNESS_PARAMETERS if key in witness]
    return f" (witness, verified by {witness['verified_by']}: {', '.join(shown)})" if shown else ""


def _markdown_differences(report: dict[str, Any]) -> list[str]:
    heading, none = attention_words(report)
    differences = report.get("differences", [])
    if not differences:
        return [none, ""]
    lines = [f"## {heading}", ""]
    lines += [f"- {markdown_code(d['id'])} ({d['verdict']}): {markdown_text(d['finding'])}" for d in differences]
    return [*lines, ""]
