"""An exact witness of an existence `model` claim with `op = "="`: a configuration where lhs = rhs holds exactly.

Balls never show an equality, and floats never show anything: the sides are evaluated in the exact field of the
model at rational data (`certificates.kernel.ball_model.exact_values`, `certificates.kernel.exp_field`: quotients of
exponential polynomials), and `rhs - lhs` must be the zero element, an exact test. Everything else a witness needs
is the check of every model witness (`model_values.settle`: the claim's kind, geometry, hypotheses, sign of beta and
mask exactly (masked weights are exactly 0), the token and head it names, every `given` condition settled by balls
at every token). The entropies (a logarithm) have no exact value here, so a claim about them has no exact witness.
The statement checked is the certificate's (`certificates.kernel.model_statements`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from certificates.kernel.ball_model import ExactConfiguration, exact_values, per_head
from certificates.kernel.exact import precision
from certificates.kernel.exp_field import ExpFieldError, ExpNumber
from certificates.kernel.model_chain import Chain
from certificates.kernel.model_values import NumericAlgebra, residual, settle

WITNESS = "model-configuration-exact"
#: Working precision (bits) of the balls that settle the `given` conditions.
PRECISION = 256


def exact_algebra(cfg: ExactConfiguration) -> NumericAlgebra:
    """The model terms at exact data, as exact numbers (KeyError for a primitive with no exact value)."""
    readers = {
        "n": lambda: cfg.n,
        "d": lambda: len(cfg.tokens[0]),
        "H": lambda: len(cfg.score_matrices),
        "beta": lambda: ExpNumber.rational(cfg.beta),
        "x": lambda: [[ExpNumber.rational(v) for v in x] for x in cfg.tokens],
        "f": lambda: exact_values(cfg, Chain.outputs),
        "E_h": lambda: exact_values(cfg, per_head(Chain.head_energy)),
        "dE_h_dt": lambda: exact_values(cfg, per_head(Chain.head_energy_rate)),
    }
    return NumericAlgebra(lambda name: readers[name](), ExpNumber.rational, cfg.attention, cfg.geometry)


def equality_failures(claim: Any, cfg: ExactConfiguration, at: dict[str, int]) -> list[str]:
    """Why `cfg` (at the token and head of `at`) is not an exact witness of the existence claim `lhs = rhs`
    (empty: it is one)."""
    if not claim.exists or claim.relation.op != "=":
        return [f"claim {claim.id!r} is not an existence claim of an equality"]
    if getattr(claim, "interaction", None) is not None:
        return ["the exact model has exp(beta s) weights: a stated interaction phi has no exact witness here"]
    with precision(PRECISION):
        checked = settle(dataclasses.replace(claim, exists=False), cfg, at)  # every check but the relation's
    if checked.failures:
        return checked.failures
    try:
        value = residual(claim.relation, exact_algebra(cfg), at)
    except KeyError as missing:
        return [f"{missing} has no exact value (only balls): an equality needs exact values"]
    except ExpFieldError as exc:
        return [f"rhs - lhs has no exact value: {exc}"]
    if not isinstance(value, ExpNumber) or not value.is_zero():
        return ["rhs - lhs is not exactly 0"]
    return []
