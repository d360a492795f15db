"""`headflow check-cert`: re-check a certificate from its file alone, against the obligation of its claim.

In order: the file's size, JSON shape and schema, the sha256 checksum, then the claim. The
checker knows what a certificate of each claim must establish (`certificates.kernel.obligations` for
the registry's claims; for a claims-file claim, the `ClaimChecker` that `headflow check-cert`
passes in re-derives it from the claim's own fields) and rejects any certificate whose content is not that obligation,
naming the difference. Then it re-checks the proof itself:
- smt: the checker prints the SMT-LIB2 text from its own trees (`certificates.kernel.smtlib`) and runs z3
  and cvc5, each in a fresh isolated process with a time limit (`certificates.kernel.solvers`): see `run_solvers`
  for what is accepted;
- witness: exact data (a point, or a configuration of the model) satisfy the claim's hypotheses
  exactly and every condition is settled by balls (`certificates.kernel.recheck`);
- interval-cover and convexity: the boxes cover the domain exactly and the relation holds on each;
- equilibrium: the Krawczyk inclusion and the Gershgorin spectrum are recomputed from the exact data
  (`certificates.kernel.equilibrium_obligations`).
This module imports no deciding code (a test checks the import graph); the modules it trusts are
listed in the README ("Trust model").
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from certificates.kernel import format as fmt
from certificates.kernel import obligations as ob
from certificates.kernel import recheck, smtlib, solvers
from certificates.kernel.equilibrium_obligations import EQUILIBRIA, check_equilibrium
from certificates.kernel.exprtree import TreeError, from_sympy, parse_rational
from certificates.kernel.reading import RefusedFile, read_bounded
from certificates.kernel.recheck import Rejected

#: Re-derives and re-checks the obligation of a claims-file claim from its embedded fields:
#: (claim fields, claim id, kind, payload) -> (what is proved, how). `headflow check-cert` passes
#: the claims-file reader's (`certificates.kernel.claims.certificate_obligations.check`); this layer does
#: not import the claims-file reader itself.
ClaimChecker = Callable[[dict[str, Any], str, str, dict[str, Any]], tuple[str, str]]


@dataclass(frozen=True)
class CheckResult:
    """Whether the file re-checks; what it proves, in words (or why it was rejected)."""

    ok: bool
    claim_id: str
    message: str


def verify_file(
    path: Path, claim_checker: ClaimChecker | None = None, solver_seconds: float = solvers.DEFAULT_SECONDS
) -> tuple[bool, str]:
    """(ok, one line): `ok: <claim>: <what it proves> [how]` or the reason for the rejection."""
    result = check_file(Path(path), claim_checker, solver_seconds)
    return result.ok, " ".join(result.message.split())


def check_file(
    path: Path, claim_checker: ClaimChecker | None = None, solver_seconds: float = solvers.DEFAULT_SECONDS
) -> CheckResult:
    """Re-check one certificate file; never raises on a hostile file. Each solver gets `solver_seconds` for the
    file (a claims-file certificate's solver time is its `claim_checker`'s to give)."""
    claim_id = "?"
    try:
        certificate = load(path)
        claim_id = str(certificate["claim_id"])[:200]
        proved, how = _check(certificate, claim_checker, solver_seconds)
        return CheckResult(True, claim_id, f"ok: {claim_id}: {proved} [{how}]")
    except Rejected as exc:
        return CheckResult(False, claim_id, str(exc))
    except (TreeError, smtlib.SmtTextError) as exc:
        return CheckResult(False, claim_id, f"malformed certificate data: {exc}")
    except OSError as exc:
        return CheckResult(False, claim_id, f"cannot read: {exc.strerror or exc}")
    except Exception as exc:  # any other failure on hostile input is a rejection, never a crash
        return CheckResult(False, claim_id, f"malformed certificate: {type(exc).__name__}: {str(exc)[:120]}")


def load(path: Path) -> dict[str, Any]:
    """The certificate object, after the size, JSON (no duplicate key, no NaN), field, schema, tools and
    checksum checks."""
    try:
        certificate = json.loads(
            read_bounded(path, fmt.MAX_FILE_BYTES).decode("utf-8"), object_pairs_hook=_unique, parse_constant=_constant
        )
    except RefusedFile as exc:
        raise Rejected(f"file {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise Rejected(f"not JSON: {str(exc)[:120]}") from None
    if not isinstance(certificate, dict):
        raise Rejected("not a JSON object")
    missing = [key for key in (*fmt.FIELDS, "sha256") if key not in certificate]
    if missing:
        raise Rejected(f"missing fields: {', '.join(missing)}")
    extra = sorted(set(certificate) - {*fmt.FIELDS, "sha256"})
    if extra:
        raise Rejected(f"unknown field {extra[0][:60]!r}: the checker checks every field and accepts no other")
    if certificate["schema"] != fmt.SCHEMA:
        raise Rejected(f"unknown schema {str(certificate['schema'])[:60]!r} (expected {fmt.SCHEMA})")
    if certificate["kind"] not in fmt.KINDS:
        raise Rejected(f"unknown kind {str(certificate['kind'])[:60]!r}")
    if not isinstance(certificate["claim_id"], str) or not isinstance(certificate["payload"], dict):
        raise Rejected("claim_id must be a string and payload an object")
    _check_tools(certificate["tools"])
    if fmt.content_hash(certificate) != certificate["sha256"]:
        raise Rejected("sha256 mismatch: the content was damaged or modified after it was written")
    return certificate


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all distinct (json.loads would keep the last value of a repeated key)."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise Rejected(f"duplicate key {key[:60]!r}: a certificate states each field once")
        data[key] = value
    return data


def _constant(name: str) -> Any:
    raise Rejected(f"{name} is not a JSON number")


def _check_tools(tools: object) -> None:
    """`tools` records exactly the format's tools, each with a version string of the checked form."""
    if not isinstance(tools, dict):
        raise Rejected("tools must be an object of tool versions")
    extra = sorted(set(tools) - set(fmt.TOOLS))
    if extra:
        raise Rejected(f"tools: unknown field {extra[0][:60]!r}")
    missing = sorted(set(fmt.TOOLS) - set(tools))
    if missing:
        raise Rejected(f"tools: missing {', '.join(missing)}")
    for name, version in tools.items():
        if not isinstance(version, str) or not fmt.VERSION.match(version):
            raise Rejected(f"tools.{name}: not a version string")


