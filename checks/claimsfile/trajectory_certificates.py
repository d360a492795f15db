"""Certificates of the claims the validated enclosure decides about the trajectory from the user's exact tokens: the
claim (or its negation) as a kernel `trajectory` statement (`headflow.certificates.statements.trajectory`, which
`check-cert --claims` elaborates again) and a chain of steps the kernel replays (`headflow.certificates.kernel.
trajectory`, built by `headflow.certificates.provers.validated.replayable`). A certificate is written only when the
kernel accepts it; otherwise the reason is returned and the route's verdict stays what the enclosure alone allows."""

from __future__ import annotations

from headflow.certificates.claims.embedding import embedded
from headflow.certificates.claims.schema import DynamicsClaim
from headflow.certificates.kernel import trajectory
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.provers.validated.replayable import build_chain
from headflow.certificates.statements.trajectory import statement as trajectory_statement
from headflow.certificates.store import certificate_directory, write_certificate
from headflow.checks import kernel_checks
from headflow.checks.registry import Context

#: Steps a chain may take, per profile (counted, never timed).
MAX_STEPS = {"quick": 300, "thorough": 3_000}
NO_STATEMENT = "no certificate: no trajectory statement of the kernel states this claim"


def certify(claim: DynamicsClaim, negated: bool, ctx: Context) -> tuple[str | None, str]:
    """(the path of an accepted certificate of the claim or of its negation, or None; what happened, in words)."""
    data = trajectory_statement(claim, negated)
    if data is None:
        return None, NO_STATEMENT
    try:
        parsed = trajectory.statement_of(data, claim.id)
    except (Rejected, ValueError) as exc:
        return None, f"no trajectory statement: {exc}"
    size = parsed.cfg.n * len(parsed.cfg.tokens[0])
    chained = parsed.hemisphere if parsed.when == "limit" else parsed  # a limit's chain reaches an open hemisphere
    chain = build_chain(chained, parsed.time, min(MAX_STEPS[ctx.profile], trajectory.MAX_WORK // size**2))
    if chain.stopped:
        return None, f"no replayable chain: {chain.stopped}"
    path = write_certificate(
        certificate_directory(ctx.certificate_dir),
        claim.id,
        "trajectory",
        chain.payload(negated),
        embedded(claim),
        data,
    )
    checked = kernel_checks.checked(path)  # the run's one check of the file (the Coq writer reads it too)
    if not checked.ok:
        path.unlink(missing_ok=True)
        return None, f"the chain's certificate does not re-check: {checked.message}"
    reached = f"; every token in one open hemisphere at t ~ {float(chain.t):.3g}" if chained is not parsed else ""
    return str(path), f"certificate re-checked by the kernel ({len(chain.steps)} steps replayed){reached}"
