"""`headflow check-cert`: re-check a certificate from its file alone, against the obligation of its claim.

In order: the file's size, JSON shape and schema, the sha256 checksum, then the claim. The
checker knows what a certificate of each claim must establish (`certificates.kernel.obligations` for
the registry's claims; for a claims-file claim, `certificates.kernel.claims.certificate_obligations` re-derives it
from the claim's own fields) and rejects any certificate whose content is not that obligation,
naming the difference. Then it re-checks the proof itself:
- smt: the checker prints the SMT-LIB2 text from its own trees (`certificates.kernel.smtlib`) and runs z3
  and cvc5, each in a fresh isolated process with a time limit (`certificates.kernel.solvers`): see
  `solvers.recheck_unsat` for what is accepted;
- witness: exact data (a point, or a configuration of the model) satisfy the claim's hypotheses
  exactly and every condition is settled by balls (`certificates.kernel.recheck`);
- interval-cover and convexity: the boxes cover the domain exactly and the relation holds on each;
- equilibrium: the Krawczyk inclusion and the Gershgorin spectrum are recomputed from the exact data
  (`certificates.kernel.equilibrium_obligations`).
It imports only the kernel (`certificates.kernel`, whose docstring gives the rule a test holds it to).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from certificates.kernel import core, smtlib, solvers
from certificates.kernel.exprtree import TreeError
from certificates.kernel.loading import load
from certificates.kernel.recheck import Rejected


@dataclass(frozen=True)
class CheckResult:
    """Whether the file re-checks; what it proves, in words (or why it was rejected)."""

    ok: bool
    claim_id: str
    message: str


def verify_file(path: Path, solver_seconds: float = solvers.DEFAULT_SECONDS) -> tuple[bool, str]:
    """(ok, one line): `ok: <claim>: <what it proves> [how]` or the reason for the rejection."""
    result = check_file(Path(path), solver_seconds)
    return result.ok, " ".join(result.message.split())


def check_file(path: Path, solver_seconds: float = solvers.DEFAULT_SECONDS) -> CheckResult:
    """Re-check one certificate file, registry or claims-file; never raises on a hostile file. Each solver gets
    `solver_seconds` for the file. The one entry point of the kernel: `headflow check-cert` and the tests call it."""
    claim_id = "?"
    try:
        certificate = load(path)
        claim_id = str(certificate["claim_id"])[:200]
        proved, how = _check(certificate, solver_seconds)
        return CheckResult(True, claim_id, f"ok: {claim_id}: {proved} [{how}]")
    except Rejected as exc:
        return CheckResult(False, claim_id, str(exc))
    except (TreeError, smtlib.SmtTextError) as exc:
        return CheckResult(False, claim_id, f"malformed certificate data: {exc}")
    except OSError as exc:
        return CheckResult(False, claim_id, f"cannot read: {exc.strerror or exc}")
    except Exception as exc:  # any other failure on hostile input is a rejection, never a crash
        return CheckResult(False, claim_id, f"malformed certificate: {type(exc).__name__}: {str(exc)[:120]}")


def require_registry_kind(claim_id: str, kind: str) -> None:
    """Rejected unless `claim_id` is a registry claim with a known obligation and `kind` is its certificate kind."""
    from certificates.kernel import obligations as ob
    from certificates.kernel.equilibrium_obligations import EQUILIBRIA

    expected = "equilibrium" if claim_id in EQUILIBRIA else ob.CLAIMS.get(claim_id)
    if expected is None:
        raise Rejected(f"no certificate obligation is known for claim {claim_id[:80]!r}")
    if kind != expected:
        raise Rejected(f"{claim_id} is certified by a {expected} certificate, not {kind}")


def _check(certificate: dict[str, Any], seconds: float) -> tuple[str, str]:
    """(what the certificate proves, how it was re-checked) for a certificate of a known claim: by its core
    statement (`certificates.kernel.core`) when it carries one, else by the older re-derivation from the claim."""
    claim_id, kind, payload = certificate["claim_id"], certificate["kind"], certificate["payload"]
    if certificate["claim"] is not None and not isinstance(certificate["claim"], dict):
        raise Rejected("claim must be null or the claims-file claim's fields")
    if certificate["statement"] is not None:
        return core.check(certificate["statement"], claim_id, kind, payload, seconds)
    return _legacy_check(certificate, seconds)


def _legacy_check(certificate: dict[str, Any], seconds: float) -> tuple[str, str]:
    """The re-derivation of a certificate's obligation from its claim, for kinds without a core statement yet
    (it loads SymPy; each kind moves to `core` in turn)."""
    from certificates.kernel.claims import certificate_obligations
    from certificates.kernel.equilibrium_obligations import check_equilibrium
    from certificates.kernel.obligations import POINTS

    claim_id, kind, payload = certificate["claim_id"], certificate["kind"], certificate["payload"]
    if certificate["claim"] is not None:
        return certificate_obligations.check(certificate["claim"], claim_id, kind, payload)
    require_registry_kind(claim_id, kind)
    if kind == "smt":
        return _check_smt(claim_id, payload, seconds)
    if kind == "convexity":
        return _check_convexity(payload)
    if kind == "equilibrium":
        return check_equilibrium(claim_id, payload)
    if claim_id in POINTS:
        return _check_point(claim_id, payload)
    return check_configuration(claim_id, payload)


# ---------------------------------------------------------------- smt


def _check_smt(claim_id: str, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    from certificates.kernel import obligations as ob
    from certificates.kernel import recheck

    obligation = ob.SMT[claim_id]
    expected = ob.expected_statement_trees(claim_id)
    recheck.require_keys(payload, {"logic", "statements"}, "smt payload")
    if payload["logic"] != smtlib.LOGIC:
        raise Rejected(f"logic {str(payload['logic'])[:40]!r}: the obligation is stated in {smtlib.LOGIC}")
    stated = payload["statements"]
    if not isinstance(stated, list):
        raise Rejected("statements must be a list")
    names = [s.get("name") if isinstance(s, dict) else None for s in stated]
    wanted = [s["name"] for s in expected]
    if names != wanted:
        raise Rejected(f"{claim_id} needs the statements {', '.join(wanted)}; the file has {str(names)[:200]}")
    for mine, theirs in zip(expected, stated, strict=True):
        for part in ("constants", "hypotheses", "goal"):
            if theirs.get(part) != mine[part]:
                raise Rejected(f"statement {mine['name']}: its {part} differ from the obligation of {claim_id}")
        if set(theirs) != set(mine):
            raise Rejected(f"statement {mine['name']}: unexpected fields {sorted(set(theirs) - set(mine))}")
    texts = [smtlib.problem_text(s["constants"], s["hypotheses"], s["goal"]) for s in expected]
    return obligation.sentence, solvers.recheck_unsat(texts, seconds)


# ---------------------------------------------------------------- exact points


def _check_point(claim_id: str, payload: dict[str, Any]) -> tuple[str, str]:
    from certificates.kernel import obligations as ob
    from certificates.kernel import recheck

    obligation = ob.POINTS[claim_id]
    recheck.require_keys(payload, {"witness", "parameters", "point", "prec", "conditions"}, "point witness")
    if payload["witness"] != "point":
        raise Rejected(f"{claim_id} is refuted by a point witness")
    params = recheck.integer_parameters(payload["parameters"], obligation.parameters)
    names = [s.name for s in obligation.symbols(params)]
    point = recheck.rational_map(payload["point"], "point")
    if list(point) != names:
        raise Rejected(f"the point must give {', '.join(names)}; the file gives {', '.join(point)[:120]}")
    expected = ob.condition_trees(obligation.conditions(params))
    recheck.require_conditions(payload["conditions"], expected, claim_id)
    how = recheck.point_conditions(payload, point)
    if obligation.lemma is not None:
        try:
            how += "; " + obligation.lemma()
        except ValueError as exc:
            raise Rejected(f"{claim_id}: {exc}") from None
    return obligation.sentence(params, point), how


# ---------------------------------------------------------------- T22 reading-b


def _check_convexity(payload: dict[str, Any]) -> tuple[str, str]:
    from certificates.kernel import obligations as ob
    from certificates.kernel import recheck
    from certificates.kernel.exprtree import from_sympy, parse_rational

    recheck.require_keys(payload, {"parameters", "a", "b", "parts"}, "convexity payload")
    tokens = recheck.integer_parameters(payload["parameters"], {"n": ob.CONVEXITY_TOKENS})["n"]
    a, b = parse_rational(payload["a"]), parse_rational(payload["b"])
    if not 0 < a < b < ob.CONVEX_U_MAX:
        raise Rejected(f"need 0 < a < b < {ob.CONVEX_U_MAX}; the file has a = {a}, b = {b}")
    parts = payload["parts"]
    recheck.require_keys(parts, set(ob.convexity_parts(tokens)), "convexity parts")
    facts = ob.convexity_parts(tokens)
    ranges = {"g-rising": (a, b), "convex": (b, ob.CONVEX_U_MAX)}
    below = parts["g-below"]
    g, relation = facts["g-below"]
    expected = [{"name": "g(a) < 0", "expression": from_sympy(g), "relation": relation}]
    recheck.require_keys(below, {"witness", "parameters", "point", "prec", "conditions"}, "g-below")
    if below["witness"] != "point" or below["parameters"] != {}:
        raise Rejected("g-below must be a point witness without parameters")
    if recheck.rational_map(below["point"], "point") != {"u": a}:
        raise Rejected("g-below must be evaluated at u = a")
    recheck.require_conditions(below["conditions"], expected, ob.CONVEXITY_CLAIM)
    recheck.point_conditions(below, {"u": a})
    boxes = 0
    for name, (lo, hi) in ranges.items():
        expr, relation = facts[name]
        boxes += recheck.cover(parts[name], from_sympy(expr), relation, {"u": (lo, hi)}, {})
    ob.convexity_factor()  # phi'' = K g with K > 0: re-derived exactly, or this raises
    proved = (
        f"n = {tokens}, u = beta lambda: phi is strictly convex on [u_c, {ob.CONVEX_U_MAX}] (g(a) < 0 at a = {a}, "
        f"g' > 0 on [a, b], b = {b}, phi'' = K g with K > 0, phi'' > 0 on [b, {ob.CONVEX_U_MAX}]), so "
        f"sum_h phi(lambda_h) > H phi(lambda_bar) for strengths in [lambda_c, {ob.CONVEX_U_MAX}/beta], not all equal"
    )
    return proved, f"ball point, {boxes} boxes re-evaluated, phi''/g re-derived by SymPy"


# ---------------------------------------------------------------- configurations


def check_configuration(claim_id: str, payload: dict[str, Any]) -> tuple[str, str]:
    """(what a configuration witness proves, how check-cert re-checked it); Rejected when it does not."""
    from certificates.kernel import obligations as ob
    from certificates.kernel import recheck

    obligation = ob.CONFIGURATIONS[claim_id]
    how = recheck.configuration(
        payload,
        attention=obligation.attention,
        geometry=obligation.geometry,
        hypotheses=obligation.hypotheses,
        quantity=obligation.quantity,
        relation=obligation.relation,
        claim_id=claim_id,
    )
    return obligation.sentence, how
