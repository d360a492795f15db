"""Interval covers: the enclosures a cover's leaves and nodes use, computed alike by the prover
(`headflow.certificates.provers.intervals`) and the checker, and the checker's walk of a cover tree (`cover`).

- natural: the expression's ball with every variable bound to the ball of its side (interval arithmetic
  node by node; sound, but blind to cancellation: x - x over [0, 1] is [-1, 1]).
- centred (mean value form): f(m) + sum_i d_i f(box) (x_i - m_i) with m the exact midpoint, valid when f
  and its partial derivatives have finite balls over the box (`headflow.certificates.kernel.derivatives`: f is then
  continuously differentiable on the box). Its width shrinks like the square of the box's width, so it
  defeats cancellation: (sqrt((H-1)^2+4) - (H-1))/2 over a narrow box.
- monotone: a partial derivative with a sign on the box puts the minimum (for > and >=) or the maximum
  (for < and <=) on one face, `face_end`.
"""

from collections.abc import Mapping
from typing import Any

from flint import arb

from . import derivatives, exact, format as fmt, lambda_c
from .balls import eval_ball
from .exact import ball_of, box_text, interval_ball, precision
from .exprtree import Tree, count_nodes, parse_rational
from .recheck import Rejected, check_enclosure, recorded_precision, require_keys
from .regions import Box, Region


def natural(tree: Tree, box: Box) -> arb:
    """The natural interval extension of the tree over the box."""
    return eval_ball(tree, {name: interval_ball(lo, hi) for name, (lo, hi) in box.items()})


def varying(box: Box) -> list[str]:
    """The variables whose side is not a single point."""
    return [name for name, (lo, hi) in box.items() if lo < hi]


def centred(tree: Tree, slopes: Mapping[str, arb], box: Box, whole: arb) -> arb | None:
    """The mean value form over the box (`slopes`: the natural balls over the box of the partial derivatives in
    every varying side), or None when `whole` (the natural ball of the tree) or a slope is not finite (the form
    does not apply)."""
    if not whole.is_finite():
        return None
    middle = {name: (lo + hi) / 2 for name, (lo, hi) in box.items()}
    value = eval_ball(tree, {name: ball_of(m) for name, m in middle.items()})
    for name in varying(box):  # a slope that is not finite leaves a value that is not (the side has width)
        lo, hi = box[name]
        value += slopes[name] * interval_ball(lo - middle[name], hi - middle[name])
    return value if value.is_finite() else None


def face_end(relation: str, sign: str) -> str:
    """The end ("low" or "high") of the side where the relation is hardest, for a derivative of `sign`
    (">=": non-decreasing, "<=": non-increasing): the minimum for > and >=, the maximum for < and <=."""
    return "low" if (sign == ">=") == (relation in (">", ">=")) else "high"  # increasing == wants the minimum


#: The fields of a cover's payload.
COVER_KEYS = frozenset({"expression", "relation", "domain", "tree", "prec"})


def cover(
    payload: dict[str, Any], expression: Tree, relation: str, domain: Box | None = None, region: Region | None = None
) -> int:
    """The cover proves `expression relation 0` on the box `domain` (on its points in `region` when given, which the
    box must contain: `Region.uncovered`); returns the number of leaves.

    The expression, relation and domain are the obligation's (compared with the file); a region's cover (`domain`
    None) has the box the file states, in its exact text, which must contain the region. Every node's box is first
    clipped to the region (`certificates.kernel.regions`); the tree must split inside each clipped box, so the leaves
    cover it exactly. Node kinds: a leaf settled by the natural or the centred form, an empty box, a split, a
    monotone step to a face (`_Walk`)."""
    require_keys(payload, COVER_KEYS, "cover")  # an object of these fields, whatever its caller passes
    if domain is None:
        domain = {k: (parse_rational(lo), parse_rational(hi)) for k, (lo, hi) in payload["domain"].items()}
    sides = {k: [str(a), str(b)] for k, (a, b) in domain.items()}  # exact text, as `rational_text` writes it
    wanted = {"expression": expression, "relation": relation, "domain": sides}
    if wrong := [part for part, mine in wanted.items() if payload[part] != mine]:
        unknown = sorted(set(payload["domain"]) - set(domain)) if isinstance(payload["domain"], dict) else []
        named = f" (unknown field 'domain.{unknown[0][:80]}')" if unknown else ""
        raise Rejected(f"the cover differs from the obligation in its {', '.join(wrong)}{named}")
    with precision(recorded_precision(payload, fmt.MAX_COVER_PRECISION)):
        if region is not None and (missing := region.uncovered(domain)) is not None:
            raise Rejected(f"the cover's box does not contain the statement's domain: {missing}")
        return _Walk(expression, relation, region).run(payload["tree"], dict(domain))


