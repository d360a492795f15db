"""Coq files of certificates: write one next to each certificate, and re-check a certificate with coqc.

The Coq text is regenerated from the certificate every time (`certificates.kernel.coq.certificate`: the statement
from the claim's obligation, the file's data checked against it), so a `.v` file next to a certificate is
for people to read and compile themselves; `headflow check-cert --coq` compiles the regenerated text, and
says when the file on disk differs from it. The name is the certificate's with every character that is
not a letter, digit or underscore replaced by `_` (coqc takes only identifiers as file names).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from headflow.certificates.atomic import write_text_atomic
from headflow.certificates.coq.source import WITNESS_BITS, source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem as certificate_problem
from headflow.certificates.kernel.coq.statements import NotStated, NotTranslatable, guard, require_stated
from headflow.certificates.kernel.exprtree import TreeError
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import CheckResult, check_file
from headflow.certificates.statements import elaborate
from headflow.checks import kernel_checks

#: The statuses of a Coq re-check, as the reports print them. UNPROVED is no verdict on the certificate: coqc ran out
#: of time, or the proof of an smt certificate's statement (tactics such as nra, searched by Coq, not data of the
#: file) or of a cover's box or a convexity chain's (Interval's own enclosure, bisection and Taylor models, not the
#: kernel's monotone steps and centred forms; Coquelicot's `auto_derive`) did not go through, which says nothing about
#: the statement; check-cert's re-check stands alone.
RECHECKED, REJECTED, UNTRANSLATABLE = "re-checked by Coq", "rejected by Coq", "not translatable"
#: An equilibrium's file without the writer's Lyapunov matrix states its zero velocity only
#: (`model_tree.equilibrium_problem`): coqc's acceptance does not make Coq an independent checker of the claim, whose
#: spectrum (the index, the stability) is then check-cert's alone. With it the file states the spectrum too (RECHECKED).
#: Why: the theorem the check-cert side rests on is not formalized in the Coq libraries the re-check uses.
UNFORMALIZED = "has no formalization in Coq's standard library, Interval or Coquelicot"
PARTIAL = f"zero velocity re-checked by Coq, the spectrum not (counting eigenvalues by Gershgorin discs {UNFORMALIZED})"
UNPROVED = "not re-checked by Coq"
#: Why the kinds without a Coq translation have none (the kernel's refusal names the kind; the README's coverage table
#: says the same).
UNTRANSLATED = {
    "equilibrium": "an equilibrium enclosed in a Krawczyk box of a symmetry slice of dimension > 1 (the sign "
    f"change of several variables, Poincare-Miranda, {UNFORMALIZED}), or in a box or at tokens that are not unit "
    "rationals without the writer's Lyapunov matrix, or of several irrational norms (at an exact centre Coq states "
    "the zero velocity, and the spectrum with the writer's Lyapunov matrix, at tokens c_i/|c_i| of one norm too; in "
    "the box of a one-dimensional slice the sign change and the spectrum over the box)",
    "trajectory": "a chain of validated ODE steps: Coq's Interval and Coquelicot have no validated ODE solver to "
    "replay it with (check-cert replays it)",
}


@dataclass(frozen=True)
class CoqCheck:
    """One certificate's Coq re-check: a status above, the reason or coqc's message, coqc's seconds."""

    status: str
    message: str
    seconds: float = 0.0


def coq_path(certificate: Path) -> Path:
    """Where the certificate's Coq file lives: next to it, its stem made an identifier, `.v`."""
    stem = re.sub(r"[^A-Za-z0-9_]", "_", certificate.stem)
    return certificate.with_name(("c_" + stem if not stem[:1].isalpha() else stem) + ".v")


def coq_text(certificate: Path) -> str:
    """The regenerated Coq file of a certificate; Rejected, NotTranslatable or TreeError when there is none. The
    kernel's check is the run's one check of that file (`kernel_checks.checked`: a procedure may have run it)."""
    return _regenerated(certificate, kernel_checks.checked(certificate))[0]


