"""Deciding a dynamics claim: integrated trajectories of the file's family, and an adversarial search.

Starts. A claim about every start of a random family is tried on a number of independent starts fixed
by a stated confidence (CONFIDENCE: 0 failures in N starts shows, with confidence c, that fewer than
1 - (1 - c)^(1/N) of the family's starts fail; `headflow.checks.evidence.sampling`), and the verdict says so. Each start
is judged by `dynamics_starts.run_start` (limits only once the motion stopped, fitted rates and limits
with their error, CONFIRMED only when the claimed value lies within it). A family that is one
configuration up to rotation (fixed tokens, scalar heads) needs one start; a pointwise claim that the
search below decides uses SEARCHED_STARTS runs, whose states join the search. A property that fails
on some starts is INCONCLUSIVE with the failing fraction and the first failing start as data.

Pointwise properties are also searched adversarially (`headflow.checks.evidence.adversarial`): `non-negative` of
any quantity, and `non-decreasing` of a quantity with a rate (attention_entropy -> entropy_rate,
energy -> energy_rate, one head's energy -> head_energy_rate), since Q is non-decreasing along
every trajectory of the family iff dQ/dt >= 0 at every state of it. Both readings of one
quantity are therefore decided by the same search. Floats give at most CONFIRMED; a negative rate
(energy_rate, head_energy_rate, entropy_rate) is handed to the witness certifier: the state is
rounded to exact data of the claim's family (the file's beta and scalar strengths as the exact
rationals written in the file, W_h = M_h, the attention kind and geometry), family membership is
checked exactly, and a ball-verified negative value is a REFUTED witness with a certificate whose
data is the start of a trajectory. For relu attention the exact scores also fix the branch of every
weight max(beta s, 0) exactly, and a witness needs every score off the kink (s != 0). That rounded
state is a configuration of the family only when the family's tokens are free (random or rational
tokens on the sphere) and its heads are scalar with the given strengths or random symmetric/general;
other violations stay INCONCLUSIVE.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

import numpy as np
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.evaluation import EvaluationError, ball
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.errors import InputError
from headflow.certificates.families import HEAD_FAMILIES, TOKEN_FAMILIES
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.model_quantities import CERTIFIED, MODEL_QUANTITIES
from headflow.certificates.provers import equiangular
from headflow.certificates.provers.witness import round_configuration
from headflow.certificates.statements.dynamics import (
    family_failures,
    on_a_kink,
    refutation,
    searched_quantity,
    with_given_matrices,
)
from headflow.certificates.statements.equiangular import point_data, witness_of
from headflow.certificates.statements.pointwise import REGION_PROPERTIES
from headflow.certificates.store import certificate_directory
from headflow.checks.claimsfile import beta_orders, trajectory_certificates
from headflow.checks.claimsfile.angle_start import refuted_at_angles
from headflow.checks.claimsfile.arc_route import certificate as arc_certificate
from headflow.checks.claimsfile.arc_route import decide_arc
from headflow.checks.claimsfile.circle_route import decide_equally_spaced
from headflow.checks.claimsfile.cluster_route import decide_two_clusters
from headflow.checks.claimsfile.dynamics_starts import (
    POINTWISE_TOLERANCE,
    Start,
    configuration,
    parameter,
    quantity,
    run_start,
    settled_limits,
)
from headflow.checks.claimsfile.exact_dynamics import decide_exactly
from headflow.checks.claimsfile.given_start import refuted_at_start, start_certificate
from headflow.checks.claimsfile.initial_rate import decide_initial_rate
from headflow.checks.claimsfile.invariance import decide_by_floats as decide_invariance
from headflow.checks.claimsfile.pointwise_route import decide_pointwise, decide_pointwise_domain
from headflow.checks.claimsfile.quantified_dynamics import DomainSweep
from headflow.checks.claimsfile.reduced_observables import decide_on_reduction
from headflow.checks.claimsfile.region_route import decide_region
from headflow.checks.claimsfile.scheme_energy import decide_scheme_energy
from headflow.checks.claimsfile.scheme_reduction import decide_scheme
from headflow.checks.claimsfile.start_existence import (
    decide_alone,
    from_universal,
    handles,
    stationary_outcome,
    universal_counterpart,
)
from headflow.checks.claimsfile.validated_route import decide_by_enclosure
from headflow.checks.evidence import adversarial
from headflow.checks.evidence.sampling import (
    confidence_sentence,
    configuration_record,
    float_verdict,
    starts_for_confidence,
)
from headflow.checks.evidence.witnesses import Candidate, certify_first
from headflow.checks.integrator import IntegrationFailure
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict, exact_else

#: The confidence and failing fraction that fix the number of independent starts of a random family
#: (`sampling.starts_for_confidence`: 29 starts in the quick profile, 90 in the thorough one).
CONFIDENCE = {"quick": (0.95, 0.10), "thorough": (0.99, 0.05)}
#: Starts of a pointwise claim that the adversarial search decides (its trajectories add states to it).
SEARCHED_STARTS = {"quick": 3, "thorough": 12}
#: Denominators a witness state is rounded with, coarse first (short data); the finer one keeps a violation
#: smaller than the coarse rounding moves the rate (softmax, lambdas = [1, 0.9]: dE/dt ~ -5e-9).
DENOMINATORS = (2**12, 2**40)


#: The exact routes of a closed universal claim, in the order they are tried: each returns None where the claim is
#: not in its regime; the first that answers decides unless it is INCONCLUSIVE (then the float route runs and the
#: exact route's details join its evidence). The pointwise route answers only PROVED or REFUTED (else None), so the
#: routes after it are tried as before.
EXACT_ROUTES: tuple[tuple[str, Callable[[DynamicsClaim, Context], Outcome | None]], ...] = (
    ("the pointwise statement at every configuration (a model claim)", decide_pointwise),
    ("an invariant region from pointwise statements (model claims)", decide_region),
    ("the exact equiangular reduction", decide_exactly),
    ("a closed-form quantity along the equiangular reduction", decide_on_reduction),
    ("the equiangular reduction under a normalization scheme", decide_scheme),
    ("the equilibrium of equally spaced tokens on the circle", decide_equally_spaced),
    ("the gap angle of two clusters", decide_two_clusters),
    ("the energy of a normalization scheme that is a gradient", decide_scheme_energy),
    ("the arc spread of angles within a half circle", decide_arc),
)


@contextmanager
def float_evidence_only() -> Iterator[None]:
    """Within the block, the pointwise route (`decide_pointwise`, and `decide_pointwise_domain` for quantified
    claims) is set aside: for the benchmark and the tests that measure the float route's own evidence on true
    pointwise claims, which that route would PROVE before any run. Never used by a decision."""
    global EXACT_ROUTES, decide_pointwise_domain
    routes, domain = EXACT_ROUTES, decide_pointwise_domain
    EXACT_ROUTES = tuple(route for route in routes if route[1] is not decide_pointwise)
    decide_pointwise_domain = _no_pointwise_domain
    try:
        yield
    finally:
        EXACT_ROUTES, decide_pointwise_domain = routes, domain


def _no_pointwise_domain(claim: DynamicsClaim, ctx: Context) -> None:
    """The pointwise route for a whole domain, set aside (`float_evidence_only`)."""
    return None


def decide_dynamics(claim: DynamicsClaim, ctx: Context) -> Outcome:
    """A claim with quantified parameters is decided for its whole domain (its pointwise statement for every n, d,
    H, beta: `pointwise_route`, or an invariant region's: `region_route`) or at exact points of it
    (`quantified_dynamics.DomainSweep`), each point as a closed claim (`decide_closed`)."""
    if not claim.parameters:
        return with_equiangular_certificate(claim, decide_closed(claim, ctx), ctx)
    pointwise = decide_pointwise_domain(claim, ctx) or decide_region(claim, ctx)
    if pointwise is not None:
        return pointwise
    sweep = DomainSweep(claim, ctx)
    if sweep.proved is not None:  # for every point of the domain at once: its certificate is over the variables
        return with_equiangular_certificate(claim, sweep.proved, ctx)
    for point, on_boundary, instance in sweep.instances():
        refuted = sweep.record(point, on_boundary, decide_closed(instance, ctx))
        if refuted is not None:  # its certificate states the claim over its domain, failing at the point
            return with_equiangular_certificate(claim, refuted, ctx, point_data(point))
    return sweep.outcome()


def with_equiangular_certificate(
    claim: DynamicsClaim, outcome: Outcome, ctx: Context, point: dict[str, str] | None = None
) -> Outcome:
    """A PROVED or REFUTED outcome with the `equiangular` certificate of its verdict, when that form states the claim
    (the cluster gap of equiangular tokens, at numbers or over the domain's variables: proved, or refuted at `point`)
    and the kernel's check accepts it; INCONCLUSIVE when the kernel accepts the opposite verdict (the route and the
    kernel disagree: neither is taken); any other unchanged."""
    if outcome.verdict not in (Verdict.PROVED, Verdict.REFUTED):
        return outcome
    holds, found = outcome.verdict is Verdict.PROVED, {**outcome.details, **(outcome.witness or {})}
    witness = witness_of(claim, found)
    path = equiangular.certify(claim, holds, certificate_directory(ctx.certificate_dir), point, witness)
    if path is None and equiangular.accepted(claim, not holds):
        notes = f"the kernel's equiangular check proves the opposite of {outcome.verdict.value}: neither is taken"
        return Outcome(Verdict.INCONCLUSIVE, outcome.method, notes=notes, details=outcome.details)
    return outcome.with_certificate(path)


def decide_closed(claim: DynamicsClaim, ctx: Context) -> Outcome:
    """`initial-rate` by `initial_rate`; REFUTED exactly when the user's own exact tokens violate the claim at t = 0
    (`given_start`; angles by balls, `angle_start`), or with balls at a later time along a validated enclosure of
    their trajectory (`validated_route`: REFUTED, or CERTIFIED unless the universal route proves it at every
    configuration; its note joins the outcome when it shows the claim holds without a certificate or says why it does
    not decide); statements about some start, `does-not-tend-to` and `decays-exponentially` by
    `start_existence` (from the verdict of a universal claim where it needs one); otherwise the universal route
    (`decide_universal`)."""
    if claim.property == "initial-rate":
        return decide_initial_rate(claim, ctx)
    if claim.property == beta_orders.PROPERTY:
        return _decide_order(claim, ctx)
    at_start = refuted_at_start(claim) or refuted_at_angles(claim)
    if at_start is not None:
        return _with_start_certificate(claim, at_start, ctx)
    enclosed = decide_by_enclosure(claim, ctx)
    if enclosed.decided is not None and enclosed.decided.verdict is Verdict.REFUTED:
        return enclosed.decided
    other = _decide_from_start(claim, ctx)  # may prove it at every configuration: stronger than one trajectory's
    if enclosed.decided is not None and other.verdict is not Verdict.PROVED:
        return enclosed.decided
    return enclosed.annotate(other)


def _with_start_certificate(claim: DynamicsClaim, refuted: Outcome, ctx: Context) -> Outcome:
    """A refutation at t = 0 with the `trajectory` certificate of the claim's negation where a kernel statement
    states it (the observable below or above its bound at some time of [0, T], shown at the exact start; the chain's
    one step is replayed too), else the `start` certificate of the observables of merges and clusters
    (`given_start.start_certificate`) or the `arc` certificate of an arc spread (`arc_route.certificate`): the
    refutation alone otherwise (its value at t = 0 is exact or a ball either way)."""
    path, _ = trajectory_certificates.certify(claim, True, ctx)
    directory = certificate_directory(ctx.certificate_dir)
    return refuted.with_certificate(
        path or start_certificate(claim, directory) or arc_certificate(claim, False, directory)
    )


def _decide_order(claim: DynamicsClaim, ctx: Context) -> Outcome:
    """An order in beta (`beta_orders`): on the equiangular reduction exactly; elsewhere, or when that route does not
    decide, by the float route over a grid of beta (at most CONFIRMED), the exact route's details joined."""
    return exact_else(beta_orders.decide_exactly(claim, ctx), lambda: _decide_numerically(claim, ctx))


def _decide_from_start(claim: DynamicsClaim, ctx: Context) -> Outcome:
    """A statement about some start by `start_existence`, any other by `decide_universal`."""
    if not handles(claim):
        return decide_universal(claim, ctx)
    alone = decide_alone(claim, ctx)
    if alone is not None:
        return alone
    return from_universal(claim, decide_closed(universal_counterpart(claim), ctx))


def decide_universal(claim: DynamicsClaim, ctx: Context) -> Outcome:
    """REFUTED by a stationary start of the family that avoids a claimed limit (`stationary_starts`); else the first
    of `EXACT_ROUTES` that answers; otherwise, or when that route does not decide, CONFIRMED (floats, after an
    adversarial search), REFUTED (certified witness of a negative rate) or INCONCLUSIVE. `stays-non-negative` and
    `stays-at-least` (on every trajectory where the quantity is >= c at t = 0) have their own float route
    (`invariance`)."""
    witnessed = stationary_outcome(claim, ctx)
    if witnessed is not None:
        return witnessed
    exact = next((outcome for _, route in EXACT_ROUTES if (outcome := route(claim, ctx)) is not None), None)
    numeric = decide_invariance if claim.property in REGION_PROPERTIES else _decide_numerically
    return exact_else(exact, lambda: numeric(claim, ctx))


def _decide_numerically(claim: DynamicsClaim, ctx: Context) -> Outcome:
    """The float evidence: integrated trajectories of the family's starts, then the adversarial search."""
    options = claim.options
    try:
        target = _target(claim)
    except EvaluationError as exc:
        return Outcome(Verdict.INCONCLUSIVE, "ball evaluation", notes=f"the stated {claim.property} target: {exc}")
    confidence, fraction = CONFIDENCE[ctx.profile]
    searched = searched_quantity(claim)
    if _one_orbit(options):
        count = 1
    elif searched is not None:  # the search over every state of the family is the evidence; runs add states
        count = options.get("samples", SEARCHED_STARTS[ctx.profile])
    elif claim.property == beta_orders.PROPERTY:  # each start is a whole grid of runs
        count = options.get("samples", beta_orders.STARTS[ctx.profile])
    else:
        count = options.get("samples", starts_for_confidence(confidence, fraction))
    method = f"{claim.property} of {claim.quantity} along {{}} integrated trajectories ({options['tokens']} tokens)"
    if claim.property == beta_orders.PROPERTY:
        betas = ", ".join(f"{b:.4g}" for b in beta_orders.grid(options["beta"], ctx.profile))
        method = method.replace("{}", "{} starts' grids of", 1) + (
            f": floats, the exponent of Q/g in beta fitted over beta = {betas} with its error"
        )
    starts: list[Start] = []
    cfgs = [configuration(options, ctx.rng(f"dynamics-{k}")) for k in range(count)]
    ctx.check_budget()
    limits = settled_limits(claim, cfgs, ctx.profile)  # the starts settled together where they can be
    for k, cfg in enumerate(cfgs):
        ctx.check_budget()
        ctx.report("starts", k, count)
        try:
            if limits is not None and isinstance(limits[k], IntegrationFailure):
                raise limits[k]
            starts.append(run_start(claim, cfg, target, ctx.profile, None if limits is None else limits[k]))
        except IntegrationFailure as failure:  # a limit as t -> oo needs the whole half-line
            notes = (
                f"trajectory {k} left every bound at t = {failure.t_reached:.6g} ({failure.reason}): "
                f"the {claim.property} property as t -> oo is not decided on [0, {failure.t_reached:.6g}]"
            )
            return Outcome(
                Verdict.INCONCLUSIVE, method.format(k + 1), notes=notes, details={"t_reached": failure.t_reached}
            )
        except InputError as exc:  # overflow of this trajectory
            return Outcome(Verdict.INCONCLUSIVE, method.format(k + 1), notes=f"trajectory {k} failed: {exc}")
    tolerance = 0.0 if target is not None else POINTWISE_TOLERANCE  # a limit or rate: within its own error
    trajectories = _over_starts(method.format(count), starts, confidence, _one_orbit(options), tolerance)
    if searched is None:
        return _on_integrated_intervals(trajectories, starts)
    return _on_integrated_intervals(_decide_by_search(claim, ctx, searched, starts, trajectories), starts)


def _one_orbit(options: dict[str, Any]) -> bool:
    """Whether every start of the family is one configuration up to a rotation (fixed tokens, scalar heads):
    the dynamics commutes with rotations, so one start decides every start."""
    return TOKEN_FAMILIES[options["tokens"]].fixed and options["heads"] == "scalar"


def _over_starts(method: str, starts: list[Start], confidence: float, one_orbit: bool, tolerance: float) -> Outcome:
    """The verdict of the starts: CONFIRMED when every start held, saying what that shows about the family;
    INCONCLUSIVE with the failing fraction and the first failing start (as data), or with the first
    undecided start's reason."""
    failed = [k for k, start in enumerate(starts) if start.status == "fails"]
    undecided = [k for k, start in enumerate(starts) if start.status == "undecided"]
    worst = min(range(len(starts)), key=lambda k: starts[k].margin)
    sentence = (
        "the family is one configuration up to rotation, which the dynamics commutes with: one start decides all"
        if one_orbit
        else confidence_sentence(len(failed), len(starts), confidence)
    )
    details: dict[str, Any] = {
        "starts": len(starts),
        "failed": len(failed),
        "undecided": len(undecided),
        "confidence": confidence,
        "worst_start": {"start": worst, **starts[worst].measured},
    }
    shown = _measured_text(starts[worst].measured)
    margin = starts[worst].margin if np.isfinite(starts[worst].margin) else None
    common = {"cases": len(starts), "worst_margin": margin, "tolerance": tolerance}
    if failed:
        first = starts[failed[0]]
        details |= {
            "failing_fraction": len(failed) / len(starts),
            "failing_start": {"start": failed[0], "configuration": configuration_record(first.cfg), **first.measured},
            "candidate": {"configuration": configuration_record(first.worst_state), "index": list(first.worst_index)},
        }
        notes = f"{sentence}; start {failed[0]} {_measured_text(first.measured)}: a float failure, not certified"
        return Outcome(Verdict.INCONCLUSIVE, method, notes=notes, details=details, **common)
    if undecided:
        notes = f"start {undecided[0]}: {starts[undecided[0]].reason} ({len(undecided)} of {len(starts)} undecided)"
        return Outcome(Verdict.INCONCLUSIVE, method, notes=notes, details=details, **common)
    return Outcome(Verdict.CONFIRMED, method, notes=f"{sentence}; worst start {shown}", details=details, **common)


def _measured_text(measured: dict[str, Any]) -> str:
    """The measurement next to the claim: fitted value +- error vs claimed (or the least value)."""
    if "fitted" in measured:
        where = f" at t = {measured['t_end']:.6g}" if "t_end" in measured else ""
        error = "no bound on what is left" if measured["error"] is None else f"{measured['error']:.3g}"
        return f"fitted {measured['fitted']:.10g} +- {error}{where} vs claimed {measured['claimed']:.10g}"
    if "least" in measured:
        return f"least value {measured['least']:.6g}"
    if "first_time" in measured:
        reached = measured["first_time"]
        when = f"at t = {reached:.10g}" if reached is not None else f"not by t = {measured['not_reached_by']:.6g}"
        return f"reached the level {measured['level']:g} {when} vs claimed bound {measured['claimed']:.10g}"
    if "first_merge_time" in measured:
        pairs = ", ".join(f"({i}, {j})" for i, j in measured["pairs"])
        return (
            f"value {measured['value']:g} (first pair within the radius at t = {measured['first_merge_time']:.10g}: "
            f"{pairs}) vs claimed bound {measured['claimed']:.10g}"
        )
    return "undecided"


def _on_integrated_intervals(outcome: Outcome, samples: list[Start]) -> Outcome:
    """The outcome, saying on which interval each run that left every bound was decided (never beyond it)."""
    blown = [(k, sample.blow_up) for k, sample in enumerate(samples) if sample.blow_up is not None]
    if not blown:
        return outcome
    words = "; ".join(
        f"trajectory {k} left every bound at t = {reached:.6g} (step size underflow) and is checked on [0, {until:.6g}]"
        for k, (until, reached) in blown
    )
    note = f"{words}: the verdict is about these intervals only, nothing is claimed beyond them"
    intervals = [{"trajectory": k, "t_reached": reached, "checked_on": [0.0, until]} for k, (until, reached) in blown]
    return dataclasses.replace(
        outcome,
        method=f"{outcome.method}, each on the interval it integrated",
        notes="; ".join(text for text in (outcome.notes, note) if text),
        details=outcome.details | {"integrated_intervals": intervals},
    )


def _decide_by_search(
    claim: DynamicsClaim, ctx: Context, searched: str, samples: list[Start], trajectories: Outcome
) -> Outcome:
    """The adversarial search over the family's states (and the trajectories' records) for `searched` < 0."""
    options, head = claim.options, claim.options.get("head")
    objective = (
        adversarial.rate_margin(searched, head, POINTWISE_TOLERANCE)
        if searched in adversarial.MEASURED_RATES
        else _value_margin(searched, head, parameter(claim) if searched == claim.quantity else None)
    )
    family = adversarial.Family.of(lambda rng: configuration(options, rng), options["tokens"], options["heads"])

    def run(stop_at_clear: bool) -> adversarial.SearchResult:
        budget = adversarial.BUDGETS[ctx.profile]
        rng = ctx.rng("adversarial")
        return adversarial.search(
            family, objective, budget, rng, ctx.check_budget, POINTWISE_TOLERANCE, stop_at_clear=stop_at_clear
        )

    try:
        for result in adversarial.until_certified(run):
            outcome = _searched_outcome(claim, ctx, searched, samples, trajectories, objective, result)
            if outcome.verdict is Verdict.REFUTED or searched not in CERTIFIED:  # certified, or nothing certifies
                return outcome
    except InputError as exc:  # a searched state where the float model leaves float64 (an interaction's overflow)
        notes = f"the adversarial search met a state it cannot evaluate: {exc}"
        return Outcome(Verdict.INCONCLUSIVE, trajectories.method, notes=notes)
    return outcome


def _searched_outcome(
    claim: DynamicsClaim,
    ctx: Context,
    searched: str,
    samples: list[Start],
    trajectories: Outcome,
    objective: adversarial.Objective,
    result: adversarial.SearchResult,
) -> Outcome:
    """The verdict of one search: the float verdict, REFUTED where one of its states certifies."""
    result.include([_worst_record(objective, sample.states) for sample in samples if sample.states])
    best = result.found[0]
    reading = searched if searched == claim.quantity else f"d({claim.quantity})/dt = {searched}"
    method = (
        f"{trajectories.method}; adversarial search of {reading} over the family "
        f"({result.starts} random and {result.structured_starts} structured starts, {result.local_runs} local "
        f"minimizations, {result.evaluations} evaluations)"
    )
    candidate = {"configuration": configuration_record(best.cfg), "index": list(best.index), "quantity": searched}
    details = {"search": result.evidence(), "trajectories": _summary(trajectories)}
    cases = (trajectories.cases or 0) + result.evaluations
    outcome = float_verdict(method, cases, best.margin, POINTWISE_TOLERANCE, candidate, details)
    if outcome.verdict is Verdict.CONFIRMED:
        spent = (
            f"the search stopped ({result.stopped}) after {result.evaluations} of its "
            f"{result.budget.evaluations} evaluations with no margin below -{POINTWISE_TOLERANCE:g}: "
            f"best margin {best.margin:.3g}"
        )
        outcome = dataclasses.replace(outcome, notes="; ".join(n for n in (trajectories.notes, spent) if n))
    if outcome.verdict is Verdict.CONFIRMED and trajectories.verdict is not Verdict.CONFIRMED:
        outcome = dataclasses.replace(
            trajectories, method=method, details=(trajectories.details or {}) | {"search": result.evidence()}
        )
    # A negative margin within the float tolerance is still tried with balls, which need no tolerance: softmax
    # with lambdas = [1, 0.9] has dE/dt ~ -5e-9 (relative) at the search's best state, within 1e-8 of 0.
    if searched not in CERTIFIED or (outcome.verdict is Verdict.CONFIRMED and best.margin >= 0):
        return outcome
    return _certify(claim, searched, result.candidates, ctx, outcome)


def _summary(outcome: Outcome) -> dict[str, Any]:
    return {"verdict": outcome.verdict.value, "cases": outcome.cases, "worst_margin": outcome.worst_margin}


def _worst_record(objective: adversarial.Objective, states: list[Configuration]) -> adversarial.Found:
    """The least margin over the recorded states of one trajectory."""
    margins = [(objective(state), state) for state in states]
    (margin, index), state = min(margins, key=lambda m: m[0][0])
    return adversarial.Found(margin, state, index)


def _value_margin(name: str, head: int | None, value: float | None) -> adversarial.Objective:
    """The least value of a quantity (whose parameter is `value`) relative to 1 + its largest magnitude."""

    def margin(cfg: Configuration) -> tuple[float, tuple[int, ...]]:
        values = quantity(name, cfg, head, value)
        index = np.unravel_index(int(np.argmin(values)), values.shape) if values.ndim else ()
        return float(values[index]) / (1.0 + float(np.max(np.abs(values)))), tuple(int(i) for i in index)

    return margin


def _target(claim: DynamicsClaim) -> float | None:
    """The claimed number the float route measures: the target's value; for `decays-like` the exponent b = 1 of
    |q| ~ C like^b (`dynamics_starts`)."""
    if claim.target is None:
        return None
    if claim.property == "decays-like":
        return 1.0
    if claim.property == beta_orders.PROPERTY:  # the exponent of Q/g in beta (`beta_orders.exponent`)
        return 0.0
    return float(ball(claim.target, {}, 128).mid())


# ---------------------------------------------------------------- witnesses


def exact_state(
    options: dict[str, Any], state: Configuration, denominator: int = DENOMINATORS[0]
) -> ExactConfiguration:
    """The state rounded to exact data of the family (entries with `denominator`): rational unit tokens (the user's
    own exact tokens for given tokens: a witness is then their start), W_h = M_h (W_h = I for values = "identity",
    the state's values rounded symmetric for "spd"),
    the state's mask, and the file's beta (and scalar strengths) exactly as written."""
    symmetric = "symmetric-scores" in HEAD_FAMILIES[options["heads"]].hypotheses
    spd = options.get("values") == "spd"  # rounded symmetric; the exact SPD test decides membership
    exact = round_configuration(
        model.directions(state).tokens,  # a unit start of the family (the residual stream's directions)
        state.score_matrices,
        state.values if spd else state.score_matrices,
        state.beta,
        denominator,
        symmetric,
        state.geometry,
        state.attention,
        symmetric_values=spd,
        mask=state.mask,
        interaction=options.get("interaction"),
    )
    exact = dataclasses.replace(exact, beta=stated(options["beta"]))
    if options["tokens"] == "given" and options["points"].exact:  # the user's start, exactly as written
        exact = dataclasses.replace(exact, tokens=[list(row) for row in options["points"].rows])
    if options["heads"] == "scalar":
        d = state.d
        heads = [
            [[stated(lam) if i == j else Fraction(0) for j in range(d)] for i in range(d)] for lam in options["lambdas"]
        ]
        aligned = options.get("values", "aligned") == "aligned"
        exact = dataclasses.replace(exact, score_matrices=heads, values=heads if aligned else exact.values)
    if options.get("values") == "identity":
        d = state.d
        identity = [[Fraction(int(i == j)) for j in range(d)] for i in range(d)]
        exact = dataclasses.replace(exact, values=[identity] * state.H)
    return with_given_matrices(options, exact)


def _candidate(options: dict[str, Any], searched: str, found: adversarial.Found) -> Candidate:
    """The search's state with the head and token of its negative rate (the file's head when it names one)."""
    axes = MODEL_QUANTITIES[searched].axes
    head = options.get("head", found.index[0] if found.index else None) if "head" in axes else None
    token = found.index[-1] if "token" in axes else None
    return Candidate(found.margin, found.cfg, head, token)


def _certify(
    claim: DynamicsClaim, searched: str, found: list[adversarial.Found], ctx: Context, floats: Outcome
) -> Outcome:
    """REFUTED when a state, rounded to exact data of the family, has a ball-verified negative rate; else `floats`."""
    statement = refutation(claim)
    if statement is None:
        return floats

    candidates = [_candidate(claim.options, searched, f) for f in found]
    for denominator in DENOMINATORS:

        def rounding(candidate: Candidate, denominator: int = denominator) -> ExactConfiguration | None:
            exact = exact_state(claim.options, candidate.cfg, denominator)
            return None if family_failures(claim.options, exact) or on_a_kink(exact) else exact

        attempts = certify_first(ctx, statement, candidates, rounding, claim=embedded(claim))
        if attempts.certified is not None:
            break
    else:
        return floats
    exact, result = attempts.certified.exact, attempts.certified.result
    witness = {
        "verified_by": "ball",
        "quantity": searched,
        "head": attempts.certified.candidate.head,
        "token": attempts.certified.candidate.token,
        "ball": result.values[0],
        "hypotheses": statement["hypotheses"],
        "beta": str(exact.beta),
        "certificate": str(result.path),
    }
    if searched != claim.quantity:
        witness["reading"] = (
            f"d({claim.quantity})/dt = {searched} < 0 at this exact state of the family, so {claim.quantity} "
            "decreases on the trajectory that starts there"
        )
    method = floats.method + "; the state rounded to exact data of the family, the sign verified with balls"
    return Outcome(
        Verdict.REFUTED,
        method,
        cases=floats.cases,
        worst_margin=floats.worst_margin,
        tolerance=floats.tolerance,
        witness=witness,
        certificates=[str(result.path)],
        details=floats.details,
    )
