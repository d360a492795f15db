"""One start of a dynamics claim: the family's configuration, its trajectory, and whether the property held.

A start *holds*, *fails* or stays *undecided*, with the measurement next to the claim:

- `non-negative` / `non-decreasing`: the least value (least increment between records) of the
  quantity along the integrated trajectory; it fails below -POINTWISE_TOLERANCE (relative).
- `tends-to`: the limit is judged only once the motion has stopped (`headflow.checks.evidence.limits.settle`, which
  extends the horizon within its budget); the start holds when the claimed limit lies within the
  error of the value at the end, fails when it does not, and is undecided ("still moving at t = ...")
  when the motion did not stop.
- `at-most` / `at-least`: the quantity against the claimed bound at every record of [0, time]; the
  clustering time (a number per trajectory) is the time of the integrator's event cluster_gap <= level, and the
  run stops just past the bound (TIME_TOLERANCE), since whether the gap reached the level by then decides it.
- `decays-at-rate`: the fitted rate with its error (`headflow.checks.evidence.fits.decay_rate`: residuals, the drift
  between the window's halves, integrator tolerances); cluster_gap through the late window of
  `headflow.checks.evidence.clustering_rates.late_exponent`, other quantities over the second half of the records.
  It holds when the claimed rate lies within that error. A window that is not yet asymptotic (the
  fitted rate drifts between the window's halves by more than MAX_DRIFT of itself) is no measurement
  of the rate as t -> oo: its error band is one-sided in truth (tangential_power, softmax, equiangular
  tokens, time = 3 fits 1.83 +- 0.25 while the rate is 2, and 1.6 lay within that band), so the
  horizon doubles as for limits and a run still drifting after that is undecided.
- `grows-like` (an order in beta): the quantity at each beta of `beta_orders.grid` from this start (a first time by
  the integrator's event within `time`, a state quantity at t = `time`), the exponent of Q/g in beta fitted with its
  error (`beta_orders.exponent`) and judged for the claim's relation (`beta_orders.judge`).
- `decays-like`: log |q(t)| = a + b log like(t) fitted over the second half of the records (`rate_shapes.exponent`,
  with its error); it holds when b = 1 lies within that error, and the horizon doubles while b drifts between the
  window's halves by more than `rate_shapes.MAX_DRIFT`.

Floats only: a failing start is a float candidate, never a refutation by itself.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.errors import InputError
from headflow.certificates.model_quantities import MODEL_QUANTITIES
from headflow.certificates.quantity_uses import FIRST_TIME_OF, PARAMETER, RESCALED
from headflow.certificates.statements.trajectory import HORIZON
from headflow.checks.claimsfile import beta_orders, rate_shapes
from headflow.checks.evidence.clustering_rates import late_exponent
from headflow.checks.evidence.fits import Estimate, decay_rate
from headflow.checks.evidence.limits import Limit, settle, settle_all
from headflow.checks.integrator import IntegrationFailure, Trajectory, integrate
from headflow.checks.integrator.events import Event
from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration
from headflow.checks.model.observables import EVALUATORS
from headflow.checks.model.rescaled import rescaled_speed

RECORDS = 201
#: Relative float tolerance of pointwise and monotone properties (integration error).
POINTWISE_TOLERANCE = 1e-8
#: The integrator steps of one pointwise start: a run that needs more is undecided (counts, not seconds).
POINTWISE_STEPS = 50_000
#: How many times a limit's horizon may double while the run is still moving, per profile.
EXTENSIONS = {"quick": 3, "thorough": 6}
#: Integrator tolerances of the records a generic rate is fitted on; the least number of points fitted.
RATE_RTOL, RATE_ATOL = 1e-10, 1e-13
RATE_POINTS = 8
#: Values below this fraction of the quantity's largest are rounding noise, not part of a decay.
RATE_FLOOR = 1e-11
#: The largest drift of a fitted rate between its window's halves (relative to the rate) that counts as asymptotic.
MAX_DRIFT = 1e-3
#: Relative tolerance of a first time (the event's location on the dense output and the integration error).
TIME_TOLERANCE = 1e-6
#: How the pointwise properties read the records: the value whose least entry must be >= 0.
POINTWISE = {
    "non-negative": lambda values, bound: values,
    "non-decreasing": lambda values, bound: np.diff(values, axis=0),
    "at-most": lambda values, bound: bound - values,
    "at-least": lambda values, bound: values - bound,
}


@dataclass
class Start:
    """One start: its configuration, status ("holds", "fails", "undecided"), margin (relative; < 0 when
    the property failed), the worst recorded state and index, and what was measured."""

    cfg: Configuration
    status: str
    margin: float
    worst_state: Configuration
    worst_index: tuple[int, ...] = ()
    states: list[Configuration] = field(default_factory=list)
    measured: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    #: A run that left every bound: (end of the interval decided, time the integrator reached); None otherwise.
    blow_up: tuple[float, float] | None = None


def configuration(options: dict[str, Any], rng: np.random.Generator) -> Configuration:
    """A configuration of the file's family (tokens, heads, W_h = M_h, I, random SPD or given, attention, geometry,
    mask)."""
    tokens = families.draw_tokens(options["tokens"], options["n"], options["d"], rng, options)
    heads = families.draw_heads(options["heads"], options["H"], options["d"], rng, options)
    kind = options.get("values", "aligned")
    values = None if kind == "aligned" else families.value_matrices(kind, options["H"], options["d"], rng, options)
    return Configuration.create(
        tokens,
        heads,
        values,
        beta=options["beta"],
        attention=options["attention"],
        geometry=options["geometry"],
        mask=options.get("mask"),
        interaction=options.get("interaction"),
    )


def check_sizes(claim: DynamicsClaim) -> None:
    """InputError, naming the claim and its line, when its n, d and H exceed what `configuration` can draw
    (`headflow.checks.model.families.check_sizes`); sizes that are quantified symbols are bounded by their domains."""
    sizes = {key: claim.options[key] for key in ("n", "d", "H") if isinstance(claim.options.get(key), int)}
    try:
        families.check_sizes(**sizes)
    except InputError as exc:
        where = f"claim {claim.id!r}" + (f" (line {claim.line})" if claim.line is not None else "")
        raise InputError(f"{where}: {exc.field}", exc.value, exc.reason) from None


def quantity(
    name: str, cfg: Configuration, head: int | None, parameter: float | None = None, time: float | None = None
) -> np.ndarray:
    """The quantity at one state, as an array (per head and token where it has them; `energy` of one
    head is E_h); `parameter` is the value of the quantity's parameter (cluster_count's radius, merge_radius's k);
    `time` the state's time on its trajectory, which a quantity of the rescaled tokens needs (`RESCALED`) and the
    others ignore."""
    per_head = MODEL_QUANTITIES[name].per_head
    if per_head is not None and head is not None:
        return np.asarray(EVALUATORS[per_head](cfg)[head], dtype=float)
    evaluator = EVALUATORS[name]
    arguments = () if parameter is None else (parameter,)
    if name in RESCALED:
        if time is None:
            raise InputError("time", None, f"{name} is a quantity of a state and its time t: a record without t")
        value = np.asarray(evaluator(cfg, *arguments, time=time), dtype=float)
    else:
        value = np.asarray(evaluator(cfg, *arguments), dtype=float)
    return value[head] if head is not None and value.ndim >= 1 else value


def parameter(claim: DynamicsClaim) -> float | None:
    """The value of the claim's quantity's parameter (its merge radius or level), None when it has none."""
    name = PARAMETER.get(claim.quantity)
    return None if name is None else claim.options[name]


#: Whether the starts of a `tends-to` claim are settled together (`limits.settle_all`, `checks.integrator.batch`):
#: each start's run is its own, only numpy's per-call cost is shared; False settles them one at a time.
BATCHED_STARTS = True


def settled_limits(
    claim: DynamicsClaim, cfgs: list[Configuration], profile: str
) -> list[Limit | IntegrationFailure] | None:
    """The limits of a `tends-to` claim's starts settled together (`settle_all`), for `run_start`'s `limit`; None
    for other properties or with BATCHED_STARTS off (each start then settles alone in `run_start`)."""
    if not BATCHED_STARTS or claim.property != "tends-to" or len(cfgs) < 2:
        return None
    options, value = claim.options, parameter(claim)
    return settle_all(
        cfgs,
        lambda s, t=None: quantity(claim.quantity, s, options.get("head"), value, t),
        options.get("time", HORIZON[cfgs[0].geometry]),
        EXTENSIONS[profile],
        timed=rescaled_speed if claim.quantity in RESCALED else None,
    )


def run_start(
    claim: DynamicsClaim, cfg: Configuration, target: float | None, profile: str, settled: Limit | None = None
) -> Start:
    """Integrate one start and judge the claim's property on it (IntegrationFailure of a limit or rate
    run propagates: a property as t -> oo needs the whole half-line). `settled`: a `tends-to` start's limit when
    `settled_limits` settled it with the others."""
    options = claim.options
    horizon = options.get("time", HORIZON[cfg.geometry])
    if claim.property == beta_orders.PROPERTY:
        return _order_start(claim, cfg, horizon, profile)
    if claim.quantity in FIRST_TIME_OF:
        assert target is not None
        return _first_time_start(claim, cfg, target)
    if claim.quantity == "closest_pair_merges_first":
        assert target is not None
        return _closest_pair_start(claim, cfg, target, horizon)
    if claim.property == "tends-to":
        assert target is not None
        value = parameter(claim)
        limit = settled or settle(
            cfg,
            lambda s, t=None: quantity(claim.quantity, s, options.get("head"), value, t),
            horizon,
            EXTENSIONS[profile],
            timed=rescaled_speed if claim.quantity in RESCALED else None,
        )
        measured = limit.record(target)
        scale = max(1.0, abs(target))
        margin = -float(np.max(limit.distance(target) - limit.error)) / scale
        if not limit.settled:
            return Start(cfg, "undecided", margin, limit.final, measured=measured, reason=limit.reason)
        return Start(cfg, "holds" if limit.contains(target) else "fails", margin, limit.final, measured=measured)
    if claim.property == "decays-at-rate":
        assert target is not None
        return _rate_start(claim, cfg, target, horizon, EXTENSIONS[profile])
    if claim.property == rate_shapes.PROPERTY:
        return _like_start(claim, cfg, horizon, EXTENSIONS[profile])
    try:
        traj = integrate(
            cfg,
            horizon,
            record_times=np.linspace(0.0, horizon, RECORDS),
            observables=(),
            max_steps=POINTWISE_STEPS,
            backend="numpy",
        )
    except IntegrationFailure as failure:
        traj = failure.partial
    if traj.status == "max_steps":  # a stiff run (usa at a large beta): bounded by steps, not by seconds
        reason = f"{POINTWISE_STEPS} integrator steps reached only t = {traj.t_end:.6g} of {horizon:.6g}"
        return Start(cfg, "undecided", -np.inf, cfg, reason=reason)
    states, values, blow_up = _records(claim, cfg, traj)
    scale = 1.0 + max(float(np.max(np.abs(values))), abs(target or 0.0))
    steps = POINTWISE[claim.property](values, target)
    index = np.unravel_index(int(np.argmin(steps)), steps.shape)
    margin = float(steps[index]) / scale
    status = "holds" if margin >= -POINTWISE_TOLERANCE else "fails"
    worst_state, worst_index = states[index[0]], tuple(int(i) for i in index[1:])
    measured = {"least": float(steps[index]), "scale": scale}
    return Start(cfg, status, margin, worst_state, worst_index, states, measured, blow_up=blow_up)


def first_time(claim: DynamicsClaim, cfg: Configuration, until: float) -> tuple[float | None, str]:
    """(the first time the quantity the claim's first time times falls to its level, found by the integrator's event
    on [0, until], or None when it does not by then; "" or why the run did not decide: integrator steps)."""
    timed, level = FIRST_TIME_OF.get(claim.quantity), claim.options[PARAMETER[claim.quantity]]
    assert timed is not None
    event = _falls_to(timed, claim.options.get(PARAMETER.get(timed, "")), level)
    if event.function(cfg) <= 0:
        return 0.0, ""
    traj = integrate(
        cfg, until, events=(event,), observables=(), keep_states=False, max_steps=POINTWISE_STEPS, backend="numpy"
    )
    if traj.status == "max_steps":
        return None, f"{POINTWISE_STEPS} integrator steps reached only t = {traj.t_end:.6g} of {until:.6g}"
    return (traj.t_end if traj.status == f"event:{event.name}" else None), ""


def _first_time_start(claim: DynamicsClaim, cfg: Configuration, bound: float) -> Start:
    """The first time the quantity it times falls to the level (the integrator's event), against the bound; the run
    stops just past max(bound, 0), where reaching the level or not settles both at-most and at-least."""
    level = claim.options[PARAMETER[claim.quantity]]
    scale, at_most = max(1.0, abs(bound)), claim.property == "at-most"
    reached, reason = first_time(claim, cfg, max(bound, 0.0) * (1 + 2 * TIME_TOLERANCE) + TIME_TOLERANCE)
    if reason:
        return Start(cfg, "undecided", -np.inf, cfg, reason=reason)
    measured: dict[str, Any] = {"first_time": reached, "claimed": bound, "level": level}
    if reached is None:  # the level was not reached by just past the bound: the time exceeds it
        measured["not_reached_by"] = max(bound, 0.0)
        margin = -np.inf if at_most else TIME_TOLERANCE
    else:
        margin = ((bound - reached) if at_most else (reached - bound)) / scale
    status = "holds" if margin >= -TIME_TOLERANCE else "fails"
    return Start(cfg, status, margin, cfg, measured=measured)


def _falls_to(timed: str, own: float | None, level: float) -> Event:
    """The integrator's event `timed` (with its own parameter `own`: merge_radius's k) <= level."""
    name = timed if own is None else f"{timed}[{own:g}]"
    return Event(f"{name}<={level:g}", lambda state: float(quantity(timed, state, None, own)) - level)


#: Relative tolerance within which two squared distances count as tied for the closest pair (float rounding).
TIE_TOLERANCE = 1e-9


def _closest_pair_start(claim: DynamicsClaim, cfg: Configuration, bound: float, horizon: float) -> Start:
    """closest_pair_merges_first: integrate to the first time some pair of tokens is within `radius` (the event
    merge_radius[1] <= radius, i.e. merge_time with k = 1) and read 1 when a pair closest there is a pair closest at
    t = 0 (pairs within TIE_TOLERANCE of the least squared distance count as closest), else 0; against the bound.
    Undecided when no pair comes within the radius by the horizon (`time`)."""
    radius = claim.options["radius"]
    start = model.directions(cfg)
    first_pairs = model.closest_pairs(model.squared_distances(start), TIE_TOLERANCE)
    event = _falls_to("merge_radius", 1, radius)
    if event.function(cfg) <= 0:
        state, reached = cfg, 0.0
    else:
        traj = integrate(
            cfg, horizon, events=(event,), observables=(), keep_states=False, max_steps=POINTWISE_STEPS, backend="numpy"
        )
        if traj.status != f"event:{event.name}":
            why = "integrator steps" if traj.status == "max_steps" else "the horizon"
            reason = f"no pair came within radius {radius:g} by t = {traj.t_end:.6g} ({why}; set `time`)"
            return Start(cfg, "undecided", -np.inf, cfg, reason=reason)
        state, reached = traj.final, traj.t_end
    merged = model.closest_pairs(model.squared_distances(model.directions(state)), TIE_TOLERANCE)
    value = 1.0 if merged & first_pairs else 0.0
    at_most = claim.property == "at-most"
    margin = (bound - value) if at_most else (value - bound)
    measured = {"value": value, "first_merge_time": reached, "claimed": bound, "pairs": sorted(merged)}
    return Start(cfg, "holds" if margin >= 0 else "fails", margin / max(1.0, abs(bound)), state, measured=measured)


def _order_start(claim: DynamicsClaim, cfg: Configuration, horizon: float, profile: str) -> Start:
    """An order in beta from this start: the quantity at each beta of the grid (the start's tokens and heads, beta
    changed), the exponent of Q/g in beta fitted with its error, judged for the claim's relation."""
    betas = beta_orders.grid(claim.options["beta"], profile)
    values = []
    for beta in betas:
        state = dataclasses.replace(cfg, beta=beta)
        if claim.quantity in FIRST_TIME_OF:
            value, reason = first_time(claim, state, horizon)
            if value is None:
                reason = reason or f"{claim.quantity} did not come by t = {horizon:.6g} (set `time`)"
                return Start(cfg, "undecided", -np.inf, cfg, reason=f"at beta = {beta:.6g}: {reason}")
        elif horizon == 0:  # read at t = 0: the start itself (with this beta)
            value = float(quantity(claim.quantity, state, None, parameter(claim)))
        else:
            traj = integrate(
                state, horizon, observables=(), keep_states=False, max_steps=POINTWISE_STEPS, backend="numpy"
            )
            if traj.status == "max_steps":
                reason = f"{POINTWISE_STEPS} integrator steps reached only t = {traj.t_end:.6g} of {horizon:.6g}"
                return Start(cfg, "undecided", -np.inf, cfg, reason=f"at beta = {beta:.6g}: {reason}")
            value = float(quantity(claim.quantity, traj.final, None, parameter(claim)))
        values.append(value)
    estimate, reason = beta_orders.exponent(claim, betas, values)
    measured: dict[str, Any] = {"betas": betas, "values": values}
    if estimate is None:
        return Start(cfg, "undecided", -np.inf, cfg, measured=measured, reason=reason)
    status, reason = beta_orders.judge(claim.options["order"], estimate)
    margin = estimate.error - abs(estimate.value)
    return Start(cfg, status, margin, cfg, measured=measured | estimate.record(0.0), reason=reason)


