"""Trajectory statements (form `trajectory`): a bound along the one trajectory of the model from exact tokens, at every
time of [0, T] or at some time of it, and the replay of its certificate, a chain of validated steps.

A claim about the trajectory from the user's exact tokens is elaborated outside the kernel into this data:

    {"form": "trajectory", "claim": id, "configuration": exact configuration (as a witness's, a `mask` optional,
     no interaction: the balls of a chain's values do not check phi > 0 as `Chain.balls` does), "term": model term
     tree (`model_terms`; free indices among i, j (two distinct tokens) and h), "fixed": {} or the free indices it is
     at ({"i": 0, "j": 1}), "over": "least" | "largest", "op": ">" | ">=" | "<" | "<=", "bound": "p/q",
     "when": "always" | "sometime" | "limit", "time": "p/q" (T > 0)}

It states: with x(t) the solution of the model's equation x' = F(x) from the exact tokens (F the chain's velocities of
the configuration's heads, beta, kind, mask and geometry) and Q(t) the least (largest) value of the term
over every binding of its free indices at x(t), Q(t) op bound at every t of [0, T] (always) or at some t of it; or
(limit; op also "==" or "!=") Q(t) converges as t -> infinity and its limit op bound.

A limit rests on one theorem the kernel trusts, not checks: the cone collapse theorem (Geshkovski, Letrouit,
Polyanskiy, Rigollet, "A mathematical perspective on Transformers", for SA and USA with Q = K = V = I and beta >= 0;
heads M_h = W_h = lambda I with one lambda > 0 are that model with beta lambda, sped up by lambda H): tokens in one
open hemisphere converge to one point. So a limit is accepted only in that model (the sphere, no mask), for a term
that is a polynomial in the tokens' inner products (at a collapse every <x_i, x_j> -> 1: Q's limit is its value at
equal tokens, compared exactly), and its certificate is a chain showing, at some t <= T, <x_i, sum_j x_j> > 0 at every
token i (the `sometime` statement `HEMISPHERE`): x(t) then lies in the open hemisphere around sum_j x_j(t).

Its certificate (kind `trajectory`): {"prec": bits, "order": p, "steps": [{"h", "centre", "radius", "margin",
"mu"}], "negated": whether the statement is a claim's negation (the elaboration's business, unread here)} (rationals
as text; centre a flat state of n d entries). From S_0 = {x(0)} and the Euclidean balls S_{k+1} = {x : |x - c_{k+1}|
<= r_{k+1}} at t_{k+1} = t_k + h_k the kernel replays each step with balls at the stated precision, from the data:

1. B, the hull of S_k and the next centre c_{k+1} widened by the margin (not S_{k+1}: nothing of a step depends on
   the radius it states): sum_{j <= p} [0, h]^j x_j(S_k) + [0, h]^(p+1) x_{p+1}(B) lies in B's interior, so every
   solution from S_k stays in B on [t_k, t_{k+1}] (the high-order a priori enclosure, Corliss and Rihm 1996: at a
   first exit from B, Taylor's formula with Lagrange's remainder would put the solution inside B's interior), and
   in that Taylor enclosure (a box), the B of 3 and of Q below. Picard's first-order form (S_k + [0, h] F(B) in B) holds
   only for h below 1 / the field's Lipschitz constant over boxes, a few hundredths in dimension 64;
2. the solution z from the centre c_k: z(h) lies in sum_{j <= p} z_j h^j + h^(p+1) x_{p+1}(B), B the box of 1's
   data (Taylor's formula with Lagrange's remainder componentwise; the coefficients by the series recursion x_{j+1}
   = f_j / (j + 1), `solution_coefficients`, over balls: over B they hold for every point of B, where z stays by 1);
3. every other solution from S_k: |x(h) - z(h)| <= exp(h mu) r_k, once mu is shown to exceed the logarithmic norm
   mu_2(J) = lambda_max((J + J^T) / 2) of F's Jacobian at every point of B (`bounds_log_norm`; J by forward
   differentiation over balls, `equilibrium.jacobian`): d|x - z|/dt <= mu_2(the mean of J along the segment from z
   to x, which lies in the convex box B) |x - z| (Dahlquist, Gronwall);
4. z(h)'s box, widened by exp(h mu) r_k in the Euclidean norm, lies in S_{k+1}.

Then Q on the states: always, over every step that starts before T (the steps reach T), Q(B) satisfies the bound by
balls (every binding, or one, as the least and largest read it); on the first step a binding whose value at the exact
start is exact (a rational function of the tokens) may instead meet the bound there, exactly, with its rate along the
flow (the first coefficient along the series B + s F(B)) of the bound's sign over B. Sometime: at the exact start or
at some step end t_{k+1} <= T, Q over S_{k+1} (or the start's balls) satisfies it.
"""

