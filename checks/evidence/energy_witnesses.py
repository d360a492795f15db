"""Witnesses of a negative energy rate: the searches of T11's dropped hypotheses and T17's radial-shadow obstruction.

An adversarial float search over the named head family proposes candidates; the most negative are
rounded to exact data and the rate is settled with the ball model (`headflow.certificates.provers.witness`):
only a ball-verified negative rate makes a claim CERTIFIED.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

import numpy as np
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.provers.witness import round_configuration
from headflow.certificates.statements.registry import CONFIGURATIONS, ConfigurationObligation
from headflow.checks.evidence import adversarial
from headflow.checks.evidence.witnesses import Candidate, certify_first
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict


@dataclass(frozen=True)
class Search:
    """What to sample (the named head family of `headflow.certificates.families` at `scale`, by default large enough
    for rates of either sign, with W_h = M_h when the witness must have aligned values, else W_h drawn
    apart from the same family), which hypotheses the witness must satisfy exactly, which rate must be < 0."""

    heads: str
    hypotheses: tuple[str, ...]
    quantity: str
    scale: float = 2.0

    @property
    def aligned(self) -> bool:
        return "aligned-values" in self.hypotheses


SEARCHES = {
    claim: Search(heads, CONFIGURATIONS[claim].hypotheses, CONFIGURATIONS[claim].quantity)
    for claim, heads in (
        ("T17.shadow-obstruction", "orthogonal-subspace"),
        ("T11.hypotheses.no-symmetry", "random-general"),
        ("T11.hypotheses.no-alignment", "random-symmetric"),
    )
}
"""The search of each claim, with the hypotheses and quantity the checker's obligation requires."""


def _score(rates: np.ndarray, quantity: str) -> tuple[float, int | None]:
    """The rate relative to 1 + the rates' total size (negative is good; tiny rates rank low), and its head."""
    size = 1.0 + float(np.abs(rates).sum())
    if quantity == "head_energy_rate":
        head = int(np.argmin(rates))
        return float(rates[head]) / size, head
    return float(rates.sum()) / size, None


def search_negative_rates(
    search: Search, rng: np.random.Generator, samples: int, stop_at_clear: bool = True
) -> adversarial.SearchResult:
    """The adversarial search (`headflow.checks.evidence.adversarial`) for a negative rate over `samples` random
    draws, structured token sets and local minimization over the tokens (and the heads, which stay W_h = M_h, when
    their family lets them move); its candidates are the float configurations with a negative rate, most negative
    (relative) first."""
    family = adversarial.Family.of(lambda r: _draw(search, r), "random-sphere", search.heads, search.aligned)
    budget = dataclasses.replace(adversarial.BUDGETS["quick"], starts=samples)
    objective = functools.partial(_objective, quantity=search.quantity)
    return adversarial.search(family, objective, budget, rng, stop_at_clear=stop_at_clear)


def _draw(search: Search, rng: np.random.Generator) -> Configuration:
    n, H = int(rng.integers(2, 6)), int(rng.integers(2, 4))
    d = int(rng.integers(max(H, 2), 6))
    options = {"scale": search.scale}
    M = families.draw_heads(search.heads, H, d, rng, options)
    W = None if search.aligned else families.draw_heads(search.heads, H, d, rng, options)
    X = families.draw_tokens("random-sphere", n, d, rng, {})
    return Configuration.create(X, M, W, beta=float(rng.uniform(0.2, 3.0)))


def _objective(cfg: Configuration, quantity: str) -> tuple[float, tuple[int, ...]]:
    score, head = _score(model.head_energy_rates(cfg), quantity)
    return score, () if head is None else (head,)


def find_witness(ctx: Context, claim_id: str, search: Search) -> Outcome:
    """Search, round and certify; CERTIFIED with the witness file, else INCONCLUSIVE with the reason."""
    symmetric = "symmetric-scores" in search.hypotheses
    symmetric_values = "symmetric-values" in search.hypotheses

    def rounding(candidate: Candidate) -> ExactConfiguration:
        cfg = candidate.cfg
        values = cfg.score_matrices if search.aligned else cfg.values
        return round_configuration(
            cfg.tokens, cfg.score_matrices, values, cfg.beta, symmetric=symmetric, symmetric_values=symmetric_values
        )

    def run(stop_at_clear: bool) -> adversarial.SearchResult:
        return search_negative_rates(search, ctx.rng(claim_id), 400 if ctx.thorough else 80, stop_at_clear)

    # the statement the witness refutes: the search's rate >= 0 under its hypotheses (a registry claim's own)
    statement = ConfigurationObligation("usa", "sphere", search.hypotheses, search.quantity, "").model(claim_id)
    for result in adversarial.until_certified(run):
        found = [Candidate(f.margin, f.cfg, f.index[0] if f.index else None) for f in result.candidates]
        attempts = certify_first(ctx, statement, found, rounding)
        if attempts.certified is not None:
            break
    else:
        notes = f"{len(found)} float candidates; none verified ({'; '.join(attempts.reasons) or 'no candidate'})"
        return Outcome(Verdict.INCONCLUSIVE, "float search + balls", notes=notes)
    head = attempts.certified.candidate.head
    return Outcome(
        Verdict.CERTIFIED,
        "float search with checks.model.field, exact rational rounding, ball-verified rate < 0",
        certificates=[str(attempts.certified.result.path)],
        witness=attempts.certified.record(search.quantity + ("" if head is None else f"[{head}]")),
        details={"float_candidates": len(found)},
    )
