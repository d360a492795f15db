"""Searching a `model` claim's configurations for a violation, and turning the worst ones into certified witnesses.

The claim's terms are evaluated in floats (`headflow.checks.evidence.float_terms`: the
`certificates.claims.model_algebra` algebra over the numpy model `checks.model.field`), each margin with the first-order
bound of its rounding error (`checks.evidence.float_error`), on configurations of its kind with its hypotheses: heads
from the family the hypotheses name (orthogonal-subspace, scalar, random-symmetric or random-general; W_h = M_h when
values are aligned; scalar strengths over the whole range the search moves them in, often very unequal), random tokens
on the sphere, a share of them few tokens with several heads in a plane. The adversarial search
(`checks.evidence.adversarial`, with its repeated-token and great-circle shapes at every draw) minimizes the relative
margin of the relation over every token and head (a configuration where a `given` condition fails is not a candidate).
The most negative candidates are rounded to exact data (`headflow.certificates.provers.witness.round_configuration`) and
certified by `certificates.provers.model_witness`: only a ball-settled negation is a witness. A margin floats cannot
sign (within its bound), or a violation beyond its bound too small for a candidate, is decided by balls at exact data
within 2^-52 of it (`_settle_doubts`): a certified witness where they refute, else settled, or the search reports it
unsettled and the claim is not confirmed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.model_algebra import NumericAlgebra, evaluate, residual
from headflow.certificates.claims.model_sizes import Sizes
from headflow.certificates.claims.model_text import sizes_text
from headflow.certificates.claims.schema import ModelClaim
from headflow.certificates.errors import InputError
from headflow.certificates.families import HEAD_FAMILIES
from headflow.certificates.kernel import ball_model
from headflow.certificates.kernel.exact import precision
from headflow.certificates.kernel.masks import claim_mask
from headflow.certificates.kernel.model_statements import ModelStatement
from headflow.certificates.kernel.model_values import settle
from headflow.certificates.provers.model_witness import certify_model_witness
from headflow.certificates.provers.witness import WitnessResult, round_configuration
from headflow.certificates.statements.model import kernel_statement, statement_data
from headflow.certificates.store import certificate_directory
from headflow.checks.evidence import adversarial
from headflow.checks.evidence.float_terms import float_algebra
from headflow.checks.evidence.witnesses import CANDIDATES_TRIED
from headflow.checks.model import families
from headflow.checks.model.configuration import Configuration
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict

#: A given condition counts as holding in floats above this margin (the balls decide for the witness).
GIVEN_SLACK = 1e-9
#: The sizes the search draws: small ones most often (witnesses stay small to certify), larger ones too, so that a
#: claim false only beyond a few tokens or heads is not confirmed on small ones alone (the notes say the range);
#: at most what a certificate may hold (12 tokens, dimension 12, 8 heads: `headflow.certificates.kernel.format`).
TOKENS = (2, 3, 4, 5, 6, 8, 10, 12)
HEADS = (1, 2, 3, 4, 6, 8)
#: The share of draws from the small sizes (n <= 5, H <= 3, d <= 5), of which PLANAR_SHARE are planar: n in 3..5,
#: H in 2..3, d = 2 (or the least the head family allows): several heads on few tokens in a plane, the shape of the
#: witnesses of heads whose pulls at a token oppose each other, which the other draws meet too rarely.
SMALL_SHARE = 0.7
PLANAR_SHARE = 0.25
#: The share of draws of distinct scalar heads with very unequal strengths: head 0 in the lowest UNEQUAL_END of the
#: range of log lambda (`adversarial.log_strengths`), the others in its highest (a claim false only when the
#: strengths differ much); the other draws are log-uniform over the whole range, where the search moves them.
UNEQUAL_SHARE = 0.5
UNEQUAL_END = 0.25
#: A float violation nearer 0 than NOISE_BAND (relative margin) may be the rounding error of an exact zero (repeated
#: tokens, an equilibrium) or of a small true margin, largest where |beta| lambda is large: balls at the float data
#: (rounded to 1/NOISE_DENOMINATOR, at NOISE_PRECISION bits) decide whether it is one, for configurations where that
#: is cheap (n^2 d H <= NOISE_SIZE), at most NOISE_CHECKS times per search and only until a violation is known (one
#: beyond NOISE_BAND, or one they showed real); a violation they do not settle is neither a candidate nor evidence.
#: Soundness never rests on this: a witness is certified at its own exact data.
NOISE_BAND = 1e-5
NOISE_DENOMINATOR = 2**52
NOISE_PRECISION = 128
NOISE_SIZE = 400
NOISE_CHECKS = 32
#: At most this many doubtful margins of a search (`Doubts`) are decided by balls (the most doubtful first), at
#: configurations with n^2 d H <= DOUBT_SIZE: a search with more, or larger ones, leaves the claim INCONCLUSIVE.
DOUBT_CHECKS = 256
DOUBT_SIZE = 2000
#: A start's margin is clear of its rounding error when it exceeds CLEAR_FACTOR times its change at a rotated copy.
CLEAR_FACTOR = 8.0
#: Dimensions drawn above the least one (max(H, 2)).
EXTRA_DIMENSIONS = 4
#: The share of a bounded size range's draws at its largest drawable value (its end, when a certificate holds it).
TOP_SHARE = 0.25


def sizes_covered(claim: ModelClaim | None = None) -> str:
    """The sizes the search draws, for a CONFIRMED's notes (within the claim's ranges, when it states them)."""
    drawn = f"n in {sorted(set(TOKENS))}, H in {sorted(set(HEADS))}, d from max(H, 2) to max(H, 2) + {EXTRA_DIMENSIONS}"
    if claim is None or claim.sizes == Sizes():
        return drawn
    return f"{drawn}, kept within the claim's domain {sizes_text(claim.sizes)}"


def _size(rng: np.random.Generator, sizes: Sizes, name: str, choices: list[int]) -> int:
    """A size drawn from `choices` inside the claim's range, or from its lowest values when none of them is; a
    bounded range also fills the gaps between the choices and draws its largest value a TOP_SHARE of the time (its
    ends are drawn: `headflow.checks.claimsfile.model_reach`)."""
    low, high = sizes.low[name], sizes.high[name]
    if high is not None:
        choices = sorted(set(choices) | set(range(min(choices), max(choices) + 1)))
    inside = [c for c in choices if c >= low and (high is None or c <= high)]
    if inside and high is not None and rng.random() < TOP_SHARE:
        return max(inside)  # the range's end (or the largest drawn): where a claim false only past some size fails
    if inside:
        return int(rng.choice(inside))
    return int(rng.integers(low, min(low + 8, high if high is not None else low + 8) + 1))


def _beta(rng: np.random.Generator, sizes: Sizes) -> float:
    """beta drawn from [0.2, 3], or from the claim's range."""
    low, high, _, _ = sizes.beta
    lo = float(low) if low is not None else 0.2 if high is None or high > Fraction(1, 2) else float(high) / 10
    hi = float(high) if high is not None else max(3.0, 2 * lo)
    return float(rng.uniform(lo, hi))


