"""Equilibrium claims: token regimes as critical points (exact or symbolic) and certified Jacobian spectra."""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest
from headflow.certificates.claims import regimes
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.errors import InputError
from headflow.certificates.kernel import ball_model, equilibrium_statements
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.kernel.model_chain import Chain
from headflow.certificates.statements import restated
from headflow.certificates.store import build_certificate
from headflow.checks.claimsfile.register import register_claims
from headflow.checks.registry import Context
from headflow.checks.runner import run_claims
from headflow.checks.verdicts import Verdict

from tests.checking import verify_file

ROOT = Path(__file__).resolve().parents[3]
F = Fraction


def decide(text: str, directory: Path) -> dict[str, tuple[Verdict, dict]]:
    registry = register_claims(parse_claims(textwrap.dedent(text), "t.toml"))
    results = run_claims(registry.claims(), Context("quick", seed=3, certificate_dir=directory))
    assert not any(r.crashed for r in results)
    return {r.claim.id: (r.verdict, r.outcomes[0][1].as_dict()) for r in results}


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Verdict, dict]]:
    return decide((ROOT / "examples" / "equilibria.toml").read_text(), tmp_path_factory.mktemp("certs"))


def test_the_examples_are_decided_rightly_and_their_certificates_recheck(examples: dict) -> None:
    expected = {
        "equiangular-at-the-simplex-angle": Verdict.PROVED,  # symbolic, every n, d, H, beta, kind
        "three-equal-clusters": Verdict.PROVED,  # exact on every instance of a finite domain
        "antipodal-split-unstable": Verdict.CERTIFIED,
        "orthonormal-tokens-at-rest": Verdict.REFUTED,
        "unequal-clusters-at-rest": Verdict.REFUTED,
        "my-tokens-at-rest": Verdict.REFUTED,
        "tetrahedron-stable": Verdict.REFUTED,
        "cluster-unstable": Verdict.REFUTED,
        "triangle-at-rest-repulsive": Verdict.PROVED,  # beta = -1: the symbolic proof holds for every beta
        "unequal-clusters-at-rest-beta-0": Verdict.REFUTED,  # beta = 0: uniform weights, the mean is not 0
        "triangle-stable-repulsive": Verdict.PROVED,  # the exact circulant Jacobian on the circle (no certificate)
        "triangle-stable-above-threshold": Verdict.REFUTED,  # beta = -13/20 > -2/3
        "tetrahedron-stable-repulsive": Verdict.CERTIFIED,  # beta = -3 < -3/2
        "tetrahedron-stable-at-minus-1": Verdict.REFUTED,  # beta = -1: three directions with Re > 0
    }
    for claim_id, verdict in expected.items():
        assert examples[claim_id][0] is verdict, (claim_id, examples[claim_id][1])
    for claim_id, (_, evidence) in examples.items():
        for path in evidence.get("certificates", []):
            ok, message = verify_file(Path(path))
            assert ok, (claim_id, message)
            certificate = json.loads(Path(path).read_text())
            assert restated(certificate, certificate["claim"]) is None, (claim_id, message)  # check-cert --claims
    assert examples["tetrahedron-stable"][1]["witness"]["positive"] == 5
    # the simplex's Gram proof carries the gram certificate of the registry statement it is an instance of
    (lemma,) = examples["triangle-at-rest-repulsive"][1]["certificates"]
    assert Path(lemma).name.startswith("critical-points.simplex.gram.")


