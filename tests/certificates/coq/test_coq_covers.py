"""Interval-cover certificates in Coq: the kernel states the claim (the relation and its definedness conditions, or the
one condition a cover proves, over the real domain), the proof has one lemma per box, proved by `interval`, and the
theorem follows the cover's splits; a cover with a box removed or a changed bound is not accepted.

The generated text is tested without coqc; the tests that run coqc are marked slow and skipped without it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.coq.statements import statements
from headflow.certificates.kernel.verify import check_file
from headflow.checks import coq_files

from tests.command import headflow
from tests.coq_tier import needs_coqc
from tests.forging import forged_file

ROOT = Path(__file__).resolve().parents[3]
EXPS = " + ".join(f"exp(x/{k})" for k in range(2, 14))
CLAIMS = f"""
[[claim]]
id = "log-two"
kind = "inequality"
lhs = "log(1 + x*y) + exp(x) + {EXPS}"
op = "<="
rhs = "14 + 5*x"
domain = {{ x = "[0, 1]", y = "[0, 2]" }}

[[claim]]
id = "dependent"
kind = "inequality"
lhs = "exp(y) + {EXPS}"
op = ">="
rhs = "12 + x + y"
domain = {{ x = "[0, 1]", y = {{ min = "x", max = 2 }} }}

[[claim]]
id = "integer"
kind = "inequality"
lhs = "exp(x/n) + {EXPS}"
op = "<="
rhs = "20"
domain = {{ x = "[0, 1]", n = {{ min = 1, max = 3, integer = true }} }}
"""


@pytest.fixture(scope="module")
def covers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The cover certificates `headflow check` writes for CLAIMS (SMT has no encoding past 12 exponentials), by claim
    id, `:condition` added to the id of a definedness condition's cover."""
    folder = tmp_path_factory.mktemp("covers")
    (folder / "claims.toml").write_text(CLAIMS)
    headflow("check", str(folder / "claims.toml"), "--certificates", str(folder))  # in this process
    found = {}
    for path in sorted(folder.glob("*.interval-cover.*.json")):
        data = json.loads(path.read_text())
        found[data["claim_id"] + ("" if data["payload"]["expression"][0] == "sub" else ":condition")] = path
    assert {"log-two", "log-two:condition", "dependent", "integer"} <= set(found), sorted(found)
    return found


def _text(path: Path, edit: Any = None) -> str:
    """The Coq file of a cover certificate the kernel accepted, its cover edited by `edit` (bypassing the kernel)."""
    checked = check_file(path)
    sentence, built = problem(checked)
    data = checked.certificate
    assert data is not None
    payload = copy.deepcopy(data["payload"])
    if edit:
        edit(payload)
    return source(path.name, data["claim_id"], sentence, built, payload["prec"], (data["statement"], payload))


def _boxes(node: dict[str, Any]) -> int:
    """The cover's boxes the proof needs a lemma for: leaves and monotone nodes (whose faces Interval does not use)."""
    if "split" in node:
        return _boxes(node["low"]) + _boxes(node["high"])
    return int("empty" not in node)


def test_one_lemma_per_box_and_the_theorem_is_the_kernels_statement(covers: dict[str, Path]) -> None:
    for name in ("log-two", "log-two:condition", "dependent"):
        data = json.loads(covers[name].read_text())
        text = _text(covers[name])
        assert text.count("Lemma hf_box_") == _boxes(data["payload"]["tree"]) >= 1, name
        ((_, theorem),) = statements(data["claim_id"], problem(check_file(covers[name]))[1])
        assert text.count(theorem) == 1 and "Admitted" not in text
    relation = statements("log-two", problem(check_file(covers["log-two"]))[1])[0][1]
    assert "forall x y : R,\n  x >= 0 ->\n  x <= 1 ->\n  y >= 0 ->\n  y <= 2 ->" in relation
    assert "(1 + (x * y)) > 0 /\\" in relation and "<= (14 + (5 * x)))." in relation  # defined, and the relation
    condition = statements("log-two", problem(check_file(covers["log-two:condition"]))[1])[0][1]
    assert condition.endswith("y <= 2 ->\n  (1 + (x * y)) > 0.")
    assert "y >= x ->" in statements("dependent", problem(check_file(covers["dependent"]))[1])[0][1]


