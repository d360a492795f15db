"""Issue 28 items 3-4: the constants' fast path (stored trees, interval Newton, doubling Newton in mpmath) prints the
digits an independent mpmath computation rounds to, and each new step refuses what it cannot certify."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import mpmath
import pytest
import sympy as sp
from flint import arb, ctx, fmpz
from headflow.certificates.kernel import stored_forms
from headflow.certificates.kernel.exact import ball_of, exact_value
from headflow.certificates.provers import lambda_c_roots
from headflow.certificates.provers.programs import compile_trees
from headflow.certificates.statements import stored_forms as source
from headflow.certificates.sympy_trees import from_sympy
from headflow.checks.constants import certified as constants
from headflow.checks.constants.mpmath_reference import mpmath_value
from headflow.identities import closed_forms as cf

EXTRA_DIGITS = 40
"""Digits the independent reference carries beyond the printed ones (rounding it is then exact unless the value is
within 10^-40 relative of a rounding boundary)."""


def _q(value: Fraction) -> mpmath.mpf:
    return mpmath.mpf(value.numerator) / value.denominator


def _lambda_c_root(n: int) -> mpmath.mpf:
    """u_c(n) by mpmath's Anderson bracketing on g in (2, b) (b right of the root), then Newton at full precision."""
    g = lambda t: (t - 2) * mpmath.exp(t) - (n - 1) * (t + 2)  # noqa: E731
    end = max(mpmath.mpf(6), mpmath.log(2 * (n - 1)) + 2)
    with mpmath.workprec(60):
        guess = mpmath.findroot(g, (mpmath.mpf(2), end), solver="anderson")
    return mpmath.findroot(g, guess, solver="newton")


#: Independent formulas (mpmath's own functions, written here): quantity -> (parameters -> value).
REFERENCE: dict[str, Any] = {
    "golden": lambda p: mpmath.phi,
    "c_star": lambda p: (mpmath.sqrt((_q(p["H"]) - 1) ** 2 + 4) - (_q(p["H"]) - 1)) / 2,
    "beta_star": lambda p: (
        mpmath.log(REFERENCE["c_star"](p) ** 2 * (_q(p["n"]) - 1) / (1 - REFERENCE["c_star"](p) ** 2))
        / (2 * _q(p["alpha"]))
    ),
    "rate": lambda p: 2 * _q(p["lam"]) / (mpmath.exp(_q(p["lam"]) * _q(p["beta"])) + _q(p["n"]) - 1),
    "lambda_max": lambda p: (1 + mpmath.lambertw((_q(p["n"]) - 1) / mpmath.e).real) / _q(p["beta"]),
    "lambertw": lambda p: mpmath.lambertw(_q(p["x"])).real,
    "lambda_c": lambda p: _lambda_c_root(int(p["n"])) / _q(p["beta"]),
}
CASES = [
    ("golden", {}),
    ("c_star", {"H": Fraction(3)}),
    ("beta_star", {"H": Fraction(2), "n": Fraction(10), "alpha": Fraction(1, 3)}),
    ("rate", {"lam": Fraction(7, 4), "n": Fraction(100), "beta": Fraction(1)}),
    ("lambda_max", {"n": Fraction(10), "beta": Fraction(2)}),
    ("lambertw", {"x": Fraction(-1, 3)}),
    ("lambda_c", {"n": Fraction(10), "beta": Fraction(1, 2)}),
    ("lambda_c", {"n": Fraction(10**6), "beta": Fraction(3)}),
]


def _independent_digits(quantity: str, params: dict[str, Fraction], digits: int) -> tuple[int, str, int]:
    """(sign, the digits, the decimal exponent) of the reference rounded to nearest by mpmath at `digits` + 40."""
    with mpmath.workdps(digits + EXTRA_DIGITS):
        value = mpmath.mpf(REFERENCE[quantity](params))
        exponent = int(mpmath.floor(mpmath.log10(abs(value))))
        scaled = int(mpmath.nint(abs(value) * mpmath.mpf(10) ** (digits - 1 - exponent)))
    if scaled == 10**digits:
        scaled, exponent = scaled // 10, exponent + 1
    return (1 if value > 0 else -1), str(scaled), exponent


