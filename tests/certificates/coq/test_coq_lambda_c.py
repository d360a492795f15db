"""Constants with lambda_c in Coq: the kernel's Theorem states the guards 0 < n - 1 and 0 < beta and that a root
exists, then, for every l with `is_lambda_c n beta l` (the prelude's equation, the root u = l beta > 2), the constant's
bounds; the proof brackets beta l between two rationals by the signs of (u - 2) e^u - (n - 1)(u + 2) there
(`certificates.coq.roots`; the intermediate value theorem gives the root's existence), and `interval` proves the
bounds. A bound moved past the true value, or a bracket that does not hold the root, is not
accepted.

The generated text is tested without coqc; the tests that run coqc are marked slow and skipped without it.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from headflow.certificates.coq import roots
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.coq.statements import PointProblem, guard, statements
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.jensen import certify as certify_jensen
from headflow.checks import coq_files

from tests.certificates.kernel.test_jensen_statements import PAST_LAMBDA_C, _claim
from tests.command import headflow
from tests.coq_tier import needs_coqc
from tests.forging import forged_file

ROOT = Path(__file__).resolve().parents[3]
#: (id, expression, value, digits): lambda_c at n = 10 (the example's), near n = 1 with beta = 2, at a large n with
#: beta = 1/3, at irrational arguments (beta's bounds then proved by `interval`), and two roots in one expression,
#: one of them used twice (bound once).
CONSTANTS = [
    ("n10", "lambda_c(10, 1)", "3.4976", 5),
    ("near-one", "lambda_c(3/2, 2)", "1.113902116", 10),
    ("large-n", "lambda_c(100000, 1/3)", "35.5608691369", 12),
    ("irrational", "lambda_c(sqrt(5), pi)", "0.78560663564", 11),
    ("two-roots", "lambda_c(10, 1) * exp(-lambda_c(10, 1)) + lambda_c(4, 1/2)", "5.7958464061", 11),
]
CLAIMS = "".join(
    f'[[claim]]\nid = "{name}"\nkind = "constant"\nexpr = "{expr}"\nvalue = "{value}"\ndigits = {digits}\n\n'
    for name, expr, value, digits in CONSTANTS
)


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The witness certificates `headflow check` writes for CLAIMS, by claim id."""
    folder = tmp_path_factory.mktemp("lambda_c")
    (folder / "claims.toml").write_text(CLAIMS)
    headflow("check", str(folder / "claims.toml"), "--certificates", str(folder))  # in this process
    found = {json.loads(p.read_text())["claim_id"]: p for p in sorted(folder.glob("*.witness.*.json"))}
    assert set(found) == {name for name, *_ in CONSTANTS}, sorted(found)
    return found


def _point(path: Path) -> PointProblem:
    built = problem(check_file(path))[1]
    assert isinstance(built, PointProblem)
    return built


def _moved(built: PointProblem, side: int, value: str) -> PointProblem:
    """The problem with the bound of condition `side` (0: low, 1: high) replaced by `value`, past the true value."""
    conditions = [dict(c) for c in built.conditions]
    expression = list(conditions[side]["expression"])
    expression[2 - side] = ["rat", value]
    conditions[side]["expression"] = expression
    return built._replace(conditions=conditions)


def test_the_theorem_binds_each_root_after_its_guards(certificates: dict[str, Path]) -> None:
    ((_, theorem),) = statements("n10", _point(certificates["n10"]))
    assert theorem.startswith(
        "Theorem claim_n10 :\n  (0 < 10 - 1 /\\ 0 < 1 /\\ (exists r' : R, is_lambda_c 10 1 r')) /\\\n"
        "  (forall lambda_c'0 : R, is_lambda_c 10 1 lambda_c'0 ->\n"
        "  (* expr - low >= 0 *) 0 <= (lambda_c'0 - (69951 / 20000)) /\\\n"
    )
    assert theorem.endswith("0 <= ((69953 / 20000) - lambda_c'0)).")
    ((_, two),) = statements("two-roots", _point(certificates["two-roots"]))
    assert "0 < 10 - 1 /\\ 0 < 1 /\\ (exists r' : R, is_lambda_c 10 1 r') /\\ 0 < 4 - 1 /\\ 0 < (1 / 2) /\\" in two
    assert "is_lambda_c 4 (1 / 2) lambda_c'1" in two and "lambda_c'2" not in two
    assert "(lambda_c'0 * (exp (- lambda_c'0)))" in two
    ((_, irrational),) = statements("irrational", _point(certificates["irrational"]))
    assert "is_lambda_c (sqrt 5) PI lambda_c'0" in irrational and "0 <= 5 /\\" in irrational  # sqrt's domain


def test_the_prelude_defines_the_kernels_root() -> None:
    """is_lambda_c: beta > 0, u = l beta > 2 and (u - 2) e^u = (n - 1)(u + 2), the root of `lambda_c.enclose`."""
    from headflow.certificates.kernel.coq.statements import PRELUDE

    assert (
        "Definition is_lambda_c (n beta l : R) : Prop :=\n"
        "  0 < beta /\\ 2 < l * beta /\\ (l * beta - 2) * exp (l * beta) = (n - 1) * (l * beta + 2)."
    ) in PRELUDE


