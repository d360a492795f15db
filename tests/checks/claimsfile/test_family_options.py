"""The claims file's family options are checked from the family records (`headflow.certificates.families`).

For every family and every option it declares: the option is read (a family whose record gains an option the
schema ignores fails here), a value outside its domain is one clear error, a missing option without a default is
one too, and an option given to a family that does not take it names the families that do. The bounds on d and
the boundary of rho (exactly -1/(n-1), and one float on either side of it) are attacked too.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.errors import InputError
from headflow.certificates.families import HEAD_FAMILIES, OPTIONS, TOKEN_FAMILIES, Family, Interval, Option

SIZES = {"n": 3, "d": 4, "H": 2}
#: The other side of a claim while one family is varied (they take no option).
PLAIN = {"heads": "random-general", "tokens": "random-sphere"}


def _toml(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value).replace("'", '"')


def _options(fields: dict[str, Any]) -> dict[str, Any]:
    lines = ["[[claim]]", 'id = "f"', 'kind = "dynamics"', 'quantity = "energy"', 'property = "non-negative"']
    lines += ["beta = 1.0", *(f"{key} = {_toml(value)}" for key, value in fields.items())]
    return parse_claims("\n".join(lines) + "\n", "t.toml")[0].options


def _inside(interval: Interval, n: int) -> float:
    """A number inside the interval (written here from the ends, not taken from the schema)."""
    low = None if interval.low is None else float(interval.low.at(n))
    high = None if interval.high is None else float(interval.high.at(n))
    if low is not None and high is not None:
        return (low + high) / 2
    return 0.5 if low is None and high is None else (low + 1 if low is not None else high - 1)  # type: ignore[operator]


def _value(option: Option, number: float) -> Any:
    return [number] * SIZES["H"] if option.per_head else number


def _valid(option: Option, n: int = SIZES["n"]) -> Any:
    """A value the option accepts: a number inside its domain, a count of 2, or n unit rows of R^d (exact)."""
    if option.kind == "count":
        return 2
    if option.kind == "tokens":
        return [[int(i == j) for j in range(SIZES["d"])] for i in range(n)]
    if option.kind == "angles":
        return [f"{2 * k}*pi/{n}" for k in range(n)]
    return _value(option, _inside(option.domain, n))


def _claim(kind: str, family: Family, **given: Any) -> dict[str, Any]:
    return {**SIZES, **PLAIN, kind: family.name, **given}


FAMILIES = [("heads", f) for f in HEAD_FAMILIES.values()] + [("tokens", f) for f in TOKEN_FAMILIES.values()]
#: The numeric options (counts and the user's tokens are attacked in tests/checks/claimsfile/test_starts.py).
OPTIONED = [(kind, f, o) for kind, f in FAMILIES for o in f.options if o.kind == "number"]
BOUNDED = [(kind, f, o) for kind, f, o in OPTIONED if o.domain.low or o.domain.high]


@pytest.mark.parametrize(("kind", "family", "option"), OPTIONED, ids=lambda v: getattr(v, "name", v))
def test_each_declared_option_is_read_within_its_domain(kind: str, family: Family, option: Option) -> None:
    number = _inside(option.domain, SIZES["n"])
    given = {o.name: _valid(o) for o in family.options}
    options = _options(_claim(kind, family, **given))
    assert options[option.name] == _value(option, number)
    if option.default is not None:
        assert _options(_claim(kind, family, **{k: v for k, v in given.items() if k != option.name}))[
            option.name
        ] == _value(option, option.default)
    else:
        with pytest.raises(InputError, match="missing") as missing:
            _options(_claim(kind, family, **{k: v for k, v in given.items() if k != option.name}))
        assert missing.value.field == option.name


@pytest.mark.parametrize(("kind", "family", "option"), BOUNDED, ids=lambda v: getattr(v, "name", v))
def test_a_value_outside_an_options_domain_is_one_clear_error(kind: str, family: Family, option: Option) -> None:
    given = {o.name: _valid(o) for o in family.options}
    ends = [(e, -1) for e in [option.domain.low] if e] + [(e, 1) for e in [option.domain.high] if e]
    for end, side in ends:
        edge = float(end.at(SIZES["n"]))
        for outside in ([] if end.closed else [edge]) + [edge + side * 0.5]:
            with pytest.raises(InputError, match=option.name) as refused:
                _options(_claim(kind, family, **given | {option.name: _value(option, outside)}))
            assert refused.value.field == option.name


@pytest.mark.parametrize("name", list(OPTIONS))
def test_an_option_of_another_family_names_the_families_that_take_it(name: str) -> None:
    option = OPTIONS[name]
    takers = [f.name for _, f in FAMILIES if option in f.options]
    heads = next(f for f in HEAD_FAMILIES.values() if option not in f.options)
    tokens = next(f for f in TOKEN_FAMILIES.values() if option not in f.options)
    given = {o.name: _valid(o) for o in (*heads.options, *tokens.options)}
    fields = {**SIZES, "heads": heads.name, "tokens": tokens.name, **given}
    assert name not in _options(fields)
    with pytest.raises(InputError, match="only used with") as refused:
        _options(fields | {name: _value(option, _inside(option.domain, SIZES["n"]))})
    assert refused.value.field == name and all(taker in str(refused.value) for taker in takers)


@pytest.mark.parametrize(("kind", "family"), [(k, f) for k, f in FAMILIES if f.d_at_least])
def test_a_dimension_below_the_familys_bound_is_refused(kind: str, family: Family) -> None:
    given = {o.name: _valid(o, 5) for o in family.options}
    least = family.least_d(5, 3)
    fields = {"n": 5, "H": 3, **PLAIN, kind: family.name, **given}
    if "lambdas" in given:
        fields["lambdas"] = [1.0] * 3
    assert _options(fields | {"d": least})["d"] == least
    with pytest.raises(InputError, match="d >= ") as refused:
        _options(fields | {"d": least - 1})
    assert refused.value.field == "d"


def test_rho_is_compared_with_minus_one_over_n_minus_one_exactly() -> None:
    """-0.3333333333333333 (the float nearest -1/3) lies above -1/3 as written: a valid start for n = 4 (a float
    comparison with -1/3 computed in floats refused it); the next float below it does not, nor does rho = 1."""
    fields = {"n": 4, "d": 4, "heads": "random-general", "tokens": "equiangular"}
    assert Fraction("-0.3333333333333333") > Fraction(-1, 3)
    assert _options(fields | {"rho": -0.3333333333333333})["rho"] == -0.3333333333333333
    assert Fraction("-0.33333333333333337") < Fraction(-1, 3)
    with pytest.raises(InputError, match="rho"):
        _options(fields | {"rho": -0.33333333333333337})
    with pytest.raises(InputError, match="rho"):
        _options(fields | {"rho": 1.0})


def test_scalar_heads_need_one_strength_per_head() -> None:
    with pytest.raises(InputError, match="expected H = 3") as refused:
        _options({**SIZES, "H": 3, "heads": "scalar", "tokens": "random-sphere", "lambdas": [1.0, 2.0]})
    assert refused.value.field == "lambdas"
    fields = {"n": 3, "d": 4, "heads": "scalar", "tokens": "random-sphere", "lambdas": [1.0, -2.0, 0.5]}
    assert _options(fields)["H"] == 3  # H defaults to the number of strengths