def _regenerated(certificate: Path, checked: CheckResult) -> tuple[str, dict[str, Any]]:
    """(the Coq file, what `run.compile_source` holds it to) of a certificate the kernel checked (`checked`: its one
    check): the statement is the kernel's, from the checked core statement, and the assembled file is held to it
    twice: by its sentences (`statements.require_stated`: the statements verbatim, only proofs around them) and by
    coqc's reading of it (the theorems proved, each resting on standard axioms alone, answering the kernel's
    statement file's queries alike: `statements.guard`)."""
    sentence, built = certificate_problem(checked)  # Rejected unless the kernel accepted the certificate
    data = checked.certificate
    assert data is not None
    if data["claim"] is not None and data["statement"] != elaborate(
        data["claim_id"], data["kind"], data["payload"], data["claim"]
    ):
        raise Rejected("the certificate's statement is not its claim's (the Coq file states the claim)")
    cover = (data["statement"], data["payload"]) if data["kind"] == "interval-cover" else None
    form = data["statement"].get("form")  # a bracket's own lemmas: a reduced time's attention, or the exit gap's
    bracket = data["statement"].get("attention") if form == "reduced-time" else form if form == "exit-gap" else None
    prec = data["payload"].get("prec", WITNESS_BITS)
    try:
        text = source(certificate.name, data["claim_id"], sentence, built, prec, cover, bracket)
    except (NotTranslatable, TreeError):
        raise
    except Exception as exc:  # the kernel accepted the certificate: a proof writer's failure is no verdict on it
        raise NotTranslatable(f"no Coq proof written ({type(exc).__name__}: {str(exc)[:80]})") from exc
    require_stated(text, certificate.name, data["claim_id"], sentence, built)
    return text, guard(certificate.name, data["claim_id"], sentence, built)


def write_coq_files(certificates: list[str] | list[Path]) -> list[Path]:
    """Write the Coq file of every translatable certificate (atomically); the others get none."""
    written = []
    for name in certificates:
        path = Path(name)
        try:
            text = coq_text(path)
        except Exception:
            continue
        write_text_atomic(coq_path(path), text)
        written.append(coq_path(path))
    return written


def check(certificate: Path, seconds: float = run.SECONDS, checked: CheckResult | None = None) -> CoqCheck:
    """Regenerate the certificate's Coq file and compile it with coqc (fresh folder, time limit). `checked` is the
    kernel's check of this file when the caller already ran it (`check-cert` does: the check runs once), else it
    runs here."""
    try:
        checked = check_file(certificate) if checked is None else checked
        text, guard = _regenerated(certificate, checked)
    except NotTranslatable as exc:
        kind = str(((checked and checked.certificate) or {}).get("kind"))
        return CoqCheck(UNTRANSLATABLE, UNTRANSLATED.get(kind, str(exc)))
    except NotStated as exc:
        return CoqCheck(REJECTED, f"the Coq file does not state the claim: {exc}")
    except (Rejected, TreeError) as exc:
        return CoqCheck(REJECTED, f"the certificate does not state its claim's obligation: {exc}")
    except OSError as exc:
        return CoqCheck(REJECTED, f"cannot read: {exc.strerror or exc}")
    except Exception as exc:  # any other failure on hostile input is a rejection, never a crash
        return CoqCheck(REJECTED, f"malformed certificate: {type(exc).__name__}: {str(exc)[:120]}")
    answer = run.compile_source(text, seconds, **guard)
    data = checked.certificate or {}
    status = _status(answer.status, str(data.get("kind")), "lyapunov" in data.get("payload", {}))
    message = answer.message
    on_disk = coq_path(certificate)
    if on_disk.exists() and on_disk.read_text(encoding="utf-8", errors="replace") != text:
        message += f" (the file {on_disk.name} differs from the regenerated one, which was compiled)"
    return CoqCheck(status, message, answer.seconds)


def _status(compiled: str, kind: str, spectral: bool = False) -> str:
    """The re-check's status from coqc's answer: a failed proof rejects a certificate whose data the proof checks
    (witnesses, enclosures), but not an smt, cover, convexity or equilibrium certificate, whose Coq proof is a
    tactic's search (a cover's boxes and a convexity chain's intervals are Interval's to prove, without the kernel's
    boxes; a zero velocity `ring`'s or `field`'s); an accepted equilibrium file is PARTIAL unless its payload has the
    Lyapunov matrix (`spectral`: the kernel then states the spectrum too, `model_tree.SPECTRUM`)."""
    if compiled == "accepted":
        return PARTIAL if kind == "equilibrium" and not spectral else RECHECKED
    if compiled == "timeout" or kind in ("smt", "interval-cover", "convexity", "equilibrium", "sums"):
        return UNPROVED
    return REJECTED
