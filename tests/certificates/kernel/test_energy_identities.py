"""The energy claims' `gram` certificates: the gradient lemma summed over pairs of tokens, the heads' orthogonality
and the per-token identities, re-checked by the kernel (rate, relabelling, operators) and by Coq; and T22's early
rate (the cluster gap's rate at an orthogonal start, tokens moving with vector-tree velocities) and T27's entropy
identity (scalars moving with stated rates).

The trees of the gradient lemma are written by hand here (the test does not use the statement builder): for a
symmetric M and tokens moving with velocities v, sum_{j,k} d/dt exp(beta <x_j, M x_k>) = 2 beta sum_{j,k}
exp(beta <x_j, M x_k>) <v_j, M x_k>. Each of its hypotheses dropped (M symmetric, the relabelling, a token's velocity)
or its coefficient changed makes it fail; a forged certificate (an edited identity, a dropped hypothesis, another
claim's label) is rejected; Coq proves the expanded identities and not a false one.
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

from tests.certificates.kernel.test_inner_products import inner, statement, vec
from tests.coq_tier import needs_coqc
from tests.forging import forged_file

CLAIMS = (
    "T11.energy-rate.spherical",
    "T11.energy-rate.flat",
    "T16.flat-orthogonal",
    "T17.shadow-decomposition",
    "C8.radial-dominance",
    "C8.radial-dominance.reading-b",
    "T19.monotonicity-regime",
)
BETA = ["sym", "beta"]
PAIRS = [["xj", "xk"], ["vj", "vk"]]
MOVING = (("xj", vec("vj")), ("xk", vec("vk")))


def applied(operator: str, name: str) -> list[Any]:
    return ["apply", operator, vec(name)]


def weight(left: str = "xj", right: str = "xk") -> list[Any]:
    return ["exp", ["mul", BETA, inner(vec(left), applied("M", right))]]


def gradient(coefficient: str = "2", pairs: Any = PAIRS) -> tuple[Any, ...]:
    """sum_{j,k} d/dt exp(beta <x_j, M x_k>) = coefficient beta sum_{j,k} exp(beta <x_j, M x_k>) <v_j, M x_k>."""
    rhs = ["mul", ["rat", coefficient], BETA, weight(), inner(vec("vj"), applied("M", "xk"))]
    return (["rate", weight()], rhs, pairs) if pairs else (["rate", weight()], rhs)


def check(*identities: tuple[Any, ...], **space: Any) -> None:
    inner_products.check(statement(*identities, **{"unit": (), **space}), "test", {}, 0)


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("energy")
    return {claim: certify(claim, folder) for claim in CLAIMS}


def test_each_energy_certificate_is_accepted_and_says_what_it_does_not_recheck(certificates: dict[str, Path]) -> None:
    for claim, path in certificates.items():
        result = check_file(path)
        assert result.ok, (claim, result.message)
        assert "sum_{j,k} d/dt exp(beta <x_j, M x_k>)" in result.proved, claim
        assert "Not re-checked" in result.proved, claim


def test_the_gradient_lemma_holds_and_each_dropped_hypothesis_breaks_it() -> None:
    check(gradient(), symmetric=("M",), velocities=MOVING)
    broken = {
        "coefficient 1": ({"symmetric": ("M",), "velocities": MOVING}, gradient("1")),
        "M not symmetric": ({"velocities": MOVING}, gradient()),
        "not summed over pairs": ({"symmetric": ("M",), "velocities": MOVING}, gradient(pairs=None)),
        "x_k does not move": ({"symmetric": ("M",), "velocities": MOVING[:1]}, gradient()),
    }
    for name, (space, identity) in broken.items():
        with pytest.raises(Rejected):
            check(identity, **space)
        assert name
    with pytest.raises(Rejected, match="relabel"):  # the tokens swapped but not their velocities
        check(gradient(pairs=[["xj", "xk"]]), symmetric=("M",), velocities=MOVING)
    with pytest.raises(Rejected, match="relabel"):  # a name in two pairs
        check(gradient(pairs=[*PAIRS, ["xj", "w"]]), symmetric=("M",), velocities=MOVING)


def test_relabelling_proves_double_sums_and_nothing_false() -> None:
    """sum_{j,k} (<v_j, x_k> - <v_k, x_j>) = 0 (an antisymmetric summand) holds; sum_{j,k} <v_j, x_k> = 0 does not,
    nor a summand false only on the diagonal j = k (the relabelled identity holds for every value, x_j = x_k too)."""
    antisymmetric = ["sub", inner(vec("vj"), vec("xk")), inner(vec("vk"), vec("xj"))]
    check((antisymmetric, ["rat", "0"], PAIRS))
    diagonal = ["mul", inner(vec("xj"), vec("xj")), ["sub", inner(vec("xj"), vec("xk")), inner(vec("xk"), vec("xk"))]]
    for false in (inner(vec("vj"), vec("xk")), diagonal):
        with pytest.raises(Rejected, match="does not hold"):
            check((false, ["rat", "0"], PAIRS))


def test_the_early_rate_holds_and_each_orthogonality_it_uses_is_needed(tmp_path: Path) -> None:
    """d/dt (1 - <x_i, x_j>) = -2 lambda q for one softmax head at orthogonal tokens; a changed coefficient, x_i and
    x_j not orthogonal, or the rest r_j of x_j's output not orthogonal to x_i, and it fails."""
    assert check_file(certify("T22.early-rate", tmp_path)).ok
    statement = registry_statements.expected("T22.early-rate", {})
    inner_products.check(statement, "T22.early-rate", {}, 0)
    wrong_coefficient = copy.deepcopy(statement)
    wrong_coefficient["identities"][0][1][1] = ["rat", "-1"]
    broken = [wrong_coefficient]
    for pair in (["xi", "xj"], ["rj", "xi"]):
        broken.append(statement | {"orthogonal": [p for p in statement["orthogonal"] if p != pair]})
    for data in broken:
        with pytest.raises(Rejected, match="does not hold"):
            inner_products.check(data, "T22.early-rate", {}, 0)


