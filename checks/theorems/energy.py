"""Energy monotonicity: Theorems 11, 12, 16, 17 and 39 and Condition 8 (statements, readings, procedures).

Claimed, for usa attention: with symmetric, aligned heads (W_h = M_h) the energy E is non-decreasing,
dE/dt = (1/n) sum_i |xdot_i|^2, on the sphere and in flat space (T11), and dropping either hypothesis
allows dE/dt < 0 (T11.hypotheses). With orthogonal heads (M_h M_h' = 0), in flat space each head
energy is non-decreasing, dE_h/dt = (1/n^3) sum_i |f^h_i|^2 (T16); on the sphere dE_h/dt =
(1/n^3) sum_i (T^h_i - sum_{h' != h} a^h_i a^h'_i) (T17), which can be negative
(T17.shadow-obstruction) and is not when the radial terms dominate (Condition 8). When W_h = M_h +
Delta_h (T12) or max_{h != h'} |M_h' M_h|_op = delta (T39), the rates keep stated lower bounds.

How each is decided:
- symbolic (T11, T16, T17, Condition 8): the identities are proved in `identities.energy`, which is
  what makes them PROVED; the numeric procedures only cross-check the proved formulas against the
  numpy model (`checks.model.field`) at random configurations, to catch a proof of the wrong statement.
- numeric (T11): the model's chain-rule dE/dt against (1/n) sum |xdot_i|^2 and a fourth-order finite
  difference of E along the flow.
- trajectory (T11, T16): integrated runs; at every recorded state the rate identity holds, E (or
  each E_h) never decreases by more than the integration error, and E(T) - E(0) matches the Simpson
  quadrature of (1/n) sum |xdot_i|^2.
- witness (T11.hypotheses, T17.shadow-obstruction): these say that dropping a hypothesis allows a
  negative rate. An adversarial float search over the named head family proposes candidates; the
  most negative are rounded to exact data and the rate is settled with the ball model
  (`certificates.provers.witness`): only a ball-verified negative rate makes the claim CERTIFIED.
- numeric (T12, T39): the bounds follow from dE/dt = (1/n) sum_i (|xdot_i|^2 - <P⊥ delta_i, xdot_i>)
  with delta_i = (1/n) sum_h sum_j exp(beta s^h_ij) Delta_h x_j and |delta_i| <= (1/n) sum_h
  |Delta_h|_op S^h_i (T12), and from dE_h/dt = (1/n^3) sum_i (T^h_i + sum_{h' != h}(<f^h_i, f^h'_i>
  - a^h_i a^h'_i)) with |<f^h_i, f^h'_i>| <= delta S^h_i S^h'_i (T39); both are compared with the
  model's exact chain-rule rates at random configurations, so they are at most CONFIRMED.
  `delta_factor` scales the correction term so that tests can state a deliberately wrong bound.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import sympy as sp
from scipy.integrate import simpson

from certificates.kernel.ball_model import ExactConfiguration
from certificates.kernel.obligations import CONFIGURATIONS
from certificates.provers.witness import round_configuration
from checks.evidence import adversarial
from checks.evidence.cases import Worst, cases
from checks.evidence.sampling import float_verdict, random_configuration, relative_discrepancy
from checks.evidence.witnesses import Candidate, certify_first
from checks.integrator import Event, Trajectory, integrate, tableau_for
from checks.model import families
from checks.model import field as model
from checks.model.configuration import Configuration
from checks.registry import REGISTRY, Context
from checks.verdicts import Outcome, Verdict, derived
from identities import energy

_STATEMENTS: tuple[tuple[str, str, str], ...] = (
    (
        "T11.energy-rate.spherical",
        "Theorem 11: total energy rate on the sphere",
        "usa attention, M_h = M_h^T and W_h = M_h for every head, spherical dynamics: for all "
        "n >= 2, d, H >= 1, beta > 0 and all tokens on S^{d-1}, dE/dt = (1/n) sum_i |xdot_i|^2 >= 0.",
    ),
    (
        "T11.energy-rate.flat",
        "Theorem 11: total energy rate in flat space",
        "usa attention, M_h = M_h^T and W_h = M_h for every head, flat dynamics xdot_i = v_i: for all "
        "n >= 2, d, H >= 1, beta > 0 and all tokens in R^d, dE/dt = (1/n) sum_i |xdot_i|^2 >= 0.",
    ),
    (
        "T11.hypotheses",
        "Theorem 11 without its hypotheses",
        "Dropping score symmetry (M_h != M_h^T) or value alignment (W_h != M_h) breaks the identity "
        "dE/dt = (1/n) sum_i |xdot_i|^2, and there are configurations with dE/dt < 0.",
    ),
    (
        "T12.value-misalignment",
        "Theorem 12: robustness to value misalignment",
        "usa attention, M_h symmetric, W_h = M_h + Delta_h, spherical dynamics: "
        "dE/dt >= (1/n) sum_i |xdot_i| (|xdot_i| - |delta_i|) with "
        "|delta_i| <= (1/n) sum_h |Delta_h|_op sum_j exp(beta s^h_ij); in particular dE/dt >= 0 "
        "whenever |xdot_i| >= that bound for every token.",
    ),
    (
        "T16.flat-orthogonal",
        "Theorem 16: per-head monotonicity in flat space",
        "usa attention, symmetric heads with M_h M_h' = 0 (h != h'), W_h = M_h, flat dynamics: "
        "dE_h/dt = (1/n^3) sum_i |f^h_i|^2 >= 0 for every head h.",
    ),
    (
        "T17.shadow-decomposition",
        "Theorem 17: the radial-shadow decomposition",
        "usa attention, symmetric heads with M_h M_h' = 0 (h != h'), W_h = M_h, spherical dynamics: "
        "dE_h/dt = (1/n^3) sum_i (T^h_i - sum_{h' != h} a^h_i a^h'_i) for every head h.",
    ),
    (
        "T17.shadow-obstruction",
        "Theorem 17: the radial-shadow obstruction",
        "There exist n, d, H, beta, tokens on S^{d-1} and symmetric heads with M_h M_h' = 0 exactly "
        "and W_h = M_h (usa, spherical dynamics) such that dE_h/dt < 0 for some head h.",
    ),
    (
        "C8.radial-dominance",
        "Condition 8: radial dominance implies per-head monotonicity",
        "Under the hypotheses of T17.shadow-decomposition, if sum_{h' != h} a^h_i a^h'_i <= T^h_i "
        "for every token i (Condition 8, per-token form) then dE_h/dt >= 0.",
    ),
    (
        "T39.approximate-orthogonality",
        "Theorem 39: approximate orthogonality",
        "usa, symmetric heads, W_h = M_h, spherical dynamics, delta = max_{h != h'} |M_h' M_h|_op: "
        "dE_h/dt >= (1/n^3) sum_i (T^h_i - sum_{h' != h} a^h_i a^h'_i - delta sum_{h' != h} S^h_i S^h'_i) "
        "with S^h_i = sum_j exp(beta s^h_ij); so dE_h/dt >= 0 when the bracket's sum is >= 0.",
    ),
)

REGISTRY.declare_all(_STATEMENTS)


METHOD = "symbolic (SymPy): general n (symbolic sums), d (Gram algebra), H (per-pair, linear)"


FORMULA_TOLERANCE = 1e-9


REGISTRY.declare(
    "C8.radial-dominance.reading-b",
    "Condition 8 summed over tokens",
    "Under the hypotheses of T17.shadow-decomposition, for every head h: sum_i sum_{h' != h} a^h_i a^h'_i <= "
    "sum_i T^h_i holds if and only if dE_h/dt >= 0 (the summed form is equivalent to per-head monotonicity; "
    "the per-token form of C8.radial-dominance implies it).",
)


@REGISTRY.procedure("T11.energy-rate.spherical", "symbolic")
def _spherical(ctx: Context) -> Outcome:
    return derived(energy.prove_energy_rate("sphere").derivation, METHOD)


@REGISTRY.procedure("T11.energy-rate.flat", "symbolic")
def _flat(ctx: Context) -> Outcome:
    return derived(energy.prove_energy_rate("flat").derivation, METHOD)


@REGISTRY.procedure("T16.flat-orthogonal", "symbolic")
def _t16(ctx: Context) -> Outcome:
    return derived(energy.prove_flat_orthogonal().derivation, METHOD)


@REGISTRY.procedure("T17.shadow-decomposition", "symbolic")
def _t17(ctx: Context) -> Outcome:
    return derived(energy.prove_shadow_decomposition().derivation, METHOD)


@REGISTRY.procedure("C8.radial-dominance", "symbolic")
def _c8(ctx: Context) -> Outcome:
    return derived(energy.prove_radial_dominance(), METHOD + "; per-token Condition 8")


@REGISTRY.procedure("C8.radial-dominance.reading-b", "symbolic")
def _c8_summed(ctx: Context) -> Outcome:
    return derived(energy.prove_summed_radial_dominance(), METHOD + "; summed Condition 8")


def t16_formula() -> Callable[[Configuration], np.ndarray]:
    """dE_h/dt from the proved T16 formula, evaluated on the model's head outputs, shape (H,)."""
    term = sp.lambdify((energy.q_sym, energy.n), energy.prove_flat_orthogonal().formula)

    def rates(cfg: Configuration) -> np.ndarray:
        outputs = model.head_outputs(cfg)
        return np.sum(term(np.sum(outputs * outputs, axis=-1), cfg.n), axis=-1)

    return rates


