"""Searching a `model` claim's configurations for a violation, and turning the worst ones into certified witnesses.

The claim's terms are evaluated in floats (`certificates.kernel.claims.model_values.NumericAlgebra` over the numpy
model `checks.model.field`) on configurations of its kind with its hypotheses: heads from the family the hypotheses
name (orthogonal-subspace, scalar, random-symmetric or random-general; W_h = M_h when values are aligned), random
tokens on the sphere. The adversarial search (`checks.evidence.adversarial`) minimizes the relative margin of the
relation over every token and head (a configuration where a `given` condition fails is not a candidate). The most
negative candidates are rounded to exact data (`certificates.provers.witness.round_configuration`) and certified by
`certificates.provers.model_witness`: only a ball-settled negation is a witness.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from itertools import product
from typing import Any

import numpy as np

from certificates.kernel.claims.model_terms import evaluate
from certificates.kernel.claims.model_values import NumericAlgebra, residual
from certificates.kernel.claims.schema import ModelClaim
from certificates.kernel.errors import InputError
from certificates.provers.model_witness import certify_model_witness
from certificates.provers.witness import WitnessResult, round_configuration
from certificates.store import certificate_directory
from checks.evidence import adversarial
from checks.evidence.witnesses import CANDIDATES_TRIED
from checks.model import families
from checks.model import field as model
from checks.model.configuration import Configuration
from checks.registry import Context

#: A given condition counts as holding in floats above this margin (the balls decide for the witness).
GIVEN_SLACK = 1e-9
#: The sizes the search draws: small ones most often (witnesses stay small to certify), larger ones too, so that a
#: claim false only beyond a few tokens or heads is not confirmed on small ones alone (the notes say the range);
#: at most what a certificate may hold (12 tokens, dimension 12, 8 heads: `certificates.kernel.format`).
TOKENS = (2, 3, 4, 5, 6, 8, 10, 12)
HEADS = (1, 2, 3, 4, 6, 8)
#: The share of draws from the small sizes (n <= 5, H <= 3, d <= 5).
SMALL_SHARE = 0.7
#: Dimensions drawn above the least one (max(H, 2)).
EXTRA_DIMENSIONS = 4


def sizes_covered() -> str:
    """The sizes the search draws, for a CONFIRMED's notes."""
    return f"n in {sorted(set(TOKENS))}, H in {sorted(set(HEADS))}, d from max(H, 2) to max(H, 2) + {EXTRA_DIMENSIONS}"


def float_algebra(cfg: Configuration) -> NumericAlgebra:
    """The model terms at a float configuration (numpy model)."""
    readers = {
        "n": lambda: cfg.n,
        "d": lambda: cfg.d,
        "H": lambda: cfg.H,
        "beta": lambda: float(cfg.beta),
        "x": lambda: cfg.tokens,
        "f": lambda: model.head_outputs(cfg),
        "E_h": lambda: model.head_energies(cfg),
        "dE_h_dt": lambda: model.head_energy_rates(cfg),
        "entropy": lambda: model.attention_entropies(cfg),
        "entropy_rate": lambda: model.entropy_rates(cfg),
    }
    return NumericAlgebra(lambda name: readers[name](), float, cfg.attention, cfg.geometry)


def _bindings(free: frozenset[str], cfg: Configuration) -> list[dict[str, int]]:
    names = sorted(free)
    sizes = {"i": cfg.n, "h": cfg.H}
    return [dict(zip(names, values, strict=True)) for values in product(*(range(sizes[k]) for k in names))]


def margin(claim: ModelClaim, cfg: Configuration) -> tuple[float, tuple[int, ...]]:
    """The relation's relative margin at its worst token and head (negative: violated), index (i, h) as bound."""
    algebra = float_algebra(cfg)
    for condition in claim.given:
        for binding in _bindings(condition.free, cfg):
            gap = float(residual(condition, algebra, binding))
            if {"<=": gap, "<": gap, ">=": -gap, ">": -gap}[condition.op] < GIVEN_SLACK:
                return 1.0, ()
    worst, where = np.inf, ()
    for binding in _bindings(claim.relation.free, cfg):
        r = float(residual(claim.relation, algebra, binding))
        scale = 1.0 + abs(float(_side(claim, algebra, binding)))
        value = {"=": -abs(r), "<=": r, "<": r, ">=": -r, ">": -r}[claim.relation.op] / scale
        if not np.isfinite(value):
            continue
        if value < worst:
            worst, where = value, tuple(binding.get(k, 0) for k in ("i", "h"))
    return float(worst), where


def _side(claim: ModelClaim, algebra: NumericAlgebra, binding: dict[str, int]) -> Any:
    return evaluate(claim.relation.lhs, algebra, binding.get("i"), binding.get("h"))


