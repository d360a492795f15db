"""The report as one self-contained HTML file (inline CSS and images, no external resources).

Formulas are shown as their LaTeX source: loading a math renderer would need the network.
Figures are PNG images embedded as data URIs, listed in the report under "figures".
"""

from __future__ import annotations

import html
import json
from typing import Any

_CSS = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}
th{background:#f3f3f3}code,pre{background:#f6f6f6;padding:.1em .3em;border-radius:3px}
pre{padding:.6em;overflow-x:auto;white-space:pre-wrap}
.v{font-weight:bold;padding:.1em .5em;border-radius:3px;color:#fff}
.PROVED{background:#1b7f3b}.CERTIFIED{background:#2e9e58}.CONFIRMED{background:#2a7fa8}
.REFUTED{background:#b3261e}.INCONCLUSIVE{background:#b58105}.diff{border-left:4px solid #b3261e;padding-left:1em}
section{border-top:1px solid #ddd;margin-top:1.5em}img{max-width:100%}
"""


def render_html(report: dict[str, Any]) -> str:
    """The whole report as an HTML document that opens offline."""
    e = html.escape
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>headflow report {e(str(report['headflow']))}</title><style>{_CSS}</style></head><body>",
        f"<h1>headflow report</h1><p>version {e(str(report['headflow']))}, profile "
        f"{e(str(report['profile']))}, seed {e(str(report['seed']))}</p>",
        _differences(report.get("differences", [])),
        "<table><tr><th>verdict</th><th>count</th></tr>",
        *(f"<tr><td>{_badge(v)}</td><td>{c}</td></tr>" for v, c in report["summary"].items()),
        "</table><table><tr><th>claim</th><th>verdict</th><th>method</th><th>seconds</th></tr>",
        *(
            f"<tr><td><a href='#{e(c['id'])}'><code>{e(c['id'])}</code></a></td><td>{_badge(c['verdict'])}</td>"
            f"<td>{e(c['method'])}</td><td>{c['seconds']:.2f}</td></tr>"
            for c in report["claims"]
        ),
        "</table>",
        *(_claim(c, report.get("figures", {}).get(c["id"], [])) for c in report["claims"]),
        "</body></html>",
    ]
    return "\n".join(parts)


def _badge(verdict: str) -> str:
    return f"<span class='v {html.escape(verdict)}'>{html.escape(verdict)}</span>"


def _differences(differences: list[dict[str, str]]) -> str:
    if not differences:
        return "<p>No claim was found to differ from the paper's summary.</p>"
    items = "".join(
        f"<li><code>{html.escape(d['id'])}</code> ({html.escape(d['verdict'])}): {html.escape(d['finding'])}</li>"
        for d in differences
    )
    heading = "Where the summary, or a reading of it, is not what was found"
    return f"<div class='diff'><h2>{heading}</h2><ul>{items}</ul></div>"


def _claim(claim: dict[str, Any], figures: list[dict[str, str]]) -> str:
    e = html.escape
    out = [
        f"<section id='{e(claim['id'])}'><h2><code>{e(claim['id'])}</code>: {e(claim['title'])}</h2>",
        f"<p>{_badge(claim['verdict'])}</p><p><em>Statement.</em> {e(claim['statement'])}</p>",
    ]
    for proc in claim["evidence"]["procedures"]:
        out.append(f"<h3>{e(proc['name'])} — {_badge(proc['verdict'])}</h3><p>{e(proc['method'])}</p><ul>")
        for key in ("cases", "worst_margin", "tolerance", "notes", "finding"):
            if key in proc:
                out.append(f"<li>{key.replace('_', ' ')}: {e(str(proc[key]))}</li>")
        out.extend(f"<li>certificate: <code>{e(path)}</code></li>" for path in proc.get("certificates", []))
        out.append("</ul>")
        if proc.get("steps"):
            out.append("<ol>")
            for step in proc["steps"]:
                latex = f"<pre>{e(step['latex'])}</pre>" if step.get("latex") else ""
                out.append(f"<li>{e(step['text'])}{latex}</li>")
            out.append("</ol>")
        if "witness" in proc:
            out.append(
                f"<details><summary>witness</summary><pre>{e(json.dumps(proc['witness'], indent=1))}</pre></details>"
            )
        if "details" in proc:
            out.append(
                f"<details><summary>details</summary><pre>{e(json.dumps(proc['details'], indent=1))}</pre></details>"
            )
    for figure in figures:
        out.append(f"<figure><img alt='{e(figure['title'])}' src='data:image/png;base64,{figure['png_base64']}'>")
        out.append(f"<figcaption>{e(figure['title'])}</figcaption></figure>")
    out.append("</section>")
    return "\n".join(out)