def t17_formula() -> Callable[[Configuration], np.ndarray]:
    """dE_h/dt from the proved T17 formula, evaluated on the model's T^h_i and a^h_i, shape (H,)."""
    proof = energy.prove_shadow_decomposition()
    term = sp.lambdify((energy.T_sym, energy.a_sym, energy.others_sym, energy.n), proof.formula)

    def rates(cfg: Configuration) -> np.ndarray:
        a = model.radial_shadows(cfg)
        return np.sum(term(model.tangential_powers(cfg), a, a.sum(axis=0, keepdims=True) - a, cfg.n), axis=-1)

    return rates


def check_formula(
    ctx: Context, geometry: str, formula: Callable[[Configuration], np.ndarray], heads: str = "orthogonal"
) -> Outcome:
    """The proved per-head formula against model.head_energy_rates at random configurations whose heads
    are `heads` (orthogonal by default, the theorems' hypothesis; others serve soundness tests)."""
    rng = ctx.rng(geometry)
    worst = Worst.largest()
    for _ in cases(ctx, 30, 200):
        cfg = random_configuration(rng, geometry=geometry, heads=heads)
        exact, claimed = model.head_energy_rates(cfg), formula(cfg)
        floor = 1e-12 * (1.0 + model.energy(cfg))
        worst.update(
            max(relative_discrepancy(float(e), float(c), floor) for e, c in zip(exact, claimed, strict=True)), cfg
        )
    method = (
        f"numeric: proved formula vs the model's chain-rule dE_h/dt at random {geometry} {heads}-head configurations"
    )
    return worst.verdict(method, FORMULA_TOLERANCE, {"max_relative_discrepancy": worst.value})


