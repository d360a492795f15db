"""The one claim registry: claims (SPEC ids, statements) and the procedures that decide them.

Each theorem module of `headflow.checks.theorems` declares its claims (statements and readings), the figures
that illustrate them and its procedures here; `load_all` imports the modules listed in THEOREMS, in
the order the report shows them. A claim is declared once; any number of procedures (symbolic, SMT,
interval, numerical) may be attached to it. A procedure that is a single derivation (`derived(prove(),
METHOD)`) is registered from a table (`Registry.derivations`) instead of being written out.
"""

from __future__ import annotations

import fnmatch
import hashlib
import importlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from headflow.certificates.errors import BudgetExceeded, InputError
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.provers import equiangular, gram_identities
from headflow.certificates.statements.equiangular import REGISTRY_CLAIMS
from headflow.certificates.store import certificate_directory
from headflow.checks.choices import MAX_SEED, PROFILES
from headflow.checks.verdicts import Outcome, Verdict, derived
from headflow.identities.derivation import Derivation

#: The theorem modules of `headflow.checks.theorems`, in report order.
THEOREMS = (
    "projection",
    "t11_energy",
    "t12_value_misalignment",
    "t16_flat_orthogonal",
    "t17_radial_shadow",
    "c8_radial_dominance",
    "t39_approximate_orthogonality",
    "t19_threshold",
    "c8_invariance",
    "t22_clustering_rates",
    "t25_clustering_time",
    "t27_entropy",
    "critical_points",
)


