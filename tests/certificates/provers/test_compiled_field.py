"""The prover's compiled field gives the kernel's values bit for bit (balls and series, velocities and residuals), so
the chains it builds are the ones the kernel's own walk would build; a node without a rule is refused."""

from __future__ import annotations

import pytest
from flint import arb, arb_series
from headflow.certificates.kernel import trajectory
from headflow.certificates.kernel.exact import precision
from headflow.certificates.kernel.exprtree import TreeError
from headflow.certificates.provers.validated import replayable
from headflow.certificates.provers.validated.compiled_field import CompiledStatement, compiled

from tests.certificates.kernel.test_trajectory import CONFIGURATION, statement

SOFTMAX = CONFIGURATION | {"attention": "softmax", "beta": "3/2"}


def same(a: arb, b: arb) -> bool:
    return a.mid() == b.mid() and a.rad() == b.rad()


@pytest.mark.parametrize("configuration", [CONFIGURATION, SOFTMAX], ids=["usa", "softmax"])
def test_the_compiled_field_is_the_kernels_bit_for_bit(configuration: dict) -> None:
    parsed = trajectory.statement_of(statement(">=", "0") | {"configuration": configuration}, "demo")
    fast = CompiledStatement(parsed)
    with precision(128):
        balls = [arb(v) + arb(0, "1e-3") for v in ("1", "0.01", "0.6", "0.8", "-0.01", "1")]
        series = [arb_series([b, arb(1) / (k + 2)], prec=3) for k, b in enumerate(balls)]
        for trees in ("velocities", "residuals"):
            assert all(map(same, fast.field(balls, trees), parsed.field(balls, trees)))
            for a, b in zip(fast.field(series, trees), parsed.field(series, trees), strict=True):
                assert all(same(a[k], b[k]) for k in range(3))


def test_a_chain_on_the_compiled_field_is_the_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed = trajectory.statement_of(statement(">=", "0", time="1/8"), "demo")
    fast = replayable.build_chain(parsed, parsed.time, 50).payload(negated=False)
    monkeypatch.setattr(replayable, "CompiledStatement", lambda s: s)
    assert replayable.build_chain(parsed, parsed.time, 50).payload(negated=False) == fast


def test_a_node_without_a_rule_is_refused() -> None:
    with pytest.raises(TreeError):
        compiled(["sub", ["rat", "1"], ["sym", "x"]])