@REGISTRY.procedure("T16.flat-orthogonal", "numeric")
def _t16_numeric(ctx: Context) -> Outcome:
    return check_formula(ctx, "flat", t16_formula())


@REGISTRY.procedure("T17.shadow-decomposition", "numeric")
def _t17_numeric(ctx: Context) -> Outcome:
    return check_formula(ctx, "sphere", t17_formula())


IDENTITY_TOLERANCE = 1e-9


FINITE_DIFFERENCE_TOLERANCE = 1e-5


FINITE_DIFFERENCE_STEP = 1e-3


def flow_step(cfg: Configuration, h: float) -> Configuration:
    """Move along the token velocity by h (then back onto the sphere when the geometry asks)."""
    X = cfg.tokens + h * model.token_velocity(cfg)
    if cfg.geometry == "sphere":
        X = X / np.linalg.norm(X, axis=1, keepdims=True)
    return cfg.moved_to(X)


def central_difference_energy_rate(cfg: Configuration, step: float = FINITE_DIFFERENCE_STEP) -> float:
    """Fourth-order central difference of E along the flow, the step scaled by the top speed.

    Independent of the chain rule: it only evaluates E at displaced (and, on the sphere,
    retracted) states, so it catches a wrong formula for dE/dt.
    """
    h = step / (1.0 + float(np.max(np.linalg.norm(model.token_velocity(cfg), axis=1))))
    e = {k: model.energy(flow_step(cfg, k * h)) for k in (-2, -1, 1, 2)}
    return (e[-2] - 8 * e[-1] + 8 * e[1] - e[2]) / (12 * h)


