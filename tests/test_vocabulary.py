"""One vocabulary: the names of the constants, model quantities, hypotheses and families are each defined once.

Adding a constant is one row of `headflow.certificates.constant_specs.QUANTITIES`: the claims-file language, the
`headflow constants` command, the certified balls, mpmath's cross-check and the tables all follow it.
Model quantities and hypotheses are one table each in `certificates`, which the checker, the witnesses,
the recorder and the dynamics claims share; every named family of `headflow.certificates.families` has one draw in
`checks.model.families`, which draws exactly the hypotheses it declares (so the searches and the verifier agree).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from headflow.certificates.claims import evaluation, names
from headflow.certificates.claims.expressions import parse_expression
from headflow.certificates.constant_specs import PARAMETERS, QUANTITIES
from headflow.certificates.families import (
    HEAD_FAMILIES,
    OPTIONS,
    SHORT_HEAD_NAMES,
    SHORT_TOKEN_NAMES,
    TOKEN_FAMILIES,
)
from headflow.certificates.inert import inert
from headflow.certificates.kernel.ball_model import HYPOTHESES, ExactConfiguration, hypothesis_failures
from headflow.certificates.model_quantities import CERTIFIED, MODEL_QUANTITIES, ball_value
from headflow.certificates.quantity_uses import (
    FIRST_TIME_OF,
    OF_TRAJECTORY,
    PARAMETER,
    RECORDED_AS,
    RESCALED,
    STATE_QUANTITIES,
    UNCLAIMED,
    fields_of,
)
from headflow.certificates.statements.registry import CONFIGURATIONS
from headflow.checks.commands import constants as constants_command
from headflow.checks.constants import certified as constants
from headflow.checks.constants import mpmath_reference
from headflow.checks.constants.mpmath_reference import REFERENCES, reference
from headflow.checks.constants.tables import render
from headflow.checks.model import families, family_table
from headflow.checks.model.configuration import Configuration
from headflow.checks.model.observables import EVALUATORS, shape
from headflow.identities import closed_forms
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.family_strategies import HEAD_STRATEGIES, TOKEN_STRATEGIES

ROOT = Path(__file__).resolve().parents[1]
ELEMENTARY = {"exp", "log", "sqrt", "pi", "e"}
#: A point inside every parameter's domain (written here, not taken from the table).
POINT = {"H": Fraction(3), "n": Fraction(7), "alpha": Fraction(1, 2), "beta": Fraction(2), "lam": Fraction(3, 4)}
POINT["x"] = Fraction(5, 2)
#: c8_exit_gap needs Condition 8 at the orthonormal start, (H - 1) exp(2 alpha beta) < n - 1: a smaller beta.
INSIDE = {"c8_exit_gap": {"beta": Fraction(1, 10)}}


def _point(quantity: str) -> dict[str, Fraction]:
    """POINT restricted to the quantity's parameters, moved into its domain where POINT is outside it."""
    return {p: POINT[p] for p in QUANTITIES[quantity].parameters} | INSIDE.get(quantity, {})


def test_the_claims_file_names_the_constants_of_the_table_and_no_other() -> None:
    assert {q for q in QUANTITIES if QUANTITIES[q].symbolic} == names.RESERVED - ELEMENTARY


#: The constants of the claims-file language (those with a SymPy form).
IN_CLAIMS = [q for q in QUANTITIES if QUANTITIES[q].symbolic]


@pytest.mark.parametrize("name", IN_CLAIMS)
def test_a_claims_file_expression_of_each_constant_has_its_certified_value(name: str) -> None:
    quantity = QUANTITIES[name]
    arguments = ", ".join(str(POINT[p]) for p in quantity.parameters)
    expr = parse_expression(f"{name}({arguments})" if quantity.parameters else name)
    enclosure = evaluation.ball(expr, {}, 256)
    certified = constants.compute(name, {p: POINT[p] for p in quantity.parameters}, digits=30)
    assert enclosure.overlaps(certified.ball)
    assert abs(float(enclosure.mid()) - float(certified.value)) <= 1e-12 * max(1.0, abs(float(certified.value)))


@pytest.mark.parametrize("name", IN_CLAIMS)
def test_the_arity_of_each_claims_file_function_is_its_parameter_count(name: str) -> None:
    parameters = QUANTITIES[name].parameters
    if not parameters:
        assert names.CONSTANTS[name] == inert(QUANTITIES[name].symbolic_form())  # its closed form, in inert form
        return
    too_many = ", ".join(["1"] * (len(parameters) + 1))
    with pytest.raises(Exception, match="argument"):
        parse_expression(f"{name}({too_many})")


