"""benchmarks/peers.py: an absent peer is skipped with a message, the peers' fields are headflow's field, and the
equal-error ladder measures the error on the sphere (not the radial drift a peer leaves)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from benchmarks import peers
from benchmarks.integrator import LADDER, Ladder, Problem

SMALL = Problem("test", 6, 3, 2, 0.5, 5)


def test_an_absent_peer_is_skipped_with_a_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for absent in ("jax", "torch"):
        monkeypatch.setitem(sys.modules, absent, None)  # its import raises ImportError
    cfg = SMALL.configuration()
    assert peers.jax_peers(cfg, SMALL.T) == "jax is not installed"
    assert peers.torch_peers(cfg, SMALL.T) == "torch or torchdiffeq is not installed"
    assert [peer.name for peer in peers.peers(cfg, SMALL.T)] == ["scipy DOP853", "scipy RK45"]
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "  skipped: headflow (jax): jax is not installed: install headflow[jit]",
        "  skipped: jax is not installed (pip install -e '.[peers]')",
        "  skipped: torch or torchdiffeq is not installed (pip install -e '.[peers]')",
    ]


def test_the_error_is_measured_on_the_sphere() -> None:
    """A final state off the sphere by a radial factor only has error 0 on the sphere, but not off it."""
    cfg = SMALL.configuration()
    reference = np.array(cfg.tokens)

    def radial(cfg: object, T: float, rtol: float) -> tuple[np.ndarray, int]:
        return 1.01 * reference, 1

    assert Ladder(radial, cfg, SMALL.T, reference, on_sphere=True).run(0).error < 1e-15
    assert Ladder(radial, cfg, SMALL.T, reference).run(0).error > 1e-3
    run = Ladder(radial, cfg, SMALL.T, reference, on_sphere=True).run(0)
    assert abs(run.drift - 0.01) < 1e-12 and run.rtol == LADDER[0]


def test_the_scipy_peer_reaches_the_reference_of_its_tight_run() -> None:
    cfg = SMALL.configuration()
    reference = peers.unit_rows(peers.scipy_solver("DOP853")(cfg, SMALL.T, 1e-13, 1e-13)[0])
    final, evaluations = peers.scipy_solver("RK45")(cfg, SMALL.T, 1e-8)
    assert evaluations > 10 and 0 < np.max(np.abs(peers.unit_rows(final) - reference)) < 1e-6


@pytest.mark.slow
def test_every_installed_peer_computes_headflows_field() -> None:
    """Each framework's field against headflow's token_velocity at two states (what the benchmark checks first)."""
    pytest.importorskip("jax")
    pytest.importorskip("torch")
    cfg = SMALL.configuration()
    states = [np.array(cfg.tokens), peers.unit_rows(np.random.default_rng(1).standard_normal(cfg.tokens.shape))]
    found = [peer for peer in peers.peers(cfg, SMALL.T) if peer.field is not None]
    names = {peer.name for peer in found}
    assert names == {"headflow (jax)", "diffrax Dopri8", "diffrax Tsit5", "torchdiffeq dopri5", "torchdiffeq dopri8"}
    for peer in found:
        assert peers.field_disagreement(peer, cfg, states) <= peers.AGREEMENT