import dataclasses
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import product
from typing import Any

from flint import arb, arb_mat, arb_series

from . import recheck
from .equilibrium import jacobian
from .exact import ball_of, holds, interval_ball, precision
from .exact_data import ExactConfiguration
from .exprtree import parse_rational
from .model_chain import Chain, add
from .model_statements import term_of
from .model_terms import TOKENS, term_text
from .model_values import Trees
from .recheck import Rejected
from .vocabulary import SMOOTH_KINDS

FORM = "trajectory"
STATEMENT_KEYS = {"form", "claim", "configuration", "term", "fixed", "over", "op", "bound", "when", "time"}
STEP_KEYS = {"h", "centre", "radius", "margin", "mu"}
HEMISPHERE = {"term": ["inner", ["name", "x_i"], ["sum_j", ["name", "x_j"]]], "fixed": {}, "over": "least"}
HEMISPHERE |= {"op": ">", "bound": "0", "when": "sometime"}
MAX_WORK, MAX_ORDER = 4_000_000, 40  # steps x (n d)^2, counted: each step's Jacobian costs (n d)^2


def solution_coefficients(field: Callable[[Sequence[Any]], list[Any]], start: Sequence[Any], order: int) -> list:
    """x_0 .. x_order, the Taylor coefficients x^(k)(0) / k! of the solution through `start` (for every point of it
    when it holds balls): x_{k+1} = f_k / (k + 1), f_k the t^k coefficient of the field along x_0 + ... + x_k t^k,
    which series arithmetic truncated after t^k gets right (python-flint's series length cap, ctx.cap, must be at
    least `order`: a series it truncates earlier has no coefficient, `coefficient`)."""
    coefficients = [list(start)]
    for k in range(order):
        along = [arb_series([c[m] for c in coefficients], prec=k + 1) for m in range(len(start))] if k else start
        coefficients.append([coefficient(f, k) / (k + 1) for f in field(along)])
    return coefficients


def coefficient(value: Any, k: int) -> arb:
    """The t^k coefficient of a series, or of a constant (a ball, or a rational the chain folded); ValueError when
    the series was truncated before t^k (its coefficient is unknown, not 0)."""
    if not isinstance(value, arb_series):
        return (value if isinstance(value, arb) else ball_of(value)) if k == 0 else arb(0)
    if value.prec <= k:
        raise ValueError(f"a series truncated at length {value.prec} has no coefficient {k}")
    return value[k] if k < len(value) else arb(0)  # python-flint drops trailing zero coefficients


class Statement:
    """A trajectory statement read from its data: the configuration, whether every binding must meet the bound, the
    relation, when and the horizon T, the residuals term - bound of every binding (i != j) as trees of one chain over
    symbolic tokens (`residuals`) and at the exact start (`start`: rationals where the term is rational there)."""

    def __init__(self, data: dict[str, Any], cfg: ExactConfiguration, term: Any, bound: Fraction) -> None:
        self.cfg, self.op, self.when, self.time = cfg, data["op"], data["when"], parse_rational(data["time"])
        # the least is bounded below, the largest above, by bounding every binding; the others by one binding
        self.every = (data["over"] == "least") == (data["op"] in (">", ">="))
        symbols = [[["sym", f"x_{i}_{k}"] for k in range(len(x))] for i, x in enumerate(cfg.tokens)]
        self.names = [name for x in symbols for _, name in x]
        self.chain, self.compiled = Chain(dataclasses.replace(cfg, tokens=symbols)), {}
        self.velocities = [v for x in self.chain.velocities() for v in x]
        ranges = {"h": range(len(cfg.score_matrices))} | dict.fromkeys(TOKENS, range(cfg.n))
        free = sorted(term.free)
        bindings = [dict(zip(free, v, strict=True)) for v in product(*(ranges[k] for k in free))]
        # at the free indices the statement fixes, every binding of the others (i != j)
        bindings = [at for at in bindings if at.get("i", -1) != at.get("j", -2) and data["fixed"].items() <= at.items()]
        trees, exact = Trees(self.chain), Trees(Chain(cfg))
        self.residuals = [add([trees.tree(term, at), -bound]) for at in bindings]
        self.start = [add([exact.tree(term, at), -bound]) for at in bindings]

    def field(self, state: Sequence[Any], trees: str = "velocities") -> list[Any]:
        """F (or, with "residuals", the residuals) over a flat state of balls or series."""
        if trees not in self.compiled:
            self.compiled[trees] = self.chain.compiled(getattr(self, trees), ball_of)
        return self.compiled[trees](dict(zip(self.names, state, strict=True)))

    def met(self, residuals: Sequence[Any]) -> bool:
        """Whether residual balls (or exact rationals) show the bound: at every binding, or at one."""
        return (all if self.every else any)(holds(r, self.op) for r in residuals)


