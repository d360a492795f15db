"""Attacks of a hostile auditor on issue 23's trust path (claims files, their certificates, `check-cert`).

Each test is an attack. A certificate `headflow check` writes must be accepted by `check-cert` (a CERTIFIED
verdict whose certificate the checker cannot read is no certificate), and the text `check-cert` prints is
rendered from the checked tree, so it must read back, through the claims-file grammar, as the same value. A
false claim whose only counterexamples are points of equality is refuted exactly, and a true one never is.
"""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction
from pathlib import Path

import sympy as sp
from flint import arb
from headflow.certificates.claims.expressions import parse_expression
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.schema import InequalityClaim
from headflow.certificates.errors import InputError
from headflow.certificates.kernel.balls import eval_ball
from headflow.certificates.kernel.exact import precision
from headflow.certificates.kernel.tree_text import term_text
from headflow.certificates.sympy_trees import from_sympy
from headflow.checks.claimsfile.inequality_decider import refutation
from headflow.checks.cli import main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.checking import verify_file

SYMBOLS = {name: sp.Symbol(name) for name in "xy"}


def _texts() -> st.SearchStrategy[str]:
    """Formulas of the grammar over x, y with real powers (`rpow`) among integer powers, calls and rationals."""
    leaves = st.sampled_from(["x", "y", "2", "1/3", "golden", "pi", "7/2"])
    exponents = st.sampled_from(["2", "-1", "(1/3)", "(-1/2)", "(2/3)", "y", "x", "(x + 1)"])

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "/"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(inner, exponents).map(lambda t: f"({t[0]})**{t[1]}"),
            st.tuples(st.sampled_from(["exp", "sqrt", "log"]), inner).map(lambda t: f"{t[0]}({t[1]})"),
            inner.map(lambda t: f"-{t}"),
        )

    return st.recursive(leaves, extend, max_leaves=6)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_texts())
def test_the_printed_text_of_a_tree_reads_back_as_that_tree(text: str) -> None:
    """Rendering covers every node a claims-file term builds (`rpow` was missing: check-cert rejected the
    certificates of `golden**x >= 1` and `x**(1/3) >= x` that `check` wrote for its CERTIFIED verdicts)."""
    try:
        tree = from_sympy(parse_expression(text, SYMBOLS))
    except InputError:  # an exact undefined value (sqrt(-2), log(0)...), refused when read
        return
    again = from_sympy(parse_expression(term_text(tree), SYMBOLS))
    with precision(128):
        env = {"x": arb(3) / 7, "y": arb(5) / 11}
        first, second = eval_ball(tree, env), eval_ball(again, env)
        if first.is_finite():  # the same value: SymPy may distribute a sign over a sum, never change a value
            assert second.is_finite() and first.overlaps(second), (term_text(tree), first, second)


REAL_POWERS = textwrap.dedent("""
    [[claim]]
    id = "golden-power"
    kind = "inequality"
    lhs = "golden**x"
    op = ">="
    rhs = "1"
    domain = { x = "[0, 3]" }

    [[claim]]
    id = "cube-root"
    kind = "inequality"
    lhs = "x**(1/3)"
    op = ">="
    rhs = "x"
    domain = { x = "[0, 1]" }

    [[claim]]
    id = "pi-above-three"
    kind = "inequality"
    lhs = "pi*x"
    op = ">"
    rhs = "3*x"
    domain = { x = "[1, 2]" }
""")


def test_certificates_of_real_powers_and_pi_are_accepted_by_check_cert(tmp_path: Path) -> None:
    claims = tmp_path / "powers.toml"
    claims.write_text(REAL_POWERS)
    folder = tmp_path / "certs"
    assert main(["check", str(claims), "--certificates", str(folder), "--format", "json"]) == 0
    written = sorted(folder.glob("*.json"))
    assert {path.name.split(".")[0] for path in written} == {"golden-power", "cube-root", "pi-above-three"}
    for path in written:
        ok, line = verify_file(path)
        assert ok, line
    assert "x**(1/3) >= x" in "\n".join(verify_file(path)[1] for path in written)


def _inequality(lhs: str, op: str, rhs: str, domain: str) -> InequalityClaim:
    text = f'[[claim]]\nid = "q"\nkind = "inequality"\nlhs = "{lhs}"\nop = "{op}"\nrhs = "{rhs}"\ndomain = {domain}\n'
    (claim,) = parse_claims(text)
    assert isinstance(claim, InequalityClaim)
    return claim


EQUALITY_FAILURES = textwrap.dedent("""
    [[claim]]
    id = "closed-end"
    kind = "inequality"
    lhs = "x"
    op = "<"
    rhs = "1/10"
    domain = { x = { min = 0, max = 0.1 } }

    [[claim]]
    id = "double-root"
    kind = "inequality"
    lhs = "(x - 1/3)**2 * 10**100"
    op = ">"
    rhs = "0"
    domain = { x = "[0, 1]" }

    [[claim]]
    id = "huge-integer-root"
    kind = "inequality"
    lhs = "(n - 10**50)**2"
    op = ">"
    rhs = "0"
    domain = { n = { min = 1, integer = true } }
""")