def _bindings(free: frozenset[str], cfg: Configuration, first: bool = False) -> list[dict[str, int]]:
    """Every binding of the free indices; the token i only the first one when `first` (token = "first")."""
    names = sorted(free)
    sizes = {"i": 1 if first else cfg.n, "h": cfg.H}
    return [dict(zip(names, values, strict=True)) for values in product(*(range(sizes[k]) for k in names))]


@dataclass(frozen=True)
class Margin:
    """A relative margin of the relation at the token and head `where` (negative: violated), and the first-order
    bound of its rounding error on the same scale (`headflow.checks.evidence.float_error`)."""

    value: float
    where: tuple[int, ...]
    bound: float = 0.0

    def doubtful(self) -> bool:
        """Whether floats cannot tell its sign (within its error bound of 0), or it is a float violation (beyond it)
        too small for the search to take (above -VIOLATION): balls decide either (`_settle_doubts`)."""
        return self.value <= self.bound and (self.bound > 0 or self.value < 0)

    def doubt(self) -> float:
        """How doubtful: the margin in units of its bound (lowest first)."""
        return self.value / self.bound if self.bound > 0 else -np.inf


def margin(claim: ModelClaim, cfg: Configuration) -> tuple[Margin, Margin | None]:
    """The relation's relative margin at its worst token and head among those where the given conditions hold
    (`_given_holds`), index (i, h) as bound, Margin(1.0, ()) where they hold at none (not a test); and of the
    doubtful margins (`Margin.doubtful`) the most doubtful one (None: none is)."""
    algebra = float_algebra(cfg, ball_model.stated_delta(claim.hypotheses))
    held: dict[int | None, bool] = {}
    worst, doubt = Margin(np.inf, ()), None
    for binding in _bindings(claim.relation.free, cfg, claim.token == "first"):
        head = binding.get("h")
        if head not in held:
            held[head] = _given_holds(claim, algebra, cfg, head)
        if not held[head]:
            continue
        r = residual(claim.relation, algebra, binding)
        scale = 1.0 + abs(float(_side(claim, algebra, binding)))
        value = {"=": -abs(r), "<=": r, "<": r, ">=": -r, ">": -r}[claim.relation.op] / scale
        if not np.isfinite(value):
            continue
        found = Margin(float(value), tuple(binding.get(k, 0) for k in ("i", "h")), algebra.error(r) / scale)
        worst = min(worst, found, key=lambda m: m.value)
        if found.doubtful() and (doubt is None or found.doubt() < doubt.doubt()):
            doubt = found
    return (worst, doubt) if held and any(held.values()) else (Margin(1.0, ()), None)


