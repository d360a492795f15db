"""The paper's open problem on critical points: equilibria of the combined multi-head field (claims `critical-points*`).

How each is decided:
- symbolic (single cluster, antipodal splits, regular simplex): `headflow.identities.critical_points` shows that the
  velocity of every token is a multiple of the token, for every n, d, H, beta and attention kind: PROVED.
- equilibria (the grid of small instances): `checks.evidence.equilibria` searches (structured candidates and seeded
  random starts, Levenberg-Marquardt), then certifies each class found: existence by a Krawczyk test in
  the fixed set of the configuration's symmetries (which removes the rotation directions), the index
  from Gershgorin discs of the tangent Jacobian with the rotation zeros removed; each certificate is
  re-checked by `headflow check-cert`. The stability claims are CERTIFIED when every instance's
  certificate shows it, REFUTED (a certificate as the ball-verified witness) when one shows the opposite.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from headflow.certificates.store import certificate_directory
from headflow.checks.evidence import equilibria
from headflow.checks.registry import REGISTRY, Context
from headflow.checks.verdicts import Outcome, Verdict
from headflow.identities import critical_points as proofs

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: The grid of small instances (beta = 1, W_h = M_h): (n, d, strengths, heads, kinds).
QUICK_GRID = [(n, d, (1, Fraction(1, 2)), "scalar") for n in (3, 4) for d in (2, 3)]
THOROUGH_GRID = [*QUICK_GRID, *[(n, d, (1,), "scalar") for n in (3, 4, 5) for d in (2, 3)]]
KINDS = ("softmax", "usa")
ORTHOGONAL = [(4, 4, (1, Fraction(1, 2)), "orthogonal")]
#: The classes of the orthogonal grid that `critical-points.orthogonal-subspaces` reads (the only ones certified there:
#: the search finds some ten classes per kind, and certifying the others cost most of the claim's time).
SPLIT = "split along"
STARTS = {"quick": 8, "thorough": 40}

_STATEMENTS: tuple[tuple[str, str, str], ...] = (
    (
        "critical-points",
        "Critical points of the multi-head field (open problem)",
        "For n in {3, 4}, d in {2, 3}, scalar heads lambda = (1, 1/2) with W_h = M_h, beta = 1, softmax and usa "
        "attention (thorough profile: also one head and n = 5): every class of equilibria (modulo rotations "
        "commuting with the heads and token permutations) that the search finds is an equilibrium, certified by "
        "a Krawczyk test in a slice transversal to the rotation orbit, with its index (eigenvalues of the tangent "
        "Jacobian with positive real part, the rotation zeros removed) certified.",
    ),
    (
        "critical-points.single-cluster",
        "All tokens equal is an equilibrium",
        "For every kind, n, d, H, beta and heads whose value matrices share the eigenvector x: the configuration "
        "x_1 = ... = x_n = x is an equilibrium of the spherical dynamics (for scalar heads, every x).",
    ),
    (
        "critical-points.antipodal",
        "Antipodal splits are equilibria",
        "For every kind, n, d, H, beta and heads whose value matrices share the eigenvector x: every configuration "
        "x_i = sigma_i x with sigma_i in {1, -1} is an equilibrium.",
    ),
    (
        "critical-points.simplex",
        "The regular simplex is an equilibrium",
        "For every kind, n >= 2, d >= n - 1, H, beta and scalar heads M_h = lambda_h I, W_h = nu_h I: unit tokens "
        "with <x_i, x_j> = -1/(n-1) for i != j form an equilibrium.",
    ),
    (
        "critical-points.cluster-stable",
        "The single cluster is linearly stable modulo rotations",
        "On the grid of `critical-points`: at the single cluster every eigenvalue of the tangent Jacobian is "
        "negative except the d - 1 zeros along the rotation orbit (index 0).",
    ),
    (
        "critical-points.simplex-index",
        "The regular tetrahedron repels",
        "n = 4, d = 3, scalar heads lambda = (1, 1/2) (thorough: also one head), beta = 1, softmax and usa: at the "
        "regular simplex no eigenvalue of the tangent Jacobian has negative real part; besides the 3 rotation "
        "zeros all 5 have positive real part (index 5).",
    ),
    (
        "critical-points.orthogonal-subspaces",
        "Tokens split along orthogonal head subspaces",
        "n = 4, d = 4, heads M_h = W_h = lambda_h P_h (P_h the projections on two orthogonal coordinate planes), "
        "lambda = (1, 1/2), beta = 1, softmax and usa: an antipodal pair in each head's plane is an equilibrium, "
        "with its index certified.",
    ),
)

REGISTRY.declare_all(_STATEMENTS)

METHOD = "symbolic: velocity a scalar multiple of the token, dimension-free Gram algebra (SymPy)"
CERTIFIED_METHOD = "search + Krawczyk in a symmetry slice + Gershgorin spectrum (python-flint balls)"


REGISTRY.derivations(
    __name__,
    (
        ("critical-points.single-cluster", proofs.prove_single_cluster, METHOD),
        ("critical-points.antipodal", proofs.prove_antipodal, METHOD),
        ("critical-points.simplex", proofs.prove_simplex, METHOD),
    ),
)


@REGISTRY.figure(
    "critical-points",
    "critical points: equilibria of n = 4 tokens on S^2 (softmax, lambda = 1, 1/2, beta = 1)",
)
def _equilibria() -> Figure:
    from headflow.checks.reports import figures

    return figures.equilibria_gallery()


@dataclass(frozen=True)
class Row:
    """One equilibrium class of one instance, and its certification outcome."""

    instance: equilibria.Instance
    found: equilibria.Found
    outcome: dict[str, Any]

    def summary(self) -> dict[str, Any]:
        o = self.outcome
        return {
            "instance": self.instance.describe(),
            "equilibrium": self.found.name,
            "starts": self.found.starts,
            "certified": bool(o.get("certified")) and bool(o.get("spectrum_decided")),
            "index": o.get("index"),
            "zeros": o.get("zeros"),
            "negative": o.get("negative"),
            "reason": o.get("reason") or ("" if o.get("spectrum_decided") else o.get("spectrum", "")),
        }


@functools.cache
def grid_rows(profile: str, seed: int, which: str) -> tuple[Row, ...]:
    """Search every instance of the grid and certify the classes found (cached: several claims read the same rows);
    on the orthogonal grid only the splits along the head subspaces (`SPLIT`), the classes its claim reads."""
    grid = ORTHOGONAL if which == "orthogonal" else (THOROUGH_GRID if profile == "thorough" else QUICK_GRID)
    rows = []
    for k, (n, d, strengths, heads) in enumerate(grid):
        for kind in KINDS:
            inst = equilibria.instance(n, d, [Fraction(s) for s in strengths], kind, Fraction(1), heads)
            rng = np.random.default_rng([seed, k, KINDS.index(kind)])
            for found in equilibria.search(inst, rng, STARTS[profile]):
                if which != "orthogonal" or found.name.startswith(SPLIT):
                    rows.append(Row(inst, found, equilibria.certify(inst, found.tokens)))
    return tuple(rows)


def _certified(row: Row) -> bool:
    return bool(row.outcome.get("certified")) and bool(row.outcome.get("spectrum_decided"))


def _write(ctx: Context, rows: list[Row]) -> list[str]:
    directory = certificate_directory(ctx.certificate_dir)
    directory.mkdir(parents=True, exist_ok=True)
    return [str(equilibria.write(Path(directory), ctx.claim_id, r.outcome)) for r in rows]


@REGISTRY.procedure("critical-points", "equilibria")
def _table(ctx: Context) -> Outcome:
    rows = list(grid_rows(ctx.profile, ctx.seed, "scalar"))
    table = [r.summary() for r in rows]
    failed = [r for r in rows if not _certified(r)]
    if failed or not rows:
        reasons = "; ".join(f"{r.found.name} ({r.instance.describe()}): {r.summary()['reason']}" for r in failed[:5])
        return Outcome(
            Verdict.INCONCLUSIVE,
            CERTIFIED_METHOD,
            notes=f"{len(failed)} of {len(rows)} equilibrium classes not certified: {reasons}",
            details={"table": table},
        )
    indices = sorted({r.outcome["index"] for r in rows})
    stable = sorted({r.found.name for r in rows if r.outcome["index"] == 0})
    return Outcome(
        Verdict.CERTIFIED,
        CERTIFIED_METHOD,
        certificates=_write(ctx, rows),
        details={"table": table},
        finding=f"{len(rows)} equilibrium classes on the grid, all certified; indices found: "
        f"{', '.join(map(str, indices))}; index 0 (linearly stable modulo rotations) only for: {', '.join(stable)}",
    )


def _stability(ctx: Context, rows: list[Row], stable_wanted: bool, what: str) -> Outcome:
    """CERTIFIED when every row's certificate shows the property, REFUTED by a certificate that shows the opposite."""
    if not rows:
        return Outcome(Verdict.INCONCLUSIVE, CERTIFIED_METHOD, notes=f"the search found no {what}")
    table = [r.summary() for r in rows]

    def holds(row: Row) -> bool:
        o = row.outcome
        return o["index"] == 0 if stable_wanted else o["negative"] == 0

    decided = [r for r in rows if _certified(r)]
    against = [r for r in decided if not holds(r)]
    if against:
        paths = _write(ctx, against[:1])
        witness = {"verified_by": "ball", "certificate": paths[0], **against[0].summary()}
        return Outcome(Verdict.REFUTED, CERTIFIED_METHOD, witness=witness, certificates=paths, details={"table": table})
    if len(decided) < len(rows):
        return Outcome(
            Verdict.INCONCLUSIVE,
            CERTIFIED_METHOD,
            notes=f"{len(rows) - len(decided)} of {len(rows)} instances of the {what} not certified",
            details={"table": table},
        )
    return Outcome(Verdict.CERTIFIED, CERTIFIED_METHOD, certificates=_write(ctx, decided), details={"table": table})


