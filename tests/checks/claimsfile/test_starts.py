"""Starts and observables people use: the user's own tokens, a hemisphere, groups, a near collision; inner products,
clusters, the attention matrix and the clustering time (issue 27, item 5).

True and false examples are decided rightly (examples/starts.toml), a start that violates the claim is refuted
exactly, a witness must use exactly the given tokens, and bad token data (off the sphere, malformed, huge, a FIFO)
is one clear error.
"""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from headflow.certificates.claims.given_tokens import MAX_FILE_BYTES
from headflow.certificates.claims.loader import load_claims, parse_claims
from headflow.certificates.errors import InputError
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.kernel.exact import precision
from headflow.certificates.kernel.model_statements import term_of
from headflow.certificates.model_balls import term_ball
from headflow.certificates.statements.dynamics import HEMISPHERE, family_failures
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.model import families, field
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict

from tests.command import headflow

ROOT = Path(__file__).resolve().parents[3]
UNIT = '[["3/5", "4/5", 0], [1, 0, 0], [0, "-4/5", "3/5"], [0, 0, 1]]'


def claim(points: str, n: int = 4, d: int = 3, **fields: str) -> str:
    heads = {"heads": '"scalar"', "lambdas": "[1.0]"} if "heads" not in fields else {}
    body = {"quantity": '"energy"', "property": '"non-decreasing"', **heads} | fields
    lines = "\n".join(f"{key} = {value}" for key, value in body.items())
    return (
        f'[[claim]]\nid = "c"\nkind = "dynamics"\n{lines}\ntokens = "given"\npoints = {points}\n'
        f"n = {n}\nd = {d}\nbeta = 1.0\n"
    )


@pytest.mark.slow  # the whole example file (about 20 s of one worker): `headflow check examples/starts.toml` decides it
def test_the_examples_are_decided_rightly(tmp_path: Path) -> None:
    claims = load_claims(ROOT / "examples" / "starts.toml")
    results = run_claims(register_claims(claims).claims(), Context("quick", seed=0, certificate_dir=tmp_path))
    verdicts = {r.claim.id: r.verdict for r in results}
    refuted = {i for i in verdicts if any(word in i for word in ("wrong", "energy", "entropy", "early", "positive"))}
    assert refuted == {i for i, v in verdicts.items() if v is Verdict.REFUTED}, verdicts
    assert all(verdicts[i] is Verdict.CONFIRMED for i in set(verdicts) - refuted), verdicts
    exact = {r.claim.id: r.outcomes[0][1].witness for r in results if r.claim.id.startswith("given.")}
    assert exact["given.inner-products.start-wrong"]["value"] == "-3/5"
    assert exact["given.groups.merged-early"]["value"] == "2"
    assert exact["given.clustering-time.positive"]["value"] == "0"


def test_exact_tokens_must_be_exactly_unit_and_float_tokens_within_tolerance() -> None:
    tokens = parse_claims(claim(UNIT))[0].options["points"]
    assert tokens.exact and tokens.rows[0] == (Fraction(3, 5), Fraction(4, 5), Fraction(0))
    with pytest.raises(InputError, match="token 1 is not on the unit sphere: \\|x\\|\\^2 = 26/25"):
        parse_claims(claim('[["3/5", "4/5", 0], ["1", "1/5", 0], [0, 0, 1], [0, 1, 0]]'))
    floats = parse_claims(claim("[[0.6, 0.8, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]"))[0]
    assert not floats.options["points"].exact
    with pytest.raises(InputError, match="token 0 is not on the unit sphere"):
        parse_claims(claim("[[0.6, 0.8000001, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]"))
    with pytest.raises(InputError, match="the claim states n = 5"):
        parse_claims(claim(UNIT, n=5))
    with pytest.raises(InputError, match="same number of entries"):
        parse_claims(claim("[[1, 0, 0], [0, 1], [0, 0, 1], [1, 0, 0]]"))
    with pytest.raises(InputError, match="not a number"):
        parse_claims(claim('[["1", "x", 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]]'))


