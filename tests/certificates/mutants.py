"""Mutants given to the certificate checker (`headflow check-cert`): forged certificates with valid checksums."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from headflow.certificates.kernel.format import content_hash
from headflow.certificates.provers.convexity_cover import certify_convexity
from headflow.certificates.store import build_certificate, certificate_directory
from headflow.checks.constants.floats import lambda_c_scaled
from headflow.checks.evidence import energy_witnesses as wc
from headflow.checks.registry import Context
from headflow.checks.theorems import t19_threshold as tc
from headflow.checks.verdicts import Outcome, Verdict

from tests.checking import verify_file
from tests.forging import Edit, forged_file
from tests.soundness.mutation import Decide, Mutant


def certificate_file(forge: Callable[[Path], Path]) -> Decide:
    """`headflow check-cert` on a (possibly forged) certificate: re-checks -> CERTIFIED, else INCONCLUSIVE."""

    def decide(ctx: Context) -> Outcome:
        path = forge(certificate_directory(ctx.certificate_dir))
        ok, reason = verify_file(path)
        if ok:
            return Outcome(Verdict.CERTIFIED, "check-cert", certificates=[str(path)])
        return Outcome(Verdict.INCONCLUSIVE, "check-cert", notes=reason)

    return decide


# ---------------------------------------------------------------- forged certificates given to check-cert


def _forged_smt(directory: Path) -> Path:
    """The false exact reading written as an smt certificate of its claim, with a valid checksum."""
    certificate = build_certificate("T19.threshold.exact", "smt", {})
    statements = [tc.exact_statement().tree()]
    certificate["statement"] = {"form": "registry", "claim": "T19.threshold.exact", "statements": statements}
    certificate["sha256"] = content_hash(certificate)
    target = directory / "forged-smt.json"
    target.write_text(json.dumps(certificate))
    return target


def _true_smt(directory: Path) -> Path:
    ctx = Context("quick", 0, directory, claim_id="T19.threshold")
    return Path(tc.certify_statements(ctx).certificates[0])


def _true_convexity(directory: Path) -> Path:
    ctx = Context("quick", 0, directory, claim_id="T22.superadditivity.reading-b.listed-n")
    return Path(certify_convexity(ctx.claim_id, 3, lambda_c_scaled(3), directory, ctx.seconds_left)[0])


def _alignment_witness(directory: Path) -> Path:
    """A genuine T11.hypotheses.no-alignment witness (symmetric M, W != M, dE/dt < 0)."""
    ctx = Context("quick", 0, directory, claim_id="T11.hypotheses.no-alignment")
    outcome = wc.find_witness(ctx, "T11.hypotheses.no-alignment", wc.SEARCHES["T11.hypotheses.no-alignment"])
    return Path(outcome.certificates[0])


def _forged(source: Callable[[Path], Path], edit: Edit, name: str) -> Callable[[Path], Path]:
    """A copy of a genuine certificate with `edit` applied and a valid recomputed checksum."""
    return lambda directory: forged_file(source(directory), directory, edit, name=f"{name}.json")


def _relabel_and_trim(d: dict) -> None:
    """A no-alignment witness filed as a no-symmetry witness (which needs W = M), hypotheses trimmed."""
    d["claim_id"] = "T11.hypotheses.no-symmetry"
    d["payload"]["hypotheses"] = ["unit-tokens", "aligned-values"]


def _weaker_goal(d: dict) -> None:
    d["statement"]["statements"][1]["goal"] = ["=", ["mul", ["sym", "q_star"], ["sym", "H"]], ["sym", "n"]]


def mutants() -> list[Mutant]:
    """Genuine and forged certificates of T19, T22 and T11 handed to `check-cert`."""
    return [
        Mutant(
            "cert-smt-forged",
            "T19.threshold.exact",
            "a forged smt certificate of the false exact reading (valid checksum)",
            False,
            certificate_file(_forged_smt),
        ),
        Mutant(
            "cert-smt-goal",
            "T19.threshold",
            "a true SMT certificate whose goal is changed (checksum recomputed)",
            False,
            certificate_file(_forged(_true_smt, _weaker_goal, "smt-goal")),
        ),
        Mutant(
            "cert-smt-true", "T19.threshold", "the true SMT certificate", True, certificate_file(_true_smt), accept=True
        ),
        Mutant(
            "cert-cover-widened",
            "T22.superadditivity.reading-b.listed-n",
            "a convexity certificate whose phi'' cover starts at 1 (checksum recomputed)",
            False,
            certificate_file(
                _forged(
                    _true_convexity,
                    lambda d: d["payload"]["parts"]["convex"]["domain"]["u"].__setitem__(0, "1"),
                    "wide",
                )
            ),
        ),
        Mutant(
            "cert-cover-relation",
            "T22.superadditivity.reading-b.listed-n",
            "a convexity certificate with phi'' > 0 relabelled phi'' < 0 (checksum recomputed)",
            False,
            certificate_file(
                _forged(_true_convexity, lambda d: d["payload"]["parts"]["convex"].update(relation="<"), "relation")
            ),
        ),
        Mutant(
            "cert-witness-relabelled",
            "T11.hypotheses",
            "a no-alignment witness (W != M) filed as a no-symmetry witness, hypotheses trimmed, checksum recomputed",
            False,
            certificate_file(_forged(_alignment_witness, _relabel_and_trim, "relabelled")),
        ),
        Mutant(
            "cert-witness-true",
            "T11.hypotheses",
            "the genuine no-alignment witness certificate",
            True,
            certificate_file(_alignment_witness),
            accept=True,
        ),
        Mutant(
            "cert-convexity-true",
            "T22.superadditivity.reading-b.listed-n",
            "the true convexity certificate (n = 3)",
            True,
            certificate_file(_true_convexity),
            accept=True,
        ),
    ]
