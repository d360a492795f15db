"""The documentation: a short README whose statements match a real run, generated pages that are what their data
gives, and the example notebook, executed.

`mkdocs build --strict` itself runs in `.ci/run` (it needs the `docs` extra).
"""

from __future__ import annotations

import ast
import copy
import importlib
import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _generator() -> ModuleType:
    """`docs/generate.py`, a script rather than a package module, loaded from its path."""
    spec = importlib.util.spec_from_file_location("docs_generate", ROOT / "docs" / "generate.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _samples() -> ModuleType:
    """`docs/samples.py`, loaded as `docs/generate.py` loads it."""
    return importlib.import_module(_generator().sample_pages.__module__)


def _run_check(claims: str, folder: Path) -> dict[str, str]:
    """The verdicts `headflow check` gives the claims file `claims` (its text), run as a reader would."""
    (folder / "claims.toml").write_text(claims, encoding="utf-8")
    out = folder / "report.json"
    command = [sys.executable, "-m", "headflow", "check", "claims.toml", "--format", "json", "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(command, cwd=folder, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert run.returncode in (0, 1) and out.exists(), run.stderr[-2000:]
    return {c["id"]: c["verdict"] for c in json.loads(out.read_text(encoding="utf-8"))["claims"]}


def _findings() -> dict:
    return json.loads((ROOT / "docs" / "data" / "verify.json").read_text(encoding="utf-8"))


def test_the_generated_pages_are_what_the_committed_data_gives() -> None:
    for path, text in _generator().pages().items():
        assert path.exists(), f"{path} missing: run `python docs/generate.py`"
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run `python docs/generate.py`"


def test_the_findings_page_follows_the_data() -> None:
    generate = _generator()
    data = _findings()
    page = generate.render_findings(data)
    assert f"commit `{data['commit']}`" in page and data["date"] in page
    for claim in data["claims"]:
        assert f"`{claim['id']}`" in page
    changed = copy.deepcopy(data)
    first = changed["claims"][0]
    first["verdict"] = "INCONCLUSIVE"
    first["procedures"] = [{"name": "numeric", "verdict": "INCONCLUSIVE", "method": "m", "notes": "a budget ran out"}]
    assert "a budget ran out" in generate.render_findings(changed)
    refuted = next(c for c in data["claims"] if c["verdict"] == "REFUTED" and c["id"] == "T19.threshold.exact")
    assert generate.reason(refuted).startswith("refuted as stated (witness, verified by ball: H=2, n=3")


def test_the_findings_data_is_a_run_with_the_pinned_verdicts() -> None:
    """The findings page shows a real run: its verdicts are the pinned ones of `headflow verify` (quick, seed 0)."""
    data = _findings()
    pinned = json.loads((ROOT / "tests" / "data" / "verify_quick_verdicts.json").read_text(encoding="utf-8"))
    assert (data["profile"], data["seed"]) == (pinned["profile"], pinned["seed"])
    assert {c["id"]: c["verdict"] for c in data["claims"]} == pinned["verdicts"]
    counted = {verdict: sum(c["verdict"] == verdict for c in data["claims"]) for verdict in data["summary"]}
    assert counted == data["summary"]


def test_every_benchmark_result_says_when_and_where_it_was_measured() -> None:
    results = sorted((ROOT / "benchmarks" / "results").glob("*.json"))
    assert {p.stem for p in results} >= {"constants", "engine", "dynamics_search", "integrator"}
    page = _generator().render_benchmarks([json.loads(p.read_text(encoding="utf-8")) for p in results])
    for path in results:
        record = json.loads(path.read_text(encoding="utf-8"))
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", record["date"]) and re.fullmatch(r"[0-9a-f]{12}", record["commit"])
        assert record["rows"], path
        assert f"### `{record['benchmark']}`" in page and f"commit `{record['commit']}`" in page


def _peers_record(
    size: int, ratios: dict[str, tuple[float, float, float]], load: list[float] | None
) -> dict[str, object]:
    """A peers results file of one problem: per peer, the default, the numpy and the jax backend's time / the
    peer's."""
    rows = [
        {
            "case": f"n={size} d=8 H=4 T=10 to {target}",
            "baseline": peer,
            "integrator": backend,
            "seconds": ratio,
            "baseline_seconds": 1.0,
        }
        for target in ("1e-06", "1e-09")
        for peer, triple in ratios.items()
        for backend, ratio in zip(("headflow", "headflow (numpy)", "headflow (jax)"), triple, strict=True)
    ]
    record = {"benchmark": f"peers-{size}", "date": "2026-12-05", "commit": "0" * 12, "cpus": 2, "rows": rows}
    return record | ({"load": load} if load else {})


def test_the_readme_peers_table_says_whether_the_goal_is_met() -> None:
    """A default backend slower than a peer at n = 64 is bold and the goal is said missed, naming the peer; at
    n = 2048 (outside the goal) it is bold only; all at or below 1 at 64 and 512: met. The load is printed."""
    render = _generator().render_peers
    slow = render(
        [_peers_record(64, {"diffrax Tsit5": (1.2, 1.3, 0.5), "scipy RK45": (0.4, 0.6, 0.2)}, [1.5, 2.0, 2.25])]
    )
    assert "| n=64, d=8, H=4, T=10 (1e-6, 1e-9) | **1.20** / **1.30** / 0.50 | 0.40 / 0.60 / 0.20 |" in slow
    assert "**missed**: n=64 against diffrax Tsit5 (up to 1.20)" in slow and "load 1.5 / 2.0 / 2.2" in slow
    fast = render(
        [
            _peers_record(512, {"diffrax Tsit5": (0.9, 1.2, 0.5)}, None),
            _peers_record(2048, {"diffrax Tsit5": (1.1, 1.1, 0.6)}, None),
        ]
    )
    assert fast.endswith("n = 64 and n = 512: met.\n") and "**1.10** / **1.10** / 0.60" in fast
    assert "load not recorded" in fast  # the numpy backend's 1.2 at n = 512 is not the default's: the goal is met


def test_the_readme_is_short_and_opens_with_the_two_set_up_commands() -> None:
    assert len(README.splitlines()) < 250
    first_block = README.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert len(first_block) == 2
    install, test = first_block
    assert install.endswith(".venv/bin/headflow verify") and "pip install -q ." in install
    assert "pip install -q -e '.[test]'" in test and test.endswith(".venv/bin/python -m pytest")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test.split(" && ")[1] in ci  # CI installs the test extras the way the README says


def test_the_readme_links_and_files_exist() -> None:
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README):
        assert (ROOT / target).exists(), target
    for named in ("examples/user.toml", "examples/tour.ipynb", "DEVELOPERS.md"):
        assert named in README and (ROOT / named).exists(), named


def test_the_samples_are_runs_with_the_pinned_verdicts() -> None:
    """The README's sample of `headflow verify` is rendered from a run whose verdicts are the pinned ones."""
    data = _samples().load_data()["verify"]
    pinned = json.loads((ROOT / "tests" / "data" / "verify_quick_verdicts.json").read_text(encoding="utf-8"))
    assert (data["profile"], data["seed"]) == (pinned["profile"], pinned["seed"])
    assert {c["id"]: c["verdict"] for c in data["claims"]} == pinned["verdicts"]
    assert "<!-- sample: verify -->" in README and "<!-- sample: check -->" in README


@pytest.mark.parametrize("name", ["check", "tutorial"])
def test_the_claims_file_samples_are_what_a_run_gives_today(name: str, tmp_path: Path) -> None:
    """`headflow check` on a sample's claims file, run now, gives the verdicts its committed run shows."""
    samples = _samples()
    sample = next(s for s in samples.SAMPLES if s.name == name)
    assert sample.claims_file is not None
    committed = {c["id"]: c["verdict"] for c in samples.load_data()[name]["claims"]}
    assert _run_check(sample.claims_file(), tmp_path) == committed


def test_the_tutorial_states_the_verdicts_of_its_run() -> None:
    """Each step of the tutorial shows one claim of `examples/tutorial.toml`, in order, and names its verdict in its
    heading: the verdicts of the committed run, which a run today gives (above), so the page's words cannot drift."""
    samples = _samples()
    page = samples.TUTORIAL.read_text(encoding="utf-8")
    stated = re.findall(r"^## \d+\. [^:]+: ([A-Z]+)\b", page, flags=re.M)
    shown = re.findall(r'^--8<-- "examples/tutorial.toml:(\w+)"$', page, flags=re.M)
    ran = [c["verdict"] for c in samples.load_data()["tutorial"]["claims"]]
    assert stated == ran and len(shown) == len(ran)
    assert {"PROVED", "REFUTED", "CONFIRMED"} <= set(stated)
    assert "headflow check-cert certs" in page


def test_the_readme_api_example_is_that_of_a_run() -> None:
    """The summary of the README's API example is the committed run's."""
    verdicts = {c["id"]: c["verdict"] for c in _findings()["claims"]}
    line = next(line for line in README.splitlines() if line.startswith("report.summary  # "))
    summary = ast.literal_eval(line.split("# ", 1)[1])
    t19 = [v for claim, v in verdicts.items() if claim.startswith("T19.")]
    assert summary == {verdict: t19.count(verdict) for verdict in summary}
    assert sum(summary.values()) == len(t19)


def test_the_readme_commands_parse() -> None:
    """Every `headflow ...` line of the README's command block names a subcommand with options it accepts."""
    from headflow.checks import cli

    block = README.split("## Other commands", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [shlex.split(line.split("  #", 1)[0]) for line in block.splitlines()]
    assert len(commands) >= 8
    for words in commands:
        assert words[0] == "headflow"
        cli.build_parser(words[1:]).parse_args(words[1:])  # argparse exits (SystemExit) on an unknown option


def test_every_help_names_only_readme_sections_that_exist(capsys: pytest.CaptureFixture[str]) -> None:
    """A command's `--help` that sends the reader to the README ("see 'Your own claims' in the README") names a
    section the README has."""
    from headflow.checks import cli

    headings = [line.lstrip("#").strip() for line in README.splitlines() if line.startswith("## ")]
    named = []
    for name in [cli._summary(module)[0] for module in cli._command_names()]:
        with pytest.raises(SystemExit):
            cli.build_parser([name]).parse_args([name, "--help"])
        help_text = " ".join(capsys.readouterr().out.split())
        named += re.findall(r"'([^']+)' in the README", help_text)
    assert "Your own claims" in named
    assert [section for section in named if not any(h.startswith(section) for h in headings)] == []


def test_the_tour_notebook_runs() -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebook = nbformat.read(ROOT / "examples" / "tour.ipynb", as_version=4)
    assert not any(cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")  # committed clean
    run_from = {"metadata": {"path": ROOT}}  # the kernel imports this checkout's code
    nbclient.NotebookClient(notebook, timeout=240, kernel_name="python3", resources=run_from).execute()
    outputs = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs]
    assert not [out for out in outputs if out.output_type == "error"]
    text = "\n".join(str(out.get("data", {}).get("text/plain", out.get("text", ""))) for out in outputs)
    assert "'c-star.below-one': <Verdict.REFUTED: 'REFUTED'>" in text
    assert "'golden.digits': <Verdict.CERTIFIED: 'CERTIFIED'>" in text
    assert any("image/png" in out.get("data", {}) for out in outputs)  # the plot


def test_the_readme_gives_the_kernels_size() -> None:
    """The trust section states the kernel's size as it is (issue 37: the README and the generated page show it)."""
    from headflow.certificates.kernel_size import kernel_size

    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert f"**{kernel_size()[1]:,} lines of code** today" in text


#: A path or module of the implementation: the user's pages speak of what headflow does, not where.
IMPLEMENTATION_PATH = re.compile(r"(?:checks|certificates|identities)(?:/[\w/]+\.py|\.[a-z_]+\.[a-z_.]+)")


@pytest.mark.parametrize("page", ["claims-files.md", "tutorial.md", "specification.md"])
def test_the_reference_pages_name_no_implementation_path(page: str) -> None:
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    assert IMPLEMENTATION_PATH.findall(text) == []


def test_the_pages_point_to_no_file_outside_the_repository() -> None:
    pages = [README, *(path.read_text(encoding="utf-8") for path in (ROOT / "docs").glob("*.md"))]
    assert not [page for page in pages if "SPEC.md" in page or "shared folder" in page]


#: Fenced code blocks and code spans: what a user types, never a formula.
_CODE = re.compile(r"^```.*?^```|`[^`\n]*`", flags=re.M | re.S)
#: A formula as pymdownx.arithmatex reads it: `$$...$$` displayed, `$...$` inline (no space inside the dollars).
_FORMULA = re.compile(r"\$\$.+?\$\$|\$(?!\s)(?:\\.|[^\\$])+?(?<!\s)\$", flags=re.S)
#: Mathematics written as Unicode text, which the site shows unset: Greek letters, brackets, operators, powers.
_UNICODE_MATHS = re.compile(r"[α-ωΔΛΣΦ⟨⟩∑∈≤≥≠⊥²ᵀ√ẋṡ]")


@pytest.mark.parametrize("page", ["dynamics.md", "specification.md"])
def test_the_mathematical_pages_write_their_mathematics_as_formulas(page: str) -> None:
    """The model's pages typeset their mathematics (LaTeX the bundled KaTeX lays out), not ASCII or Unicode text."""
    prose = _CODE.sub("", (ROOT / "docs" / page).read_text(encoding="utf-8"))
    formulas = _FORMULA.findall(prose)
    assert len(formulas) >= 20, f"{page} has {len(formulas)} formulas"
    assert _UNICODE_MATHS.findall(_FORMULA.sub("", prose)) == []