@pytest.mark.parametrize("digits", [17, 400, 1500])
@pytest.mark.parametrize(("quantity", "params"), CASES, ids=[f"{q}-{i}" for i, (q, _) in enumerate(CASES)])
def test_printed_digits_are_the_independent_rounding(quantity: str, params: dict[str, Fraction], digits: int) -> None:
    result = constants.compute(quantity, params, digits)
    assert result.correctly_rounded and result.rounded is not None
    found = (result.rounded.sign, result.rounded.digits, result.rounded.exponent)
    assert found == _independent_digits(quantity, params, digits)


def test_a_wrong_last_digit_differs_from_the_independent_rounding() -> None:
    """The comparison above can fail: the reference's digits are not those of a neighbouring number."""
    params = {"H": Fraction(3)}
    _, text, _ = _independent_digits("c_star", params, 400)
    with mpmath.workdps(500):
        shifted = REFERENCE["c_star"](params) + mpmath.mpf(10) ** -400
    REFERENCE["shifted"] = lambda p: shifted
    try:
        assert _independent_digits("shifted", params, 400)[1] != text
    finally:
        del REFERENCE["shifted"]


def _normal(tree: Any) -> Any:
    """The tree with the arguments of add and mul sorted (SymPy's order of them may change between versions)."""
    if not isinstance(tree, list) or tree[0] in ("sym", "rat"):
        return tree
    children = [_normal(child) for child in tree[1:]]
    if tree[0] in ("add", "mul"):
        children.sort(key=json.dumps)
    return [tree[0], *children]


def test_the_stored_trees_are_the_closed_forms_of_sympy() -> None:
    """The file the fast path evaluates is what SymPy writes from identities/closed_forms.py (regenerate it with
    `python -m certificates.statements.stored_forms` when a closed form changes)."""
    stored = json.loads(stored_forms.PATH.read_text(encoding="utf-8"))
    built = source.build()
    assert stored["symbols"] == built["symbols"] and stored["parameters"] == built["parameters"]
    assert set(stored["trees"]) == set(built["trees"])
    for name, tree in built["trees"].items():
        assert _normal(stored["trees"][name]) == _normal(tree), name


def test_a_changed_closed_form_is_told_apart_from_the_stored_tree() -> None:
    """c* with its sign flipped inside the root is a different tree, whatever the order of arguments."""
    wrong = from_sympy((sp.sqrt((cf.H - 1) ** 2 - 4) - (cf.H - 1)) / 2)
    assert _normal(wrong) != _normal(stored_forms.tree("c_star"))


def test_the_kernel_slope_is_the_derivative_of_the_equation() -> None:
    """The interval Newton step rests on g' (the kernel's derivative of the stored g): it agrees with SymPy's
    derivative of the closed form at points, and a wrong slope tree does not."""
    slope = sp.lambdify((cf.u, cf.n), sp.diff(cf.lambda_c_equation(cf.u, cf.n), cf.u), "mpmath")
    wrong = from_sympy(2 * sp.diff(cf.lambda_c_equation(cf.u, cf.n), cf.u))
    for u, n in ((Fraction(5, 2), 2), (Fraction(7, 2), 10), (Fraction(29, 2), 10**6)):
        with ctx.workprec(200):
            ours = lambda_c_roots._value(lambda_c_roots._G_SLOPE, Fraction(n), ball_of(u), 200)
            bad = lambda_c_roots._value(compile_trees(wrong), Fraction(n), ball_of(u), 200)
            with mpmath.workdps(60):
                expected = ball_of(Fraction(mpmath.nstr(slope(_q(u), n), 50)))
        assert abs(float(ours - expected)) < 1e-40 * abs(float(expected))
        assert abs(float(bad - expected)) > 1e-3 * abs(float(expected))


@pytest.mark.parametrize(
    ("start", "converges"),
    [
        (Fraction(2), False),
        (Fraction(21, 10), False),
        (Fraction(7, 2), True),
        (Fraction(4), True),
        (Fraction(30), True),
    ],
)
def test_an_interval_newton_step_certifies_only_a_box_holding_the_root(start: Fraction, converges: bool) -> None:
    """From points near and far, left and right of u_c(10) = 3.4976...: the step certifies a ball only when it holds
    the root and lies right of 2; left of the root, where g' < 0 near 2, Newton leaves for the negative side and
    nothing is certified."""
    with mpmath.workdps(100):
        root = ball_of(Fraction(mpmath.nstr(_lambda_c_root(10), 80)))
    with ctx.workprec(300):
        point = ball_of(start).mid()
    for _ in range(60):  # from 30, Newton first walks left by about 1 a step
        enclosure, point = lambda_c_roots._interval_newton(Fraction(10), point, 256)
        if enclosure is not None:
            with ctx.workprec(300):
                assert enclosure.contains(root.mid()) and enclosure > 2
            assert converges
            return
        if not point.is_finite():
            break
    assert not converges, "no enclosure from this start"