@dataclass
class Context:
    """What a procedure may use: the profile, a seed, a folder for certificates, a deadline."""

    profile: str = "quick"
    seed: int = 0
    certificate_dir: Path | None = None
    deadline: float | None = None
    claim_id: str = ""
    #: Where a long procedure reports its counted budget (`report`): the progress display's, or None (no display).
    progress: Callable[[str, int, int], None] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.profile not in PROFILES:
            raise InputError("profile", self.profile, f"expected one of {', '.join(PROFILES)}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or not 0 <= self.seed <= MAX_SEED:
            raise InputError("seed", self.seed, f"must be an integer from 0 to {MAX_SEED}")
        if self.deadline is not None and not (isinstance(self.deadline, int | float) and math.isfinite(self.deadline)):
            raise InputError("deadline", self.deadline, "must be None or a finite time.monotonic() value")

    @property
    def thorough(self) -> bool:
        return self.profile == "thorough"

    def rng(self, salt: str = "") -> np.random.Generator:
        """A generator determined by the seed, the claim id and `salt` (stable across runs)."""
        digest = hashlib.sha256(f"{self.claim_id}|{salt}".encode()).digest()
        return np.random.default_rng([self.seed, int.from_bytes(digest[:8], "little")])

    def seconds_left(self) -> float:
        return float("inf") if self.deadline is None else self.deadline - time.monotonic()

    def report(self, unit: str, done: int, total: int) -> None:
        """Tell the progress display that `done` of the `total` counted `unit`s (starts, points) are spent; display
        only: nothing decided depends on it."""
        if self.progress is not None:
            self.progress(unit, done, total)

    def check_budget(self) -> None:
        """Raise BudgetExceeded once the deadline has passed (procedures call this in loops)."""
        if self.seconds_left() <= 0:
            raise BudgetExceeded("time budget exhausted")


Procedure = Callable[[Context], Outcome]
#: A figure builder: draws one figure (a matplotlib Figure) when the report asks for it, never at import.
FigureBuilder = Callable[[], Any]
#: One row of a derivation table: claim id, the proof (a function returning a Derivation), the method text.
DerivationRow = tuple[str, Callable[[], Derivation], str]


@dataclass
class Claim:
    """A claim of SPEC section 2 (or a reading of one): id, title, precise statement."""

    id: str
    title: str
    statement: str
    procedures: list[tuple[str, Procedure]] = field(default_factory=list)
    #: The names of its procedures that write a certificate although their name is no certifying kind's (`headflow
    #: certify` runs them too): a derivation whose identities the kernel re-derives (`derivations`).
    certifying: set[str] = field(default_factory=set)
    #: The figures that illustrate the claim in the report: (title, builder), in order.
    figures: list[tuple[str, FigureBuilder]] = field(default_factory=list)


class Registry:
    """Claims by id, in declaration order."""

    def __init__(self) -> None:
        self._claims: dict[str, Claim] = {}

    def declare(self, claim_id: str, title: str, statement: str) -> Claim:
        """Declare a claim; declaring the same id twice is an error unless the text is identical."""
        existing = self._claims.get(claim_id)
        if existing is not None:
            if (existing.title, existing.statement) != (title, statement):
                raise ValueError(f"claim {claim_id} declared twice with different text")
            return existing
        claim = Claim(claim_id, title, statement)
        self._claims[claim_id] = claim
        return claim

    def declare_all(self, statements: tuple[tuple[str, str, str], ...]) -> None:
        """Declare every (id, title, statement) of a theorem module, in order."""
        for claim_id, title, statement in statements:
            self.declare(claim_id, title, statement)

    def procedure(self, claim_id: str, name: str, certifies: bool = False) -> Callable[[Procedure], Procedure]:
        """Decorator attaching a decision procedure called `name` to a declared claim; `certifies`: it writes a
        certificate although `name` is no certifying kind's (`Claim.certifying`)."""

        def attach(function: Procedure) -> Procedure:
            claim = self.get(claim_id)
            if any(existing == name for existing, _ in claim.procedures):
                raise ValueError(f"claim {claim_id} already has a procedure named {name}")
            claim.procedures.append((name, function))
            if certifies:
                claim.certifying.add(name)
            return function

        return attach

    def derivations(self, home: str, rows: tuple[DerivationRow, ...], name: str = "symbolic") -> None:
        """Attach, for each (claim id, prove, method), the procedure `derived(prove(), method)` called `name`,
        certifying when the kernel re-derives the claim's identities (`gram_identities.has_certificate`: it writes
        their `gram` certificate) or checks its `equiangular` statement (`REGISTRY_CLAIMS`).

        `home` is the theorem module's `__name__`: the procedure counts as that module's (it is the claim's
        one home), although the function is made here.
        """
        for claim_id, prove, method in rows:
            certifies = gram_identities.has_certificate(claim_id) or claim_id in REGISTRY_CLAIMS
            self.procedure(claim_id, name, certifies)(_derivation_procedure(claim_id, prove, method, home))

    def figure(self, claim_id: str, title: str) -> Callable[[FigureBuilder], FigureBuilder]:
        """Decorator declaring a figure of a declared claim: `title` and the function that draws it."""

        claim = self.get(claim_id)

        def attach(builder: FigureBuilder) -> FigureBuilder:
            claim.figures.append((title, builder))
            return builder

        return attach

    def arrange(self, homes: list[str]) -> None:
        """Order the claims by their home module's place in `homes` (the module of their procedures), each
        module's claims in their order of declaration; claims of no such module keep their order, after them."""
        rank = {home: place for place, home in enumerate(homes)}

        def place(claim: Claim) -> int:
            return min(
                (rank.get(function.__module__, len(rank)) for _, function in claim.procedures), default=len(rank)
            )

        self._claims = {claim.id: claim for claim in sorted(self._claims.values(), key=place)}

    def get(self, claim_id: str) -> Claim:
        try:
            return self._claims[claim_id]
        except KeyError:
            raise InputError("claim", claim_id, "no such claim in the registry") from None

    def claims(self) -> list[Claim]:
        """Claims in declaration order, each reading placed right after the claim it refines."""
        order = {claim_id: position for position, claim_id in enumerate(self._claims)}

        def family(claim_id: str) -> tuple[int, ...]:
            parts = claim_id.split(".")
            prefixes = [".".join(parts[:k]) for k in range(1, len(parts) + 1)]
            return tuple(order[p] for p in prefixes if p in order)

        return sorted(self._claims.values(), key=lambda claim: family(claim.id))

    def select(self, pattern: str | None) -> list[Claim]:
        """Claims whose id matches the glob (all when None); a glob matching none is an error."""
        if pattern is None:
            return self.claims()
        patterns = [p.strip() for p in pattern.split(",") if p.strip()]
        chosen = [c for c in self.claims() if any(fnmatch.fnmatchcase(c.id, p) for p in patterns)]
        if not chosen:
            raise InputError("--only", pattern, "matches no claim id")
        return chosen


def _derivation_procedure(claim_id: str, prove: Callable[[], Derivation], method: str, home: str) -> Procedure:
    """The procedure `derived(prove(), method)`, owned by the module `home`; a PROVED claim whose identities the kernel
    re-derives (`certificates.provers.gram_identities`) also gets that certificate, and a kernel that does not accept
    it turns the verdict INCONCLUSIVE (SymPy and the kernel disagree: neither is taken)."""

    def procedure(ctx: Context) -> Outcome:
        outcome, directory = derived(prove(), method), certificate_directory(ctx.certificate_dir)
        if outcome.verdict is Verdict.PROVED and claim_id in REGISTRY_CLAIMS:  # an equiangular statement
            path = equiangular.certify_registry(claim_id, directory)
            if path is None:
                return Outcome(Verdict.INCONCLUSIVE, method, notes="the kernel rejected the equiangular statement")
            outcome.certificates = [str(path)]
        if outcome.verdict is not Verdict.PROVED or not gram_identities.has_certificate(claim_id):
            return outcome
        try:
            outcome.certificates = [str(gram_identities.certify(claim_id, directory))]
        except Rejected as error:
            return Outcome(Verdict.INCONCLUSIVE, method, notes=f"the kernel rejected the identities: {error}")
        return outcome

    procedure.__module__ = home
    procedure.__qualname__ = f"derived[{getattr(prove, '__name__', 'proof')}]"
    return procedure


REGISTRY = Registry()


def load_all() -> Registry:
    """Import every theorem module, so that all claims are declared and all procedures attached, and put the claims
    in report order: THEOREMS' order, each module's claims in their order of declaration (whichever module an
    earlier import declared first)."""
    for name in THEOREMS:
        importlib.import_module(f"headflow.checks.theorems.{name}")
    REGISTRY.arrange([f"headflow.checks.theorems.{name}" for name in THEOREMS])
    return REGISTRY