def check_energy_rate(ctx: Context, geometry: str, coefficient: float = 1.0, heads: str = "symmetric") -> Outcome:
    """dE/dt = coefficient * (1/n) sum |xdot_i|^2 >= 0 at random usa, aligned configurations whose heads
    are `heads` (symmetric by default, as T11 assumes; "general" drops score symmetry, for soundness tests)."""
    rng = ctx.rng(geometry)
    identity = Worst.largest()
    worst_fd = worst_sign = 0.0
    for _ in cases(ctx, 60, 400):
        cfg = random_configuration(rng, geometry=geometry, heads=heads)
        xdot = model.token_velocity(cfg)
        exact = model.energy_rate(cfg, xdot)
        claimed = coefficient * float(np.sum(xdot * xdot)) / cfg.n
        floor = 1e-12 * (1.0 + model.energy(cfg))
        identity.update(relative_discrepancy(exact, claimed, floor), cfg)
        worst_fd = max(worst_fd, relative_discrepancy(exact, central_difference_energy_rate(cfg), floor))
        worst_sign = min(worst_sign, claimed)
    method = (
        f"numeric: exact chain-rule dE/dt vs {coefficient:g}*(1/n) sum |xdot|^2 and vs a central "
        f"finite difference (h={FINITE_DIFFERENCE_STEP:g}) at random {geometry} configurations ({heads} heads)"
    )
    details = {
        "max_relative_identity_discrepancy": identity.value,
        "max_relative_finite_difference_discrepancy": worst_fd,
        "finite_difference_tolerance": FINITE_DIFFERENCE_TOLERANCE,
        "min_claimed_rate": worst_sign,
    }
    worst_margin = identity.margin
    if worst_fd > FINITE_DIFFERENCE_TOLERANCE:
        worst_margin = min(worst_margin, -worst_fd)
    return identity.verdict(method, IDENTITY_TOLERANCE, details, worst_margin)


@REGISTRY.procedure("T11.energy-rate.spherical", "numeric")
def _numeric_spherical(ctx: Context) -> Outcome:
    return check_energy_rate(ctx, "sphere")


@REGISTRY.procedure("T11.energy-rate.flat", "numeric")
def _numeric_flat(ctx: Context) -> Outcome:
    return check_energy_rate(ctx, "flat")


RTOL, ATOL = 1e-10, 1e-12


#: Relative size of a decrease of E between records that integration error can explain.
MONOTONE_TOLERANCE = 1e-9


#: Relative tolerance of the energy balance E(T) - E(0) against the quadrature of the rate.
BALANCE_TOLERANCE = 1e-6


RECORDS = 201


HORIZON = {"sphere": 2.0, "flat": 0.5}


#: Flat usa dynamics can blow up in finite time (|x| grows along a positive eigenvector of some M_h):
#: trajectories stop when a token norm reaches this bound.
FLAT_NORM_BOUND = 2.0


def _bounded_norm() -> Event:
    def margin(cfg: Configuration) -> float:
        return FLAT_NORM_BOUND - float(np.max(np.linalg.norm(cfg.tokens, axis=1)))

    return Event(f"max|x_i|>={FLAT_NORM_BOUND:g}", margin)


def _run(cfg: Configuration, T: float, observables: tuple[str, ...]) -> Trajectory:
    """A recorded trajectory on [0, T], stopped early if a flat token norm reaches the bound."""
    events = (_bounded_norm(),) if cfg.geometry == "flat" else ()
    grid = np.linspace(0, T, RECORDS)
    return integrate(cfg, T, rtol=RTOL, atol=ATOL, record_times=grid, observables=observables, events=events)


def _trajectory_configuration(rng: np.random.Generator, geometry: str, heads: str = "symmetric") -> Configuration:
    return random_configuration(rng, geometry=geometry, heads=heads, max_n=8, max_d=5, max_heads=3, scale=0.5)


def check_energy_trajectories(ctx: Context, geometry: str, coefficient: float = 1.0) -> Outcome:
    """E non-decreasing and dE/dt = coefficient * (1/n) sum |xdot|^2 along integrated usa trajectories."""
    rng = ctx.rng(f"trajectory-{geometry}")
    T = HORIZON[geometry]
    identity, balance = Worst.largest(), Worst.largest()
    worst_drop = 0.0
    runs = cases(ctx, 3, 12)
    for _ in runs:
        cfg = _trajectory_configuration(rng, geometry)
        traj = _run(cfg, T, ("energy",))
        energy = traj.observables["energy"]
        claimed = []
        for X in traj.states:
            state = cfg.moved_to(X)
            xdot = model.token_velocity(state)
            claimed.append(coefficient * float(np.sum(xdot * xdot)) / cfg.n)
            floor = 1e-12 * (1.0 + model.energy(state))
            identity.update(relative_discrepancy(model.energy_rate(state, xdot), claimed[-1], floor), state)
        worst_drop = max(worst_drop, float(np.max(-np.diff(energy) / energy[:-1], initial=0.0)))
        balance.update(_balance_excess(traj.times, np.array(claimed), energy[-1] - energy[0]), cfg)
    method = (
        f"numeric: {len(runs)} {tableau_for(RTOL).name} trajectories (rtol={RTOL:g}, {geometry}, T={T:g}"
        f"{_stop(geometry)}); at {RECORDS} "
        "records each, "
        f"chain-rule dE/dt vs {coefficient:g}*(1/n) sum |xdot|^2; E non-decreasing between records; "
        "E(T)-E(0) vs the Simpson quadrature of the claimed rate"
    )
    details = {
        "states": identity.cases,
        "max_relative_identity_residual": identity.value,
        "max_relative_energy_drop": worst_drop,
        "monotone_tolerance": MONOTONE_TOLERANCE,
        "max_balance_excess": balance.value,
        "balance_tolerance": f"{BALANCE_TOLERANCE:g} + 10 x the estimated Simpson error",
    }
    margin, candidate = identity.margin, identity.candidate
    if worst_drop > MONOTONE_TOLERANCE:
        margin = min(margin, -worst_drop)
    if balance.value > 0.0:
        margin, candidate = min(margin, balance.margin), balance.candidate
    return float_verdict(method, identity.cases, margin, IDENTITY_TOLERANCE, candidate, details)