@dataclass(frozen=True)
class Draws:
    """The head family and value rule the hypotheses name."""

    heads: str
    aligned: bool
    symmetric_values: bool

    @staticmethod
    def of(hypotheses: tuple[str, ...]) -> Draws:
        wanted = set(hypotheses)
        heads = (
            "orthogonal-subspace"
            if "orthogonal-heads" in wanted
            else "scalar"
            if "scalar-heads" in wanted
            else "random-symmetric"
            if "symmetric-scores" in wanted
            else "random-general"
        )
        return Draws(heads, "aligned-values" in wanted, "symmetric-values" in wanted)

    def draw(self, claim: ModelClaim, rng: np.random.Generator) -> Configuration:
        if rng.random() < SMALL_SHARE:  # the sizes where witnesses are most often found, and cheapest to certify
            n, H = int(rng.integers(2, 6)), int(rng.integers(1, 4))
            d = int(rng.integers(max(H, 2), 6))
        else:
            n, H = int(rng.choice(TOKENS)), int(rng.choice(HEADS))
            d = int(rng.integers(max(H, 2), max(H, 2) + EXTRA_DIMENSIONS + 1))
        options: dict[str, Any] = {"scale": 2.0, "lambdas": list(rng.uniform(0.3, 2.0, size=H))}
        M = families.draw_heads(self.heads, H, d, rng, options)
        values_family = "random-symmetric" if self.symmetric_values else "random-general"
        W = None if self.aligned else families.draw_heads(values_family, H, d, rng, options)
        X = families.draw_tokens("random-sphere", n, d, rng, {})
        beta = float(rng.uniform(0.2, 3.0))
        return Configuration.create(
            X, M, W, beta=beta, attention=claim.attention, geometry=claim.geometry, interaction=claim.interaction
        )


@dataclass
class SearchOutcome:
    """The float search's evidence, and the certified witness (None when none was)."""

    evidence: dict[str, Any]
    worst: float
    certified: WitnessResult | None = None
    candidates: int = 0
    reasons: list[str] = field(default_factory=list)


def search_and_certify(claim: ModelClaim, ctx: Context, certify_as: ModelClaim | None = None) -> SearchOutcome:
    """The adversarial search for violations of the (universal) claim, then the certification of its best candidates
    as witnesses of `certify_as` (default: the claim itself; an existence claim whose universal negation `claim` is,
    so that its certificate embeds the existence claim)."""
    certified_claim = claim if certify_as is None else certify_as
    draws = Draws.of(claim.hypotheses)
    family = adversarial.Family.of(lambda r: draws.draw(claim, r), "random-sphere", draws.heads, draws.aligned)
    budget = adversarial.BUDGETS["thorough" if ctx.thorough else "quick"]
    if claim.given:  # fewer draws satisfy the conditions: more starts, the same evaluation budget
        budget = dataclasses.replace(budget, starts=budget.starts * 2)
    tested = outside = 0

    def objective(cfg: Configuration) -> tuple[float, tuple[int, ...]]:
        nonlocal tested, outside
        try:
            value, where = margin(claim, cfg)
        except InputError:  # the float model leaves float64 here (an interaction's exp(s**8)): not a test
            outside += 1
            return 1.0, ()
        tested += bool(where)  # an empty index: a given condition failed (or nothing was finite): not a test
        return value, where

    result = adversarial.search(family, objective, budget, ctx.rng(claim.id), ctx.check_budget)
    out = SearchOutcome(result.evidence() | {"tested": tested, "outside_float64": outside}, result.worst)
    found = [f for f in result.candidates if f.margin < -adversarial.VIOLATION]
    out.candidates = len(found)
    symmetric = draws.heads != "random-general"
    for candidate in found[:CANDIDATES_TRIED]:
        ctx.check_budget()
        cfg = candidate.cfg
        values = cfg.score_matrices if draws.aligned else cfg.values
        for denominator in (2**12, 2**20):
            exact = round_configuration(
                cfg.tokens,
                cfg.score_matrices,
                values,
                cfg.beta,
                denominator,
                symmetric=symmetric,
                geometry=cfg.geometry,
                attention=cfg.attention,
                symmetric_values=draws.symmetric_values,
                interaction=cfg.interaction,
            )
            at = dict(zip(("i", "h"), candidate.index, strict=False))
            at = {k: v for k, v in at.items() if k in claim.relation.free}
            attempt = certify_model_witness(certified_claim, exact, at, certificate_directory(ctx.certificate_dir))
            if attempt.verified:
                out.certified = attempt
                return out
            out.reasons.append(attempt.reason)
    return out


def witness_record(result: WitnessResult, worst: float) -> dict[str, Any]:
    """The witness as reports show it."""
    cfg = result.record["configuration"]
    return {
        "verified_by": "ball",
        "n": len(cfg["tokens"]),
        "d": len(cfg["tokens"][0]),
        "H": len(cfg["scores"]),
        "beta": cfg["beta"],
        "at": result.record["at"],
        "rhs_minus_lhs": result.values[0],
        "relation": f"rhs - lhs {result.record['relation']} 0",
        "float_relative_margin": worst,
    }
