"""Z3 on the scalar-regime statements of T19.threshold, checked against the numpy model."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from headflow.certificates.kernel import smtlib, solvers
from headflow.certificates.kernel.exprtree import TreeError
from headflow.certificates.provers.smt import certify, decide, problem
from headflow.certificates.statements import registry as obligations
from headflow.certificates.statements.registry import SmtStatement
from headflow.certificates.sympy_trees import formula_from_sympy
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context, load_all
from headflow.checks.runner import run_claim
from headflow.checks.theorems import t19_threshold as tc
from headflow.checks.verdicts import Verdict
from headflow.identities import closed_forms
from headflow.identities import condition8_scalar as sr

from tests.soundness.forgeries import SMUGGLED


def _scalar_configuration(H: int, n: int, alpha: float, beta: float) -> Configuration:
    """H equal scalar heads alpha I, orthonormal tokens, usa, sphere (the T19 regime)."""
    X = families.orthogonal_tokens(n, n, np.random.default_rng(n))
    return Configuration.create(X, families.scalar_heads([alpha] * H, n), beta=beta)


@pytest.mark.parametrize(("H", "n", "alpha"), [(2, 3, 1.0), (3, 7, 0.5), (4, 12, 2.0), (2, 20, 0.3)])
def test_derived_regime_formulas_match_the_model(H: int, n: int, alpha: float) -> None:
    beta = 0.37
    cfg = _scalar_configuration(H, n, alpha, beta)
    env = {sr.H: H, sr.n: n, sr.alpha: alpha, sr.t: math.exp(alpha * beta)}
    assert np.allclose(model.radial_shadows(cfg), float(sr.radial_shadow().subs(env)), rtol=1e-12)
    assert np.allclose(model.tangential_powers(cfg), float(sr.tangential_power().subs(env)), rtol=1e-12)
    assert np.allclose(model.condition8_margins(cfg), float(sr.condition8_margin().subs(env)), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize(("H", "n", "alpha"), [(2, 3, 1.0), (3, 7, 0.5), (4, 12, 2.0), (5, 4, 1.5)])
def test_certified_threshold_is_where_the_model_margin_changes_sign(H: int, n: int, alpha: float) -> None:
    threshold = math.log((n - 1) / (H - 1)) / (2 * alpha)  # the certified c8-threshold statement, in beta
    below = model.condition8_margins(_scalar_configuration(H, n, alpha, threshold * 0.999 if threshold > 0 else 1e-3))
    above = model.condition8_margins(_scalar_configuration(H, n, alpha, abs(threshold) * 1.001 + 1e-3))
    if threshold > 0:
        assert below.min() > 0
    assert above.max() < 0
    star = float(closed_forms.beta_star(H, n, alpha))
    if star > 0:
        assert star < threshold
        assert model.condition8_margins(_scalar_configuration(H, n, alpha, star)).min() > 0
        assert math.isclose(threshold - star, math.log(1 / float(closed_forms.c_star(H))) / (2 * alpha))


def test_every_threshold_statement_is_unsat() -> None:
    for statement in [*obligations.threshold_statements(), *obligations.cauchy_schwarz_statements()]:
        assert decide(statement).status == "unsat", statement.name


def test_both_solvers_in_fresh_processes_agree_and_refute_the_false_reading() -> None:
    texts = [problem(s) for s in obligations.threshold_statements()] + [problem(tc.exact_statement())]
    for solver in solvers.SCRIPTS:
        assert solvers.answers(solver, texts, solvers.DEFAULT_SECONDS) == ["unsat"] * (len(texts) - 1) + ["sat"], solver


def test_false_polynomial_statement_gets_a_model_and_no_certificate(tmp_path: Path) -> None:
    results, path = certify((tc.exact_statement(),), "T19.threshold.exact", tmp_path)
    result = results["exact"]
    assert result.status == "sat" and set(result.model) >= {"H", "n"} and path is None
    assert not list(tmp_path.iterdir())


def test_wrong_threshold_in_c8_statement_is_not_proved() -> None:
    wrong = SmtStatement(
        "wrong",
        "C8 iff t^2 <= n - 1 (forgets the H - 1)",
        (sr.H, sr.n, sr.alpha, sr.t),
        (sr.H >= 2, sr.n >= 2, sr.alpha > 0, sr.t > 0),
        sp.Equivalent(sr.condition8_margin() >= 0, sr.t**2 <= sr.n - 1),
    )
    assert decide(wrong).status == "sat"


def test_a_spent_resource_limit_is_reported_as_such_not_a_hang() -> None:
    """The budget is z3's resource count: the same answer on every run, however busy the machine."""
    xs = sp.symbols("x0:6", real=True)
    hypotheses = tuple(
        sp.Eq(xs[i] ** 3 - xs[(i + 1) % 6] * xs[(i + 2) % 6] + xs[(i + 3) % 6] ** 2, 1) for i in range(6)
    )
    hard = SmtStatement("hard", "hard", xs, hypotheses, sp.Ne(sum(x**5 for x in xs), 7))
    for _ in range(2):
        result = decide(hard, rlimit=20_000)
        assert result.status == "resource limit" and "resource limit (20,000)" in result.reason


def test_printer_rejects_non_polynomial_terms() -> None:
    x = sp.Symbol("x", real=True)
    with pytest.raises(smtlib.SmtTextError):
        smtlib.problem_text(["x"], [], formula_from_sympy(sp.exp(x) > 1))


@pytest.mark.parametrize("text", SMUGGLED)
def test_printer_never_copies_text_from_a_file(text: str) -> None:
    """Smuggled text in any place of an obligation is refused, nothing printed; a constant's name is never printed
    (constants are declared x0, x1, ...)."""
    x, one = ["sym", "x"], ["rat", "1"]
    named = smtlib.problem_text(["x", text], [], [">", x, one])
    assert named == smtlib.problem_text(["x", "y"], [], [">", x, one])
    hostile = [
        (["x"], [text], [">", x, one]),
        (["x"], [], text),
        (["x"], [[">", ["rat", text], one]], [">", x, one]),
        (["x"], [[text, x, one]], [">", x, one]),
        (["x"], [[">", ["sym", text], one]], [">", x, one]),
    ]
    for constants, hypotheses, goal in hostile:
        with pytest.raises((smtlib.SmtTextError, TreeError)):
            smtlib.problem_text(constants, hypotheses, goal)


def test_printed_text_holds_only_the_four_commands() -> None:
    allowed = re.compile(r"^\((set-logic QF_NRA|declare-fun x[0-9]+ \(\) Real|assert .*|check-sat)\)$")
    for statement in [*obligations.threshold_statements(), *obligations.cauchy_schwarz_statements()]:
        text = problem(statement)
        assert all(allowed.match(line) for line in text.splitlines()), text
        assert not set(text) & set('|";:!@'), text


def test_threshold_claims_reach_their_verdicts(tmp_path: Path) -> None:
    registry = load_all()
    base = Context("quick", 0, tmp_path)
    verdicts = {cid: run_claim(registry.get(cid), base) for cid in ("T19.threshold", "T19.threshold.exact")}
    assert verdicts["T19.threshold"].verdict is Verdict.CERTIFIED
    assert len(verdicts["T19.threshold"].certificates) == 1
    assert verdicts["T19.threshold.exact"].verdict is Verdict.REFUTED
    assert all(Path(p).exists() for r in verdicts.values() for p in r.certificates)