def test_token_files_are_read_with_limits(tmp_path: Path) -> None:
    X = families.random_sphere_tokens(4, 3, np.random.default_rng(0))
    np.save(tmp_path / "x.npy", X)
    np.save(tmp_path / "f.npy", np.asfortranarray(X))
    for name in ("x.npy", "f.npy"):
        rows = parse_claims(claim(f'"{name}"'), "t.toml", tmp_path)[0].options["points"].rows
        assert np.allclose(np.array(rows), X, atol=1e-15)
    (tmp_path / "exact.csv").write_text("3/5,4/5,0\n1,0,0\n0,-4/5,3/5\n0,0,1\n")
    assert parse_claims(claim('"exact.csv"'), "t.toml", tmp_path)[0].options["points"].exact
    bad = {
        "ragged.csv": ("1,0,0\n0,1\n0,0,1\n1,0,0\n", "same number of entries"),
        "words.csv": ("1,0,0\n0,one,0\n0,0,1\n1,0,0\n", "line 2.*not a number"),
        "quote.csv": ('1,0,0\n"0,1,0\n0,0,1\n', "not a number|malformed"),
        "off.csv": ("0.6,0.8,0\n2,0,0\n0,1,0\n0,0,1\n", "token 1 is not on the unit sphere"),
        "fake.npy": ("not numpy", "not a .npy file"),
        "x.txt": ("1,0,0\n", "a .npy or .csv file"),
    }
    for name, (text, reason) in bad.items():
        (tmp_path / name).write_text(text)
        with pytest.raises(InputError, match=reason):
            parse_claims(claim(f'"{name}"'), "t.toml", tmp_path)
    np.save(tmp_path / "strings.npy", np.array([["a", "b"], ["c", "d"]]))
    with pytest.raises(InputError, match="2-D array"):
        parse_claims(claim('"strings.npy"'), "t.toml", tmp_path)
    with open(tmp_path / "huge.csv", "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(InputError, match="larger than"):
        parse_claims(claim('"huge.csv"'), "t.toml", tmp_path)
    os.mkfifo(tmp_path / "pipe.csv")
    with pytest.raises(InputError, match="FIFO"):
        parse_claims(claim('"pipe.csv"'), "t.toml", tmp_path)
    with pytest.raises(InputError, match="cannot read"):
        parse_claims(claim('"missing.npy"'), "t.toml", tmp_path)


def test_bad_tokens_are_a_one_line_error_from_the_cli(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(claim('[["3/5", "3/5", 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]'))
    done = headflow("check", str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "not on the unit sphere" in done.stderr


def test_a_witness_of_a_given_start_must_use_exactly_the_given_tokens() -> None:
    options = parse_claims(claim(UNIT, heads='"random-general"', H="2"))[0].options
    rows = [list(row) for row in options["points"].rows]
    heads = [[[Fraction(int(i == j)) for j in range(3)] for i in range(3)]] * 2
    exact = ExactConfiguration(rows, heads, heads, Fraction(1), "sphere", "usa")
    assert family_failures(options, exact) == []
    other = [rows[1], rows[0], *rows[2:]]  # the same tokens, another start
    forged = ExactConfiguration(other, heads, heads, Fraction(1), "sphere", "usa")
    assert family_failures(options, forged) == ["the stated tokens"]


def test_the_hemisphere_condition_refuses_tokens_it_cannot_place() -> None:
    """<x_i, sum_j x_j> > 0 at every token (the statement's given condition of a hemisphere start), by balls."""
    term, heads = term_of(HEMISPHERE["lhs"]), [[[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]]

    def margins(tokens: list[list[Fraction]]) -> list[Any]:
        cfg = ExactConfiguration(tokens, heads, heads, Fraction(1))
        return [term_ball(term, cfg, i, None) for i in range(len(tokens))]

    half = [[Fraction(3, 5), Fraction(4, 5)], [Fraction(1), Fraction(0)], [Fraction(3, 5), Fraction(-4, 5)]]
    with precision(128):
        assert all(m > 0 for m in margins(half))
        assert not all(m > 0 for m in margins([[Fraction(1), Fraction(0)], [Fraction(-1), Fraction(0)]]))


def test_the_new_draws_and_observables() -> None:
    rng = np.random.default_rng(4)
    X = families.near_collision_tokens(6, 3, 1e-3, rng)
    assert abs(np.linalg.norm(X[0] - X[1]) - 1e-3) < 1e-12
    groups = families.group_tokens(9, 4, 3, 0.02, rng)
    cfg = Configuration.create(groups, families.scalar_heads([1.0], 4), beta=1.0)
    assert field.cluster_count(cfg, 0.1) == 3 and field.cluster_count(cfg, 3.0) == 1
    assert field.least_inner_product(cfg) < field.largest_inner_product(cfg) <= 1
    with pytest.raises(InputError, match="do not fit"):
        families.group_tokens(8, 2, 8, 0.3, rng)


def test_exact_angles_that_violate_the_claim_at_the_start_refute_it_by_balls() -> None:
    """Angles 1/10^30 apart have a positive arc spread (floats round it to 0): "the spread is at least 1/10" is
    REFUTED at t = 0 by a ball, and "at most 1/10" is not refuted there."""
    text = """
    [[claim]]
    id = "spread.{name}"
    kind = "dynamics"
    quantity = "arc_spread"
    property = "{prop}"
    bound = "1/10"
    heads = "scalar"
    lambdas = [1.0]
    tokens = "angles"
    angles = ["0", "1/1000000000000000000000000000000", "1/2000000000000000000000000000000"]
    n = 3
    d = 2
    beta = 1.0
    time = 1.0
    """
    claims = [
        parse_claims(text.format(name=name, prop=prop))[0] for name, prop in (("low", "at-least"), ("high", "at-most"))
    ]
    results = {r.claim.id: r for r in run_claims(register_claims(claims).claims(), Context("quick", seed=0))}
    low = results["spread.low"]
    assert low.verdict is Verdict.REFUTED
    witness = low.outcomes[0][1].witness
    assert witness["verified_by"] == "ball"
    assert "the given angles" in witness["reading"] and "< 1/10" in witness["reading"]
    assert results["spread.high"].verdict is not Verdict.REFUTED


START_WRONG = claim(UNIT, quantity='"least_inner_product"', property='"non-negative"')


def test_a_refutation_at_the_start_carries_the_trajectory_certificate_of_the_negation(tmp_path: Path) -> None:
    """<x_1, x_3> = -16/25 is the least inner product at the start: REFUTED at t = 0,
    with a certificate of "the least inner product < 0 at some t of [0, T]" that the kernel accepts from the exact
    start (its chain's one step replayed too) and `check-cert --claims` holds to the file; the same certificate with
    the bound moved below the start's value is refused, and a bound the start meets writes none."""
    from headflow.certificates.kernel.verify import check_file
    from headflow.checks.rechecks import recheck

    from tests.forging import forged_file

    (result,) = run_claims(
        register_claims(parse_claims(START_WRONG)).claims(), Context("quick", certificate_dir=tmp_path)
    )
    outcome = result.outcomes[0][1]
    assert result.verdict is Verdict.REFUTED and outcome.witness["value"] == "-16/25"
    (path,) = [Path(p) for p in outcome.certificates]
    checked = check_file(path)
    assert checked.ok and "the least over i, j of inner(x_i, x_j) < 0 at some t in [0, 10]" in checked.proved
    assert "the bound shown at t ~ 0" in checked.message
    assert recheck(path, claims={c.id: c for c in parse_claims(START_WRONG)}, read_claim=True).ok

    def below(data: dict[str, Any]) -> None:
        data["statement"]["bound"] = "-1"

    assert not check_file(forged_file(path, tmp_path, below)).ok
    met = claim(UNIT, quantity='"least_inner_product"', property='"at-least"', bound='"-1"', time="0.5")
    (held,) = run_claims(register_claims(parse_claims(met)).claims(), Context("quick", certificate_dir=tmp_path / "m"))
    assert held.verdict is not Verdict.REFUTED


W2_TOKENS = '[[1, 0], [0, 1], ["3/5", "4/5"]]'  # |mean x| = sqrt(74)/15: W2 = sqrt(2 - 2 sqrt(74)/15) = 0.6287...


@pytest.mark.parametrize(
    ("quantity", "points", "prop", "bound", "refuted"),
    [
        ("w2_to_dirac", W2_TOKENS, "at-most", "3/5", True),
        ("w2_to_dirac", W2_TOKENS, "at-most", "63/100", False),  # 0.6287 <= 0.63 at t = 0
        ("merge_radius", '[[1, 0], ["99/101", "20/101"], [0, 1]]', "at-least", "1/5", True),  # sqrt(4/101) < 1/5
        ("merge_radius", '[[1, 0], ["99/101", "20/101"], [0, 1]]', "at-least", "19/100", False),  # 0.1990 >= 0.19
    ],
)
def test_w2_and_the_merge_radius_at_the_start_carry_the_certificate_of_their_square(
    quantity: str, points: str, prop: str, bound: str, refuted: bool, tmp_path: Path
) -> None:
    """W2 to the nearest Dirac mass and the least distance between two tokens are, on the sphere, sqrt(2 - 2 |mean x|)
    and sqrt(2 - 2 <x_i, x_j>): a refutation at t = 0 carries the trajectory certificate of the negation with the
    square as the term and the bound squared (9/25, 1/25), which check-cert holds to the file; the same certificate with
    its bound moved past the start's value is refused; a bound the start meets is not refuted there."""
    from headflow.certificates.kernel.verify import check_file
    from headflow.checks.rechecks import recheck

    from tests.forging import forged_file

    k = {"k": "1"} if quantity == "merge_radius" else {}
    text = claim(points, n=3, d=2, quantity=f'"{quantity}"', property=f'"{prop}"', bound=f'"{bound}"', **k)
    (result,) = run_claims(register_claims(parse_claims(text)).claims(), Context("quick", certificate_dir=tmp_path))
    outcome = result.outcomes[0][1]
    assert (result.verdict is Verdict.REFUTED) == refuted
    if not refuted:
        return
    (path,) = [Path(p) for p in outcome.certificates]
    checked = check_file(path)
    square = str(Fraction(bound) ** 2)
    assert checked.ok and f"{'>' if prop == 'at-most' else '<'} {square} at some t in [0, 10]" in checked.proved
    assert recheck(path, claims={c.id: c for c in parse_claims(text)}, read_claim=True).ok
    past = "16/25" if quantity == "w2_to_dirac" else "1/100"  # beyond the start's 0.395 (W2^2) or 0.0396 (distance^2)

    def moved(data: dict[str, Any]) -> None:
        data["statement"]["bound"] = past

    assert not check_file(forged_file(path, tmp_path, moved)).ok


@pytest.mark.parametrize(
    "edit",
    [
        {"k": "2"},  # the second merge radius is no pair's distance
        {"geometry": '"flat"'},  # off the sphere W2 is sqrt(s + 1 - 2 |m|)
        {"bound": '"-1/5"'},  # a negative bound is not its square's
    ],
)
def test_w2_and_merge_radius_statements_only_where_the_square_reads_them(edit: dict[str, str]) -> None:
    """The squared observables are stated on the sphere, for the first merge radius, against a bound >= 0 only."""
    from headflow.certificates.statements.trajectory import statement

    fields = {"quantity": '"merge_radius"', "k": "1", "property": '"at-least"', "bound": '"1/5"'}
    points = '[[1, 0], ["99/101", "20/101"], [0, 1]]'
    (genuine,) = parse_claims(claim(points, n=3, d=2, **fields))
    (edited,) = parse_claims(claim(points, n=3, d=2, **(fields | edit)))
    assert statement(genuine, True) is not None and statement(edited, True) is None
