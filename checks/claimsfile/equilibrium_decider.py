"""Deciding an `equilibrium` claim: a token regime is a critical point, or an equilibrium with a stated spectrum.

- critical-point, symbolically: where a Gram-algebra proof of `identities.critical_points` covers the regime and
  heads (all tokens equal or an antipodal split under heads whose value matrices share the token as an eigenvector;
  equiangular tokens under scalar heads, whose proof closes exactly when sum_j x_j = 0, rho = -1/(n-1)), PROVED for
  every n, d, H, beta and kind at once. Otherwise, or when that proof does not close, instance by instance: every
  velocity decided exactly (`certificates.kernel.equilibrium_statements.moving_token` on the regime's block Gram
  matrices, `headflow.certificates.statements.equilibrium.statement_at`); a moving instance
  REFUTES with a witness certificate, a finite domain at rest everywhere is PROVED by that exact computation.
- a spectrum (stable, unstable, index k, hyperbolic), instance by instance: the regime's tokens (from its exact
  Gram matrix, or its coordinates) go through the registry's certification (`checks.evidence.equilibria.certify`:
  Krawczyk existence in a symmetry slice, Gershgorin discs of the projected Jacobian P J P, the rotation and normal
  zeros removed);
  the certificate is kept only when the kernel finds it to be the regime at the instance
  (`equilibrium_statements.structure_failure`) and reads its exact data (`equilibrium.problem_of`: a certificate it
  refuses leaves the instance undecided, the prover's counts in the reason). CERTIFIED when every
  instance of a finite domain shows the property, REFUTED by one certificate that contradicts it.
  `tokens = "found"` certifies instead every class a seeded search finds (structured candidates, random starts).
- an unbounded domain (n or d without an end, every beta > 0, every H and strengths) is sampled adversarially
  (`_domain`): the least sizes and the largest exact ones, the n where an equiangular rho leaves the simplex angle,
  one more dimension for a spectrum, small and large beta, negative strengths; an instance that contradicts the claim
  REFUTES it, and otherwise the claim is INCONCLUSIVE with what was not searched to its end (never CONFIRMED:
  finitely many instances say nothing of the others).
"""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from headflow.certificates.claims import equilibrium_claim as ec
from headflow.certificates.claims import regimes
from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.evaluation import EvaluationError, ball
from headflow.certificates.claims.regimes import FOUND
from headflow.certificates.claims.schema import EquilibriumClaim
from headflow.certificates.kernel import equilibrium as kernel_equilibrium
from headflow.certificates.kernel import equilibrium_statements as kernel
from headflow.certificates.kernel.circulant import FORM as CIRCULANT
from headflow.certificates.kernel.exprtree import exact_rational
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.provers import gram_identities
from headflow.certificates.statements.equilibrium import circulant_statement, instance_record, on_circle, statement_at
from headflow.certificates.store import certificate_directory, write_accepted, write_certificate
from headflow.checks.evidence import equilibria
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome, Verdict, derived
from headflow.identities import circle_spectrum
from headflow.identities import critical_points as proofs
from headflow.identities.derivation import Derivation

SYMBOLIC = "symbolic: the tangent velocity vanishes in dimension-free Gram algebra (SymPy, exact zero tests)"
EXACT = "exact: every velocity in exponential polynomials (python-flint rationals)"
SPECTRUM = "Krawczyk in a symmetry slice + Gershgorin spectrum of the projected Jacobian (python-flint balls)"
#: Bits of the balls that sign the circulant eigenvalues.
CIRCLE_BITS = 256
CIRCLE = "exact: the circulant Jacobian of the phase form at equally spaced angles (SymPy), its signs by balls"
#: Random starts of the `found` search per instance, by profile (the registry's `critical-points` counts).
STARTS = {"quick": 8, "thorough": 40}
#: Sizes sampled above the least n of an unbounded range.
SAMPLED_SIZES = 3
#: Head strengths tried where a claim leaves them free (every H and every non-zero strengths): one and two positive
#: heads, then a negative head alone and against a positive one (a negative strength repels: stability turns there).
FREE_STRENGTHS = ((Fraction(1),), (Fraction(1), Fraction(1, 2)), (Fraction(-1),), (Fraction(1), Fraction(-1, 2)))
#: beta tried where a claim leaves it free (every beta > 0): 1 at every instance, small and large at the least n.
FREE_BETAS = (Fraction(1), Fraction(1, 8), Fraction(8))


