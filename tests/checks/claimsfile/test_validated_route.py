"""Dynamics claims from the user's exact tokens decided along a validated enclosure of the trajectory (issue 42, item
3): a claim that fails at a time t > 0 is REFUTED with a ball there, a true one is not and carries the enclosure's
note, CERTIFIED where a kernel statement states it (a certificate the kernel replays), and models, sizes or horizons
the integrator does not cover fall back to the float route with the reason."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from flint import arb
from headflow.certificates.claims.loader import load_claims, parse_claims
from headflow.certificates.kernel.verify import check_file
from headflow.checks.claimsfile import validated_route
from headflow.checks.claimsfile.dynamics_decider import decide_closed
from headflow.checks.claimsfile.given_start import refuted_at_start
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict

from benchmarks.validated import configuration

ROOT = Path(__file__).resolve().parents[3]
#: Four tokens on the circle, usa in flat space: the first pair's gap falls from 1/5 to 0.018861 on [0, 1/4].
FLAT = """
[[claim]]
id = "c"
kind = "dynamics"
quantity = "first_pair_gap"
geometry = "flat"
heads = "scalar"
lambdas = [0.5]
tokens = "given"
points = [[1, 0], ["4/5", "3/5"], [0, 1], ["-5/13", "12/13"]]
n = 4
d = 2
beta = 0.5
time = 0.25
"""


def claim(text: str = FLAT, **fields: str):  # type: ignore[no-untyped-def]
    lines = "".join(f"{key} = {value}\n" for key, value in fields.items())
    (parsed,) = parse_claims(text + lines)
    return parsed


def test_a_level_one_percent_too_high_is_refuted_at_a_later_time(tmp_path: Path) -> None:
    """The start satisfies the bound exactly (1/5 >= 191/10000): only the enclosure refutes, at t = 1/4."""
    wrong = claim(property='"at-least"', bound='"191/10000"')
    assert refuted_at_start(wrong) is None
    outcome = decide_closed(wrong, Context("quick", seed=0, certificate_dir=tmp_path))
    assert outcome.verdict is Verdict.REFUTED, outcome
    witness = outcome.witness or {}
    assert witness["verified_by"] == "ball" and witness["time"] > 0
    assert "< 191/10000" in witness["reading"] and "0.0188607" in witness["value"]
    (path,) = outcome.certificates  # of the negation: the gap < 191/10000 at some t of [0, 1/4]
    assert check_file(Path(path)).ok and "certificate re-checked by the kernel" in outcome.notes


def test_a_true_claim_is_certified_with_the_enclosure_note(tmp_path: Path) -> None:
    """first_pair_gap <= 1/5, its exact start value: held over every step (the first one from the exact start), and
    a chain the kernel replays certifies it."""
    outcome = decide_closed(
        claim(property='"at-most"', bound='"1/5"'), Context("quick", seed=0, certificate_dir=tmp_path)
    )
    assert outcome.verdict is Verdict.CERTIFIED, outcome
    assert "a validated enclosure (balls) holds the bound on [0, 0.25]" in outcome.notes
    assert outcome.details["validated_enclosure"]["holds"] is True
    (path,) = outcome.certificates
    assert check_file(Path(path)).ok


def test_where_the_enclosure_stops_short_a_chain_the_kernel_replays_certifies_a_true_claim(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Lohner enclosure out of its budget after one step (as at n d = 64, where its pace stops it): the claim's
    own chain of steps reaches T and the kernel accepts it, so the claim is CERTIFIED with both reasons."""
    monkeypatch.setattr(validated_route, "PACE_STEPS", 1)
    monkeypatch.setitem(validated_route.WORK, "quick", 1)
    outcome = decide_closed(
        claim(property='"at-most"', bound='"1/5"'), Context("quick", seed=0, certificate_dir=tmp_path)
    )
    assert outcome.verdict is Verdict.CERTIFIED, outcome
    assert "the validated enclosure stopped" in outcome.notes and "a chain of validated steps" in outcome.notes
    assert check_file(Path(outcome.certificates[0])).ok
    ctx = Context("quick", seed=0, certificate_dir=tmp_path)
    wrong = validated_route.decide_by_enclosure(claim(property='"at-least"', bound='"191/10000"'), ctx)  # fails at T
    assert (
        wrong.decided is None
        and "the validated enclosure stopped" in wrong.note
        and "no replayable chain" in wrong.note
    )


