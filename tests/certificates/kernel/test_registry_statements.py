"""The registry's core statements: the kernel's table is SymPy's, fresh certificates re-check without SymPy, and a
statement that is not the table's (another claim's, a changed relation or constant, a dropped hypothesis or
condition, other parameters) or a payload that does not prove it is rejected."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.kernel import registry_statements
from headflow.certificates.kernel.format import content_hash
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.statements import registry

from tests.checking import FreshCheck

Edit = Callable[[dict[str, Any]], None]


def test_the_kernels_table_is_what_sympy_builds() -> None:
    """`python -m certificates.statements.registry` would write the committed file unchanged."""
    built = json.loads(json.dumps(registry.build()))
    assert built == json.loads(registry_statements.PATH.read_text(encoding="utf-8"))


def test_every_registry_kind_is_certified_and_re_checks_without_sympy_or_mpmath(
    certified: dict[str, list[Path]], certified_fresh_check: FreshCheck
) -> None:
    """The registry claims' files among those `certified_fresh_check` checked in one fresh process (every file
    `certify` writes: no module loaded at its end was loaded by none of these files' checks)."""
    paths = [str(p) for claim, group in certified.items() if claim in registry_statements.table() for p in group]
    kinds = {json.loads(Path(p).read_text())["kind"] for p in paths}
    assert {"smt", "witness", "convexity"} <= kinds
    assert set(paths) <= set(certified_fresh_check.paths)
    failed = [certified_fresh_check.failed[p] for p in paths if p in certified_fresh_check.failed]
    loaded = [m for m in certified_fresh_check.loaded if m.split(".")[0] in ("sympy", "mpmath")]
    assert (failed, loaded) == ([], []), certified_fresh_check


def _forged(path: Path, edit: Edit, tmp_path: Path) -> Path:
    """The certificate with `edit` applied and its checksum recomputed (so only the content can reject it)."""
    certificate = json.loads(path.read_text())
    edit(certificate)
    certificate["sha256"] = content_hash(certificate)
    out = tmp_path / path.name
    out.write_text(json.dumps(certificate))
    return out


def _both(change: Callable[[dict[str, Any]], None], where: str) -> Edit:
    """Apply `change` to the statement's and the payload's copy of `where` alike (they then agree; an smt payload
    holds no copy of its statements)."""

    def edit(certificate: dict[str, Any]) -> None:
        change(certificate["statement"][where])
        if where in certificate["payload"]:
            certificate["payload"][where] = copy.deepcopy(certificate["statement"][where])

    return edit


def _other_claims_statement(certificate: dict[str, Any]) -> None:
    other = registry_statements.expected("T19.threshold.cauchy-schwarz", {})
    certificate["statement"] = other | {"claim": certificate["claim_id"]}


def _drop_hypothesis(statements: list[dict[str, Any]]) -> None:
    statements[3]["hypotheses"].pop()  # "sufficient" without t^2 <= q*


def _weaker_goal(statements: list[dict[str, Any]]) -> None:
    statements[2]["goal"] = statements[2]["goal"][1]  # "strictly-below" without c* < 1


def _relation(conditions: list[dict[str, Any]]) -> None:
    conditions[-1]["relation"] = "<"  # H phi(mean) < sum phi: super-additivity holds there


def _constant(conditions: list[dict[str, Any]]) -> None:
    conditions[1]["expression"] = ["add", conditions[1]["expression"], ["rat", "1"]]  # beta* - beta + 1 > 0


def _drop_condition(conditions: list[dict[str, Any]]) -> None:
    del conditions[-2]  # the mean above lambda_c is no longer established


def _parameters(certificate: dict[str, Any]) -> None:
    certificate["statement"]["parameters"]["n"] = "4"
    certificate["payload"]["parameters"]["n"] = "4"


def _hypotheses(certificate: dict[str, Any]) -> None:
    certificate["statement"]["model"]["hypotheses"].remove("symmetric-scores")


def _claim(certificate: dict[str, Any]) -> None:
    certificate["statement"]["claim"] = "T19.threshold.cauchy-schwarz"


FORGERIES: dict[str, tuple[str, Edit]] = {
    "another claim's statement": ("T19.threshold", _other_claims_statement),
    "dropped hypothesis": ("T19.threshold", _both(_drop_hypothesis, "statements")),
    "weaker goal": ("T19.threshold", _both(_weaker_goal, "statements")),
    "changed relation": ("T22.superadditivity", _both(_relation, "conditions")),
    "changed constant": ("C8.invariance", _both(_constant, "conditions")),
    "dropped condition": ("T22.superadditivity", _both(_drop_condition, "conditions")),
    "other parameters": ("T22.superadditivity", _parameters),
    "dropped configuration hypothesis": ("T17.shadow-obstruction", _hypotheses),
    "statement names another claim": ("T19.threshold", _claim),
    "no statement": ("T22.superadditivity", lambda c: c.update(statement=None)),
}


