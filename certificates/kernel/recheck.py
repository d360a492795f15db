"""The checker's re-computations: exact points and model configurations, with balls (covers: `covers`).

Each function takes certificate data (already known to be the claim's obligation, or compared
with it here) and re-evaluates it with exact rationals and python-flint balls; a relation holds
only when the ball settles it. Every size is bounded first (`headflow.certificates.kernel.format`), so a small
hostile file cannot make the checker run for minutes. Any failure raises `Rejected`. The shape checks every
statement form shares (exact keys, naturals and integer ranges, words from a list, bounded lists, rational rows,
masks, witness kinds) live here too, once.
"""

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from flint import arb

from . import exact, format as fmt, masks
from .balls import eval_ball
from .exact_data import ExactConfiguration
from .exp_field import exactly_zero
from .exprtree import TreeError, count_nodes, parse_rational
from .interaction import Interaction
from .vocabulary import ATTENTION_KINDS, DIRECTION_GEOMETRIES, GEOMETRIES


class Rejected(ValueError):
    """The certificate does not re-check; the message is the one-line reason."""


def require_keys(data: object, keys: Iterable[str], what: str) -> dict[str, Any]:
    """`data`, an object with exactly these keys."""
    wanted = set(keys)
    if not isinstance(data, dict):
        raise Rejected(f"{what} is not an object")
    if set(data) != wanted:
        missing, extra = sorted(wanted - set(data)), sorted(set(data) - wanted)
        raise Rejected(f"{what}: missing {missing or 'nothing'}, unexpected {str(extra)[:120] or 'nothing'}")
    return data


def rational_map(data: object, what: str) -> dict[str, Fraction]:
    """An object of exact rational strings."""
    if not isinstance(data, dict) or len(data) > 64:
        raise Rejected(f"{what} must be an object of at most 64 exact rationals")
    values = {}
    for key, text in data.items():
        try:
            values[str(key)] = parse_rational(text)
        except TreeError as exc:  # naming the key: an unknown field is refused by its name
            raise Rejected(f"{what}.{str(key)[:60]}: {exc}") from None
    return values