def _given_holds(claim: ModelClaim, algebra: NumericAlgebra, cfg: Configuration, head: int | None) -> bool:
    """Whether every given condition holds (by GIVEN_SLACK) at every token, for the relation's head `head` or, when
    the relation names no head (None), at every head: the statement as printed and as `model_values.settle`
    checks a witness."""
    for condition in claim.given:
        for binding in _bindings(condition.free, cfg):
            if head is not None and binding.get("h", head) != head:
                continue
            gap = float(residual(condition, algebra, binding))
            if {"<=": gap, "<": gap, ">=": -gap, ">": -gap}[condition.op] < GIVEN_SLACK:
                return False
    return True


def _side(claim: ModelClaim, algebra: NumericAlgebra, binding: dict[str, int]) -> Any:
    return evaluate(claim.relation.lhs, algebra, binding.get("i"), binding.get("h"))


@dataclass(frozen=True)
class Draws:
    """The head family and value rule the hypotheses name (values: aligned W = M, identity W = I, symmetric positive
    definite, symmetric, or general)."""

    heads: str
    aligned: bool
    symmetric_values: bool
    values: str = "general"
    delta: float | None = None
    #: Every head alpha I with one alpha of either sign (`identical-heads`).
    identical: bool = False

    @staticmethod
    def of(hypotheses: tuple[str, ...]) -> Draws:
        wanted = set(hypotheses)
        bound = ball_model.stated_delta(hypotheses)
        heads = (
            "orthogonal-subspace"
            if "orthogonal-heads" in wanted
            else "scalar"
            if wanted & {"scalar-heads", "identical-heads"}
            else "approximately-orthogonal"  # |M_h M_g|_F <= delta: near-orthogonal heads, fixed while searching
            if bound is not None
            else "random-symmetric"
            if "symmetric-scores" in wanted
            else "random-general"
        )
        values = next((v for v in ("identity", "spd") if f"{v}-values" in wanted), "general")
        symmetric = "symmetric-values" in wanted or values != "general"
        delta = None if bound is None else float(bound)
        return Draws(heads, "aligned-values" in wanted, symmetric, values, delta, "identical-heads" in wanted)

    def value_matrices(self, M: np.ndarray, rng: np.random.Generator, options: dict[str, Any]) -> np.ndarray | None:
        """W: None for W = M, else the identity, a random SPD matrix (`families.value_matrices`), or a family's draw."""
        H, d = M.shape[0], M.shape[1]
        if self.aligned:
            return None
        if self.values != "general":
            return families.value_matrices(self.values, H, d, rng)
        family = "random-symmetric" if self.symmetric_values else "random-general"
        return families.draw_heads(family, H, d, rng, options)

    def admits(self, cfg: Configuration) -> bool:
        """Whether the float heads keep the stated delta (a draw of another family need not: not a test)."""
        return self.delta is None or families.max_cross_frobenius_norm(cfg.score_matrices) <= self.delta

    def draw(self, claim: ModelClaim, rng: np.random.Generator) -> Configuration:
        sizes = claim.sizes
        share = rng.random()
        if share < SMALL_SHARE * PLANAR_SHARE:
            n, H = _size(rng, sizes, "n", [3, 4, 5]), _size(rng, sizes, "H", [2, 3])
            d = _size(rng, sizes, "d", [max(2, HEAD_FAMILIES[self.heads].least_d(n, H))])
        elif share < SMALL_SHARE:  # the sizes where witnesses are most often found, and cheapest to certify
            n, H = _size(rng, sizes, "n", [2, 3, 4, 5]), _size(rng, sizes, "H", [1, 2, 3])
            d = _size(rng, sizes, "d", list(range(max(H, 2), 6)) or [max(H, 2)])
        else:
            n, H = _size(rng, sizes, "n", list(TOKENS)), _size(rng, sizes, "H", list(HEADS))
            d = _size(rng, sizes, "d", list(range(max(H, 2), max(H, 2) + EXTRA_DIMENSIONS + 1)))
        beta = _beta(rng, sizes) * (-1 if claim.beta_sign == "negative" else 1)
        options: dict[str, Any] = {"scale": 2.0, "lambdas": self.strengths(H, beta, rng)}
        M = self.heads_of(H, d, rng, options)
        W = self.value_matrices(M, rng, options)
        X = families.draw_tokens("random-sphere", n, d, rng, {})
        mask = claim_mask(claim.mask, claim.mask_rows, n)
        return Configuration.create(
            X,
            M,
            W,
            beta=beta,
            attention=claim.attention,
            geometry=claim.geometry,
            interaction=claim.interaction,
            mask=mask,
        )

    def strengths(self, H: int, beta: float, rng: np.random.Generator) -> list[float]:
        """Scalar strengths over the range the search moves them in at this beta (`adversarial.log_strengths`): one
        alpha of either sign for every head (`identical-heads`), else log-uniform, or very unequal (UNEQUAL_SHARE)."""
        low, high = adversarial.log_strengths(beta)
        if self.identical:
            return [float(rng.choice([-1.0, 1.0]) * np.exp(rng.uniform(low, high)))] * H
        logs = rng.uniform(low, high, size=H)
        if H >= 2 and rng.random() < UNEQUAL_SHARE:
            end = UNEQUAL_END * (high - low)
            logs[0], logs[1:] = low + end * rng.random(), high - end * rng.random(H - 1)
        return [float(v) for v in np.exp(logs)]

    def heads_of(self, H: int, d: int, rng: np.random.Generator, options: dict[str, Any]) -> np.ndarray:
        """Score matrices of the family; with a delta, max |M_h M_g|_F at a random share of delta (most near
        delta itself, where a claim false only at the boundary fails; never above it, so rounding keeps it)."""
        if self.heads != "approximately-orthogonal" or self.delta is None:
            return families.draw_heads(self.heads, H, d, rng, options)
        share = 1.0 - float(rng.choice([1e-3, 1e-2, 0.1, 0.5, 1.0])) * float(rng.uniform(0.0, 1.0))
        target = self.delta * min(share, 1.0 - 1e-4)
        free = families.draw_heads("random-symmetric", H, d, rng, options)
        if families.max_cross_frobenius_norm(free) <= target:  # a large delta: any symmetric heads keep it
            return free
        return families.approximately_orthogonal_heads(
            H, d, target, rng, options["scale"], norm=families.max_cross_frobenius_norm
        )