def statement_of(data: dict[str, Any], claim_id: str) -> Statement:
    """The statement of a certificate of `claim_id`; Rejected when the data are not a well-formed one."""
    recheck.require_keys(data, STATEMENT_KEYS, "trajectory statement")
    equal = ("==", "!=") if data.get("when") == "limit" else ()
    choices = {"over": ("least", "largest"), "op": (">", ">=", "<", "<=", *equal)}
    recheck.require_choices(data, choices | {"when": ("always", "sometime", "limit")}, "trajectory statement")
    masked = isinstance(data["configuration"], dict) and "mask" in data["configuration"]
    cfg = recheck.exact_configuration(data["configuration"], None, None, masked)  # no interaction (phi > 0 unchecked)
    if cfg.attention not in SMOOTH_KINDS:
        raise Rejected(f"trajectories are replayed for {' and '.join(SMOOTH_KINDS)} attention, not {cfg.attention}")
    term, bound = term_of(data["term"], frozenset({"i", "j", "h"})), parse_rational(data["bound"])
    if term.names & {"lambda_h", "delta"}:  # a scalar head's strength, a stated bound: a model statement's hypotheses
        raise Rejected("a trajectory statement names no lambda_h or delta (they need a model statement's hypotheses)")
    if parse_rational(data["time"]) <= 0:
        raise Rejected("the horizon T of a trajectory statement is positive")
    fixed = data["fixed"]
    if not isinstance(fixed, dict) or not set(fixed) <= term.free or not all(map(recheck.natural, fixed.values())):
        raise Rejected("statement fixed: free indices of the term (i, j, h) and the natural numbers they are at")
    statement = Statement(data, cfg, term, bound)
    if not statement.residuals:  # no binding: the statement would hold vacuously
        raise Rejected(f"the term has no binding at {fixed} (n = {cfg.n}, H = {len(cfg.score_matrices)})")
    over = ", ".join(f"{k} = {fixed[k]}" if k in fixed else k for k in sorted(term.free)) or "nothing"
    sizes = f"n = {cfg.n}, d = {len(cfg.tokens[0])}, H = {len(cfg.score_matrices)}, beta = {cfg.beta}"
    quantity = f"the {data['over']} over {over} of {term_text(term)} {data['op']} {bound}"
    when = f"at {'every' if data['when'] == 'always' else 'some'} t in [0, {statement.time}], from the exact tokens"
    if data["when"] == "limit":
        reached = f"(the cone collapse theorem, from an open hemisphere reached by t = {statement.time})"
        statement.hemisphere, when = _collapse(data, claim_id, cfg, term, bound), f"in the limit t -> oo {reached}"
    statement.text = f"along the trajectory of {cfg.attention} attention ({cfg.geometry}, {sizes}): {quantity} {when}"
    return statement


def _collapse(data: dict[str, Any], claim_id: str, cfg: ExactConfiguration, term: Any, bound: Fraction) -> Statement:
    """The hemisphere statement whose chain proves a limit statement by the cone collapse theorem (the module's
    docstring); Rejected outside the theorem's model, for a term not of inner products, or a limit not op bound."""
    c, d = cfg.score_matrices[0][0][0], len(cfg.tokens[0])
    scalar = [[c * (i == k) for k in range(d)] for i in range(d)]
    model = (cfg.geometry, bool(cfg.mask), cfg.beta >= 0, c > 0) == ("sphere", False, True, True)
    if not model or any(m != scalar for m in cfg.score_matrices + cfg.values):
        raise Rejected("the cone collapse theorem needs the sphere, no mask, beta >= 0, M_h = W_h = c I with c > 0")
    if not _of_inner_products(data["term"]):
        raise Rejected("a limit statement's term is a polynomial in the tokens' inner products <x_i, x_j>")
    collapsed = Statement(data, dataclasses.replace(cfg, tokens=[cfg.tokens[0]] * cfg.n), term, bound).start
    if not holds((min if data["over"] == "least" else max)(collapsed), data["op"]):
        raise Rejected(f"at a collapse (every <x_i, x_j> = 1) the {data['over']} term is not {data['op']} {bound}")
    return statement_of(data | HEMISPHERE, claim_id)


