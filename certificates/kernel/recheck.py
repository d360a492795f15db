"""The checker's re-computations: exact points, interval covers and model configurations, with balls.

Each function takes certificate data (already known to be the claim's obligation, or compared
with it here) and re-evaluates it with exact rationals and python-flint balls; a relation holds
only when the ball settles it. Every size is bounded first (`certificates.kernel.format`), so a small
hostile file cannot make the checker run for minutes. Any failure raises `Rejected`. The shape checks every
statement form shares (exact keys, naturals and integer ranges, words from a list, bounded lists, rational rows,
masks, witness kinds) live here too, once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from flint import arb

from certificates.kernel import derivatives, exact, forms, lambda_c, masks
from certificates.kernel import format as fmt
from certificates.kernel.balls import eval_ball
from certificates.kernel.exact import ball_of, box_text, precision
from certificates.kernel.exprtree import TreeError, count_nodes, parse_rational
from certificates.kernel.regions import Box, Region
from certificates.kernel.vocabulary import ATTENTION_KINDS, DIRECTION_GEOMETRIES, GEOMETRIES

if TYPE_CHECKING:  # the model's checks load on first use: covers and points need no model (nor SymPy)
    from certificates.kernel import ball_model
    from certificates.kernel.interaction import Interaction


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
    values = {}
    for key, text in data.items():
        try:
            values[str(key)] = parse_rational(text)
        except TreeError as exc:
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


def integer_range(value: object, least: int, what: str, most: int | None = None) -> tuple[int, int | None]:
    """`[low, high or null]` (null: unbounded) of integers with least <= low <= high <= most."""
    ends = value if isinstance(value, list) and len(value) == 2 else [None, None]
    if not natural(ends[0], least, most) or not (ends[1] is None or natural(ends[1], ends[0], most)):
        raise Rejected(f"{what}: [low, high or null] of integers, {least} <= low <= high")
    return ends[0], ends[1]


def require_choices(data: dict[str, Any], choices: Mapping[str, Iterable[str]], what: str) -> None:
    """Each `data[key]` is one of the words `choices[key]`."""
    for key, allowed in choices.items():
        if data[key] not in allowed:
            raise Rejected(f"{what} {key} {str(data[key])[:40]!r}: one of {', '.join(allowed)}")


def mask_rows(rows: object, n: int, what: str) -> masks.Mask | None:
    """The mask these rows (or a mask's name) give n tokens; Rejected, naming `what`, when they give none."""
    try:
        return masks.mask_of(rows, n)
    except Exception as exc:  # InputError, or rows too malformed to be read: the data name no mask
        raise Rejected(f"{what}: {exc}") from None


#: The fields of a point witness.
POINT_KEYS = frozenset({"witness", "parameters", "point", "prec", "conditions"})


def require_witness(payload: object, kind: str, keys: Iterable[str], what: str) -> None:
    """`payload` is a witness of this kind with exactly these fields."""
    require_keys(payload, keys, what)
    if payload["witness"] != kind:  # type: ignore[index]
        raise Rejected(f"{what} must be a {kind} witness")


def point_witness(payload: object, parameters: object, what: str) -> dict[str, Fraction]:
    """The exact point of a point witness (`what`) at exactly these parameters."""
    require_witness(payload, "point", POINT_KEYS, what)
    if payload["parameters"] != parameters:  # type: ignore[index]
        raise Rejected(f"{what} must be at the parameters {parameters}, not {str(payload['parameters'])[:120]}")  # type: ignore[index]
    return rational_map(payload["point"], "point")  # type: ignore[index]


def recorded_precision(payload: dict[str, Any], highest: int = fmt.MAX_PRECISION) -> int:
    """The recorded ball precision, within the format's bounds."""
    prec = payload["prec"]
    if not natural(prec, fmt.MIN_PRECISION, highest):
        raise Rejected(f"precision {str(prec)[:20]} outside {fmt.MIN_PRECISION}..{highest} bits")
    return prec


#: Relations a cover proves: the signs, and != for a definedness condition (every leaf excludes 0).
COVER_RELATIONS = (*exact.SIGNS, "!=")


def _known(relation: object) -> None:
    if relation not in COVER_RELATIONS:
        raise Rejected(f"unknown relation {str(relation)[:10]!r}")


def check_enclosure(value: arb, enclosure: object, relation: str, where: str) -> None:
    """The ball satisfies the relation (settled by the ball) and lies inside the recorded [lo, hi]."""
    if not isinstance(enclosure, list) or len(enclosure) != 2:
        raise Rejected(f"{where}: the enclosure must be [lo, hi]")
    lo, hi = (ball_of(parse_rational(t)) for t in enclosure)
    _known(relation)
    if not exact.holds(value, relation):
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
    conditions = require_list(payload["conditions"], fmt.MAX_CONDITIONS, "a point witness's conditions", 1)
    for condition in conditions:
        count_nodes(condition["expression"], fmt.MAX_TERM_NODES)
    with precision(recorded_precision(payload)):
        env = {name: ball_of(value) for name, value in point.items()}
        for condition in conditions:
            value = eval_ball(condition["expression"], env)
            check_enclosure(value, condition["enclosure"], condition["relation"], f"condition {condition['name']!r}")
    return f"{len(conditions)} condition(s) settled by balls at the exact point"


# ---------------------------------------------------------------- covers

#: The fields of a cover's payload.
COVER_KEYS = frozenset({"expression", "relation", "variables", "domain", "tree", "leaves", "prec"})


def cover(
    payload: object,
    expression: list[Any],
    relation: str,
    domain: forms.Box,
    region: Region | None = None,
) -> int:
    """The cover proves `expression relation 0` on the box `domain` (on its points in `region` when given);
    returns the number of leaves.

    The expression, relation and domain are the obligation's (compared with the file). Every node's box is first
    clipped to the region (`certificates.kernel.regions`); the tree must split inside each clipped box, so the leaves
    cover it exactly. Node kinds: a leaf settled by the natural or the centred form, an empty box, a split, a
    monotone step to a face (`_Walk`)."""
    require_keys(payload, COVER_KEYS, "cover")
    assert isinstance(payload, dict)
    wanted = {
        "expression": expression,
        "relation": relation,
        "domain": {k: [str(a), str(b)] for k, (a, b) in domain.items()},
    }
    wrong = [part for part, mine in wanted.items() if payload[part] != mine]
    wrong += [] if _same_names(payload["variables"], domain) else ["variables"]
    if wrong:
        stated = payload["domain"] if isinstance(payload["domain"], dict) else {}
        unknown = [f"domain.{key}" for key in sorted(set(stated) - set(domain))]
        named = f" (unknown field {unknown[0][:80]!r})" if unknown else ""
        raise Rejected(f"the cover differs from the obligation in its {', '.join(wrong)}{named}")
    _known(relation)
    leaves = payload["leaves"]
    if not isinstance(leaves, int) or not 1 <= leaves <= fmt.MAX_COVER_LEAVES:
        raise Rejected(f"a cover has 1 to {fmt.MAX_COVER_LEAVES} leaves")
    walk = _Walk(expression, relation, leaves, region)
    with precision(recorded_precision(payload, fmt.MAX_COVER_PRECISION)):
        count = walk.run(payload["tree"], dict(domain))
    if count != leaves:
        raise Rejected(f"the tree has {count} leaves, the certificate records {leaves}")
    return count


def _same_names(stated: object, domain: Mapping[str, object]) -> bool:
    """The listed variables are the domain's, each once (their order is the writer's, JSON sorts the domain)."""
    return isinstance(stated, list) and len(stated) == len(domain) and set(map(str, stated)) == set(domain)


_NODE_KEYS = (
    ({"leaf"}, "leaf"),
    ({"leaf", "form"}, "leaf"),
    ({"empty"}, "empty"),
    ({"split", "at", "low", "high"}, "split"),
    ({"monotone", "sign", "face"}, "monotone"),
)
_NODE_FIELDS = frozenset().union(*(keys for keys, _ in _NODE_KEYS))


class _Walk:
    """The iterative walk of a cover tree (no recursion limit), within the work bounds of the format. Every node
    proves the one `expression relation 0`; a face drops the region's bounds of its `relaxed` variables."""

    def __init__(self, expression: list[Any], relation: str, leaves: int, region: Region | None) -> None:
        self.expression, self.relation, self.leaves, self.region = expression, relation, leaves, region
        self.size = count_nodes(expression, fmt.MAX_TERM_NODES)
        self.work, self.count, self.roots = 0, 0, lambda_c.root_count()
        #: variable -> (the partial derivative of the expression in it, its number of nodes)
        self.slopes: dict[str, tuple[list[Any], int]] = {}
        bounds = [] if region is None else [b for side in region.sides for b in (side.low, side.high)]
        self.bound_nodes = sum(count_nodes(b, fmt.MAX_TERM_NODES) for b in bounds if isinstance(b, list))

    def run(self, root: object, domain: Box) -> int:
        stack: list[tuple[object, Box, frozenset[str]]] = [(root, domain, frozenset())]
        while stack:
            stack.extend(self._node(*stack.pop()))
        return self.count

    def _node(self, node: object, box: Box, relaxed: frozenset[str]) -> list[Any]:
        kind = next((k for keys, k in _NODE_KEYS if isinstance(node, dict) and set(node) == keys), None)
        if kind is None:
            unknown = sorted(set(node) - _NODE_FIELDS) if isinstance(node, dict) else []
            raise Rejected(f"cover node: unknown field {unknown[0][:60]!r}" if unknown else "malformed cover node")
        assert isinstance(node, dict)
        self.work += self.bound_nodes
        clipped = box if self.region is None else self.region.clip(box, relaxed)
        if clipped is None or kind == "empty":
            if clipped is not None or kind != "empty" or node["empty"] is not True:
                raise Rejected("a node is marked empty exactly when its box holds no point of the domain")
            return self._leaf()
        where = "box " + box_text(clipped)
        if kind == "leaf":
            self._leaf()
            whole = self._ball(self.expression, self.size, clipped)
            if node.get("form", "natural") == "natural":
                check_enclosure(whole, node["leaf"], self.relation, where)
                return []
            if node["form"] != "centred":
                raise Rejected(f"unknown leaf form {str(node['form'])[:20]!r}")
            slopes = {name: self._ball(*self._slope(name), clipped) for name in forms.varying(clipped)}
            self._cost(self.size)  # the value at the midpoint
            value = forms.centred(self.expression, slopes, clipped, whole)
            if value is None:
                raise Rejected(f"{where}: the centred form needs finite balls of the expression and its derivatives")
            check_enclosure(value, node["leaf"], self.relation, where)
            return []
        if kind == "split":
            variable, at = node["split"], parse_rational(node["at"])
            if variable not in clipped:
                raise Rejected(f"split on unknown variable {str(variable)[:40]!r}")
            lo, hi = clipped[variable]
            if not lo < at < hi:
                raise Rejected(f"split point {at} of {variable} outside ({lo}, {hi}): the boxes would not cover it")
            return [
                (node["high"], clipped | {variable: (at, hi)}, relaxed),
                (node["low"], clipped | {variable: (lo, at)}, relaxed),
            ]
        variable, sign = node["monotone"], node["sign"]
        if variable not in clipped or clipped[variable][0] == clipped[variable][1]:
            raise Rejected(f"a monotone node needs a side of positive width, not {str(variable)[:40]!r}")
        if not self._ball(self.expression, self.size, clipped).is_finite():
            raise Rejected(f"{where}: a monotone node needs the expression defined (a finite ball) on its box")
        if self.relation not in exact.SIGNS or sign not in (">=", "<="):
            raise Rejected(f"a monotone node proves a sign (not {self.relation!r}) by a derivative >= or <= 0")
        slope = self._ball(*self._slope(variable), clipped)
        if not exact.holds(slope, sign):
            raise Rejected(f"{where}: the derivative in {variable} is {slope.str(5)}, not {sign} 0 (monotonicity)")
        at = clipped[variable][0 if forms.face_end(self.relation, sign) == "low" else 1]
        relaxed |= {variable} | (self.region.referencing(variable) if self.region else frozenset())
        return [(node["face"], clipped | {variable: (at, at)}, relaxed)]

    def _leaf(self) -> list[Any]:
        self.count += 1
        if self.count > self.leaves:
            raise Rejected(f"the tree has more leaves than the {self.leaves} recorded")
        return []

    def _slope(self, name: str) -> tuple[list[Any], int]:
        """The partial derivative of the expression in `name` and its number of nodes, computed once."""
        if name not in self.slopes:
            try:
                tree = derivatives.derivative(self.expression, name)
            except TreeError as exc:
                raise Rejected(f"no derivative in {name}: {exc}") from None
            self.slopes[name] = (tree, count_nodes(tree, fmt.MAX_DERIVED_NODES))
        return self.slopes[name]

    def _cost(self, size: int) -> None:
        """Count the ball operations of one evaluation of a tree of `size` nodes against the format's bound."""
        self.work += size
        if self.work > fmt.MAX_COVER_WORK:
            raise Rejected(f"more than {fmt.MAX_COVER_WORK} ball operations: the cover is too large to re-check")
        if lambda_c.root_count() - self.roots > fmt.MAX_COVER_ROOTS:
            raise Rejected(f"more than {fmt.MAX_COVER_ROOTS} lambda_c roots: the cover is too large to re-check")

    def _ball(self, tree: list[Any], size: int, box: Box) -> arb:
        self._cost(size)
        return forms.natural(tree, box)


# ---------------------------------------------------------------- configurations


def exact_configuration(
    record: object, interaction: Interaction | None = None, negative_beta: bool = False, masked: bool = False
) -> ball_model.ExactConfiguration:
    """The exact configuration of a witness record (rational strings only), within the size bounds. `interaction` is
    the claim's, rebuilt by the checker from the claim's text: the record's `interaction` tree must be exactly its
    tree (present exactly when the claim states one), and the configuration uses the checker's own. beta > 0, or
    beta < 0 when `negative_beta`, and a `mask` (n rows of 0/1 with a unit diagonal, `certificates.kernel.masks`)
    only when `masked`: the claim says which model it is about (repulsive, masked), never the certificate, and the
    caller compares the mask with the claim's."""
    from certificates.kernel import ball_model

    keys = {"tokens", "scores", "values", "beta", "attention", "geometry"} | ({"mask"} if masked else set())
    require_keys(record, keys | ({"interaction"} if interaction is not None else set()), "configuration")
    assert isinstance(record, dict)
    if interaction is not None and record["interaction"] != interaction.tree:
        raise Rejected(f"the witness's interaction is not the claim's phi(s) = {interaction.text}")

    def matrix(rows: object, what: str, n_rows: range, n_cols: range) -> list[list[Fraction]]:
        """Rows of exact rationals, as many as `n_rows` allows, each as long as `n_cols` allows."""
        lengths = [len(r) if isinstance(r, list) else -1 for r in rows] if isinstance(rows, list) else [-1]
        if len(lengths) not in n_rows or any(k not in n_cols for k in lengths):
            raise Rejected(
                f"{what}: {n_rows.start}..{n_rows.stop - 1} rows of {n_cols.start}..{n_cols.stop - 1} entries"
            )
        return [[parse_rational(v) for v in row] for row in rows]  # type: ignore[union-attr]

    tokens = matrix(record["tokens"], "tokens", range(2, fmt.MAX_TOKENS + 1), range(1, fmt.MAX_DIMENSION + 1))
    d = len(tokens[0])
    if any(len(x) != d for x in tokens):
        raise Rejected("tokens must be rows of equal length")
    heads, square = (record["scores"], record["values"]), range(d, d + 1)
    if any(not isinstance(h, list) or len(h) != len(heads[0]) or not 1 <= len(h) <= fmt.MAX_HEADS for h in heads):
        raise Rejected(f"1 to {fmt.MAX_HEADS} score matrices and as many value matrices")
    scores, values = (
        [matrix(M, what, square, square) for M in h] for h, what in zip(heads, ("scores", "values"), strict=True)
    )
    if record["attention"] not in ATTENTION_KINDS or record["geometry"] not in GEOMETRIES:
        kinds = ", ".join(ATTENTION_KINDS)
        raise Rejected(f"the ball model covers {kinds} attention on the sphere or in flat space")
    beta = parse_rational(record["beta"])
    if beta == 0 or (beta < 0) != negative_beta:
        raise Rejected(f"beta must be {'negative' if negative_beta else 'positive'}")
    if record["geometry"] in DIRECTION_GEOMETRIES and any(sum(v * v for v in x) != 1 for x in tokens):
        raise Rejected(f"exact data of {record['geometry']} need unit tokens (their directions exactly)")
    mask = mask_rows(record["mask"], len(tokens), "the mask") if masked else None
    return ball_model.ExactConfiguration(
        tokens, scores, values, beta, record["geometry"], record["attention"], mask=mask, interaction=interaction
    )