def _rate_start(claim: DynamicsClaim, cfg: Configuration, target: float, horizon: float, extensions: int) -> Start:
    """The fitted decay rate (every entry of the quantity) against the claimed one; a generic quantity's
    window is extended (the horizon doubles, at most `extensions` times) while its rate still drifts."""
    if claim.quantity == "cluster_gap":
        fitted = late_exponent(cfg)
        estimates = [] if fitted is None else [fitted[0]]
        reason = "the cluster gap did not fall through the late window by the late horizon"
    else:
        for _ in range(extensions + 1):
            grid = np.linspace(0.0, horizon, RECORDS)
            traj = integrate(
                cfg, horizon, rtol=RATE_RTOL, atol=RATE_ATOL, record_times=grid, observables=(), backend="numpy"
            )
            _, values, _ = _records(claim, cfg, traj)
            estimates = _column_rates(traj.times, np.abs(values))
            reason = f"fewer than {RATE_POINTS} records of |{claim.quantity}| above rounding in the second half"
            drifting = [e for e in estimates if e.parts["window_drift"] > MAX_DRIFT * abs(e.value)]
            if not drifting:
                break
            reason = (
                f"the decay is not yet exponential at t = {horizon:.6g}: the fitted rate {drifting[0].value:.6g}"
                f" drifts by {drifting[0].parts['window_drift']:.3g} between the window's halves"
                f" (> {MAX_DRIFT:g} of it)"
            )
            horizon *= 2.0
        else:
            estimates = []
    if not estimates:
        return Start(cfg, "undecided", -np.inf, cfg, reason=reason)
    worst = max(estimates, key=lambda e: abs(e.value - target) - e.error)
    margin = -max(abs(e.value - target) - e.error for e in estimates) / max(1.0, abs(target))
    status = "holds" if all(e.contains(target) for e in estimates) else "fails"
    return Start(cfg, status, margin, cfg, measured=worst.record(target))