def _balance_excess(times: np.ndarray, rate: np.ndarray, change: float) -> float:
    """How far |E(T) - E(0) - Simpson(rate)| / |E(T) - E(0)| exceeds what quadrature error explains.

    The quadrature error is estimated as the gap between Simpson's rule on all records and on
    every other record; the allowance is BALANCE_TOLERANCE plus ten times that estimate.
    """
    full = float(simpson(rate, x=times))
    coarse = float(simpson(rate[::2], x=times[::2])) if len(times) >= 5 else full
    scale = max(abs(change), 1e-300)
    allowance = BALANCE_TOLERANCE + 10.0 * abs(full - coarse) / scale
    return max(0.0, abs(change - full) / scale - allowance)


def _stop(geometry: str) -> str:
    return f", stopped if a token norm reaches {FLAT_NORM_BOUND:g}" if geometry == "flat" else ""


def check_flat_orthogonal(ctx: Context, coefficient: float = 1.0) -> Outcome:
    """dE_h/dt = coefficient * (1/n^3) sum_i |f^h_i|^2 >= 0 (flat, orthogonal heads): pointwise and in time."""
    rng = ctx.rng("flat-orthogonal")
    identity = Worst.largest()
    min_rate = worst_drop = 0.0
    for _ in cases(ctx, 60, 300):
        cfg = random_configuration(rng, geometry="flat", heads="orthogonal")
        f = model.head_outputs(cfg)
        claimed = coefficient * np.sum(f * f, axis=(1, 2)) / cfg.n**3
        exact = model.head_energy_rates(cfg)
        floor = 1e-12 * (1.0 + model.energy(cfg))
        identity.update(max(relative_discrepancy(a, b, floor) for a, b in zip(exact, claimed, strict=True)), cfg)
        min_rate = min(min_rate, float(exact.min()) / (1.0 + model.energy(cfg)))
    states, runs = 0, cases(ctx, 2, 8)
    for _ in runs:
        cfg = _trajectory_configuration(rng, "flat", heads="orthogonal")
        traj = _run(cfg, HORIZON["flat"], ("head_energies",))
        E_h = traj.observables["head_energies"]
        states += len(E_h)
        worst_drop = max(worst_drop, float(np.max(-np.diff(E_h, axis=0) / E_h[:-1], initial=0.0)))
    method = (
        f"numeric: chain-rule dE_h/dt vs {coefficient:g}*(1/n^3) sum_i |f^h_i|^2 at {identity.cases} random flat "
        f"configurations with exactly orthogonal symmetric heads, and each E_h along {len(runs)} "
        f"{tableau_for(RTOL).name} trajectories"
    )
    details = {
        "max_relative_identity_residual": identity.value,
        "min_scaled_head_rate": min_rate,
        "trajectory_states": states,
        "max_relative_head_energy_drop": worst_drop,
        "monotone_tolerance": MONOTONE_TOLERANCE,
    }
    margin = min(identity.margin, min_rate)
    if worst_drop > MONOTONE_TOLERANCE:
        margin = min(margin, -worst_drop)
    return float_verdict(method, identity.cases + states, margin, IDENTITY_TOLERANCE, identity.candidate, details)


@REGISTRY.procedure("T11.energy-rate.spherical", "trajectory")
def _trajectory_spherical(ctx: Context) -> Outcome:
    return check_energy_trajectories(ctx, "sphere")


@REGISTRY.procedure("T11.energy-rate.flat", "trajectory")
def _trajectory_flat(ctx: Context) -> Outcome:
    return check_energy_trajectories(ctx, "flat")


@REGISTRY.procedure("T16.flat-orthogonal", "trajectory")
def _flat_orthogonal(ctx: Context) -> Outcome:
    return check_flat_orthogonal(ctx)


