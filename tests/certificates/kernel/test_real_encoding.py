"""The polynomial encoding of real claims: Taylor cuts validated with balls, guarded facts, z3 models as points."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
import sympy as sp
from flint import fmpq_mpoly_ctx
from headflow.certificates.kernel.exprtree import Tree, exact_rational
from headflow.certificates.kernel.real_encoding import MAX_CUT_POINT, CutError, Encoding, NotEncodable, cut_fact
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.provers.smt import RLIMIT, decide, solve
from headflow.certificates.provers.smt_refinement import Cut, model_cuts, polynomial, products, refine
from headflow.certificates.statements.registry import SmtStatement

x = sp.Symbol("x", real=True)
X = ["sym", "x"]


def _variable(name: str, low: str | None = None, integer: bool = False) -> dict:
    bound = None if low is None else ["rat", low]
    return {"name": name, "integer": integer, "low": bound, "low_open": False, "high": None, "high_open": False}


def _encoding(lhs: Tree, op: str, rhs: Tree, variables: list[dict], conditions: list | None = None) -> Encoding:
    """The encoding of the statement `for all variables: lhs op rhs` (the fields `real_encoding.Encoding` reads)."""
    statement = {"variables": variables, "lhs": lhs, "op": op, "rhs": rhs, "conditions": conditions or []}
    return Encoding(statement)


def _exp_claim(rhs: Tree, low: str | None) -> Encoding:
    """exp(x) >= rhs (for x >= low when low is given)."""
    return _encoding(["exp", X], ">=", rhs, [_variable("x", low)])


def _answer(encoding: Encoding, cuts: list[dict] | None = None) -> str:
    return solve(encoding.problem(cuts or []), encoding.constants).status


def _fact(cut: Cut, atoms: int = 1) -> list:
    """The fact the kernel makes of the cut's data on `atoms` atoms exp(x), exp(x + 1), ..."""
    return cut_fact(cut.data(), [(["sym", f"e{k}"], ["add", X, ["rat", str(k)]]) for k in range(atoms)])


def _holds(formula: Tree, values: dict[str, Fraction]) -> bool:
    """The truth of a formula tree of relations, and, implies at a rational point."""
    op, args = formula[0], formula[1:]
    if op == "and":
        return all(_holds(a, values) for a in args)
    if op == "implies":
        return not _holds(args[0], values) or _holds(args[1], values)
    left, right = (exact_rational(a, values) for a in args)
    return {"<=": left <= right, ">=": left >= right}[op]


SECOND_ORDER = ["add", ["rat", "1"], X, ["mul", ["rat", "1/2"], ["pow", X, 2]]]


@pytest.mark.parametrize(
    "cut",
    [
        Cut("lower", 0, 1, Fraction(0), Fraction(1)),  # exp(x) >= 1 + x
        Cut("lower", 0, 15, Fraction(3, 2), Fraction(448168907033806, 10**14)),  # exp(3/2) = 4.4816890703380645...
        Cut("upper", 0, 3, Fraction(-1), Fraction(36787944117, 10**11)),  # exp(x) L T_3(-x + 1) <= 1, L <= 1/e
    ],
)
def test_true_cuts_are_accepted(cut: Cut) -> None:
    fact = _fact(cut)
    assert fact[0] == (">=" if cut.kind == "lower" else "<=")