def test_integer_sides_are_bound_over_z_and_split_at_integers(covers: dict[str, Path]) -> None:
    """An integer variable is a Z in the theorem (`IZR n` in its terms); a split of it at c becomes n <= floor(c) or
    floor(c) + 1 <= n (`hf_int_split`), the two halves the kernel rounds inwards, and each box lemma (over the reals)
    is applied at `IZR n`."""
    ((_, theorem),) = statements("integer", problem(check_file(covers["integer"]))[1])
    assert "forall x : R,\n  forall n : Z," in theorem and "IZR n" in theorem
    text = _text(covers["integer"])
    assert "(IZR n)); lra" in text
    data = json.loads(covers["integer"].read_text())

    def integer_splits(node: dict[str, Any]) -> int:
        here = int(node.get("split") == "n")
        return here + sum(integer_splits(node[k]) for k in ("low", "high") if k in node)

    assert text.count("hf_int_split n") == integer_splits(data["payload"]["tree"])


def test_a_cover_with_a_box_removed_or_a_bound_changed_is_rejected_before_coq(
    covers: dict[str, Path], tmp_path: Path
) -> None:
    data = json.loads(covers["log-two"].read_text())
    split = data["payload"]["tree"]
    assert "split" in split
    bound = ["add", ["rat", "13"], ["mul", ["rat", "5"], ["sym", "x"]]]
    edits = {
        "box removed": lambda d: d["payload"].update(tree=split["low"]),
        "bound changed": lambda d: d["statement"].update(rhs=bound),
    }
    for name, edit in edits.items():
        verdict = coq_files.check(forged_file(covers["log-two"], tmp_path, edit, name=name.replace(" ", "-")))
        assert verdict.status == coq_files.REJECTED, (name, verdict)


def test_a_failed_box_proof_is_not_a_rejection(covers: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Interval failing on a box (as on a box the kernel settled by a monotone step at a tight face) says nothing about
    the statement: the kernel's re-check stands alone."""
    failed = run.CoqAnswer("rejected", "Error: Numerical evaluation failed to conclude.", 0.1)
    monkeypatch.setattr(coq_files.run, "compile_source", lambda *args, **kwargs: failed)
    assert coq_files.check(covers["log-two"]).status == coq_files.UNPROVED


@pytest.mark.slow
@needs_coqc
@pytest.mark.parametrize("name", ["log-two", "log-two:condition", "dependent", "integer"])
def test_cover_certificates_are_rechecked_by_coq(covers: dict[str, Path], name: str) -> None:
    verdict = coq_files.check(covers[name])
    assert verdict.status == coq_files.RECHECKED, verdict


@pytest.mark.slow
@needs_coqc
def test_coq_does_not_accept_a_cover_with_a_box_removed_or_a_false_bound(covers: dict[str, Path]) -> None:
    """Bypassing the kernel: the cover's proof with one half of its first split marked empty (its case is then
    closed by `lra` from bounds that do not contradict), and the genuine cover's proof of the statement with a bound
    that makes it false (13 + x, below the left side at x = 1): coqc accepts neither file."""

    def remove(payload: dict[str, Any]) -> None:
        payload["tree"]["high"] = {"empty": True}

    assert run.compile_source(_text(covers["log-two"], remove)).status == "rejected"
    checked = check_file(covers["log-two"])
    sentence, (universal,) = problem(checked)
    goal = copy.deepcopy(universal.goal)
    goal[-1][2] = ["add", ["rat", "13"], ["sym", "x"]]
    data = checked.certificate
    assert data is not None
    false = source("t", "log-two", sentence, [universal._replace(goal=goal)], 64, (data["statement"], data["payload"]))
    assert run.compile_source(false).status == "rejected"


@pytest.mark.slow
@needs_coqc
def test_a_split_of_an_integer_variable_is_proved_at_integers(covers: dict[str, Path]) -> None:
    """The integer claim's cover rewritten (past the kernel) to split n at 3/2: its halves are the boxes n = 1 and
    2 <= n <= 3 (the kernel rounds integer sides inwards), which only an integer split reaches; coqc accepts the
    file. The same split made as a real one (`Rle_lt_dec`) leaves 3/2 < n < 2 open and is not accepted."""
    leaf = json.loads(covers["integer"].read_text())["payload"]["tree"]

    def split(payload: dict[str, Any]) -> None:
        payload["tree"] = {"split": "n", "at": "3/2", "low": leaf, "high": leaf}

    text = _text(covers["integer"], split)
    assert "hf_int_split n (1)%Z" in text
    assert run.compile_source(text).status == "accepted"
    real_split = text.replace("hf_int_split n (1)%Z", "Rle_lt_dec (IZR n) (3 / 2)")
    assert run.compile_source(real_split).status == "rejected"