def test_the_entropy_identity_holds_and_a_wrong_rate_breaks_it(tmp_path: Path) -> None:
    """d/dt (log A - beta B / A) = -beta^2 (D / A - B C / A^2) with A' = beta C, B' = beta D + C, and the summands'
    rates; A' = C (beta dropped), a summand's rate without its factor beta, or the production's sign flipped fail."""
    assert check_file(certify("T27.entropy-identity", tmp_path)).ok
    statement = registry_statements.expected("T27.entropy-identity", {})
    beta, c = ["sym", "beta"], ["sym", "C"]
    dropped = copy.deepcopy(statement)
    dropped["rates"] = [[s, c] if s == "A" else [s, r] for s, r in statement["rates"]]
    summand = copy.deepcopy(statement)
    summand["identities"][0][1] = ["mul", summand["identities"][0][1][2], summand["identities"][0][1][3]]
    flipped = copy.deepcopy(statement)
    flipped["identities"][2][1] = ["mul", ["rat", "-1"], flipped["identities"][2][1]]
    for data in (dropped, summand, flipped):
        with pytest.raises(Rejected, match="does not hold"):
            inner_products.check(data, "T27.entropy-identity", {}, 0)
    assert beta in statement["rates"][1][1]


def test_the_rate_uses_no_hypothesis_of_an_instant() -> None:
    """<x, x> = 1 holds at an instant: d/dt <x, x> = 2 <v, x> is kept, not read as d/dt 1 = 0."""
    check(
        (["rate", inner(vec("x"), vec("x"))], ["mul", ["rat", "2"], inner(vec("v"), vec("x"))]),
        unit=("x",),
        velocities=[("x", vec("v"))],
    )
    with pytest.raises(Rejected, match="does not hold"):
        check((["rate", inner(vec("x"), vec("x"))], ["rat", "0"]), unit=("x",), velocities=[("x", vec("v"))])


def test_operators_orthogonal_heads_and_malformed_applications() -> None:
    orthogonal = (inner(applied("M", "a"), applied("G", "b")), ["rat", "0"])
    check(orthogonal, symmetric=("G", "M"), annihilating=[("M", "G")])
    for space in ({"symmetric": ("G", "M")}, {"symmetric": ("M",), "annihilating": [("M", "G")]}):
        with pytest.raises(Rejected, match="does not hold"):  # M G = 0 needs both symmetric to move M across
            check(orthogonal, **space)
    for bad in (["apply", "M", applied("G", "a")], ["apply", "m", vec("a")], vec("Ma"), ["apply", "M"]):
        with pytest.raises(Rejected, match="not a vector tree"):
            check((inner(bad, vec("b")), ["rat", "0"]), symmetric=("M",))


