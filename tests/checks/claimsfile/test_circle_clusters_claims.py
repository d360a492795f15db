"""Claims about two clusters decided on the gap angle's ODE (`checks.claimsfile.cluster_route`): the exact rate and
limit, the order parameter's monotonicity, deliberately wrong statements refuted, and attacks (huge n, clusters
closer than float precision, families outside the route)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.checks.claimsfile import cluster_route
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict

from tests.checks.claimsfile.claim_texts import claim_text


def decide(text: str, directory: Path) -> dict[str, tuple[Verdict, dict]]:
    registry = register_claims(parse_claims(textwrap.dedent(text), "t.toml"))
    results = run_claims(registry.claims(), Context("quick", seed=0, certificate_dir=directory))
    assert not any(r.crashed for r in results)
    return {r.claim.id: (r.verdict, r.outcomes[0][1].as_dict()) for r in results}


def _points(sizes: tuple[int, int], b: tuple[str, str]) -> str:
    rows = ["[1, 0]"] * sizes[0] + [f'["{b[0]}", "{b[1]}"]'] * sizes[1]
    return "[" + ", ".join(rows) + "]"


def _two(claim_id: str, sizes: tuple[int, int] = (3, 2), b: tuple[str, str] = ("3/5", "4/5"), **fields: str) -> str:
    base = {
        "heads": '"scalar"',
        "lambdas": "[1.0]",
        "tokens": '"given"',
        "points": _points(sizes, b),
        "n": str(sum(sizes)),
        "d": "2",
        "beta": "1.0",
    }
    return claim_text(claim_id, **(base | fields))


def _gap_rate(rate: str, **fields: str) -> dict[str, str]:
    return {"quantity": '"cluster_gap"', "property": '"decays-at-rate"', "rate": f'"{rate}"'} | fields


def test_the_gap_rate_and_limits_are_exact(tmp_path: Path) -> None:
    """usa: rate 2 sum_h lambda_h e^(beta lambda_h) whatever n1, n2; softmax 2 sum_h lambda_h; relu 2 beta sum lambda^2;
    a rate n times too slow (the per-token 1/n kept) is refuted, and so is the limit 1 of R for antipodal clusters."""
    text = "".join(
        [
            _two("usa", **_gap_rate("2*exp(1)")),
            _two("usa.wrong", **_gap_rate("2*exp(1)/5")),
            _two("softmax", **_gap_rate("3", attention='"softmax"', lambdas="[1.0, 0.5]")),
            _two("relu", **_gap_rate("4", attention='"relu"', beta="2.0")),
            _two("antipodal.R", b=("-1", "0"), quantity='"order_parameter"', property='"tends-to"', limit='"1"'),
            _two("antipodal.R.true", b=("-1", "0"), quantity='"order_parameter"', property='"tends-to"', limit='"1/5"'),
            _two("rho.limit", quantity='"least_inner_product"', property='"tends-to"', limit='"1"'),
            _two("arc.limit", quantity='"arc_spread"', property='"tends-to"', limit='"0"'),
            _two("arc.antipodal", b=("-1", "0"), quantity='"arc_spread"', property='"tends-to"', limit='"pi"'),
            _two("arc.antipodal.wrong", b=("-1", "0"), quantity='"arc_spread"', property='"tends-to"', limit='"0"'),
        ]
    )
    verdicts = decide(text, tmp_path)
    expected = {
        "usa": Verdict.PROVED,
        "usa.wrong": Verdict.REFUTED,
        "softmax": Verdict.PROVED,
        "relu": Verdict.PROVED,
        "antipodal.R": Verdict.REFUTED,
        "antipodal.R.true": Verdict.PROVED,
        "rho.limit": Verdict.PROVED,
        "arc.limit": Verdict.PROVED,
        "arc.antipodal": Verdict.PROVED,
        "arc.antipodal.wrong": Verdict.REFUTED,
    }
    assert {k: v for k, (v, _) in verdicts.items()} == expected
    assert verdicts["usa.wrong"][1]["witness"]["exact_rate"] == "2*E"
    assert all(cluster_route.METHOD in evidence["method"] for _, evidence in verdicts.values())


def test_the_order_parameter_is_monotone_exactly_when_rho_is(tmp_path: Path) -> None:
    """Attraction (lambda > 0): R non-decreasing is PROVED; repulsion (lambda < 0): K(rho0) < 0, REFUTED by a ball."""
    R = {"quantity": '"order_parameter"', "property": '"non-decreasing"'}
    verdicts = decide(_two("attract", **R) + _two("repel", lambdas="[-1.0]", **R), tmp_path)
    assert verdicts["attract"][0] is Verdict.PROVED
    assert verdicts["repel"][0] is Verdict.REFUTED
    assert verdicts["repel"][1]["witness"]["verified_by"] == "ball"


def test_huge_n_and_clusters_closer_than_float_precision(tmp_path: Path) -> None:
    """50 tokens in two clusters decide in the same way (the route is O(1) in n); clusters 2e-20 apart (one point
    in floats) still have the exact rate, and the wrong rate 0 (what one coincident cluster shows in floats) is
    refuted."""
    near = (f"{(10**40 - 1)}/{10**40 + 1}", f"{2 * 10**20}/{10**40 + 1}")  # ((1 - t^2), 2t)/(1 + t^2), t = 1e-20
    text = "".join(
        [
            _two("huge", sizes=(30, 20), **_gap_rate("2*exp(1)")),
            _two("near", b=near, **_gap_rate("2*exp(1)")),
            _two("near.zero", b=near, **_gap_rate("0")),
        ]
    )
    verdicts = decide(text, tmp_path)
    assert verdicts["huge"][0] is Verdict.PROVED
    assert verdicts["near"][0] is Verdict.PROVED
    assert verdicts["near.zero"][0] is Verdict.REFUTED


def test_the_route_stays_out_of_other_families() -> None:
    """Pre-LN, three distinct points, general heads: the route does not apply (the float evidence decides)."""
    rate = _gap_rate("2*exp(1)")
    three = '[[1, 0], ["3/5", "4/5"], [0, 1]]'
    claims = parse_claims(
        textwrap.dedent(
            _two("pre", geometry='"pre-ln"', **rate)
            + _two("three", points=three, n="3", **rate)
            + _two("general", heads='"random-general"', lambdas=None, **rate).replace("lambdas = None\n", "")
        ),
        "t.toml",
    )
    assert not any(cluster_route.applies(claim) for claim in claims)


def _angles(claim_id: str, angles: list[str], **fields: str) -> str:
    listed = "[" + ", ".join(f'"{a}"' for a in angles) + "]"
    base = {"heads": '"scalar"', "lambdas": "[1.0]", "tokens": '"angles"', "angles": listed}
    return claim_text(claim_id, **(base | {"n": str(len(angles)), "d": "2", "beta": "1.0"} | fields))


def test_claims_about_angles_are_decided_exactly_where_the_angles_allow(tmp_path: Path) -> None:
    """Equally spaced angles (in any order, any rotation) are the equilibrium; two angles' clusters the gap ODE
    (cos(2 pi/5) = (sqrt(5) - 1)/4 exact); angles 1e-30 apart have a positive arc spread at t = 0 (floats: 0); a
    near miss of equal spacing (one angle repeated) is not proved."""
    R0 = {"quantity": '"order_parameter"', "property": '"tends-to"', "limit": '"0"'}
    text = "".join(
        [
            _angles("spaced", ["pi/2", "7*pi/6", "-pi/6"], **R0),
            _angles("spaced.sync", ["pi/2", "7*pi/6", "-pi/6"], **(R0 | {"limit": '"1"'})),
            _angles("not.spaced", ["pi/2", "pi/2", "7*pi/6", "-pi/6"], **R0),
            _angles("two", ["0", "0", "2*pi/5"], **_gap_rate("2*exp(1)")),
            _angles("two.wrong", ["0", "0", "2*pi/5"], **_gap_rate("exp(1)")),
            _angles("tiny", ["0", f"1/{10**30}", "0"], quantity='"arc_spread"', property='"at-most"', bound='"0"'),
        ]
    )
    verdicts = decide(text, tmp_path)
    assert verdicts["spaced"][0] is Verdict.PROVED and verdicts["spaced.sync"][0] is Verdict.REFUTED
    assert verdicts["not.spaced"][0] is not Verdict.PROVED
    assert verdicts["two"][0] is Verdict.PROVED and verdicts["two.wrong"][0] is Verdict.REFUTED
    assert verdicts["tiny"][0] is Verdict.REFUTED and verdicts["tiny"][1]["witness"]["verified_by"] == "ball"


def test_the_equilibrium_route_refuses_masks_and_repulsion_under_a_scheme() -> None:
    """A causal mask breaks the pairing k <-> n - k, and under Pre-LN beta < 0 makes a < 0 (|x| shrinks to 0): both
    were PROVED before, while the tokens in fact synchronize; the route must not apply."""
    from headflow.checks.claimsfile import circle_route

    R0 = {"quantity": '"order_parameter"', "property": '"tends-to"', "limit": '"0"', "tokens": '"equally-spaced"'}
    text = claim_text("masked", heads='"scalar"', lambdas="[1.0]", n="5", d="2", beta="1.0", mask='"causal"', **R0)
    text += claim_text(
        "repulsive", heads='"scalar"', lambdas="[1.0]", n="5", d="2", beta="-1.0", geometry='"pre-ln"', **R0
    )
    claims = parse_claims(textwrap.dedent(text), "t.toml")
    assert not any(circle_route.applies(claim) for claim in claims)


def test_the_scheme_energy_route_proves_only_where_the_energy_is_a_gradient() -> None:
    """usa and one softmax head under each scheme: in the route; several softmax heads (the example's REFUTED claim),
    general heads, spd values, a mask, Post-LN itself (the paper's own claims decide it): out of it."""
    from headflow.checks.claimsfile import scheme_energy

    energy = {"quantity": '"energy"', "property": '"non-decreasing"', "tokens": '"random-sphere"', "n": "4"}
    symmetric = {"heads": '"random-symmetric"', "d": "3", "beta": "1.0"} | energy
    inside = [
        claim_text(f"in.{g}", geometry=f'"{g}"', **symmetric) for g in ("pre-ln", "peri-ln", "mix-ln", "ngpt")
    ] + [claim_text("in.softmax", geometry='"ngpt"', attention='"softmax"', **symmetric)]
    outside = [
        claim_text("out.softmax2", geometry='"ngpt"', attention='"softmax"', H="2", **symmetric),
        claim_text("out.general", geometry='"pre-ln"', **(symmetric | {"heads": '"random-general"'})),
        claim_text("out.spd", geometry='"pre-ln"', values='"spd"', **symmetric),
        claim_text("out.mask", geometry='"pre-ln"', mask='"causal"', **symmetric),
        claim_text("out.sphere", **symmetric),
    ]
    claims = parse_claims(textwrap.dedent("".join(inside + outside)), "t.toml")
    assert [scheme_energy.applies(claim) for claim in claims] == [True] * len(inside) + [False] * len(outside)


def test_angles_need_the_circle_and_exact_text() -> None:
    """d = 3, a float literal angle, and a count that is not n: one-line errors naming the field (the CLI prints
    them and exits 2, as for every ClaimsFileError)."""
    from headflow.certificates.claims.problems import ClaimsFileError

    R = {"quantity": '"order_parameter"', "property": '"non-negative"'}
    for text, field in (
        (_angles("d3", ["0", "pi"], d="3", **R), "d"),
        (_angles("float", ["0", "pi"], **R).replace('"pi"]', "3.14159]"), "angles[1]"),
        (_angles("count", ["0", "pi"], n="3", **R), "angles"),
    ):
        with pytest.raises(ClaimsFileError, match=field.replace("[", r"\[")):
            parse_claims(textwrap.dedent(text), "t.toml")


def test_no_witness_certificate_can_speak_for_an_angles_family() -> None:
    """Exact witnesses need rational tokens of the family; angles are not checked for membership exactly, so the
    checker's family hypotheses are None and check-cert rejects any witness of such a claim (a forged one too)."""
    from headflow.certificates.statements.dynamics import family_hypotheses

    energy = {"quantity": '"energy"', "property": '"non-decreasing"'}
    (claim,) = parse_claims(textwrap.dedent(_angles("e", ["0", "1/2", "pi/3"], **energy)), "t.toml")
    assert family_hypotheses(claim.options) is None


def test_the_arc_spread_within_a_half_circle_is_bounded_by_its_start(tmp_path: Path) -> None:
    """s(0) = 3 pi/4 exactly (the largest gap is 3 pi/4 -> 2 pi): at most 3 pi/4 PROVED (softmax, two heads; Pre-LN),
    the floats of the integrated trajectory agree; at most 2 (< s(0)) REFUTED at t = 0; a wrong direction (repulsion,
    lambda < 0) is outside the route."""
    from headflow.checks.claimsfile import arc_route, dynamics_decider

    angles = ["0", "1/2", "pi/4", "3*pi/4", "2"]
    arc = {"quantity": '"arc_spread"', "property": '"at-most"', "bound": '"3*pi/4"'}
    text = "".join(
        [
            _angles("softmax", angles, attention='"softmax"', lambdas="[1.0, 2.0]", **arc),
            _angles("pre-ln", angles, geometry='"pre-ln"', **arc),
            _angles("tight", angles, **(arc | {"bound": '"2"'})),
            _angles("repulsive", angles, lambdas="[-1.0]", **arc),
        ]
    )
    verdicts = decide(text, tmp_path)
    assert verdicts["softmax"][0] is Verdict.PROVED and verdicts["pre-ln"][0] is Verdict.PROVED
    assert arc_route.METHOD in verdicts["softmax"][1]["method"]
    assert verdicts["tight"][0] is Verdict.REFUTED
    claims = parse_claims(textwrap.dedent(text), "t.toml")
    assert not arc_route.applies(claims[3])
    floats = dynamics_decider._decide_numerically(claims[0], Context("quick", seed=0, certificate_dir=tmp_path))
    assert floats.verdict is Verdict.CONFIRMED
