"""Looking for a stationary start of a dynamics claim's family: exact structured candidates, each checked exactly.

A stationary start (velocity exactly 0 at every token) keeps every quantity constant, so one whose quantity is not the
claimed limit is a witness that some start of the family does not tend to it: a witness of the claim's `model` statement
over the stationary members (`headflow.certificates.statements.dynamics.stationary`), which `check-cert` re-checks. The
candidates are proposals only (no float decides anything): the user's own tokens; tokens on coordinate axes (k groups of
coinciding tokens at the vertices e_1, ..., e_k of an orthogonal frame, for k from 1 to min(n, d)), which lie in an open
hemisphere (around e_1 + ... + e_k) and are stationary for relu attention with positive scalar heads (every weight
across groups is max(0, 0) = 0) and for usa heads in pairs lambda, -lambda (e^0 - e^0 = 0 across groups); and antipodal
pairs. Heads: the file's strengths for scalar heads, its own matrices for given heads (and its given values), else I and
the pairs I, -I. beta is the file's, of either sign: with beta < 0 (repulsive) relu weights max(beta s, 0) vanish
wherever every score is >= 0, so tokens on coordinate axes are stationary for positive heads.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.kernel.ball_model import ExactConfiguration, Matrix, stationary
from headflow.certificates.kernel.exact_data import dot
from headflow.certificates.kernel.exprtree import parse_rational
from headflow.certificates.kernel.tree_text import term_text
from headflow.certificates.masks import mask_of
from headflow.certificates.provers.model_witness import certify_model_witness
from headflow.certificates.statements import dynamics
from headflow.certificates.store import certificate_directory
from headflow.checks.registry import Context

#: Candidates tried per claim (each is an exact computation; the structured list is short).
MAX_CANDIDATES = 200


def _scalar(lam: Fraction, d: int) -> Matrix:
    return [[lam if i == j else Fraction(0) for j in range(d)] for i in range(d)]


def _heads(options: dict[str, Any]) -> list[list[Matrix]]:
    d, H = options["d"], options["H"]
    if options["heads"] == "scalar":
        return [[_scalar(stated(lam), d) for lam in options["lambdas"]]]
    if options["heads"] == "given":
        return [options["scores"].exact()]
    signs = [[Fraction(1)] * H, [Fraction(1 if h % 2 == 0 else -1) for h in range(H)]]
    return [[_scalar(s, d) for s in row] for row in signs]


def _axis(k: int, d: int, sign: int = 1) -> list[Fraction]:
    return [Fraction(sign) if j == k else Fraction(0) for j in range(d)]


def _tokens(options: dict[str, Any]) -> Iterator[list[list[Fraction]]]:
    n, d = options["n"], options["d"]
    if options["tokens"] == "given":
        if options["points"].exact:
            yield [list(row) for row in options["points"].rows]
        return
    for groups in range(min(n, d), 0, -1):
        yield [_axis(i % groups, d) for i in range(n)]
    yield [_axis(0, d, 1 if i % 2 == 0 else -1) for i in range(n)]


def candidates(options: dict[str, Any]) -> Iterator[ExactConfiguration]:
    """Exact structured configurations of the family's sizes, beta, kind, geometry and mask (membership is checked
    later)."""
    beta, mask = stated(options["beta"]), mask_of(options.get("mask"), options["n"])
    for tokens in _tokens(options):
        for heads in _heads(options):
            cfg = ExactConfiguration(tokens, heads, heads, beta, options["geometry"], options["attention"], mask)
            yield dynamics.with_given_matrices(options, cfg)


def token_products(tokens: list[list[Fraction]]) -> list[Fraction]:
    """<x_i, x_j> for i != j, exactly."""
    return [dot(x, y) for i, x in enumerate(tokens) for j, y in enumerate(tokens) if i != j]


#: The exact value of each quantity a stationary start settles (`dynamics.STATIONARY_TERMS`), at exact tokens.
EXACT_VALUES = {
    "cluster_gap": lambda tokens: 1 - min(token_products(tokens)),
    "least_inner_product": lambda tokens: min(token_products(tokens)),
}


def find_stationary(claim: DynamicsClaim, ctx: Context) -> tuple[Path, ExactConfiguration, Fraction] | None:
    """A certificate of a stationary start of the family avoiding the claim's limit (its path, data and the
    quantity's exact value), or None when no candidate is one."""
    limit = dynamics.avoided_limit(claim)
    if dynamics.stationary(claim) is None or limit is None:
        return None
    for count, cfg in enumerate(candidates(claim.options)):
        if count >= MAX_CANDIDATES:
            break
        ctx.check_budget()
        if dynamics.family_failures(claim.options, cfg) or not stationary(cfg):
            continue
        value, target = EXACT_VALUES[claim.quantity](cfg.tokens), parse_rational(limit[1])
        if value == target:
            continue
        statement = dynamics.stationary(claim, ">" if target > value else "<")
        assert statement is not None
        directory = certificate_directory(ctx.certificate_dir)
        result = certify_model_witness(statement, cfg, {}, directory, embedded(claim))
        if result.verified and result.path is not None:
            return result.path, cfg, value
    return None


def witness_fields(found: tuple[Path, ExactConfiguration, Fraction], claim: DynamicsClaim) -> dict[str, Any]:
    """The witness as reports show it."""
    path, cfg, value = found
    limit = dynamics.avoided_limit(claim)
    return {
        "verified_by": "exact",
        "start": [[str(v) for v in x] for x in cfg.tokens],
        "velocity": "exactly 0 at every token (exponential polynomials)",
        claim.quantity: str(value),
        "limit_avoided": "None" if limit is None else term_text(limit),
        "certificate": str(path),
    }
