"""Deciding an existence `model` claim of an equality: some configuration with the hypotheses has lhs = rhs.

No search with a margin can find an equality, and neither floats nor balls can show one. So:

- CERTIFIED by an exact witness: structured exact configurations that equalities tend to hold at (every token equal,
  antipodal pairs, orthogonal frames, one generic pair; heads I, -I, coordinate projections; beta = 1) are proposed,
  and `headflow.certificates.kernel.model_values.settle` checks, in the exact field of the model, that rhs - lhs
  is exactly 0 (and every hypothesis and given condition); the certificate embeds the claim and `check-cert`
  re-checks it;
- REFUTED when `lhs < rhs` or `lhs > rhs` is PROVED at every configuration (`checks.claimsfile.model_reduction`):
  then the two sides never meet;
- otherwise INCONCLUSIVE, with what was tried.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from itertools import product
from typing import Any

from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.model_negation import universal_with
from headflow.certificates.claims.schema import ModelClaim
from headflow.certificates.exact_records import exact_record
from headflow.certificates.kernel.ball_model import ExactConfiguration, Matrix
from headflow.certificates.kernel.masks import claim_mask
from headflow.certificates.kernel.model_values import WITNESS, settle
from headflow.certificates.statements.model import kernel_statement
from headflow.certificates.store import certificate_directory, write_certificate
from headflow.checks.claimsfile.model_reduction import METHOD, prove_model
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

EXACT = "exact witness: structured rational configurations, rhs - lhs exactly 0 in the model's exact field"
SIZES = ((2, 2), (2, 3), (3, 3))
HEADS = (1, 2)


def _diagonal(entries: list[int], d: int) -> Matrix:
    return [[Fraction(entries[i]) if i == j else Fraction(0) for j in range(d)] for i in range(d)]


def _head_sets(d: int, H: int) -> Iterator[list[Matrix]]:
    yield [_diagonal([1] * d, d)] * H
    if H == 2:
        yield [_diagonal([1] * d, d), _diagonal([-1] * d, d)]
    if d >= H:  # coordinate projections: orthogonal heads
        yield [_diagonal([1 if j == h else 0 for j in range(d)], d) for h in range(H)]


def _token_sets(n: int, d: int) -> Iterator[list[list[Fraction]]]:
    def axis(k: int, sign: int = 1) -> list[Fraction]:
        return [Fraction(sign) if j == k else Fraction(0) for j in range(d)]

    yield [axis(0)] * n
    yield [axis(0, 1 if i % 2 == 0 else -1) for i in range(n)]
    if n <= d:
        yield [axis(i) for i in range(n)]
    generic = [Fraction(3, 5), Fraction(4, 5)] + [Fraction(0)] * (d - 2)
    yield [axis(0), generic, *[axis(i % d) for i in range(1, n - 1)]]


def candidates(claim: ModelClaim) -> Iterator[ExactConfiguration]:
    """Structured exact configurations of the claim's kind, sign of beta (beta = 1 or -1) and mask (a given mask
    fixes n; its hypotheses are checked by the witness test)."""
    beta = Fraction(-1 if claim.beta_sign == "negative" else 1)
    sizes = SIZES if claim.mask_rows is None else [(len(claim.mask_rows), d) for d in (2, 3)]
    for n, d in sizes:
        mask = claim_mask(claim.mask, claim.mask_rows, n)
        for H in HEADS:
            for heads in _head_sets(d, H):
                for tokens in _token_sets(n, d):
                    yield ExactConfiguration(tokens, heads, heads, beta, claim.geometry, claim.attention, mask)


def decide_equality_existence(claim: ModelClaim, ctx: Context) -> Outcome:
    """The verdict (see the module docstring)."""
    failures: list[str] = []
    for op in ("<", ">"):
        derivation = prove_model(universal_with(claim, op))
        if derivation.proved:
            statement = universal_with(claim, op).statement
            return Outcome(
                Verdict.REFUTED,
                METHOD,
                witness={"verified_by": "exact", "negation_proved": statement},
                steps=list(derivation.steps),
                notes=f"lhs {op} rhs is PROVED for all n, d, H: the sides are never equal",
            )
        failures += derivation.failures
    tried = 0
    reasons: dict[str, None] = {}
    statement = kernel_statement(claim)
    free = sorted(claim.relation.free)
    for cfg in candidates(claim):
        ctx.check_budget()
        sizes = {"i": range(cfg.n), "h": range(len(cfg.score_matrices))}
        for at in (dict(zip(free, values, strict=True)) for values in product(*(sizes[k] for k in free))):
            tried += 1
            why = settle(statement, cfg, at).failures
            if not why:
                return _certified(claim, cfg, at, ctx)
            reasons[why[0]] = None
    notes = (
        f"none of {tried} structured exact configurations has rhs - lhs exactly 0 ({'; '.join(list(reasons)[:3])}); "
        f"neither strict relation is proved everywhere ({'; '.join(failures[:2])})"
    )
    return Outcome(Verdict.INCONCLUSIVE, EXACT, notes=notes)


def _certified(claim: ModelClaim, cfg: ExactConfiguration, at: dict[str, int], ctx: Context) -> Outcome:
    record: dict[str, Any] = {
        "witness": WITNESS,
        "configuration": exact_record(cfg),
        "hypotheses": list(claim.hypotheses),
        "at": dict(sorted(at.items())),
    }
    path = write_certificate(certificate_directory(ctx.certificate_dir), claim.id, "witness", record, embedded(claim))
    witness = {
        "verified_by": "exact",
        "tokens": [[str(v) for v in x] for x in cfg.tokens],
        "heads": [[str(row[i]) for i, row in enumerate(M)] for M in cfg.score_matrices],
        "beta": str(cfg.beta),
        "at": record["at"],
        "rhs_minus_lhs": "0 exactly",
    }
    return Outcome(
        Verdict.CERTIFIED,
        EXACT,
        witness=witness,
        certificates=[str(path)],
        notes="lhs = rhs holds exactly at this configuration (exact field of the model); check-cert re-checks it",
    )
