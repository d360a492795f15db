"""Deciding a dynamics claim: an adversarial search over the file's family, and integrated trajectories.

Each sample draws one configuration of the family (`checks.families`, seeded by the context),
integrates it (`checks.integrator.integrate`) and evaluates the quantity with `checks.model` at
every recorded state. The property gives a margin per sample (`non-negative`: the least value;
`non-decreasing`: the least increment between records; `tends-to`: minus the distance of the
final value to the limit; `decays-at-rate`: minus the relative error of the fitted exponential
rate, by `checks.theorems.clustering.late_exponent` for the cluster gap).

Pointwise properties are also searched adversarially (`checks.adversarial`): `non-negative` of
any quantity, and `non-decreasing` of a quantity with a rate (attention_entropy -> entropy_rate,
energy -> energy_rate, one head's energy -> head_energy_rate), since Q is non-decreasing along
every trajectory of the family iff dQ/dt >= 0 at every state of it. Both readings of one
quantity are therefore decided by the same search. Floats give at most CONFIRMED
(`sampling.float_verdict`); a negative rate (energy_rate, head_energy_rate, entropy_rate) is
handed to the witness certifier: the state is rounded to exact data of the claim's family (the
file's beta and scalar strengths as the exact rationals written in the file, W_h = M_h, the
attention kind and geometry), family membership is checked exactly, and a ball-verified negative
value is a REFUTED witness with a certificate whose data is the start of a trajectory. That
rounded state is a configuration of the family only when the family's tokens are free (random or
rational tokens on the sphere) and its heads are scalar with the given strengths or random
symmetric/general; other violations stay INCONCLUSIVE.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from certificates.ball_model import ExactConfiguration
from certificates.model_quantities import CERTIFIED, MODEL_QUANTITIES
from certificates.witness import round_configuration
from checks import adversarial, families
from checks.claimsfile.embedding import embedded
from checks.claimsfile.evaluation import EvaluationError, ball
from checks.claimsfile.exact_dynamics import decide_exactly
from checks.claimsfile.numbers import stated
from checks.claimsfile.schema import DynamicsClaim
from checks.claimsfile.witness_family import (
    family_failures,
    family_hypotheses,
    searched_quantity,
)
from checks.config import Configuration
from checks.errors import InputError
from checks.family_names import HEAD_FAMILIES
from checks.fits import exponential_rate
from checks.integrator import IntegrationFailure, Trajectory, integrate
from checks.observables import EVALUATORS
from checks.registry import Context
from checks.sampling import configuration_record, float_verdict
from checks.theorems.clustering import late_exponent
from checks.verdicts import Outcome, Verdict
from checks.witnesses import Candidate, certify_first

SAMPLES = {"quick": 3, "thorough": 12}
HORIZON = {"sphere": 10.0, "flat": 1.0}
RECORDS = 201
#: Relative float tolerances: pointwise and monotone (integration error), limit, fitted rate.
POINTWISE_TOLERANCE = 1e-8
LIMIT_TOLERANCE = 1e-3
RATE_TOLERANCE = 0.05
DENOMINATOR = 2**12


@dataclass
class Sample:
    """One configuration, its trajectory's records of the quantity, and the worst record."""

    cfg: Configuration
    margin: float
    scale: float
    worst_state: Configuration
    worst_index: tuple[int, ...]
    states: list[Configuration]
    #: A run that left every bound: (end of the interval decided, time the integrator reached); None otherwise.
    blow_up: tuple[float, float] | None = None


def decide_dynamics(claim: DynamicsClaim, ctx: Context) -> Outcome:
    """PROVED or REFUTED on the exact equiangular reduction where the family is its regime
    (`exact_dynamics`); otherwise, or when that route does not decide, CONFIRMED (floats, after an
    adversarial search), REFUTED (certified witness of a negative rate) or INCONCLUSIVE."""
    exact = decide_exactly(claim, ctx)
    if exact is not None and exact.verdict is not Verdict.INCONCLUSIVE:
        return exact
    numeric = _decide_numerically(claim, ctx)
    if exact is None:
        return numeric
    notes = "; ".join(note for note in (exact.notes, numeric.notes) if note)
    return dataclasses.replace(numeric, notes=notes, details=numeric.details | {"exact_route": exact.details})


