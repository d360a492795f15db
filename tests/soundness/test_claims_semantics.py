"""Claims files mean exactly what they say: exact numbers, the digits rule, and sides undefined somewhere.

Each test is an attack: a hostile file whose claim is false (or true) only because of a detail a
sloppy reading would lose (a float rounded to binary, a value with one digit too many, x/x
simplified to 1). A false claim must never come out PROVED/CERTIFIED, a true one never REFUTED.
The hypothesis strategies generate such files: float literals, digit/value mismatches, and
claims undefined at a single point of their domain.
"""

from __future__ import annotations

import json
import tempfile
import textwrap
from decimal import Context as DecimalContext
from decimal import Decimal, localcontext
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.problems import ClaimsFileError
from headflow.certificates.claims.schema import ConstantClaim, InequalityClaim, significant_digits
from headflow.certificates.kernel import real_statements
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.cli import main
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.checking import verify_file

PROVEN = (Verdict.PROVED, Verdict.CERTIFIED, Verdict.CONFIRMED)


def decide(text: str) -> dict[str, tuple[Verdict, dict]]:
    """Verdict and evidence of each claim of the file text, quick profile."""
    registry = register_claims(parse_claims(textwrap.dedent(text), "t.toml"))
    results = run_claims(registry.claims(), Context("quick", seed=11, certificate_dir=Path(tempfile.mkdtemp())))
    assert not any(r.crashed for r in results)
    return {r.claim.id: (r.verdict, r.outcomes[0][1].as_dict()) for r in results}


def one(text: str) -> tuple[Verdict, dict]:
    (result,) = decide(text).values()
    return result


def witness(evidence: dict) -> dict:
    return evidence["witness"]


def inequality(lhs: str, op: str, rhs: str, domain: str) -> str:
    return f'[[claim]]\nid = "c"\nkind = "inequality"\nlhs = "{lhs}"\nop = "{op}"\nrhs = "{rhs}"\ndomain = {domain}\n'


def identity(lhs: str, rhs: str, symbols: str) -> str:
    return f'[[claim]]\nid = "c"\nkind = "identity"\nlhs = "{lhs}"\nrhs = "{rhs}"\nsymbols = {symbols}\n'


def constant(expr: str, value: str, digits: object) -> str:
    return f'[[claim]]\nid = "c"\nkind = "constant"\nexpr = "{expr}"\nvalue = "{value}"\ndigits = {digits}\n'


# ---------------------------------------------------------------- 1. numbers are exact


def test_float_bound_just_above_one_is_not_rounded_and_the_claim_is_refuted() -> None:
    verdict, evidence = one(inequality("x", "<=", "1", "{ x = { min = 1, max = 1.0000000000000001 } }"))
    assert verdict is Verdict.REFUTED
    point = Fraction(witness(evidence)["point"]["x"])
    assert 1 < point <= Fraction("1.0000000000000001")


def test_tiny_float_bound_is_not_rounded_to_zero() -> None:
    (claim,) = parse_claims(inequality("x", ">", "0", "{ x = { min = 1e-400, max = 1 } }"))
    assert isinstance(claim, InequalityClaim)
    (domain,) = claim.domains.values()
    assert domain.low == sp.Rational(1, 10**400)
    verdict, _ = one(inequality("x", ">", "0", "{ x = { min = 1e-400, max = 1 } }"))
    assert verdict is not Verdict.REFUTED


def test_float_bound_one_tenth_is_the_decimal_not_the_double() -> None:
    (claim,) = parse_claims(inequality("x", ">=", "0", "{ x = { min = 0.1, max = 0.5 } }"))
    (domain,) = claim.domains.values()
    assert domain.low == sp.Rational(1, 10) and domain.high == sp.Rational(1, 2)
    # the double 0.1 is 0.1000000000000000055511...: above this bound, while the decimal 0.1 is below it
    between = "1000000000000000055/10000000000000000000"
    assert one(inequality("x", "<", between, "{ x = { min = 0.1, max = 0.1 } }"))[0] is Verdict.CERTIFIED
    verdict, evidence = one(inequality("x", ">=", between, "{ x = { min = 0.1, max = 0.1 } }"))
    assert verdict is Verdict.REFUTED and Fraction(witness(evidence)["point"]["x"]) == Fraction(1, 10)


