"""No verdict rests on a sign SymPy guesses: sign-dependent rewrites of cancelling expressions (issue 23).

SymPy rewrites `sqrt(e**2)` to `-e` when a low-precision numerical sign says e < 0, and
`1 - c_star(10**30)**2` is such an e for it although it is positive. Claims files are built in inert form
(`headflow.certificates.inert`), so such rewrites cannot happen; here every rewrite of the class (sqrt(e**2) against
+-e, (e**2)**(1/2), sqrt(e)**2, sqrt(e**2)/e, log(exp(e)), e**2/e, (e**3)**(1/3), 1/(1/e), exp(log(e)))
is applied to expressions e that cancel at magnitudes up to the grammar's limits, each both ways round
(e and -e), as identities, inequalities and constants. Each claim's truth is known by construction (the
sign of e is stated with it, and checked here with balls at high precision): a false one must never be
PROVED or CERTIFIED, a true one never REFUTED, and the false sign-dependent ones are refuted.
"""

from __future__ import annotations

import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp
from flint import arb
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.evaluation import ball
from headflow.certificates.claims.expressions import parse_expression, parse_tree
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.errors import InputError
from headflow.certificates.inert import inert
from headflow.certificates.kernel.balls import eval_ball
from headflow.certificates.kernel.exact import ball_of, precision
from headflow.certificates.provers.witness import certify_point
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.cli import main
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict
from headflow.identities import closed_forms
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.checking import verify_file

PROVEN = (Verdict.PROVED, Verdict.CERTIFIED, Verdict.CONFIRMED)

#: Expressions that cancel (their sign is far below double precision, or SymPy misjudges it), with that sign.
CANCELLING = {
    "1 - c_star(10**30)**2": 1,
    "10**-20 - c_star(10**20)": -1,
    "(1 + 10**-60) - 1": 1,
    "golden**2 - golden - 1 + 10**-50": 1,
    "exp(10**-80) - 1": 1,
    "sqrt(2)**2 - 2 - 10**-70": -1,
}

#: Rewrites f(e) -> (its value when e > 0, its value when e < 0), as text in E; None: undefined there.
REWRITES = {
    "sqrt((E)**2)": ("(E)", "-(E)"),
    "((E)**2)**(1/2)": ("(E)", "-(E)"),
    "sqrt((E)**2)/(E)": ("1", "-1"),
    "sqrt(E)**2": ("(E)", None),
    "log(exp(E))": ("(E)", "(E)"),
    "(E)**2/(E)": ("(E)", "(E)"),
    "((E)**3)**(1/3)": ("(E)", None),
    "1/(1/(E))": ("(E)", "(E)"),
    "exp(log(E))": ("(E)", None),
}


def _variants() -> list[tuple[str, str, str, bool]]:
    """(id, lhs, rhs, true?) for every expression, both signs, every rewrite: the right value and the wrong one."""
    found = []
    for index, (text, sign) in enumerate(CANCELLING.items()):
        exact = parse_expression(text).is_Rational
        for flipped, e in ((False, f"({text})"), (True, f"(-({text}))")):
            positive = (sign > 0) != flipped
            for number, (form, values) in enumerate(REWRITES.items()):
                right = values[0] if positive else values[1]
                wrong = values[1] if positive else values[0]
                lhs = form.replace("E", e)
                name = f"e{index}{'n' if flipped else 'p'}-f{number}"
                if right is None:  # undefined here: false whatever it is compared with (an exact rational e
                    if not exact:  # makes the file an input error, tested below)
                        found.append((f"{name}-undefined", lhs, e, False))
                    continue
                found.append((f"{name}-true", lhs, right.replace("E", e), True))
                if wrong is not None and wrong != right:
                    found.append((f"{name}-false", lhs, wrong.replace("E", e), False))
    return found


VARIANTS = _variants()
#: The default run: sqrt(e**2) both ways for every e and sign, and sqrt(e)**2 where it is undefined, as identities.
QUICK = [v for v in VARIANTS if "-f0-" in v[0] or "-f3-undefined" in v[0]]


def _claims_text(variants: list[tuple[str, str, str, bool]], relations: tuple[str, ...]) -> str:
    """Each variant as an identity, and as the inequalities `<=`, `>=` named in `relations`."""
    blocks = []
    for name, lhs, rhs, _ in variants:
        blocks.append(f'[[claim]]\nid = "{name}"\nkind = "identity"\nlhs = "{lhs}"\nrhs = "{rhs}"\n')
        for op, tag in ((op, {"<=": "le", ">=": "ge"}[op]) for op in relations):
            blocks.append(
                f'[[claim]]\nid = "{name}-{tag}"\nkind = "inequality"\nlhs = "{lhs}"\nop = "{op}"\nrhs = "{rhs}"\n'
            )
    return "\n".join(blocks)


def decide(text: str, directory: Path) -> dict[str, tuple[Verdict, dict]]:
    registry = register_claims(parse_claims(textwrap.dedent(text), "t.toml"))
    results = run_claims(registry.claims(), Context("quick", seed=5, certificate_dir=directory))
    assert not any(r.crashed for r in results)
    return {r.claim.id: (r.verdict, r.outcomes[0][1].as_dict()) for r in results}