@pytest.mark.slow
def test_a_claim_from_sixty_four_coordinates_is_certified_to_ten(tmp_path: Path) -> None:
    """Issue 42: eight softmax tokens in R^8 (n d = 64, the trajectory benchmark's start), the cluster gap at most
    its largest value 2 on [0, 10]: certified by a chain the kernel replays (about 45 s of CPU; the Lohner enclosure
    alone stops on its pace there, and the chain goes on)."""
    tokens = configuration(8, 8, "softmax").tokens
    points = "[" + ", ".join("[" + ", ".join(f'"{v}"' for v in x) + "]" for x in tokens) + "]"
    text = FLAT.replace('[[1, 0], ["4/5", "3/5"], [0, 1], ["-5/13", "12/13"]]', points)
    text = text.replace("n = 4\nd = 2", "n = 8\nd = 8").replace('geometry = "flat"\n', 'attention = "softmax"\n')
    text = text.replace("lambdas = [0.5]", "lambdas = [1.0]").replace("beta = 0.5", "beta = 1.0")
    text = text.replace("time = 0.25", "time = 10.0").replace('"first_pair_gap"', '"cluster_gap"')
    eight = claim(text, property='"at-most"', bound='"2"')
    outcome = decide_closed(eight, Context("thorough", seed=0, certificate_dir=tmp_path))
    assert outcome.verdict is Verdict.CERTIFIED, outcome
    assert check_file(Path(outcome.certificates[0])).ok


def test_a_head_energy_bound_is_certified_at_its_head(tmp_path: Path) -> None:
    """A head's energy: the statement is at its index h (`fixed`), and a bound beyond the start's value is refused."""
    text = FLAT.replace('quantity = "first_pair_gap"', 'quantity = "energy"')
    ctx = Context("quick", seed=0, certificate_dir=tmp_path)
    held = validated_route.decide_by_enclosure(claim(text, property='"at-least"', bound='"0"', head="0"), ctx)
    assert held.decided is not None and held.decided.verdict is Verdict.CERTIFIED, held.note
    assert check_file(Path(held.decided.certificates[0])).message.count("h = 0") == 1


def test_bounds_either_side_of_the_value_at_the_horizon_are_told_apart(tmp_path: Path) -> None:
    """The gap is 0.0188607... at t = 1/4, its least value: a lower bound 0.0188 holds, 0.0189 fails there."""
    ctx = Context("quick", seed=0, certificate_dir=tmp_path)
    held = validated_route.decide_by_enclosure(claim(property='"at-least"', bound='"0.0188"'), ctx)
    assert (
        held.decided is not None
        and held.decided.verdict is Verdict.CERTIFIED
        and "holds the bound" in held.decided.notes
    )
    failed = validated_route.decide_by_enclosure(claim(property='"at-least"', bound='"0.0189"'), ctx)
    assert failed.decided is not None and failed.decided.witness["time"] == 0.25


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"attention": '"relu"'}, "covers usa and softmax attention, not relu"),
        ({"time": "1000.0"}, "a pace that needs more than the quick profile"),
        ({"beta": "5000.0"}, "the validated enclosure stopped"),
    ],
)
def test_what_the_integrator_does_not_cover_falls_back_with_the_reason(fields: dict[str, str], reason: str) -> None:
    text = FLAT.replace("beta = 0.5\n", "").replace("time = 0.25\n", "")
    fields = {"beta": "0.5", "time": "0.25"} | fields
    enclosed = validated_route.decide_by_enclosure(
        claim(text, property='"at-most"', bound='"1/5"', **fields), Context("quick", seed=0)
    )
    assert enclosed.decided is None and reason in enclosed.note, enclosed.note
    assert enclosed.details["decided"] is False