@dataclass
class SearchOutcome:
    """The float search's evidence, the certified witness (None when none was), and the bound of the worst margin's
    rounding error with the first margin within its bound that balls did not settle (`Doubts`; "" when none)."""

    evidence: dict[str, Any]
    worst: float
    certified: WitnessResult | None = None
    candidates: int = 0
    reasons: list[str] = field(default_factory=list)
    worst_bound: float = 0.0
    unsettled: str = ""


@dataclass
class Doubts:
    """The doubtful margins of a search (`Margin.doubtful`) that are no candidate violation (above -VIOLATION), the
    DOUBT_CHECKS most doubtful of them kept (`Margin.doubt`), for balls to decide."""

    kept: list[tuple[float, Configuration, Margin]] = field(default_factory=list)
    count: int = 0

    def add(self, cfg: Configuration, doubt: Margin) -> None:
        self.count += 1
        self.kept.append((doubt.doubt(), cfg, doubt))
        if len(self.kept) > 2 * DOUBT_CHECKS:
            self.kept.sort(key=lambda k: k[0])
            del self.kept[DOUBT_CHECKS:]

    def most_doubtful(self) -> list[tuple[float, Configuration, Margin]]:
        """The DOUBT_CHECKS most doubtful, most doubtful first."""
        return sorted(self.kept, key=lambda k: k[0])[:DOUBT_CHECKS]