WRONG = """
[[claim]]
id = "tetrahedron-index-4"
kind = "equilibrium"
tokens = "simplex"
property = "index"
index = 4
n = 4
d = 3
beta = 1
lambdas = [1]
attention = "usa"

[[claim]]
id = "equiangular-quarter"
kind = "equilibrium"
tokens = "equiangular"
rho = "1/4"
property = "critical-point"
n = { min = 3, max = 3 }
d = 3
beta = 1
lambdas = [1]

[[claim]]
id = "half-angle"
kind = "equilibrium"
tokens = "equiangular"
rho = "-1/2"
property = "critical-point"

[[claim]]
id = "pairs-in-head-planes"
kind = "equilibrium"
tokens = "given"
heads = "orthogonal"
points = [[1, 0, 0, 0], [0, 0, 1, 0], [-1, 0, 0, 0], [0, 0, -1, 0]]
lambdas = [1, 2]
beta = "0.5"
property = "critical-point"

[[claim]]
id = "across-head-planes"
kind = "equilibrium"
tokens = "given"
heads = "orthogonal"
points = [[1, 0, 0, 0], [0, 0, 1, 0], ["3/5", 0, "4/5", 0]]
lambdas = [1, 2]
beta = 1
attention = "relu"
property = "critical-point"

[[claim]]
id = "just-past-the-simplex-angle"
kind = "equilibrium"
tokens = "equiangular"
rho = "-1/3 + 1/10**30"
property = "critical-point"
n = 4
beta = 1
lambdas = [1]
attention = "usa"

[[claim]]
id = "huge-simplex"
kind = "equilibrium"
tokens = "simplex"
property = "critical-point"
n = { min = 1000 }

[[claim]]
id = "huge-clusters"
kind = "equilibrium"
tokens = "equiangular"
rho = "1/2"
property = "critical-point"
n = { min = 1000 }

[[claim]]
id = "cluster-stable-sampled"
kind = "equilibrium"
tokens = "single-cluster"
property = "stable"
n = { min = 2, max = 3 }
attention = "softmax"

[[claim]]
id = "positive-cluster-stable-sampled"
kind = "equilibrium"
tokens = "single-cluster"
property = "stable"
n = { min = 2, max = 3 }
lambdas = [1, "1/2"]
attention = "softmax"
"""


def test_deliberately_wrong_statements_are_refuted_and_a_sampled_domain_left_undecided(tmp_path: Path) -> None:
    verdicts = decide(WRONG, tmp_path)
    verdict, evidence = verdicts["tetrahedron-index-4"]  # the index is 5
    assert verdict is Verdict.REFUTED and evidence["witness"]["positive"] == 5
    verdict, evidence = verdicts["equiangular-quarter"]  # the proof needs rho = -1/(n-1); exact refutation
    assert verdict is Verdict.REFUTED and evidence["witness"]["verified_by"] == "exact"
    assert verify_file(Path(evidence["certificates"][0]))[0]
    # the triangle (n = 3) rests, two tokens at 120 degrees (n = 2) do not: refuted where it fails
    verdict, evidence = verdicts["half-angle"]
    assert verdict is Verdict.REFUTED and "n = 2" in evidence["witness"]["instance"]
    assert verdicts["pairs-in-head-planes"][0] is Verdict.PROVED  # exact model, orthogonal heads, beta = 1/2
    verdict, evidence = verdicts["across-head-planes"]  # a token seen by both heads moves
    assert verdict is Verdict.REFUTED and verify_file(Path(evidence["certificates"][0]))[0]
    # a velocity of order 1e-30 is not 0: the exact route refutes where floats would see rest (in R^4)
    verdict, evidence = verdicts["just-past-the-simplex-angle"]
    assert verdict is Verdict.REFUTED and "d = 4" in evidence["witness"]["instance"]
    assert verdicts["huge-simplex"][0] is Verdict.PROVED  # symbolic in n
    assert verdicts["huge-clusters"][0] is Verdict.INCONCLUSIVE  # no exact instance that large, quickly
    # every d, beta, H and strengths: a negative head repels, so the cluster is unstable there (issue 39)
    verdict, evidence = verdicts["cluster-stable-sampled"]
    assert verdict is Verdict.REFUTED and "lambda = (-1)" in evidence["witness"]["instance"]
    # positive heads, every d and beta: certified samples of an unbounded domain decide nothing for the rest of it
    verdict, evidence = verdicts["positive-cluster-stable-sampled"]
    assert verdict is Verdict.INCONCLUSIVE and "every beta > 0" in evidence["notes"]
    assert len(evidence["details"]["table"]) >= 2


def _forged(path: Path, fields: dict | None = None, payload: dict | None = None) -> Path:
    """The certificate at `path` with its embedded claim or payload changed, its checksum recomputed."""
    certificate = json.loads(path.read_text())
    claim = certificate["claim"] if fields is None else fields
    new = build_certificate(certificate["claim_id"], certificate["kind"], payload or certificate["payload"], claim)
    out = path.with_name("forged-" + path.name)
    out.write_text(json.dumps(new))
    return out


def _toml(claim_id: str, body: str) -> dict:
    from headflow.certificates.claims.embedding import embedded

    (claim,) = parse_claims(f'[[claim]]\nid = "{claim_id}"\nkind = "equilibrium"\n{body}', "t.toml")
    return embedded(claim)


