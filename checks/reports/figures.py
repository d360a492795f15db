"""The report's figures: the drawings, and their rendering as embeddable PNG.

Which claim a figure illustrates, and under which title, is declared next to the claim in its theorem
module (`Registry.figure`); this module only draws and embeds. Figures are computed from the same model
and closed forms as the verdicts; they illustrate, they never decide. The trajectory figures are
`headflow simulate`'s own (`headflow.checks.reports.plots`), drawn from the same builders and rendered by the
same `plots.png_bytes`; every figure follows the axes conventions of `headflow.checks.reports.plots` (the
paper's symbols in the labels, plain numbers on log axes).
"""

from __future__ import annotations

import base64
from fractions import Fraction
from typing import TypedDict

import numpy as np
from headflow.checks.constants.floats import beta_star, lambda_c, lambda_max, rate
from headflow.checks.evidence import equilibria
from headflow.checks.integrator.solver import integrate
from headflow.checks.model import families
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import load_all
from headflow.checks.reports import plots
from headflow.checks.sweeps.tasks import threshold_point
from matplotlib.figure import Figure


class EmbeddedFigure(TypedDict):
    """A figure as the report embeds it: its title and the PNG as base64 text (not a matplotlib Figure)."""

    title: str
    png_base64: str


def png_base64(fig: Figure) -> str:
    """The figure as base64 PNG text."""
    return base64.b64encode(plots.png_bytes(fig)).decode("ascii")


def beta_star_phase_diagram() -> Figure:
    """beta* and the model's Condition 8 threshold over (H, n), alpha = 1."""
    ns = np.unique(np.geomspace(2, 64, 8).astype(int))
    fig = Figure(figsize=(11, 4), layout="constrained")
    left, right = fig.subplots(1, 2)
    for H in (2, 3, 4, 8):
        rows = [threshold_point(H, int(n), 1.0, tolerance=1e-4) for n in ns]
        line = left.plot(ns, [r["beta_star"] for r in rows], label=rf"$\beta^*$, $H$ = {H}")[0]
        left.plot(
            ns,
            [r["beta_condition8_model"] for r in rows],
            "--",
            color=line.get_color(),
            label=f"model C8 threshold, $H$ = {H}",
        )
    left.axhline(0, color="k", lw=0.6)
    plots.log_scale(left, "x")
    left.set(
        xlabel="$n$ (tokens)",
        ylabel=r"inverse temperature $\beta$ ($\alpha$ = 1)",
        title=r"$\beta^*$ (solid) vs Condition 8 threshold from the model (dashed)",
    )
    left.legend(fontsize=7)
    Hs, Ns = np.meshgrid(np.arange(2, 41), np.unique(np.geomspace(2, 10**4, 60).astype(int)))
    values = beta_star(Hs.astype(float), Ns.astype(float), 1.0)
    mesh = right.pcolormesh(Hs, Ns, values, cmap="RdBu_r", shading="auto", vmin=-3, vmax=3)
    right.contour(Hs, Ns, values, levels=[0], colors="k")
    plots.log_scale(right, "y")
    right.set(xlabel="$H$ (heads)", ylabel="$n$ (tokens)", title=r"$\beta^*(H, n, 1)$; black: $\beta^*$ = 0")
    fig.colorbar(mesh, ax=right, label=r"$\beta^*$")
    return fig


def rate_function_plot(n: int = 10, beta: float = 1.0) -> Figure:
    """phi(lambda) with lambda_max and lambda_c marked."""
    lam_max, lam_c = lambda_max(n, beta), lambda_c(n, beta)
    lam = np.linspace(0, 3 * lam_c, 400)
    fig = Figure(figsize=(6, 3.5))
    ax = fig.add_subplot()
    ax.plot(lam, rate(lam, n, beta), label=r"$\varphi(\lambda)$")
    ax.axvline(lam_max, ls="--", color="C1", label=rf"$\lambda_{{\max}}$ = {lam_max:.4f}")
    ax.axvline(lam_c, ls=":", color="C2", label=rf"$\lambda_c$ = {lam_c:.4f} (convex beyond)")
    ax.set(
        xlabel=r"head strength $\lambda$",
        ylabel=r"early rate $\varphi(\lambda)$",
        title=rf"early rate $\varphi$, $n$ = {n}, $\beta$ = {beta:g}",
    )
    ax.legend(fontsize=8)
    return fig


def head_energy_curves() -> Figure:
    """E and each E_h along a spherical usa trajectory with exactly orthogonal heads."""
    rng = np.random.default_rng(17)
    cfg = Configuration.create(
        families.random_sphere_tokens(8, 6, rng), families.orthogonal_subspace_heads(3, 6, rng, scale=3.0), beta=1.0
    )
    traj = integrate(
        cfg, 6.0, record_times=np.linspace(0, 6.0, 121), observables=("energy", "head_energies"), backend="numpy"
    )
    title = "sphere, usa, orthogonal heads: $E$ rises; a single $E_h$ need not ($E_1$ falls)"
    return plots.energy_figure(traj.times, traj.observables["energy"], traj.observables["head_energies"], title)


def entropy_curves() -> Figure:
    """Attention entropies along the equiangular softmax dynamics with scalar heads."""
    n = 6
    cfg = Configuration.create(
        families.equiangular_tokens(n, n, 0.05), families.scalar_heads([1.0, 2.5], n), beta=1.0, attention="softmax"
    )
    traj = integrate(cfg, 8.0, record_times=np.linspace(0, 8.0, 161), observables=("entropies",), backend="numpy")
    title = r"equiangular tokens, scalar heads 1 and 2.5: entropy rises to $\log n$"
    return plots.entropy_figure(traj.times, traj.observables["entropies"], n, title)


def equilibria_gallery() -> Figure:
    """The certified equilibria of n = 4, d = 3, scalar heads (1, 1/2), softmax, beta = 1, with their indices."""
    inst = equilibria.instance(4, 3, [Fraction(1), Fraction(1, 2)], "softmax", Fraction(1), "scalar")
    panels = []
    for f in equilibria.search(inst, np.random.default_rng(0), 12):
        outcome = equilibria.certify(inst, f.tokens)
        index = outcome["index"] if outcome.get("certified") and outcome.get("spectrum_decided") else "not certified"
        panels.append((f"{f.name}: index {index}", f.tokens))
    return plots.equilibria_figure(panels)


def figures_for(claim_ids: list[str]) -> dict[str, list[EmbeddedFigure]]:
    """The figures the paper's registry declares for the given claims, drawn and embedded (claims without figures,
    and ids the registry does not know, are left out)."""
    registry = load_all()
    known = {claim.id for claim in registry.claims()}
    drawn = {cid: registry.get(cid).figures for cid in claim_ids if cid in known}  # a test's own registry: none
    return {
        cid: [{"title": title, "png_base64": png_base64(build())} for title, build in figures]
        for cid, figures in drawn.items()
        if figures
    }
