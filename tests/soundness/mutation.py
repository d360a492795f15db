"""What a mutant is and how one is decided: wrong (and a few right) variants of the paper's claims.

Each mutant restates one paper claim with one change (a constant, a sign, an exponent, a
coefficient, a dropped hypothesis, a widened domain) and hands the mutated statement to the
*deciding code itself* (the provers take the claimed right-hand side, SMT statements are data,
covers take their box, the numeric checks take a coefficient or a head family, the certificate
verifier takes a file). `registry()` declares every mutant as a claim of a private Registry, so
it is run by `headflow.checks.runner.run_claim` exactly like a paper claim.

A false mutant must come out REFUTED or INCONCLUSIVE ("killed"); a true variant must never come
out REFUTED, and those marked `accept` must come out true (so a kill is due to the mutation, not
to a harness that rejects everything). The truth of each mutant is worked out in its description.
The mutants themselves sit next to the tests of what they mutate (`tests/checks/theorems/<topic>_mutants.py`,
`tests/checks/claimsfile/mutants.py`, `tests/checks/constants/mutants.py`, `tests/certificates/mutants.py`);
`tests/soundness/mutants.py` gathers them into one table.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp
from headflow.certificates.provers.intervals import certify_cover, prove, prove_inequality
from headflow.certificates.provers.witness import certify_point
from headflow.certificates.store import certificate_directory
from headflow.checks.registry import Context, Registry
from headflow.checks.verdicts import Outcome, Step, Verdict, derived

Decide = Callable[[Context], Outcome]
#: The box budget of a mutant's ball cover: a count, so a mutant's verdict does not depend on the machine.
COVER_BOXES = 20_000


@dataclass(frozen=True)
class Mutant:
    """One mutated statement, its truth, whether the suite requires it to be killed, and its decider."""

    id: str
    claim: str
    description: str
    true: bool
    decide: Decide
    required: bool = True
    slow: bool = False
    accept: bool = False


# ---------------------------------------------------------------- deciders built from the real procedures

METHOD = "soundness mutant"


def symbolic(build: Callable[[], object]) -> Decide:
    """A prover called with a mutated right-hand side; its Derivation (or Proof) decides."""

    def decide(ctx: Context) -> Outcome:
        result = build()
        derivation = getattr(result, "derivation", result)
        return derived(derivation, METHOD)

    return decide


def cover(
    expression: sp.Expr | sp.Rel, domain: dict[sp.Symbol, tuple[Fraction, Fraction]], relation: str = ""
) -> Decide:
    """A ball cover of `expression relation 0` (or of an inequality) over a box: proved -> CERTIFIED with its
    certificate; an exact point where the ball fails -> REFUTED (ball); box budget -> INCONCLUSIVE (no time budget)."""

    def decide(ctx: Context) -> Outcome:
        if relation:
            result = prove(expression, relation, domain, max_boxes=COVER_BOXES)
        else:
            result = prove_inequality(expression, domain, max_boxes=COVER_BOXES)  # type: ignore[arg-type]
        if result.status == "proved":
            path = certify_cover(result, ctx.claim_id, certificate_directory(ctx.certificate_dir))
            return Outcome(Verdict.CERTIFIED, "ball cover", certificates=[str(path)], steps=[Step("cover")])
        if result.status == "counterexample":
            return Outcome(Verdict.REFUTED, "ball cover", witness={"verified_by": "ball", "point": result.point})
        return Outcome(Verdict.INCONCLUSIVE, "ball cover", notes=result.reason)

    return decide


def point_witness(conditions: list[tuple[str, sp.Expr, str]], point: dict[sp.Symbol, Fraction]) -> Decide:
    """certificates.provers.witness.certify_point: CERTIFIED when the balls settle every condition at the point."""

    def decide(ctx: Context) -> Outcome:
        result = certify_point(ctx.claim_id, conditions, point, certificate_directory(ctx.certificate_dir))
        if result.verified:
            return Outcome(Verdict.CERTIFIED, "point witness", certificates=[str(result.path)])
        return Outcome(Verdict.INCONCLUSIVE, "point witness", notes=result.reason)

    return decide


def thorough(mutants: list[Mutant]) -> list[Mutant]:
    """Slow copies of `mutants` decided with the thorough profile."""
    return [
        Mutant(
            f"{m.id}-thorough",
            m.claim,
            f"{m.description} [thorough profile]",
            m.true,
            (lambda decide: lambda ctx: decide(dataclasses.replace(ctx, profile="thorough")))(m.decide),
            m.required,
            True,
            m.accept,
        )
        for m in mutants
    ]


def registry(mutants: list[Mutant]) -> Registry:
    """A private registry with one claim `mutant.<id>` per mutant, its decider as procedure `mutated`."""
    reg = Registry()
    for m in mutants:
        reg.declare(f"mutant.{m.id}", m.description, f"{m.claim}, mutated: {m.description}")
        reg.procedure(f"mutant.{m.id}", "mutated")(m.decide)
    return reg


def killed(verdict: Verdict) -> bool:
    """A false mutant is killed when it is not accepted as true (REFUTED or INCONCLUSIVE)."""
    return verdict in (Verdict.REFUTED, Verdict.INCONCLUSIVE)


def accepted(verdict: Verdict) -> bool:
    return verdict in (Verdict.PROVED, Verdict.CERTIFIED, Verdict.CONFIRMED)
