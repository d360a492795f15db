"""The Coq proof of an interval-cover certificate's statement, from the cover's tree (untrusted: coqc checks it).

The statement (`certificates.kernel.coq.certificate`) is the claim's: for all real values of the variables in the
domain, the relation and every definedness condition (or the one definedness condition the cover proves). The proof
walks the cover as the kernel does, every node's box clipped to the domain (`Region.clip`, the kernel's own):
- a leaf: a lemma `forall vars, lo <= x -> x <= hi -> ... -> goal` over its clipped box, each conjunct proved by
  `interval` (Interval's own enclosure of the box; where it fails, with bisection of every side and Taylor models in
  one side, what a centred leaf may need, then bisection alone);
- a monotone node: the same lemma over the node's box, by Interval's bisection and Taylor models on the box (the
  kernel's derivative sign and face are not replayed);
- a split at `x = c`: `destruct (Rle_lt_dec x c)`, the two halves proved in turn;
- an empty box: its bounds contradict the domain's, `lra`.
In the theorem each leaf applies its lemma, whose box bounds `lra` derives from the domain's and the splits' bounds.
A domain bound that is an expression of other variables is used by `lra` only (a linear one works). A lemma that
Interval does not prove fails the file: the kernel's check stands, Coq says nothing (`checks.coq_files`).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

from headflow.certificates.kernel.coq.statements import (
    NotTranslatable,
    UniversalStatement,
    binders,
    formula,
    identifier,
    real,
)
from headflow.certificates.kernel.real_statements import read_region
from headflow.certificates.kernel.regions import Box

#: The largest cover translated: box lemmas (each a few `interval` calls, about a second) and nested splits.
MAX_BOXES, MAX_DEPTH = 500, 100
#: Bits of working precision `interval` uses beyond the cover's ball precision.
EXTRA_BITS = 16
#: Interval's bisection depth on a box whose plain evaluation fails (every varying side bisected, with Taylor models
#: in one side, then without).
DEPTH = 16
#: A goal `a <= b`, `a < b`, `a >= b`, `a > b` as `a - b <= 0` (Interval wants a constant side), `e <> 0` as
#: `0 < |e|`.
CONSTANT_BOUNDS = (
    "first [ apply Rle_ge, Rminus_le | apply Rlt_gt, Rminus_lt | apply Rminus_le | apply Rminus_lt "
    "| apply nonzero_of_abs ]"
)


def cover_proof(statement: dict[str, Any], universal: UniversalStatement, payload: dict[str, Any]) -> tuple[str, str]:
    """(the box lemmas, the theorem's proof lines) of the cover `payload` of the statement `universal`; NotTranslatable
    for a domain a lambda_c root bounds (a box would need the root's bounds, which no lemma here writes)."""
    if root_bounded(universal.hypotheses):
        raise NotTranslatable("a cover of a domain bounded by lambda_c: no box bounds of the root are written")
    names = [identifier(name) for name in universal.constants]
    prover = _Prover(names, formula(universal.goal), payload["prec"] + EXTRA_BITS, set(universal.integers))
    domain = {k: (Fraction(lo), Fraction(hi)) for k, (lo, hi) in payload["domain"].items()}
    script = prover.node(payload["tree"], domain, read_region(statement), 1)
    bound = [identifier(name) for group, _ in binders(universal) for name in group]  # the reals, then the integers
    intros = " ".join(bound + [f"h{k}" for k in range(len(universal.hypotheses))])
    return "\n".join(prover.lemmas), f"  intros {intros}.\n{script}."


def root_bounded(bounds: Any) -> bool:
    """Whether a lambda_c root is among `bounds` (trees, a statement's variables): a cover of such a domain has no Coq
    proof here (`cover_proof`)."""
    return '"lambda_c"' in json.dumps(bounds)


class _Prover:
    """The walk: each node's box clipped to the region, a lemma per leaf and monotone node."""

    def __init__(self, names: list[str], goal: str, prec: int, integers: set[str]) -> None:
        self.names, self.goal, self.prec, self.integers = names, goal, prec, integers
        self.lemmas: list[str] = []
        self.splits = 0

    def node(self, node: dict[str, Any], box: Box, region: Any, depth: int) -> str:
        """The proof script of the node's box (indented by `depth`)."""
        pad = "  " * depth
        if depth > MAX_DEPTH or len(self.lemmas) >= MAX_BOXES:
            raise NotTranslatable(
                f"the cover is too large for Coq (past {MAX_BOXES} boxes or {MAX_DEPTH} nested splits)"
            )
        clipped = region.clip(box)
        if clipped is None or "empty" in node:
            return f"{pad}exfalso; lra"
        if "split" in node:
            variable, at = identifier(node["split"]), Fraction(node["at"])
            lo, hi = clipped[node["split"]]
            self.splits += 1
            case = f"s{self.splits}"
            low = self.node(node["low"], clipped | {node["split"]: (lo, at)}, region, depth + 1)
            high = self.node(node["high"], clipped | {node["split"]: (at, hi)}, region, depth + 1)
            split = f"Rle_lt_dec {variable} {real(at)}"
            if variable in self.integers:  # n <= k or k + 1 <= n, k = floor(at): the halves the kernel rounds inwards
                split = f"hf_int_split {variable} ({math.floor(at)})%Z"
            return f"{pad}destruct ({split}) as [{case}|{case}]; [\n{low}\n{pad}|\n{high} ]"
        return pad + self._lemma(clipped, node.get("monotone"))

    def _lemma(self, box: Box, monotone: str | None) -> str:
        """A box lemma (its tactic: `interval`, with bisection and Taylor models as fallbacks, first in the monotone
        variable) and the theorem's line that applies it."""
        name = f"hf_box_{len(self.lemmas) + 1}"
        bounds = "".join(f"{real(box[v][0])} <= {v} -> {v} <= {real(box[v][1])} -> " for v in self.names)
        moving = [v for v in self.names if box[v][0] < box[v][1]]
        order = ([identifier(monotone)] if monotone else []) + [v for v in moving if v != monotone]
        bisect = "".join(f", i_bisect {v}" for v in order)
        options = [f"(i_prec {self.prec})"] + [
            f"(i_prec {self.prec}{bisect}{taylor}, i_depth {DEPTH})"
            for taylor in [*(f", i_taylor {v}" for v in order), ""]
        ] * bool(order)
        attempts = " | ".join(f"interval with {o}" for o in options)
        unfold = " unfold c_star." if "c_star" in self.goal else ""
        self.lemmas.append(
            f"Lemma {name} : forall {' '.join(self.names)} : R,\n  {bounds}\n  {self.goal}.\n"
            f"Proof.\n  intros.{unfold}\n  repeat split.\n  all: try {CONSTANT_BOUNDS}.\n"
            f"  all: first [ {attempts} ].\nQed."
        )
        arguments = " ".join(f"(IZR {v})" if v in self.integers else v for v in self.names)
        return f"apply ({name} {arguments}); lra"