def natural(value: object, low: int = 0, high: int | None = None) -> bool:
    """Whether `value` is an integer in [low, high] (None: unbounded; a JSON boolean is not one)."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value and (high is None or value <= high)


def require_list(value: object, most: int, what: str, least: int = 0) -> list[Any]:
    """`value` is a list of `least` to `most` entries."""
    if not isinstance(value, list) or not least <= len(value) <= most:
        raise Rejected(f"{what} must be a list of {least} to {most} entries")
    return value


def require_choices(data: dict[str, Any], choices: Mapping[str, Iterable[str]], what: str) -> None:
    """Each `data[key]` is one of the words `choices[key]`."""
    for key, allowed in choices.items():
        if data[key] not in allowed:
            raise Rejected(f"{what} {key} {str(data[key])[:40]!r}: one of {', '.join(allowed)}")


def array(data: object, shape: Sequence[int], what: str) -> Any:
    """Nested lists of exactly the lengths `shape` with exact rational texts at the leaves (Rejected otherwise)."""
    if not shape:
        return parse_rational(data)
    if not isinstance(data, list) or len(data) != shape[0]:
        raise Rejected(f"{what}: nested lists of {' x '.join(map(str, shape))} exact rationals")
    return [array(item, shape[1:], what) for item in data]


def mask_rows(rows: object, n: int, what: str) -> masks.Mask | None:
    """The mask these rows (or a mask's name) give n tokens; Rejected, naming `what`, when they give none."""
    try:
        return masks.mask_of(rows, n)
    except Exception as exc:  # InputError, or rows too malformed to be read: the data name no mask
        raise Rejected(f"{what}: {exc}") from None


def require_witness(payload: object, kind: str, keys: Iterable[str], what: str) -> None:
    """`payload` is a witness of this kind with exactly these fields."""
    require_keys(payload, keys, what)
    if payload["witness"] != kind:  # type: ignore[index]
        raise Rejected(f"{what} must be a {kind} witness")


def point_witness(payload: object, parameters: object, what: str) -> dict[str, Fraction]:
    """The exact point of a point witness (`what`) at exactly these parameters."""
    require_witness(payload, "point", {"witness", "parameters", "point", "prec", "conditions"}, what)
    if payload["parameters"] != parameters:  # type: ignore[index]
        raise Rejected(f"{what} must be at the parameters {parameters}, not {str(payload['parameters'])[:120]}")  # type: ignore[index]
    return rational_map(payload["point"], "point")  # type: ignore[index]


def recorded_precision(payload: dict[str, Any], highest: int = fmt.MAX_PRECISION) -> int:
    """The recorded ball precision, within the format's bounds."""
    prec = payload["prec"]
    if not natural(prec, fmt.MIN_PRECISION, highest):
        raise Rejected(f"precision {str(prec)[:20]} outside {fmt.MIN_PRECISION}..{highest} bits")
    return prec


def check_enclosure(value: arb, enclosure: object, relation: str, where: str, zero: bool = False) -> None:
    """The ball satisfies the relation (settled by the ball, or `zero`: the value is exactly 0 and the relation >= or
    <=) and lies inside the recorded [lo, hi]. The relations a cover or a point condition proves: the signs, and !=
    for a definedness condition (every leaf excludes 0)."""
    if not isinstance(enclosure, list) or len(enclosure) != 2:
        raise Rejected(f"{where}: the enclosure must be [lo, hi]")
    lo, hi = (exact.ball_of(parse_rational(t)) for t in enclosure)
    settled = exact.holds(value, relation) or (zero and relation in (">=", "<="))
    if relation not in (*exact.SIGNS, "!=") or not settled:
        raise Rejected(f"{where}: the re-evaluated ball {value.str(5)} does not satisfy {relation} 0")
    if not (value.lower() >= lo and value.upper() <= hi):
        raise Rejected(f"{where}: the re-evaluated ball {value.str(5)} is not inside the recorded enclosure")


def require_conditions(stated: object, expected: list[dict[str, Any]], claim_id: str) -> None:
    """The file's conditions are exactly the obligation's (name, expression, relation), in order."""
    if not isinstance(stated, list) or len(stated) != len(expected):
        raise Rejected(f"{claim_id} needs {len(expected)} conditions: {', '.join(e['name'] for e in expected)}")
    for mine, theirs in zip(expected, stated, strict=True):
        require_keys(theirs, {"name", "expression", "relation", "enclosure"}, f"condition {mine['name']}")
        if wrong := [part for part in ("name", "expression", "relation") if theirs[part] != mine[part]]:
            raise Rejected(f"condition {mine['name']!r}: the {wrong[0]} is not the obligation of {claim_id}")


def point_conditions(payload: dict[str, Any], point: Mapping[str, Fraction]) -> str:
    """Every condition holds at the exact point, settled by balls at the recorded precision (a sign >= or <= also by
    the exact zero test of `exp_field`, where both sides of a claim are exactly equal)."""
    conditions = require_list(payload["conditions"], fmt.MAX_CONDITIONS, "a point witness's conditions", 1)
    with exact.precision(recorded_precision(payload)):
        env = {name: exact.ball_of(value) for name, value in point.items()}
        for condition in conditions:  # each bounded before it is evaluated
            count_nodes(condition["expression"], fmt.MAX_TERM_NODES)
            value = eval_ball(condition["expression"], env)
            unsettled = condition["relation"] in (">=", "<=") and not exact.holds(value, "!=")  # only then: no 0
            zero = unsettled and exactly_zero(condition["expression"], dict(point))
            where = f"condition {condition['name']!r}"
            check_enclosure(value, condition["enclosure"], condition["relation"], where, zero)
    return f"{len(conditions)} condition(s) settled by balls (or exactly 0) at the exact point"


# ---------------------------------------------------------------- configurations


def exact_configuration(
    record: object, interaction: Interaction | None = None, negative_beta: bool | None = False, masked: bool = False
) -> ExactConfiguration:
    """The exact configuration of a witness record (rational strings only), within the size bounds. `interaction` is
    the claim's, rebuilt by the checker from the claim's text: the record's `interaction` tree must be exactly its
    tree (present exactly when the claim states one), and the configuration uses the checker's own. beta > 0, or
    beta < 0 when `negative_beta`, or any beta when it is None (equilibria: the caller holds it equal to its
    statement's, which says the sign), and a `mask` (n rows of 0/1 with a unit diagonal, `certificates.kernel.masks`)
    only when `masked`: the claim says which model it is about (repulsive, masked), never the certificate, and the
    caller compares the mask with the claim's."""
    keys = {"tokens", "scores", "values", "beta", "attention", "geometry"} | ({"mask"} if masked else set())
    record = require_keys(record, keys | ({"interaction"} if interaction is not None else set()), "configuration")
    if interaction is not None and record["interaction"] != interaction.tree:
        raise Rejected(f"the witness's interaction is not the claim's phi(s) = {interaction.text}")

    n = len(require_list(record["tokens"], fmt.MAX_TOKENS, "tokens", 2))  # n x d tokens, H heads of d x d matrices
    d = len(require_list(record["tokens"][0], fmt.MAX_DIMENSION, "a token", 1))
    H = len(require_list(record["scores"], fmt.MAX_HEADS, "scores", 1))
    shapes = {"tokens": (n, d), "scores": (H, d, d), "values": (H, d, d)}
    tokens, scores, values = (array(record[k], shape, k) for k, shape in shapes.items())
    require_choices(record, {"attention": ATTENTION_KINDS, "geometry": GEOMETRIES}, "configuration")
    beta = parse_rational(record["beta"])
    if negative_beta is not None and (beta == 0 or (beta < 0) != negative_beta):
        raise Rejected(f"beta must be {'negative' if negative_beta else 'positive'}")
    if record["geometry"] in DIRECTION_GEOMETRIES and any(sum(v * v for v in x) != 1 for x in tokens):
        raise Rejected(f"exact data of {record['geometry']} need unit tokens (their directions exactly)")
    mask = mask_rows(record["mask"], n, "the mask") if masked else None
    return ExactConfiguration(tokens, scores, values, beta, record["geometry"], record["attention"], mask, interaction)
