"""The checker's re-computations: exact points, interval covers and model configurations, with balls.

Each function takes certificate data (already known to be the claim's obligation, or compared
with it here) and re-evaluates it with exact rationals and python-flint balls; a relation holds
only when the ball settles it. Every size is bounded first (`certificates.format`), so a small
hostile file cannot make the checker run for minutes. Any failure raises `Rejected`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from fractions import Fraction
from typing import Any

from flint import arb

from certificates import ball_model, exact
from certificates import format as fmt
from certificates.exact import ball_of, interval_ball, precision
from certificates.exprtree import count_nodes, eval_ball, parse_rational
from certificates.model_quantities import MODEL_QUANTITIES, ball_value


class Rejected(ValueError):
    """The certificate does not re-check; the message is the one-line reason."""


def require_keys(data: object, keys: Iterable[str], what: str) -> None:
    """`data` is an object with exactly these keys."""
    wanted = set(keys)
    if not isinstance(data, dict):
        raise Rejected(f"{what} is not an object")
    if set(data) != wanted:
        missing, extra = sorted(wanted - set(data)), sorted(set(data) - wanted)
        raise Rejected(f"{what}: missing {missing or 'nothing'}, unexpected {str(extra)[:120] or 'nothing'}")


def integer_parameters(data: object, ranges: Mapping[str, tuple[int, int]]) -> dict[str, int]:
    """Integer parameters given as decimal strings, each within the obligation's (min, max)."""
    require_keys(data, ranges, "parameters")
    params = {}
    for name, (lo, hi) in ranges.items():
        text = data[name]  # type: ignore[index]
        if not isinstance(text, str) or not text.isdigit() or len(text) > 12 or not lo <= int(text) <= hi:
            raise Rejected(f"parameter {name} must be an integer in [{lo}, {hi}], not {str(text)[:40]!r}")
        params[name] = int(text)
    return params


def rational_map(data: object, what: str) -> dict[str, Fraction]:
    """An object of exact rational strings."""
    if not isinstance(data, dict) or len(data) > 64:
        raise Rejected(f"{what} must be an object of at most 64 exact rationals")
    return {str(k): parse_rational(v) for k, v in data.items()}


def recorded_precision(payload: dict[str, Any], highest: int = fmt.MAX_PRECISION) -> int:
    """The recorded ball precision, within the format's bounds."""
    prec = payload["prec"]
    if not isinstance(prec, int) or isinstance(prec, bool) or not fmt.MIN_PRECISION <= prec <= highest:
        raise Rejected(f"precision {str(prec)[:20]} outside {fmt.MIN_PRECISION}..{highest} bits")
    return prec


def holds(value: arb, relation: str) -> bool:
    """`value relation 0`, settled by the ball (False when the ball cannot tell)."""
    if relation not in exact.SIGNS:
        raise Rejected(f"unknown relation {str(relation)[:10]!r}")
    return exact.holds(value, relation)


def check_enclosure(value: arb, enclosure: object, relation: str, where: str) -> None:
    """The ball satisfies the relation and lies inside the recorded [lo, hi]."""
    if not isinstance(enclosure, list) or len(enclosure) != 2:
        raise Rejected(f"{where}: the enclosure must be [lo, hi]")
    lo, hi = (ball_of(parse_rational(t)) for t in enclosure)
    if not holds(value, relation):
        raise Rejected(f"{where}: the re-evaluated ball {value.str(5)} does not satisfy {relation} 0")
    if not (value.lower() >= lo and value.upper() <= hi):
        raise Rejected(f"{where}: the re-evaluated ball {value.str(5)} is not inside the recorded enclosure")


def require_conditions(stated: object, expected: list[dict[str, Any]], claim_id: str) -> None:
    """The file's conditions are exactly the obligation's (name, expression, relation), in order."""
    if not isinstance(stated, list) or len(stated) != len(expected):
        raise Rejected(f"{claim_id} needs {len(expected)} conditions: {', '.join(e['name'] for e in expected)}")
    for mine, theirs in zip(expected, stated, strict=True):
        require_keys(theirs, {"name", "expression", "relation", "enclosure"}, f"condition {mine['name']}")
        for part in ("name", "expression", "relation"):
            if theirs[part] != mine[part]:
                raise Rejected(f"condition {mine['name']!r}: the {part} is not the obligation of {claim_id}")


