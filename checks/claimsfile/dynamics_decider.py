"""Deciding a dynamics claim: the quantity along integrated trajectories of the file's configuration family.

Each sample draws one configuration of the family (`checks.families`, seeded by the context),
integrates it (`checks.integrator.integrate`) and evaluates the quantity with `checks.model` at
every recorded state. The property gives a margin per sample (`non-negative`: the least value;
`non-decreasing`: the least increment between records; `tends-to`: minus the distance of the
final value to the limit; `decays-at-rate`: minus the relative error of the fitted exponential
rate, by `clustering_rate_claims.late_exponent` for the cluster gap); floats give at most
CONFIRMED (`sampling.float_verdict`). A pointwise violation (`non-negative`) of energy_rate,
head_energy_rate or entropy_rate is handed to the witness certifier: the state is rounded to
exact data that keep the claim's exact hypotheses, and a ball-verified negative value is a
REFUTED witness with a certificate. That rounded state is a configuration of the claim's family
only when the family is "any configuration" of its kind: random tokens on the sphere, random
(or exactly representable scalar) heads and a dyadic beta; other violations stay INCONCLUSIVE.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from certificates.store import certificate_directory
from certificates.witness import certify_configuration, round_configuration
from checks import families, model
from checks.claimsfile.evaluation import EvaluationError, ball
from checks.claimsfile.schema import DynamicsClaim
from checks.clustering_rate_claims import late_exponent
from checks.config import Configuration
from checks.errors import InputError
from checks.fits import exponential_rate
from checks.integrator import integrate
from checks.registry import Context
from checks.sampling import configuration_record, float_verdict
from checks.verdicts import Outcome, Verdict

SAMPLES = {"quick": 3, "thorough": 12}
HORIZON = {"sphere": 10.0, "flat": 1.0}
RECORDS = 201
#: Relative float tolerances: pointwise and monotone (integration error), limit, fitted rate.
POINTWISE_TOLERANCE = 1e-8
LIMIT_TOLERANCE = 1e-3
RATE_TOLERANCE = 0.05
#: Quantities whose sign at an exact configuration the ball model can certify.
CERTIFIABLE = ("energy_rate", "head_energy_rate", "entropy_rate")
DENOMINATOR = 2**12


@dataclass
class Sample:
    """One configuration, its trajectory's records of the quantity, and the worst record."""

    cfg: Configuration
    margin: float
    scale: float
    worst_state: Configuration
    worst_index: tuple[int, ...]


def decide_dynamics(claim: DynamicsClaim, ctx: Context) -> Outcome:
    """CONFIRMED (floats), REFUTED (certified witness of a negative rate) or INCONCLUSIVE."""
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
        except InputError as exc:  # overflow or blow-up of this trajectory
            return Outcome(Verdict.INCONCLUSIVE, method.format(k + 1), notes=f"trajectory {k} failed: {exc}")
    worst = min(samples, key=lambda s: s.margin / s.scale)
    tolerance = _tolerance(claim) * worst.scale
    candidate = {"configuration": configuration_record(worst.cfg), "index": list(worst.worst_index)}
    outcome = float_verdict(method.format(len(samples)), len(samples), worst.margin, tolerance, candidate)
    if outcome.verdict is Verdict.CONFIRMED or claim.property != "non-negative":
        return outcome
    refuted = _certify(claim, worst, ctx, outcome)
    return refuted if refuted is not None else outcome


def configuration(options: dict[str, Any], rng: np.random.Generator) -> Configuration:
    """A configuration of the file's family (tokens, heads, W_h = M_h, attention, geometry)."""
    n, d, H, scale = options["n"], options["d"], options["H"], options["scale"]
    tokens = {
        "random-sphere": lambda: families.random_sphere_tokens(n, d, rng),
        "orthogonal": lambda: families.orthogonal_tokens(n, d, rng),
        "equiangular": lambda: families.equiangular_tokens(n, d, options.get("rho", 0.0), rng),
        "rational-sphere": lambda: families.rational_to_float(families.rational_sphere_tokens(n, d, rng)),
    }[options["tokens"]]()
    heads = {
        "scalar": lambda: families.scalar_heads(options.get("lambdas", []), d),
        "random-symmetric": lambda: families.random_symmetric_heads(H, d, rng, scale),
        "random-general": lambda: families.random_general_heads(H, d, rng, scale),
        "orthogonal-subspace": lambda: families.orthogonal_subspace_heads(H, d, rng, scale),
        "approximately-orthogonal": lambda: families.approximately_orthogonal_heads(
            H, d, options.get("delta", 0.0), rng, scale
        ),
    }[options["heads"]]()
    return Configuration.create(
        tokens, heads, beta=options["beta"], attention=options["attention"], geometry=options["geometry"]
    )


def quantity(name: str, cfg: Configuration, head: int | None) -> np.ndarray:
    """The quantity at one state, as an array (per head and token where it has them)."""
    value = np.asarray(
        {
            "energy": model.energy,
            "energy_rate": model.energy_rate,
            "head_energy_rate": model.head_energy_rates,
            "radial_shadow": model.radial_shadows,
            "tangential_power": model.tangential_powers,
            "attention_entropy": model.attention_entropies,
            "entropy_rate": model.entropy_rates,
            "cluster_gap": model.cluster_gap,
        }[name](cfg),
        dtype=float,
    )
    return value[head] if head is not None and value.ndim >= 1 else value


