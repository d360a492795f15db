"""The model's formulas are written once per number type (issue 41, item 2): the float ones in
`checks/model/formulas.py` (numpy and jax.numpy, one array namespace `xp`), the balls' and the exact ones in the
kernel's chain (`certificates/kernel/`). No other module of the project writes them: a detector reads every module's
syntax tree for the shapes of the model's core formulas, and the detector is shown to find each shape in a planted
copy (so the rule can fail).

The shapes, each written with any names and any array namespace:

- projection: `U - sum(U * X, ...) * X` or `U - vecdot(U, X)[..., None] * X` (einsum too) (the tangent projection
  P⊥_x(u) = u - <u, x> x), also as `U -= ...`;
- shift: `z - z.max(axis=..., keepdims=True)` (softmax's numerators shifted by their row maxima), also `-=`;
  each of these three also as the array function (`np.subtract`, `np.divide`);
- normalization: `w / w.sum(axis=..., keepdims=True)` (softmax's division by its row sums), also `/=`;
- relu: `maximum(z, 0)` (relu's weights);
- exponential of scores: `exp(beta * s)` or `exp(...)` of a matrix product (usa's and softmax's numerators).
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
#: The packages whose modules the rule reads.
PACKAGES = ("identities", "certificates", "checks")
#: The number-type layer: the float formulas, and the kernel (balls and exact values, `model_chain.py`, and the
#: evaluators of its trees).
ALLOWED = ("checks/model/formulas.py", "certificates/kernel/")
#: The array namespaces of the float formulas.
ARRAY_NAMESPACES = {"np", "numpy", "jnp", "xp"}
#: The array functions read as the operators they are (`np.subtract(U, ...)` is `U - ...`).
UFUNCS = {"subtract": ast.Sub(), "divide": ast.Div(), "true_divide": ast.Div()}


def _same(a: ast.AST, b: ast.AST) -> bool:
    """The same expression (an assignment's target as its value: `U -= ... U ...`)."""
    return ast.dump(a).replace("Store()", "Load()") == ast.dump(b).replace("Store()", "Load()")


def _keywords(call: ast.Call) -> dict[str, ast.AST]:
    return {k.arg: k.value for k in call.keywords if k.arg}


def _named(node: ast.AST, *names: str) -> bool:
    """Whether node is a call of a function or method of one of `names` (np.sum, xp.sum, jnp.sum, sum, z.sum)."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Attribute) and func.attr in names) or (isinstance(func, ast.Name) and func.id in names)


def _array_call(node: ast.AST, name: str) -> bool:
    """Whether node calls `name` of an array namespace (np.exp, jnp.exp, xp.exp; not SymPy's sp.exp, whose
    reductions in `identities` are derivations, not the model's arrays)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == name
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in ARRAY_NAMESPACES
    )


def _row_reduction(node: ast.AST, name: str, of: ast.AST) -> bool:
    """`of.name(axis=..., keepdims=True)` or `xp.name(of, axis=..., keepdims=True)`."""
    if not _named(node, name):
        return False
    assert isinstance(node, ast.Call)
    keepdims = _keywords(node).get("keepdims")
    if not (isinstance(keepdims, ast.Constant) and keepdims.value is True):
        return False
    receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
    return (receiver is not None and _same(receiver, of)) or (bool(node.args) and _same(node.args[0], of))


def _projection(target: ast.AST, subtracted: ast.AST) -> bool:
    """subtracted = sum(target * X, ...) * X (either order of each product)."""
    if not (isinstance(subtracted, ast.BinOp) and isinstance(subtracted.op, ast.Mult)):
        return False
    for total, X in ((subtracted.left, subtracted.right), (subtracted.right, subtracted.left)):
        total = total.value if isinstance(total, ast.Subscript) else total  # vecdot(...)[..., None]
        pair: tuple[ast.AST, ...] = ()
        if _named(total, "sum") and isinstance(total, ast.Call) and total.args:
            product = total.args[0]
            if isinstance(product, ast.BinOp) and isinstance(product.op, ast.Mult):
                pair = (product.left, product.right)
        elif _named(total, "einsum", "vecdot") and isinstance(total, ast.Call):
            pair = tuple(a for a in total.args if not isinstance(a, ast.Constant))
        if len(pair) == 2 and any(_same(a, target) and _same(b, X) for a, b in (pair, pair[::-1])):
            return True
    return False


def _of_scores(node: ast.AST) -> bool:
    """An exponential's argument that is a score: beta times something, or a matrix product."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.MatMult):
            return True
        if isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Mult):
            for side in (inner.left, inner.right):
                if (isinstance(side, ast.Name) and side.id == "beta") or (
                    isinstance(side, ast.Attribute) and side.attr == "beta"
                ):
                    return True
    return False


def formulas_in(source: str) -> list[tuple[int, str]]:
    """(line, shape) of every core formula of the model written in `source` (module docstring)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        pairs: list[tuple[ast.AST, ast.operator, ast.AST]] = []
        if isinstance(node, ast.BinOp):
            pairs.append((node.left, node.op, node.right))
        elif isinstance(node, ast.AugAssign):
            pairs.append((node.target, node.op, node.value))
        elif isinstance(node, ast.Call) and len(node.args) >= 2 and any(_array_call(node, f) for f in UFUNCS):
            assert isinstance(node.func, ast.Attribute)
            pairs.append((node.args[0], UFUNCS[node.func.attr], node.args[1]))
        for left, op, right in pairs:
            if isinstance(op, ast.Sub) and _projection(left, right):
                found.append((node.lineno, "projection"))
            if isinstance(op, ast.Sub) and _row_reduction(right, "max", left):
                found.append((node.lineno, "shift"))
            if isinstance(op, ast.Div) and _row_reduction(right, "sum", left):
                found.append((node.lineno, "normalization"))
        if _array_call(node, "maximum") and isinstance(node, ast.Call) and len(node.args) == 2:
            zero = node.args[1]
            if isinstance(zero, ast.Constant) and zero.value == 0:
                found.append((node.lineno, "relu"))
        if _array_call(node, "exp") and isinstance(node, ast.Call) and node.args and _of_scores(node.args[0]):
            found.append((node.lineno, "exponential of scores"))
    return found


def _modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def test_only_the_number_type_layer_writes_the_model_formulas() -> None:
    written = {}
    for path in _modules():
        name = path.relative_to(ROOT).as_posix()
        if not name.startswith(ALLOWED) and (found := formulas_in(path.read_text(encoding="utf-8"))):
            written[name] = found
    assert not written, f"model formulas outside checks/model/formulas.py and the kernel: {written}"


PLANTED = {
    "projection": "V - jnp.sum(V * X, axis=1, keepdims=True) * X",
    "projection ": "U - np.sum(X * U, axis=-1, keepdims=True) * X",
    "projection  ": "U - xp.vecdot(U, X)[..., None] * X",
    "shift": "np.exp(score - score.max(axis=1, keepdims=True))",
    "normalization": "weight / weight.sum(axis=1, keepdims=True)",
    "relu": "np.maximum(score, 0.0) / n",
    "exponential of scores": "np.exp(cfg.beta * (X @ M @ X.T))",
    "shift ": "np.subtract(score, np.max(score, axis=-1, keepdims=True), out=score)",
    "normalization ": "xp.divide(weight, xp.sum(weight, axis=-1, keepdims=True))",
}


def test_the_detector_finds_planted_copies() -> None:
    for shape, expression in PLANTED.items():
        source = textwrap.dedent(f"""
            import numpy as np
            def copy(U, V, X, M, score, weight, n, cfg):
                return {expression}
        """)
        assert shape.strip() in {found for _, found in formulas_in(source)}, (shape, expression)
    augmented = textwrap.dedent("""
        def f(U, X, z):
            U -= np.sum(U * X, axis=-1, keepdims=True) * X
            z /= z.sum(axis=-1, keepdims=True)
    """)
    assert {shape for _, shape in formulas_in(augmented)} == {"projection", "normalization"}


def test_the_detector_passes_other_arithmetic() -> None:
    """Expressions near the shapes that are not the model's formulas (a controller's norm, a decay, an order
    parameter) are not flagged."""
    source = textwrap.dedent("""
        import numpy as np
        def other(err, y, theta, rate, t, U, X, W):
            a = np.maximum(np.abs(y), 1e-300)
            b = np.exp(-rate * t) + np.exp(1j * theta)
            c = U - np.sum(U * X, axis=-1, keepdims=True) * W
            d = U / X.sum(axis=-1, keepdims=True)
            return a, b, c, d
    """)
    assert formulas_in(source) == []
