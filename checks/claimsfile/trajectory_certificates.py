"""Certificates of the claims the validated enclosure decides about the trajectory from the user's exact tokens: the
claim (or its negation) as a kernel `trajectory` statement and a chain of steps the kernel replays
(`headflow.certificates.kernel.trajectory`, built by `headflow.certificates.provers.validated.replayable`).

The statement is elaborated here from the route's reading of the claim (`validated_route.Reading`): the observable's
terms as a model term with free tokens i != j (the pairwise quantities; the first pair's gap at i = 0, j = 1) or none
(the energy and its rate; a head's at its index h), the least or largest of them, the relation and the horizon:

- `at-least c` / `at-most c` on [0, T]: Q >= c / Q <= c at every t of [0, T]; refuted by Q < c / Q > c at some t;
- `non-decreasing` (the energy): dE/dt >= 0 at every t of [0, T] (E is C^1); refuted by dE/dt < 0 at some t;
- clustering time at most T*: cluster_gap <= level at some t of [0, T*]; refuted by cluster_gap > level at every t;
- clustering time at least T*: cluster_gap > level at every t of [0, T*]; refuted by cluster_gap < level at some t
  of [0, T*] (strictly below at t <= T*, so <= level before T* by continuity).

A certificate is written only when the kernel accepts it; otherwise the reason is returned and the route's verdict
stays what the enclosure alone allows.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.kernel import trajectory
from headflow.certificates.kernel.exact_data import ExactConfiguration
from headflow.certificates.kernel.exprtree import rational_text
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.validated.replayable import build_chain
from headflow.certificates.provers.witness import exact_record
from headflow.certificates.store import certificate_directory, write_certificate
from headflow.checks.registry import Context

_INNER = ["inner", ["name", "x_i"], ["name", "x_j"]]
#: The observable of each quantity the certificates state: its model term and whether the claim reads its least
#: or largest value over the term's bindings.
TERMS: dict[str, tuple[list[Any], str]] = {
    "least_inner_product": (_INNER, "least"),
    "largest_inner_product": (_INNER, "largest"),
    "cluster_gap": (["-", ["num", "1"], _INNER], "largest"),
    "clustering_time": (["-", ["num", "1"], _INNER], "largest"),
    "energy": (["name", "E"], "least"),
    "first_pair_gap": (["-", ["num", "1"], _INNER], "largest"),
}
#: The free indices a quantity is stated at: the first pair's tokens (a head's energy: its head).
FIXED = {"first_pair_gap": {"i": 0, "j": 1}}
#: The route's relation -> (op, when) it states, and (op, when) of its negation.
RELATIONS = {
    "at-least": ((">=", "always"), ("<", "sometime")),
    "at-most": (("<=", "always"), (">", "sometime")),
    "non-decreasing": ((">=", "always"), ("<", "sometime")),
    "clustering-at-most": (("<=", "sometime"), (">", "always")),
    "clustering-at-least": ((">", "always"), ("<", "sometime")),
}
#: Steps a chain may take, per profile (counted, never timed).
MAX_STEPS = {"quick": 300, "thorough": 3_000}


def statement(
    claim: DynamicsClaim, cfg: ExactConfiguration, relation: str, bound: Fraction, horizon: Fraction, negated: bool
) -> dict[str, Any] | None:
    """The kernel statement of the claim (or of its negation), or None where no statement form covers it."""
    head = claim.options.get("head")
    if claim.quantity not in TERMS or relation not in RELATIONS or (head is not None and claim.quantity != "energy"):
        return None
    term, over = TERMS[claim.quantity]
    fixed = FIXED.get(claim.quantity, {})
    if head is not None:
        term, fixed = ["name", "E_h"], {"h": head}
    if relation == "non-decreasing":
        if claim.quantity != "energy":
            return None
        term, bound = ["name", "dE_dt" if head is None else "dE_h_dt"], Fraction(0)
    op, when = RELATIONS[relation][negated]
    return {
        "form": trajectory.FORM,
        "claim": claim.id,
        "configuration": exact_record(cfg),
        "interaction": None if cfg.interaction is None else cfg.interaction.tree,
        "term": term,
        "fixed": fixed,
        "over": over,
        "op": op,
        "bound": rational_text(bound),
        "when": when,
        "time": rational_text(horizon),
    }


def certify(claim: DynamicsClaim, data: dict[str, Any], ctx: Context) -> tuple[str | None, str]:
    """(the path of an accepted certificate of the statement `data`, or None; what happened, in words)."""
    try:
        parsed = trajectory.statement_of(data, claim.id)
    except (Rejected, ValueError) as exc:
        return None, f"no trajectory statement: {exc}"
    chain = build_chain(parsed, parsed.time, MAX_STEPS[ctx.profile])
    if chain.stopped:
        return None, f"no replayable chain: {chain.stopped}"
    path = write_certificate(
        certificate_directory(ctx.certificate_dir), claim.id, "trajectory", chain.payload(), embedded(claim), data
    )
    checked = check_file(path)
    if not checked.ok:
        path.unlink(missing_ok=True)
        return None, f"the chain's certificate does not re-check: {checked.message}"
    return str(path), f"certificate re-checked by the kernel ({len(chain.steps)} steps replayed)"