@pytest.mark.parametrize("name", FORGERIES)
def test_a_statement_that_is_not_the_kernels_is_rejected(
    name: str, certified: dict[str, list[Path]], tmp_path: Path
) -> None:
    claim, edit = FORGERIES[name]
    assert check_file(certified[claim][0]).ok
    result = check_file(_forged(certified[claim][0], edit, tmp_path))
    assert not result.ok, result.message


def _equal_strengths(certificate: dict[str, Any]) -> None:
    """'Super-additivity fails at equal strengths': false (H phi(mean) - sum phi = 0 there), statement untouched."""
    point = certificate["payload"]["point"]
    point["lambda1"] = point["lambda2"] = "11/2"


def _late_exit(certificate: dict[str, Any]) -> None:
    """'Condition 8 already fails at rho = 1/100': false for this regime (it fails only past the exit gap)."""
    certificate["payload"]["point"]["rho"] = "1/100"


@pytest.mark.parametrize(("claim", "edit"), [("T22.superadditivity", _equal_strengths), ("C8.invariance", _late_exit)])
def test_a_false_claims_certificate_is_not_accepted(
    claim: str, edit: Edit, certified: dict[str, list[Path]], tmp_path: Path
) -> None:
    result = check_file(_forged(certified[claim][0], edit, tmp_path))
    assert not result.ok
    assert "condition" in result.message


def test_the_printed_sentence_names_the_lemma_the_kernel_does_not_re_check(certified: dict[str, list[Path]]) -> None:
    for claim in ("C8.invariance", "C8.invariance.exit-gap"):
        result = check_file(certified[claim][0])
        assert result.ok
        assert "a lemma check-cert does NOT re-check" in result.message
    convexity = check_file(certified[registry.CONVEXITY_CLAIM][0])
    assert convexity.ok and "NOT" not in convexity.message and "K > 0 in balls" in convexity.message


def _negated(tree: list[Any]) -> list[Any]:
    return ["mul", ["rat", "-1"], tree]


#: [a, b] around u_c(7) as the prover brackets it (g(a) < 0 < g(b), b - a = 2/1024).
ENDS = (Fraction(3312, 1024), Fraction(3314, 1024))


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("K negated", lambda s: s.update(factor=_negated(s["factor"]))),
        ("K halved", lambda s: s.update(factor=["mul", ["rat", "1/2"], s["factor"]])),
        ("phi'' for another phi", lambda s: s.update(rate=["mul", ["rat", "2"], s["rate"]])),
        (
            "g' not g's derivative",
            lambda s: s["parts"]["g-rising"].update(expression=_negated(s["parts"]["g-rising"]["expression"])),
        ),
    ],
)
def test_the_convexity_lemma_is_decided_by_exact_algebra_and_balls(name: str, change: Edit) -> None:
    statement = registry_statements.expected(registry.CONVEXITY_CLAIM, {"n": "7"})
    registry_statements.convexity_lemma(statement, registry.CONVEXITY_CLAIM, *ENDS)
    change(statement)
    with pytest.raises(Rejected, match="the convexity lemma fails"):
        registry_statements.convexity_lemma(statement, registry.CONVEXITY_CLAIM, *ENDS)


@pytest.mark.parametrize("domain", [["u", "1"], "u in [1, 2]", 7, None, {"u": "1"}])
def test_a_cover_whose_domain_is_not_an_object_of_intervals_is_rejected_as_such(
    certified: dict[str, list[Path]], tmp_path: Path, domain: Any
) -> None:
    """A cover's domain that is not a JSON object of [lo, hi] (a list, a text, a number) is a clear rejection naming
    the domain, never an AttributeError reported as a malformed certificate."""
    groups = [group for claim, group in certified.items() if claim.startswith("T22.")]
    path = next(p for group in groups for p in group if "convexity" in p.name)

    def edit(certificate: dict[str, Any]) -> None:
        certificate["payload"]["parts"]["g-rising"]["domain"] = domain

    result = check_file(_forged(path, edit, tmp_path))
    assert not result.ok
    assert result.message == "the cover differs from the obligation in its domain"