def _decide_numerically(claim: DynamicsClaim, ctx: Context) -> Outcome:
    """The float evidence: integrated trajectories of the family, then the adversarial search."""
    options = claim.options
    count = options.get("samples", SAMPLES[ctx.profile])
    try:
        target = _target(claim)
    except EvaluationError as exc:
        return Outcome(Verdict.INCONCLUSIVE, "ball evaluation", notes=f"the stated {claim.property} target: {exc}")
    method = f"{claim.property} of {claim.quantity} along {{}} integrated trajectories ({options['tokens']} tokens)"
    samples: list[Sample] = []
    for k in range(count):
        ctx.check_budget()
        cfg = configuration(options, ctx.rng(f"dynamics-{k}"))
        try:
            samples.append(_sample(claim, cfg, target))
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
    worst = min(samples, key=lambda s: s.margin / s.scale)
    tolerance = _tolerance(claim) * worst.scale
    candidate = {"configuration": configuration_record(worst.cfg), "index": list(worst.worst_index)}
    trajectories = float_verdict(method.format(len(samples)), len(samples), worst.margin, tolerance, candidate)
    searched = searched_quantity(claim)
    if searched is None:
        return _on_integrated_intervals(trajectories, samples)
    return _on_integrated_intervals(_decide_by_search(claim, ctx, searched, samples, trajectories), samples)


def _on_integrated_intervals(outcome: Outcome, samples: list[Sample]) -> Outcome:
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
    claim: DynamicsClaim, ctx: Context, searched: str, samples: list[Sample], trajectories: Outcome
) -> Outcome:
    """The adversarial search over the family's states (and the trajectories' records) for `searched` < 0."""
    options, head = claim.options, claim.options.get("head")
    objective = adversarial.rate_margin(searched, head) if searched in CERTIFIED else _value_margin(searched, head)
    family = adversarial.Family.of(lambda rng: configuration(options, rng), options["tokens"], options["heads"])
    result = adversarial.search(
        family, objective, adversarial.BUDGETS[ctx.profile], ctx.rng("adversarial"), ctx.check_budget
    )
    result.include([_worst_record(objective, sample.states) for sample in samples])
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
    if outcome.verdict is Verdict.CONFIRMED and trajectories.verdict is not Verdict.CONFIRMED:
        outcome = dataclasses.replace(
            trajectories, method=method, details=(trajectories.details or {}) | {"search": result.evidence()}
        )
    if outcome.verdict is Verdict.CONFIRMED or searched not in CERTIFIED:
        return outcome
    return _certify(claim, searched, result.candidates, ctx, outcome)


def _summary(outcome: Outcome) -> dict[str, Any]:
    return {"verdict": outcome.verdict.value, "cases": outcome.cases, "worst_margin": outcome.worst_margin}


def _worst_record(objective: adversarial.Objective, states: list[Configuration]) -> adversarial.Found:
    """The least margin over the recorded states of one trajectory."""
    margins = [(objective(state), state) for state in states]
    (margin, index), state = min(margins, key=lambda m: m[0][0])
    return adversarial.Found(margin, state, index)


def _value_margin(name: str, head: int | None) -> adversarial.Objective:
    """The least value of a quantity relative to 1 + its largest magnitude."""

    def margin(cfg: Configuration) -> tuple[float, tuple[int, ...]]:
        values = quantity(name, cfg, head)
        index = np.unravel_index(int(np.argmin(values)), values.shape) if values.ndim else ()
        return float(values[index]) / (1.0 + float(np.max(np.abs(values)))), tuple(int(i) for i in index)

    return margin


def configuration(options: dict[str, Any], rng: np.random.Generator) -> Configuration:
    """A configuration of the file's family (tokens, heads, W_h = M_h, attention, geometry)."""
    tokens = families.draw_tokens(options["tokens"], options["n"], options["d"], rng, options)
    heads = families.draw_heads(options["heads"], options["H"], options["d"], rng, options)
    return Configuration.create(
        tokens, heads, beta=options["beta"], attention=options["attention"], geometry=options["geometry"]
    )


def quantity(name: str, cfg: Configuration, head: int | None) -> np.ndarray:
    """The quantity at one state, as an array (per head and token where it has them; `energy` of one
    head is E_h)."""
    per_head = MODEL_QUANTITIES[name].per_head
    if per_head is not None and head is not None:
        return np.asarray(EVALUATORS[per_head](cfg)[head], dtype=float)
    value = np.asarray(EVALUATORS[name](cfg), dtype=float)
    return value[head] if head is not None and value.ndim >= 1 else value


def _target(claim: DynamicsClaim) -> float | None:
    if claim.target is None:
        return None
    return float(ball(claim.target, {}, 128).mid())


