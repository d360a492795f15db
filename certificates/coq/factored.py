"""A proof of a relation between rational functions of exp, ln and the variables by the signs of its factors.

`nra` multiplies hypotheses two at a time, so a numerator that is a product of three signed factors (lam (1 - E) n,
E = exp(beta lam) > 1) defeats it however long it searches. Here SymPy proposes: the difference of the two sides over
one denominator, factored, each factor's sign read at a point of the domain. The proof then states what SymPy
proposed and Coq checks each step: the exponentials rewritten as powers of one atom per ratio class (exp(2 a) as
exp(a) ^ 2, exp(-a) as / exp(a), by `hf_exp_pow` and `exp_Ropp`), the difference equal to the product by `field`,
each factor's sign by `hf_decide`, the signs of the partial products two at a time by `nra` on those two facts alone,
and the relation from the last. Nothing here is trusted: a wrong proposal is a proof coqc rejects.
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction
from typing import Any

import sympy as sp
from flint import arb
from headflow.certificates.kernel.coq.statements import UniversalStatement, expanded, translated
from headflow.certificates.kernel.exprtree import fold, substitute
from headflow.certificates.kernel.lambda_c import enclose
from headflow.certificates.sympy_trees import from_sympy

#: The relation's parts: `<=` and `<` as l - r against 0, `>=` and `>` as r - l (Rminus_le, Rminus_lt).
_OPENING = {"<=": "apply Rminus_le", "<": "apply Rminus_lt", ">=": "apply Rle_ge, Rminus_le", ">": "apply Rminus_lt"}
#: Candidate values of a variable, for a point of the domain where the factors' signs are read.
_VALUES = (Fraction(3), Fraction(5, 2), Fraction(2), Fraction(7, 2), Fraction(3, 2), Fraction(1), Fraction(1, 2), 10)
#: What a proposal outside SymPy's or the trees' reach raises (TreeError is a ValueError): then no factored proof.
PROPOSAL_ERRORS = (ValueError, TypeError, ZeroDivisionError, sp.PolynomialError)
#: A factor whose value at the point is this small has no sign the point shows.
_TINY = 1e-9


def sympy_of(tree: Any, variable: Any = sp.Symbol, exp: Any = sp.exp, log: Any = sp.log) -> sp.Expr:
    """The SymPy expression of a term (a proposal's: never a sign or zero the proof rests on), each symbol by
    `variable`, each exp and log by `exp` and `log`; TreeError (a ValueError) for a node without a rule."""
    rules: dict[str, Any] = {"rat": lambda q: sp.Rational(q.numerator, q.denominator), "sym": variable}
    rules |= {"add": lambda *a: sp.Add(*a), "mul": lambda *a: sp.Mul(*a), "neg": lambda a: -a, "pow": lambda b, k: b**k}
    rules |= {"sub": lambda a, b: a - b, "div": lambda a, b: a / b, "exp": exp, "log": log}
    return fold(tree, rules)


class _Atoms:
    """The exp and ln atoms of a statement, each exp a power of one atom per class of exponents with rational ratios,
    with the Coq text of each and of the rewriting of the statement's own exponentials into those powers."""

    def __init__(self, statement: UniversalStatement, representatives: tuple[Any, ...] = ()) -> None:
        self.integers, self.representatives = statement.integers, representatives
        self.trees: dict[str, Any] = {}  # SymPy symbol's name -> the tree it stands for (a variable, exp, ln)
        self.exponents: list[tuple[sp.Expr, str, Any]] = []  # every exp argument: (SymPy, Coq text, tree)
        self.values: dict[sp.Symbol, Any] = {}  # atom symbol -> SymPy expression of its value in the variables
        self.bases: list[tuple[sp.Expr, sp.Symbol]] = []  # (base exponent, its atom)
        self.powers: dict[str, tuple[sp.Symbol, int]] = {}  # exponent text -> (atom, k)

    def variable(self, name: str) -> sp.Symbol:
        symbol = sp.Symbol(f"v_{name}", real=True)
        self.trees[symbol.name] = ["sym", name]
        return symbol

    def coq(self, expr: sp.Expr) -> str:
        """Coq text of a SymPy rational function of the atoms, as the statement's own translation writes it."""
        return translated(substitute(from_sympy(expr), self.trees), {}, self.integers)

    def collect(self, tree: Any) -> None:
        """Every exp argument of the tree, innermost first (`classify` then groups them)."""
        if not isinstance(tree, list) or tree[:1] in (["rat"], ["sym"]):
            return
        for child in tree[1:2] if tree[0] == "pow" else tree[1:]:
            self.collect(child)
        if tree[0] == "exp":
            self.exponents.append((self.sympy(tree[1], plain=True), translated(tree[1], {}, self.integers), tree[1]))

    def classify(self) -> None:
        """Each class of exponents with rational ratios gets one atom exp(e / m), e its first exponent and m the least
        common denominator of the ratios, so that every exponential of the class is an integer power of it."""
        groups: list[list[tuple[sp.Expr, str, Any, Fraction]]] = []
        for exponent, text, tree in self.exponents:
            for group in groups:
                ratio = sp.cancel(exponent / group[0][0])
                if ratio.is_Rational:
                    group.append((exponent, text, tree, Fraction(int(ratio.p), int(ratio.q))))
                    break
            else:
                groups.append([(exponent, text, tree, Fraction(1))])
        for group in groups:
            (first, _, tree, _), m = group[0], math.lcm(*(r.denominator for *_, r in group))
            equal = (t for t in self.representatives if sp.cancel(self.sympy(t, plain=True) - first) == 0)
            tree = next(equal, tree)  # the exponent as the proof's atom facts write it (`source._atom_facts`)
            atom = sp.Symbol(f"x{len(self.bases)}", positive=True)
            self.bases.append((first / m, atom))
            self.trees[atom.name] = ["exp", tree if m == 1 else ["div", tree, ["rat", str(m)]]]
            self.values[atom] = sp.exp(first / m)
            self.powers |= {t: (atom, int(r * m)) for _, t, _, r in group}

    def rewrites(self) -> list[str]:
        """Proof lines that write each exponential of the goal as a power of its class's atom."""
        lines = []
        for text, (atom, k) in self.powers.items():
            base = self.coq(atom)
            if base == f"(exp {text})":
                continue
            if k == 1:
                target, proof = base, "f_equal; field"
            elif k > 1:
                target, proof = f"({base} ^ {k})", "rewrite hf_exp_pow; f_equal; simpl INR; field"
            else:
                target, proof = f"(/ ({base} ^ {-k}))", "rewrite hf_exp_pow, <- exp_Ropp; f_equal; simpl INR; field"
            lines.append(f"try (replace (exp {text}) with {target} in * by ({proof}))")
        return lines

    def sympy(self, tree: Any, plain: bool = False) -> sp.Expr:
        """The SymPy expression of a term; with `plain`, exponentials as SymPy's own (to compare exponents), else as
        powers of their class's atom."""
        return sympy_of(tree, self.variable, *((sp.exp, sp.log) if plain else (self._exp, self._log)))

    def _log(self, argument: sp.Expr) -> sp.Symbol:
        tree = ["log", substitute(from_sympy(argument), self.trees)]
        known = next((name for name, value in self.trees.items() if value == tree), None)
        atom = sp.Symbol(known or f"l{len(self.trees)}", real=True)
        self.trees[atom.name], self.values[atom] = tree, sp.log(argument)
        return atom

    def sympy_atoms(self, plain: sp.Expr) -> sp.Expr:
        """A plain expression (SymPy's exp and log) with its logs and exponentials as the atoms."""
        logs = {value: self._log(value.args[0]) for value in plain.atoms(sp.log)}
        return plain.subs(logs)

    def _exp(self, argument: sp.Expr) -> sp.Expr:
        argument = argument.subs({atom: value for atom, value in self.values.items() if isinstance(value, sp.log)})
        for base, atom in self.bases:
            ratio = sp.cancel(argument / base)
            if ratio.is_Rational and ratio.q == 1:
                return atom ** int(ratio)
        raise ValueError("an exponential outside the classes")


def _point(statement: UniversalStatement, atoms: _Atoms) -> dict[sp.Symbol, float] | None:
    """A point of the statement's domain (every hypothesis holds there), from a few candidate values per variable;
    None at once where a hypothesis is not a relation this reads (an equation: no point would pass it, and reading
    the others at each of the 5,000 candidates took seconds of SymPy)."""
    names = list(statement.constants)
    symbols = [atoms.variable(name) for name in names]
    hypotheses = [_relation_value(h, atoms) for h in statement.hypotheses]
    if any(h is None for h in hypotheses):
        return None
    for values in itertools.islice(itertools.product(_VALUES, repeat=len(names)), 5000):
        point = dict(zip(symbols, (float(v) for v in values), strict=True))
        integral = all(n not in statement.integers or float(v).is_integer() for n, v in zip(names, values, strict=True))
        if integral and all(h(point) for h in hypotheses):
            return point
    return None


def _relation_value(tree: Any, atoms: _Atoms) -> Any:
    """A test of a hypothesis at a point (a relation between terms), None if it is not one; a side lambda_c(n, beta)
    (a variable's bound, `past_root`) is the kernel's enclosure of the root u_c / beta (`lambda_c.enclose`)."""
    compare = {"<": float.__lt__, "<=": float.__le__, ">": float.__gt__, ">=": float.__ge__}
    if not isinstance(tree, list) or tree[0] not in compare:
        return None
    left, right = (_side(expanded(side), atoms) for side in tree[1:3])
    return lambda point: compare[tree[0]](left(point), right(point))


def _side(tree: Any, atoms: _Atoms) -> Any:
    """A term as a function of the point (floats)."""
    if isinstance(tree, list) and tree[:1] == ["lambda_c"]:
        n, beta = (_side(argument, atoms) for argument in tree[1:3])
        return lambda point: float(enclose(arb(n(point)), arb(beta(point))).mid())
    expr = atoms.sympy(tree, plain=True)
    return lambda point: _value(expr, point)


def _value(expr: sp.Expr, point: dict[sp.Symbol, float]) -> float:
    return float(sp.N(expr.subs(point), 30))


def relations(goal: Any) -> list[Any]:
    """The relations of a goal that is a conjunction (its parts after `repeat split`)."""
    if isinstance(goal, list) and goal[:1] == ["and"]:
        return [part for child in goal[1:] for part in relations(child)]
    return [goal] if isinstance(goal, list) and goal[:1] and goal[0] in _OPENING else []


class Factoring:
    """The factored proofs of one universal statement: its atoms and a point of its domain, found once for the
    statement's goal and for every power cut's premise the proof poses (one per ordered pair of atoms and cut)."""

    def __init__(self, statement: UniversalStatement, representatives: tuple[Any, ...] = ()) -> None:
        """`representatives`: the exponents (trees) the proof writes each exponential with, first the one an equal
        exponent is rewritten into (`source._atom_facts`), so that the proposal names the atoms the goal has."""
        self.statement, self.atoms, self.parts = statement, _Atoms(statement, representatives), []

    @functools.cached_property
    def point(self) -> dict[sp.Symbol, float] | None:
        """A point of the domain, with the goal's atoms classified: found once, when a proof first asks (most
        statements never do: the FALLBACK's earlier tactics need none); None where there is no proposal."""
        try:
            self.parts = [expanded(p) for p in relations(self.statement.goal)]
            for part in self.parts:
                self.atoms.collect(part)
            self.atoms.classify()
            return _point(self.statement, self.atoms)
        except PROPOSAL_ERRORS:
            return None

    def proof(self) -> str | None:
        """A Coq tactic (in parentheses) that proves the goal by the factors of each relation in it, None where SymPy
        proposes nothing (no relation with a product of two or more factors, a term outside + * / exp ln, no point of
        the domain found, a factor without a sign there)."""
        try:
            point = self.point
            found = [t for part in self.parts if point and (t := _relation(part, self.atoms, point))]
        except PROPOSAL_ERRORS:
            return None
        tactics = [*self.atoms.rewrites(), "repeat split", f"first [ {' | '.join(found)} | hf_decide ]"]
        return "(" + "; ".join(tactics) + ")" if found else None

    def premise(self, lower: Any, upper: Any, q: int, p: int) -> str | None:
        """A tactic (in parentheses) for a power cut's premise `INR q * a <= INR p * b` (a, b the trees `lower`,
        `upper`, after `simpl INR`) by the factors of p b - q a, None where SymPy proposes nothing."""
        if self.point is None:
            return None
        try:
            a, b = (self.atoms.sympy(expanded(tree), plain=True) for tree in (lower, upper))
            return _signed(self.atoms.sympy_atoms(q * a - p * b), "<=", self.atoms, self.point)
        except PROPOSAL_ERRORS:
            return None


def _relation(part: Any, atoms: _Atoms, point: dict[sp.Symbol, float]) -> str | None:
    """The tactic of one relation: its difference replaced by the proposed product, the product's sign."""
    op, left, right = part[0], atoms.sympy(part[1]), atoms.sympy(part[2])
    return _signed(left - right if op in ("<=", "<") else right - left, op, atoms, point)


def _signed(difference: sp.Expr, op: str, atoms: _Atoms, point: dict[sp.Symbol, float]) -> str | None:
    """The tactic that shows the goal `l op r` (after its opening, `difference` <= 0 or < 0) by the signs of the
    difference's factors over one denominator: None with fewer than two factors (nra's own search suffices) or where
    the point gives the product the wrong sign."""
    together = sp.together(difference)
    constant, factors = sp.factor_list(sp.numer(together))
    denominator_constant, denominators = sp.factor_list(sp.denom(together))
    signed = [(f, k) for f, k in factors] + [(f, -k) for f, k in denominators]
    if sum(abs(k) for f, k in signed) < 2:
        return None
    strict = op in ("<", ">")
    values = {atom: _value(value, point) for atom, value in atoms.values.items()} | point
    lines, product, product_sign, last = [], "", 0, ""
    for index, (factor, power) in enumerate(signed):
        value = _value(factor.subs(values), {})
        if abs(value) < _TINY:
            return None
        sign = 1 if value > 0 else -1
        text, hyp = atoms.coq(factor), f"hs{index}"
        lines.append(f"assert ({hyp} : {_sign(text, sign, strict or power < 0)}) by hf_decide")
        if power < 0:
            inverse = "Rinv_0_lt_compat" if sign > 0 else "Rinv_lt_0_compat"
            lines.append(f"pose proof ({inverse} {text} {hyp}) as {hyp}i")
            text, hyp = f"(/ {text})", f"{hyp}i"
        for _ in range(abs(power)):
            if product:
                product, product_sign, step = f"({product} * {text})", product_sign * sign, f"hp{len(lines)}"
                lines.append(f"assert ({step} : {_sign(product, product_sign, strict)}) by (clear - {last} {hyp}; nra)")
                last = step
            else:
                product, product_sign, last = text, sign, hyp
    scale = constant / denominator_constant
    if product_sign * (1 if scale > 0 else -1) > 0:
        return None  # the proposal's sign is the relation's opposite
    target = f"({atoms.coq(sp.Rational(scale))} * {product})"
    relation = "<" if strict else "<="
    replace = f"match goal with |- ?d {relation} 0 => replace d with {target} by (field; repeat split; intro; nra) end"
    return "(" + "; ".join([_OPENING[op], replace, *lines, f"clear - {last}; nra"]) + ")"


def _sign(text: str, sign: int, strict: bool) -> str:
    """`0 < text`, `text < 0` or their non-strict forms."""
    return ("0 {} {}" if sign > 0 else "{1} {0} 0").format("<" if strict else "<=", text)