def describe(claim: EquilibriumClaim, inst: regimes.Instance) -> str:
    """The instance in words, for reports."""
    strengths = (inst.strengths, claim.value_strengths or inst.strengths)
    lams, nus = (", ".join(map(str, values)) for values in strengths)
    split = f", split {inst.split[0]}+{inst.split[1]}" if inst.split else ""
    heads = f"{_heads(claim)} heads lambda = ({lams})" + ("" if nus == lams else f", nu = ({nus})")
    return f"n = {inst.n}, d = {inst.d}{split}, {inst.attention}, beta = {inst.beta}, {heads}"


def decide_equilibrium(claim: EquilibriumClaim, ctx: Context) -> Outcome:
    """The verdict of one equilibrium claim (module docstring)."""
    if claim.property == "critical-point":
        proved = _symbolic(claim)
        if proved is not None and proved.verdict is Verdict.PROVED:
            return _with_lemma_certificate(claim, proved, ctx)
        return _critical_instances(claim, ctx, proved)
    return _spectral(claim, ctx)


def _symbolic(claim: EquilibriumClaim) -> Outcome | None:
    """The Gram-algebra proof covering the regime and heads (None: none covers them)."""
    if claim.regime in ("single-cluster", "antipodal") and claim.heads in ("scalar", "eigenvector"):
        prove = proofs.prove_single_cluster if claim.regime == "single-cluster" else proofs.prove_antipodal
        return derived(prove(), SYMBOLIC)
    if claim.regime in ("simplex", "equiangular") and claim.heads == "scalar":
        rho = None if claim.regime == "simplex" else claim.rho.subs(ec.N, proofs.n)
        return derived(proofs.prove_simplex(rho), SYMBOLIC)
    return None


#: The registry statement each regime's Gram proof is an instance of: its `gram` certificate (the kernel re-derives
#: the identities for every kind, n, d, H and beta of those heads) certifies the claim too.
REGISTRY_LEMMAS = {
    "single-cluster": "critical-points.single-cluster",
    "antipodal": "critical-points.antipodal",
    "simplex": "critical-points.simplex",
}


def _registry_lemma(claim: EquilibriumClaim) -> str | None:
    """The registry statement the claim's regime is an instance of: an equiangular rho that is, as written, the
    simplex's -1/(n - 1) (the same expression, compared structurally: never a zero test) is the simplex."""
    if claim.regime == "equiangular" and claim.rho.subs(ec.N, proofs.n) == proofs.SIMPLEX_RHO:
        return REGISTRY_LEMMAS["simplex"]
    return REGISTRY_LEMMAS.get(claim.regime)


def _with_lemma_certificate(claim: EquilibriumClaim, proved: Outcome, ctx: Context) -> Outcome:
    """The proof with the `gram` certificate of the registry statement it is an instance of (single cluster,
    antipodal split, simplex, an equiangular rho written as the simplex's; none for another rho), as the registry's
    route writes it; INCONCLUSIVE when the kernel does not accept the identities (SymPy and the kernel disagree:
    neither is taken)."""
    lemma = _registry_lemma(claim)
    if lemma is None or not gram_identities.has_certificate(lemma):
        return proved
    try:
        path = gram_identities.certify(lemma, certificate_directory(ctx.certificate_dir))
    except Rejected as error:
        return Outcome(Verdict.INCONCLUSIVE, SYMBOLIC, notes=f"the kernel rejected the identities: {error}")
    note = (
        f"certificate: the registry statement {lemma} (every kind, n, d, H, beta), of which this claim is an instance"
    )
    notes = "; ".join(text for text in (proved.notes, note) if text)
    return dataclasses.replace(proved, certificates=[str(path)], notes=notes)


def _domain(claim: EquilibriumClaim) -> tuple[list[regimes.Instance], bool]:
    """The instances to decide and whether they are the whole domain (else an adversarial sample of an unbounded
    one: `_sampled_sizes`, every d where a spectrum may differ, FREE_BETAS and FREE_STRENGTHS where they are free)."""
    if ec.finite(claim):
        return ec.instances(claim), True
    out = []
    betas = [claim.beta] if claim.beta is not None else list(FREE_BETAS)
    families = [claim.strengths] if claim.strengths else list(FREE_STRENGTHS)
    for n in _sampled_sizes(claim):
        least = ec.least_dimension(claim, n)
        d_low, d_high = claim.d_range
        if least is None or (d_high is not None and max(least, d_low) > d_high):
            continue
        first = max(least, d_low)
        # a spectrum has directions off the tokens' span only when d exceeds it: one more dimension shows them
        dims = [first] + ([first + 1] if claim.property in regimes.SPECTRAL and (d_high or first + 1) > first else [])
        for d in dims:
            if claim.property in regimes.SPECTRAL and n * (d - 1) > ec.MAX_TANGENT:
                continue
            for beta in betas if n == claim.n_range[0] else betas[:1]:
                for attention, strengths in itertools.product(claim.attentions, families):
                    for split in regimes.splits(claim, n):
                        out.append(regimes.Instance(n, d, attention, beta, tuple(strengths), split))
    return out, False


