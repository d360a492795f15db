"""Dynamics claims with quantified parameters: the whole domain on the symbolic reduction, else exact points."""

from __future__ import annotations

import textwrap
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.checks.claimsfile.quantified_dynamics import METHOD as SAMPLED
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.claimsfile.symbolic_dynamics import METHOD as SYMBOLIC
from headflow.checks.cli import main
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict

from tests.checks.claimsfile.test_pointwise_route import float_route_only
from tests.command import headflow

EXAMPLE = Path(__file__).parents[3] / "examples" / "quantified.toml"


def decide(text: str, directory: Path) -> dict[str, tuple[Verdict, dict]]:
    registry = register_claims(parse_claims(text, "t.toml"))
    results = run_claims(registry.claims(), Context("quick", seed=3, certificate_dir=directory))
    assert not any(r.crashed for r in results)
    return {r.claim.id: (r.verdict, r.outcomes[0][1].as_dict()) for r in results}


def quantified(claim_id: str, fields: str, domain: str) -> str:
    return f'[[claim]]\nid = "{claim_id}"\nkind = "dynamics"\n{textwrap.dedent(fields)}\n[claim.domain]\n{domain}\n'


def test_the_example_is_proved_for_every_point_and_refuted_at_an_exact_point(tmp_path: Path) -> None:
    verdicts = decide(EXAMPLE.read_text(), tmp_path)
    for claim_id in ("softmax.rate.every-n", "usa.collapse.every-beta"):
        verdict, evidence = verdicts[claim_id]
        assert verdict is Verdict.PROVED, evidence.get("notes")
        assert evidence["method"] == SYMBOLIC
        texts = " | ".join(step["text"] for step in evidence["steps"])
        assert "for every point of the domain" in texts and "eps(t) -> 0" in texts
    # A deliberately wrong rate (2 lam + beta for softmax, whose rate is 2 lam): refuted at an exact point, where the
    # exact rate 2 lam differs from the claimed one.
    verdict, evidence = verdicts["softmax.rate.wrong"]
    assert verdict is Verdict.REFUTED
    point = {name: Fraction(value) for name, value in evidence["witness"]["parameter_point"].items()}
    assert Fraction(evidence["witness"]["exact_rate"]) == 2 * point["lam"] != 2 * point["lam"] + point["beta"]
    # Heads 1 and mu: S(rho0) = (e^(rho0) + mu e^(mu rho0)) / n < 0 at the refuting mu, so eps tends to n/(n-1).
    verdict, evidence = verdicts["usa.mixed.collapse.wrong"]
    assert verdict is Verdict.REFUTED and "4/3" in evidence["witness"]["reading"]
    mu = Fraction(evidence["witness"]["parameter_point"]["mu"])
    mu = mpmath.mpf(mu.numerator) / mu.denominator
    assert mpmath.exp(0.1) + mu * mpmath.exp(mu * mpmath.mpf("0.1")) < 0


MIXED = """\
quantity = "cluster_gap"
property = "tends-to"
limit = "0"
attention = "usa"
heads = "scalar"
lambdas = [1.0, "mu"]
tokens = "equiangular"
rho = 0.1
n = 4
d = 4
beta = 1.0
"""


@pytest.mark.slow
def test_where_the_symbolic_steps_do_not_close_exact_points_are_decided_and_listed(tmp_path: Path) -> None:
    # Heads of both signs: the sign of S(rho0) is not proved for every mu, but S(rho0) > 0 for mu >= -1/2, so every
    # point is PROVED on its own: CONFIRMED (finitely many points), with the points in the evidence.
    verdict, evidence = decide(quantified("mixed", MIXED, 'mu = "[-0.5, 0]"'), tmp_path)["mixed"]
    assert verdict is Verdict.CONFIRMED and evidence["method"].startswith(SAMPLED.split("(")[0])
    covered = evidence["details"]["covered"]
    assert len(covered) >= 2 and all(record["verdict"] == "PROVED" for record in covered)
    assert all(Fraction(-1, 2) <= Fraction(record["point"]["mu"]) <= 0 for record in covered)
    assert "not decided for the whole domain" in evidence["notes"] and "mu = " in evidence["notes"]


ENERGY = """\
quantity = "energy"
property = "non-decreasing"
attention = "usa"
heads = "scalar"
lambdas = ["lam"]
tokens = "random-sphere"
n = "n"
d = 3
beta = "beta"
samples = 1
"""


@pytest.mark.slow
def test_outside_the_reduction_the_float_route_samples_the_parameter_domain(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The float route's sampling of a domain (the pointwise route, which PROVES each point of this true claim, set
    aside)."""
    float_route_only(monkeypatch)
    domain = 'n = { min = 2, max = 4, integer = true }\nbeta = "[0.5, 2]"\nlam = "[0.5, 1]"'
    verdict, evidence = decide(quantified("energy", ENERGY, domain), tmp_path)["energy"]
    assert verdict is Verdict.CONFIRMED, evidence.get("notes")
    covered = evidence["details"]["covered"]
    assert len(covered) >= 2 and all(record["verdict"] == "CONFIRMED" for record in covered)
    assert all(2 <= int(record["point"]["n"]) <= 4 for record in covered)
    assert "no exact reduction applies" in evidence["notes"]


GAP = """\
quantity = "cluster_gap"
property = "tends-to"
limit = "0"
attention = "softmax"
heads = "scalar"
lambdas = ["lam"]
tokens = "equiangular"
rho = "rho0"
n = "n"
d = "d"
beta = 1.0
"""
GOOD = {"n": '"integer>=2"', "d": '{ min = "n", integer = true }', "lam": '"positive"', "rho0": '"[0, 0.5]"'}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"n": '"positive"'}, "n needs an integer domain"),
        ({"n": '"integer>=1"'}, "n needs an integer domain with min >= 2"),
        ({"rho0": '"[0, 2]"'}, "rho needs rational ends inside"),
        ({"rho0": '"[-0.2, 0.5]"'}, "n unbounded: min >= 0"),
        ({"extra": '"positive"'}, "no parameter uses it"),
        ({"lam": None}, "not a symbol of [claim.domain]"),
        ({"d": "{ min = 1, max = 2, integer = true }"}, "at the point"),
    ],
)
def test_bad_domains_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict, message: str
) -> None:
    """The command's main, in this process (a process each took a second to start; `headflow check` as a process
    exits 2 with one line in `test_beta_needs_a_positive_domain`)."""
    table = {key: value for key, value in (GOOD | change).items() if value is not None}
    path = tmp_path / "bad.toml"
    path.write_text(quantified("bad", GAP, "\n".join(f"{key} = {value}" for key, value in table.items())))
    code = main(["check", str(path)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_beta_needs_a_positive_domain(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    fields = GAP.replace("beta = 1.0", 'beta = "b"')
    path.write_text(quantified("bad", fields, "\n".join(f"{k} = {v}" for k, v in GOOD.items()) + '\nb = "real"'))
    done = headflow("check", str(path))
    assert done.returncode == 2 and "beta needs a positive domain" in done.stderr
