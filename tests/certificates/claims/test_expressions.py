"""The restricted expression grammar: exact meanings, every hostile form refused, only InputError ever raised."""

from __future__ import annotations

import pytest
import sympy as sp
from headflow.certificates.claims.expressions import MAX_DEPTH, MAX_TEXT, parse_expression
from headflow.certificates.claims.names import LambdaC
from headflow.certificates.claims.problems import ExpressionError
from headflow.certificates.errors import InputError
from headflow.certificates.inert import Exp, Log, RealPower, W, inert
from headflow.identities import closed_forms
from hypothesis import given, settings
from hypothesis import strategies as st

x = sp.Symbol("x", positive=True)
n, beta = sp.symbols("n beta", positive=True)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0.1", sp.Rational(1, 10)),
        ("1e-3", sp.Rational(1, 1000)),
        ("2.5e2", sp.Integer(250)),
        ("1/3 + 1/6", sp.Rational(1, 2)),
        ("-x**2", -(x**2)),
        ("+x - 2*x", -x),
        ("2**0.5", RealPower(2, sp.Rational(1, 2))),
        ("exp(log(x))", Exp(Log(x))),  # as written: it is x only where x > 0, which no rewrite assumes
        ("golden", closed_forms.golden),
        ("pi + e", sp.pi + sp.E),
        ("c_star(2)", closed_forms.c_star(2)),
        ("beta_star(2, n, 1)", closed_forms.beta_star(2, n, 1)),
        ("rate(x, n, beta)", closed_forms.rate(x, n, beta)),
        ("lambda_max(n, beta)", closed_forms.lambda_max(n, beta)),
        ("lambertw(1)", W(1)),
        ("lambda_c(n, beta)", LambdaC(n, beta)),
        ("  sqrt(4)  ", sp.Integer(2)),
    ],
)
def test_accepted_expressions_mean_exactly_this(text: str, expected: sp.Expr) -> None:
    """The inert form of the formula (`headflow.certificates.inert`): the closed forms with their arguments put in."""
    assert parse_expression(text, {"x": x, "n": n, "beta": beta}) == inert(expected)


def test_decimal_literals_are_exact_not_binary_floats() -> None:
    value = parse_expression("0.1 + 0.2")
    assert value == sp.Rational(3, 10)
    assert value.is_Rational


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("__import__('os')", "underscore"),
        ("().__class__", "attribute"),
        ("x.real", "attribute"),
        ("exp.__globals__", "attribute"),
        ("x.a.b.c", "attribute"),
        ("x[0]", "subscripts"),
        ("lambda: 1", "lambda"),
        ("[i for i in (1, 2)]", "comprehensions"),
        ("(i for i in x)", "comprehensions"),
        ("f'{x}'", "strings"),
        ("'text'", "str literals"),
        ("x < 1", "comparisons"),
        ("x and 1", "boolean"),
        ("1 if x else 2", "conditional"),
        ("(y := 2)", "assignment"),
        ("exp(x=1)", "keyword"),
        ("exp(*x)", "starred"),
        ("exp(1, 2)", "takes 1 argument"),
        ("rate(1, 2)", "takes 3 arguments"),
        ("foo(1)", "unknown name 'foo'"),
        ("y", "unknown name 'y'"),
        ("exp", "is a function"),
        ("x(1)", "not a function"),
        ("x // 2", "FloorDiv"),
        ("x % 2", "Mod"),
        ("~x", "Invert"),
        ("1j", "complex"),
        ("True", "bool"),
        ("0x1F", "unsupported numeric literal"),
        ("9**9**9", "exponent"),
        ("10**100000", "exponent"),
        ("(2**1000)**1000", "too large"),
        ("1e500", "out of range"),
        ("1" * 101, "larger than 1e100"),
        ("1/0", "division by zero"),
        ("0**-1", "division by zero"),
        ("log(0)", "undefined"),
        ("1 +", "syntax error"),
        ("", "empty"),
        ("x" * (MAX_TEXT + 1), "longer than"),
        ("(" * 1000 + "x" + ")" * 1000, "longer than"),
        ("(" * (MAX_DEPTH + 1) + "x" + ")" * (MAX_DEPTH + 1), "nested deeper"),
        ("-" * 500 + "x", "syntax nodes"),
        ("+".join(["x"] * 70), "nested deeper"),
    ],
)
def test_hostile_or_invalid_text_is_refused_with_a_reason(text: str, fragment: str) -> None:
    with pytest.raises(ExpressionError) as info:
        parse_expression(text, {"x": x})
    assert fragment in info.value.reason


def test_errors_point_at_the_offending_column() -> None:
    with pytest.raises(ExpressionError) as info:
        parse_expression("1 + 2 * foo", {})
    assert info.value.column == 9
    with pytest.raises(ExpressionError) as info:
        parse_expression("  exp(x).real", {"x": x})
    assert info.value.column == 3


def test_non_string_input_is_refused() -> None:
    with pytest.raises(ExpressionError):
        parse_expression(3, {})  # type: ignore[arg-type]


def test_nothing_is_executed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "pwned"
    attempts = [
        f"__import__('os').system('touch {target}')",
        f"open('{target}', 'w')",
        f"exp.__globals__['__builtins__']['open']('{target}', 'w')",
        f"[c for c in ().__class__.__base__.__subclasses__()][0]('{target}')",
    ]
    for text in attempts:
        with pytest.raises(InputError):
            parse_expression(text, {})
    assert not target.exists()


_ALPHABET = st.sampled_from(
    ["x", "n", "1", "0", "2.5", "1e9", "e", "pi", "golden", "(", ")", "+", "-", "*", "/", "**", ",", " ", ".",
     "[", "]", "_", "'", "lambda", "exp(", "log(", "sqrt(", "c_star(", "rate(", "lambda_c(", "lambertw(",
     "__class__", "=", ":", "<", "if", "for", "9**9", "@", "%"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=80))
def test_fuzz_random_text_raises_only_input_error(text: str) -> None:
    try:
        result = parse_expression(text, {"x": x, "n": n})
    except InputError:
        return
    assert isinstance(result, sp.Expr)


@settings(max_examples=600, deadline=None)
@given(st.lists(_ALPHABET, max_size=30).map("".join))
def test_fuzz_grammar_like_text_raises_only_input_error(text: str) -> None:
    try:
        result = parse_expression(text, {"x": x, "n": n})
    except InputError:
        return
    assert isinstance(result, sp.Expr)
    assert not result.has(sp.zoo, sp.nan)
