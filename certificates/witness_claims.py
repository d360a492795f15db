"""Existential claims made true by certified witnesses: T17.shadow-obstruction and T11.hypotheses.

Each claim says "there is a configuration (with these hypotheses) where an energy rate is
negative". A float search with checks.model proposes candidates, ranked by how negative the rate
is relative to the rates' size; the best few are rounded to exact data and the rate is settled
with the ball model (certificates.witness). Only a ball-verified rate makes the claim CERTIFIED;
a float candidate alone leaves it INCONCLUSIVE.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from certificates.store import certificate_directory
from certificates.witness import certify_configuration, round_configuration
from checks import adversarial, families, model
from checks.config import Configuration
from checks.registry import REGISTRY, Context
from checks.verdicts import Outcome, Verdict

CANDIDATES_TRIED = 5
Builder = Callable[[np.random.Generator, int, int, int], tuple[np.ndarray, np.ndarray | None]]

REGISTRY.declare(
    "T11.hypotheses.no-symmetry",
    "Theorem 11 without score symmetry (reading)",
    "There are n, d, H, beta, tokens on S^{d-1} and heads with W_h = M_h but M_h not symmetric (usa, "
    "spherical dynamics) such that dE/dt < 0.",
)
REGISTRY.declare(
    "T11.hypotheses.no-alignment",
    "Theorem 11 without value alignment (reading)",
    "There are n, d, H, beta, tokens on S^{d-1}, symmetric M_h and symmetric W_h != M_h (usa, spherical "
    "dynamics) such that dE/dt < 0.",
)


@dataclass(frozen=True)
class Search:
    """What to sample, which hypotheses the witness must satisfy exactly, which rate must be < 0."""

    heads: Builder
    hypotheses: tuple[str, ...]
    quantity: str


def _orthogonal(rng: np.random.Generator, H: int, d: int, n: int) -> tuple[np.ndarray, None]:
    return families.orthogonal_subspace_heads(H, d, rng, 2.0), None


def _general(rng: np.random.Generator, H: int, d: int, n: int) -> tuple[np.ndarray, None]:
    return families.random_general_heads(H, d, rng, 2.0), None


def _misaligned(rng: np.random.Generator, H: int, d: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    return families.random_symmetric_heads(H, d, rng, 2.0), families.random_symmetric_heads(H, d, rng, 2.0)


SEARCHES = {
    "T17.shadow-obstruction": Search(
        _orthogonal, ("unit-tokens", "symmetric-scores", "aligned-values", "orthogonal-heads"), "head_energy_rate"
    ),
    "T11.hypotheses.no-symmetry": Search(_general, ("unit-tokens", "aligned-values"), "energy_rate"),
    "T11.hypotheses.no-alignment": Search(_misaligned, ("unit-tokens", "symmetric-scores"), "energy_rate"),
}


def _score(rates: np.ndarray, quantity: str) -> tuple[float, int | None]:
    """The rate relative to 1 + the rates' total size (negative is good; tiny rates rank low), and its head."""
    size = 1.0 + float(np.abs(rates).sum())
    if quantity == "head_energy_rate":
        head = int(np.argmin(rates))
        return float(rates[head]) / size, head
    return float(rates.sum()) / size, None


def candidates(search: Search, rng: np.random.Generator, samples: int) -> list[tuple[float, Configuration, int | None]]:
    """Float configurations with a negative rate, most negative (relative) first.

    The adversarial search (`checks.adversarial`) over `samples` random draws, structured token sets
    and local minimization over the tokens (and general heads, which stay W_h = M_h)."""
    family = adversarial.Family(lambda r: _draw(search, r), free_heads="general" if search.heads is _general else None)
    budget = dataclasses.replace(adversarial.BUDGETS["quick"], starts=samples)
    result = adversarial.search(family, lambda cfg: _objective(cfg, search.quantity), budget, rng)
    return [(f.margin, f.cfg, f.index[0] if f.index else None) for f in result.candidates]