REGISTRY.declare(
    "T11.hypotheses.no-symmetry",
    "Theorem 11 without score symmetry (reading)",
    "There are n, d, H, beta, tokens on S^{d-1} and heads with W_h = M_h but M_h not symmetric (usa, "
    "spherical dynamics) such that dE/dt < 0.",
)


REGISTRY.declare(
    "T11.hypotheses.no-alignment",
    "Theorem 11 without value alignment (reading)",
    "There are n, d, H, beta, tokens on S^{d-1}, symmetric M_h and symmetric W_h with W_h != M_h for every h "
    "(usa, spherical dynamics) such that dE/dt < 0.",
)


@dataclass(frozen=True)
class Search:
    """What to sample (the named head family of `certificates.kernel.family_names` at `scale`, by default large enough
    for rates of either sign, with W_h = M_h when the witness must have aligned values, else W_h drawn
    apart from the same family), which hypotheses the witness must satisfy exactly, which rate must be < 0."""

    heads: str
    hypotheses: tuple[str, ...]
    quantity: str
    scale: float = 2.0

    @property
    def aligned(self) -> bool:
        return "aligned-values" in self.hypotheses


SEARCHES = {
    claim: Search(heads, CONFIGURATIONS[claim].hypotheses, CONFIGURATIONS[claim].quantity)
    for claim, heads in (
        ("T17.shadow-obstruction", "orthogonal-subspace"),
        ("T11.hypotheses.no-symmetry", "random-general"),
        ("T11.hypotheses.no-alignment", "random-symmetric"),
    )
}
"""The search of each claim, with the hypotheses and quantity the checker's obligation requires."""


def _score(rates: np.ndarray, quantity: str) -> tuple[float, int | None]:
    """The rate relative to 1 + the rates' total size (negative is good; tiny rates rank low), and its head."""
    size = 1.0 + float(np.abs(rates).sum())
    if quantity == "head_energy_rate":
        head = int(np.argmin(rates))
        return float(rates[head]) / size, head
    return float(rates.sum()) / size, None


def candidates(search: Search, rng: np.random.Generator, samples: int) -> list[tuple[float, Configuration, int | None]]:
    """Float configurations with a negative rate, most negative (relative) first.

    The adversarial search (`checks.evidence.adversarial`) over `samples` random draws, structured token sets
    and local minimization over the tokens (and the heads, which stay W_h = M_h, when their family lets them move)."""
    family = adversarial.Family.of(lambda r: _draw(search, r), "random-sphere", search.heads, search.aligned)
    budget = dataclasses.replace(adversarial.BUDGETS["quick"], starts=samples)
    result = adversarial.search(family, lambda cfg: _objective(cfg, search.quantity), budget, rng)
    return [(f.margin, f.cfg, f.index[0] if f.index else None) for f in result.candidates]


def _draw(search: Search, rng: np.random.Generator) -> Configuration:
    n, H = int(rng.integers(2, 6)), int(rng.integers(2, 4))
    d = int(rng.integers(max(H, 2), 6))
    options = {"scale": search.scale}
    M = families.draw_heads(search.heads, H, d, rng, options)
    W = None if search.aligned else families.draw_heads(search.heads, H, d, rng, options)
    X = families.draw_tokens("random-sphere", n, d, rng, {})
    return Configuration.create(X, M, W, beta=float(rng.uniform(0.2, 3.0)))


def _objective(cfg: Configuration, quantity: str) -> tuple[float, tuple[int, ...]]:
    score, head = _score(model.head_energy_rates(cfg), quantity)
    return score, () if head is None else (head,)


def find_witness(ctx: Context, claim_id: str, search: Search) -> Outcome:
    """Search, round and certify; CERTIFIED with the witness file, else INCONCLUSIVE with the reason."""
    found = candidates(search, ctx.rng(claim_id), 400 if ctx.thorough else 80)
    symmetric = "symmetric-scores" in search.hypotheses
    symmetric_values = "symmetric-values" in search.hypotheses

    def rounding(candidate: Candidate) -> ExactConfiguration:
        cfg = candidate.cfg
        values = cfg.score_matrices if search.aligned else cfg.values
        return round_configuration(
            cfg.tokens, cfg.score_matrices, values, cfg.beta, symmetric=symmetric, symmetric_values=symmetric_values
        )

    attempts = certify_first(
        ctx, claim_id, [Candidate(*f) for f in found], rounding, search.hypotheses, search.quantity
    )
    if attempts.certified is None:
        notes = f"{len(found)} float candidates; none verified ({'; '.join(attempts.reasons) or 'no candidate'})"
        return Outcome(Verdict.INCONCLUSIVE, "float search + balls", notes=notes)
    head = attempts.certified.candidate.head
    return Outcome(
        Verdict.CERTIFIED,
        "float search with checks.model.field, exact rational rounding, ball-verified rate < 0",
        certificates=[str(attempts.certified.result.path)],
        witness=attempts.certified.record(search.quantity + ("" if head is None else f"[{head}]")),
        details={"float_candidates": len(found)},
    )


