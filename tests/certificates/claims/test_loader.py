"""Claims-file schema: every kind validated, every mistake one located InputError."""

from __future__ import annotations

import textwrap

import pytest
import sympy as sp
from headflow.certificates.claims.loader import load_claims, parse_claims
from headflow.certificates.claims.problems import ClaimsFileError
from headflow.certificates.claims.schema import ConstantClaim, DynamicsClaim, IdentityClaim, InequalityClaim
from headflow.certificates.errors import InputError
from headflow.certificates.inert import Log, Sqrt


def claims(text: str) -> list:
    return parse_claims(textwrap.dedent(text), "test.toml")


def error(text: str) -> ClaimsFileError:
    with pytest.raises(ClaimsFileError) as info:
        claims(text)
    assert isinstance(info.value, InputError)
    assert "\n" not in str(info.value)
    return info.value


def test_example_file_loads_every_kind() -> None:
    loaded = load_claims("examples/user.toml")
    kinds = {type(c) for c in loaded}
    assert kinds == {IdentityClaim, ConstantClaim, InequalityClaim, DynamicsClaim}
    assert all(c.line is not None for c in loaded)


def test_identity_symbols_carry_assumptions_implied_by_their_domains() -> None:
    (claim,) = claims(
        """
        [[claim]]
        id = "a"
        kind = "identity"
        lhs = "sqrt(x**2) + n + y + t"
        rhs = "x + n + y + t"
        symbols = { x = "positive", n = "integer>=2", y = "[-1, 1]", t = "(0, 1)" }
        """
    )
    facts = {str(s): claim.domains[s].assumptions() for s in claim.order}
    assert facts["x"] == {"real": True, "positive": True}
    assert facts["n"] == {"integer": True, "positive": True}
    assert facts["y"] == {"real": True}
    assert facts["t"]["positive"]
    x = next(s for s in claim.order if s.name == "x")
    assert claim.lhs - claim.rhs == Sqrt(x**2) - x  # no rewrite by the assumption x > 0: a route must prove it


def test_bounds_that_are_not_rational_imply_no_assumption() -> None:
    (claim,) = claims(
        """
        [[claim]]
        id = "a"
        kind = "identity"
        lhs = "x"
        rhs = "x"
        symbols = { x = { min = "lambda_c(2, 1) - 2", max = "sqrt(2)" } }
        """
    )
    assert claim.domains[claim.order[0]].assumptions() == {"real": True}


def test_constant_interval_is_half_a_unit_of_the_last_digit() -> None:
    (claim,) = claims(
        """
        [[claim]]
        id = "c"
        kind = "constant"
        expr = "pi"
        value = "3.1416"
        digits = 5
        """
    )
    assert (claim.low, claim.high) == (sp.Rational(314155, 100000), sp.Rational(314165, 100000))


def test_inequality_domain_with_dependent_bounds() -> None:
    (claim,) = claims(
        """
        [[claim]]
        id = "i"
        kind = "inequality"
        lhs = "l1"
        op = ">"
        rhs = "0"
        domain = { n = { min = 2, max = 9, integer = true }, beta = "positive", l1 = { min = "lambda_c(n, beta)" } }
        """
    )
    assert [str(s) for s in claim.order][-1] == "l1"
    assert claim.domains[claim.order[-1]].dependencies() == {"n", "beta"}


def test_dynamics_options_are_validated_and_targets_bound_to_the_options() -> None:
    (claim,) = claims(
        """
        [[claim]]
        id = "d"
        kind = "dynamics"
        quantity = "attention_entropy"
        property = "tends-to"
        limit = "log(n)"
        heads = "scalar"
        lambdas = [1, 2]
        tokens = "equiangular"
        rho = 0.5
        n = 4
        d = 4
        beta = 1
        """
    )
    assert claim.options["H"] == 2 and claim.options["attention"] == "usa"
    assert claim.target == Log(4)


_IDENTITY = """
[[claim]]
id = "ok"
kind = "identity"
lhs = "1"
rhs = "1"

[[claim]]
id = "bad"
kind = "identity"
lhs = "x + 1"
rhs = {rhs}
symbols = {{ x = "real" }}
"""


@pytest.mark.parametrize(
    ("rhs", "line", "column", "fragment"),
    [
        ('"x + foo"', 12, 12, "unknown name 'foo'"),
        ('"x.__class__"', 12, 8, "attribute"),
        ("3", 12, 7, "must be a string"),
    ],
)
def test_errors_name_claim_line_and_column(rhs: str, line: int, column: int | None, fragment: str) -> None:
    exc = error(_IDENTITY.format(rhs=rhs))
    assert (exc.claim_id, exc.key, exc.line, exc.column) == ("bad", "rhs", line, column)
    assert fragment in str(exc)
    assert str(exc).startswith(f"test.toml:{line}")