@pytest.mark.parametrize(
    ("cut", "why"),
    [
        (Cut("lower", 0, 1, Fraction(0), Fraction(1001, 1000)), "not in "),  # above exp(0) = 1
        (Cut("lower", 0, 1, Fraction(1), Fraction(2719, 1000)), "not in "),  # e = 2.71828... < 2.719
        (Cut("lower", 0, 1, Fraction(-1), Fraction(1)), "not in "),  # the right factor at the wrong point
        (Cut("lower", 0, 1, Fraction(0), Fraction(0)), "not in "),
        (Cut("lower", 0, 2, Fraction(0), Fraction(1)), "degree"),  # even: T_2 is not below exp for x < 0
        (Cut("lower", 1, 1, Fraction(0), Fraction(1)), "atom"),
        (Cut("lower", 0, 1, MAX_CUT_POINT + 1, Fraction(1)), "point"),
        (Cut("upper", 0, 3, Fraction(1), Fraction(2719, 1000)), "not in "),  # an upper cut's factor is below exp(t)
        (Cut("upper", 0, 3, Fraction(-1), Fraction(3679, 10**4)), "not in "),  # 1/e = 0.36787... < 0.3679
    ],
)
def test_false_or_malformed_cuts_are_rejected(cut: Cut, why: str) -> None:
    with pytest.raises(CutError, match=re.escape(why)):
        _fact(cut)


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "lower", "atom": 0, "degree": 1, "at": "0", "factor": "1", "radius": "1"},
        {"kind": "upper", "atom": 0, "degree": 1, "at": "0"},
        {"kind": "sideways", "atom": 0, "degree": 1, "at": "0", "factor": "1"},
        {"kind": "lower", "atom": True, "degree": 1, "at": "0", "factor": "1"},
        {"kind": "lower", "atom": 0, "degree": 1.0, "at": "0", "factor": "1"},
        {"kind": "lower", "atom": 0, "degree": True, "at": "0", "factor": "1"},
        {"kind": "lower", "atom": 0, "degree": 1, "at": 0.5, "factor": "1"},
        {"kind": "lower", "atom": 0, "degree": 1, "at": "1/0", "factor": "1"},
        {"kind": "lower", "atom": 0, "degree": 1, "at": "0", "factor": "9" * 300},
        {"kind": "lower", "atom": 0, "degree": 1, "at": "1/" + "3" * 250, "factor": "1/2"},  # long, though small
        {"kind": "lower", "atom": 0, "degree": 1, "at": "0", "factor": ["1"]},
        {"kind": "product", "atoms": [0]},
        {"kind": "product", "atoms": [0, 0, 0, 0]},
        {"kind": "product", "atoms": [0, 2]},
        {"kind": "product", "atoms": [0, True]},
        {"kind": "product", "atoms": "01"},
        {"kind": "product", "atoms": [0, 1], "at": "0"},
        ["lower", 0, 1, "0", "1"],
    ],
)
def test_malformed_cut_data_is_refused(data: object) -> None:
    with pytest.raises(Rejected):
        cut_fact(data, [(["sym", "e0"], X), (["sym", "e1"], ["mul", ["rat", "-1"], X])])


def test_a_product_is_a_guarded_fact_so_a_false_one_proves_nothing() -> None:
    """A product names atoms whose arguments need not add up: its fact is guarded by the sum, so the forged products
    exp(2x) exp(2x) = exp(x) and exp(x) exp(x) = 1 (true only at x = 0) do not prove exp(2x) = exp(x); the true one
    exp(x) exp(x) = exp(2x) proves exp(2x) = exp(x)^2."""
    encoding = _encoding(["exp", ["mul", ["rat", "2"], X]], "=", ["exp", X], [_variable("x")])
    assert cut_fact({"kind": "product", "atoms": [1, 1, 0]}, [(["sym", "e0"], "a"), (["sym", "e1"], "b")]) == [
        "implies",
        ["=", ["add", "b", "b"], "a"],
        ["=", ["mul", ["sym", "e1"], ["sym", "e1"]], ["sym", "e0"]],
    ]
    assert _answer(encoding, [{"kind": "product", "atoms": [0, 0, 1]}, {"kind": "product", "atoms": [1, 1]}]) == "sat"
    square = _encoding(["exp", ["mul", ["rat", "2"], X]], "=", ["pow", ["exp", X], 2], [_variable("x")])
    assert _answer(square, [{"kind": "product", "atoms": [1, 1, 0]}]) == "unsat"


def test_the_problem_refuses_an_invalid_cut() -> None:
    with pytest.raises(CutError):
        _exp_claim(["add", ["rat", "1"], X], None).problem([Cut("lower", 0, 1, Fraction(0), Fraction(2)).data()])


def test_facts_of_partial_operations_hold_only_under_their_guards() -> None:
    """1/x, sqrt(x) and log(x): their facts are implications from where they are defined, and a goal proved
    with their guards is proved with its sides defined (so sqrt(x) >= 0 over all reals is not provable)."""
    sides = ["add", ["sqrt", X], ["log", ["add", X, ["rat", "2"]]], ["div", ["rat", "1"], ["sub", X, ["rat", "1"]]]]
    encoding = _encoding(sides, ">=", ["rat", "-100"], [_variable("x")])
    assert len(encoding.guards) == 3
    assert len(encoding.facts) == 3 and all(f[0] == "implies" for f in encoding.facts)
    assert _answer(_encoding(["sqrt", X], ">=", ["rat", "0"], [_variable("x")])) == "sat"  # x < 0
    assert _answer(_encoding(["sqrt", X], ">=", ["rat", "0"], [_variable("x", "0")])) == "unsat"