def search_and_certify(claim: ModelClaim, ctx: Context, certify_as: ModelClaim | None = None) -> SearchOutcome:
    """The adversarial search for violations of the (universal) claim, then the certification of its best candidates
    as witnesses of `certify_as` (default: the claim itself; an existence claim whose universal negation `claim` is,
    so that its certificate embeds the existence claim); with no candidate, balls decide the margins within their
    float error bound (`_settle_doubts`)."""
    certified_claim = claim if certify_as is None else certify_as
    kernel = kernel_statement(claim)  # what balls settle a margin against, as check-cert does
    draws = Draws.of(claim.hypotheses)
    family = adversarial.Family.of(lambda r: draws.draw(claim, r), "random-sphere", draws.heads, draws.aligned)
    # `scalar-heads` is a statement for every lambda_h > 0: the strengths move too (identical heads, one alpha of
    # either sign, stay as drawn)
    if draws.heads == "scalar" and not draws.identical:
        family = dataclasses.replace(family, free_heads="scalar")
    family = dataclasses.replace(family, shapes=tuple(adversarial.EXTRA_SHAPES))
    budget = adversarial.BUDGETS["thorough" if ctx.thorough else "quick"]
    if claim.given:  # fewer draws satisfy the conditions: more starts, the same evaluation budget
        budget = dataclasses.replace(budget, starts=budget.starts * 2)
    tested = outside = checks = noise = 0
    violated = False  # a violation beyond its error bound, or one that balls showed real, was met: no more checks
    drawn: dict[str, set[float]] = {"n": set(), "d": set(), "H": set(), "beta": set()}  # where the claim was tested
    doubts, least = Doubts(), Margin(np.inf, ())

    def objective(cfg: Configuration) -> tuple[float, tuple[int, ...]]:
        nonlocal tested, outside, checks, noise, violated, least
        if not draws.admits(cfg):
            return 1.0, ()
        try:
            worst, doubt = margin(claim, cfg)
        except InputError:  # the float model leaves float64 here (an interaction's exp(s**8)): not a test
            outside += 1
            return 1.0, ()
        value, where = worst.value, worst.where
        if value < -adversarial.VIOLATION and -value <= max(worst.bound, NOISE_BAND):  # a violation within error
            if not violated and checks < NOISE_CHECKS and _small(cfg):
                checks += 1
                if _noise(kernel, _exact(cfg, draws, NOISE_DENOMINATOR), _at(claim, where)):
                    noise += 1
                    return 0.0, ()  # neither a violation nor a test: the float margin is within its rounding error
                violated = True
        else:
            violated = violated or value < -adversarial.VIOLATION
        if value >= -adversarial.VIOLATION and doubt is not None:
            doubts.add(cfg, doubt)
        tested += bool(where)  # an empty index: a given condition failed (or nothing was finite): not a test
        if where:
            least = min(least, worst, key=lambda m: m.value)
            for name, size in (("n", cfg.n), ("d", cfg.d), ("H", cfg.H), ("beta", float(cfg.beta))):
                drawn[name].add(size)
        return value, where

    def run(stop_at_clear: bool) -> adversarial.SearchResult:
        return adversarial.search(
            family, objective, budget, ctx.rng(claim.id), ctx.check_budget, stop_at_clear=stop_at_clear
        )

    for result in adversarial.until_certified(run):
        evidence = {"tested": tested, "outside_float64": outside, "noise_checks": checks, "noise": noise}
        evidence["drawn"] = {k: sorted(v) for k, v in drawn.items() if k != "beta"}
        evidence["drawn"]["beta"] = [min(drawn["beta"]), max(drawn["beta"])] if drawn["beta"] else []
        found = [f for f in result.candidates if f.margin < -adversarial.VIOLATION]
        if not found:  # the evidence of a CONFIRMED: how many starts' margins clear their rounding error
            sampled, clear = _clear_starts(claim, result.starts_found, ctx.rng(f"{claim.id}|rounding"))
            evidence |= {"starts_tested": sampled, "starts_clear": clear, "within_bound": doubts.count}
        out = SearchOutcome(result.evidence() | evidence, result.worst, worst_bound=least.bound)
        out.candidates = len(found)
        if not found:
            _settle_doubts(kernel, certified_claim, doubts, draws, ctx, out)
            return out
        out.certified, out.reasons = _certified_witness(certified_claim, claim, found, draws, ctx)
        if out.certified is not None:
            return out
    return out


