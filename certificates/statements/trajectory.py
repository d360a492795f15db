"""The kernel's `trajectory` statement of a dynamics claim about the one trajectory from the user's exact tokens (or of
its negation): elaborated here for the validated route that writes its certificates
(`headflow.checks.claimsfile.validated_route`) and for `check-cert --claims`, which elaborates it again.

The claim's member is its family's one member when the file fixes it exactly (`given_configuration`). Its reading
(`bound_reading`): the relation (`at-least`, `at-most`, `non-decreasing`, `clustering-at-most` / `-at-least` of a
level), the bound (the level for a clustering time) and the horizon T (the claim's `time`, else `HORIZON`; the
claimed T* of a clustering time). The statement: the observable as a model term with free tokens i != j (the pairwise
quantities; the first pair's gap at i = 0, j = 1) or none (the energy and its rate; a head's at its index h), the
least or largest of it over the bindings (W2 to a Dirac mass and the first merge radius, on the sphere, by their
squares 2 - 2 |mean x| and 2 - 2 <x_i, x_j> against the bound's square), and

- `at-least c` / `at-most c` on [0, T]: Q >= c / Q <= c at every t of [0, T]; negated: Q < c / Q > c at some t;
- `non-decreasing` (the energy): dE/dt >= 0 at every t of [0, T] (E is C^1); negated: dE/dt < 0 at some t;
- clustering time at most T*: cluster_gap <= level at some t of [0, T*]; negated: cluster_gap > level at every t;
- clustering time at least T*: cluster_gap > level at every t of [0, T*]; negated: cluster_gap < level at some t
  of [0, T*] (strictly below at t <= T*, so <= level before T* by continuity);
- `tends-to L` / `does-not-tend-to L`: Q's limit as t -> infinity == L / != L (the kernel proves a limit by the cone
  collapse theorem, from a chain that reaches an open hemisphere by T); negated: != L / == L.

An invariant region (`stays-at-least`) is an implication from the start's value, which no trajectory statement states.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from headflow.certificates.claims.evaluation import exact
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.exact_records import exact_record
from headflow.certificates.kernel import trajectory
from headflow.certificates.kernel.arc import FORM as ARC
from headflow.certificates.kernel.clusters import FORM as CLUSTERS
from headflow.certificates.kernel.equiangular import FORM as EQUIANGULAR
from headflow.certificates.kernel.exact_data import ExactConfiguration
from headflow.certificates.kernel.exprtree import TreeError, rational_text
from headflow.certificates.kernel.spaced import FORM as SPACED
from headflow.certificates.kernel.start import FORM as START
from headflow.certificates.masks import mask_of
from headflow.certificates.statements import clusters, dynamics, equiangular, pointwise, reduced_time, spaced, start
from headflow.certificates.statements.dynamics import with_given_matrices

#: The horizon of a dynamics claim that states no `time`, by geometry (the float route's too).
HORIZON = {"sphere": 10.0, "flat": 1.0, "pre-ln": 10.0, "peri-ln": 10.0, "mix-ln": 10.0, "ngpt": 10.0}
#: The properties read as a lower bound along the one trajectory, and the invariant regions among them.
INVARIANT_REGIONS = ("stays-non-negative", "stays-at-least")
AS_BOUND = {"non-negative": "at-least"} | dict.fromkeys(INVARIANT_REGIONS, "at-least")
#: The properties read as the limit of the observable along the one trajectory.
LIMITS = ("tends-to", "does-not-tend-to")

_INNER = ["inner", ["name", "x_i"], ["name", "x_j"]]
_GAP = ["-", ["num", "1"], _INNER]
#: The observable of each quantity a statement states: its model term, the least or largest over its bindings, and
#: the free indices it is at.
TERMS: dict[str, tuple[list[Any], str, dict[str, int]]] = {
    "least_inner_product": (_INNER, "least", {}),
    "largest_inner_product": (_INNER, "largest", {}),
    "cluster_gap": (_GAP, "largest", {}),
    "clustering_time": (_GAP, "largest", {}),
    "first_pair_gap": (_GAP, "largest", {"i": 0, "j": 1}),
    "energy": (["name", "E"], "least", {}),
    "w2_to_dirac": (
        ["-", ["num", "2"], ["/", ["*", ["num", "2"], ["norm", ["sum_i", ["name", "x_i"]]]], ["name", "n"]]],
        "least",
        {},
    ),
    "merge_radius": (["-", ["num", "2"], ["*", ["num", "2"], _INNER]], "least", {}),
}
#: The quantities whose term is their square on the sphere (unit tokens): W2 to the nearest Dirac mass, sqrt(2 - 2
#: |mean x|), and the least distance between two tokens (the first merge radius, k = 1), sqrt(2 - 2 <x_i, x_j>); a
#: bound c >= 0 on the quantity is the bound c^2 on the term.
SQUARED = ("w2_to_dirac", "merge_radius")
#: The relation -> (op, when) it states, and (op, when) of its negation.
RELATIONS = {
    "at-least": ((">=", "always"), ("<", "sometime")),
    "at-most": (("<=", "always"), (">", "sometime")),
    "non-decreasing": ((">=", "always"), ("<", "sometime")),
    "clustering-at-most": (("<=", "sometime"), (">", "always")),
    "clustering-at-least": ((">", "always"), ("<", "sometime")),
    "tends-to": (("==", "limit"), ("!=", "limit")),
    "does-not-tend-to": (("!=", "limit"), ("==", "limit")),
}


def given_configuration(options: dict[str, Any]) -> ExactConfiguration | None:
    """The family's one member when the claim fixes it exactly: the user's exact tokens, scalar heads at the file's
    strengths or the file's own matrices, aligned, identity or given values, the file's beta (None otherwise)."""
    points, d = options.get("points"), options["d"]
    if options["tokens"] != "given" or points is None or not points.exact:
        return None
    if options["heads"] not in ("scalar", "given") or options.get("values", "aligned") == "spd":
        return None
    identity = [[Fraction(int(i == j)) for j in range(d)] for i in range(d)]
    heads = [[[stated(lam) * v for v in row] for row in identity] for lam in options.get("lambdas", ())]
    cfg = ExactConfiguration(
        [list(row) for row in points.rows],
        heads,
        heads,
        stated(options["beta"]),
        options["geometry"],
        options["attention"],
        mask_of(options.get("mask"), len(points.rows)),
        options.get("interaction"),
    )
    cfg = with_given_matrices(options, cfg)
    if options.get("values") == "identity":
        cfg = dataclasses.replace(cfg, values=[identity] * len(cfg.score_matrices))
    return cfg


def bound_reading(claim: DynamicsClaim, geometry: str) -> tuple[str, Fraction, Fraction] | None:
    """(relation, bound, level or limit, horizon) of the claim along one trajectory, or None when it is not such a
    bound or limit."""
    options = claim.options
    bound = Fraction(0) if claim.target is None else exact(claim.target, {})
    if bound is None:
        return None
    if claim.quantity == "clustering_time":
        if claim.property not in ("at-most", "at-least") or bound <= 0:
            return None
        return f"clustering-{claim.property}", stated(options["level"]), bound
    relation = AS_BOUND.get(claim.property, claim.property)
    if relation not in ("at-least", "at-most", "non-decreasing", *LIMITS):
        return None
    return relation, bound, stated(options["time"]) if "time" in options else Fraction(HORIZON[geometry])


def statement(claim: DynamicsClaim, negated: bool) -> dict[str, Any] | None:
    """The kernel statement of the claim (or of its negation), or None where no statement form states it."""
    cfg = given_configuration(claim.options)
    reading = None if cfg is None or claim.exists else bound_reading(claim, cfg.geometry)
    head = claim.options.get("head")
    if reading is None or claim.property in INVARIANT_REGIONS or claim.quantity not in TERMS or cfg.interaction:
        return None  # an interaction's weights need phi > 0, which the kernel's replay does not check
    relation, bound, horizon = reading
    if head is not None and claim.quantity != "energy":
        return None
    if claim.quantity in SQUARED:
        if cfg.geometry != "sphere" or bound < 0 or stated(claim.options.get("k", 1)) != 1:
            return None
        bound = bound * bound
    term, over, fixed = TERMS[claim.quantity]
    if head is not None:
        term, fixed = ["name", "E_h"], {"h": head}
    if relation == "non-decreasing":
        if claim.quantity != "energy":
            return None
        term, bound = ["name", "dE_dt" if head is None else "dE_h_dt"], Fraction(0)
    op, when = RELATIONS[relation][negated]
    try:
        bound_text = rational_text(bound)
    except TreeError:  # a bound past what a certificate records: no statement states the claim
        return None
    return {
        "form": trajectory.FORM,
        "claim": claim.id,
        "configuration": exact_record(cfg),
        "term": term,
        "fixed": fixed,
        "over": over,
        "op": op,
        "bound": bound_text,
        "when": when,
        "time": rational_text(horizon),
    }


def elaborate(claim: DynamicsClaim, payload: dict[str, Any]) -> dict[str, Any] | None:
    """The statement of a trajectory certificate of the claim: of its negation when the payload says `negated`."""
    return statement(claim, payload.get("negated") is True)


def dynamics_statement(claim: DynamicsClaim, kind: str, payload: dict[str, Any]) -> dict[str, Any] | None:
    """The statement of any certificate of a dynamics claim: a trajectory chain's here, a proof's by
    `pointwise.proof` (an invariant region's bound in normal form: `pointwise.bound_proof`), an equiangular claim's
    by `equiangular.from_payload` (that it holds or fails, as the payload says), a witness's by `dynamics.elaborate`."""
    if kind == "gram":
        return pointwise.proof(claim)
    if kind == "sums":
        return pointwise.bound_proof(claim)
    if kind == EQUIANGULAR:
        return equiangular.from_payload(claim, payload)
    if kind == SPACED:
        return spaced.statement(claim, payload.get("holds") is True)
    if kind == START:
        return start.statement(claim)
    if kind == ARC:
        return spaced.arc_statement(claim, "order" not in payload)  # a refutation's payload orders the tokens
    if kind == CLUSTERS:
        return clusters.statement(claim, payload.get("holds") is True)
    if kind == "smt":
        return reduced_time.grows_like(claim, kind, payload)
    return elaborate(claim, payload) if kind == "trajectory" else dynamics.elaborate(claim, kind, payload)
