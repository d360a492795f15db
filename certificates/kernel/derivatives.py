"""Partial derivatives of expression trees (`headflow.certificates.kernel.exprtree`), by the rules of calculus.

The centred form and the monotonicity tests of `certificates.provers.intervals` enclose a partial derivative over a
box; the checker (`certificates.kernel.recheck`) recomputes it here from the certificate's expression itself, so
a certificate never carries a derivative of its own. The rules, one per node:

    d rat = 0, d sym = 1 or 0, d (a + b) = da + db, d (a b c) = da b c + a db c + a b dc, d (-a) = -da,
    d (a - b) = da - db, d (a / b) = d (a b^-1),
    d a^k = k a^(k-1) da, d e^a = e^a da, d log a = da a^-1, d sqrt a = (1/2) da (sqrt a)^-1,
    d W(a) = da e^(-W(a)) (1 + W(a))^-1           (W' = 1 / (e^W (1 + W)), finite for a > -1/e),
    d a^q = a^q (dq log a + q da a^-1)              (`rpow`, a real power; finite only for a > 0),
    d lambda_c(a, b) = da L_n(a, b) + db L_b(a, b) (`identities.closed_forms.lambda_c_partials`, stored as trees by
                                                    `headflow.certificates.kernel.stored_forms`, proved by
                                                    `headflow.identities.scalar_regime.prove_lambda_c_monotone`).

What a ball of the derivative over a box means: when the ball of the expression over the box and the
ball of its derivative are both finite, every node is continuously differentiable on the box (a negative
power's base, a log's argument, a square root's argument and 1 + W are then bounded away from 0, and
W's argument from -1/e), so the mean value theorem applies with the derivative inside its ball. The
callers check both balls.
"""

from functools import partial

from . import stored_forms
from .exprtree import NAMED, Tree, TreeError, expand, substitute, symbols

ZERO, ONE = ["rat", "0"], ["rat", "1"]
#: f'(a) for the functions of one argument, from the node f(a) itself and a (the chain rule multiplies by da).
OUTER = {"exp": lambda node, a: node, "log": lambda node, a: ["pow", a, -1]}
OUTER |= {"sqrt": lambda node, a: ["mul", ["rat", "1/2"], ["pow", node, -1]]}
OUTER |= {"lambertw": lambda node, a: ["mul", ["exp", ["mul", ["rat", "-1"], node]], ["pow", ["add", ONE, node], -1]]}


def derivative(tree: Tree, name: str) -> Tree:
    """The partial derivative of the tree with respect to the symbol `name` (TreeError on an unknown node)."""
    if name not in symbols(tree):
        return ZERO
    op, args = tree[0], tree[1:]
    if op == "sym":
        return ONE
    if op == "add":
        return _add([derivative(a, name) for a in args])
    if op in ("neg", "sub") and len(args) == (1 if op == "neg" else 2):
        return [op, *(derivative(a, name) for a in args)]
    if op == "div" and len(args) == 2:
        return derivative(["mul", args[0], ["pow", args[1], -1]], name)
    if op == "mul":
        return _add([_mul([*args[:i], derivative(factor, name), *args[i + 1 :]]) for i, factor in enumerate(args)])
    if op == "pow" and type(args[1]) is int:
        base, k = args  # k = 0: the factor ["rat", "0"] makes the product 0
        power = ONE if k == 1 else base if k == 2 else ["pow", base, k - 1]
        return _mul([["rat", str(k)], power, derivative(base, name)])
    if op in OUTER and len(args) == 1:
        return _mul([OUTER[op](tree, args[0]), derivative(args[0], name)])
    if op in NAMED and len(args) == len(NAMED[op]):
        return derivative(expand(tree), name)
    if op == "rpow" and len(args) == 2:  # b^q = exp(q log b): b^q (dq log b + q db / b)
        base, q = args
        terms = [_mul([derivative(q, name), ["log", base]]), _mul([q, derivative(base, name), ["pow", base, -1]])]
        return _mul([tree, _add(terms)])
    if op == "lambda_c" and len(args) == 2:  # the stored d/dn and d/dbeta at the placeholders #n, #beta
        at = {"#n": args[0], "#beta": args[1]}
        partials = [substitute(stored_forms.tree(partial), at) for partial in stored_forms.LAMBDA_C_PARTIALS]
        return _add([_mul([p, derivative(a, name)]) for p, a in zip(partials, args, strict=True)])
    raise TreeError(f"no derivative rule for node {str(op)[:20]!r}")


def _node(op: str, terms: list[Tree]) -> Tree:
    """`op` ("add" or "mul") of the terms, its unit (0 or 1) left out, a product with a factor 0 being 0."""
    unit = ZERO if op == "add" else ONE
    if op == "mul" and ZERO in terms:
        return ZERO
    kept = [t for t in terms if t != unit]
    return [op, *kept] if len(kept) > 1 else kept[0] if kept else unit


#: A sum and a product, simplified.
_add = partial(_node, "add")
_mul = partial(_node, "mul")
