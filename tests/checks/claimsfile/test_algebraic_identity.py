"""The algebraic identity strategy: radicals reduced by a Groebner basis, denominators cleared, logs exponentiated.

Three levels: the ring machinery of `headflow.identities.algebraic`; the strategy `prove_identity` alone
(each proof here is the strategy's own); and `headflow check` on a claims file, where the strategy
runs first, before the counterexample search and the SMT route. Each
strategy has wrong identities that it must not prove and that the ball search refutes.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
import sympy as sp
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.schema import IdentityClaim
from headflow.checks.claimsfile import identity_decider
from headflow.checks.claimsfile.algebraic_identity import ALGEBRAIC, LOGARITHMS, RATIONAL, prove_identity
from headflow.checks.claimsfile.deciders import DECIDERS
from headflow.checks.cli import main
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict
from headflow.identities.algebraic import RingForm, Unsupported, eliminate, reduce_modulo, ring_form

H = sp.Symbol("H", positive=True)
x = sp.Symbol("x", real=True)
C_STAR = (sp.sqrt((H - 1) ** 2 + 4) - (H - 1)) / 2


def claim(lhs: str, rhs: str, symbols: str = "{}") -> IdentityClaim:
    text = f'[[claim]]\nid = "c"\nkind = "identity"\nlhs = "{lhs}"\nrhs = "{rhs}"\nsymbols = {symbols}\n'
    (parsed,) = parse_claims(text, "t.toml")
    assert isinstance(parsed, IdentityClaim)
    return parsed


def strategy(lhs: str, rhs: str, symbols: str = "{}") -> tuple[Outcome | None, str]:
    """The strategy alone (no simplify)."""
    return prove_identity(claim(lhs, rhs, symbols), Context("quick", claim_id="c"))


def decided(lhs: str, rhs: str, symbols: str = "{}") -> Outcome:
    """What `headflow check` decides for the claim."""
    parsed = claim(lhs, rhs, symbols)
    return DECIDERS[parsed.kind][1](parsed, Context("quick", seed=1, claim_id="c"))


# ---------------------------------------------------------------- the ring machinery


def _remainder(form: RingForm) -> sp.Expr:
    return reduce_modulo(form, form.numerator).remainder


def test_c_star_identity_reduces_to_zero_modulo_its_defining_polynomial() -> None:
    form = ring_form(1 / C_STAR - C_STAR - (H - 1))
    (atom,) = form.atoms
    assert atom.value == sp.sqrt((H - 1) ** 2 + 4)
    assert sp.expand(atom.relation - (atom.variable**2 - (H - 1) ** 2 - 4)) == 0
    assert [entry.value for entry in form.inverted] == [C_STAR]
    assert _remainder(form) == 0
    wrong = ring_form(1 / C_STAR - C_STAR - H)
    assert _remainder(wrong) != 0


def test_elimination_proves_c_star_non_zero_for_every_root() -> None:
    form = ring_form(C_STAR)
    assert eliminate(form, form.numerator) == -1  # (a - H + 1)(-a - H + 1)/4 with a^2 = (H - 1)^2 + 4


def test_no_sign_of_a_radical_is_used() -> None:
    """sqrt(x^2) - x: a^2 = x^2 also has the root a = -x, so the numerator is not in the ideal."""
    y = sp.Symbol("y", positive=True)
    form = ring_form(sp.sqrt(y**2 + 2 * y + 1) - y)  # SymPy keeps the radical: (y + 1)^2 is not expanded back
    assert _remainder(ring_form(sp.sqrt(x**2 - 2 * x + 1) - x + 1)) != 0
    assert _remainder(form) != 0
    assert _remainder(ring_form(sp.sqrt(x) ** 2 - x)) == 0


def test_nested_and_cube_roots_and_free_atoms() -> None:
    cube = sp.Integer(2) ** sp.Rational(1, 3)
    assert _remainder(ring_form(1 / (cube - 1) - (1 + cube + cube**2))) == 0
    nested = sp.sqrt(1 + sp.sqrt(x**2 + 1))
    assert _remainder(ring_form(nested**2 - 1 - sp.sqrt(x**2 + 1))) == 0
    free = ring_form(sp.exp(x) * sp.sqrt(2) - sp.exp(x) * sp.sqrt(2))
    assert _remainder(free) == 0
    assert _remainder(ring_form(sp.exp(x) - sp.exp(2 * x))) != 0


@pytest.mark.parametrize("expr", [sp.Float(0.5) * x, sp.I * x, x + sp.oo])
def test_inexact_or_complex_expressions_are_refused(expr: sp.Expr) -> None:
    with pytest.raises(Unsupported):
        ring_form(expr)


# ---------------------------------------------------------------- the strategy alone (no simplify)


@pytest.mark.parametrize(
    ("lhs", "rhs", "symbols", "method"),
    [
        ("1/c_star(H) - c_star(H)", "H - 1", "{ H = { min = 1 } }", ALGEBRAIC),
        ("c_star(H)**2 + (H - 1)*c_star(H)", "1", '{ H = "real" }', ALGEBRAIC),
        ("c_star(H) / (1 - c_star(H)**2)", "1 / (H - 1)", '{ H = "[2, 9]" }', ALGEBRAIC),
        ("golden**2", "golden + 1", "{}", ALGEBRAIC),
        ("1/golden", "golden - 1", "{}", ALGEBRAIC),
        ("1/(sqrt(x) + sqrt(x + 1))", "sqrt(x + 1) - sqrt(x)", '{ x = "nonnegative" }', ALGEBRAIC),
        ("(x**2 - 1)/(x - 1)", "x + 1", '{ x = "[2, 5]" }', RATIONAL),
        ("1/(1/x + 1/y)", "x*y/(x + y)", '{ x = "positive", y = "positive" }', RATIONAL),
        ("log(x*y)", "log(x) + log(y)", '{ x = "positive", y = "positive" }', LOGARITHMS),
        ("log(x/y) + 2*log(y)", "log(x*y)", '{ x = "[1, 2]", y = "[3, 4]" }', LOGARITHMS),
        ("log(x)/2", "log(sqrt(x))", '{ x = "positive" }', LOGARITHMS),
        ("log(sqrt(x**2 + 1) - x)", "-log(sqrt(x**2 + 1) + x)", '{ x = "real" }', LOGARITHMS),
        ("log(1/c_star(H) - c_star(H))", "log(H - 1)", '{ H = "[2, 5]" }', LOGARITHMS),
        (
            "beta_star(H, n, alpha)",
            "log(c_star(H)*(n - 1)/(H - 1))/(2*alpha)",
            '{ H = "integer>=2", n = "integer>=2", alpha = "positive" }',
            LOGARITHMS,
        ),
    ],
)
def test_true_identities_are_proved_by_the_strategy_with_their_steps(
    lhs: str, rhs: str, symbols: str, method: str
) -> None:
    outcome, why = strategy(lhs, rhs, symbols)
    assert outcome is not None, why
    assert outcome.verdict is Verdict.PROVED and outcome.method == method
    text = "\n".join(step.text for step in outcome.steps)
    assert "Denominators cleared" in text
    assert "remainder 0" in text or "expands to 0" in text
    if method == ALGEBRAIC:
        assert "a root of" in text and "Groebner basis" in text


def test_c_star_proof_lists_atoms_basis_remainder_and_the_discharged_denominator() -> None:
    outcome, _ = strategy("1/c_star(H) - c_star(H)", "H - 1", "{ H = { min = 1 } }")
    assert outcome is not None
    text = [step.text for step in outcome.steps]
    assert any(t.startswith("Atom ") and "sqrt((H - 1)**2 + 4)" in t for t in text)
    assert any("resultants" in t and "-> -4" in t for t in text)  # c_star(H) != 0, by elimination
    assert any("Groebner basis" in t for t in text)
    assert any("remainder 0" in t for t in text)


@pytest.mark.parametrize(
    ("lhs", "rhs", "symbols"),
    [
        ("1/c_star(H) - c_star(H)", "H", "{ H = { min = 1 } }"),  # wrong constant
        ("golden**2", "golden - 1", "{}"),
        ("sqrt(x**2)", "x", '{ x = "[-1, 1]" }'),  # needs the sign: false for x < 0
        ("sqrt(x**2 + 2*x + 1)", "x + 1", '{ x = "[0, 1]" }'),  # true, but only through the sign
        ("sqrt(x**2 - 2*x + 1)", "x - 1", '{ x = "[0, 2]" }'),
        ("(x**2 - 1)/(x - 1)", "x + 1", '{ x = "[0, 2]" }'),  # undefined at x = 1
        ("(x**2 - 1)/(x - 1)", "x + 2", '{ x = "[2, 5]" }'),
        ("(x - 1)/(sqrt(x) - 1)", "sqrt(x) + 1", '{ x = "[0, 4]" }'),  # undefined at x = 1
        ("log(x**2)", "2*log(x)", '{ x = "[-2, -1]" }'),  # log(x) undefined
        ("log(x*y)", "log(x) + 2*log(y)", '{ x = "positive", y = "positive" }'),
        ("log(x + y)", "log(x) + log(y)", '{ x = "[1, 3]", y = "[1, 3]" }'),
        ("log(x)", "x - 1", '{ x = "positive" }'),
        ("log(sqrt(x**2 + 1) - x)", "log(sqrt(x**2 + 1) + x)", '{ x = "real" }'),
        ("log(x - sqrt(x**2 + 1))", "0", '{ x = "real" }'),  # the argument is negative: no sign rule proves it
        ("log(sqrt(x**2) - x + 1)", "0", '{ x = "[-1, 1]" }'),  # needs |x| = x, false for x < 0
        (
            "beta_star(H, n, alpha)",
            "log(c_star(H)**2*(n - 1)/(H - 1))/(2*alpha)",
            '{ H = "integer>=2", n = "integer>=2", alpha = "positive" }',
        ),
    ],
)
def test_wrong_or_sign_dependent_identities_are_not_proved(lhs: str, rhs: str, symbols: str) -> None:
    outcome, why = strategy(lhs, rhs, symbols)
    assert outcome is None and why


def test_a_sign_dependent_identity_is_left_to_a_route_that_proves_the_sign() -> None:
    """On [0, 1] sqrt(x**2) = x holds because x >= 0 there: the Groebner reduction, valid for every root, does not
    prove it (the inert sqrt is not rewritten by SymPy's assumptions), the SMT route does (r >= 0, r^2 = x^2)."""
    outcome, why = strategy("sqrt(x**2)", "x", '{ x = "[0, 1]" }')
    assert outcome is None and "remainder" in why
    assert decided("sqrt(x**2)", "x", '{ x = "[0, 1]" }').verdict is Verdict.CERTIFIED
    assert decided("sqrt(x**2)", "x", '{ x = "[-1, 1]" }').verdict is Verdict.REFUTED


def test_signs_of_square_roots_are_proved_from_a_and_b_and_the_norm() -> None:
    """beta_star's log argument c^2 (n-1)/(1-c^2) > 0: A + B r with A > 0 and A^2 - B^2 r^2 = (n-1)^2 > 0."""
    outcome, _ = strategy(
        "beta_star(H, n, alpha)",
        "log(c_star(H)*(n - 1)/(H - 1))/(2*alpha)",
        '{ H = "integer>=2", n = "integer>=2", alpha = "positive" }',
    )
    assert outcome is not None
    text = [step.text for step in outcome.steps]
    assert any("> 0 on the domain: it is N / D" in t and "A^2 - B^2 r^2 = n**2 - 2*n + 1" in t for t in text)
    assert any("real square root" in t for t in text)


def test_the_denominator_is_proved_non_zero_where_it_is() -> None:
    """(x - 1)/(sqrt(x) - 1): the resultant 1 - x of sqrt(x) - 1 is non-zero on [2, 4], not on [0, 4]."""
    outcome, _ = strategy("(x - 1)/(sqrt(x) - 1)", "sqrt(x) + 1", '{ x = "[2, 4]" }')
    assert outcome is not None and outcome.verdict is Verdict.PROVED


# ---------------------------------------------------------------- in the decider, with and without simplify


def test_the_search_tries_the_zero_of_a_denominator_with_a_radical() -> None:
    """sqrt(x) - 1 has no polynomial numerator; eliminating the radical gives 1 - x, whose root 1 refutes."""
    outcome = decided("(x - 1)/(sqrt(x) - 1)", "sqrt(x) + 1", '{ x = "[0, 4]" }')
    assert outcome.verdict is Verdict.REFUTED
    assert outcome.witness and outcome.witness["point"] == {"x": "1"}
    assert "division by zero" in outcome.witness["undefined"]


def test_without_simplify_the_strategy_proves_and_the_search_refutes() -> None:
    """The decider has no simplify: the strategy proves, the search refutes."""
    assert not hasattr(identity_decider, "simplifies_to_zero")
    for lhs, rhs, symbols in [
        ("golden**2", "golden + 1", "{}"),
        ("1/golden", "golden - 1", "{}"),
        ("c_star(H)**2 + (H - 1)*c_star(H)", "1", '{ H = "positive" }'),
        ("log(x*y)", "log(x) + log(y)", '{ x = "positive", y = "positive" }'),
        ("(x**2 - 1)/(x - 1)", "x + 1", '{ x = "[2, 5]" }'),
    ]:
        assert decided(lhs, rhs, symbols).verdict is Verdict.PROVED, lhs
    for lhs, rhs, symbols in [
        ("golden**2", "golden", "{}"),  # algebraic
        ("(x**2 - 1)/(x - 1)", "x + 2", '{ x = "[2, 5]" }'),  # rational
        ("log(x*y)", "log(x) + 2*log(y)", '{ x = "[1, 3]", y = "[2, 3]" }'),  # logarithms
        ("sqrt(x**2)", "x", '{ x = "[-1, 1]" }'),  # sign
        ("log(sqrt(x**2 + 1) - x)", "log(sqrt(x**2 + 1) + x)", '{ x = "real" }'),  # signs of square roots
    ]:
        outcome = decided(lhs, rhs, symbols)
        assert outcome.verdict is Verdict.REFUTED, lhs
        # verified with balls, or exactly when both sides are rational arithmetic at the point
        assert outcome.witness and outcome.witness["verified_by"] in ("ball", "exact")


CLAIMS = """
[[claim]]
id = "c-star-inverse"
kind = "identity"
lhs = "1/c_star(H) - c_star(H)"
rhs = "H - 1"
symbols = { H = { min = 1 } }

[[claim]]
id = "c-star-quadratic"
kind = "identity"
lhs = "c_star(H)**2 + (H - 1)*c_star(H)"
rhs = "1"
symbols = { H = "real" }

[[claim]]
id = "golden-square"
kind = "identity"
lhs = "golden**2"
rhs = "golden + 1"

[[claim]]
id = "golden-inverse"
kind = "identity"
lhs = "1/golden"
rhs = "golden - 1"

[[claim]]
id = "abs-signed"
kind = "identity"
lhs = "sqrt(x**2)"
rhs = "x"
symbols = { x = "[-1, 1]" }

[[claim]]
id = "abs-nonnegative"
kind = "identity"
lhs = "sqrt(x**2)"
rhs = "x"
symbols = { x = "nonnegative" }

[[claim]]
id = "c-star-inverse-wrong"
kind = "identity"
lhs = "1/c_star(H) - c_star(H)"
rhs = "H"
symbols = { H = { min = 1 } }

[[claim]]
id = "log-product"
kind = "identity"
lhs = "log(x*y)"
rhs = "log(x) + log(y)"
symbols = { x = "positive", y = "positive" }

[[claim]]
id = "log-square-negative"
kind = "identity"
lhs = "log(x**2)"
rhs = "2*log(x)"
symbols = { x = "[-2, -1]" }

[[claim]]
id = "removable"
kind = "identity"
lhs = "(x**2 - 1)/(x - 1)"
rhs = "x + 1"
symbols = { x = "[0, 2]" }
"""


def test_headflow_check_decides_the_algebraic_claims(tmp_path: Path) -> None:
    path, out = tmp_path / "claims.toml", tmp_path / "report.json"
    path.write_text(textwrap.dedent(CLAIMS), encoding="utf-8")
    assert main(["check", str(path), "--format", "json", "--out", str(out), "--certificates", str(tmp_path)]) == 1
    claims = {c["id"]: c for c in json.loads(out.read_text())["claims"]}
    verdicts = {claim_id: c["verdict"] for claim_id, c in claims.items()}
    for claim_id in ("c-star-inverse", "c-star-quadratic", "golden-square", "golden-inverse", "log-product"):
        assert verdicts[claim_id] == "PROVED", claim_id
    assert verdicts["abs-nonnegative"] != "REFUTED"
    for claim_id in ("abs-signed", "c-star-inverse-wrong", "log-square-negative", "removable"):
        assert verdicts[claim_id] == "REFUTED", claim_id
    (inverse,) = claims["c-star-inverse"]["evidence"]["procedures"]
    assert inverse["method"] == ALGEBRAIC
    assert any("Groebner basis" in step["text"] for step in inverse["steps"])
    (signed,) = claims["abs-signed"]["evidence"]["procedures"]
    assert sp.Rational(signed["witness"]["point"]["x"]) < 0
    (undefined,) = claims["log-square-negative"]["evidence"]["procedures"]
    assert "log of a non-positive number" in undefined["witness"]["undefined"]
    (removable,) = claims["removable"]["evidence"]["procedures"]
    assert removable["witness"]["point"] == {"x": "1"}


def test_exp_and_log_are_rewritten_only_where_the_rewrite_holds_for_every_defined_value() -> None:
    """log(e^a) = a, e^(k log a) = a^k (a > 0 where log a is defined), e^a e^b = e^(a+b): exact, no sign used."""
    for lhs, rhs, symbols in [
        ("log(exp(x))", "x", '{ x = "real" }'),
        ("exp(log(x))", "x", '{ x = "positive" }'),
        ("exp(2*x)", "exp(x)**2", '{ x = "real" }'),
        ("exp(x + 1)", "e*exp(x)", '{ x = "real" }'),
        ("exp(3*log(x) - x)", "x**3/exp(x)", '{ x = "[1, 2]" }'),
    ]:
        outcome, why = strategy(lhs, rhs, symbols)
        assert outcome is not None and outcome.verdict is Verdict.PROVED, (lhs, why)
    for lhs, rhs, symbols in [
        ("exp(log(x))", "x", '{ x = "[-1, 1]" }'),  # undefined for x <= 0
        ("exp(x + 1)", "2*exp(x)", '{ x = "real" }'),
        ("log(exp(x)**2)", "x", '{ x = "real" }'),
    ]:
        assert strategy(lhs, rhs, symbols)[0] is None, lhs
        assert decided(lhs, rhs, symbols).verdict is Verdict.REFUTED, lhs


# ---------------------------------------------------------------- Lambert W's defining identity

LAMBERT_SYMBOLS = '{ n = "integer>=2", beta = "positive", x = "positive" }'


def test_the_rate_at_its_maximiser_is_proved_by_lambert_ws_defining_identity() -> None:
    """phi(lambda_max) = 2 W((n - 1)/e) / (beta (n - 1)): e^(1 + W(z)) = e z / W(z) with z = (n - 1)/e != 0."""
    outcome, why = strategy(
        "rate(lambda_max(n, beta), n, beta)", "2 * lambertw((n - 1) / e) / (beta * (n - 1))", LAMBERT_SYMBOLS
    )
    assert outcome is not None and outcome.verdict is Verdict.PROVED, why
    assert any("W(z) e^W(z) = z" in step.text for step in outcome.steps)


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        ("rate(lambda_max(n, beta), n, beta)", "2 * lambertw((n - 1) / e) / (beta * n)"),
        ("exp(lambertw(x)) * lambertw(x)", "x + x**2 / 1000"),
        ("exp(2 * lambertw(x))", "x / lambertw(x)"),
    ],
)
def test_wrong_lambert_identities_are_not_proved_and_are_refuted(lhs: str, rhs: str) -> None:
    outcome, why = strategy(lhs, rhs, LAMBERT_SYMBOLS)
    assert outcome is None and "remainder" in why
    assert decided(lhs, rhs, LAMBERT_SYMBOLS).verdict is Verdict.REFUTED


def test_lambert_w_is_eliminated_only_where_its_argument_is_proved_non_zero() -> None:
    """e^W(x) = x / W(x) holds for x != 0 only; on x >= 0 the right side is undefined at 0: not proved."""
    assert strategy("exp(lambertw(x))", "x / lambertw(x)", LAMBERT_SYMBOLS)[0] is not None
    outcome, why = strategy("exp(lambertw(y))", "y / lambertw(y)", '{ y = "nonnegative" }')
    assert outcome is None, why