def point_conditions(payload: dict[str, Any], point: Mapping[str, Fraction]) -> str:
    """Every condition holds at the exact point, settled by balls at the recorded precision."""
    conditions = payload["conditions"]
    if not isinstance(conditions, list) or not 1 <= len(conditions) <= fmt.MAX_CONDITIONS:
        raise Rejected(f"a point witness has 1 to {fmt.MAX_CONDITIONS} conditions")
    for condition in conditions:
        count_nodes(condition["expression"], fmt.MAX_TERM_NODES)
    with precision(recorded_precision(payload)):
        env = {name: ball_of(value) for name, value in point.items()}
        for condition in conditions:
            value = eval_ball(condition["expression"], env)
            check_enclosure(value, condition["enclosure"], condition["relation"], f"condition {condition['name']!r}")
    return f"{len(conditions)} condition(s) settled by balls at the exact point"


# ---------------------------------------------------------------- covers


def cover(
    payload: object,
    expression: list[Any],
    relation: str,
    domain: Mapping[str, tuple[Fraction, Fraction]],
    constants: Mapping[str, Fraction],
) -> int:
    """The cover proves `expression relation 0` on the box `domain`; returns the number of boxes.

    The expression, relation, domain and constants are the obligation's (compared with the file);
    the bisection tree must split inside each box, so the leaves cover the domain exactly."""
    require_keys(
        payload, {"expression", "relation", "variables", "constants", "domain", "tree", "leaves", "prec"}, "cover"
    )
    stated_domain = {k: [str(v) for v in pair] for k, pair in payload["domain"].items()}  # type: ignore[index]
    wanted_domain = {k: [_text(lo), _text(hi)] for k, (lo, hi) in domain.items()}
    checks = {
        "expression": payload["expression"] == expression,  # type: ignore[index]
        "relation": payload["relation"] == relation,  # type: ignore[index]
        "domain": stated_domain == wanted_domain,
        "constants": payload["constants"] == {k: _text(v) for k, v in constants.items()},  # type: ignore[index]
        "variables": payload["variables"] == list(domain),  # type: ignore[index]
    }
    wrong = [name for name, ok in checks.items() if not ok]
    if wrong:
        raise Rejected(f"the cover differs from the obligation in its {', '.join(wrong)}")
    leaves = payload["leaves"]  # type: ignore[index]
    if not isinstance(leaves, int) or not 1 <= leaves <= fmt.MAX_COVER_LEAVES:
        raise Rejected(f"a cover has 1 to {fmt.MAX_COVER_LEAVES} leaves")
    nodes = count_nodes(expression, fmt.MAX_TERM_NODES)
    if leaves * nodes > fmt.MAX_COVER_WORK:
        raise Rejected(f"{leaves} leaves of a {nodes}-node expression: more than {fmt.MAX_COVER_WORK} ball operations")
    fixed = {k: ball_of(v) for k, v in constants.items()}
    with precision(recorded_precision(payload, fmt.MAX_COVER_PRECISION)):  # type: ignore[arg-type]
        count = _walk(payload["tree"], dict(domain), expression, fixed, relation, leaves)  # type: ignore[index]
    if count != leaves:
        raise Rejected(f"the tree has {count} leaves, the certificate records {leaves}")
    return count


def _text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _walk(
    root: object,
    domain: dict[str, tuple[Fraction, Fraction]],
    expression: list[Any],
    fixed: dict[str, arb],
    relation: str,
    leaves: int,
) -> int:
    """Iterative walk (no recursion limit); stops as soon as more leaves than recorded appear."""
    count, stack = 0, [(root, domain)]
    while stack:
        node, box = stack.pop()
        if not isinstance(node, dict):
            raise Rejected("malformed cover node")
        if "leaf" in node:
            count += 1
            if count > leaves:
                raise Rejected(f"the tree has more leaves than the {leaves} recorded")
            env = fixed | {name: interval_ball(lo, hi) for name, (lo, hi) in box.items()}
            where = "box " + ", ".join(f"{k} in [{float(lo):.6g}, {float(hi):.6g}]" for k, (lo, hi) in box.items())
            check_enclosure(eval_ball(expression, env), node["leaf"], relation, where)
            continue
        require_keys(node, {"split", "at", "low", "high"}, "cover node")
        variable, at = node["split"], parse_rational(node["at"])
        if variable not in box:
            raise Rejected(f"split on unknown variable {str(variable)[:40]!r}")
        lo, hi = box[variable]
        if not lo < at < hi:
            raise Rejected(f"split point {at} of {variable} outside ({lo}, {hi}): the boxes would not cover the domain")
        stack.append((node["high"], box | {variable: (at, hi)}))
        stack.append((node["low"], box | {variable: (lo, at)}))
    return count


# ---------------------------------------------------------------- configurations


