"""Re-check a certificate from its file alone, independently of the code that produced it.

Checks, in order: the JSON shape and schema, the sha256 of the canonical content, then by kind:
- smt: the SMT-LIB2 text is exactly `hypotheses and not goal` as listed in the payload, and a
  fresh solver process (the z3 binary, or z3 through a new Python process; cvc5 as well when
  installed) answers `unsat`;
- interval-cover: the bisection tree covers the stated domain exactly (rational split points),
  and at every leaf the expression, re-evaluated with balls on the leaf box, satisfies the
  relation and lies inside the recorded enclosure;
- witness: the exact data satisfy the stated hypotheses exactly, and every stated quantity,
  re-evaluated with exact rationals and balls, satisfies its relation rigorously. For the claims
  listed in WITNESS_REQUIREMENTS (readings whose refutation is a configuration witness) the verifier also
  knows, on its own, which quantity, relation and hypotheses the reading needs, so a certificate
  that drops a hypothesis from its list or certifies another quantity is rejected.
This module imports no encoder and no search: only the file format, the expression-tree
evaluator and the small ball model.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from flint import arb, ctx

from certificates import ball_model, smtlib
from certificates.exprtree import ball_of, eval_ball, parse_rational
from certificates.store import FIELDS, KINDS, SCHEMA, content_hash

SOLVER_TIMEOUT_SECONDS = 60.0
MAX_LEAVES = 200_000
MAX_FILE_BYTES = 50_000_000
RELATIONS = (">", ">=", "<", "<=")
Z3_SCRIPT = "import sys, z3\ns = z3.Solver()\ns.from_string(sys.stdin.read())\nprint(s.check())\n"


class Rejected(ValueError):
    """The certificate does not re-check; the message is the one-line reason."""


def verify_file(path: Path) -> tuple[bool, str]:
    """(ok, one-line reason) for the certificate at `path`."""
    ok, reason = _verify_reason(Path(path))
    return ok, " ".join(reason.split())


def _verify_reason(path: Path) -> tuple[bool, str]:
    try:
        return True, _verify(path)
    except Rejected as exc:
        return False, str(exc)
    except OSError as exc:
        return False, f"cannot read: {exc.strerror or exc}"
    except Exception as exc:  # any other failure on hostile input is a rejection, never a crash
        return False, f"malformed certificate: {type(exc).__name__}: {str(exc)[:120]}"


def _verify(path: Path) -> str:
    if path.stat().st_size > MAX_FILE_BYTES:
        raise Rejected("file too large for a certificate")
    try:
        certificate = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise Rejected(f"not JSON: {exc}") from None
    if not isinstance(certificate, dict):
        raise Rejected("not a JSON object")
    missing = [key for key in (*FIELDS, "sha256") if key not in certificate]
    if missing:
        raise Rejected(f"missing fields: {', '.join(missing)}")
    if certificate["schema"] != SCHEMA:
        raise Rejected(f"unknown schema {certificate['schema']!r} (expected {SCHEMA})")
    if certificate["kind"] not in KINDS:
        raise Rejected(f"unknown kind {certificate['kind']!r}")
    if content_hash(certificate) != certificate["sha256"]:
        raise Rejected("sha256 mismatch: the content was modified after it was written")
    payload = certificate["payload"]
    if not isinstance(payload, dict):
        raise Rejected("payload is not an object")
    if certificate["kind"] == "witness":
        return f"ok: {certificate['claim_id']}: {_check_witness(payload, certificate['claim_id'])}"
    checker = {"smt": _check_smt, "interval-cover": _check_cover}[certificate["kind"]]
    return f"ok: {certificate['claim_id']}: {checker(payload)}"


# ---------------------------------------------------------------- smt


def _check_smt(payload: dict[str, Any]) -> str:
    expected = smtlib.assemble(payload["logic"], payload["declarations"], payload["hypotheses"], payload["goal"])
    if payload["smtlib"] != expected:
        raise Rejected("the SMT-LIB2 text does not match the listed hypotheses and negated goal")
    if payload["answer"] != "unsat":
        raise Rejected(f"recorded answer {payload['answer']!r}: only 'unsat' closes a proof")
    answers = []
    for name, command in _solvers():
        answer = _run_solver(command, payload["smtlib"])
        if name.startswith("z3") and answer != "unsat":
            raise Rejected(f"{name} answers {answer!r}, the certificate records 'unsat'")
        if answer == "sat":
            raise Rejected(f"{name} answers 'sat': the negated goal is satisfiable")
        answers.append(f"{name} {answer}")
    return "smt re-run: " + ", ".join(answers)


def _solvers() -> list[tuple[str, list[str]]]:
    """z3 as a fresh process (its binary, else a new Python running z3), and cvc5 when installed."""
    timeout = int(SOLVER_TIMEOUT_SECONDS)
    binary = shutil.which("z3")
    if binary:
        solvers = [("z3 (binary)", [binary, "-in", f"-T:{timeout}"])]
    else:
        solvers = [("z3 (python)", [sys.executable, "-c", Z3_SCRIPT])]
    cvc5 = shutil.which("cvc5")
    if cvc5:
        solvers.append(("cvc5", [cvc5, "--lang=smt2", f"--tlimit={timeout * 1000}"]))
    return solvers


def _run_solver(command: list[str], text: str) -> str:
    try:
        result = subprocess.run(
            command, input=text, capture_output=True, text=True, timeout=SOLVER_TIMEOUT_SECONDS + 5, check=False
        )
    except subprocess.TimeoutExpired:
        return "timeout"
    lines = result.stdout.strip().splitlines()
    return lines[0].strip() if lines else f"no answer (exit {result.returncode})"


# ---------------------------------------------------------------- balls


def _holds(value: arb, relation: str) -> bool:
    if relation not in RELATIONS:
        raise Rejected(f"unknown relation {relation!r}")
    zero = arb(0)
    return {">": value > zero, ">=": value >= zero, "<": value < zero, "<=": value <= zero}[relation]


def _check_enclosure(value: arb, enclosure: list[str], relation: str, where: str) -> None:
    lo, hi = (ball_of(parse_rational(t)) for t in enclosure)
    if not _holds(value, relation):
        raise Rejected(f"{where}: the re-evaluated ball {value.str(5)} does not satisfy {relation} 0")
    if not (value.lower() >= lo and value.upper() <= hi):
        raise Rejected(f"{where}: the re-evaluated ball {value.str(5)} is not inside the recorded enclosure")


def _precision(payload: dict[str, Any]) -> int:
    prec = payload["prec"]
    if not isinstance(prec, int) or not 16 <= prec <= 4096:
        raise Rejected(f"precision {prec!r} outside 16..4096 bits")
    return prec


def _check_cover(payload: dict[str, Any]) -> str:
    relation = payload["relation"]
    constants = {name: ball_of(parse_rational(v)) for name, v in payload["constants"].items()}
    domain = {name: (parse_rational(lo), parse_rational(hi)) for name, (lo, hi) in payload["domain"].items()}
    if any(lo > hi for lo, hi in domain.values()) or set(domain) & set(constants):
        raise Rejected("the domain is empty or a variable is also a constant")
    saved, ctx.prec = ctx.prec, _precision(payload)
    try:
        leaves = _walk(payload["tree"], domain, payload["expression"], constants, relation, [0])
    finally:
        ctx.prec = saved
    if leaves != payload["leaves"]:
        raise Rejected(f"the tree has {leaves} leaves, the certificate records {payload['leaves']}")
    return f"interval cover re-checked: {leaves} boxes, expression {relation} 0 on each"


def _walk(node: Any, box: dict[str, tuple[Fraction, Fraction]], expression: Any, constants, relation, count) -> int:  # type: ignore[no-untyped-def]
    if not isinstance(node, dict):
        raise Rejected("malformed cover node")
    if "leaf" in node:
        count[0] += 1
        if count[0] > MAX_LEAVES:
            raise Rejected(f"more than {MAX_LEAVES} boxes")
        env = dict(constants)
        env.update({name: ball_of(lo).union(ball_of(hi)) for name, (lo, hi) in box.items()})
        where = "box " + ", ".join(f"{k} in [{float(lo):.6g}, {float(hi):.6g}]" for k, (lo, hi) in box.items())
        _check_enclosure(eval_ball(expression, env), node["leaf"], relation, where)
        return 1
    variable, at = node["split"], parse_rational(node["at"])
    if variable not in box:
        raise Rejected(f"split on unknown variable {variable!r}")
    lo, hi = box[variable]
    if not lo < at < hi:
        raise Rejected(f"split point {at} of {variable} outside ({lo}, {hi}): the boxes would not cover the domain")
    low, high = dict(box), dict(box)
    low[variable], high[variable] = (lo, at), (at, hi)
    return _walk(node["low"], low, expression, constants, relation, count) + _walk(
        node["high"], high, expression, constants, relation, count
    )


# ---------------------------------------------------------------- witnesses


def exact_configuration(record: dict[str, Any]) -> ball_model.ExactConfiguration:
    """The exact configuration of a witness record (rational strings only)."""

    def matrix(rows: Any) -> list[list[Fraction]]:
        return [[parse_rational(v) for v in row] for row in rows]

    tokens = matrix(record["tokens"])
    scores = [matrix(M) for M in record["scores"]]
    values = [matrix(W) for W in record["values"]]
    d = len(tokens[0])
    if len(tokens) < 2 or any(len(x) != d for x in tokens):
        raise Rejected("tokens must be at least two rows of equal length")
    if (
        not scores
        or len(values) != len(scores)
        or any(len(M) != d or any(len(r) != d for r in M) for M in scores + values)
    ):
        raise Rejected("score and value matrices must be H matrices of size d x d")
    if record["attention"] not in ball_model.ATTENTION_KINDS or record["geometry"] not in ("sphere", "flat"):
        raise Rejected("the ball model covers usa and softmax attention on the sphere or in flat space")
    beta = parse_rational(record["beta"])
    if beta <= 0:
        raise Rejected("beta must be positive")
    return ball_model.ExactConfiguration(tokens, scores, values, beta, record["geometry"], record["attention"])


#: What a configuration witness of each existential claim must show: (geometry, hypotheses that the
#: exact data must satisfy, quantity, relation). Without this binding, data satisfying fewer
#: hypotheses (a witness of another statement) could be filed under the claim's id.
_SPHERE_SOFTMAX = frozenset(
    {"unit-tokens", "spherical-geometry", "softmax-attention", "aligned-values", "dimension-at-least-2"}
)
WITNESS_REQUIREMENTS: dict[str, tuple[str, frozenset[str], str, str]] = {
    "T17.shadow-obstruction": (
        "sphere",
        frozenset({"unit-tokens", "symmetric-scores", "aligned-values", "orthogonal-heads"}),
        "head_energy_rate",
        "<",
    ),
    "T11.hypotheses.no-symmetry": ("sphere", frozenset({"unit-tokens", "aligned-values"}), "energy_rate", "<"),
    "T11.hypotheses.no-alignment": ("sphere", frozenset({"unit-tokens", "symmetric-scores"}), "energy_rate", "<"),
    "T27.entropy-monotone.reading-b": ("sphere", _SPHERE_SOFTMAX | {"scalar-heads"}, "entropy_rate", "<"),
    "T27.entropy-monotone.reading-c": ("sphere", _SPHERE_SOFTMAX | {"symmetric-scores"}, "entropy_rate", "<"),
}


def _check_requirements(payload: dict[str, Any], claim_id: str) -> None:
    required = WITNESS_REQUIREMENTS.get(claim_id)
    if required is None:
        return
    geometry, hypotheses, quantity, relation = required
    if not isinstance(payload["hypotheses"], list):
        raise Rejected("hypotheses must be a list")
    stated = (payload["configuration"]["geometry"], payload["quantity"], payload["relation"])
    missing = sorted(hypotheses - set(payload["hypotheses"]))
    if stated != (geometry, quantity, relation) or missing:
        raise Rejected(
            f"{claim_id} needs a {geometry} witness of {quantity} {relation} 0 with {', '.join(sorted(hypotheses))}; "
            f"the file shows {stated[0]}, {stated[1]} {stated[2]} 0"
            + (f", without the required hypotheses {', '.join(missing)}" if missing else "")
        )


def _check_witness(payload: dict[str, Any], claim_id: str = "") -> str:
    saved, ctx.prec = ctx.prec, _precision(payload)
    try:
        if payload["witness"] == "configuration":
            _check_requirements(payload, claim_id)
            return _check_configuration(payload)
        if payload["witness"] == "point":
            return _check_point(payload)
    finally:
        ctx.prec = saved
    raise Rejected(f"unknown witness type {payload['witness']!r}")


def _index(payload: dict[str, Any], key: str, size: int, what: str) -> int:
    value = payload[key]
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < size:
        raise Rejected(f"{key} {value!r} is not one of the {size} {what}")
    return value


def _check_configuration(payload: dict[str, Any]) -> str:
    cfg = exact_configuration(payload["configuration"])
    failed = ball_model.hypothesis_failures(cfg, payload["hypotheses"])
    if failed:
        raise Rejected(f"the exact data violate the stated hypotheses: {', '.join(failed)}")
    quantity = payload["quantity"]
    if quantity == "entropy_rate":
        head = _index(payload, "head", len(cfg.scores), "heads")
        token = _index(payload, "token", cfg.n, "tokens")
        value = ball_model.entropy_rates(cfg)[head][token]
        quantity = f"entropy_rate[head {head}, token {token}]"
    elif quantity == "head_energy_rate":
        rates = ball_model.head_energy_rates(cfg)
        value = rates[_index(payload, "head", len(rates), "heads")]
    elif quantity == "energy_rate":
        rates = ball_model.head_energy_rates(cfg)
        value = sum(rates[1:], rates[0])
    else:
        raise Rejected(f"unknown quantity {quantity!r}")
    _check_enclosure(value, payload["enclosure"], payload["relation"], quantity)
    return f"witness re-checked: {quantity} = {value.str(6)} {payload['relation']} 0 (exact data, balls)"


def _check_point(payload: dict[str, Any]) -> str:
    env = {name: ball_of(parse_rational(v)) for name, v in payload["point"].items()}
    conditions = payload["conditions"]
    if not conditions:
        raise Rejected("a point witness needs at least one condition")
    for k, condition in enumerate(conditions):
        value = eval_ball(condition["expression"], env)
        _check_enclosure(value, condition["enclosure"], condition["relation"], f"condition {k} ({condition['name']})")
    return f"witness re-checked: {len(conditions)} conditions hold at the exact point (balls)"
