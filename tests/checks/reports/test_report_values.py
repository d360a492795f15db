"""The one serializer of report data: every value a procedure may return prints in every format."""

from __future__ import annotations

import enum
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sympy as sp
from headflow.checks import api
from headflow.checks.choices import FORMATS
from headflow.checks.registry import Context, Registry
from headflow.checks.reports.values import dumps, plain
from headflow.checks.verdicts import Outcome, Verdict


class Colour(enum.Enum):
    RED = "red"


#: Values procedures put in their details and witnesses, with what the report holds for each.
AWKWARD = {
    "numpy int": (np.int64(7), 7),
    "numpy float": (np.float32(0.5), 0.5),
    "numpy bool": (np.bool_(True), True),
    "numpy array": (np.array([[1, 2], [3, 4]], dtype=np.int64), [[1, 2], [3, 4]]),
    "fraction": (Fraction(3, 7), "3/7"),
    "sympy integer": (sp.Integer(12), 12),
    "sympy rational": (sp.Rational(205, 906), "205/906"),
    "sympy surd": (sp.sqrt(5) / 2, "sqrt(5)/2"),
    "sympy float": (sp.Float("0.1", 30), str(sp.Float("0.1", 30))),
    "path": (Path("certs") / "a.json", str(Path("certs") / "a.json")),
    "tuple and set": (((1, 2), {3}), [[1, 2], [3]]),
    "infinity": (float("inf"), "inf"),
    "nan": (np.float64("nan"), "nan"),
    "enum": (Colour.RED, "red"),
    "tuple key": ({(1, 2): "x"}, {"[1, 2]": "x"}),
    "huge integer": (10**5000, f"<integer of {(10**5000).bit_length()} bits>"),
}


@pytest.mark.parametrize("name", AWKWARD)
def test_each_value_becomes_plain_json(name: str) -> None:
    value, expected = AWKWARD[name]
    assert plain(value) == expected
    assert json.loads(dumps({"v": value}), parse_constant=_strict) == {"v": expected}


def _strict(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def _awkward_registry() -> Registry:
    registry = Registry()
    registry.declare("demo.awkward", "numbers of every kind", "the evidence holds numpy, Fractions, SymPy and Paths")
    values = {name: value for name, (value, _) in AWKWARD.items()}

    @registry.procedure("demo.awkward", "numbers")
    def _numbers(ctx: Context) -> Outcome:
        return Outcome(
            Verdict.CONFIRMED,
            "numbers",
            cases=np.int64(3),
            worst_margin=np.float64("inf"),
            tolerance=np.float64(0.0),
            details=values,
        )

    @registry.procedure("demo.awkward", "witness")
    def _witness(ctx: Context) -> Outcome:
        return Outcome(Verdict.REFUTED, "witness", witness={"verified_by": "exact", "beta": Fraction(1, 3)} | values)

    return registry


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_report_of_awkward_values_renders_in_every_format(fmt: str, tmp_path: Path) -> None:
    report = api.decide(_awkward_registry().claims(), certificates=tmp_path, progress=False)
    text = report.render(fmt)
    assert "demo.awkward" in text
    if fmt == "json":
        procedures = json.loads(text, parse_constant=_strict)["claims"][0]["evidence"]["procedures"]
        assert procedures[0]["details"]["numpy array"] == [[1, 2], [3, 4]]
        assert procedures[1]["witness"]["beta"] == "1/3"
    if fmt == "html":
        assert "3/7" in text and "205/906" in text
    assert "beta=1/3" in text  # the refutation's witness is named in every format's list of differences