@pytest.mark.parametrize(
    ("body", "key", "fragment"),
    [
        ('kind = "identity"\nlhs = "1"', "id", "missing"),
        ('id = "a"\nlhs = "1"\nrhs = "1"', "kind", "missing"),
        ('id = "a"\nkind = "theorem"', "kind", "unknown kind"),
        ('id = "a"\nkind = "identity"\nlhs = "1"', "rhs", "missing"),
        ('id = "a"\nkind = "identity"\nlhs = "1"\nrhs = "1"\nextra = 1', "extra", "unknown key"),
        ('id = 5\nkind = "identity"', "id", "non-empty string"),
        ('id = "a b"\nkind = "identity"', "id", "ids are"),
        ('id = "a"\nkind = "identity"\nlhs = "1"\nrhs = "1"\nsymbols = ["x"]', "symbols", "table"),
        (
            'id = "a"\nkind = "identity"\nlhs = "x"\nrhs = "x"\nsymbols = { x = "complex" }',
            "symbols.x",
            "unknown domain",
        ),
        ('id = "a"\nkind = "identity"\nlhs = "x"\nrhs = "x"\nsymbols = { x = "[2, 1]" }', "symbols.x", "empty domain"),
        ('id = "a"\nkind = "identity"\nlhs = "1"\nrhs = "1"\nsymbols = { exp = "real" }', "symbols.exp", "built-in"),
        ('id = "a"\nkind = "identity"\nlhs = "1"\nrhs = "1"\nsymbols = { __x = "real" }', "symbols.__x", "symbol name"),
        ('id = "a"\nkind = "identity"\nlhs = "1"\nrhs = "1"\nsymbols = { if = "real" }', "symbols.if", "keyword"),
        ('id = "a"\nkind = "constant"\nexpr = "pi"\nvalue = 3.14\ndigits = 3', "value", "decimal string"),
        ('id = "a"\nkind = "constant"\nexpr = "pi"\nvalue = "3,14"\ndigits = 3', "value", "not a decimal"),
        ('id = "a"\nkind = "constant"\nexpr = "pi"\nvalue = "3.14"\ndigits = "3"', "digits", "integer"),
        ('id = "a"\nkind = "constant"\nexpr = "pi"\nvalue = "3.14"\ndigits = 0', "digits", "integer"),
        ('id = "a"\nkind = "constant"\nexpr = "x"\nvalue = "3.14"\ndigits = 3', "expr", "unknown name"),
        ('id = "a"\nkind = "inequality"\nlhs = "x"\nop = "=="\nrhs = "1"', "op", "expected one of"),
        ('id = "a"\nkind = "inequality"\nlhs = "x"\nop = "<"\nrhs = "1"', "lhs", "unknown name 'x'"),
        (
            'id = "a"\nkind = "inequality"\nlhs = "x"\nop = "<"\nrhs = "1"\n'
            'domain = { x = { min = "y" }, y = { min = "x" } }',
            "domain",
            "cycle",
        ),
        (
            'id = "a"\nkind = "inequality"\nlhs = "x"\nop = "<"\nrhs = "1"\ndomain = { x = { min = 0, step = 1 } }',
            "domain.x",
            "unknown keys",
        ),
        ('id = "a"\nkind = "dynamics"\nquantity = "energy"', "beta", "missing"),
        (
            'id = "a"\nkind = "dynamics"\nquantity = "mass"\nproperty = "non-negative"\n'
            'n = 3\nd = 3\nbeta = 1\nheads = "random-symmetric"\ntokens = "random-sphere"',
            "quantity",
            "expected one of",
        ),
        (
            'id = "a"\nkind = "dynamics"\nquantity = "energy"\nproperty = "non-negative"\n'
            'n = 1\nd = 3\nbeta = 1\nheads = "random-symmetric"\ntokens = "random-sphere"',
            "n",
            "integer from 2",
        ),
        (
            'id = "a"\nkind = "dynamics"\nquantity = "energy"\nproperty = "non-negative"\n'
            'n = 3\nd = 3\nbeta = 0\nheads = "random-symmetric"\ntokens = "random-sphere"',
            "beta",
            "undefined at beta = 0",
        ),
        (
            'id = "a"\nkind = "dynamics"\nquantity = "energy"\nproperty = "non-negative"\n'
            'n = 3\nd = 3\nbeta = 1\nheads = "scalar"\ntokens = "random-sphere"',
            "lambdas",
            "missing",
        ),
        (
            'id = "a"\nkind = "dynamics"\nquantity = "energy"\nproperty = "tends-to"\n'
            'n = 3\nd = 3\nbeta = 1\nheads = "random-symmetric"\ntokens = "random-sphere"',
            "limit",
            "missing",
        ),
        (
            'id = "a"\nkind = "dynamics"\nquantity = "energy"\nproperty = "non-negative"\n'
            'n = 5\nd = 3\nbeta = 1\nheads = "random-symmetric"\ntokens = "orthogonal"',
            "d",
            "d >= n",
        ),
    ],
)
def test_schema_mistakes_are_one_clear_error(body: str, key: str, fragment: str) -> None:
    exc = error("[[claim]]\n" + body + "\n")
    assert exc.key == key
    assert fragment in str(exc)
    assert exc.line is not None


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("this is not toml", "not valid TOML"),
        ("", "no claims"),
        ("title = 'x'\n", "unknown top-level key"),
        ("claim = 3\n", "no claims"),
        ('[[claim]]\nid = "a"\nkind = "identity"\nlhs = "1"\nrhs = "1"\n' * 2, "duplicate claim id"),
        ("x = " + "[" * 5000 + "]" * 5000, "TOML"),
    ],
)
def test_file_level_mistakes(text: str, fragment: str) -> None:
    assert fragment in str(error(text))


def test_unreadable_and_non_utf8_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ClaimsFileError, match="cannot read"):
        load_claims(tmp_path / "missing.toml")
    path = tmp_path / "latin1.toml"
    path.write_bytes(b"# caf\xe9\n")
    with pytest.raises(ClaimsFileError, match="UTF-8"):
        load_claims(path)