@pytest.fixture(scope="module")
def quick_decided(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Verdict, dict]]:
    return decide(_claims_text(QUICK, ()), tmp_path_factory.mktemp("quick"))


@pytest.fixture(scope="module")
def all_decided(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Verdict, dict]]:
    return decide(_claims_text(VARIANTS, ("<=", ">=")), tmp_path_factory.mktemp("variants"))


def test_the_stated_signs_of_the_cancelling_expressions_are_right() -> None:
    """The test's own ground truth, from balls at 2048 bits (far beyond every cancellation above)."""
    for text, sign in CANCELLING.items():
        value = ball(parse_expression(text), {}, 2048)
        assert value > 0 if sign > 0 else value < 0, (text, value)


@pytest.mark.parametrize(("name", "lhs", "rhs", "true"), QUICK, ids=[v[0] for v in QUICK])
def test_the_square_root_of_a_square_is_decided_by_its_value(
    quick_decided: dict[str, tuple[Verdict, dict]], name: str, lhs: str, rhs: str, true: bool
) -> None:
    verdict, evidence = quick_decided[name]
    if true:
        assert verdict is not Verdict.REFUTED, (lhs, rhs, evidence)
    else:
        assert verdict is Verdict.REFUTED, (lhs, rhs, verdict, evidence)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "lhs", "rhs", "true"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_no_sign_dependent_rewrite_decides_a_claim(
    all_decided: dict[str, tuple[Verdict, dict]], name: str, lhs: str, rhs: str, true: bool
) -> None:
    """Every rewrite, both signs, as an identity and as both inequalities."""
    identity, _ = all_decided[name]
    low, _ = all_decided[f"{name}-le"]
    high, _ = all_decided[f"{name}-ge"]
    if true:
        assert Verdict.REFUTED not in (identity, low, high), (lhs, rhs, identity, low, high)
    else:
        assert identity is Verdict.REFUTED, (lhs, rhs, identity)
        assert low not in PROVEN or high not in PROVEN, (lhs, rhs, low, high)
        assert Verdict.REFUTED in (low, high), (lhs, rhs, low, high)


ISSUE = """
[[claim]]
id = "sqrt-sign"
kind = "identity"
lhs = "sqrt((1 - c_star(10**30)**2)**2)"
rhs = "c_star(10**30)**2 - 1"

[[claim]]
id = "sqrt-sign-true"
kind = "identity"
lhs = "sqrt((1 - c_star(10**30)**2)**2)"
rhs = "1 - c_star(10**30)**2"

[[claim]]
id = "sqrt-sign-le"
kind = "inequality"
lhs = "sqrt((1 - c_star(10**30)**2)**2)"
op = "<="
rhs = "0"

[[claim]]
id = "sqrt-sign-negative"
kind = "constant"
expr = "sqrt((1 - c_star(10**30)**2)**2)"
value = "-1.00"
digits = 3

[[claim]]
id = "sqrt-sign-positive"
kind = "constant"
expr = "sqrt((1 - c_star(10**30)**2)**2)"
value = "1.00"
digits = 3
"""


def test_the_claims_of_the_issue_are_decided_by_their_values(tmp_path: Path) -> None:
    """PROVED, CERTIFIED, CERTIFIED and REFUTED on main; the left side is +1 - 1e-60, not -1 + 1e-60."""
    claims = decide(ISSUE, tmp_path)
    verdict, evidence = claims["sqrt-sign"]
    assert verdict is Verdict.REFUTED and evidence["witness"]["verified_by"] == "ball"
    assert claims["sqrt-sign-true"][0] is not Verdict.REFUTED
    assert claims["sqrt-sign-le"][0] is Verdict.REFUTED
    assert claims["sqrt-sign-negative"][0] is Verdict.REFUTED
    verdict, evidence = claims["sqrt-sign-positive"]
    assert verdict is Verdict.CERTIFIED
    assert all(verify_file(Path(path))[0] for path in evidence["certificates"])


def test_the_inert_form_keeps_the_square_root_of_a_square() -> None:
    """What the builder makes of the issue's formula: no sign decided, the value +1 - 1e-60."""
    expr = parse_expression("sqrt((1 - c_star(10**30)**2)**2)")
    assert str(expr).startswith("sqrt((1 - ")
    assert parse_tree("sqrt((1 - c_star(10**30)**2)**2)")[:1] == ["sqrt"]
    with precision(256):
        assert ball(expr, {}, 256) > arb(1) - arb(10) ** -59


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("a - b/c", ["sub", ["sym", "a"], ["div", ["sym", "b"], ["sym", "c"]]]),
        ("-c_star(a)**2", ["neg", ["pow", ["c_star", ["sym", "a"]], 2]]),
        ("a**(1/3) + golden", ["add", ["rpow", ["sym", "a"], ["rat", "1/3"]], ["golden"]]),
        ("a**b", ["rpow", ["sym", "a"], ["sym", "b"]]),
    ],
)
def test_the_faithful_tree_is_the_text(text: str, shape: list) -> None:
    assert parse_tree(text, {name: sp.Symbol(name) for name in "abc"}) == shape


