"""`headflow certify` runs the procedures that write certificates: those of a certifying kind's name, and those a
claim registered as certifying (a derivation whose identities the kernel re-derives writes a `gram` certificate),
never a procedure picked out by its name alone."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from headflow.certificates.provers.gram_identities import has_certificate
from headflow.checks import cli
from headflow.checks.commands import certify
from headflow.checks.registry import Registry


def test_a_derivation_is_certifying_where_the_kernel_re_derives_its_identities() -> None:
    registry, ids = Registry(), ("projection.symmetry", "not.a.gram.claim")
    for claim_id in ids:
        registry.declare(claim_id, claim_id, "a statement")
    registry.derivations(__name__, tuple((claim_id, lambda: None, "symbolic derivation") for claim_id in ids))
    assert has_certificate("projection.symmetry") and not has_certificate("not.a.gram.claim")
    assert registry.get("projection.symmetry").certifying == {"symbolic"}
    assert registry.get("not.a.gram.claim").certifying == set()


def test_certify_names_no_procedure_outside_the_certifying_kinds() -> None:
    """The derivations' gram certificates reach `certify` through `Claim.certifying`: no name is special-cased."""
    tree = ast.parse(inspect.getsource(certify.certifying_claims))
    assert "symbolic" not in {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)}
    chosen = {claim.id: [name for name, _ in claim.procedures] for claim in certify.certifying_claims("projection.*")}
    assert chosen and all(names == ["symbolic"] and has_certificate(claim_id) for claim_id, names in chosen.items())


def test_certify_lists_what_it_wrote_wrapped_to_the_width(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each claim's verdict and files, and the closing count, at words to the width ($COLUMNS, 80 when piped): only
    a word longer than a line (a file name) goes past it."""
    monkeypatch.setenv("COLUMNS", "40")
    assert cli.main(["certify", "--only", "T19.threshold*", "--certificates", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(len(line) <= 40 or len(line.split()) == 1 for line in lines)
    names = " ".join(lines).split()
    assert {path.name for path in tmp_path.glob("*.json")} <= set(names) and "T19.threshold.exact:" in names


def test_certify_writes_the_files_the_verify_run_wrote(certified: dict[str, list[Path]], tmp_path: Path) -> None:
    """`certify` of an smt, a witness and a gram claim writes the very files (their names carry their checksums)
    that the session's `headflow verify` wrote for them by the same procedures: the `certified` files the certificate
    tests read come from that run (the whole paper is compared with -m slow, in test_store.py)."""
    only = "T19.threshold*,T11.hypotheses*,projection.tangency"
    assert cli.main(["certify", "--only", only, "--certificates", str(tmp_path)]) == 0
    chosen = {claim.id for claim in certify.certifying_claims(only)}
    from_verify = [path.name for claim_id, paths in certified.items() for path in paths if claim_id in chosen]
    assert len(from_verify) >= 3
    assert sorted(path.name for path in tmp_path.glob("*.json")) == sorted(from_verify)