@REGISTRY.procedure("critical-points.cluster-stable", "equilibria")
def _cluster_stable(ctx: Context) -> Outcome:
    rows = [r for r in grid_rows(ctx.profile, ctx.seed, "scalar") if r.found.name == "single cluster"]
    return _stability(ctx, rows, True, "single cluster")


@REGISTRY.procedure("critical-points.simplex-index", "equilibria")
def _simplex_index(ctx: Context) -> Outcome:
    rows = [
        r
        for r in grid_rows(ctx.profile, ctx.seed, "scalar")
        if r.found.name == "regular simplex" and (r.instance.n, r.instance.d) == (4, 3)
    ]
    return _stability(ctx, rows, False, "regular tetrahedron")


@REGISTRY.procedure("critical-points.orthogonal-subspaces", "equilibria")
def _orthogonal(ctx: Context) -> Outcome:
    rows = list(grid_rows(ctx.profile, ctx.seed, "orthogonal"))
    if not rows or not all(_certified(r) for r in rows):
        return Outcome(
            Verdict.INCONCLUSIVE,
            CERTIFIED_METHOD,
            notes="the split along the head subspaces was not certified in every kind",
            details={"table": [r.summary() for r in rows]},
        )
    return Outcome(
        Verdict.CERTIFIED,
        CERTIFIED_METHOD,
        certificates=_write(ctx, rows),
        details={"table": [r.summary() for r in rows]},
    )