def _like_start(claim: DynamicsClaim, cfg: Configuration, horizon: float, extensions: int) -> Start:
    """The fitted exponent b of |q| ~ C like^b (every entry of the quantity) against b = 1; the horizon doubles (at
    most `extensions` times) while b still drifts between the window's halves."""
    estimates: list[Estimate] = []
    for _ in range(extensions + 1):
        grid = np.linspace(0.0, horizon, RECORDS)
        traj = integrate(
            cfg, horizon, rtol=RATE_RTOL, atol=RATE_ATOL, record_times=grid, observables=(), backend="numpy"
        )
        _, values, _ = _records(claim, cfg, traj)
        half = len(traj.times) // 2
        times = traj.times[half : len(values)]
        shape = rate_shapes.like_values(claim, times)
        if shape is None or not np.all(shape > 0):
            reason = (
                f"the stated shape {claim.target} is not positive and finite at every record of "
                f"[{times[0]:.6g}, {horizon:.6g}]"
            )
            return Start(cfg, "undecided", -np.inf, cfg, reason=reason)
        magnitude = np.abs(values[half:]).reshape(len(times), -1)
        kept = np.all(magnitude > RATE_FLOOR * float(np.max(np.abs(values))), axis=1)
        if np.count_nonzero(kept) < RATE_POINTS:
            reason = f"fewer than {RATE_POINTS} records of |{claim.quantity}| above rounding in the second half"
            return Start(cfg, "undecided", -np.inf, cfg, reason=reason)
        estimates = [
            rate_shapes.exponent(times[kept], column[kept], shape[kept], RATE_RTOL, RATE_ATOL) for column in magnitude.T
        ]
        drifting = [e for e in estimates if e.parts["window_drift"] > rate_shapes.MAX_DRIFT * max(abs(e.value), 1.0)]
        if not drifting:
            break
        reason = (
            f"the fitted exponent {drifting[0].value:.6g} of {claim.target} still drifts by "
            f"{drifting[0].parts['window_drift']:.3g} between the window's halves at t = {horizon:.6g}"
        )
        horizon *= 2.0
    else:
        return Start(cfg, "undecided", -np.inf, cfg, reason=reason)
    worst = max(estimates, key=lambda e: abs(e.value - 1.0) - e.error)
    margin = -max(abs(e.value - 1.0) - e.error for e in estimates)
    status = "holds" if all(e.contains(1.0) for e in estimates) else "fails"
    return Start(cfg, status, margin, cfg, measured=worst.record(1.0))


def _column_rates(times: np.ndarray, magnitude: np.ndarray) -> list[Estimate]:
    """The decay rate of each entry over the second half of the records, above the rounding floor; empty
    when some entry has too few such points."""
    half = len(times) // 2
    t, columns = times[half:], magnitude[half:].reshape(len(times) - half, -1)
    estimates = []
    for column in columns.T:
        kept = column > RATE_FLOOR * float(np.max(magnitude))
        if np.count_nonzero(kept) < RATE_POINTS:
            return []
        estimates.append(decay_rate(t[kept], column[kept], RATE_RTOL, RATE_ATOL))
    return estimates


def _records(
    claim: DynamicsClaim, cfg: Configuration, traj: Trajectory
) -> tuple[list[Configuration], np.ndarray, tuple[float, float] | None]:
    """The recorded states and the quantity at each; a run that left every bound (`traj.status`) keeps the
    records up to the last finite value, with (that record's time, the time reached)."""
    blown = traj.status == "step size underflow"
    states, values = [cfg.moved_to(X) for X in traj.states], []
    for state, time in zip(states, traj.times, strict=True):
        try:
            value = quantity(claim.quantity, state, claim.options.get("head"), parameter(claim), float(time))
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
