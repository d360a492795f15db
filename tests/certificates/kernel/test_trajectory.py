"""The kernel's trajectory statements: a chain of steps the prover builds is replayed and accepted; a forged step
(shifted, shrunk, a longer step, a log-norm bound too small, a relabelled bound), a false statement and a chain that
stops short are rejected."""

from __future__ import annotations

import copy
from fractions import Fraction
from pathlib import Path

import pytest
from headflow.certificates.kernel import trajectory
from headflow.certificates.kernel.exact import precision
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.validated.replayable import BITS, build_chain
from headflow.certificates.store import write_certificate

IDENTITY = [["1", "0"], ["0", "1"]]
#: Three exact unit tokens on the circle, usa attention: the inner products rise from 0, 3/5 and 4/5.
CONFIGURATION = {
    "tokens": [["1", "0"], ["3/5", "4/5"], ["0", "1"]],
    "scores": [IDENTITY],
    "values": [IDENTITY],
    "beta": "1",
    "attention": "usa",
    "geometry": "sphere",
}
INNER = ["inner", ["name", "x_i"], ["name", "x_j"]]


def statement(op: str, bound: str, when: str = "always", over: str = "least", time: str = "1/4") -> dict:
    return {
        "form": "trajectory",
        "claim": "demo",
        "configuration": CONFIGURATION,
        "term": INNER,
        "fixed": {},
        "over": over,
        "op": op,
        "bound": bound,
        "when": when,
        "time": time,
    }


def chain_payload(data: dict) -> dict:
    parsed = trajectory.statement_of(data, "demo")
    chain = build_chain(parsed, parsed.time, 200)
    assert not chain.stopped, chain.stopped
    return chain.payload(negated=False)


@pytest.fixture(scope="module")
def holding() -> tuple[dict, dict]:
    """The least inner product stays >= 0 on [0, 1/4] (it starts at 0, exactly, and rises)."""
    data = statement(">=", "0")
    return data, chain_payload(data)


def checked(tmp_path: Path, data: dict, payload: dict) -> tuple[bool, str]:
    result = check_file(write_certificate(tmp_path, "demo", "trajectory", payload, None, data))
    return result.ok, result.message


def test_a_built_chain_is_accepted(tmp_path: Path, holding: tuple[dict, dict]) -> None:
    ok, message = checked(tmp_path, *holding)
    assert ok, message
    assert ">= 0 at every t in [0, 1/4]" in message


OUTSIDE, ENCLOSURE = "not inside the stated set", "Taylor enclosure over [0, h] is not inside the box B's interior"