@REGISTRY.procedure("T17.shadow-obstruction", "witness")
def _obstruction(ctx: Context) -> Outcome:
    return find_witness(ctx, "T17.shadow-obstruction", SEARCHES["T17.shadow-obstruction"])


@REGISTRY.procedure("T11.hypotheses.no-symmetry", "witness")
def _no_symmetry(ctx: Context) -> Outcome:
    return find_witness(ctx, "T11.hypotheses.no-symmetry", SEARCHES["T11.hypotheses.no-symmetry"])


@REGISTRY.procedure("T11.hypotheses.no-alignment", "witness")
def _no_alignment(ctx: Context) -> Outcome:
    return find_witness(ctx, "T11.hypotheses.no-alignment", SEARCHES["T11.hypotheses.no-alignment"])


@REGISTRY.procedure("T11.hypotheses", "witness")
def _hypotheses(ctx: Context) -> Outcome:
    """Certified when both readings have a witness (dE/dt < 0 also breaks dE/dt = (1/n) sum |xdot|^2 >= 0)."""
    outcomes = {
        name: find_witness(ctx, name, SEARCHES[name])
        for name in ("T11.hypotheses.no-symmetry", "T11.hypotheses.no-alignment")
    }
    missing = [name for name, o in outcomes.items() if o.verdict is not Verdict.CERTIFIED]
    if missing:
        return Outcome(Verdict.INCONCLUSIVE, "witnesses", notes=f"no certified witness for {', '.join(missing)}")
    return Outcome(
        Verdict.CERTIFIED,
        "certified witnesses with dE/dt < 0 for each dropped hypothesis",
        certificates=[p for o in outcomes.values() for p in o.certificates],
        witness={name: o.witness for name, o in outcomes.items()},
        notes="dE/dt < 0 also breaks the identity dE/dt = (1/n) sum |xdot_i|^2, whose right side is >= 0",
    )


#: Relative tolerance of a bound (rounding of sums of exponentials).
TOLERANCE = 1e-9


def _row_sums(cfg: Configuration) -> np.ndarray:
    """S^h_i = sum_j exp(beta s^h_ij), shape (H, n): the row sums of the usa weights."""
    if cfg.attention != "usa":
        raise ValueError("the bounds of T12 and T39 are stated for usa attention")
    return model.weights(cfg).sum(axis=-1)


def misalignment_margin(cfg: Configuration, delta_factor: float = 1.0) -> tuple[float, float]:
    """(worst margin, scale) of T12's two inequalities, the delta bound scaled by delta_factor.

    delta_i = v_i(W) - v_i(W = M) is taken from the model (velocities with and without Delta);
    margins: dE/dt - (1/n) sum_i |xdot_i| (|xdot_i| - |delta_i|), then, per token,
    delta_factor * (1/n) sum_h |Delta_h|_op S^h_i - |delta_i| (scaled by the speed it multiplies).
    """
    xdot = model.token_velocity(cfg)
    speed = np.linalg.norm(xdot, axis=1)
    aligned = Configuration.create(cfg.tokens, cfg.score_matrices, None, cfg.beta, cfg.attention, cfg.geometry)
    delta = np.linalg.norm(model.velocity(cfg) - model.velocity(aligned), axis=1)
    deltas = np.array([np.linalg.norm(D, 2) for D in cfg.values - cfg.score_matrices])
    delta_bound = delta_factor * (deltas[:, None] * _row_sums(cfg)).sum(axis=0) / cfg.n
    rate = model.energy_rate(cfg, xdot)
    scale = 1.0 + abs(rate) + float(np.sum(speed * np.maximum(delta, delta_bound))) / cfg.n
    first = rate - float(np.sum(speed * (speed - delta))) / cfg.n
    second = float(np.min(speed * (delta_bound - delta))) / cfg.n
    return min(first, second), scale