def test_a_causal_mask_is_integrated_and_decided_by_the_enclosure(tmp_path: Path) -> None:
    """The integrator covers masks (the kernel's chain with the mask): a causal claim gets the enclosure's verdict,
    and a bound just past the masked trajectory's value is told apart from one just short of it."""
    text = FLAT.replace("beta = 0.5\n", "").replace("time = 0.25\n", "")
    fields = {"beta": "0.5", "time": "0.25", "mask": '"causal"'}
    ctx = Context("quick", seed=0, certificate_dir=tmp_path)
    held = validated_route.decide_by_enclosure(claim(text, property='"at-most"', bound='"1/5"', **fields), ctx)
    assert held.decided is not None and held.decided.verdict is Verdict.CERTIFIED, held.note
    assert '"mask"' in Path(held.decided.certificates[0]).read_text()  # the masked model is the one certified
    wrong = validated_route.decide_by_enclosure(claim(text, property='"at-most"', bound='"1/10"', **fields), ctx)
    assert wrong.decided is not None and wrong.decided.verdict is Verdict.REFUTED


def test_a_state_too_large_for_the_profile_is_not_integrated() -> None:
    points = "[" + ", ".join(["[1, 0]", "[0, 1]"] * 7) + "]"
    text = FLAT.replace('[[1, 0], ["4/5", "3/5"], [0, 1], ["-5/13", "12/13"]]', points).replace("n = 4", "n = 14")
    enclosed = validated_route.decide_by_enclosure(
        claim(text, property='"at-most"', bound='"1"'), Context("quick", seed=0)
    )
    assert "n x d = 28 is more than the quick profile encloses (24)" in enclosed.note


def test_claims_about_many_trajectories_are_not_read() -> None:
    """Random heads, or a statement about some start: no one trajectory, nothing to say."""
    random_heads = FLAT.replace('heads = "scalar"\nlambdas = [0.5]\n', 'heads = "random-symmetric"\nH = 1\n')
    for text in (random_heads,):
        enclosed = validated_route.decide_by_enclosure(
            claim(text, property='"at-most"', bound='"1/5"'), Context("quick", seed=0)
        )
        assert enclosed == validated_route.Enclosed()


def test_the_least_of_exact_and_ball_ends_stays_exact_where_it_decides() -> None:
    """A bound the exact start attains holds only if the least of the terms' ends stays the exact rational."""
    low = Fraction(21, 125)
    assert validated_route._extreme([low, arb("0.28 +/- 1e-10")], min) == low
    mixed = validated_route._extreme([low, arb("0.168 +/- 1e-3")], min)
    assert isinstance(mixed, arb) and mixed.contains(arb(0.1675)) and mixed.contains(arb("0.168"))
    # a step from the exact start with a rate >= 0 keeps the exact start as its lower end
    assert validated_route._over_step(low, arb("0.3"), arb("1.3 +/- 0.5"), Fraction(1, 8))[0] == low
    assert validated_route._over_step(low, arb("0.3"), arb("1 +/- 2"), Fraction(1, 8))[0] != low


@pytest.mark.slow
def test_the_examples_are_decided_rightly(tmp_path: Path) -> None:
    """examples/trajectories.toml (~150 s): the false neighbours REFUTED by the enclosure at t > 0 (a wrong limit: by
    the cone collapse theorem once it reaches an open hemisphere), each with a certificate of the negation that
    check-cert accepts, the true claims CERTIFIED."""
    claims = load_claims(ROOT / "examples" / "trajectories.toml")
    results = run_claims(register_claims(claims).claims(), Context("quick", seed=0, certificate_dir=tmp_path))
    verdicts = {r.claim.id: r.verdict for r in results}
    false = {"too-low", "too-high", "shear", "too-short", "too-long", "wrong-"}
    refuted = {i for i in verdicts if any(word in i for word in false)}
    assert refuted == {i for i, v in verdicts.items() if v is Verdict.REFUTED}, verdicts
    pointwise = {"usa.two-heads.energy.non-decreasing"}  # PROVED at every configuration (the pointwise route)
    assert all(verdicts[i] is Verdict.PROVED for i in pointwise), verdicts
    assert all(verdicts[i] is Verdict.CERTIFIED for i in set(verdicts) - refuted - pointwise), verdicts
    for result in results:
        outcome = result.outcomes[0][1]
        if result.claim.id in refuted:
            limit = "collapse" in result.claim.id  # the cone collapse theorem: no time of failure, a limit
            assert outcome.witness["verified_by"] == "ball" and (limit or outcome.witness["time"] > 0)
        if result.claim.id not in pointwise:
            (path,) = outcome.certificates
            assert check_file(Path(path)).ok