def _sample(claim: DynamicsClaim, cfg: Configuration, target: float | None) -> Sample:
    options = claim.options
    horizon = options.get("time", HORIZON[cfg.geometry])
    if claim.property == "decays-at-rate" and claim.quantity == "cluster_gap":
        rate, _, _, points = late_exponent(cfg)
        return Sample(cfg, -abs(rate - target) if points >= 3 else -np.inf, abs(target), cfg, (), [cfg])
    try:
        traj = integrate(cfg, horizon, record_times=np.linspace(0.0, horizon, RECORDS), observables=())
    except IntegrationFailure as failure:
        if claim.property not in ("non-negative", "non-decreasing"):
            raise
        traj = failure.partial
    states, values, blow_up = _records(claim, cfg, traj)
    scale = 1.0 + float(np.max(np.abs(values)))
    if claim.property == "non-negative":
        index = np.unravel_index(int(np.argmin(values)), values.shape)
        worst_state, worst_index = states[index[0]], tuple(int(i) for i in index[1:])
        return Sample(cfg, float(values[index]), scale, worst_state, worst_index, states, blow_up)
    if claim.property == "non-decreasing":
        steps = np.diff(values, axis=0)
        index = np.unravel_index(int(np.argmin(steps)), steps.shape)
        worst_state, worst_index = states[index[0]], tuple(int(i) for i in index[1:])
        return Sample(cfg, float(steps[index]), scale, worst_state, worst_index, states, blow_up)
    if claim.property == "tends-to":
        distance = np.abs(values[-1] - target)
        return Sample(cfg, -float(np.max(distance)), max(1.0, abs(target)), states[-1], (), states)
    half = len(values) // 2
    magnitude = np.abs(values[half:]).reshape(len(values) - half, -1)
    fitted = [-float(exponential_rate(traj.times[half:], column).coefficients[1]) for column in magnitude.T]
    return Sample(cfg, -max(abs(r - target) for r in fitted), abs(target), states[-1], (), states)


def _records(
    claim: DynamicsClaim, cfg: Configuration, traj: Trajectory
) -> tuple[list[Configuration], np.ndarray, tuple[float, float] | None]:
    """The recorded states and the quantity at each; a run that left every bound (`traj.status`) keeps the
    records up to the last finite value, with (that record's time, the time reached)."""
    blown = traj.status == "step size underflow"
    states, values = [cfg.moved_to(X) for X in traj.states], []
    for state in states:
        try:
            value = quantity(claim.quantity, state, claim.options.get("head"))
        except InputError:
            if not blown:
                raise
            break
        if not np.all(np.isfinite(value)):
            if not blown:
                raise InputError("quantity", claim.quantity, "not finite along the trajectory")
            break
        values.append(value)
    if blown and len(values) < 2:
        raise InputError("t", traj.t_end, f"the run left every bound before two finite records of {claim.quantity}")
    blow_up = (float(traj.times[len(values) - 1]), traj.t_end) if blown else None
    return states[: len(values)], np.array(values), blow_up


def _tolerance(claim: DynamicsClaim) -> float:
    return {"tends-to": LIMIT_TOLERANCE, "decays-at-rate": RATE_TOLERANCE}.get(claim.property, POINTWISE_TOLERANCE)


# ---------------------------------------------------------------- witnesses


def exact_state(options: dict[str, Any], state: Configuration) -> ExactConfiguration:
    """The state rounded to exact data of the family: rational unit tokens, W_h = M_h, and the file's
    beta (and scalar strengths) exactly as written."""
    symmetric = "symmetric-scores" in HEAD_FAMILIES[options["heads"]].hypotheses
    exact = round_configuration(
        state.tokens,
        state.score_matrices,
        state.score_matrices,
        state.beta,
        DENOMINATOR,
        symmetric,
        state.geometry,
        state.attention,
    )
    exact = dataclasses.replace(exact, beta=stated(options["beta"]))
    if options["heads"] == "scalar":
        d = state.d
        heads = [
            [[stated(lam) if i == j else Fraction(0) for j in range(d)] for i in range(d)] for lam in options["lambdas"]
        ]
        exact = dataclasses.replace(exact, score_matrices=heads, values=heads)
    return exact


def _candidate(options: dict[str, Any], searched: str, found: adversarial.Found) -> Candidate:
    """The search's state with the head and token of its negative rate (the file's head when it names one)."""
    head = None if searched == "energy_rate" else options.get("head", found.index[0] if found.index else None)
    token = found.index[-1] if searched == "entropy_rate" else None
    return Candidate(found.margin, found.cfg, head, token)


def _certify(
    claim: DynamicsClaim, searched: str, found: list[adversarial.Found], ctx: Context, floats: Outcome
) -> Outcome:
    """REFUTED when a state, rounded to exact data of the family, has a ball-verified negative rate; else `floats`."""
    hypotheses = family_hypotheses(claim.options)
    if hypotheses is None:
        return floats

    def rounding(candidate: Candidate) -> ExactConfiguration | None:
        exact = exact_state(claim.options, candidate.cfg)
        return None if family_failures(claim.options, exact) else exact

    candidates = [_candidate(claim.options, searched, f) for f in found]
    attempts = certify_first(ctx, claim.id, candidates, rounding, hypotheses, searched, claim=embedded(claim))
    if attempts.certified is None:
        return floats
    exact, result = attempts.certified.exact, attempts.certified.result
    witness = {
        "verified_by": "ball",
        "quantity": searched,
        "head": attempts.certified.candidate.head,
        "token": attempts.certified.candidate.token,
        "ball": result.values[0],
        "hypotheses": hypotheses,
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