def test_the_brackets_hold_the_root(certificates: dict[str, Path]) -> None:
    ((a, b, low, high),) = roots.brackets(_point(certificates["n10"]), 96)
    two = roots.brackets(_point(certificates["two-roots"]), 96)
    assert Fraction(2) < a < Fraction("3.497648716264866218621746422446474231595") < b and low == high == 1
    assert b - a < Fraction(1, 2**90) and len(two) == 2
    ((a, b, low, high),) = roots.brackets(_point(certificates["irrational"]), 96)
    assert low < Fraction("3.141592653589793238462643383279502884197") < high  # beta = pi
    assert Fraction("2.468") < a < b < Fraction("2.4681")  # u = pi lambda_c = pi 0.78560...


def test_a_forged_bound_is_rejected_before_coq(certificates: dict[str, Path], tmp_path: Path) -> None:
    """A certificate whose constant's low end is moved past the true value: check-cert rejects it, so Coq never sees
    it (its statement is not its claim's, nor does the ball settle it)."""
    forged = forged_file(certificates["n10"], tmp_path, lambda d: d["statement"].update(low="34977/10000"))
    assert not check_file(forged).ok
    assert coq_files.check(forged).status == coq_files.REJECTED


@pytest.mark.slow
@needs_coqc
@pytest.mark.parametrize("name", [name for name, *_ in CONSTANTS])
def test_lambda_c_constants_are_rechecked_by_coq(certificates: dict[str, Path], name: str) -> None:
    verdict = coq_files.check(certificates[name])
    assert verdict.status == coq_files.RECHECKED, verdict


@pytest.mark.slow
@needs_coqc
def test_coq_does_not_accept_a_moved_bound_or_a_wrong_bracket(
    certificates: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bypassing the kernel: the Theorem with its low end moved above the root (3.49765 > 3.49764...) or its high end
    below it, and the true Theorem with a bracket that misses the root (each end the other's side of it): coqc
    accepts none of these files."""
    built = _point(certificates["n10"])
    for side, value in ((0, "69953/20000"), (1, "3497648/1000000")):
        text = source("t", "n10", "forged", _moved(built, side, value))
        assert run.compile_source(text).status == "rejected", (side, value)
    true_brackets = roots.brackets

    def missed(problem: PointProblem, bits: int) -> list[tuple[Fraction, Fraction, Fraction, Fraction]]:
        return [(b, b + 1, low, high) for a, b, low, high in true_brackets(problem, bits)]

    monkeypatch.setattr(roots, "brackets", missed)
    assert run.compile_source(source("t", "n10", "forged", built)).status == "rejected"


@pytest.mark.slow
@needs_coqc
def test_a_root_at_a_points_coordinates() -> None:
    """A point problem whose conditions use lambda_c at its coordinates n = 10, beta = 1/2 (a registry point witness's
    shape: the names are `Definition`s the proof unfolds), one with a definedness condition bound under the root:
    proved with a bound below the root (6 < 6.995...), not with one above it (7)."""
    root = ["lambda_c", ["sym", "n"], ["sym", "beta"]]
    for bound, status in (("6", "accepted"), ("7", "rejected")):
        built = PointProblem(
            {"n": Fraction(10), "beta": Fraction(1, 2)},
            [
                {"name": "above", "expression": ["sub", root, ["rat", bound]], "relation": ">"},
                {"name": "inverse", "expression": ["div", ["rat", "1"], ["sub", root, ["rat", "5"]]], "relation": ">"},
            ],
        )
        ((_, _), (_, _), (_, theorem)) = statements("point", built)
        assert "(forall lambda_c'0 : R, is_lambda_c n beta lambda_c'0 ->\n  (* above *)" in theorem
        assert "(lambda_c'0 - 5) <> 0 /\\" in theorem
        text = source("t", "point", "at a point", built)
        assert run.compile_source(text, **guard("t", "point", "at a point", built)).status == status, bound


def test_a_root_in_a_variables_bound_is_bound_just_before_it(tmp_path: Path) -> None:
    """`lam_1 >= lambda_c(n, beta)` (Jensen's convex regime): the Theorem binds the root by its equation right before
    the bound, with no guard (the domain has a point, so the root exists there)."""
    path = certify_jensen(_claim(PAST_LAMBDA_C), tmp_path)
    assert path is not None
    _, built = problem(check_file(Path(path)))
    texts = [text for _, text in statements("past-lambda-c", built)]
    assert len(texts) == 2  # F'' >= 0 on [lambda_c, oo), F'' > 0 inside
    binding = "forall lambda_c'0 : R, is_lambda_c (IZR n) beta lambda_c'0 ->\n  lam_1 >= lambda_c'0 ->"
    assert binding in texts[0] and binding.replace(">=", ">") in texts[1]
    assert all("0 < (IZR n) - 1" not in text for text in texts)


@needs_coqc
def test_coq_proves_the_convexity_past_lambda_c(tmp_path: Path) -> None:
    path = certify_jensen(_claim(PAST_LAMBDA_C), tmp_path)
    assert path is not None
    verdict = coq_files.check(Path(path))
    assert verdict.status == coq_files.RECHECKED, verdict.message
