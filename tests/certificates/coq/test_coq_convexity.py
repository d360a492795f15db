"""Convexity chains (T22.superadditivity.reading-b.listed-n) in Coq: one theorem of the facts the kernel's check
establishes, over g, phi, phi' (the kernel's tree derivative), phi'' and K written from the statement's trees, each
derivative Coquelicot's `is_derive`, proved by `auto_derive`, `field` and `interval` (its own bisection, not the
certificate's boxes). A forged certificate (a changed interval end or tree) is refused by the kernel before Coq; the
chain of a changed end or tree, bypassing the kernel, is not accepted by coqc.

The generated text is tested without coqc; compiling one file takes about 2 s, the whole re-check (with `Print
Assumptions` and the statement's own compile) about 10 s, marked slow.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.coq.source import source
from headflow.certificates.kernel import registry_statements
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem, universal
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.convexity_cover import certify_convexity
from headflow.checks import coq_files
from headflow.checks.constants.floats import lambda_c_scaled

from tests.coq_tier import needs_coqc
from tests.forging import forged_file

CLAIM = "T22.superadditivity.reading-b.listed-n"


@pytest.fixture(scope="module")
def chain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The convexity certificate of n = 3 (as `headflow certify` writes it)."""
    folder = tmp_path_factory.mktemp("convexity")
    return Path(certify_convexity(CLAIM, 3, lambda_c_scaled(3), folder, lambda: 120.0)[0])


def _source(path: Path, edit: Any = None) -> str:
    """The Coq file of the accepted certificate, or (bypassing the kernel) of the chain `edit(statement, payload)`
    returns."""
    checked = check_file(path)
    sentence, built = problem(checked)
    data = checked.certificate
    assert data is not None
    if edit:
        built = universal(registry_statements.chain(*edit(copy.deepcopy(data["statement"]), dict(data["payload"]))))
    return source(path.name, CLAIM, sentence, built)


def test_the_theorem_states_the_chain_from_the_statements_trees(chain: Path) -> None:
    text = coq_files.coq_text(chain)
    theorem = text[text.index("Theorem claim_convexity_chain") : text.index("Proof.", text.index("Theorem "))]
    payload = check_file(chain).certificate["payload"]  # type: ignore[index]
    a, b = (payload[k].replace("/", " / ") for k in ("a", "b"))
    g = "((((-2) + u) * (exp u)) + ((-1) * ((-1) + 3) * (2 + u)))"
    dphi = "((2 * (/ (((-1) + 3 + (exp u)) ^ 1))) + (2 * u * ((-1) * (/ (((-1) + 3 + (exp u)) ^ 2)) * (exp u))))"
    factor = "(2 * (/ (((-1) + 3 + (exp u)) ^ 3)) * (exp u))"
    for fact in (
        f"(u = ({a}) -> {g} < 0)",
        f" /\\ is_derive (fun u => {g}) u (1 + ((-1) * 3) + (((-2) + u) * (exp u)) + (exp u)) /\\ ",
        f"((({a}) <= u /\\ u <= ({b})) -> 0 < (1 + ((-1) * 3) +",
        f" /\\ is_derive (fun u => (2 * u * (/ (((-1) + 3 + (exp u)) ^ 1)))) u {dphi} /\\ ",
        f" /\\ is_derive (fun u => {dphi}) u ((-2) * (/ (((-1) + 3 + (exp u)) ^ 2)) *",
        f" /\\ is_derive (fun u => {dphi}) u ({factor} * {g}) /\\ ",
        f"((({a}) <= u /\\ u <= ({b})) -> 0 < {factor})",
        f"((({b}) <= u /\\ u <= 40) -> 0 < ((-2) * (/ (((-1) + 3 + (exp u)) ^ 2)) *",
    ):
        assert fact in theorem, fact
    assert theorem.startswith("Theorem claim_convexity_chain :\n  forall u : R,\n  ((u = ")
    assert coq_files.UNTRANSLATED.get("convexity") is None


def test_a_forged_end_or_tree_is_rejected_before_coq(chain: Path, tmp_path: Path) -> None:
    edits = {
        "a-moved": lambda d: d["payload"].update(a="1/2"),
        "g-rising-tree": lambda d: d["statement"]["parts"]["g-rising"].update(expression=["rat", "1"]),
    }
    for name, edit in edits.items():
        verdict = coq_files.check(forged_file(chain, tmp_path, edit, name=f"{name}.json"))
        assert verdict.status == coq_files.REJECTED, (name, verdict)


def _move_a(statement: dict[str, Any], payload: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """a = 1/2: g' = (u - 1) e^u - (n - 1) < 0 there, so g' > 0 on [a, b] is false."""
    return statement, payload | {"a": "1/2"}


def _wrong_derivative(statement: dict[str, Any], payload: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """g' replaced by g' + 1: still positive on [a, b], but not the derivative of g (`field` fails)."""
    rising = statement["parts"]["g-rising"]
    rising["expression"] = ["add", ["rat", "1"], rising["expression"]]
    return statement, payload


@needs_coqc
def test_coq_proves_the_chain_and_not_a_changed_end_or_tree(chain: Path) -> None:
    """coqc alone (no `Print Assumptions`, about 2 s a file): the genuine chain compiles; the chain with a moved to
    1/2 or with a g' that is not g's derivative does not (the kernel refuses both certificates first)."""
    answer = run.compile_source(_source(chain))
    assert answer.status == "accepted", answer.message
    for edit in (_move_a, _wrong_derivative):
        assert run.compile_source(_source(chain, edit)).status == "rejected", edit.__name__


@pytest.mark.slow
@needs_coqc
def test_the_convexity_certificate_is_rechecked_by_coq(chain: Path) -> None:
    verdict = coq_files.check(chain)
    assert verdict.status == coq_files.RECHECKED, verdict.message


def test_a_failed_proof_is_not_a_rejection(chain: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Interval or auto_derive failing says nothing about the statement the kernel re-checked."""
    failed = run.CoqAnswer("rejected", "Error: Numerical evaluation failed to conclude.", 0.1)
    monkeypatch.setattr(coq_files.run, "compile_source", lambda *args, **kwargs: failed)
    assert coq_files.check(chain).status == coq_files.UNPROVED