def test_forged_certificates_are_rejected(examples: dict, tmp_path: Path) -> None:
    # a moving witness filed under a true claim: every velocity of the regime is exactly 0 there
    moving = Path(examples["orthonormal-tokens-at-rest"][1]["certificates"][0])
    true_claim = _toml("orthonormal-tokens-at-rest", 'tokens = "simplex"\nproperty = "critical-point"')
    ok, message = verify_file(_forged(moving, true_claim))
    assert not ok and "exactly 0" in message
    # the tetrahedron's certificate filed under a claim about the single cluster: not the regime
    spectrum = Path(examples["tetrahedron-stable"][1]["certificates"][0])
    cluster = _toml(
        "tetrahedron-stable",
        'tokens = "single-cluster"\nproperty = "stable"\nn = 4\nd = 3\nbeta = 1\nlambdas = [1, "1/2"]\n'
        'attention = "softmax"',
    )
    ok, message = verify_file(_forged(spectrum, cluster))
    assert not ok and "not the stated configuration" in message
    payload = json.loads(spectrum.read_text())["payload"]
    # another beta than the claim's, and a stated spectrum the re-check does not find
    ok, message = verify_file(_forged(spectrum, payload={**payload, "instance": {**payload["instance"], "beta": "2"}}))
    assert not ok and "no core statement" in message
    lying = {**payload, "spectrum": {**payload["spectrum"], "positive": 0, "negative": 5}}
    ok, message = verify_file(_forged(spectrum, payload=lying))
    assert not ok and "re-check finds" in message


def _least(regime: str, n: int, rho: str | None = None, sizes: tuple[int, ...] | None = None) -> int | None:
    """The least dimension of a regime's tokens, from its exact Gram matrix."""
    tree = None if rho is None else ["rat", rho]
    return regimes.least_dimension(SimpleNamespace(regime=regime, heads="scalar", rho_tree=tree, sizes=sizes), n)


def test_the_gram_test_is_exact_and_decides_which_regimes_exist() -> None:
    assert _least("equiangular", 2, "2") is None  # the Gram matrix has eigenvalues 3 and -1: no such tokens
    assert _least("clusters", 3, sizes=(2, 1)) == 2  # an antipodal split: a line holds it (rank 1), d >= 2
    assert _least("equiangular", 4, "-1/3") == 3  # the tetrahedron in R^3
    assert _least("equiangular", 4, "-1/4") == 4
    # just past the simplex angle the tokens do not exist
    assert _least("equiangular", 4, str(F(-1, 3) - F(1, 10**30))) is None


@pytest.mark.parametrize("attention", ["usa", "softmax", "relu"])
@pytest.mark.parametrize("orthogonal", [False, True])
def test_the_block_gram_velocity_agrees_with_the_exact_model_on_rational_tokens(
    attention: str, orthogonal: bool
) -> None:
    """The kernel's velocity in the basis P_b x_j is the model's: same tokens at rest, same tokens moving, under
    scalar heads (one block) and orthogonal ones (a block per head)."""
    tokens = [[F(1), F(0)], [F(-1), F(0)], [F(3, 5), F(4, 5)], [F(0), F(1)]]
    m, w = (
        ([[F(1), F(0)], [F(0), F(1, 2)]], [[F(2), F(0)], [F(0), F(-1, 3)]])
        if orthogonal
        else ([[F(1)], [F(1, 2)]], [[F(2)], [F(-1, 3)]])
    )
    blocks = [[0], [1]] if orthogonal else [[0, 1]]
    for chosen in ([0, 1], [0, 1, 2], [0, 2, 3], [2, 3]):
        x = [tokens[i] for i in chosen]
        grams = [[[str(sum((xi[a] * xj[a] for a in b), F(0))) for xj in x] for xi in x] for b in blocks]
        data = {"form": "equilibrium", "claim": "x", "attention": attention, "beta": "3/2", "n": len(x)}
        data |= {"blocks": [len(b) for b in blocks], "scores": [[str(v) for v in row] for row in m]}
        data |= {"values": [[str(v) for v in row] for row in w], "grams": grams, "spectrum": None}
        stated = equilibrium_statements.statement_of(data)
        cfg = ExactConfiguration(
            x, stated.heads(stated.scores), stated.heads(stated.values), F(3, 2), "sphere", attention
        )
        velocities = ball_model.exact_values(cfg, Chain.velocities)
        moving = next((i for i, v in enumerate(velocities) if not all(c.is_zero() for c in v)), None)
        assert equilibrium_statements.moving_token(stated) == moving, chosen


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('tokens = "square"\nproperty = "critical-point"', "tokens"),
        ('tokens = "simplex"\nproperty = "index"', "index"),
        ('tokens = "simplex"\nproperty = "stable"\nattention = "relu"', "attention"),
        ('tokens = "simplex"\nheads = "orthogonal"\nproperty = "critical-point"', "heads"),
        ('tokens = "simplex"\nrho = "0"\nproperty = "critical-point"', "rho"),
        ('tokens = "clusters"\nproperty = "critical-point"', "sizes"),
        ('tokens = "given"\npoints = [[0.6, 0.8], [1, 0]]\nproperty = "critical-point"', "points"),
        ('tokens = "simplex"\nproperty = "critical-point"\nn = { min = 2, max = 40 }', "n"),
        ('tokens = "simplex"\nproperty = "critical-point"\nbeta = "x"', "beta"),
        ('tokens = "found"\nproperty = "critical-point"', "tokens"),
        ('tokens = "single-cluster"\nproperty = "stable"\nn = 6\nd = 5\nbeta = 1\nlambdas = [1]', "d"),
        ('tokens = "equiangular"\nrho = "sqrt(2)/2"\nproperty = "critical-point"', "rho"),
        (
            'tokens = "equiangular"\nrho = "-1/2"\nn = 5\nd = 5\nbeta = 1\nlambdas = [1]\nproperty = "critical-point"',
            "d",
        ),
    ],
)
def test_bad_fields_are_one_line_errors(body: str, field: str) -> None:
    with pytest.raises(InputError) as info:
        parse_claims(f'[[claim]]\nid = "x"\nkind = "equilibrium"\n{body}', "t.toml")
    assert info.value.field == field


