"""`decays-like`: q(t) -> 0 and q(t)/like(t) -> C in (0, oo), `like` an expression of t.

Decided exactly on the equiangular reductions (`checks.claimsfile.rate_shapes` on the form each reduction proves:
Pre-LN's C t^(-2), nGPT's C e^(-2 t), Post-LN's C e^(-r* t)) by the checked limits of `identities.growth`, and by a
fit elsewhere (at most CONFIRMED, never REFUTED); a bad `like` is a one-line InputError."""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy as sp
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.schema import TIME
from headflow.certificates.errors import InputError
from headflow.checks.verdicts import Verdict
from headflow.identities import growth, signs
from headflow.identities.derivation import Derivation

from tests.checks.claimsfile.test_model_claims import decide

CLAIM = """
[[claim]]
id = "{id}"
kind = "dynamics"
quantity = "cluster_gap"
property = "decays-like"
like = "{like}"
geometry = "{geometry}"
attention = "{attention}"
heads = "scalar"
lambdas = [1.0]
tokens = "equiangular"
rho = 0.2
n = 4
d = 4
beta = 1.0
"""


def claim(claim_id: str, like: str, geometry: str = "pre-ln", attention: str = "softmax") -> str:
    return CLAIM.format(id=claim_id, like=like, geometry=geometry, attention=attention)


def test_the_pre_ln_power_law_is_proved_and_its_neighbours_refuted(tmp_path: Path) -> None:
    text = (
        claim("power", "t**(-2)")
        + claim("decimal", "5*(t + 3)**(-2.0)")  # a decimal literal is the exact rational of its text
        + claim("slower", "t**(-1)")
        + claim("faster", "t**(-3)")
        + claim("exponential", "exp(-t)")
        + claim("logarithmic", "log(t)/t**2")
    )
    verdicts = decide(text, tmp_path)
    assert {k: v for k, (v, _) in verdicts.items()} == {
        "power": Verdict.PROVED,
        "decimal": Verdict.PROVED,
        "slower": Verdict.REFUTED,
        "faster": Verdict.REFUTED,
        "exponential": Verdict.REFUTED,
        "logarithmic": Verdict.REFUTED,
    }
    steps = [step["text"] for step in verdicts["power"][1]["steps"]]
    assert any("eps(t) ~ C t^(-p)" in step for step in steps) and any("p = r*/(k V*) = 2/k = 2" in s for s in steps)
    assert verdicts["power"][1]["details"]["asymptotic_form"] == "C * t**(-2)"
    assert "decays faster than 1/t" in verdicts["slower"][1]["witness"]["reading"]
    assert "decays slower than t**(-3)" in verdicts["faster"][1]["witness"]["reading"]
    assert "decays slower than exp(-t)" in verdicts["exponential"][1]["witness"]["reading"]


def test_exponential_forms_post_ln_and_ngpt(tmp_path: Path) -> None:
    text = (
        claim("post", "exp(-2*exp(1)*t)", "sphere", "usa")  # usa's exact rate 2 e
        + claim("post-softmax-rate", "exp(-2*t)", "sphere", "usa")  # softmax's rate: a ball signs 2 - 2 e
        + claim("ngpt", "exp(-2*t)", "ngpt", "usa")
        + claim("ngpt-power", "t**(-2)", "ngpt", "usa")
    )
    verdicts = decide(text, tmp_path)
    assert {k: v for k, (v, _) in verdicts.items()} == {
        "post": Verdict.PROVED,
        "post-softmax-rate": Verdict.REFUTED,
        "ngpt": Verdict.PROVED,
        "ngpt-power": Verdict.REFUTED,
    }
    assert verdicts["post-softmax-rate"][1]["witness"]["verified_by"] == "ball"


def test_a_gap_that_does_not_tend_to_zero_decays_like_nothing(tmp_path: Path) -> None:
    text = claim("repulsive", "exp(-t)", "sphere", "usa").replace("[1.0]", "[-1.0]")
    verdict, evidence = decide(text, tmp_path)["repulsive"]
    assert verdict is Verdict.REFUTED and "does not decay" in evidence["witness"]["reading"], evidence


def test_the_float_route_confirms_at_most_and_never_refutes(tmp_path: Path) -> None:
    # The interaction written out (softmax's own exp(beta s)) keeps the claim off the exact routes: a fit decides.
    fitted = CLAIM.replace('geometry = "{geometry}"\n', 'interaction = "exp(beta*s)"\n')
    text = fitted.format(id="right", like="exp(-2*t)", attention="softmax")
    text += fitted.format(id="wrong", like="exp(-t)", attention="softmax")
    verdicts = decide(text.replace("n = 4\nd = 4", "n = 3\nd = 3"), tmp_path)
    assert verdicts["right"][0] is Verdict.CONFIRMED, verdicts["right"]
    assert verdicts["wrong"][0] is Verdict.INCONCLUSIVE, verdicts["wrong"]
    assert abs(verdicts["right"][1]["details"]["worst_start"]["fitted"] - 1) < 1e-3


@pytest.mark.parametrize(
    ("like", "text", "field"),
    [
        ("s**(-2)", "s", "like"),  # not a symbol of the claim: t is the time
        ("t**(-2", "", "like"),
        ("__import__('os')", "", "like"),
        ("0*t", "is 0", "like"),  # the ratio q/like is undefined: refused, not REFUTED with a reading of |q/0|
        ("t - t", "is 0", "like"),
    ],
)
def test_a_bad_like_is_a_one_line_input_error(like: str, text: str, field: str) -> None:
    with pytest.raises(InputError) as info:
        parse_claims(claim("bad", like), "t.toml")
    assert info.value.field == field and text in str(info.value)


def test_like_belongs_to_decays_like_and_t_to_its_like() -> None:
    with pytest.raises(InputError) as missing:
        parse_claims(claim("bad", "t").replace('like = "t"\n', ""), "t.toml")
    assert missing.value.field == "like"
    rate = claim("bad", "t").replace('"decays-like"', '"decays-at-rate"')
    with pytest.raises(InputError) as misplaced:
        parse_claims(rate, "t.toml")
    assert misplaced.value.field == "like"
    with pytest.raises(InputError) as no_time:  # t is the time of a like only
        parse_claims(rate.replace('like = "t"', 'rate = "t"'), "t.toml")
    assert no_time.value.field == "rate"


@pytest.mark.parametrize(
    ("f", "g", "status"),
    [
        (TIME**-2, TIME**-2 / 3, growth.FINITE),
        (TIME**-2, 1 / TIME, growth.ZERO),
        (TIME**-2, sp.exp(-sp.sqrt(TIME)), growth.INFINITE),
        (sp.exp(-TIME), TIME**-5, growth.ZERO),
        (sp.exp(-2 * TIME), sp.exp(-(TIME**2)), growth.INFINITE),
        (TIME**-2, -(TIME**-2), growth.NEGATIVE),
        (TIME**-2, TIME**-2 * sp.sin(TIME) + 2 * TIME**-2, growth.UNDECIDED),  # oscillates: not settled
    ],
)
def test_growth_compares_shapes_by_checked_limits(f: sp.Expr, g: sp.Expr, status: str) -> None:
    derivation = Derivation()
    found = growth.compare(f, g, TIME, signs.facts(positive=[TIME]), derivation)
    assert found.status == status, found
    assert not derivation.failures