def test_the_sign_certificate_takes_over_when_the_interval_step_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lambda_c_roots, "_interval_newton", lambda tokens, point, prec, rough: (None, point))
    ball = lambda_c_roots.certify_root(Fraction(10), 500)
    with mpmath.workprec(560):
        root = Fraction(mpmath.nstr(_lambda_c_root(10), 160))
    with ctx.workprec(600):
        assert ball.contains(ball_of(root)) and ball.rel_accuracy_bits() >= 490


def test_an_uncertifiable_root_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lambda_c_roots, "_interval_newton", lambda tokens, point, prec, rough: (None, point))
    monkeypatch.setattr(lambda_c_roots, "_by_signs", lambda tokens, point, bits: None)
    with pytest.raises(lambda_c_roots.RootError, match="could not certify"):
        lambda_c_roots.certify_root(Fraction(10), 200)


@pytest.mark.parametrize("digits", [10_001, pytest.param(30_000, marks=pytest.mark.slow)])
def test_lambda_c_beyond_the_old_limit_of_ten_thousand_digits(digits: int) -> None:
    """Past the old limit, cross-checked by mpmath's precision-doubling Newton; its digits are the rounding of the
    ball at 10 more digits (an independent precision of the certified path)."""
    params = {"n": Fraction(10), "beta": Fraction(1)}
    result = constants.compute("lambda_c", params, digits)
    longer = constants.certify("lambda_c", params, digits + 10)
    assert result.correctly_rounded and result.rounded is not None and longer.rounded is not None
    assert abs(fmpz(longer.rounded.digits[:digits]) - fmpz(result.rounded.digits)) <= 1


def test_mpmath_s_doubling_newton_agrees_with_its_full_precision_newton() -> None:
    params = {"n": Fraction(1000), "beta": Fraction(1)}
    with mpmath.workprec(2000):
        expected = _lambda_c_root(1000)
    found = mpmath_value("lambda_c", params, 2000)
    with mpmath.workprec(2000):
        assert abs(found - expected) < mpmath.mpf(2) ** -1980 * expected