@pytest.mark.parametrize(
    ("forge", "why"),
    [
        (lambda step: step.update(centre=[str(Fraction(c) + Fraction(1, 1000)) for c in step["centre"]]), OUTSIDE),
        (lambda step: step.update(radius=str(Fraction(step["radius"]) / 100)), OUTSIDE),
        (lambda step: step.update(h=str(Fraction(step["h"]) * 2)), ENCLOSURE),
        (lambda step: step.update(margin="0", radius="0"), ENCLOSURE),
        (lambda step: step.update(mu="-1"), "does not bound the logarithmic norm"),
    ],
    ids=["shifted", "shrunk", "longer", "no-margin", "log-norm-too-small"],
)
def test_a_forged_step_is_rejected(tmp_path: Path, holding: tuple[dict, dict], forge, why: str) -> None:
    _rejects(tmp_path, holding, lambda payload: forge(payload["steps"][len(payload["steps"]) // 2]), why)


def _rejects(tmp_path: Path, holding: tuple[dict, dict], forge, why: str) -> None:
    """The certificate with its payload forged is rejected, the kernel's message naming `why`."""
    data, payload = holding
    forged = copy.deepcopy(payload)
    forge(forged)
    ok, message = checked(tmp_path, data, forged)
    assert not ok and why in message, message


def test_a_relabelled_bound_is_rejected(tmp_path: Path, holding: tuple[dict, dict]) -> None:
    """The same steps under a stronger (false) bound: the least inner product is 0 at t = 0, not >= 1/100."""
    data, payload = holding
    ok, message = checked(tmp_path, data | {"bound": "1/100"}, payload)
    assert not ok and "not shown" in message, message


def test_steps_that_end_before_the_horizon_are_rejected(tmp_path: Path, holding: tuple[dict, dict]) -> None:
    data, payload = holding
    ok, message = checked(tmp_path, data, payload | {"steps": payload["steps"][:-1]})
    assert not ok and "end before" in message, message


def test_a_false_statement_gets_no_chain_and_its_negation_is_certified(tmp_path: Path) -> None:
    """The largest inner product 4/5 at t = 0 rises: 'largest <= 4/5 on [0, 1/4]' is false (no chain shows it), and
    'largest > 4/5 at some t' is certified."""
    false = statement("<=", "4/5", over="largest")
    parsed = trajectory.statement_of(false, "demo")
    assert build_chain(parsed, parsed.time, 200).stopped
    negation = statement(">", "4/5", when="sometime", over="largest")
    ok, message = checked(tmp_path, negation, chain_payload(negation))
    assert ok and "at some t" in message, message


def test_the_replay_encloses_the_float_trajectory(holding: tuple[dict, dict]) -> None:
    """Every end set holds the state of an independent float integration (scipy, tight tolerances)."""
    import numpy as np
    from scipy.integrate import solve_ivp

    def field(_t: float, z: np.ndarray) -> np.ndarray:
        X = z.reshape(3, 2)
        V = np.exp(X @ X.T) @ X / 3
        return (V - (V * X).sum(1, keepdims=True) * X).ravel()

    data, payload = holding
    parsed = trajectory.statement_of(data, "demo")
    with precision(BITS):
        replayed, _ = trajectory.replay(parsed, payload)
    start = np.array([[1, 0], [0.6, 0.8], [0, 1]], dtype=float).ravel()
    for t, h, _, end in replayed:
        x = solve_ivp(field, (0, float(t + h)), start, rtol=1e-12, atol=1e-14).y[:, -1]
        assert all(float(b.lower()) - 1e-9 <= v <= float(b.upper()) + 1e-9 for b, v in zip(end, x, strict=True))


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"time": "0"}, "positive"),
        ({"op": "=="}, "op"),
        ({"configuration": CONFIGURATION | {"attention": "relu"}}, "replayed for"),
        ({"term": ["inner", ["name", "x_i"], ["name", "x_k"]]}, "model term"),
        ({"fixed": {"i": 7}}, "no binding"),
        ({"fixed": {"i": 0, "j": 0}}, "no binding"),
        ({"fixed": {"k": 0}}, "statement fixed"),
        ({"configuration": CONFIGURATION | {"interaction": ["sym", "s"]}}, "configuration"),
        ({"term": ["name", "lambda_h"]}, "no lambda_h"),
    ],
)
def test_malformed_statements_are_refused(change: dict, why: str) -> None:
    with pytest.raises(Rejected, match=why):
        trajectory.statement_of(statement(">=", "0") | change, "demo")


def test_a_chain_past_the_counted_work_is_refused_before_any_step(holding: tuple[dict, dict]) -> None:
    """steps x (n d)^2 is bounded (a hostile file cannot make check-cert run for hours): a step too many is refused."""
    data, payload = holding
    parsed = trajectory.statement_of(data, "demo")
    too_many = trajectory.MAX_WORK // 6**2 + 1
    with pytest.raises(Rejected, match="steps"):
        trajectory.replay(parsed, payload | {"steps": payload["steps"][:1] * too_many})


@pytest.mark.parametrize(
    ("forge", "why"),
    [
        (lambda payload: payload.update(order=12), "a series truncated at length 10"),  # past the series cap
        (lambda payload: payload.update(order=1), OUTSIDE),  # a cruder step: its remainder misses the stated set
        (lambda payload: payload["steps"][2].update(margin="1000"), ENCLOSURE),  # a box past where F is defined
        (lambda payload: payload["steps"][2].update(h="0.01"), "not an exact rational"),  # a float literal
        (lambda payload: payload["steps"][2].update(h="10**100"), "not an exact rational"),  # an expression
        (lambda payload: payload["steps"][2].update(radius="-1/1000"), OUTSIDE),
    ],
    ids=["order-past-the-cap", "order-one", "huge-margin", "float-step", "expression-step", "negative-radius"],
)
def test_a_hostile_payload_is_rejected_with_its_reason(
    tmp_path: Path, holding: tuple[dict, dict], forge, why: str
) -> None:
    _rejects(tmp_path, holding, forge, why)


def test_a_bound_false_only_at_the_start_is_rejected(tmp_path: Path, holding: tuple[dict, dict]) -> None:
    """The least inner product is exactly 0 at t = 0 and rises: ">= 0" holds, "> 0" fails at that one point."""
    data, payload = holding
    ok, message = checked(tmp_path, data | {"op": ">"}, payload)
    assert not ok and "not shown over the step at t = 0" in message, message