_NODE_KEYS = (({"leaf"}, "leaf"), ({"leaf", "form"}, "leaf"), ({"empty"}, "empty"))
_NODE_KEYS += (({"split", "at", "low", "high"}, "split"), ({"monotone", "sign", "face"}, "monotone"))
_NODE_FIELDS = frozenset().union(*(keys for keys, _ in _NODE_KEYS))


class _Walk:
    """The iterative walk of a cover tree (no recursion limit), within the work bounds of the format. Every node
    proves the one `expression relation 0`; a face drops the region's bounds of its `relaxed` variables."""

    def __init__(self, expression: list[Any], relation: str, region: Region | None) -> None:
        self.expression, self.relation, self.region = expression, relation, region
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

    def _node(self, node: Any, box: Box, relaxed: frozenset[str]) -> list[Any]:
        kind = next((k for keys, k in _NODE_KEYS if isinstance(node, dict) and set(node) == keys), None)
        if kind is None:
            unknown = sorted(set(node) - _NODE_FIELDS) if isinstance(node, dict) else []
            raise Rejected(f"cover node: unknown field {unknown[0][:60]!r}" if unknown else "malformed cover node")
        self.work += self.bound_nodes
        clipped = box if self.region is None else self.region.clip(box, relaxed)
        if clipped is None or kind == "empty":
            if clipped is not None or kind != "empty" or node["empty"] is not True:
                raise Rejected("a node is marked empty exactly when its box holds no point of the domain")
            return self._leaf()
        where = "box " + box_text(clipped)
        if kind == "leaf":
            value = self._ball(self.expression, self.size, clipped)
            if node.get("form", "natural") != "natural":
                if node["form"] != "centred":
                    raise Rejected(f"unknown leaf form {str(node['form'])[:20]!r}")
                slopes = {name: self._ball(*self._slope(name), clipped) for name in varying(clipped)}
                self._cost(self.size)  # the value at the midpoint
                value = centred(self.expression, slopes, clipped, value)
                if value is None:
                    raise Rejected(f"{where}: the centred form needs finite balls of the expression and its slopes")
            check_enclosure(value, node["leaf"], self.relation, where)
            return self._leaf()
        if kind == "split":
            variable, at = node["split"], parse_rational(node["at"])
            lo, hi = clipped[variable] if variable in varying(clipped) else (at, at)
            if not lo < at < hi:
                raise Rejected(f"split of {str(variable)[:40]!r} at {at} not inside its side: no cover of the box")
            low, high = clipped | {variable: (lo, at)}, clipped | {variable: (at, hi)}
            return [(node["high"], high, relaxed), (node["low"], low, relaxed)]
        variable, sign = node["monotone"], node["sign"]
        if variable not in varying(clipped):
            raise Rejected(f"a monotone node needs a side of positive width, not {str(variable)[:40]!r}")
        if not self._ball(self.expression, self.size, clipped).is_finite():
            raise Rejected(f"{where}: a monotone node needs the expression defined (a finite ball) on its box")
        if self.relation not in exact.SIGNS or sign not in (">=", "<="):
            raise Rejected(f"a monotone node proves a sign (not {self.relation!r}) by a derivative >= or <= 0")
        slope = self._ball(*self._slope(variable), clipped)
        if not exact.holds(slope, sign):
            raise Rejected(f"{where}: the derivative in {variable} is {slope.str(5)}, not {sign} 0 (monotonicity)")
        at = clipped[variable][0 if face_end(self.relation, sign) == "low" else 1]
        relaxed |= {variable} | (self.region.referencing(variable) if self.region else frozenset())
        return [(node["face"], clipped | {variable: (at, at)}, relaxed)]

    def _leaf(self) -> list[Any]:
        self.count += 1
        if self.count > fmt.MAX_COVER_LEAVES:
            raise Rejected(f"a cover has at most {fmt.MAX_COVER_LEAVES} leaves")
        return []

    def _slope(self, name: str) -> tuple[list[Any], int]:
        """The partial derivative of the expression in `name` and its number of nodes, computed once (TreeError
        where a node has no derivative rule: the certificate is rejected as malformed)."""
        if name not in self.slopes:
            tree = derivatives.derivative(self.expression, name)
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
        return natural(tree, box)