#: Two antipodal tokens and one between them (usa, the circle): in no open hemisphere at t = 0, in one at once.
ANTIPODAL = """
[[claim]]
id = "limit"
kind = "dynamics"
quantity = "cluster_gap"
heads = "scalar"
tokens = "given"
points = [[1, 0], [0, 1], [-1, 0]]
n = 3
d = 2
beta = 1.0
"""


@pytest.mark.parametrize(
    ("fields", "verdict"),
    [
        ({"property": '"tends-to"', "limit": '"0"'}, Verdict.CERTIFIED),
        ({"property": '"tends-to"', "limit": '"1/100"'}, Verdict.REFUTED),
        ({"property": '"does-not-tend-to"', "limit": '"0"'}, Verdict.REFUTED),
        ({"property": '"does-not-tend-to"', "limit": '"-1/100"'}, Verdict.CERTIFIED),
    ],
    ids=["tends-to-0", "wrong-limit", "does-not-tend-to-0", "does-not-tend-to-a-negative"],
)
def test_a_limit_is_decided_by_the_cone_collapse_theorem(tmp_path: Path, fields: dict, verdict: Verdict) -> None:
    """The chain reaches an open hemisphere; the kernel accepts the claim's limit statement or its negation's, and
    `check-cert --claims` elaborates the same statement from the claim again."""
    from headflow.checks.rechecks import recheck

    limit = claim(ANTIPODAL, lambdas="[1.0]", **fields)
    outcome = decide_closed(limit, Context("quick", seed=0, certificate_dir=tmp_path))
    assert outcome.verdict is verdict, outcome
    assert "cone collapse" in outcome.method and "every token in one open hemisphere at t ~" in outcome.notes
    (path,) = outcome.certificates
    rechecked = recheck(Path(path), claims={limit.id: limit}, read_claim=True)
    assert rechecked.ok and "in the limit" in rechecked.message, rechecked.message
    if verdict is Verdict.REFUTED:
        assert outcome.witness["verified_by"] == "ball" and "cone collapse theorem" in outcome.witness["reading"]
        limit_is = "limit is 0" if limit.property == "does-not-tend-to" else "limit is not 1/100"
        assert outcome.witness["reading"].endswith(limit_is), outcome.witness["reading"]


def test_a_limit_outside_the_theorems_model_has_no_certificate(tmp_path: Path) -> None:
    """Two heads of different strengths are not the theorem's model: no statement, the other routes decide, and the
    note says why."""
    mixed = claim(ANTIPODAL, lambdas="[1.0, 2.0]", property='"tends-to"', limit='"0"')
    enclosed = validated_route.decide_by_enclosure(mixed, Context("quick", seed=0, certificate_dir=tmp_path))
    assert enclosed.decided is None and "cone collapse theorem needs" in enclosed.note, enclosed
    assert not list(tmp_path.iterdir())


def test_a_limit_past_the_profiles_size_is_not_integrated(tmp_path: Path) -> None:
    """Seven tokens of S^3 (n d = 28 > 24, quick): the note says so and no chain is built."""
    rows = ", ".join(f"[{', '.join('1' if k == i % 4 else '0' for k in range(4))}]" for i in range(7))
    text = ANTIPODAL.replace("points = [[1, 0], [0, 1], [-1, 0]]", f"points = [{rows}]")
    sizes = text.replace("n = 3", "n = 7").replace("d = 2", "d = 4")
    big = claim(sizes, lambdas="[1.0]", property='"tends-to"', limit='"0"')
    enclosed = validated_route.decide_by_enclosure(big, Context("quick", seed=0, certificate_dir=tmp_path))
    assert enclosed.decided is None and "n x d = 28 is more than the quick profile encloses" in enclosed.note
    assert not list(tmp_path.iterdir())