def test_exp_arguments_that_add_up_are_found_by_exact_polynomial_identity() -> None:
    """exp(x + 1) exp(-x - 1) = 1 and exp(2x) = exp(x)^2 are proved with the products the prover finds where the
    arguments add up as polynomials, written differently ((x + 1)*1 against 1 + x); exp(x) exp(x) = exp(x**2) has
    none; without them the solver has only monotonicity."""
    one = ["rat", "1"]
    lhs = ["mul", ["exp", ["mul", ["add", X, one], one]], ["exp", ["sub", ["neg", X], one]]]
    inverse = _encoding(lhs, "=", one, [_variable("x")])
    assert products(inverse) == [{"kind": "product", "atoms": [0, 1]}]
    assert _answer(inverse, products(inverse)) == "unsat"
    double = _encoding(["exp", ["mul", ["rat", "2"], X]], "=", ["pow", ["exp", X], 2], [_variable("x")])
    assert _answer(double, products(double)) == "unsat"
    assert _answer(double) == "sat"
    square = _encoding(["exp", ["pow", X, 2]], "=", ["pow", ["exp", X], 2], [_variable("x")])
    assert products(square) == [] and _answer(square) == "sat"
    assert (
        polynomial(["sub", ["pow", ["add", X, one], 2], ["add", ["pow", X, 2], ["mul", ["rat", "2"], X], one]], ("x",))
        == 0
    )
    assert polynomial(["exp", X], ("x",)) is None


def test_unencodable_nodes_are_refused() -> None:
    malformed = (["rpow", X, ["rat", "1/2", "3"]], ["rpow", X, ["rat"]], ["sym", "x", "y"], ["sym"], ["rat", "1", "2"])
    for tree in (["sin", X], ["rpow", X, ["rat", "1/100"]], ["sym", "z"], *malformed):
        with pytest.raises(NotEncodable):
            _encoding(tree, ">=", ["rat", "0"], [_variable("x"), _variable("y")])


def test_a_symbolic_exponent_is_exp_of_q_log_b() -> None:
    """x**y is read as exp(y log x), as `exprtree` evaluates it: one atom for log x (exp(l) = x, guarded by x > 0),
    one for exp(y l)."""
    encoding = _encoding(["rpow", X, ["sym", "y"]], ">=", ["rat", "0"], [_variable("x"), _variable("y")])
    assert [argument for _, argument in encoding.exponentials][1] == ["mul", ["sym", "y"], encoding.exponentials[0][1]]


LAMBDA_MAX = ["lambda_max", ["sym", "n"], ["sym", "beta"]]
#: phi'(l) <= 0 beyond lambda_max: (1 - beta l) e^(beta l) + n - 1, exactly 0 on the bound l = lambda_max(n, beta).
TANGENT = ["add", ["mul", ["sub", ["rat", "1"], ["mul", ["sym", "beta"], ["sym", "l"]]],
           ["exp", ["mul", ["sym", "beta"], ["sym", "l"]]]], ["sym", "n"], ["rat", "-1"]]  # fmt: skip


def _tangent(op: str, rhs: str, low: Tree = LAMBDA_MAX) -> Encoding:
    """`TANGENT op rhs` for integers n in [2, 6], beta in [1/2, 2] and l in [low, 8]."""
    bounds = {"n": (["rat", "2"], ["rat", "6"]), "beta": (["rat", "1/2"], ["rat", "2"]), "l": (low, ["rat", "8"])}
    variables = [
        {"name": name, "integer": name == "n", "low": lo, "low_open": False, "high": hi, "high_open": False}
        for name, (lo, hi) in bounds.items()
    ]
    return _encoding(TANGENT, op, ["rat", rhs], variables)


def test_a_claim_tight_on_lambda_max_is_proved_through_its_equation_without_cuts() -> None:
    """lambda_max is u/beta with (u - 1) e^u = n - 1 (not 1 + W((n - 1)/e), whose atom exp(W) says nothing of
    exp(beta l)): the claim, 0 on the bound, is proved with no cut; shifted by -1/1000, reversed or on a lower bound
    it is not."""
    assert _answer(_tangent("<=", "0")) == "unsat"
    assert _answer(_tangent("<=", "-1/1000")) == "sat"
    assert _answer(_tangent(">=", "0")) == "sat"
    assert _answer(_tangent("<=", "0", low=["sub", LAMBDA_MAX, ["rat", "1/10"]])) == "sat"