def require_registry_kind(claim_id: str, kind: str) -> None:
    """Rejected unless `claim_id` is a registry claim with a known obligation and `kind` is its certificate kind."""
    expected = "equilibrium" if claim_id in EQUILIBRIA else ob.CLAIMS.get(claim_id)
    if expected is None:
        raise Rejected(f"no certificate obligation is known for claim {claim_id[:80]!r}")
    if kind != expected:
        raise Rejected(f"{claim_id} is certified by a {expected} certificate, not {kind}")


def _check(certificate: dict[str, Any], claim_checker: ClaimChecker | None, seconds: float) -> tuple[str, str]:
    """(what the certificate proves, how it was re-checked) for a certificate of a known claim."""
    claim_id, kind, payload = certificate["claim_id"], certificate["kind"], certificate["payload"]
    if certificate["claim"] is not None:
        if not isinstance(certificate["claim"], dict):
            raise Rejected("claim must be null or the claims-file claim's fields")
        if claim_checker is None:
            raise Rejected("a claims-file certificate: re-check it with `headflow check-cert`")
        return claim_checker(certificate["claim"], claim_id, kind, payload)
    require_registry_kind(claim_id, kind)
    if kind == "smt":
        return _check_smt(claim_id, payload, seconds)
    if kind == "convexity":
        return _check_convexity(payload)
    if kind == "equilibrium":
        return check_equilibrium(claim_id, payload)
    if claim_id in ob.POINTS:
        return _check_point(claim_id, payload)
    return check_configuration(claim_id, payload)


# ---------------------------------------------------------------- smt


def _check_smt(claim_id: str, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
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
    return obligation.sentence, run_solvers(texts, seconds)


def run_solvers(texts: list[str], seconds: float) -> str:
    """How the problems were re-checked; Rejected unless some solver answered `unsat` to every one of them.

    z3, then cvc5, each get `seconds` for all the problems. A solver re-checks the file when it answers `unsat`
    to every problem. One that runs out of time has not re-checked it, and the result says so ("not re-checked
    by cvc5 (time limit ...)"): the file is then accepted on the other solver alone. Any other answer (`sat`,
    `unknown`, an error) from either solver rejects the file, and so does a file that no solver re-checked."""
    rechecked: list[str] = []
    ran_out: list[str] = []
    for solver in solvers.SCRIPTS:
        said = solvers.answers(solver, texts, seconds)
        for index, answer in enumerate(said):
            if answer not in ("unsat", solvers.TIME_LIMIT):
                raise Rejected(f"{solver} answers {answer!r} on statement {index + 1}: only unsat closes a proof")
        if solvers.TIME_LIMIT in said:
            done = said.index(solvers.TIME_LIMIT)
            ran_out.append(f"not re-checked by {solver} (time limit: {seconds:g} s, {done} of {len(texts)} unsat)")
        else:
            rechecked.append(solver)
    if not rechecked:
        raise Rejected(f"{'; '.join(ran_out)}: no solver re-checked it")
    return "; ".join([f"{len(texts)} statement(s) unsat in {' and in '.join(rechecked)} (fresh processes)", *ran_out])


# ---------------------------------------------------------------- exact points


def _check_point(claim_id: str, payload: dict[str, Any]) -> tuple[str, str]:
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