def _sampled_sizes(claim: EquilibriumClaim) -> list[int]:
    """The n sampled from an unbounded domain: the least SAMPLED_SIZES + 1, the range's end or, for a critical point,
    the largest n decided exactly, and for equiangular tokens the first n where rho is not -1/(n-1) (where the
    tokens do not sum to 0, the one configuration where the symbolic proof closes)."""
    low, high = claim.n_range
    top = min(high or ec.MAX_EXACT_TOKENS, ec.MAX_EXACT_TOKENS)
    sizes = list(range(low, min(top, low + SAMPLED_SIZES) + 1))
    if claim.property == "critical-point" or high is not None:
        sizes.append(top)
    if claim.regime == "equiangular":
        rho = (exact_rational(claim.rho_tree, {"n": Fraction(n)}) for n in range(low, top + 1))
        off = (n for n, value in zip(range(low, top + 1), rho, strict=True) if value != Fraction(-1, n - 1))
        sizes.append(next(off, low))
    return sorted(set(n for n in sizes if low <= n <= top))


def _unsearched(claim: EquilibriumClaim) -> str:
    """What of an unbounded domain the sampled instances do not reach (the reason it stays undecided)."""
    (n_low, n_high), (d_low, d_high) = claim.n_range, claim.d_range
    ends = [
        f"n in [{n_low}, oo) (instances up to n = {ec.MAX_EXACT_TOKENS})" if n_high is None else "",
        f"d in [{d_low}, oo)" if d_high is None else "",
        "every beta > 0" if claim.beta is None else "",
        "every H and strengths" if claim.strengths is None else "",
    ]
    return f"the domain is unbounded ({', '.join(e for e in ends if e)}): sampled instances do not decide it"


def _critical_instances(claim: EquilibriumClaim, ctx: Context, symbolic: Outcome | None) -> Outcome:
    why = f" ({symbolic.notes})" if symbolic is not None else ""
    if claim.heads == "eigenvector":
        return Outcome(Verdict.INCONCLUSIVE, SYMBOLIC, notes=f"heads with a common eigenvector have no instances{why}")
    instances, whole = _domain(claim)
    if not instances:
        return Outcome(Verdict.INCONCLUSIVE, EXACT, notes=f"no instance small enough to decide exactly{why}")
    decided = []
    for inst in instances:
        try:
            token = kernel.moving_token(kernel.statement_of(statement_at(claim, inst, None)))
        except ValueError as exc:
            return Outcome(Verdict.INCONCLUSIVE, EXACT, notes=f"{describe(claim, inst)}: {exc}")
        if token is not None:
            payload = {"witness": kernel.MOVING, "instance": instance_record(inst)}
            path = _write(ctx, claim, "witness", payload)
            return Outcome(
                Verdict.REFUTED,
                EXACT,
                witness={
                    "verified_by": "exact",
                    "instance": describe(claim, inst),
                    "token": token,
                    "certificate": path,
                },
                certificates=[path],
                notes=f"token {token} moves: its tangent velocity is exactly non-zero (block Gram algebra){why}",
            )
        decided.append(describe(claim, inst))
    if not whole:
        return Outcome(
            Verdict.INCONCLUSIVE,
            EXACT,
            notes=f"every velocity exactly 0 at the {len(decided)} sampled instances; {_unsearched(claim)}{why}",
            details={"instances": decided},
        )
    d = Derivation()
    for text in decided:
        d.holds(f"{text}: every velocity component is exactly 0 ({EXACT})", True)
    proved = derived(d, EXACT, {"instances": decided})
    directory = certificate_directory(ctx.certificate_dir)
    for inst in instances:  # each instance at rest, a witness the kernel re-derives
        payload = {"witness": kernel.AT_REST, "instance": instance_record(inst)}
        path = write_accepted(directory, claim, "witness", payload, statement_at(claim, inst, kernel.AT_REST))
        proved = proved.with_certificate(path)
    return proved


