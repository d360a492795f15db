"""Certificate forgeries: edits of genuine certificates, each rehashed, that `check-cert` must reject.

Every forgery takes the JSON object of a genuine certificate (of the kind its group names) and
returns a forged object whose sha256 is recomputed (so only the re-check can catch it). They come
in groups by the genuine certificate they start from: `smt` (T19.threshold), `point`
(T22.superadditivity), `invariance` (C8.invariance), `convexity` (T22.superadditivity.reading-b.listed-n),
`configuration` (T17.shadow-obstruction), `alignment` (T11.hypotheses.no-alignment), `entropy`
(T27.entropy-monotone.reading-b). Generators build families of forgeries (every whitespace form
of a smuggled command, every statement dropped, every hypothesis removed, ...), so the suite grows
with the obligations instead of listing cases.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from tests.forging import Edit, collapse_first_split, forged

#: Text that an attacker would like a solver to read: comments, quoted symbols, strings, options,
#: commands (with every whitespace form between the bracket and the keyword).
SMUGGLED = [
    "; (\n(> x 0.0)) (\tassert false) (\tassert true ; )\n",
    '(echo "unsat")',
    '(set-option :regular-output-channel "/tmp/headflow-forged.pth")',
    "(push 1)",
    "(pop 1)",
    "(reset)",
    "(exit)",
    "|x) (assert false) (|",
    '"unsat"',
    *[f"({ws}assert false)" for ws in (" ", "\t", "\n", "\r", "\x0b", "\x0c", "  \t\n")],
    "true) (assert false",
]


def _statements(d: dict[str, Any]) -> list[dict[str, Any]]:
    return d["statement"]["statements"]


def smt_forgeries(genuine: dict[str, Any]) -> Iterator[tuple[str, Edit]]:
    """Forgeries of a T19.threshold certificate."""
    for k, text in enumerate(SMUGGLED):
        yield f"smuggled hypothesis text {k}", lambda d, t=text: _statements(d)[0]["hypotheses"].append(t)
        yield f"smuggled goal text {k}", lambda d, t=text: _statements(d)[0].update(goal=t)
        yield f"smuggled symbol {k}", lambda d, t=text: _statements(d)[0]["constants"].append(t)
        yield (
            f"smuggled rational {k}",
            lambda d, t=text: _statements(d)[0]["hypotheses"].append([">", ["rat", t], ["rat", "0"]]),
        )
        yield f"smuggled operator {k}", lambda d, t=text: _statements(d)[0]["hypotheses"].append([t, ["rat", "1"]])
    x = ["sym", "H"]
    trivial_goal = [">", x, ["rat", "1"]]
    yield (
        "trivial goal with a matching hypothesis",
        lambda d: _statements(d)[0].update(hypotheses=[[">", x, ["rat", "2"]]], goal=trivial_goal),
    )
    yield (
        "goal replaced by a consequence of the hypotheses",
        lambda d: _statements(d)[0].update(goal=[">=", x, ["rat", "2"]]),
    )
    yield (
        "contradictory hypotheses added",
        lambda d: _statements(d)[0]["hypotheses"].extend([[">", x, ["rat", "0"]], ["<", x, ["rat", "0"]]]),
    )
    yield "hypothesis false added", lambda d: _statements(d)[0]["hypotheses"].append(["false"])
    yield "goal true", lambda d: _statements(d)[0].update(goal=["true"])
    yield "goal and last hypothesis swapped", _swap_goal
    yield "statements reordered", lambda d: _statements(d).reverse()
    yield "logic added", lambda d: d["payload"].update(logic="QF_LRA")
    yield "extra payload field", lambda d: d["payload"].update(smtlib="(check-sat)")
    yield "relabelled to the Cauchy-Schwarz reading", lambda d: d.update(claim_id="T19.threshold.cauchy-schwarz")
    yield "relabelled to the exact reading", lambda d: d.update(claim_id="T19.threshold.exact")
    yield "relabelled to an unknown claim", lambda d: d.update(claim_id="T99.made-up")
    yield "kind changed to witness", lambda d: d.update(kind="witness")
    yield "huge rational", lambda d: _statements(d)[0]["hypotheses"].append([">", ["rat", "9" * 5000], ["rat", "0"]])
    yield "huge power", lambda d: _statements(d)[0]["hypotheses"].append([">", ["pow", x, 10**6], ["rat", "0"]])
    yield "deep tree", lambda d: _statements(d)[0]["hypotheses"].append(_deep(300))
    for index, statement in enumerate(genuine["statement"]["statements"]):
        yield f"statement {statement['name']} dropped", lambda d, i=index: _statements(d).pop(i)
        for h in range(len(statement["hypotheses"])):
            yield (
                f"statement {statement['name']}: hypothesis {h} dropped",
                lambda d, i=index, h=h: _statements(d)[i]["hypotheses"].pop(h),
            )
        yield (
            f"statement {statement['name']}: goal negated",
            lambda d, i=index: _statements(d)[i].update(goal=["not", _statements(d)[i]["goal"]]),
        )
        yield f"statement {statement['name']}: renamed", lambda d, i=index: _statements(d)[i].update(name="other")


def _swap_goal(d: dict[str, Any]) -> None:
    statement = _statements(d)[0]
    statement["goal"], statement["hypotheses"][-1] = statement["hypotheses"][-1], statement["goal"]


def _deep(depth: int) -> list[Any]:
    tree: list[Any] = ["rat", "1"]
    for _ in range(depth):
        tree = ["add", tree]
    return [">", tree, ["rat", "0"]]


def point_forgeries(genuine: dict[str, Any]) -> Iterator[tuple[str, Edit]]:
    """Forgeries of a T22.superadditivity point witness (n, lambda1, lambda2)."""
    conditions = genuine["payload"]["conditions"]
    for k in range(len(conditions)):
        yield f"condition {k} dropped", lambda d, k=k: d["payload"]["conditions"].pop(k)
        yield f"condition {k} relation flipped", lambda d, k=k: d["payload"]["conditions"][k].update(relation="<")
        yield (
            f"condition {k} expression replaced",
            lambda d, k=k: d["payload"]["conditions"][k].update(expression=["rat", "1"]),
        )
    yield "n changed", lambda d: d["payload"]["parameters"].update(n=str(int(d["payload"]["parameters"]["n"]) + 1))
    yield "H changed", lambda d: d["payload"]["parameters"].update(H="3")
    yield "n out of range", lambda d: d["payload"]["parameters"].update(n="1")
    yield "point moved", lambda d: d["payload"]["point"].update(lambda1="3")
    yield "point given as a float", lambda d: d["payload"]["point"].update(lambda1=0.11)
    yield "point with an extra coordinate", lambda d: d["payload"]["point"].update(lambda3="1")
    yield "relabelled to the exact T19 reading", lambda d: d.update(claim_id="T19.threshold.exact")
    yield "precision out of range", lambda d: d["payload"].update(prec=10**6)


def invariance_forgeries(genuine: dict[str, Any]) -> Iterator[tuple[str, Edit]]:
    """Forgeries of a C8.invariance point witness (H, n, alpha; beta, rho)."""
    conditions = genuine["payload"]["conditions"]
    for k in range(len(conditions)):
        yield f"condition {k} dropped", lambda d, k=k: d["payload"]["conditions"].pop(k)
        yield f"condition {k} relation flipped", lambda d, k=k: d["payload"]["conditions"][k].update(relation=">=")
    yield "rho before the exit", lambda d: d["payload"]["point"].update(rho="1/10")
    yield "rho negative (never reached)", lambda d: d["payload"]["point"].update(rho="-2/5")
    yield "rho at the collapse", lambda d: d["payload"]["point"].update(rho="1")
    yield "beta above beta*", lambda d: d["payload"]["point"].update(beta="1")
    yield "beta negative", lambda d: d["payload"]["point"].update(beta="-1/20")
    yield "one head", lambda d: d["payload"]["parameters"].update(H="1")
    yield "more tokens", lambda d: d["payload"]["parameters"].update(n="4")
    yield "relabelled to the exit gap", lambda d: d.update(claim_id="C8.invariance.exit-gap")


def convexity_forgeries(genuine: dict[str, Any]) -> Iterator[tuple[str, Edit]]:
    """Forgeries of a T22.superadditivity.reading-b.listed-n convexity certificate."""
    parts = lambda d: d["payload"]["parts"]  # noqa: E731
    yield "a moved above b", lambda d: d["payload"].update(a=d["payload"]["b"])
    yield "b moved to 40", lambda d: d["payload"].update(b="40")
    yield "n changed", lambda d: d["statement"]["parameters"].update(n="4")
    yield "n added to the payload", lambda d: d["payload"].update(parameters={"n": "4"})
    yield "convex cover starts at 1", lambda d: parts(d)["convex"]["domain"]["u"].__setitem__(0, "1")
    yield "convex cover stops at 20", lambda d: parts(d)["convex"]["domain"]["u"].__setitem__(1, "20")
    yield "convex relation flipped", lambda d: parts(d)["convex"].update(relation="<")
    yield (
        "rising cover of another expression",
        lambda d: parts(d)["g-rising"].update(expression=parts(d)["convex"]["expression"]),
    )
    yield "g-below at another point", lambda d: parts(d)["g-below"]["point"].update(u="1")
    yield (
        "convex tree collapsed to its low half",
        lambda d: parts(d)["convex"].update(tree=collapse_first_split(parts(d)["convex"]["tree"])),
    )
    yield "leaf count inflated", lambda d: parts(d)["convex"].update(leaves=10**9)
    yield "part dropped", lambda d: parts(d).pop("g-rising")
    yield "precision out of range", lambda d: parts(d)["convex"].update(prec=100_000)
    yield "one n filed as the general reading-b", lambda d: d.update(claim_id="T22.superadditivity.reading-b")


def configuration_forgeries(genuine: dict[str, Any]) -> Iterator[tuple[str, Edit]]:
    """Forgeries of a T17.shadow-obstruction witness (usa, sphere, symmetric aligned orthogonal heads)."""
    cfg = lambda d: d["payload"]["configuration"]  # noqa: E731
    yield "attention softmax", lambda d: cfg(d).update(attention="softmax")
    yield "geometry flat", lambda d: cfg(d).update(geometry="flat")
    for hypothesis in genuine["payload"]["hypotheses"]:
        yield f"hypothesis {hypothesis} dropped", lambda d, h=hypothesis: d["payload"]["hypotheses"].remove(h)
    yield "term dE_dt", lambda d: d["statement"]["model"]["relation"].update(lhs=["name", "dE_dt"])
    yield "relation flipped", lambda d: d["payload"].update(relation="<")
    yield "statement weakened to one head", lambda d: d["statement"]["model"].update(head=0)
    yield "relabelled to no-symmetry", lambda d: d.update(claim_id="T11.hypotheses.no-symmetry")
    yield "relabelled to entropy reading-b", lambda d: d.update(claim_id="T27.entropy-monotone.reading-b")
    yield "values differ from scores", lambda d: cfg(d)["values"][0][0].__setitem__(0, "7/3")
    yield "token off the sphere", lambda d: cfg(d)["tokens"][0].__setitem__(0, "1/3")
    yield "beta zero", lambda d: cfg(d).update(beta="0")
    yield "beta changed", lambda d: cfg(d).update(beta="1/1000")
    yield "head out of range", lambda d: d["payload"].update(at={"h": 99})
    yield "enclosure moved", lambda d: d["payload"].update(enclosure=["999", "1000"])
    yield "oversized: 100 tokens in dimension 100", _oversized


def alignment_forgeries(genuine: dict[str, Any]) -> Iterator[tuple[str, Edit]]:
    """Forgeries of a T11.hypotheses.no-alignment witness (usa, sphere, symmetric M_h and W_h, W_h != M_h)."""
    cfg = lambda d: d["payload"]["configuration"]  # noqa: E731
    for h in range(len(genuine["payload"]["configuration"]["values"])):
        yield f"value matrix {h} not symmetric", lambda d, h=h: _unsymmetrize(cfg(d)["values"][h])
        yield f"head {h} aligned (W_h = M_h)", lambda d, h=h: cfg(d)["values"].__setitem__(h, cfg(d)["scores"][h])
    yield "values equal to the scores", lambda d: cfg(d).update(values=cfg(d)["scores"])
    for hypothesis in genuine["payload"]["hypotheses"]:
        yield f"hypothesis {hypothesis} dropped", lambda d, h=hypothesis: d["payload"]["hypotheses"].remove(h)
    yield "relabelled to no-symmetry", lambda d: d.update(claim_id="T11.hypotheses.no-symmetry")


def _unsymmetrize(matrix: list[list[str]]) -> None:
    """Add 1 to entry (0, 1) only, so the (exactly symmetric) matrix is no longer symmetric."""
    matrix[0][1] = str(Fraction(matrix[0][1]) + 1)


def _oversized(d: dict[str, Any]) -> None:
    size = 100
    identity = [["1" if i == j else "0" for j in range(size)] for i in range(size)]
    d["payload"]["configuration"].update(
        tokens=[["1" if i == j else "0" for j in range(size)] for i in range(size)],
        scores=[identity],
        values=[identity],
    )


#: The field every `unchecked_fields` forgery adds: a checker that checks every field names it.
UNCHECKED = "zz_unchecked"


def unchecked_fields(genuine: dict[str, Any]) -> Iterator[tuple[str, Edit]]:
    """One unknown field added to each object of the certificate, at every level (objects of the same keys at
    the same depth are one case: a cover tree's thousand leaves are one)."""
    seen: set[tuple[int, frozenset[str]]] = set()
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), genuine)]
    while stack:
        path, node = stack.pop()
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        stack.extend(((*path, key), child) for key, child in children)
        shape = (min(len(path), 8), frozenset(node) if isinstance(node, dict) else frozenset())
        if isinstance(node, dict) and shape not in seen:
            seen.add(shape)
            yield (
                f"unknown field in {'.'.join(map(str, path)) or 'the top level'}",
                lambda d, p=path: _at(d, p).update({UNCHECKED: "For all H >= 1: c_star(H) <= 1/2"}),
            )


def _at(data: Any, path: tuple[str | int, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


GROUPS: dict[str, Callable[[dict[str, Any]], Iterator[tuple[str, Edit]]]] = {
    "smt": smt_forgeries,
    "point": point_forgeries,
    "invariance": invariance_forgeries,
    "convexity": convexity_forgeries,
    "configuration": configuration_forgeries,
    "alignment": alignment_forgeries,
}


def forgeries(genuine: dict[str, dict[str, Any]]) -> list[tuple[str, str, dict[str, Any]]]:
    """(group, name, forged object) for every forgery of every group."""
    out = []
    for group, generate in GROUPS.items():
        for name, edit in generate(genuine[group]):
            out.append((group, name, forged(genuine[group], edit)))
    return out


def unchecked(genuine: dict[str, dict[str, Any]]) -> list[tuple[str, str, dict[str, Any]]]:
    """(group, name, forged object) for an unknown field added at every level of every group's certificate."""
    return [
        (group, name, forged(original, edit))
        for group, original in genuine.items()
        for name, edit in unchecked_fields(original)
    ]