def _certified_witness(
    certified_claim: ModelClaim, claim: ModelClaim, found: list[adversarial.Found], draws: Draws, ctx: Context
) -> tuple[WitnessResult | None, list[str]]:
    """The first of the search's violations that, rounded to exact data, certifies as a witness of `certified_claim`
    (None if none does), and each failed attempt's reason."""
    statement, fields, reasons = statement_data(certified_claim), embedded(certified_claim), []
    for candidate in found[:CANDIDATES_TRIED]:
        ctx.check_budget()
        for denominator in (2**12, 2**20):
            exact, at = _exact(candidate.cfg, draws, denominator), _at(claim, candidate.index)
            attempt = certify_model_witness(statement, exact, at, certificate_directory(ctx.certificate_dir), fields)
            if attempt.verified:
                return attempt, reasons
            reasons.append(attempt.reason)
    return None, reasons


def _settle_doubts(
    claim: ModelStatement, certified_claim: ModelClaim, doubts: Doubts, draws: Draws, ctx: Context, out: SearchOutcome
) -> None:
    """Balls decide the margins within their float error bound, least certain first, at exact data within 2^-52 of
    the float configuration (NOISE_PRECISION bits): a negation they settle is certified as a witness there
    (`out.certified`); one with the claim's sign, or 0 to that precision, is settled; the first they cannot decide
    (the data too large for balls here, the exact data off the hypotheses, or past DOUBT_CHECKS) is `out.unsettled`."""
    kept = doubts.most_doubtful()
    for k, (_, cfg, doubt) in enumerate(kept):
        ctx.check_budget()
        at = _at(claim, doubt.where)
        if _small(cfg, DOUBT_SIZE):
            exact = _exact(cfg, draws, NOISE_DENOMINATOR)
            with precision(NOISE_PRECISION):
                settled = settle(claim, exact, at)
            if settled.sign:
                attempt = certify_model_witness(
                    statement_data(certified_claim),
                    exact,
                    at,
                    certificate_directory(ctx.certificate_dir),
                    embedded(certified_claim),
                )
                if attempt.verified:
                    out.certified = attempt
                    return
            elif not settled.failures:
                continue
        side = "within" if doubt.value >= -doubt.bound else "beyond"
        out.unsettled = f"margin {doubt.value:.3g} {side} its float error bound {doubt.bound:.3g} at {_place(cfg, at)}"
        out.evidence["within_bound_settled"] = k
        return
    out.evidence["within_bound_settled"] = len(kept)
    if doubts.count > len(kept):
        out.unsettled = (
            f"{doubts.count} margins within their float error bound (or violations below {adversarial.VIOLATION:g}), "
            f"only the {len(kept)} most doubtful decided by balls"
        )


def _place(cfg: Configuration, at: dict[str, int]) -> str:
    """Where a margin was found, for a reason: the sizes, beta and the token and head."""
    index = "".join(f", {k} = {v}" for k, v in at.items())
    return f"n = {cfg.n}, d = {cfg.d}, H = {cfg.H}, beta = {float(cfg.beta):.4g}{index}"