def _float_tokens(claim: EquilibriumClaim, inst: regimes.Instance) -> np.ndarray:
    """Unit tokens of the regime in floats (from the exact Gram matrix by an eigendecomposition, or the exact
    coordinates): only a starting point, the certificate's centre is rebuilt exactly and checked."""
    tokens = regimes.coordinate_tokens(claim, inst.n, inst.d)
    if tokens is not None:
        return np.array([[float(v) for v in row] for row in tokens])
    G = np.array([[float(v) for v in row] for row in regimes.regime_gram(claim, inst.n, inst.split)])
    values, vectors = np.linalg.eigh(G)
    X = np.zeros((inst.n, inst.d))
    order = np.argsort(values)[::-1][: inst.d]
    for column, k in enumerate(order):
        X[:, column] = vectors[:, k] * np.sqrt(max(values[k], 0.0))
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def _heads(claim: EquilibriumClaim) -> str:
    """The heads' kind of the claim's instances (heads with a common eigenvector: scalar ones)."""
    return "orthogonal" if claim.heads == "orthogonal" else "scalar"


def _model_instance(claim: EquilibriumClaim, inst: regimes.Instance) -> equilibria.Instance:
    return equilibria.instance(inst.n, inst.d, list(inst.strengths), inst.attention, inst.beta, _heads(claim))


def _certified(
    claim: EquilibriumClaim, inst: regimes.Instance, tokens: np.ndarray
) -> tuple[dict[str, Any] | None, str]:
    """(the certificate payload of the regime at the instance, "") or (None, why not)."""
    outcome = equilibria.certify(_model_instance(claim, inst), tokens)
    if not outcome.get("certified") or not outcome.get("spectrum_decided"):
        return None, outcome.get("reason") or outcome.get("spectrum", "not certified")
    payload = equilibria.payload(outcome["record"], outcome)
    found = "the prover's balls find {zeros} rotation zero(s), {negative} with Re < 0, {positive} with Re > 0"
    found = found.format(**payload["spectrum"])
    if claim.regime != FOUND:
        stated = kernel.statement_of(statement_at(claim, inst, None))
        wrong = kernel.structure_failure(stated, outcome["record"]["problem"])
        if wrong:
            return None, f"{found} at an equilibrium the kernel does not find to be the regime: {wrong}"
    try:  # the kernel's own reading of the exact data (a cheap part of check-cert): a certificate it refuses decides
        kernel_equilibrium.problem_of(payload)  # nothing
    except Rejected as exc:
        return None, f"{found}, but check-cert does not take the certificate: {exc}"
    return {**payload, "instance": instance_record(inst)}, ""


def _spectral(claim: EquilibriumClaim, ctx: Context) -> Outcome:
    instances, whole = _domain(claim)
    circle = _on_circle(claim, instances, whole, ctx)
    if circle is not None:
        return circle
    held, against, failed = [], [], []
    for k, inst in enumerate(instances):
        for tokens in _candidates(claim, inst, ctx, k):
            payload, why = _certified(claim, inst, tokens)
            if payload is None:
                failed.append(f"{describe(claim, inst)}: {why}")
                continue
            counts = payload["spectrum"]
            row = (describe(claim, inst), counts, payload)
            (held if regimes.property_holds(claim, **counts) else against).append(row)
    table = [{"instance": r[0], **r[1]} for r in held + against]
    if against:
        path = _write(ctx, claim, "equilibrium", against[0][2])
        return Outcome(
            Verdict.REFUTED,
            SPECTRUM,
            witness={"verified_by": "ball", "instance": against[0][0], **against[0][1], "certificate": path},
            certificates=[path],
            details={"table": table},
        )
    if failed or not held:
        notes = "; ".join(failed[:3]) or "no instance certified"
        return Outcome(
            Verdict.INCONCLUSIVE, SPECTRUM, notes=f"{len(failed)} not certified: {notes}", details={"table": table}
        )
    paths = [_write(ctx, claim, "equilibrium", r[2]) for r in held]
    if not whole:
        return Outcome(
            Verdict.INCONCLUSIVE,
            SPECTRUM,
            certificates=paths,
            notes=f"certified at {len(held)} sampled instances; {_unsearched(claim)}",
            details={"table": table},
        )
    return Outcome(Verdict.CERTIFIED, SPECTRUM, certificates=paths, details={"table": table})