def test_every_quantity_points_to_its_builder_and_has_exactly_one_reference() -> None:
    """The SymPy builders are objects of identities.closed_forms (LambdaC is the SymPy function itself), and
    mpmath's formulas are registered once per row, in the table's order: a row without a formula, or a formula
    without a row, fails."""
    assert QUANTITIES["lambda_c"].builder() is closed_forms.LambdaC
    assert QUANTITIES["c_star"].builder() is closed_forms.c_star
    assert all(q.builder() is not None for q in QUANTITIES.values() if q.symbolic)
    assert list(REFERENCES) == list(QUANTITIES)
    assert all(reference.quantity is QUANTITIES[name] for name, reference in REFERENCES.items())
    with pytest.raises(ValueError, match="not a quantity without a reference"):
        reference()(mpmath_reference.c_star)  # a second formula for c_star
    with pytest.raises(ValueError, match="not a quantity without a reference"):
        reference()(lambda mp, p: mp.mpf(1))  # no row named "<lambda>"
    assert list(REFERENCES) == list(QUANTITIES)
    assert {p for q in QUANTITIES.values() for p in q.parameters} == set(PARAMETERS)


def test_building_the_constants_command_loads_neither_sympy_nor_mpmath() -> None:
    """The table, the digit limits and the command's options load without SymPy or mpmath (fast to start)."""
    code = (
        "import sys, argparse\n"
        "from headflow.checks.commands import constants\n"
        "constants.add_arguments(argparse.ArgumentParser())\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'sympy', 'mpmath', 'identities'}))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert run.stdout.strip() == "[]"


def _arguments(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    constants_command.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_the_constants_command_offers_every_quantity_of_the_table() -> None:
    values = [f"--{p}={POINT[p]}" for p in PARAMETERS]
    rows, digits = constants_command.plan(_arguments(f"--quantity={','.join(QUANTITIES)}", *values, "--digits=12"))
    assert digits == 12
    assert [(q, set(params)) for q, params in rows] == [(q.name, set(q.parameters)) for q in QUANTITIES.values()]
    assert all(value == POINT[p] for _, params in rows for p, value in params.items())


def test_every_table_format_names_every_quantity() -> None:
    rows = [constants.compute(q.name, _point(q.name), digits=8) for q in QUANTITIES.values()]
    latex = render(rows, "latex")
    markdown = render(rows, "markdown")
    for q in QUANTITIES.values():
        assert q.latex in latex
        assert f"| {q.name} |" in markdown


# ---------------------------------------------------------------- model quantities and hypotheses


def test_every_model_quantity_has_a_float_evaluator_and_every_certified_one_a_ball() -> None:
    assert set(EVALUATORS) == set(STATE_QUANTITIES) == set(MODEL_QUANTITIES) - OF_TRAJECTORY
    assert OF_TRAJECTORY == {"clustering_time", "merge_time", "closest_pair_merges_first"} >= set(FIRST_TIME_OF)
    assert fields_of("merge_time") == ("radius", "k") and fields_of("clustering_time") == ("level",)
    assert set(CERTIFIED) == {
        "energy_rate",
        "head_energy_rate",
        "entropy_rate",
        "token_norm_rate",
        "order_parameter",
        "order_parameter_rate",
    }
    assert UNCLAIMED | set(RECORDED_AS) | set(PARAMETER) | OF_TRAJECTORY | RESCALED <= set(MODEL_QUANTITIES)
    for q in MODEL_QUANTITIES.values():
        for other in (q.rate, q.per_head, FIRST_TIME_OF.get(q.name)):
            assert other is None or other in STATE_QUANTITIES


def test_the_checker_obligations_name_only_known_hypotheses_and_certified_quantities() -> None:
    for obligation in CONFIGURATIONS.values():
        assert set(obligation.hypotheses) <= set(HYPOTHESES)
        assert obligation.quantity in CERTIFIED
    for family in HEAD_FAMILIES.values():
        assert set(family.hypotheses) <= set(HYPOTHESES)


@pytest.mark.parametrize("name", STATE_QUANTITIES)
def test_each_float_evaluator_has_the_shape_of_its_axes(name: str) -> None:
    rng = np.random.default_rng(5)
    d = 2 if name == "arc_spread" else 3  # an arc of the circle
    cfg = Configuration.create(
        families.random_sphere_tokens(4, d, rng), families.random_symmetric_heads(2, d, rng), beta=1.0
    )
    arguments = () if name not in PARAMETER else ({"k": 2}.get(PARAMETER[name], 0.5),)
    at = {"time": 0.5} if name in RESCALED else {}  # a quantity of the state and its time
    shapes = {(): (), ("head",): (2,), ("token",): (4,), ("head", "token", "token"): (2, 4, 4)}
    assert (
        np.shape(EVALUATORS[name](cfg, *arguments, **at))
        == shape(name, cfg)
        == shapes.get(MODEL_QUANTITIES[name].axes, (2, 4))
    )


@pytest.mark.parametrize("name", CERTIFIED)
@pytest.mark.parametrize("attention", ["usa", "softmax"])
def test_the_ball_of_each_certified_quantity_encloses_its_float_value(name: str, attention: str) -> None:
    rng = np.random.default_rng(11)
    tokens = families.rational_sphere_tokens(4, 3, rng)
    heads = [[[Fraction(v) for v in row] for row in M] for M in families.random_general_heads(2, 3, rng)]
    exact = ExactConfiguration(tokens, heads, heads, Fraction(3, 2), "sphere", attention)
    cfg = Configuration.create(
        families.rational_to_float(tokens), np.array(heads, dtype=float), beta=1.5, attention=attention
    )
    floats = np.asarray(EVALUATORS[name](cfg))
    for index in np.ndindex(floats.shape):
        at = dict(zip(MODEL_QUANTITIES[name].axes, index, strict=True))
        value = ball_value(exact, name, at.get("head"), at.get("token"))
        assert abs(float(value.mid()) - float(floats[index])) <= 1e-9 * (1 + abs(float(floats[index])))


# ---------------------------------------------------------------- named families

HEAD_LEVEL = ("symmetric-scores", "orthogonal-heads", "scalar-heads")
"""The hypotheses about the heads alone (the others concern tokens, values, kind and geometry)."""


def test_every_family_record_has_exactly_one_draw_and_every_draw_a_record() -> None:
    records = [*TOKEN_FAMILIES.values(), *HEAD_FAMILIES.values()]
    assert list(families.DRAWS) == records
    assert list(HEAD_STRATEGIES) == list(HEAD_FAMILIES) and list(TOKEN_STRATEGIES) == list(TOKEN_FAMILIES)
    with pytest.raises(ValueError, match="has a draw already"):
        families.draws(HEAD_FAMILIES["scalar"])(lambda H, d, rng, options: np.zeros((H, d, d)))
    assert list(families.DRAWS) == records


def test_a_family_option_is_one_record_under_its_name() -> None:
    """The options of all families, by name: a name means the same option (domain, default) in every family."""
    for family in [*TOKEN_FAMILIES.values(), *HEAD_FAMILIES.values()]:
        assert all(OPTIONS[option.name] is option for option in family.options)
    assert set(OPTIONS) == {o.name for f in [*TOKEN_FAMILIES.values(), *HEAD_FAMILIES.values()] for o in f.options}


def test_each_short_name_names_the_one_record_that_declares_it() -> None:
    """`headflow simulate`'s names come from the records: no two records of a kind share one, none is lost."""
    for short, table in ((SHORT_TOKEN_NAMES, TOKEN_FAMILIES), (SHORT_HEAD_NAMES, HEAD_FAMILIES)):
        declared = [f.short for f in table.values() if f.short is not None]
        assert sorted(short) == sorted(declared)
        assert all(table[name].short == name_short for name_short, name in short.items())
    assert set(SHORT_HEAD_NAMES) == {"scalar", "symmetric", "general", "orthogonal"}  # what `simulate` offered
    assert set(SHORT_TOKEN_NAMES) == {"random", "orthogonal", "equiangular", "circle"}


@pytest.mark.parametrize("name", list(HEAD_FAMILIES))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_drawn_heads_have_exactly_the_hypotheses_of_their_family(name: str, data: st.DataObject) -> None:
    heads = data.draw(HEAD_STRATEGIES[name])
    d = heads.shape[1]
    exact_heads = [[[Fraction(float(v)) for v in row] for row in M] for M in heads]  # the floats, exactly
    tokens = [[Fraction(int(i == j)) for j in range(d)] for i in range(2)]
    exact = ExactConfiguration(tokens, exact_heads, exact_heads, Fraction(1))
    held = [h for h in HEAD_LEVEL if h not in hypothesis_failures(exact, [h])]
    assert held == [h for h in HEAD_LEVEL if h in HEAD_FAMILIES[name].hypotheses]


@pytest.mark.parametrize("name", list(TOKEN_FAMILIES))
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_drawn_tokens_are_unit_tokens(name: str, data: st.DataObject) -> None:
    tokens = data.draw(TOKEN_STRATEGIES[name])
    assert np.allclose(np.linalg.norm(tokens, axis=1), 1.0, rtol=0, atol=1e-12)


def test_the_manual_shows_the_table_of_families_rendered_from_the_records() -> None:
    """The manual's table is `headflow.checks.model.family_table.markdown()` verbatim: a record changed or added without
    the manual following fails here (regenerate with `python -m headflow.model.family_table`)."""
    manual = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    table = family_table.markdown()
    assert any(table in page.read_text(encoding="utf-8") for page in manual if page.is_file())
    assert all(f"| `{name}` |" in table for name in [*TOKEN_FAMILIES, *HEAD_FAMILIES])


def test_the_typed_kinds_and_schemes_are_the_kernels() -> None:
    """The typing Literals of `certificates.vocabulary` name exactly the kinds and schemes a core statement may use
    (`headflow.certificates.kernel.vocabulary`), and the spherical schemes are among them."""
    from typing import get_args

    from headflow.certificates import vocabulary
    from headflow.certificates.kernel import vocabulary as kernel_vocabulary

    assert get_args(vocabulary.Attention) == kernel_vocabulary.ATTENTION_KINDS
    assert get_args(vocabulary.Geometry) == kernel_vocabulary.GEOMETRIES
    assert set(vocabulary.SPHERICAL_GEOMETRIES) <= set(kernel_vocabulary.GEOMETRIES)