def _of_inner_products(tree: Any) -> bool:
    """Whether a term tree is a polynomial in the tokens' inner products <x_i, x_j> (numbers, + - * neg pow)."""
    if tree[0] == "inner":
        return all(arg in (["name", "x_i"], ["name", "x_j"]) for arg in tree[1:])
    parts = tree[1:2] if tree[0] == "pow" else tree[1:]  # a power's exponent is an integer literal
    return tree[0] == "num" or (tree[0] in ("+", "-", "*", "neg", "pow") and all(map(_of_inner_products, parts)))


def replay(statement: Statement, payload: dict[str, Any]) -> tuple[list[tuple[Fraction, Fraction, list, list]], arb]:
    """(t_k, h_k, B_k, S_{k+1}'s balls) of every step and the widest radius, each step replayed (the module's
    docstring); Rejected at the first step that does not hold."""
    order, start = payload["order"], [v for x in statement.cfg.tokens for v in x]
    steps = recheck.require_list(payload["steps"], MAX_WORK // len(start) ** 2, "steps", 1)
    if not recheck.natural(order, 1, MAX_ORDER):
        raise Rejected(f"order: a natural number from 1 to {MAX_ORDER}")
    t, centre, radius, replayed = Fraction(0), start, Fraction(0), []
    for k, step in enumerate(steps):
        recheck.require_keys(step, STEP_KEYS, f"step {k}")
        h, r, margin, mu = (parse_rational(step[key]) for key in ("h", "radius", "margin", "mu"))
        following = list(map(parse_rational, recheck.require_list(step["centre"], len(start), "a centre", len(start))))
        B, needed = replay_step(statement, centre, radius, (h, following, margin, mu), order, f"step {k} at t = {t}")
        if not needed <= ball_of(r):
            raise Rejected(f"step {k} at t = {t}: the state at t + h is not inside the stated set S_(k+1)")
        replayed.append((t, h, B, [interval_ball(c - r, c + r) for c in following]))
        t, centre, radius = t + h, following, r
    return replayed, max(ball_of(parse_rational(s["radius"])) for s in steps)


def replay_step(statement: Statement, centre: list, radius: Fraction, step: tuple, order: int, where: str) -> tuple:
    """(B, a ball whose upper end bounds |x(t + h) - c_{k+1}|_2 for every solution from S_k) of a step (h, c_{k+1},
    margin, mu) from S_k = (centre, radius): steps 1-3 of the module's docstring (the provers call it too; nothing
    here depends on the radius r_{k+1} the step states, which `replay` compares with the bound)."""
    h, following, margin, mu = step
    if min(h, margin) < 0 or h == 0:
        raise Rejected(f"{where}: h > 0 and a margin >= 0")
    S = [interval_ball(c - radius, c + radius) for c in centre]
    ends = [(min(a - radius, b), max(a + radius, b)) for a, b in zip(centre, following, strict=True)]
    B = [interval_ball(low - margin, high + margin) for low, high in ends]
    top = solution_coefficients(statement.field, B, order + 1)[-1]
    image = _horner([*solution_coefficients(statement.field, S, order), top], interval_ball(0, h))
    if not all(b.contains_interior(p) for b, p in zip(B, image, strict=True)):
        raise Rejected(f"{where}: the Taylor enclosure over [0, h] is not inside the box B's interior")
    B = image  # every state of the step lies in it too (1.)
    if radius and not bounds_log_norm(statement.field, B, mu):
        raise Rejected(f"{where}: mu = {mu} does not bound the logarithmic norm of the field's Jacobian over the box")
    z = _horner([*solution_coefficients(statement.field, [ball_of(v) for v in centre], order), top], ball_of(h))
    growth = (ball_of(h) * ball_of(mu)).exp() * ball_of(radius)
    return B, sum((abs(a - ball_of(c)).upper() ** 2 for a, c in zip(z, following, strict=True)), arb(0)).sqrt() + growth


def _horner(coefficients: list[list[Any]], t: arb) -> list[arb]:
    """sum_j x_j t^j componentwise: over every t of the ball t (Horner's form in ball arithmetic)."""
    values = list(coefficients[-1])
    for c in reversed(coefficients[:-1]):
        values = [v * t + ck for v, ck in zip(values, c, strict=True)]
    return values


def bounds_log_norm(field: Callable, box: list[arb], mu: Fraction) -> bool:
    """Whether mu > lambda_max((J + J^T) / 2), the logarithmic norm mu_2 of F's Jacobian J, at every point of the box:
    (mu - rho) I - M is positive definite (every pivot of its elimination in balls > 0), M the exact midpoints of the
    balls of (J + J^T) / 2 and rho >= their radii's largest row sum (Weyl: |lambda_max(S) - lambda_max(M)| <= rho)."""
    J, n = jacobian(field, box), len(box)
    S = (J + J.transpose()) / 2
    rho = max(sum((S[i, m].rad() for m in range(n)), arb(0)).upper() for i in range(n))
    A = arb_mat(n, n, 1) * (ball_of(mu) - rho) - S.mid()
    for k in range(n):  # the trailing block after step k is the Schur complement; the rows and columns <= k are unread
        if not A[k, k] > 0:
            return False
        A -= arb_mat([[A[i, k] / A[k, k]] for i in range(n)]) * arb_mat([[A[k, m] for m in range(n)]])
    return True


def check(data: dict[str, Any], claim_id: str, kind: str, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    """(what the replayed chain proves, how); Rejected when a step or the bound does not hold."""
    statement = statement_of(data, claim_id)
    if kind != FORM:
        raise Rejected(f"a trajectory statement's certificate is a chain of steps ({FORM}), not {kind}")
    recheck.require_keys(payload, {"prec", "order", "steps", "negated"}, "the trajectory payload")
    chained = statement.hemisphere if statement.when == "limit" else statement
    with precision(recheck.recorded_precision(payload)):
        replayed, widest = replay(chained, payload)
        how = f"{len(replayed)} steps replayed (widest radius {widest.str(3)}), {_bound_shown(chained, replayed)}"
    return f"claim {claim_id!r}: proves {statement.text}", how


def _bound_shown(statement: Statement, replayed: list) -> str:
    """How the replayed steps (t, h, B, S) show the statement's bound; Rejected when they do not."""
    T, start = statement.time, [ball_of(v) for x in statement.cfg.tokens for v in x]
    if statement.when == "sometime":
        ends = [(Fraction(0), start)] + [(t + h, end) for t, h, _, end in replayed]
        shown = next((t for t, state in ends if t <= T and statement.met(statement.field(state, "residuals"))), None)
        if shown is None:
            raise Rejected(f"no step end t <= {T} shows the bound")
        return f"the bound shown at t ~ {float(shown):.6g}"
    covered = [step for step in replayed if step[0] < T]
    if covered[-1][0] + covered[-1][1] < T:
        raise Rejected(f"the steps end before T = {T}")
    for k, (t, h, B, _) in enumerate(covered):
        if not over_step(statement, covered[k - 1][3] if k else start, B, h, k == 0):
            raise Rejected(f"the bound is not shown over the step at t = {t}")
    return f"the bound shown over the {len(covered)} steps of [0, {T}]"


def over_step(statement: Statement, start: list[arb], box: list[arb], h: Fraction, first: bool) -> bool:
    """Whether each binding's residual q satisfies the bound over a step from the set `start` inside `box`: q(t + s)
    lies in q(start) + [0, h] r, r its rate along the flow over the box (the first coefficient along the series B +
    s F(B)); on the first step q may also be exact at the start, meet the bound there and move only to its side."""
    with_rate = [arb_series([b, f], prec=2) for b, f in zip(box, statement.field(box), strict=True)]
    rates = [coefficient(r, 1) for r in statement.field(with_rate, "residuals")]
    shown = [
        holds(q + interval_ball(0, h) * rate, statement.op)
        or (first and isinstance(exact, Fraction) and holds(exact, statement.op) and holds(rate, statement.op[0] + "="))
        for q, exact, rate in zip(statement.field(start, "residuals"), statement.start, rates, strict=True)
    ]
    return (all if statement.every else any)(shown)
