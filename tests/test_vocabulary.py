"""One vocabulary: the names of the constants, model quantities and hypotheses are each defined once.

Adding a constant is one row of `checks.constant_specs.QUANTITIES`: the claims-file language, the
`headflow constants` command, the certified balls, mpmath's cross-check and the tables all follow it.
"""

from __future__ import annotations

import argparse
from fractions import Fraction

import pytest

from checks import constants
from checks.claimsfile import evaluation, names
from checks.claimsfile.expressions import parse_expression
from checks.commands import constants as constants_command
from checks.constant_specs import PARAMETERS, QUANTITIES, resolve
from checks.constant_tables import render

ELEMENTARY = {"exp", "log", "sqrt", "pi", "e"}
#: A point inside every parameter's domain (written here, not taken from the table).
POINT = {"H": Fraction(3), "n": Fraction(7), "alpha": Fraction(1, 2), "beta": Fraction(2), "lam": Fraction(3, 4)}
POINT["x"] = Fraction(5, 2)


def test_the_claims_file_names_the_constants_of_the_table_and_no_other() -> None:
    assert set(QUANTITIES) == names.RESERVED - ELEMENTARY


@pytest.mark.parametrize("name", list(QUANTITIES))
def test_a_claims_file_expression_of_each_constant_has_its_certified_value(name: str) -> None:
    quantity = QUANTITIES[name]
    arguments = ", ".join(str(POINT[p]) for p in quantity.parameters)
    expr = parse_expression(f"{name}({arguments})" if quantity.parameters else name)
    enclosure = evaluation.ball(expr, {}, 256)
    certified = constants.compute(name, {p: POINT[p] for p in quantity.parameters}, digits=30)
    assert enclosure.overlaps(certified.ball)
    assert abs(float(enclosure.mid()) - float(certified.value)) <= 1e-12 * max(1.0, abs(float(certified.value)))


@pytest.mark.parametrize("name", list(QUANTITIES))
def test_the_arity_of_each_claims_file_function_is_its_parameter_count(name: str) -> None:
    parameters = QUANTITIES[name].parameters
    if not parameters:
        assert names.CONSTANTS[name] == QUANTITIES[name].symbolic_form()
        return
    too_many = ", ".join(["1"] * (len(parameters) + 1))
    with pytest.raises(Exception, match="argument"):
        parse_expression(f"{name}({too_many})")


def test_every_evaluator_reference_resolves() -> None:
    for quantity in QUANTITIES.values():
        for reference in (quantity.symbolic, quantity.reference, quantity.ball):
            if reference is not None:
                assert resolve(reference) is not None
    assert {p for q in QUANTITIES.values() for p in q.parameters} == set(PARAMETERS)


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
    rows = [constants.compute(q.name, {p: POINT[p] for p in q.parameters}, digits=8) for q in QUANTITIES.values()]
    latex = render(rows, "latex")
    markdown = render(rows, "markdown")
    for q in QUANTITIES.values():
        assert q.latex in latex
        assert f"| {q.name} |" in markdown