@pytest.mark.parametrize(
    ("bound", "reason"),
    [("1e401", "1e-400..1e100"), ("1e-99999", "1e-400..1e100"), ("1e101", "at most 1e100"), ("inf", "finite"),
     ("nan", "finite"), ('"1/0"', "division by zero")],
)  # fmt: skip
def test_hostile_bounds_are_one_line_errors(bound: str, reason: str) -> None:
    with pytest.raises(ClaimsFileError, match=reason) as error:
        parse_claims(inequality("x", ">", "0", f"{{ x = {{ min = 0, max = {bound} }} }}"))
    assert "\n" not in str(error.value) and "x.max" in str(error.value)


def dynamics(**fields: str) -> str:
    base = {
        "quantity": '"energy"',
        "property": '"non-decreasing"',
        "heads": '"scalar"',
        "tokens": '"equiangular"',
        "lambdas": "[1.0, 0.5]",
        "rho": "0.2",
        "n": "3",
        "d": "3",
        "beta": "1.0",
    } | fields
    return '[[claim]]\nid = "c"\nkind = "dynamics"\n' + "".join(f"{k} = {v}\n" for k, v in base.items())


def test_dynamics_float_parameters_must_be_faithful() -> None:
    (claim,) = parse_claims(dynamics())
    assert claim.options["rho"] == 0.2 and claim.options["beta"] == 1.0
    with pytest.raises(ClaimsFileError, match=r"rho.*more digits than a binary64"):
        parse_claims(dynamics(rho="0.20000000000000001"))
    with pytest.raises(ClaimsFileError, match=r"beta.*more digits than a binary64"):
        parse_claims(dynamics(beta="0.5000000000000000001"))
    (tenth,) = parse_claims(dynamics(beta="0.1"))  # faithful: runs as the double, refuted at exactly 1/10
    assert tenth.options["beta"] == 0.1
    assert stated(tenth.options["beta"]) == Fraction(1, 10)
    with pytest.raises(ClaimsFileError, match="lambdas"):
        parse_claims(dynamics(lambdas="[1.0, 0.30000000000000001]"))
    with pytest.raises(ClaimsFileError, match=r"n=3\.0"):
        parse_claims(dynamics(n="3.0"))


@settings(max_examples=60, deadline=None)
@given(
    sign=st.sampled_from(["", "-", "+"]),
    whole=st.integers(0, 10**30),
    fraction=st.text("0123456789", min_size=1, max_size=40),
    exponent=st.integers(-450, 450),
)
def test_any_float_literal_bound_is_read_exactly_or_refused(
    sign: str, whole: int, fraction: str, exponent: int
) -> None:
    literal = f"{sign}{whole}.{fraction}e{exponent}"
    exact = Fraction(f"{sign}{whole}.{fraction}") * Fraction(10) ** exponent
    text = inequality("x", ">=", "0", f"{{ x = {{ max = {literal} }} }}")
    try:
        (claim,) = parse_claims(text)
    except ClaimsFileError as error:
        assert abs(exact) > 10**100 or abs(exponent) > 400 or len(literal) > 120, str(error)
        return
    (domain,) = claim.domains.values()
    assert domain.high == sp.Rational(exact.numerator, exact.denominator)


# ---------------------------------------------------------------- 2. the digits rule


@pytest.mark.parametrize(
    ("expr", "value", "digits"), [("golden", "1.6180339845", 9), ("31449/10000", "3.1454", 3), ("1", "1.50", 2)]
)
def test_value_with_more_significant_digits_than_digits_is_an_input_error(expr: str, value: str, digits: int) -> None:
    with pytest.raises(ClaimsFileError, match=r"value=.*more than digits"):
        parse_claims(constant(expr, value, digits))