def test_an_undefined_rewrite_of_an_exact_number_is_an_input_error() -> None:
    """sqrt(e)**2 for the exact rational e = -((1 + 10**-60) - 1) < 0: no value, refused when the file is read."""
    with pytest.raises(InputError, match="sqrt of a negative number"):
        parse_expression("sqrt(-((1 + 10**-60) - 1))**2")


@pytest.mark.parametrize("text", ["1 + x #+ x**2/2", "x # comment", "x; x", "x \\\\", "x @ x", "'x'", "x[0]", "x == 1"])
def test_characters_outside_the_grammar_are_input_errors(text: str, tmp_path: Path) -> None:
    """`#` would make Python drop the rest as a comment: `1 + x #+ x**2/2` was read as 1 + x and certified."""
    toml = f'[[claim]]\nid = "c"\nkind = "identity"\nlhs = "exp(x)"\nrhs = "{text}"\nsymbols = {{ x = "real" }}\n'
    with pytest.raises(InputError):
        parse_claims(toml, "t.toml")
    path = tmp_path / "c.toml"
    path.write_text(toml)
    assert main(["check", str(path), "--certificates", str(tmp_path / "certs")]) == 2


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    k=st.integers(min_value=17, max_value=400),
    sign=st.sampled_from([1, -1]),
    form=st.sampled_from(["sqrt((E)**2)", "((E)**2)**(1/2)", "sqrt((E)**4)**(1/2)"]),
)
def test_generated_absolute_values_of_cancelling_constants(k: int, sign: int, form: str, tmp_path: Path) -> None:
    """|(1 + 10**-k) - 1| = 10**-k exactly, whatever the sign written in front: 1.00e-k is certified, -1.00e-k
    refuted (SymPy's float sign of such an e is what the rewrite sqrt(e**2) -> +-e would rest on)."""
    e = f"{'-' if sign < 0 else ''}((1 + 10**-{k}) - 1)"
    lhs = form.replace("E", e)
    text = "".join(
        f'[[claim]]\nid = "{name}"\nkind = "constant"\nexpr = "{lhs}"\nvalue = "{value}e-{k}"\ndigits = 3\n'
        for name, value in (("right", "1.00"), ("wrong", "-1.00"))
    )
    claims = decide(text, tmp_path)
    assert claims["right"][0] is Verdict.CERTIFIED, claims["right"]
    assert claims["wrong"][0] is Verdict.REFUTED, claims["wrong"]


def test_the_certificate_main_wrote_for_the_false_constant_is_rejected(tmp_path: Path) -> None:
    """On main the builder rewrote the formula to c_star(10**30)**2 - 1 and certified `= -1.00`: a certificate of
    that rewritten expression, embedding the claim, is not the claim's obligation (rebuilt from the text in inert
    form) and is rejected; its bounds are not even true of the formula as written."""
    (claim,) = (c for c in parse_claims(ISSUE, "t.toml") if c.id == "sqrt-sign-negative")
    rewritten = sp.sqrt((1 - closed_forms.c_star(sp.Integer(10) ** 30) ** 2) ** 2)  # SymPy's own evaluation
    assert rewritten.could_extract_minus_sign() or str(rewritten).startswith("-1 +")
    conditions = [
        ("defined: " + condition.text(), inert(condition.expr), ">")
        for condition in claim.conditions  # the square, whose ball is positive
    ] + [("expr - low >= 0", rewritten - claim.low, ">="), ("high - expr >= 0", claim.high - rewritten, ">=")]
    result = certify_point(claim.id, conditions, {}, tmp_path, claim=embedded(claim))
    assert result.verified and result.path is not None  # the balls of the rewritten expression do lie in [low, high]
    ok, line = verify_file(result.path)
    assert not ok and "condition" in line, line


@pytest.mark.parametrize(
    "text",
    [
        "sqrt((1 - c_star(10**30)**2)**2)",
        "beta_star(H, n, a) - log(c_star(H)*(n - 1)/(H - 1))/(2*a)",
        "rate(lambda_max(n, a), n, a) * (a - 1/3)**(1/3) / golden",
        "lambda_c(n, a)**2 - exp(-a) + pi*e - H**-2",
        "a**H - lambertw(a/e)",
    ],
)
def test_the_faithful_tree_and_the_inert_form_have_the_same_value(text: str) -> None:
    """What the deciders evaluate (the inert form) is what the text says (its faithful tree, named nodes expanded
    by their closed forms only when evaluated): their balls overlap at exact points."""
    symbols = {name: sp.Symbol(name) for name in ("H", "n", "a")}
    point = {"H": Fraction(3), "n": Fraction(5), "a": Fraction(7, 4)}
    with precision(256):
        faithful = eval_ball(parse_tree(text, symbols), {k: ball_of(v) for k, v in point.items()})
    inert_value = ball(parse_expression(text, symbols), {symbols[k]: sp.Rational(v) for k, v in point.items()}, 256)
    assert faithful.overlaps(inert_value) and faithful.rad() < 1e-60, (faithful, inert_value)