def test_lambda_max_facts_hold_only_where_it_is_defined() -> None:
    """lambda_max(n, 1) = 1 + W((n - 1)/e) is defined for n >= 0 only, and is >= 1 only for n >= 1: its facts are
    guarded, so neither lambda_max(n, 1) >= 0 from n >= -1 nor lambda_max(n, 1) >= 1 from n >= 0 is proved."""
    value = ["lambda_max", ["sym", "n"], ["rat", "1"]]
    assert _answer(_encoding(value, ">=", ["rat", "0"], [_variable("n", "0")])) == "unsat"
    assert _answer(_encoding(value, ">=", ["rat", "0"], [_variable("n", "-1")])) == "sat"
    assert _answer(_encoding(value, ">=", ["rat", "1"], [_variable("n", "1")])) == "unsat"
    assert _answer(_encoding(value, ">=", ["rat", "1"], [_variable("n", "0")])) == "sat"


def test_integer_constants_are_declared_int() -> None:
    n = ["sym", "n"]
    integers = _encoding(["pow", n, 2], ">=", n, [_variable("n", integer=True)])
    text = integers.problem([])
    assert "(set-logic QF_NIRA)" in text and "() Int)" in text
    assert _answer(integers) == "unsat"  # false over the reals (n = 1/2), true over the integers
    assert _answer(_encoding(["pow", n, 2], ">=", n, [_variable("n")])) == "sat"


def test_a_model_gives_rational_points_also_for_algebraic_values() -> None:
    """z3 answers sqrt(2) as an algebraic number: the point holds a close rational, marked in the model text."""
    statement = SmtStatement("root", "x^2 = 2 implies x < 0", (x,), (sp.Eq(x**2, 2),), x < 0)
    result = decide(statement)
    assert result.status == "sat"
    assert abs(result.point["x"] - Fraction(14142135623730950488, 10**19)) < Fraction(1, 10**18)


def test_exp_tight_at_zero_to_second_order_needs_and_gets_a_cut_at_zero() -> None:
    """exp(x) >= 1 + x + x^2/2 for x >= 0: tangents elsewhere never suffice; the refinement raises the
    degree of the cut at 0, where exp is exactly 1."""
    result = refine(_exp_claim(SECOND_ORDER, "0"), lambda values: None, RLIMIT)
    assert result.status == "proved", result.reason
    assert any(c.kind == "lower" and c.at == 0 and c.degree >= 3 for c in result.cuts)


def test_a_false_exp_claim_is_never_proved_and_its_model_is_offered() -> None:
    """exp(x) >= 1 + x + x^2/2 over all reals is false (x = -1): refinement returns the caller's witness."""

    def falsifies(values: dict[str, Fraction]) -> dict | None:
        value = values["x"]
        return {"x": str(value)} if value < 0 and sp.exp(value) < 1 + value + value**2 / 2 else None

    result = refine(_exp_claim(SECOND_ORDER, None), falsifies, RLIMIT)
    assert result.status == "counterexample" and Fraction(result.witness["x"]) < 0


def test_model_cuts_remove_the_model() -> None:
    """At a model where the atom is below exp of its argument, the new lower cuts are violated by the model."""
    encoding = _exp_claim(["add", ["rat", "1"], X], None)
    (((_, name), _),) = atoms = encoding.exponentials
    values = {"x": Fraction(2), name: Fraction(3)}  # exp(2) = 7.39 > 3
    cuts = model_cuts(encoding, values, [])
    assert cuts and all(c.kind == "lower" for c in cuts)
    for cut in cuts:
        assert not _holds(cut_fact(cut.data(), atoms), values)
    too_large = {"x": Fraction(2), name: Fraction(8)}
    (upper,) = model_cuts(encoding, too_large, [])
    assert upper.kind == "upper" and not _holds(cut_fact(upper.data(), atoms), too_large)


def test_nested_powers_of_constants_are_not_expanded_past_the_coefficient_bound() -> None:
    """A hostile statement of a few nodes, ((10 x)^64)^64)^64..., has coefficients of 64^depth digits (depth 4 took
    the prover 11 s, depth 5 hours): past MAX_COEFFICIENT_BITS it is not expanded (None), below it is."""
    tree: list = ["mul", ["sym", "x"], ["rat", "10"]]
    for depth in range(1, 6):  # depth 1 and 2 expand; from 3 on the coefficients pass the bound
        tree = ["pow", tree, 64]
        expanded = polynomial(tree, ("x",))
        assert (expanded is None) == (depth >= 3), depth
    (x,) = fmpq_mpoly_ctx.get(("x",)).gens()
    assert polynomial(["pow", ["mul", ["sym", "x"], ["rat", "10"]], 64], ("x",)) == (10 * x) ** 64
