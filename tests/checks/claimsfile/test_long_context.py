"""Long contexts, beta = gamma log n: asymptotic claims decided at every regime of gamma (issue 43, item 2).

The own token's softmax weight among orthogonal tokens is e^beta/(e^beta + n - 1) = n**gamma/(n**gamma + n - 1):
it tends to 1 for gamma > 1, to 0 for gamma < 1 and to 1/2 at gamma = 1. Which power of n dominates is proved from
the domain of gamma (`identities.power_scales`, `identities.signs.prove_using_upper_ends`), never read off SymPy; a
domain straddling gamma = 1 is refuted at a point of it (`asymptotic_decider._refuted_at_a_point`).
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp
from headflow.checks.verdicts import Verdict
from headflow.identities import limits, power_scales, signs

from tests.checks.claimsfile.test_asymptotic import claim, decide

WEIGHT = "n**gamma/(n**gamma + n - 1)"
SUB = '{ n = "integer>=2", gamma = "[1/4, 1/2]" }'
SUPER = '{ n = "integer>=2", gamma = "[2, 3]" }'

n, gamma, lam = sp.Symbol("n", positive=True), sp.Symbol("gamma", positive=True), sp.Symbol("lam", positive=True)


def gamma_in(low: sp.Rational, high: sp.Rational) -> signs.Facts:
    """The facts a domain [low, high] of gamma gives (as `asymptotic_quantities.domain_facts` writes them)."""
    above = sp.Dummy("gamma_above")
    return signs.facts(nonnegative=[above, high - gamma], shifts={gamma: (above, low)})


def weight_claims(limit_of: dict[str, tuple[str, str]]) -> dict[str, tuple[Verdict, dict]]:
    text = "".join(
        claim(ident, quantity="expression", expr=WEIGHT, domain=domain, limit=value, **{"as": "n -> oo"})
        for ident, (domain, value) in limit_of.items()
    )
    return decide(text)


def test_every_regime_of_the_own_weight_is_decided_and_a_wrong_limit_is_refuted() -> None:
    verdicts = weight_claims(
        {
            "sub": (SUB, "0"),
            "sub-wrong": (SUB, "1"),  # deliberately wrong: the subcritical weight -> 0
            "super": (SUPER, "1"),
            "super-wrong": (SUPER, "0"),  # deliberately wrong: the supercritical weight -> 1
            "super-half": (SUPER, "1/2"),  # deliberately wrong: 1/2 only at gamma = 1
            "critical": ('{ n = "integer>=2", gamma = "[1, 1]" }', "1/2"),
            "critical-wrong": ('{ n = "integer>=2", gamma = "[1, 1]" }', "1"),
        }
    )
    assert {k: v for k, (v, _) in verdicts.items()} == {
        "sub": Verdict.PROVED,
        "sub-wrong": Verdict.REFUTED,
        "super": Verdict.PROVED,
        "super-wrong": Verdict.REFUTED,
        "super-half": Verdict.REFUTED,
        "critical": Verdict.PROVED,
        "critical-wrong": Verdict.REFUTED,
    }
    proof = " ".join(step["text"] for step in verdicts["sub"][1]["steps"])
    # the order of the exponents is a sign proof from gamma's upper end, recorded in the limit step
    assert "exponent 1 > gamma" in proof and "gamma's upper end" in proof, proof
    assert "n = e^u" in proof


@pytest.mark.slow  # about 8 s of limit searches: the default suite keeps within its 5 minutes
def test_a_domain_straddling_the_critical_gamma_is_refuted_at_a_point_where_the_limit_differs() -> None:
    verdicts = weight_claims(
        {
            "one": ('{ n = "integer>=2", gamma = "[1/2, 2]" }', "1"),
            "zero": ('{ n = "integer>=2", gamma = "[1/2, 2]" }', "0"),
            "zero-up-to-one": ('{ n = "integer>=2", gamma = "[1/2, 1]" }', "0"),  # fails only at gamma = 1
            "open": ('{ n = "integer>=2", gamma = { min = "1/2", max = 1, max_open = true } }', "0"),
        }
    )
    assert {k: v for k, (v, _) in verdicts.items()} == {
        "one": Verdict.REFUTED,
        "zero": Verdict.REFUTED,
        "zero-up-to-one": Verdict.REFUTED,
        "open": Verdict.PROVED,  # gamma < 1 throughout: 1 - gamma > 0 from the open upper end
    }
    for ident, claimed in (("one", 1), ("zero", 0), ("zero-up-to-one", 0)):
        witness = verdicts[ident][1]["witness"]
        assert witness["verified_by"] == "exact"
        name, value = witness["point"].split(" = ")
        g = sp.Rational(value)
        assert name == "gamma" and sp.Rational(1, 2) <= g <= 2
        exact = 1 if g > 1 else 0 if g < 1 else sp.Rational(1, 2)  # the limit at that gamma, by hand
        assert exact != claimed
        far = mpmath.mpf(10) ** 60  # a float look at the witness's reading, independent of the route
        at = far ** mpmath.mpf(float(g)) / (far ** mpmath.mpf(float(g)) + far - 1)
        assert abs(at - exact) < 1e-3, (ident, g, at)


def test_the_route_compares_powers_only_through_proved_orders() -> None:
    weight = n**gamma / (n**gamma + n - 1)
    assert power_scales.limit(weight, n, gamma_in(sp.Integer(2), sp.Integer(3)))[0] == 1
    assert power_scales.limit(weight, n, gamma_in(sp.Rational(1, 4), sp.Rational(1, 2)))[0] == 0
    # gamma only positive: n**gamma against n is not settled, so no limit (never a guess)
    assert power_scales.limit(weight, n, signs.facts(positive=[gamma])) is None
    assert limits.at_infinity(weight, n, signs.facts(positive=[gamma])) is None
    # log factors: u^j against e^(c u), and a log in the leading term
    known = gamma_in(sp.Rational(1, 4), sp.Rational(1, 2))
    assert power_scales.limit(sp.log(n) ** 3 / n**gamma, n, known)[0] == 0
    with_log = n**gamma * sp.log(n) / (n**gamma * sp.log(n) + n**gamma + 7)
    assert power_scales.limit(with_log, n, gamma_in(sp.Integer(2), sp.Integer(3)))[0] == 1
    # a numerator that outgrows the denominator has no finite limit: left to the other routes
    assert power_scales.limit(n / (n**gamma + 1), n, known) is None
    # a dominant coefficient that vanishes on the domain (gamma = 1) is not divided by
    vanishing = (gamma - 1) * n**2 / ((gamma - 1) * n**2 + n)
    assert power_scales.limit(vanishing, n, gamma_in(sp.Integer(1), sp.Integer(2))) is None
    # a power of a sum with a symbolic exponent is not of this form
    assert power_scales.limit((n - 1) ** gamma / n**gamma, n, known) is None


def test_a_coefficient_vanishing_at_a_point_of_the_domain_is_refuted_there_not_proved() -> None:
    # (gamma - 1) n^2 / ((gamma - 1) n^2 + n) -> 1 for gamma > 1, but is 0 at gamma = 1
    expr = "(gamma - 1)*n**2/((gamma - 1)*n**2 + n)"
    verdicts = decide(
        claim("x", quantity="expression", expr=expr, domain='{ n = "integer>=2", gamma = "[1, 2]" }', limit="1",
              **{"as": "n -> oo"})
        + claim("y", quantity="expression", expr=expr, domain='{ n = "integer>=2", gamma = "[3/2, 2]" }', limit="1",
                **{"as": "n -> oo"})
    )  # fmt: skip
    assert verdicts["x"][0] is Verdict.REFUTED and verdicts["x"][1]["witness"]["point"] == "gamma = 1"
    assert verdicts["y"][0] is Verdict.PROVED


def test_upper_ends_count_in_the_sign_prover_and_nothing_false_is_proved() -> None:
    known = gamma_in(sp.Rational(1, 4), sp.Rational(1, 2))
    assert signs.prove(1 - gamma, ">0", known) is None  # the shift alone reads only the lower end
    assert signs.prove_using_upper_ends(1 - gamma, ">0", known) is not None
    assert signs.prove_using_upper_ends(gamma - sp.Rational(1, 8), ">0", known) is not None
    assert signs.prove_using_upper_ends(sp.Rational(1, 2) - gamma, ">0", known) is None  # 0 at gamma = 1/2
    assert signs.prove_using_upper_ends(gamma - sp.Rational(1, 3), ">0", known) is None  # false at 1/4
    assert signs.prove_using_upper_ends(sp.Rational(1, 3) - gamma, ">0", known) is None  # false at 1/2


@pytest.mark.slow  # about 8 s of limit searches: the default suite keeps within its 5 minutes
def test_long_context_rates_and_times_in_every_regime() -> None:
    both = '{ n = "integer>=2", gamma = "[2, 3]", lam = "[1, 2]" }'
    verdicts = decide(
        claim("rate-sub", quantity="expression", expr="n*rate(1, n, gamma*log(n))", domain=SUB, limit="2",
              **{"as": "n -> oo"})
        + claim("rate-sub-wrong", quantity="expression", expr="n*rate(1, n, gamma*log(n))", domain=SUB, limit="1",
                **{"as": "n -> oo"})
        + claim("time-super", quantity="expression", expr="1/rate(lam, n, gamma*log(n))", domain=both,
                order="Theta(n**(lam*gamma))", **{"as": "n -> oo"})
        + claim("time-super-wrong", quantity="expression", expr="1/rate(lam, n, gamma*log(n))", domain=both,
                order="O(n**gamma)", **{"as": "n -> oo"})
    )  # fmt: skip
    assert {k: v for k, (v, _) in verdicts.items()} == {
        "rate-sub": Verdict.PROVED,
        "rate-sub-wrong": Verdict.REFUTED,
        "time-super": Verdict.PROVED,
        # true at lam = 1, false for lam > 1 (gamma (lam - 1) >= 0 only): refuted at a point with lam > 1
        "time-super-wrong": Verdict.REFUTED,
    }
    assert "lam = 3/2" in verdicts["time-super-wrong"][1]["witness"]["point"]