def _on_circle(claim: EquilibriumClaim, instances: list[regimes.Instance], whole: bool, ctx: Context) -> Outcome | None:
    """The regular triangle on the circle (the simplex at n = 3, d = 2: equally spaced angles, which no rational
    centre pins for a Krawczyk certificate) under scalar heads W_h = M_h = lambda_h I, decided by its exact circulant
    Jacobian (`identities.circle_spectrum`): PROVED when every instance of a finite domain has the property, REFUTED
    at one that has not (its Re mu by balls), each instance's counts in a `circulant` certificate that the kernel
    re-derives (`certificates.kernel.circulant`); None outside the regime or when a sign is not decided (the prover
    then runs)."""
    if not (whole and instances and all(on_circle(claim, inst) and inst.n == 3 for inst in instances)):
        return None
    derivation, table, paths = Derivation(), [], []
    for inst in instances:
        derivation.note(f"{describe(claim, inst)}: the angles' Jacobian at the regular triangle")
        counts = circle_counts(derivation, inst)
        if counts is None or not derivation.proved:
            return None
        row = {"instance": describe(claim, inst), "zeros": counts.zeros, "negative": counts.negative}
        table.append(row | {"positive": counts.positive, "real_parts": counts.real_parts})
        paths += _circulant_certificate(ctx, claim, inst, counts)
        if not regimes.property_holds(claim, counts.zeros, counts.negative, counts.positive):
            witness = {"verified_by": "ball", **row, "index": counts.positive, "real_parts": counts.real_parts}
            witness |= {"certificate": paths[-1]} if paths else {}
            return Outcome(Verdict.REFUTED, CIRCLE, witness=witness, details={"table": table}, certificates=paths[-1:])
    return dataclasses.replace(derived(derivation, CIRCLE, {"table": table}), certificates=paths)


def _circulant_certificate(
    ctx: Context, claim: EquilibriumClaim, inst: regimes.Instance, counts: CircleCounts
) -> list[str]:
    """The instance's `circulant` certificate, written once the kernel's check accepts its statement (none else)."""
    spectrum = {"zeros": counts.zeros, "negative": counts.negative, "positive": counts.positive}
    payload = {"instance": instance_record(inst), "spectrum": spectrum}
    stated = circulant_statement(claim.id, inst, spectrum)
    path = write_accepted(certificate_directory(ctx.certificate_dir), claim, CIRCULANT, payload, stated)
    return [] if path is None else [path]


class CircleCounts(NamedTuple):
    """The decided counts of a circulant spectrum on the circle (the rotation's zero, Re < 0, Re > 0), Re mu_m as
    ball texts."""

    zeros: int
    negative: int
    positive: int
    real_parts: list[str]


def circle_counts(derivation: Derivation, inst: regimes.Instance) -> CircleCounts | None:
    """The counts of the equally spaced tokens' spectrum (`identities.circle_spectrum`), each Re mu_m signed by a
    ball of CIRCLE_BITS bits (a step of `derivation`); None when a ball holds 0 or cannot be evaluated."""
    parts = circle_spectrum.real_parts(derivation, inst.n, inst.attention, inst.strengths, inst.beta)
    signs, texts = [], []
    for m, value in enumerate(parts, 1):
        try:
            enclosure = ball(value, {}, CIRCLE_BITS)
        except EvaluationError:
            return None
        if not (enclosure < 0 or enclosure > 0):
            return None
        signs.append(1 if enclosure > 0 else -1)
        texts.append(enclosure.str(12))
        derivation.note(f"Re mu_{m} = {texts[-1]} (ball, {CIRCLE_BITS} bits): {'> 0' if signs[-1] > 0 else '< 0'}")
    return CircleCounts(1, signs.count(-1), signs.count(1), texts)


def _candidates(claim: EquilibriumClaim, inst: regimes.Instance, ctx: Context, k: int) -> list[np.ndarray]:
    """The regime's tokens, or for `found` every class the seeded search finds at the instance."""
    if claim.regime != FOUND:
        return [_float_tokens(claim, inst)]
    rng = np.random.default_rng([ctx.seed, k // len(claim.attentions), k % len(claim.attentions)])
    return [found.tokens for found in equilibria.search(_model_instance(claim, inst), rng, STARTS[ctx.profile])]


def _write(ctx: Context, claim: EquilibriumClaim, kind: str, payload: dict[str, Any]) -> str:
    directory = certificate_directory(ctx.certificate_dir)
    directory.mkdir(parents=True, exist_ok=True)
    return str(write_certificate(Path(directory), claim.id, kind, payload, embedded(claim)))