def approximate_orthogonality_margin(cfg: Configuration, delta_factor: float = 1.0) -> tuple[float, float]:
    """(min_h dE_h/dt - bound_h, scale) for T39 with the delta term scaled by delta_factor."""
    delta = families.max_cross_product_norm(cfg.score_matrices)
    S = _row_sums(cfg)
    cross = S * (S.sum(axis=0, keepdims=True) - S)  # sum_{h' != h} S^h_i S^h'_i
    bracket = model.condition8_margins(cfg) - delta_factor * delta * cross
    bound = bracket.sum(axis=1) / cfg.n**3
    rates = model.head_energy_rates(cfg)
    return float(np.min(rates - bound)), 1.0 + float(np.max(np.abs(rates))) + delta * float(cross.sum()) / cfg.n**3


def check_value_misalignment(ctx: Context, delta_factor: float = 1.0) -> Outcome:
    """T12's bound at random usa, symmetric configurations with W_h = M_h + Delta_h on the sphere."""
    rng = ctx.rng("misalignment")
    worst, positive_cases = Worst.least(np.inf), 0
    for _ in cases(ctx, 150, 600):
        n, H = int(rng.integers(2, 9)), int(rng.integers(1, 4))
        d = int(rng.integers(2, 6))  # d >= 2: on S^0 every velocity vanishes
        M = families.draw_heads("random-symmetric", H, d, rng, {"scale": 1.0})
        Delta = families.draw_heads("random-general", H, d, rng, {"scale": float(rng.choice([1e-3, 1e-2, 0.1, 1.0]))})
        X = families.draw_tokens("random-sphere", n, d, rng, {})
        cfg = Configuration.create(X, M, M + Delta, beta=float(rng.uniform(0.1, 2.0)))
        margin, scale = misalignment_margin(cfg, delta_factor)
        positive_cases += int(margin >= 0)
        worst.update(margin / scale, cfg)
    method = (
        f"numeric: exact chain-rule dE/dt vs (1/n) sum_i |xdot_i|(|xdot_i| - |delta_i|), delta_i = v_i(M + Delta) "
        f"- v_i(M) from the model, and |delta_i| <= {delta_factor:g} * (1/n) sum_h |Delta_h|_op S^h_i, at "
        f"{worst.cases} random usa spherical configurations, W_h = M_h + Delta_h, |Delta_h| from 1e-3 to 1"
    )
    return worst.verdict(method, TOLERANCE, {"cases_with_non_negative_margin": positive_cases})


def check_approximate_orthogonality(ctx: Context, delta_factor: float = 1.0) -> Outcome:
    """T39's bound at random usa configurations whose symmetric heads have max |M_h' M_h|_op = delta."""
    rng = ctx.rng("approximate-orthogonality")
    worst, guaranteed, guaranteed_ok = Worst.least(np.inf), 0, 0
    for _ in cases(ctx, 80, 300):
        H = int(rng.integers(2, 4))
        d = int(rng.integers(H, 7))
        n = int(rng.integers(2, 8))
        delta = float(rng.choice([0.0, 1e-3, 1e-2, 0.1, 0.3]))
        M = families.draw_heads("approximately-orthogonal", H, d, rng, {"delta": delta, "scale": 1.0})
        X = families.draw_tokens("random-sphere", n, d, rng, {})
        cfg = Configuration.create(X, M, beta=float(rng.uniform(0.1, 2.0)))
        margin, scale = approximate_orthogonality_margin(cfg, delta_factor)
        worst.update(margin / scale, cfg)
        S = _row_sums(cfg)
        bracket = model.condition8_margins(cfg) - delta * S * (S.sum(axis=0, keepdims=True) - S)
        covered = bracket.sum(axis=1) >= 0
        guaranteed += int(covered.sum())
        guaranteed_ok += int(np.sum(model.head_energy_rates(cfg)[covered] >= 0))
    method = (
        f"numeric: exact chain-rule dE_h/dt vs (1/n^3) sum_i (T^h_i - sum_h' a^h_i a^h'_i - {delta_factor:g} * delta "
        f"sum_h' S^h_i S^h'_i) at {worst.cases} random usa spherical configurations, "
        "delta in {0, 1e-3, 1e-2, 0.1, 0.3}"
    )
    details = {"heads_with_non_negative_bracket": guaranteed, "of_which_dE_h_dt_non_negative": guaranteed_ok}
    return worst.verdict(method, TOLERANCE, details)


@REGISTRY.procedure("T12.value-misalignment", "numeric")
def _misalignment(ctx: Context) -> Outcome:
    return check_value_misalignment(ctx)


@REGISTRY.procedure("T39.approximate-orthogonality", "numeric")
def _approximate(ctx: Context) -> Outcome:
    return check_approximate_orthogonality(ctx)