def test_a_strict_inequality_failing_only_at_equality_is_refuted_exactly(tmp_path: Path) -> None:
    """A ball never settles a relation at equality: these false claims were INCONCLUSIVE although z3 handed over
    the very point (x = 1/10, 1/3, n = 10**50), 'not a counterexample' for the balls; exact arithmetic refutes them."""
    claims = tmp_path / "equality.toml"
    claims.write_text(EQUALITY_FAILURES)
    report = tmp_path / "report.json"
    assert main(["check", str(claims), "--format", "json", "--out", str(report)]) == 1
    decided = {c["id"]: c for c in json.loads(report.read_text())["claims"]}
    for claim_id, point in [("closed-end", "1/10"), ("double-root", "1/3"), ("huge-integer-root", str(10**50))]:
        assert decided[claim_id]["verdict"] == "REFUTED", decided[claim_id]
        (procedure,) = decided[claim_id]["evidence"]["procedures"]
        assert procedure["witness"]["verified_by"] == "exact"
        assert list(procedure["witness"]["point"].values()) == [point]


@settings(max_examples=60, deadline=None)
@given(
    st.fractions(min_value=-(10**30), max_value=10**30, max_denominator=10**40),
    st.integers(min_value=1, max_value=400),
)
def test_exact_refutation_is_right_at_the_point_and_beside_it(value: Fraction, scale: int) -> None:
    """At x = r, `x < r` and `x > r` fail and `x <= r`, `x >= r` hold; a rational step of 10**-scale beside r (far
    below what a ball of 512 bits sees against r) decides each correctly too: no refutation of a true relation."""
    r = f"{value.numerator}/{value.denominator}"
    domain = '{ x = "real" }'
    at = {sp.Symbol("x"): sp.Rational(value.numerator, value.denominator)}
    above = {sp.Symbol("x"): at[sp.Symbol("x")] + sp.Rational(1, 10**scale)}
    for op, fails_at, fails_above in [("<", True, True), ("<=", False, True), (">", True, False), (">=", False, False)]:
        claim = _inequality("x", op, r, domain)
        assert (refutation(claim, at) is not None) is fails_at, (op, r)
        assert (refutation(claim, above) is not None) is fails_above, (op, r, scale)


def _gap_rate(claim_id: str, rate: str, attention: str) -> str:
    return textwrap.dedent(f"""
        [[claim]]
        id = "{claim_id}"
        kind = "dynamics"
        quantity = "cluster_gap"
        property = "decays-at-rate"
        rate = "{rate}"
        attention = "{attention}"
        heads = "scalar"
        lambdas = [1.0, 0.5]
        tokens = "equiangular"
        rho = 0.2
        n = 4
        d = 4
        beta = 1.0
    """)


#: (id, rate, attention, true?): the exact rate r* is 3 (softmax) and 2 exp(1) + exp(1/2) (usa); the false ones miss
#: it by about 1e-120 and 1e-80 (past any float, and past 256-bit balls), the true ones equal it through cancellations.
GAP_RATES = [
    ("softmax-off", "2*(1 + 0.5) + 10**-90*(c_star(10**30)*10**30 - 1)", "softmax", False),
    ("usa-off", "2*(exp(beta) + exp(beta/2)/2) + 10**-50*(c_star(10**30)*10**30 - 1)", "usa", False),
    ("usa-golden", "2*(exp(beta) + exp(beta/2)/2) + (golden**2 - golden - 1)", "usa", True),
    ("usa-exp-log", "2*exp(log(exp(beta) + exp(beta/2)/2))", "usa", True),
]


def test_the_exact_rate_route_proves_no_rate_off_by_less_than_a_float(tmp_path: Path) -> None:
    """The equiangular reduction's rate comparison (exact route, then floats): a rate off by 1e-120 is never PROVED
    (CONFIRMED by floats at most), a rate equal to r* through a cancellation is never REFUTED."""
    claims = tmp_path / "rates.toml"
    claims.write_text("".join(_gap_rate(i, rate, attention) for i, rate, attention, _ in GAP_RATES))
    report = tmp_path / "report.json"
    main(["check", str(claims), "--format", "json", "--out", str(report)])
    decided = {c["id"]: c["verdict"] for c in json.loads(report.read_text())["claims"]}
    for claim_id, _, _, true in GAP_RATES:
        assert decided[claim_id] != ("REFUTED" if true else "PROVED"), (claim_id, decided[claim_id])
        assert decided[claim_id] != "CERTIFIED", claim_id