@pytest.mark.slow
def test_lambda_c_to_one_hundred_thousand_digits_from_the_command_line() -> None:
    import subprocess
    import sys

    argv = ["constants", "--quantity", "lambda_c", "--n", "10", "--digits", "100000", "--format", "csv"]
    run = subprocess.run(
        [sys.executable, "-m", "headflow", *argv],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    header, line = run.stdout.splitlines()[:2]
    row = dict(zip(header.split(","), line.split(","), strict=True))
    assert row["quantity"] == "lambda_c" and row["correctly_rounded"] == "True"
    assert len(row["value"].replace(".", "")) == 100_000
    with mpmath.workdps(100):
        assert row["value"][:80] == mpmath.nstr(_lambda_c_root(10), 90)[:80]


def _exact_rounding(value: Fraction, digits: int) -> tuple[int, str, int]:
    """(sign, digits, exponent) of a non-zero rational rounded to nearest, ties to even, with Fractions alone."""
    sign, magnitude = (1 if value > 0 else -1), abs(value)
    exponent = len(str(magnitude.numerator)) - len(str(magnitude.denominator))
    while Fraction(10) ** exponent > magnitude:
        exponent -= 1
    while Fraction(10) ** (exponent + 1) <= magnitude:
        exponent += 1
    scaled = magnitude * Fraction(10) ** (digits - 1 - exponent)
    whole, rest = divmod(scaled.numerator, scaled.denominator)
    if 2 * rest > scaled.denominator or (2 * rest == scaled.denominator and whole % 2):
        whole += 1
    if whole == 10**digits:
        whole, exponent = whole // 10, exponent + 1
    return sign, str(whole), exponent


def test_the_one_product_rounding_is_the_rounding_of_both_ends() -> None:
    """certified_digits, and its exact route alone (one long product m 10^k and shifts), against Fractions: the
    digits when both ends of the ball round alike, None otherwise, over balls near rounding boundaries, carries
    (9.99..), signs and decades."""
    import random

    from headflow.checks.constants.digits import _exact_digits, certified_digits

    rng = random.Random(28)
    seen = {"decided": 0, "undecided": 0}
    for _ in range(400):
        digits = rng.choice([1, 2, 5, 17, 60])
        exponent = rng.randint(-30, 30)
        unit = Fraction(10) ** (exponent - digits + 1)  # one unit of the last digit
        base = rng.randint(10 ** (digits - 1), 10**digits - 1) * unit
        near = base + rng.choice([0, 1, 5, -5, 10**digits]) * unit / 20  # 5: a tie; 10^digits: toward a carry
        centre = rng.choice([1, -1]) * (near + rng.randint(-3, 3) * unit / 10**5)
        radius = rng.randint(0, 9) * unit / 10 ** rng.randint(1, 8)
        with ctx.workprec(400):
            ball = arb(ball_of(centre).mid(), ball_of(radius).upper())
        middle, spread = exact_value(ball.mid()), exact_value(ball.rad())
        lo, hi = middle - spread, middle + spread
        if lo <= 0 <= hi:
            continue
        expected = _exact_rounding(lo, digits) if _exact_rounding(lo, digits) == _exact_rounding(hi, digits) else None
        for found in (certified_digits(ball, digits), _exact_digits(ball, digits)):
            assert (None if found is None else (found.sign, found.digits, found.exponent)) == expected, (centre, radius)
        seen["decided" if expected else "undecided"] += 1
    assert min(seen.values()) > 20


class _Mpz:
    """What gmpy2's mpz offers the conversion (mpmath's mantissa when it runs on gmpy2): an integer only through
    int(), never a Python int itself (python-flint's fmpq refused it: `headflow constants` crashed with gmpy2)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __int__(self) -> int:
        return self.value


def test_a_gmpy2_mantissa_becomes_the_exact_ball_of_the_mpmath_value() -> None:
    class Value:
        _mpf_ = (1, _Mpz(3), -3, 2)  # -3/8

    with ctx.workprec(64):
        assert constants._mpmath_ball(Value()) == ball_of(Fraction(-3, 8))  # type: ignore[arg-type]


def test_the_decimal_interval_decides_only_what_both_exact_ends_decide() -> None:
    """`_decimal_digits` (python-flint's decimal interval around the ball, a few digits wider) against Fractions:
    when it decides, its digits are those both exact ends of the ball round to; it defers (None) across zero and
    wherever a rounding boundary is inside or next to the ball, and a ball astride a boundary is never decided."""
    import random

    from headflow.checks.constants.digits import _decimal_digits

    rng = random.Random(4)
    seen = {"decided": 0, "deferred": 0}
    for _ in range(600):
        digits = rng.choice([1, 3, 17, 60, 400])
        exponent = rng.randint(-40, 40)
        unit = Fraction(10) ** (exponent - digits + 1)
        base = rng.randint(10 ** (digits - 1), 10**digits - 1) * unit
        near = base + rng.choice([0, 1, 5, 10, -10, 10**digits, rng.randint(0, 19)]) * unit / 20  # 10: a tie
        centre = rng.choice([1, -1]) * (near + rng.randint(-3, 3) * unit / 10 ** rng.randint(3, 30))
        radius = rng.randint(0, 9) * unit / 10 ** rng.randint(1, 40)
        with ctx.workprec(4 * digits + 200):
            ball = arb(ball_of(centre).mid(), ball_of(radius).upper())
        middle, spread = exact_value(ball.mid()), exact_value(ball.rad())
        lo, hi = middle - spread, middle + spread
        found = _decimal_digits(ball, digits)
        if found is None:
            seen["deferred"] += 1
            continue
        assert lo > 0 or hi < 0, (centre, radius)
        assert (found.sign, found.digits, found.exponent) == _exact_rounding(lo, digits) == _exact_rounding(hi, digits)
        seen["decided"] += 1
    assert min(seen.values()) > 50, seen
    with ctx.workprec(200):
        astride = arb(ball_of(Fraction(141425, 100000)).mid(), 1e-12)  # 1.41425 +- 1e-12 at 5 digits: 1.4142 or 1.4143
    assert _decimal_digits(astride, 5) is None
