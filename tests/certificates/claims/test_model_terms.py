"""The model-term grammar of `model` claims: parsed with a whitelist, typed, located errors, nothing evaluated."""

from __future__ import annotations

from fractions import Fraction

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.model_claim import parse_term
from headflow.certificates.claims.problems import ClaimsFileError, ExpressionError
from headflow.certificates.kernel.model_terms import term_text

from tests.command import headflow


def test_terms_are_typed_and_indices_tracked() -> None:
    term = parse_term("sum_i(T_h_i - a_h_i * A_h_i) / n**3 + 1/2 * E_h")
    assert term.free == frozenset({"h"})
    assert parse_term("inner(f_h_i, x_i)").free == frozenset({"i", "h"})
    assert parse_term("sum_h(sum_i(a_h_i))").free == frozenset()
    assert parse_term("0.25").args == (Fraction(1, 4),)  # exact, from the text
    assert term_text(parse_term("norm2(proj(f_h_i))")) == "norm2(proj(f_h_i))"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("x_i", "not a vector"),
        ("inner(x_i, 1)", "takes vectors"),
        ("a_h_i / T_h_i", "divide only"),
        ("E / (n - 2)", "divide only"),
        ("E / 0", "divide only"),
        ("T_h_i ** 0.5", "exponent"),
        ("T_h_i ** 9", "exponent"),
        ("x_i * x_i", "cannot be multiplied"),
        ("x_i + 1", "cannot be added"),
        ("sum_i(sum_i(a_h_i))", "do not nest"),
        ("sum_i(x_i)", "not a vector"),
        ("s_h_ij", "index j is not bound"),
        ("sum_i(f_g_i)", "not a vector"),
        ("sum_i(a_g_i)", "index g is not bound"),
        ("sum_j(s_h_ik)", "unknown name"),
        ("x_g", "unknown name"),
        ("__import__", "unknown name"),
        ("exp(E)", "unknown function"),
        ("inner(x_i, x_i, x_i)", "takes 2"),
        ("E.real", "not allowed"),
        ("E # comment", "comment"),
        ("E if E else E", "not allowed"),
    ],
)
def test_outside_the_grammar_is_a_located_error(text: str, reason: str) -> None:
    with pytest.raises(ExpressionError) as caught:
        parse_term(text)
    assert reason in str(caught.value)


def claim(**fields: str | list[str]) -> str:
    base = {"id": "c", "kind": "model", "lhs": "E", "op": ">", "rhs": "0"} | fields
    lines = [f"{k} = {v!r}".replace("'", '"') for k, v in base.items()]
    return "[[claim]]\n" + "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("fields", "key"),
    [
        ({"op": "=="}, "op"),
        ({"assume": ["symmetric"]}, "assume"),
        ({"assume": ["aligned-values", "aligned-values"]}, "assume"),
        ({"attention": "linear"}, "attention"),
        ({"geometry": "torus"}, "geometry"),
        ({"given": ["a_h_i"]}, "given"),
        ({"given": ["a_h_i <= sqrt(2)"]}, "given"),
        ({"lhs": "E_h +"}, "lhs"),
    ],
)
def test_bad_fields_name_the_field(fields: dict, key: str) -> None:
    with pytest.raises(ClaimsFileError) as caught:
        parse_claims(claim(**fields), "t.toml")
    assert key in str(caught.value)


def test_cli_refuses_a_bad_model_claim_in_one_line(tmp_path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(claim(lhs="inner(x_i, f_h_i) / a_h_i"))
    done = headflow("check", str(path))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "divide only" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_statement_names_every_quantifier() -> None:
    (c,) = parse_claims(claim(lhs="dE_h_dt", op=">=", given=["condition8"], assume=["orthogonal-heads"]), "t.toml")
    assert "every head h" in c.statement and "at every token i" in c.statement and "unit-tokens" in c.statement
