"""`gram` certificates: the projection identities, re-derived by the kernel for every inner-product space.

The kernel expands each inner product of the statement's vector trees bilinearly (symmetry: one Gram symbol per
unordered pair; the unit, orthogonality and Gram-value hypotheses fixed) and requires lhs - rhs to be a formal zero;
a vector whose <v, v> it shows 0 becomes 0, in a statement that assumes a positive-definite space only. A PROVED
projection claim writes such a certificate; a forged one (an edited identity, a dropped hypothesis, another claim's
label, a non-empty payload) is rejected, and a false identity put straight to the check (bypassing the table) is
refuted. Coq proves the expanded identities and not a false one.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.coq.source import source
from headflow.certificates.kernel import inner_products, registry_statements
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.coq.statements import UniversalStatement
from headflow.certificates.kernel.exprtree import symbols
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.gram_identities import certify
from headflow.checks.registry import Context, load_all
from headflow.checks.runner import run_claims

from tests.coq_tier import needs_coqc
from tests.forging import forged_file

CLAIMS = ("projection.self-pairing", "projection.symmetry", "projection.tangency")


def vec(name: str) -> list[Any]:
    return ["vec", name]


def inner(a: list[Any], b: list[Any]) -> list[Any]:
    return ["inner", a, b]


def projected(u: list[Any], factor: str = "-1") -> list[Any]:
    """u + factor <u, x> x (P u for factor -1), written by hand here: the test does not use the statement builder."""
    return ["vadd", u, ["vscale", ["mul", ["rat", factor], inner(u, vec("x"))], vec("x")]]


def statement(
    *identities: tuple[Any, Any],
    unit: tuple[str, ...] = ("x",),
    orthogonal: Any = (),
    gram: Any = (),
    zero: Any = (),
    definite: bool = False,
    symmetric: Any = (),
    annihilating: Any = (),
    velocities: Any = (),
    rates: Any = (),
) -> dict[str, Any]:
    return {
        "sentence": "test",
        "unit": list(unit),
        "orthogonal": [list(p) for p in orthogonal],
        "gram": [list(entry) for entry in gram],
        "zero": list(zero),
        "definite": definite,
        "symmetric": list(symmetric),
        "annihilating": [list(p) for p in annihilating],
        "velocities": [list(p) for p in velocities],
        "rates": [list(p) for p in rates],
        "identities": [list(pair) for pair in identities],
    }


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("gram")
    return {claim: certify(claim, folder) for claim in CLAIMS}


def test_each_projection_certificate_is_accepted(certificates: dict[str, Path]) -> None:
    for claim, path in certificates.items():
        result = check_file(path)
        assert result.ok, result.message
        assert "inner products expanded bilinearly" in result.message
        assert "any real inner-product space" in result.proved, claim


def test_true_identities_hold_and_false_ones_are_refuted() -> None:
    u, w, x = vec("u"), vec("w"), vec("x")
    pu = projected(u)
    holds = [
        statement((inner(pu, u), inner(pu, pu))),
        statement((inner(pu, w), inner(u, projected(w)))),
        statement((inner(pu, x), ["rat", "0"])),
        statement(
            (
                inner(["vadd", u, w], ["vadd", u, w]),
                ["add", inner(u, u), ["mul", ["rat", "2"], inner(w, u)], inner(w, w)],
            )
        ),
        statement(
            (inner(["vadd", u, w], ["vadd", u, w]), ["add", inner(u, u), inner(w, w)]), unit=(), orthogonal=[("w", "u")]
        ),
    ]
    for data in holds:
        assert inner_products.check(data, "test", {}, 0)[1]
    false = {
        "no unit hypothesis": statement((inner(pu, u), inner(pu, pu)), unit=()),
        "a changed coefficient": statement((inner(projected(u, "-2"), x), ["rat", "0"])),
        "P u paired with u is not |u|^2": statement((inner(pu, u), inner(u, u))),
        "false only by a constant": statement((inner(pu, x), ["rat", "1/1000000000000"])),
        "orthogonal pair dropped": statement(
            (inner(["vadd", u, w], ["vadd", u, w]), ["add", inner(u, u), inner(w, w)])
        ),
    }
    for name, data in false.items():
        with pytest.raises(Rejected, match="does not hold"):
            inner_products.check(data, "test", {}, 0)
        assert name


def test_gram_values_and_the_zero_rule() -> None:
    """<a, b> = value hypotheses enter the expansion; a vector v whose <v, v> is shown 0 becomes 0 in the identities,
    but only in a statement that assumes the space positive-definite: without the flag, or with <v, v> not shown 0
    (a wrong Gram value), the rule is refused; and without the rule the identity that needs it does not hold."""
    w, half = vec("w"), ["rat", "-1/2"]
    given = statement((inner(vec("u"), vec("x")), ["rat", "3"]), gram=[("x", "u", ["rat", "3"])])
    assert inner_products.check(given, "t", {}, 0)
    # three unit vectors at <x_i, x_j> = -1/2 (a triangle): x1 + x2 + x3 = 0, so P_x1(x2 + x3) = -x1 - <-x1, x1> x1 = 0
    ones = [vec(f"x{k}") for k in (1, 2, 3)]
    total = ["vadd", *ones]
    pairs = [("x1", "x2", half), ("x1", "x3", half), ("x2", "x3", half)]
    field = ["vadd", total, ["vscale", ["rat", "-1"], ones[0]]]
    projected_field = ["vadd", field, ["vscale", ["mul", ["rat", "-1"], inner(field, ones[0])], ones[0]]]
    triangle = {"unit": ("x1", "x2", "x3"), "gram": pairs, "zero": [total]}
    identity = (inner(projected_field, w), ["rat", "0"])
    assert inner_products.check(statement(identity, **triangle, definite=True), "t", {}, 0)
    with pytest.raises(Rejected, match="positive-definite"):  # the flag is what licenses v = 0 from <v, v> = 0
        inner_products.check(statement(identity, **triangle), "t", {}, 0)
    for wrong in (["rat", "-1/3"], ["rat", "1/2"]):  # not a regular triangle: the tokens do not sum to 0
        bad = triangle | {"gram": [*pairs[:2], ("x2", "x3", wrong)]}
        with pytest.raises(Rejected, match="is not shown"):
            inner_products.check(statement(identity, **bad, definite=True), "t", {}, 0)
    with pytest.raises(Rejected, match="does not hold"):  # the identity needs the sum to vanish
        inner_products.check(statement(identity, **triangle | {"zero": []}, definite=True), "t", {}, 0)
    with pytest.raises(Rejected, match="not a vector tree"):
        inner_products.check(statement(identity, **triangle | {"zero": [["rat", "0"]]}, definite=True), "t", {}, 0)


def test_malformed_vectors_and_payloads_are_rejected() -> None:
    for bad in (["vec", "x_y"], ["vec", 3], ["vscale", vec("x")], ["vsum", vec("x")], "x", []):
        with pytest.raises(Rejected, match="not a vector tree"):
            inner_products.check(statement((inner(bad, vec("x")), ["rat", "0"])), "test", {}, 0)
    with pytest.raises(Rejected, match="gram payload"):
        inner_products.check(statement((inner(vec("x"), vec("x")), ["rat", "1"])), "test", {"steps": []}, 0)


def _drop_unit(data: dict[str, Any]) -> None:
    data["statement"]["unit"] = []


def _edit_identity(data: dict[str, Any]) -> None:
    data["statement"]["identities"][0][1] = ["rat", "0"]


def _relabel(data: dict[str, Any]) -> None:
    data["claim_id"] = "projection.symmetry"
    data["statement"]["claim"] = "projection.symmetry"


def _payload(data: dict[str, Any]) -> None:
    data["payload"] = {"steps": [["rat", "0"]]}


@pytest.mark.parametrize("edit", [_drop_unit, _edit_identity, _relabel, _payload])
def test_a_forged_certificate_is_rejected(certificates: dict[str, Path], tmp_path: Path, edit: Any) -> None:
    forged = forged_file(certificates["projection.self-pairing"], tmp_path, edit)
    result = check_file(forged)
    assert not result.ok, edit.__name__


def test_proved_projection_claims_carry_their_certificate(tmp_path: Path) -> None:
    registry = load_all()
    results = run_claims([registry.get(c) for c in CLAIMS], Context(certificate_dir=tmp_path))
    for result in results:
        assert result.verdict.value == "PROVED", result
        (path,) = result.certificates
        assert ".gram." in path and check_file(Path(path)).ok


@needs_coqc
def test_coq_proves_the_identities_and_not_a_false_one(certificates: dict[str, Path]) -> None:
    path = certificates["projection.tangency"]
    sentence, built = problem(check_file(path))
    answer = run.compile_source(source(path.name, "projection.tangency", sentence, built))
    assert answer.status == "accepted", answer.message
    wrong = copy.deepcopy(registry_statements.expected("projection.self-pairing", {}))
    wrong["unit"] = []
    false = [
        UniversalStatement("wrong", sorted(symbols(["add", *p])), [], ["=", *p])
        for p in inner_products.identities(wrong)
    ]
    assert run.compile_source(source(path.name, "projection.self-pairing", sentence, false)).status == "rejected"
