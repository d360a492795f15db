"""The kernel's trajectory limit statements (`when: limit`): a term of inner products tends to a stated limit, proved
by the cone collapse theorem from a replayed chain into an open hemisphere. A true limit is accepted; a wrong limit,
a model outside the theorem's, a term that is not of inner products, a chain that does not reach the hemisphere by T
and a forged step are rejected."""

from __future__ import annotations

import copy
from fractions import Fraction
from pathlib import Path

import pytest
from headflow.certificates.kernel import trajectory
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.provers.validated.replayable import build_chain

from tests.certificates.kernel import test_trajectory as trajectory_demo
from tests.certificates.kernel.test_trajectory import IDENTITY, INNER, checked

#: Two antipodal tokens and one between them: in no open hemisphere (<x_0, sum_j x_j> = 0), the middle one pulls the
#: others up at once.
CONFIGURATION = trajectory_demo.CONFIGURATION | {"tokens": [["1", "0"], ["0", "1"], ["-1", "0"]]}
GAP = ["-", ["num", "1"], INNER]


def limit(op: str, bound: str, term: list | None = None, over: str = "least", **configuration: object) -> dict:
    return {
        "form": "trajectory",
        "claim": "demo",
        "configuration": CONFIGURATION | configuration,
        "term": term or INNER,
        "fixed": {},
        "over": over,
        "op": op,
        "bound": bound,
        "when": "limit",
        "time": "1",
    }


@pytest.fixture(scope="module")
def collapse() -> tuple[dict, dict]:
    """The least inner product tends to 1, with the prover's chain into an open hemisphere."""
    data = limit("==", "1")
    parsed = trajectory.statement_of(data, "demo")
    chain = build_chain(parsed.hemisphere, parsed.time, 200)
    assert not chain.stopped, chain.stopped
    return data, chain.payload(negated=False)


def test_a_collapse_is_accepted(tmp_path: Path, collapse: tuple[dict, dict]) -> None:
    ok, message = checked(tmp_path, *collapse)
    assert ok and "in the limit" in message and "cone collapse" in message, message


def test_the_same_chain_proves_every_true_limit_and_no_false_one(tmp_path: Path, collapse: tuple[dict, dict]) -> None:
    """The chain shows the hemisphere; the kernel computes each term's limit at a collapse and compares it exactly:
    the gap tends to 0 (so not to 1/100, and below 1/100), the least inner product not to 99/100."""
    data, payload = collapse
    true = [("==", "0", GAP, "largest"), ("!=", "1/100", GAP, "largest"), ("<", "1/100", GAP, "largest")]
    true += [("!=", "99/100", INNER, "least"), (">=", "1", INNER, "least")]
    for op, bound, term, over in true:
        ok, message = checked(tmp_path, data | {"op": op, "bound": bound, "term": term, "over": over}, payload)
        assert ok, (op, bound, message)
    false = [("==", "1/100", GAP, "largest"), ("!=", "0", GAP, "largest"), (">", "1", INNER, "least")]
    for op, bound, term, over in false:
        ok, message = checked(tmp_path, data | {"op": op, "bound": bound, "term": term, "over": over}, payload)
        assert not ok and "at a collapse" in message, (op, bound, message)


@pytest.mark.parametrize(
    "configuration",
    [
        {"geometry": "flat"},
        {"beta": "-1"},
        {"scores": [[["2", "0"], ["0", "2"]]]},  # values I, scores 2 I: not one c I
        {"scores": [IDENTITY, IDENTITY], "values": [IDENTITY, [["2", "0"], ["0", "2"]]]},
        {"scores": [[["-1", "0"], ["0", "-1"]]], "values": [[["-1", "0"], ["0", "-1"]]]},  # c < 0: repulsion
        {"scores": [[["1", "1/2"], ["0", "1"]]], "values": [[["1", "1/2"], ["0", "1"]]]},
        {"mask": [[1, 0, 0], [1, 1, 0], [1, 1, 1]]},
    ],
    ids=["flat", "negative-beta", "scores-not-values", "two-different-heads", "negative-c", "not-scalar", "mask"],
)
def test_a_model_outside_the_theorem_is_rejected(tmp_path: Path, collapse: tuple[dict, dict], configuration) -> None:
    ok, message = checked(tmp_path, limit("==", "1", **configuration), collapse[1])
    assert not ok and "cone collapse" in message, message


@pytest.mark.parametrize(
    "term",
    [
        ["name", "E"],
        ["inner", ["name", "x_i"], ["sum_j", ["name", "x_j"]]],
        ["inner", ["name", "v_i"], ["name", "x_i"]],
    ],
    ids=["energy", "a sum", "a velocity"],
)
def test_a_term_not_of_inner_products_is_rejected(term: list) -> None:
    with pytest.raises(Rejected, match="polynomial in the tokens' inner products"):
        trajectory.statement_of(limit("==", "1", term=term), "demo")


def test_a_power_of_inner_products_has_its_limit(tmp_path: Path, collapse: tuple[dict, dict]) -> None:
    """(1 - <x_i, x_j>)^2 tends to 0, not to 1/4."""
    data, payload = collapse
    square = {"term": ["pow", GAP, 2], "over": "largest"}
    ok, message = checked(tmp_path, data | square | {"bound": "0"}, payload)
    assert ok, message
    ok, message = checked(tmp_path, data | square | {"bound": "1/4"}, payload)
    assert not ok and "at a collapse" in message, message


def test_equality_is_a_limit_relation_only() -> None:
    with pytest.raises(Rejected):
        trajectory.statement_of(limit("==", "1") | {"when": "always"}, "demo")


def test_a_chain_that_reaches_the_hemisphere_after_t_is_rejected(tmp_path: Path, collapse: tuple[dict, dict]) -> None:
    data, payload = collapse
    ok, message = checked(tmp_path, data | {"time": "1/1000000000"}, payload)
    assert not ok and "no step end" in message, message


def test_a_forged_step_is_rejected(tmp_path: Path, collapse: tuple[dict, dict]) -> None:
    data, payload = collapse
    forged = copy.deepcopy(payload)
    step = forged["steps"][-1]
    step["centre"] = [str(Fraction(c) + Fraction(1, 1000)) for c in step["centre"]]
    ok, message = checked(tmp_path, data, forged)
    assert not ok and "step" in message, message