def _cluster_certificate(claim: dict, repulsive: bool, extra: dict | None = None) -> dict:
    """The certificate of the single cluster (n = 3, d = 2, softmax, beta = 1, one head lambda = 1), its spectrum
    certified by the prover's own steps, at W = M or, when `repulsive`, at W = -M; `extra` added to the instance."""
    from dataclasses import replace

    import numpy as np
    from headflow.certificates.kernel import equilibrium as eq
    from headflow.certificates.kernel.exact import precision
    from headflow.checks.evidence import equilibria

    inst = equilibria.instance(3, 2, [F(1)], "softmax", F(1), "scalar")
    tokens = np.array([[0.0, 1.0]] * 3)
    problem = equilibria.exact_problem(inst, tokens)[0]
    if repulsive:
        values = [[[-v for v in row] for row in W] for W in problem.cfg.values]
        problem = eq.Problem(replace(problem.cfg, values=values), problem.symmetries)
    radius, E = F(1, 2**30), eq.slice_of(problem)
    orbit, V = equilibria._orbit_choice(problem, tokens), equilibria._eigenvectors(problem, [], radius, E)
    with precision(equilibria.PRECISION):
        counts = eq.spectrum(problem, eq.chart_tokens(problem, E, eq.box([], radius)), orbit, V)
    record = {"problem": problem, "point": [], "radius": radius, "preconditioner": [], "orbit": orbit}
    payload = equilibria.payload(record | {"eigenvectors": V}, {**counts, "index": counts["positive"]})
    instance = {"n": 3, "d": 2, "attention": "softmax", "beta": "1", "strengths": ["1"], "split": []}
    return build_certificate("open-strengths", "equilibrium", {**payload, "instance": instance | (extra or {})}, claim)


def test_a_spectrum_at_other_value_strengths_is_not_an_instance(tmp_path: Path) -> None:
    """nu_h = lambda_h unless the claim states them: the single cluster under repulsive values W = -M (unstable,
    certified) does not refute a claim that leaves the strengths open, whatever the instance record says."""
    claim = _toml(
        "open-strengths", 'tokens = "single-cluster"\nproperty = "stable"\nn = 3\nd = 2\nattention = "softmax"'
    )
    honest = tmp_path / "honest.json"
    honest.write_text(json.dumps(_cluster_certificate(claim, repulsive=False)))
    ok, message = verify_file(honest)
    assert ok and message.startswith("ok: open-strengths: at 3 tokens in R^2"), message
    for extra in ({}, {"value_strengths": ["-1"]}, {"heads": "scalar", "value_strengths": ["-1"]}):
        certificate = _cluster_certificate(claim, repulsive=True, extra=extra)
        assert certificate["payload"]["spectrum"]["positive"] > 0  # a certified unstable cluster: a real spectrum
        forged = tmp_path / "forged.json"
        forged.write_text(json.dumps(certificate))
        ok, message = verify_file(forged)
        assert not ok and ("not the stated configuration" in message or "no core statement" in message), message
