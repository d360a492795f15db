"""The JSON form of exact model data (rational strings), as the checking kernel reads a configuration
(`headflow.certificates.kernel.recheck.exact_configuration`): what every witness, equilibrium and trajectory certificate
writes."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from headflow.certificates.kernel import ball_model
from headflow.certificates.kernel.exprtree import rational_text
from headflow.certificates.masks import mask_rows


def exact_record(cfg: ball_model.ExactConfiguration) -> dict[str, Any]:
    """The JSON form of exact data (rational strings), as the verifier reads it."""

    def matrix(rows: Sequence[Sequence[Fraction]]) -> list[list[str]]:
        return [[rational_text(v) for v in row] for row in rows]

    record = {
        "tokens": matrix(cfg.tokens),
        "scores": [matrix(M) for M in cfg.score_matrices],
        "values": [matrix(W) for W in cfg.values],
        "beta": rational_text(cfg.beta),
        "attention": cfg.attention,
        "geometry": cfg.geometry,
    }
    if cfg.interaction is not None:  # phi as data: the checker compares it with the tree of the claim's text
        record["interaction"] = cfg.interaction.tree
    return record if cfg.mask is None else record | {"mask": mask_rows(cfg.mask)}