def test_value_digits_mismatch_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "claims.toml"
    path.write_text(constant("golden", "1.6180339845", 9))
    assert main(["check", str(path)]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "value=" in error and "claims.toml:" in error


@pytest.mark.parametrize(
    ("text", "count"),
    [("0", 0), ("0.000", 0), ("0.000123", 3), ("-2.50", 3), ("1e5", 1), ("1.0e5", 2), ("1.50", 3), ("1500", 2),
     ("100.", 3), (".5", 1), ("+0.0012300", 5)],
)  # fmt: skip
def test_significant_digits(text: str, count: int) -> None:
    assert significant_digits(text) == count


@pytest.mark.parametrize(
    ("expr", "value", "digits", "verdict"),
    [
        ("996/1000", "1.00", 3, Verdict.REFUTED),  # 0.996 rounds to 0.996, not to 1.00
        ("99951/100000", "1.00", 3, Verdict.CERTIFIED),
        ("9994/10000", "1.00", 3, Verdict.REFUTED),
        ("-9996/10000", "-1.00", 3, Verdict.CERTIFIED),
        ("1/2001", "0", 3, Verdict.CERTIFIED),  # zero: within 10^-3 / 2
        ("1/1999", "0", 3, Verdict.REFUTED),
        ("-25049/10000", "-2.50", 3, Verdict.CERTIFIED),
        ("-25051/10000", "-2.50", 3, Verdict.REFUTED),
        ("100499", "1e5", 3, Verdict.CERTIFIED),
        ("99949", "1e5", 3, Verdict.REFUTED),
        ("12349/100000000", "0.000123", 3, Verdict.CERTIFIED),
        ("12351/100000000", "0.000123", 3, Verdict.REFUTED),
    ],
)
def test_rounding_interval_ends(expr: str, value: str, digits: int, verdict: Verdict) -> None:
    assert one(constant(expr, value, digits))[0] is verdict


@pytest.mark.parametrize(("expr", "value"), [("9995/10000", "1.00"), ("1005/1000", "1.00"), ("-25/10", "-3")])
def test_value_exactly_at_an_end_is_never_refuted(expr: str, value: str) -> None:
    """The interval is closed; balls cannot separate an exact end, so these stay INCONCLUSIVE (documented)."""
    assert one(constant(expr, value, 3 if "." in value else 1))[0] is not Verdict.REFUTED


def rounds_to(number: Fraction, digits: int) -> Decimal:
    """`number` rounded to `digits` significant digits by the decimal module (an independent oracle)."""
    with localcontext(DecimalContext(prec=200)):
        exact = Decimal(number.numerator) / Decimal(number.denominator)
    return DecimalContext(prec=digits).plus(exact)


@settings(max_examples=80, deadline=None)
@given(
    mantissa=st.integers(1, 10**8),
    exponent=st.integers(-12, 12),
    negative=st.booleans(),
    digits=st.integers(1, 9),
    where=st.fractions(min_value=0, max_value=1),
)
def test_constant_interval_is_the_set_of_numbers_that_round_to_value(
    mantissa: int, exponent: int, negative: bool, digits: int, where: Fraction
) -> None:
    value = f"{'-' if negative else ''}{mantissa}e{exponent}"
    written = len(str(mantissa).rstrip("0"))
    try:
        (claim,) = parse_claims(constant("1", value, digits))
    except ClaimsFileError as error:
        assert written > digits and "more than digits" in str(error)
        return
    assert written <= digits and isinstance(claim, ConstantClaim)
    low, high = Fraction(str(claim.low)), Fraction(str(claim.high))
    target = Decimal(value)
    inside = low + (high - low) * where
    if low < inside < high:  # ties at the ends may round either way
        assert rounds_to(inside, digits) == target
    width = high - low
    for outside in (low - width / 1000, high + width / 1000):
        assert rounds_to(outside, digits) != target


# ---------------------------------------------------------------- 3. undefined sides


def test_x_over_x_on_zero_is_refuted_undefined() -> None:
    verdict, evidence = one(identity("x/x", "1", '{ x = "[0, 0]" }'))
    assert verdict is Verdict.REFUTED
    assert witness(evidence)["point"] == {"x": "0"} and "division by zero" in witness(evidence)["undefined"]
    assert witness(evidence)["verified_by"] == "exact"


def test_degenerate_domain_off_the_sampling_grid_is_sampled() -> None:
    """Found by the generator below: [1/3, 1/3] was rounded to an empty grid interval, so no point was tried."""
    verdict, evidence = one(identity("(x - 1/3)/(x - 1/3)", "1", '{ x = "[1/3, 1/3]" }'))
    assert verdict is Verdict.REFUTED and witness(evidence)["point"] == {"x": "1/3"}


def test_removable_singularity_refuted_over_the_reals_proved_away_from_it() -> None:
    verdict, evidence = one(identity("(x**2 - 1)/(x - 1)", "x + 1", '{ x = "real" }'))
    assert verdict is Verdict.REFUTED and witness(evidence)["point"] == {"x": "1"}
    assert one(identity("(x**2 - 1)/(x - 1)", "x + 1", '{ x = "[2, 5]" }'))[0] is Verdict.PROVED
    assert one(identity("x/x", "1", '{ x = "positive" }'))[0] is Verdict.PROVED


def test_x_over_x_inequality_refuted_at_zero_certified_away_from_it() -> None:
    verdict, evidence = one(inequality("x/x", ">=", "1", '{ x = "[0, 1]" }'))
    assert verdict is Verdict.REFUTED and witness(evidence)["point"] == {"x": "0"}
    verdict, evidence = one(inequality("x/x", ">=", "1", '{ x = "[1/2, 1]" }'))
    assert verdict is Verdict.CERTIFIED
    certificates = [json.loads(Path(path).read_text()) for path in evidence["certificates"]]
    assert all(verify_file(Path(path))[0] for path in evidence["certificates"])
    # the definedness of x/x is proved too: in the SMT goal the kernel builds from the statement's x/x (as written,
    # not SymPy's 1), or by a cover certificate of its own
    if certificates[0]["kind"] == "smt":
        statement = certificates[0]["statement"]
        assert statement["lhs"] == ["div", ["sym", "x"], ["sym", "x"]]
        goal = real_statements.smt_problem(statement, certificates[0]["payload"]).splitlines()[-2]
        assert goal.startswith("(assert (not (and (not (= x0 0.0))"), goal
    else:
        goals = {(json.dumps(c["payload"]["expression"]), c["payload"]["relation"]) for c in certificates}
        assert (json.dumps(["sym", "x"]), ">") in goals


@pytest.mark.parametrize(
    ("lhs", "rhs", "symbols"),
    [
        ("sqrt(x)**2", "x", '{ x = "real" }'),  # undefined for x < 0
        ("log(x**2)", "2*log(x)", '{ x = "[-1, 1]" }'),  # undefined at x <= 0
        ("exp(log(x))", "x", '{ x = "nonnegative" }'),  # log(0)
        ("(x**(1/3))**3", "x", '{ x = "[-8, 8]" }'),  # a non-integer power of a negative number
        ("1/(1/x)", "x", '{ x = "[-1, 1]" }'),
    ],
)
def test_identities_undefined_somewhere_are_refuted(lhs: str, rhs: str, symbols: str) -> None:
    verdict, evidence = one(identity(lhs, rhs, symbols))
    assert verdict is Verdict.REFUTED and "undefined" in witness(evidence), evidence


def test_identities_defined_on_their_domain_are_proved() -> None:
    assert one(identity("sqrt(x)**2", "x", '{ x = "nonnegative" }'))[0] is Verdict.PROVED
    assert one(identity("exp(log(x))", "x", '{ x = "positive" }'))[0] is Verdict.PROVED


def test_integer_domain_undefined_at_its_ends() -> None:
    domain = "{ n = { min = 2, max = 5, integer = true } }"
    verdict, evidence = one(inequality("1/(n - 2)", ">", "0", domain))
    assert verdict is Verdict.REFUTED and witness(evidence)["point"] == {"n": "2"}
    verdict, evidence = one(inequality("1/(5 - n)", ">", "0", domain))
    assert verdict is Verdict.REFUTED and witness(evidence)["point"] == {"n": "5"}
    assert one(inequality("1/(n - 1)", ">", "0", domain))[0] is Verdict.CERTIFIED


@pytest.mark.parametrize(("lhs", "domain"), [("x**2", '{ x = "[-1, 1]" }'), ("(x - 1/3)**2", '{ x = "[0, 1]" }')])
def test_claims_false_at_one_point_are_not_certified(lhs: str, domain: str) -> None:
    assert one(inequality(lhs, ">", "0", domain))[0] not in PROVEN


@pytest.mark.parametrize("expr", ["log(0)", "sqrt(-1)", "1/(2-2)", "(-8)**(1/3)", "0**(-2)", "lambertw(-1)"])
def test_constants_undefined_on_exact_numbers_are_never_certified(expr: str) -> None:
    try:
        verdict, _ = one(constant(expr, "1", 1))
    except ClaimsFileError as error:
        assert "undefined" in str(error)
        return
    assert verdict in (Verdict.REFUTED, Verdict.INCONCLUSIVE)


def test_constants_undefined_on_irrational_numbers() -> None:
    verdict, evidence = one(constant("sqrt(golden - 2)", "1", 1))
    assert verdict is Verdict.REFUTED and "sqrt of a negative number" in witness(evidence)["undefined"]
    assert one(constant("1/(golden**2 - golden - 1)", "1", 1))[0] is Verdict.INCONCLUSIVE  # exactly 1/0


ends = st.fractions(min_value=-5, max_value=5, max_denominator=12)


@settings(max_examples=12, deadline=None)
@given(low=ends, width=st.fractions(min_value=0, max_value=3, max_denominator=6), where=st.fractions(0, 1))
def test_claims_undefined_at_one_point_are_refuted_there(low: Fraction, width: Fraction, where: Fraction) -> None:
    """(x - a)/(x - a) = 1 and >= 1, and sqrt(-(x - a)**2) >= 0: undefined (or defined) at a single point a."""
    high = low + width
    point = low + (high - low) * where
    a, domain = f"({point})", f'{{ x = "[{low}, {high}]" }}'
    for text in (
        identity(f"(x - {a})/(x - {a})", "1", domain),
        inequality(f"(x - {a})/(x - {a})", ">=", "1", domain),
        inequality(f"1/(x - {a})**2", ">", "0", domain),
    ):
        verdict, evidence = one(text)
        assert verdict is Verdict.REFUTED, (text, evidence)
        assert Fraction(witness(evidence)["point"]["x"]) == point and "undefined" in witness(evidence)
    if width > 0:  # defined only at a: false everywhere else (not CERTIFIED), never CERTIFIED
        assert one(inequality(f"sqrt(-(x - {a})**2)", ">=", "0", domain))[0] is Verdict.REFUTED


@settings(max_examples=8, deadline=None)
@given(low=ends, width=st.fractions(min_value=1, max_value=3, max_denominator=6))
def test_claims_defined_away_from_the_excluded_point_are_decided_true(low: Fraction, width: Fraction) -> None:
    a, domain = f"({low - 1})", f'{{ x = "[{low}, {low + width}]" }}'
    assert one(identity(f"(x - {a})/(x - {a})", "1", domain))[0] is Verdict.PROVED
    assert one(inequality(f"(x - {a})/(x - {a})", ">=", "1", domain))[0] is Verdict.CERTIFIED


def test_a_limit_no_certificate_could_record_is_inconclusive_not_a_crash(tmp_path: Path) -> None:
    """1/7**999 + 1/11**999 is an exact rational of ~9,700 bits (the expressions allow 20,000), more than a
    certificate records (2,000 digits): the routes that would write it (a stationary start, a trajectory statement)
    do not apply, and the claim is INCONCLUSIVE with the reason (a TreeError used to crash the stationary route)."""
    from headflow.checks.claimsfile.dynamics_decider import decide_closed

    text = dynamics(property='"tends-to"', limit='"1/7**999 + 1/11**999"', quantity='"cluster_gap"')
    text = text.replace('tokens = "equiangular"', 'tokens = "given"\npoints = [[1, 0, 0], [0, 1, 0], [-1, 0, 0]]')
    (claim,) = parse_claims(text.replace("rho = 0.2\n", "").replace("[1.0, 0.5]", "[1.0]"))
    outcome = decide_closed(claim, Context("quick", seed=0, certificate_dir=tmp_path))
    assert outcome.verdict is Verdict.INCONCLUSIVE and "too large to record" in outcome.notes, outcome
