"""The report as one self-contained HTML file (inline CSS and images, no script, no external resources).

Formulas are MathML, converted from each derivation step's LaTeX when the report is written
(`headflow.checks.reports.mathml`), which browsers lay out natively; the LaTeX source stays in the page as the
formula's annotation. A statement's formulas are typeset the same way (`headflow.checks.reports.statement_math`); step
texts are words and stay words. Figures are PNG
images embedded as data URIs, listed in the report under "figures". `render_overview` is the
part a notebook shows (verdict counts, differences from the summary, the table of claims). The page opens with a
table of contents: the claims grouped by verdict (the order of `Verdict`), each linking to its section, and every
section links back to it.
"""

from __future__ import annotations

import html
from typing import Any

from headflow.checks.reports.document import attention_words, checkers_text
from headflow.checks.reports.mathml import formula_html
from headflow.checks.reports.statement_math import statement_html
from headflow.checks.reports.values import dumps, visible
from headflow.checks.verdicts import Verdict

#: Styles of the overview, scoped to class `headflow` so that a notebook's own styles are left alone.
_OVERVIEW_CSS = """
.headflow table{border-collapse:collapse;margin:1em 0}
.headflow td,.headflow th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}
.headflow th{background:#f3f3f3}
.headflow .v{font-weight:bold;padding:.1em .5em;border-radius:3px;color:#fff}
.headflow .PROVED{background:#1b7f3b}.headflow .CERTIFIED{background:#2e9e58}.headflow .CONFIRMED{background:#2a7fa8}
.headflow .REFUTED{background:#b3261e}.headflow .INCONCLUSIVE{background:#b58105}
.headflow .diff{border-left:4px solid #b3261e;padding-left:1em}
"""
_PAGE_CSS = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
code,pre{background:#f6f6f6;padding:.1em .3em;border-radius:3px}
pre{padding:.6em;overflow-x:auto;white-space:pre-wrap}
math{font-size:1.1em}math[display=block]{margin:.4em 0;overflow-x:auto}
.tex-source{margin:.4em 0}.tex-source small{color:#666}
section{border-top:1px solid #ddd;margin-top:1.5em}img{max-width:100%}
nav ol{columns:2 22em;padding-left:1.2em}nav li{break-inside:avoid}.top{float:right;font-size:.85em}
"""
#: The anchor of the table of contents, which every claim's section links back to.
CONTENTS = "contents"


def render_html(report: dict[str, Any]) -> str:
    """The whole report as an HTML document that opens offline (control characters as escapes)."""
    report, e = visible(report), html.escape
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>headflow report {e(str(report['headflow']))}</title>",
        f"<style>{_OVERVIEW_CSS}{_PAGE_CSS}</style></head><body class='headflow'>",
        render_overview(report),
        _contents(report["claims"]),
        *(_claim(c, report.get("figures", {}).get(c["id"], [])) for c in report["claims"]),
        "</body></html>",
    ]
    return "\n".join(parts)


def render_overview(report: dict[str, Any]) -> str:
    """The heading, the block of claims that need attention, the verdict counts and the table of claims."""
    report, e = visible(report), html.escape
    return "\n".join(
        [
            f"<h1>headflow report</h1><p>version {e(str(report['headflow']))}, profile "
            f"{e(str(report['profile']))}, seed {e(str(report['seed']))}</p>",
            _differences(report),
            "<table><tr><th>verdict</th><th>count</th></tr>",
            *(f"<tr><td>{_badge(v)}</td><td>{c}</td></tr>" for v, c in report["summary"].items()),
            "</table><table><tr><th>claim</th><th>verdict</th><th>method</th><th>seconds</th></tr>",
            *(
                f"<tr><td><a href='#{e(c['id'])}'><code>{e(c['id'])}</code></a></td><td>{_badge(c['verdict'])}</td>"
                f"<td>{e(c['method'])}</td><td>{c['seconds']:.2f}</td></tr>"
                for c in report["claims"]
            ),
            "</table>",
        ]
    )


def render_notebook(report: dict[str, Any]) -> str:
    """The overview as a notebook cell shows it: a `headflow` block carrying its own scoped styles."""
    return f"<div class='headflow'><style>{_OVERVIEW_CSS}</style>{render_overview(report)}</div>"


def _contents(claims: list[dict[str, Any]]) -> str:
    """The claims grouped by verdict, strongest first, each a link to its section."""
    e = html.escape
    parts = [f"<nav id='{CONTENTS}'><h2>Contents</h2>"]
    for verdict in Verdict:
        group = [c for c in claims if c["verdict"] == verdict.value]
        if group:
            parts.append(f"<h3>{_badge(verdict.value)} {len(group)}</h3><ol>")
            parts += [f"<li><a href='#{e(c['id'])}'><code>{e(c['id'])}</code></a>: {e(c['title'])}</li>" for c in group]
            parts.append("</ol>")
    parts.append("</nav>")
    return "\n".join(parts)


def _badge(verdict: str) -> str:
    return f"<span class='v {html.escape(verdict)}'>{html.escape(verdict)}</span>"


def _differences(report: dict[str, Any]) -> str:
    heading, none = attention_words(report)
    differences = report.get("differences", [])
    if not differences:
        return f"<p>{html.escape(none)}</p>"
    items = "".join(
        f"<li><code>{html.escape(d['id'])}</code> ({html.escape(d['verdict'])}): {html.escape(d['finding'])}</li>"
        for d in differences
    )
    return f"<div class='diff'><h2>{html.escape(heading)}</h2><ul>{items}</ul></div>"


def _claim(claim: dict[str, Any], figures: list[dict[str, str]]) -> str:
    e = html.escape
    out = [
        f"<section id='{e(claim['id'])}'><a class='top' href='#{CONTENTS}'>contents</a>",
        f"<h2><code>{e(claim['id'])}</code>: {e(claim['title'])}</h2>",
        f"<p>{_badge(claim['verdict'])}</p><p><em>Statement.</em> {statement_html(claim['statement'])}</p>",
    ]
    checkers = checkers_text(claim["evidence"])
    if checkers is not None:
        out.append(f"<p><em>Independent checkers:</em> {e(checkers)}</p>")
    for proc in claim["evidence"]["procedures"]:
        out.append(f"<h3>{e(proc['name'])} — {_badge(proc['verdict'])}</h3><p>{e(proc['method'])}</p><ul>")
        for key in ("cases", "worst_margin", "error_bound", "tolerance", "notes", "finding"):
            if key in proc:
                out.append(f"<li>{key.replace('_', ' ')}: {e(str(proc[key]))}</li>")
        for path in proc.get("certificates", []):
            by = checkers_text(claim["evidence"], path)
            suffix = f" (re-checked by: {e(by)})" if by else ""
            out.append(f"<li>certificate: <code>{e(path)}</code>{suffix}</li>")
        out.append("</ul>")
        if proc.get("steps"):
            out.append("<ol>")
            for step in proc["steps"]:
                formula = formula_html(step["latex"]) if step.get("latex") else ""
                out.append(f"<li>{e(step['text'])}{formula}</li>")
            out.append("</ol>")
        if "witness" in proc:
            out.append(f"<details><summary>witness</summary><pre>{e(dumps(proc['witness'], indent=1))}</pre></details>")
        if "details" in proc:
            out.append(f"<details><summary>details</summary><pre>{e(dumps(proc['details'], indent=1))}</pre></details>")
    for figure in figures:
        out.append(f"<figure><img alt='{e(figure['title'])}' src='data:image/png;base64,{figure['png_base64']}'>")
        out.append(f"<figcaption>{e(figure['title'])}</figcaption></figure>")
    out.append("</section>")
    return "\n".join(out)