def _edit_coefficient(data: dict[str, Any]) -> None:
    data["statement"]["identities"][0][1][1] = ["rat", "1"]


def _drop_symmetry(data: dict[str, Any]) -> None:
    data["statement"]["symmetric"] = []


def _drop_orthogonality(data: dict[str, Any]) -> None:
    data["statement"]["orthogonal"] = []


def _relabel(data: dict[str, Any]) -> None:
    data["claim_id"] = "T16.flat-orthogonal"
    data["statement"]["claim"] = "T16.flat-orthogonal"


def _float_coefficient(data: dict[str, Any]) -> None:
    data["statement"]["identities"][0][1][1] = ["rat", "2.0"]


def _huge_identity(data: dict[str, Any]) -> None:
    """A 400-deep rate appended to the identities: refused as not the table's statement, before any expansion."""
    deep: list[Any] = ["rat", "1"]
    for _ in range(400):
        deep = ["exp", deep]
    data["statement"]["identities"].append([["rate", deep], ["rat", "0"]])


@pytest.mark.parametrize(
    "edit", [_edit_coefficient, _drop_symmetry, _drop_orthogonality, _relabel, _float_coefficient, _huge_identity]
)
def test_a_forged_energy_certificate_is_rejected(certificates: dict[str, Path], tmp_path: Path, edit: Any) -> None:
    forged = forged_file(certificates["T17.shadow-decomposition"], tmp_path, edit)
    assert not check_file(forged).ok, edit.__name__


def test_proved_energy_claims_carry_their_certificate(tmp_path: Path) -> None:
    registry = load_all()
    results = run_claims([registry.get(c) for c in CLAIMS], Context(certificate_dir=tmp_path, profile="quick"))
    for result in results:
        assert result.verdict.value == "PROVED", result
        (path,) = result.certificates
        assert ".gram." in path and check_file(Path(path)).ok


@needs_coqc
def test_coq_proves_the_entropy_identity_and_not_a_flipped_one(tmp_path: Path) -> None:
    """Coq proves the three identities (the inverse powers of A are atoms: the chain rule's identity holds as one of
    polynomials in them, for every real A); with the production's sign flipped coqc refuses it."""
    path = certify("T27.entropy-identity", tmp_path)
    sentence, built = problem(check_file(path))
    assert run.compile_source(source(path.name, "T27.entropy-identity", sentence, built)).status == "accepted"
    chain = built[2]
    flipped = chain._replace(goal=["=", chain.goal[1], ["mul", ["rat", "-1"], chain.goal[2]]])
    assert run.compile_source(source(path.name, "T27.entropy-identity", sentence, [flipped])).status == "rejected"


def test_a_certificate_with_a_changed_rate_is_rejected(tmp_path: Path) -> None:
    """A forged T27 certificate (A' = C, its checksum recomputed) is not the table's statement."""
    path = certify("T27.entropy-identity", tmp_path)

    def drop_beta(data: dict[str, Any]) -> None:
        data["statement"]["rates"][1][1] = ["sym", "C"]

    assert not check_file(forged_file(path, tmp_path, drop_beta)).ok


@needs_coqc
def test_coq_proves_the_energy_identities_and_not_a_false_one(certificates: dict[str, Path]) -> None:
    path = certificates["T17.shadow-decomposition"]
    sentence, built = problem(check_file(path))
    assert run.compile_source(source(path.name, "T17.shadow-decomposition", sentence, built)).status == "accepted"
    wrong = copy.deepcopy(registry_statements.expected("T17.shadow-decomposition", {}))
    wrong["identities"][0][1][1] = ["rat", "1"]
    false = [
        UniversalStatement("wrong", sorted(symbols(["add", *p])), [], ["=", *p])
        for p in inner_products.identities(wrong)[:1]
    ]
    assert run.compile_source(source(path.name, "T17.shadow-decomposition", sentence, false)).status == "rejected"
