"""Entropy-rate witnesses (T27.entropy-monotone.reading-b/-c): the ball entropy rate against the numpy model,
certificates that re-check in a fresh process, tampering rejected, rounding noise never a refutation."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from headflow.certificates import model_balls
from headflow.certificates.kernel import ball_model
from headflow.certificates.kernel.recheck import exact_configuration
from headflow.certificates.provers.model_witness import certify_model_witness
from headflow.certificates.statements.registry import CONFIGURATIONS
from headflow.checks import cli
from headflow.checks.evidence.entropy_witnesses import HYPOTHESES, refute_monotone
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.model.families import equiangular_softmax_configuration
from headflow.checks.registry import Context, load_all
from headflow.checks.runner import run_claim
from headflow.checks.verdicts import Verdict

from tests.checking import verify_file as verify_certificate
from tests.forging import forged_file

ROOT = Path(__file__).resolve().parents[3]
READINGS = {"scalar": "T27.entropy-monotone.reading-b", "symmetric": "T27.entropy-monotone.reading-c"}


def _rational_matrix(rng: np.random.Generator, d: int, symmetric: bool) -> list[list[Fraction]]:
    A = [[Fraction(int(rng.integers(-8, 9)), 4) for _ in range(d)] for _ in range(d)]
    return [[A[min(i, j)][max(i, j)] for j in range(d)] for i in range(d)] if symmetric else A


def _float_configuration(exact: ball_model.ExactConfiguration) -> Configuration:
    return Configuration.create(
        families.rational_to_float(exact.tokens),
        np.array([families.rational_to_float(M) for M in exact.score_matrices]),
        np.array([families.rational_to_float(W) for W in exact.values]),
        beta=float(exact.beta),
        attention=exact.attention,
        geometry=exact.geometry,
    )


@pytest.mark.parametrize(
    ("attention", "geometry", "symmetric", "aligned"),
    [
        ("softmax", "sphere", True, True),
        ("softmax", "sphere", False, False),
        ("softmax", "flat", True, True),
        ("usa", "sphere", True, True),
        ("usa", "flat", False, True),
    ],
)
def test_ball_rates_agree_with_the_numpy_model(attention: str, geometry: str, symmetric: bool, aligned: bool) -> None:
    rng = np.random.default_rng(17)
    n, d, H = 5, 3, 2
    tokens = families.rational_sphere_tokens(n, d, rng)
    if geometry == "flat":
        tokens = [[Fraction(k + 2, 3) * v for v in x] for k, x in enumerate(tokens)]
    scores = [_rational_matrix(rng, d, symmetric) for _ in range(H)]
    values = scores if aligned else [_rational_matrix(rng, d, False) for _ in range(H)]
    exact = ball_model.ExactConfiguration(tokens, scores, values, Fraction(2, 3), geometry, attention)
    cfg = _float_configuration(exact)
    for balls, floats in (
        (model_balls.entropy_rates(exact), model.entropy_rates(cfg)),
        ([model_balls.head_energy_rates(exact)], [model.head_energy_rates(cfg)]),
    ):
        for ball_row, float_row in zip(balls, floats, strict=True):
            for ball, value in zip(ball_row, float_row, strict=True):
                assert abs(float(ball.mid()) - value) <= 1e-9 * (1 + abs(value)), (ball, value)
                assert float(ball.rad()) < 1e-8


def test_a_wrong_ball_entropy_rate_would_be_caught() -> None:
    """The agreement test can fail: a 1/n-scaled (usa-like) softmax velocity changes the rates."""
    rng = np.random.default_rng(4)
    tokens = families.rational_sphere_tokens(4, 3, rng)
    scores = [_rational_matrix(rng, 3, True)]
    softmax = ball_model.ExactConfiguration(tokens, scores, scores, Fraction(1), "sphere", "softmax")
    usa = ball_model.ExactConfiguration(tokens, scores, scores, Fraction(1), "sphere", "usa")
    floats = model.entropy_rates(_float_configuration(softmax))
    wrong = model_balls.entropy_rates(usa)
    assert max(abs(float(b.mid()) - v) for b, v in zip(wrong[0], floats[0], strict=True)) > 1e-3


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """`headflow certify` for the two readings; their witness files by reading."""
    out = tmp_path_factory.mktemp("entropy-certs")
    assert cli.main(["certify", "--only", "T27.entropy-monotone.reading-*", "--certificates", str(out)]) == 0
    files = {json.loads(p.read_text())["claim_id"]: p for p in out.glob("*.json")}
    assert set(files) == set(READINGS.values()), files
    return {heads: files[claim] for heads, claim in READINGS.items()}


@pytest.mark.parametrize("heads", list(READINGS))
def test_readings_are_refuted_by_ball_witnesses(tmp_path: Path, heads: str) -> None:
    result = run_claim(load_all().get(READINGS[heads]), Context("quick", 0, tmp_path))
    assert result.verdict is Verdict.REFUTED, result.outcomes
    (_, outcome), *_ = result.outcomes
    assert outcome.witness and outcome.witness["verified_by"] == "ball"
    assert Path(outcome.witness["certificate"]).exists() and result.certificates


@pytest.mark.parametrize("heads", list(READINGS))
def test_witness_decreases_along_the_flow(certs: dict[str, Path], heads: str) -> None:
    """Independent of the chain rule: a central difference of the float entropies at the exact witness."""
    payload = json.loads(certs[heads].read_text())["payload"]
    cfg = _float_configuration(exact_configuration(payload["configuration"]))
    assert _entropy_difference(cfg)[payload["at"]["h"], payload["at"]["i"]] < -1e-3


def _entropy_difference(cfg: Configuration, step: float = 1e-5) -> np.ndarray:
    """Central difference of the float entropies along the flow (retracted to the sphere), shape (H, n)."""
    moved = []
    for sign in (-1, 1):
        X = cfg.tokens + sign * step * model.token_velocity(cfg)
        moved.append(cfg.moved_to(X / np.linalg.norm(X, axis=1, keepdims=True)))
    return (model.attention_entropies(moved[1]) - model.attention_entropies(moved[0])) / (2 * step)


def test_certificates_recheck_in_a_fresh_process(certs: dict[str, Path]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "headflow", "check-cert", "--width=1000", *map(str, certs.values())],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 3 and all("dH^" in line and "< 0" in line for line in lines[:2])  # an entry each
    assert lines[2] == "2 of 2 certificates re-checked"


def _configuration(d: dict[str, Any]) -> dict[str, Any]:
    return d["payload"]["configuration"]


def _set_head_entry(d: dict[str, Any], i: int, j: int, value: str) -> None:
    """Set M_0[i][j] (and W_0[i][j], keeping W = M)."""
    for key in ("scores", "values"):
        _configuration(d)[key][0][i][j] = value


def _symmetric_off_diagonal(d: dict[str, Any]) -> None:
    _set_head_entry(d, 0, 1, "1/3")
    _set_head_entry(d, 1, 0, "1/3")


def _negate_enclosure(d: dict[str, Any]) -> None:
    lo, hi = d["payload"]["enclosure"]
    d["payload"]["enclosure"] = [hi.lstrip("-"), lo.lstrip("-")]


def _nudge_token(d: dict[str, Any]) -> None:
    row = _configuration(d)["tokens"][0]
    row[0] = row[0] + "1" if "/" in row[0] else row[0] + "/7"


def _energy_statement(d: dict[str, Any]) -> None:
    d["statement"]["model"]["relation"]["lhs"] = ["name", "dE_h_dt"]


def _drop_hypothesis(heads: str) -> Callable[[dict[str, Any]], None]:
    name = "scalar-heads" if heads == "scalar" else "symmetric-scores"
    return lambda d: d["payload"]["hypotheses"].remove(name)


MUTATIONS: dict[str, tuple[Callable[[dict[str, Any]], None], bool, str]] = {
    "changed beta, hash kept": (lambda d: _configuration(d).update(beta="3"), False, "sha256"),
    "broken hash": (lambda d: d.update(sha256="f" * 64), False, "sha256"),
    "changed beta": (lambda d: _configuration(d).update(beta="1/1000"), True, "the re-evaluated ball"),
    "non-symmetric head": (lambda d: _set_head_entry(d, 0, 1, "7/5"), True, "violates"),
    "values no longer aligned": (lambda d: _configuration(d)["values"][0][0].__setitem__(0, "5"), True, "aligned"),
    "usa attention": (lambda d: _configuration(d).update(attention="usa"), True, "about softmax attention"),
    "flat geometry": (lambda d: _configuration(d).update(geometry="flat"), True, "sphere dynamics"),
    "token off the sphere": (_nudge_token, True, "unit-tokens"),
    "flipped relation": (lambda d: d["payload"].update(relation="<"), True, "does not negate"),
    "flipped sign of the enclosure": (_negate_enclosure, True, "enclosure"),
    "another quantity": (_energy_statement, True, "not the kernel's statement"),
    "token out of range": (lambda d: d["payload"].update(at={"h": 0, "i": 99}), True, "within the sizes"),
}


@pytest.mark.parametrize("heads", list(READINGS))
@pytest.mark.parametrize("mutation", list(MUTATIONS))
def test_tampering_is_rejected(certs: dict[str, Path], tmp_path: Path, heads: str, mutation: str) -> None:
    mutate, rehash, expected = MUTATIONS[mutation]
    ok, reason = verify_certificate(forged_file(certs[heads], tmp_path, mutate, rehash))
    assert not ok and expected in reason, reason
    if mutation == "non-symmetric head":
        assert ("scalar-heads" if heads == "scalar" else "symmetric-scores") in reason


@pytest.mark.parametrize("heads", list(READINGS))
def test_dropping_the_readings_hypothesis_is_rejected(certs: dict[str, Path], tmp_path: Path, heads: str) -> None:
    ok, reason = verify_certificate(forged_file(certs[heads], tmp_path, _drop_hypothesis(heads), True))
    assert not ok and "hypotheses other than the statement's" in reason, reason


def test_non_scalar_head_breaks_reading_b(certs: dict[str, Path], tmp_path: Path) -> None:
    ok, reason = verify_certificate(forged_file(certs["scalar"], tmp_path, _symmetric_off_diagonal, True))
    assert not ok and "scalar-heads" in reason, reason


def _exact_zero_configurations() -> list[tuple[str, ball_model.ExactConfiguration]]:
    """dH^h_i/dt = 0 exactly: equal tokens (uniform p, equal sdot over j), antipodal tokens with scalar heads."""
    x = [Fraction(3, 5), Fraction(0), Fraction(4, 5)]
    minus_x = [-v for v in x]
    scalar = [[[Fraction(3, 2) if i == j else Fraction(0) for j in range(3)] for i in range(3)]]
    symmetric = [[[Fraction(1), Fraction(1, 2), Fraction(0)], [Fraction(1, 2), Fraction(-1), Fraction(2)], [0, 2, 1]]]
    symmetric = [[[Fraction(v) for v in row] for row in symmetric[0]]]
    return [
        ("scalar", ball_model.ExactConfiguration([x, x, x], scalar, scalar, Fraction(1), "sphere", "softmax")),
        ("symmetric", ball_model.ExactConfiguration([x, x, x], symmetric, symmetric, Fraction(1), "sphere", "softmax")),
        ("scalar", ball_model.ExactConfiguration([x, minus_x, x], scalar, scalar, Fraction(1), "sphere", "softmax")),
    ]


@pytest.mark.parametrize("case", range(3))
def test_an_exactly_zero_rate_is_not_a_witness(tmp_path: Path, case: int) -> None:
    heads, exact = _exact_zero_configurations()[case]
    assert ball_model.hypothesis_failures(exact, HYPOTHESES[heads]) == []
    statement = CONFIGURATIONS[READINGS[heads]].model(READINGS[heads])
    for token in range(exact.n):
        result = certify_model_witness(statement, exact, {"h": 0, "i": token}, tmp_path, None)
        assert not result.verified and result.path is None
    assert not list(tmp_path.iterdir())


def _equal_tokens(rng: np.random.Generator, heads: str) -> Configuration:
    d = int(rng.integers(2, 5))
    x = families.random_sphere_tokens(2, d, rng)[0]
    M = families.scalar_heads([1.5], d) if heads == "scalar" else families.random_symmetric_heads(2, d, rng)
    return Configuration.create(np.tile(x, (4, 1)), M, beta=1.0, attention="softmax")


@pytest.mark.parametrize("heads", list(READINGS))
def test_rounding_noise_candidates_are_not_refutations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, heads: str
) -> None:
    """Float noise makes equal-token configurations (rate exactly 0) look negative; none may be REFUTED."""
    real = model.entropy_rates
    monkeypatch.setattr(model, "entropy_rates", lambda cfg, *rates: real(cfg, *rates) - 1e-6)
    outcome = refute_monotone(Context("quick", 0, tmp_path, claim_id="x"), heads, _equal_tokens)
    assert outcome.verdict is Verdict.INCONCLUSIVE and "none verified" in outcome.notes, outcome
    assert outcome.notes.startswith("100 float candidates"), outcome.notes
    assert not list(tmp_path.iterdir())


def test_summary_regime_is_confirmed_not_refuted(tmp_path: Path) -> None:
    outcome = refute_monotone(
        Context("quick", 0, tmp_path, claim_id="x"),
        "scalar",
        lambda rng, heads: equiangular_softmax_configuration(rng)[0],
    )
    assert outcome.verdict is Verdict.CONFIRMED, outcome
    result = run_claim(load_all().get("T27.entropy-monotone"), Context("quick", 0, tmp_path))
    assert result.verdict is Verdict.CONFIRMED


def test_hand_made_witness_for_reading_b(tmp_path: Path) -> None:
    """n=3, d=2, H=1, M=W=I, beta=1: x1, x2 close up away from x0, so token 0's attention concentrates on itself."""
    identity = [[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]
    tokens = [[Fraction(1), Fraction(0)], [Fraction(-4, 5), Fraction(3, 5)], [Fraction(-4, 5), Fraction(-3, 5)]]
    exact = ball_model.ExactConfiguration(tokens, [identity], [identity], Fraction(1), "sphere", "softmax")
    claim = READINGS["scalar"]
    statement = CONFIGURATIONS[claim].model(claim)
    wrong = statement | {"relation": statement["relation"] | {"op": "<="}}  # the rate is < 0, so <= 0 holds
    assert not certify_model_witness(wrong, exact, {"h": 0, "i": 0}, tmp_path, None).verified
    assert not list(tmp_path.iterdir())
    result = certify_model_witness(statement, exact, {"h": 0, "i": 0}, tmp_path, None)
    assert result.verified and result.path is not None
    assert verify_certificate(result.path)[0]
    ball = model_balls.entropy_rates(exact)[0][0]
    assert abs(_entropy_difference(_float_configuration(exact))[0, 0] - float(ball.mid())) < 1e-6
