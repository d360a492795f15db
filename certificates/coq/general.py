"""The paper's general identities as Coq files: what `headflow export coq DIR` writes.

- `inner_product.v` (static, `certificates/coq/general/`): a Section over an abstract real inner-product
  space (a type V with addition, scaling, zero and a symmetric bilinear positive semi-definite inner
  product: no dimension), a unit vector x and the tangent projection; it proves the projection identities,
  Theorem 11 and the T17 decomposition in their per-token form, and Condition 8 implies dE_h/dt >= 0 (the
  per-token terms summed over a list of tokens). Sums over heads and tokens are Coq standard-library lists
  (`List.fold_right`); the gradient lemma that turns dE_h/dt into these per-token terms is not in Coq.
- `threshold.v` (generated): the T19 threshold statements and the Cauchy-Schwarz threshold for all real
  H >= 2, n >= 2 (t = exp(alpha beta) and q* = exp(2 alpha beta*) positive variables, c* pinned by its
  polynomial), written from `certificates.statements.registry` by the same generator as the smt certificates' files.
"""

from __future__ import annotations

from pathlib import Path

from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq.certificate import universal
from headflow.certificates.statements import registry as ob

STATIC = Path(__file__).with_name("general")

#: Registry claim -> the Coq theorems that state it (in the file named).
THEOREMS: dict[str, tuple[str, str]] = {
    "projection.self-pairing": ("inner_product.v", "projection_self_pairing"),
    "projection.symmetry": ("inner_product.v", "projection_symmetry"),
    "projection.tangency": ("inner_product.v", "projection_tangency, projection_idempotence"),
    "T11.energy-rate.spherical": ("inner_product.v", "T11_per_token"),
    "T17.shadow-decomposition": ("inner_product.v", "T17_per_token"),
    "C8.radial-dominance": ("inner_product.v", "C8_implies_head_energy_nondecreasing"),
    "T19.threshold": ("threshold.v", "claim_c8_threshold, claim_summary_form, claim_strictly_below, ..."),
    "T19.threshold.cauchy-schwarz": ("threshold.v", "claim_cauchy_schwarz_exact"),
}


def files() -> dict[str, str]:
    """File name -> Coq text of every exported file."""
    threshold = universal(
        ob.expected_statement_trees("T19.threshold") + ob.expected_statement_trees("T19.threshold.cauchy-schwarz")
    )
    sentence = f"{ob.SMT['T19.threshold'].sentence}; {ob.SMT['T19.threshold.cauchy-schwarz'].sentence}"
    return {
        "inner_product.v": (STATIC / "inner_product.v").read_text(encoding="ascii"),
        "threshold.v": source("export (no certificate)", "T19.threshold", sentence, threshold),
    }