def _target(claim: DynamicsClaim) -> float | None:
    if claim.target is None:
        return None
    return float(ball(claim.target, {}, 128).mid())


def _sample(claim: DynamicsClaim, cfg: Configuration, target: float | None) -> Sample:
    options, head = claim.options, claim.options.get("head")
    horizon = options.get("time", HORIZON[cfg.geometry])
    if claim.property == "decays-at-rate" and claim.quantity == "cluster_gap":
        rate, _, _, points = late_exponent(cfg)
        return Sample(cfg, -abs(rate - target) if points >= 3 else -np.inf, abs(target), cfg, ())
    traj = integrate(cfg, horizon, record_times=np.linspace(0.0, horizon, RECORDS), observables=())
    states = [cfg.moved_to(X) for X in traj.states]
    values = np.array([quantity(claim.quantity, state, head) for state in states])
    scale = 1.0 + float(np.nanmax(np.abs(values)))
    if not np.all(np.isfinite(values)):
        raise InputError("quantity", claim.quantity, "not finite along the trajectory")
    if claim.property == "non-negative":
        index = np.unravel_index(int(np.argmin(values)), values.shape)
        return Sample(cfg, float(values[index]), scale, states[index[0]], tuple(int(i) for i in index[1:]))
    if claim.property == "non-decreasing":
        steps = np.diff(values, axis=0)
        index = np.unravel_index(int(np.argmin(steps)), steps.shape)
        return Sample(cfg, float(steps[index]), scale, states[index[0]], tuple(int(i) for i in index[1:]))
    if claim.property == "tends-to":
        distance = np.abs(values[-1] - target)
        return Sample(cfg, -float(np.max(distance)), max(1.0, abs(target)), states[-1], ())
    half = len(values) // 2
    magnitude = np.abs(values[half:]).reshape(len(values) - half, -1)
    fitted = [-float(exponential_rate(traj.times[half:], column).coefficients[1]) for column in magnitude.T]
    return Sample(cfg, -max(abs(r - target) for r in fitted), abs(target), states[-1], ())


def _tolerance(claim: DynamicsClaim) -> float:
    return {"tends-to": LIMIT_TOLERANCE, "decays-at-rate": RATE_TOLERANCE}.get(claim.property, POINTWISE_TOLERANCE)


def _hypotheses(options: dict[str, Any]) -> list[str] | None:
    """The exact hypotheses the claim's family implies, or None when a rounded state leaves the family."""
    if options["tokens"] not in ("random-sphere", "rational-sphere") or options["attention"] == "relu":
        return None
    if options["heads"] not in ("scalar", "random-symmetric", "random-general"):
        return None
    if Fraction(options["beta"]) != Fraction(round(options["beta"] * DENOMINATOR), DENOMINATOR):
        return None
    if options["heads"] == "scalar" and any(Fraction(v) * DENOMINATOR % 1 for v in options["lambdas"]):
        return None
    names = ["aligned-values"]
    if options["geometry"] == "sphere":
        names += ["unit-tokens", "spherical-geometry"]
    if options["attention"] == "softmax":
        names.append("softmax-attention")
    if options["heads"] != "random-general":
        names.append("symmetric-scores")
    if options["heads"] == "scalar":
        names.append("scalar-heads")
    return names


def _certify(claim: DynamicsClaim, worst: Sample, ctx: Context, floats: Outcome) -> Outcome | None:
    """REFUTED when the worst state, rounded to exact data of the family, has a ball-verified negative value."""
    hypotheses = _hypotheses(claim.options)
    if claim.quantity not in CERTIFIABLE or hypotheses is None:
        return None
    state = worst.worst_state
    symmetric = claim.options["heads"] != "random-general"
    exact = round_configuration(
        state.tokens, state.scores, state.scores, state.beta, DENOMINATOR, symmetric, state.geometry, state.attention
    )
    head = claim.options.get("head", worst.worst_index[0] if worst.worst_index else None)
    token = worst.worst_index[-1] if claim.quantity == "entropy_rate" else None
    if claim.quantity == "energy_rate":
        head = None
    result = certify_configuration(
        claim.id,
        claim.statement,
        exact,
        hypotheses,
        claim.quantity,
        head,
        "<",
        certificate_directory(ctx.certificate_dir),
        token=token,
    )
    if not result.verified:
        return None
    witness = {
        "verified_by": "ball",
        "quantity": claim.quantity,
        "head": head,
        "token": token,
        "ball": result.values[0],
        "hypotheses": hypotheses,
        "certificate": str(result.path),
    }
    method = floats.method + "; the worst state rounded to exact data, the sign verified with balls"
    return Outcome(
        Verdict.REFUTED,
        method,
        cases=floats.cases,
        worst_margin=floats.worst_margin,
        tolerance=floats.tolerance,
        witness=witness,
        certificates=[str(result.path)],
    )