def _clear_starts(claim: ModelClaim, starts: list[adversarial.Found], rng: np.random.Generator) -> tuple[int, int]:
    """How many starts were tests (their given conditions held), and of those how many have a margin clear of its
    rounding error: positive and more than CLEAR_FACTOR times its change at a randomly rotated copy, which the exact
    model gives the same value (every model term is invariant under x -> R^T x, M, W -> R^T M R, R^T W R) and the
    floats round differently. An equality's tests are all clear (its float evidence is a residual near 0)."""
    tests = [f for f in starts if f.index]
    if claim.relation.op == "=":
        return len(tests), len(tests)
    clear = 0
    for found in tests:
        if found.margin <= 0:
            continue
        with np.errstate(all="ignore"):
            try:
                again = margin(claim, _rotated(found.cfg, rng))[0].value
            except InputError:
                continue
        clear += bool(found.margin > CLEAR_FACTOR * abs(found.margin - again))
    return len(tests), clear


def _rotated(cfg: Configuration, rng: np.random.Generator) -> Configuration:
    """The configuration turned by a random rotation R: tokens x R, heads and values R^T M R (W = M kept)."""
    R = families.random_rotation(cfg.d, rng)
    M = R.T @ cfg.score_matrices @ R
    W = M if np.array_equal(cfg.values, cfg.score_matrices) else R.T @ cfg.values @ R
    return dataclasses.replace(cfg, tokens=cfg.tokens @ R, score_matrices=M, values=W)


def _exact(cfg: Configuration, draws: Draws, denominator: int) -> ball_model.ExactConfiguration:
    """Exact data within 1/denominator of a float configuration, with the hypotheses of the draws kept exactly."""
    return round_configuration(
        cfg.tokens,
        cfg.score_matrices,
        cfg.score_matrices if draws.aligned else cfg.values,
        cfg.beta,
        denominator,
        symmetric=draws.heads != "random-general",
        geometry=cfg.geometry,
        attention=cfg.attention,
        symmetric_values=draws.symmetric_values,
        mask=cfg.mask,
        interaction=cfg.interaction,
    )


def _at(claim: ModelClaim | ModelStatement, index: tuple[int, ...]) -> dict[str, int]:
    """The token and head of a margin's index (i, h) that the claim's relation leaves free."""
    return {k: v for k, v in zip(("i", "h"), index, strict=False) if k in claim.relation.free}


def _small(cfg: Configuration, size: int = NOISE_SIZE) -> bool:
    """Whether a ball evaluation of the claim at `cfg` is cheap (its cost grows as n^2 d H, at most `size`)."""
    return cfg.n**2 * cfg.d * cfg.H <= size


def _noise(claim: ModelStatement, exact: ball_model.ExactConfiguration, at: dict[str, int]) -> bool:
    """Whether balls at the float data show that a near-zero float violation is rounding error: they do not settle
    the negation there (the exact residual has the claim's sign, or is 0 to NOISE_PRECISION bits). When the data
    fail the claim's hypotheses or conditions exactly, balls say nothing, and the float margin stands."""
    with precision(NOISE_PRECISION):
        settled = settle(claim, exact, at)
    return not settled.failures and not settled.sign


def certified_outcome(
    found: SearchOutcome, verdict: Verdict, method: str, details: dict[str, Any], notes: str = ""
) -> Outcome:
    """The outcome a certified witness of the search settles: REFUTED for a universal claim's counterexample,
    CERTIFIED for an existence claim's instance; the witness as reports show it, and its certificate."""
    assert found.certified is not None
    witness = _witness_record(found.certified, found.worst)
    certificates = [str(found.certified.path)]
    return Outcome(verdict, method, witness=witness, certificates=certificates, notes=notes, details=details)


def _witness_record(result: WitnessResult, worst: float) -> dict[str, Any]:
    """The witness as reports show it."""
    cfg = result.record["configuration"]
    return {
        "verified_by": "ball",
        "n": len(cfg["tokens"]),
        "d": len(cfg["tokens"][0]),
        "H": len(cfg["scores"]),
        "beta": cfg["beta"],
        "at": result.record["at"],
        "rhs_minus_lhs": result.values[0],
        "relation": f"rhs - lhs {result.record['relation']} 0",
        "float_relative_margin": worst,
    }