def exact_configuration(record: object) -> ball_model.ExactConfiguration:
    """The exact configuration of a witness record (rational strings only), within the size bounds."""
    require_keys(record, {"tokens", "scores", "values", "beta", "attention", "geometry"}, "configuration")
    assert isinstance(record, dict)

    def matrix(rows: object, what: str, max_rows: int, max_cols: int) -> list[list[Fraction]]:
        if not isinstance(rows, list) or not 1 <= len(rows) <= max_rows:
            raise Rejected(f"{what}: 1 to {max_rows} rows")
        if any(not isinstance(r, list) or not 1 <= len(r) <= max_cols for r in rows):
            raise Rejected(f"{what}: rows of 1 to {max_cols} entries")
        return [[parse_rational(v) for v in row] for row in rows]

    tokens = matrix(record["tokens"], "tokens", fmt.MAX_TOKENS, fmt.MAX_DIMENSION)
    d = len(tokens[0])
    heads = record["scores"], record["values"]
    if any(not isinstance(h, list) or not 1 <= len(h) <= fmt.MAX_HEADS for h in heads):
        raise Rejected(f"1 to {fmt.MAX_HEADS} score and value matrices")
    scores = [matrix(M, "scores", d, d) for M in record["scores"]]
    values = [matrix(W, "values", d, d) for W in record["values"]]
    if len(tokens) < 2 or any(len(x) != d for x in tokens):
        raise Rejected("tokens must be at least two rows of equal length")
    if len(values) != len(scores) or any(len(M) != d or any(len(r) != d for r in M) for M in scores + values):
        raise Rejected("score and value matrices must be H matrices of size d x d")
    if record["attention"] not in ball_model.ATTENTION_KINDS or record["geometry"] not in ("sphere", "flat"):
        raise Rejected("the ball model covers usa and softmax attention on the sphere or in flat space")
    beta = parse_rational(record["beta"])
    if beta <= 0:
        raise Rejected("beta must be positive")
    return ball_model.ExactConfiguration(tokens, scores, values, beta, record["geometry"], record["attention"])


def _index(payload: dict[str, Any], key: str, size: int, what: str) -> int:
    value = payload.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < size:
        raise Rejected(f"{key} {str(value)[:20]} is not one of the {size} {what}")
    return value


def configuration(
    payload: dict[str, Any],
    *,
    attention: str,
    geometry: str,
    hypotheses: Collection[str],
    quantity: str,
    relation: str,
    claim_id: str,
) -> str:
    """The witness is an exact configuration with exactly the claim's hypotheses, kind and geometry,
    and `quantity relation 0` is settled by balls (inside the recorded enclosure)."""
    axes = MODEL_QUANTITIES[quantity].axes
    keys = {"witness", "configuration", "hypotheses", "quantity", "relation", "prec", "enclosure", *axes}
    require_keys(payload, keys, "configuration witness")
    record = payload["configuration"]
    stated = {
        "witness": payload["witness"],
        "attention": record.get("attention") if isinstance(record, dict) else None,
        "geometry": record.get("geometry") if isinstance(record, dict) else None,
        "quantity": payload["quantity"],
        "relation": payload["relation"],
    }
    wanted = {
        "witness": "configuration",
        "attention": attention,
        "geometry": geometry,
        "quantity": quantity,
        "relation": relation,
    }
    wrong = [f"{k} {str(stated[k])[:30]!r} (needs {v!r})" for k, v in wanted.items() if stated[k] != v]
    listed = payload["hypotheses"]
    if not isinstance(listed, list) or set(map(str, listed)) != set(hypotheses):
        wrong.append(f"hypotheses {str(listed)[:120]} (needs {', '.join(sorted(hypotheses))})")
    if wrong:
        raise Rejected(f"not a witness of {claim_id}: " + "; ".join(wrong))
    cfg = exact_configuration(record)
    failed = ball_model.hypothesis_failures(cfg, sorted(hypotheses))
    if failed:
        raise Rejected(f"the exact data violate the claim's hypotheses: {', '.join(failed)}")
    with precision(recorded_precision(payload)):
        sizes = {"head": (len(cfg.score_matrices), "heads"), "token": (cfg.n, "tokens")}
        at = {axis: _index(payload, axis, *sizes[axis]) for axis in axes}
        value = ball_value(cfg, quantity, at.get("head"), at.get("token"))
        name = MODEL_QUANTITIES[quantity].written(**at)
        check_enclosure(value, payload["enclosure"], relation, name)
    d, H = len(cfg.tokens[0]), len(cfg.score_matrices)
    return f"exact data n = {cfg.n}, d = {d}, H = {H}, beta = {cfg.beta}: {name} = {value.str(6)} (balls)"