def _draw(search: Search, rng: np.random.Generator) -> Configuration:
    n, H = int(rng.integers(2, 6)), int(rng.integers(2, 4))
    d = int(rng.integers(max(H, 2), 6))
    M, W = search.heads(rng, H, d, n)
    return Configuration.create(families.random_sphere_tokens(n, d, rng), M, W, beta=float(rng.uniform(0.2, 3.0)))


def _objective(cfg: Configuration, quantity: str) -> tuple[float, tuple[int, ...]]:
    score, head = _score(model.head_energy_rates(cfg), quantity)
    return score, () if head is None else (head,)


def find_witness(ctx: Context, claim_id: str, search: Search) -> Outcome:
    """Search, round and certify; CERTIFIED with the witness file, else INCONCLUSIVE with the reason."""
    rng = ctx.rng(claim_id)
    found = candidates(search, rng, 400 if ctx.thorough else 80)
    statement = REGISTRY.get(claim_id).statement
    reasons = []
    for score, cfg, head in found[:CANDIDATES_TRIED]:
        ctx.check_budget()
        aligned = "aligned-values" in search.hypotheses
        symmetric = "symmetric-scores" in search.hypotheses
        exact = round_configuration(
            cfg.tokens, cfg.scores, cfg.scores if aligned else cfg.values, cfg.beta, symmetric=symmetric
        )
        result = certify_configuration(
            claim_id,
            statement,
            exact,
            search.hypotheses,
            search.quantity,
            head,
            "<",
            certificate_directory(ctx.certificate_dir),
        )
        if result.verified:
            witness = {
                "n": exact.n,
                "d": len(exact.tokens[0]),
                "H": len(exact.scores),
                "beta": str(exact.beta),
                "quantity": search.quantity + ("" if head is None else f"[{head}]"),
                "ball": result.values[0],
                "float_relative_rate": score,
            }
            return Outcome(
                Verdict.CERTIFIED,
                "float search with checks.model, exact rational rounding, ball-verified rate < 0",
                certificates=[str(result.path)],
                witness={"verified_by": "ball", **witness},
                details={"float_candidates": len(found)},
            )
        reasons.append(result.reason)
    return Outcome(
        Verdict.INCONCLUSIVE,
        "float search + balls",
        notes=f"{len(found)} float candidates; none verified ({'; '.join(reasons) or 'no candidate'})",
    )


@REGISTRY.procedure("T17.shadow-obstruction", "witness")
def _obstruction(ctx: Context) -> Outcome:
    return find_witness(ctx, "T17.shadow-obstruction", SEARCHES["T17.shadow-obstruction"])


@REGISTRY.procedure("T11.hypotheses.no-symmetry", "witness")
def _no_symmetry(ctx: Context) -> Outcome:
    return find_witness(ctx, "T11.hypotheses.no-symmetry", SEARCHES["T11.hypotheses.no-symmetry"])


@REGISTRY.procedure("T11.hypotheses.no-alignment", "witness")
def _no_alignment(ctx: Context) -> Outcome:
    return find_witness(ctx, "T11.hypotheses.no-alignment", SEARCHES["T11.hypotheses.no-alignment"])


@REGISTRY.procedure("T11.hypotheses", "witness")
def _hypotheses(ctx: Context) -> Outcome:
    """Certified when both readings have a witness (dE/dt < 0 also breaks dE/dt = (1/n) sum |xdot|^2 >= 0)."""
    outcomes = {
        name: find_witness(ctx, name, SEARCHES[name])
        for name in ("T11.hypotheses.no-symmetry", "T11.hypotheses.no-alignment")
    }
    missing = [name for name, o in outcomes.items() if o.verdict is not Verdict.CERTIFIED]
    if missing:
        return Outcome(Verdict.INCONCLUSIVE, "witnesses", notes=f"no certified witness for {', '.join(missing)}")
    return Outcome(
        Verdict.CERTIFIED,
        "certified witnesses with dE/dt < 0 for each dropped hypothesis",
        certificates=[p for o in outcomes.values() for p in o.certificates],
        witness={name: o.witness for name, o in outcomes.items()},
        notes="dE/dt < 0 also breaks the identity dE/dt = (1/n) sum |xdot_i|^2, whose right side is >= 0",
    )
