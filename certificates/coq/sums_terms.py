"""Trees of Coq text for the `sums` proofs (`certificates.coq.sums`): terms, the vector expansion, normal forms.

A scalar or vector tree spells a term as the kernel's statement does (`sums_statement.coq_text`): `tree_of` reads a
model term, `text` writes any tree. `Expander` writes the scalar tree an inner product becomes under the proof's
rewriting (definitions, maps pushed in, then bilinearity, the left argument first). A normal form is a sum of `Mono`s:
a coefficient (a rational and powers of the sizes) times nested sums (outermost first) of a product of atoms (inner
products of basis vectors, p, w, Zn, lambda, logarithms), each written as Coq text by one function.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from headflow.certificates.kernel.coq.statements import NotTranslatable, real
from headflow.certificates.kernel.coq.sums_statement import RANGES, SCALARS, SIZES
from headflow.certificates.kernel.model_terms import Term

SIZE_ORDER = ("n", "d", "H", "beta")
#: The index names a tree may use: the claim's letters and the writer's fresh names.
INDEX = re.compile(r"(?:[ijhg]|[tgkuqd]\d+)\Z")


class NotWritten(NotTranslatable):
    """A statement whose Coq proof this writer does not write (the reason)."""


def basis_text(b: tuple[Any, ...]) -> str:
    """A basis vector: x t, f g t, or M g / W g applied to one."""
    if b[0] == "x":
        return f"(x {b[1]})"
    if b[0] == "f":
        return f"(f {b[1]} {b[2]})"
    return f"({b[0]} {b[1]} {basis_text(b[2])})"


def atom_text(a: tuple[Any, ...]) -> str:
    """An atom: an inner product of basis vectors, p, w, Zn, lambda, or a logarithm."""
    if a[0] == "ip":
        return f"(ip {basis_text(a[1])} {basis_text(a[2])})"
    if a[0] == "ln":
        return f"(ln {atom_text(a[1]) if isinstance(a[1], tuple) else SIZES[a[1]]})"
    return f"({' '.join(a)})"


def indices(data: Any) -> set[str]:
    """The index names in an atom or basis vector."""
    if isinstance(data, tuple):
        return set().union(*map(indices, data[1:])) if data else set()
    return {data} if isinstance(data, str) and INDEX.match(data) else set()


def renamed(data: Any, names: dict[str, str]) -> Any:
    """A tree, atom or basis vector with its indices renamed as `names` says (a node's tag, its first part, kept)."""
    if isinstance(data, tuple):
        return (data[0], *(renamed(part, names) for part in data[1:]))
    return names.get(data, data) if isinstance(data, str) else data


def renamed_atoms(atoms: tuple[Any, ...], names: dict[str, str]) -> tuple[Any, ...]:
    return tuple(renamed(a, names) for a in atoms)


def text(node: tuple[Any, ...]) -> str:
    """The Coq text of a scalar or vector tree (the statement's own spelling, `sums_statement.coq_text`)."""
    op = node[0]
    if op == "num":
        return real(node[1])
    if op == "size":
        return SIZES[node[1]]
    if op == "inv":
        return f"(/ {text(node[1])})"
    if op == "atom":
        return atom_text(node[1])
    if op == "basis":
        return basis_text(node[1])
    if op == "named":
        return f"({' '.join(node[1:])})"
    if op in ("+", "-", "*", "/"):
        return f"({text(node[1])} {op} {text(node[2])})"
    if op == "neg":
        return f"(- {text(node[1])})"
    if op == "pow":
        return f"({text(node[1])} ^ {node[2]})"
    if op in ("hsum", "vsum"):
        return f"({op} {node[1]} (fun {node[2]} => {text(node[3])}))"
    if op in ("ip", "plus", "minus", "scal"):
        return f"({op} {text(node[1])} {text(node[2])})"
    if op == "opp":
        return f"(opp {text(node[1])})"
    if op == "map":
        return f"({node[1]} {node[2]} {text(node[3])})"
    if op == "P":
        return f"(P {node[1]} {text(node[2])})"
    raise NotWritten(f"sums: no tree {op}")


def tree_of(term: Term, env: dict[str, str]) -> tuple[Any, ...]:
    """A model term as a tree of Coq text (its text is `coq_text(term, env)`)."""
    op, args = term.op, term.args
    if op == "num":
        return ("num", args[0])
    if op == "symbol":
        return ("size", args[0])
    if op in ("vector", "scalar", "pair"):
        name, slots = args[0], args[2]
        head, token = env.get(slots.head or ""), env.get(slots.token or "")
        if name == "x":
            return ("basis", ("x", token))
        if name == "f":
            return ("basis", ("f", head, token))
        if name in ("F", "v", "xdot"):
            return ("named", name, token)
        if name == "xbar":
            return ("named", "xbar", head, token)
        if name == "Z_h_i":
            return ("atom", ("Zn", head, token))
        if name in SCALARS:
            return ("named", SCALARS[name], head, token)
        if name == "lambda_h":
            return ("atom", ("lambda", head))
        if name in ("E", "E_h"):
            return ("atom", ("E",) if name == "E" else ("Eh", head))
        if name in ("dE_dt", "dE_h_dt"):
            return ("named", "dE") if name == "dE_dt" else ("named", "dEh", head)
        if name in ("delta_op", "delta"):
            return ("atom", (name,))
        if name == "s_h_ij":
            return ("named", "s", head, env[slots.pair[0]], env[slots.pair[1]])
        if name in ("w_h_ij", "p_h_ij"):
            return ("atom", (name[0], head, env[slots.pair[0]], env[slots.pair[1]]))
        raise NotWritten(f"sums: {name} has no Coq term")
    if op in RANGES:
        letter = op[-1]
        return ("vsum" if term.vector else "hsum", RANGES[op], letter, tree_of(args[0], env | {letter: letter}))
    kids = [tree_of(a, env) if isinstance(a, Term) else a for a in args]
    if term.vector:
        if op == "*":
            return ("scal", kids[0], kids[1]) if args[1].vector else ("scal", kids[1], kids[0])
        if op == "/":
            return ("scal", ("inv", kids[1]), kids[0])
        vector_ops = {"+": "plus", "-": "minus", "neg": "opp"}
        if op in vector_ops:
            return (vector_ops[op], *kids)
        if op == "proj":
            return ("P", env.get("i", "i"), kids[0])
        return ("map", op[0], env.get("h", "h"), kids[0])
    if op == "inner":
        return ("ip", kids[0], kids[1])
    if op == "norm2":
        return ("ip", kids[0], kids[0])
    if op == "log":
        return ("atom", ("ln", kids[0][1]))
    return (op, *kids)


# ------------------------------------------------------------------ vectors: the expansion the rewriting does


class Expander:
    """The scalar tree an inner product of vector trees becomes under the rewriting of `VECTOR_TACTIC`: definitions of
    the named vectors, W = M and M = lambda I where assumed, the maps pushed through sums, sums of vectors and
    multiples, then ip's left argument expanded before its right one (bilinearity, sums)."""

    def __init__(self, fresh: Callable[[str], str], attention: str, geometry: str, hypotheses: set[str]) -> None:
        self.fresh, self.attention, self.geometry, self.hypotheses = fresh, attention, geometry, hypotheses

    def vector(self, u: tuple[Any, ...]) -> tuple[Any, ...]:
        """u with its definitions written out and its maps pushed to the basis vectors."""
        op = u[0]
        if op == "basis":
            return u
        if op == "named":
            name, *at = u[1:]
            if name == "F":
                g = self.fresh("g")
                return ("vsum", "H", g, ("basis", ("f", g, at[0])))
            if name == "v":
                total = self.vector(("named", "F", at[0]))
                return ("scal", ("inv", ("size", "n")), total) if self.attention == "usa" else total
            if name == "xdot":
                v = ("named", "v", at[0])
                return self.vector(("P", at[0], v) if self.geometry == "sphere" else v)
            if name == "xbar":
                t = self.fresh("t")
                return ("vsum", "n", t, ("scal", ("atom", ("p", at[0], at[1], t)), ("basis", ("x", t))))
        if op == "P":
            inner = self.vector(u[2])
            x = ("basis", ("x", u[1]))
            return ("minus", inner, ("scal", ("ip", inner, x), x))
        if op == "vsum":
            return ("vsum", u[1], u[2], self.vector(u[3]))
        if op in ("plus", "minus"):
            return (op, self.vector(u[1]), self.vector(u[2]))
        if op == "opp":
            return ("opp", self.vector(u[1]))
        if op == "scal":
            return ("scal", u[1], self.vector(u[2]))
        if op == "map":
            name = "M" if u[1] == "W" and "aligned-values" in self.hypotheses else u[1]
            inner = self.vector(u[3])
            if name == "M" and "scalar-heads" in self.hypotheses:
                return ("scal", ("atom", ("lambda", u[2])), inner)
            return self.mapped(name, u[2], inner)
        raise NotWritten(f"sums: no vector {op}")

    def mapped(self, name: str, g: str, u: tuple[Any, ...]) -> tuple[Any, ...]:
        op = u[0]
        if op == "basis":
            return ("basis", (name, g, u[1]))
        if op == "vsum":
            return ("vsum", u[1], u[2], self.mapped(name, g, u[3]))
        if op in ("plus", "minus"):
            return (op, self.mapped(name, g, u[1]), self.mapped(name, g, u[2]))
        if op == "opp":
            return ("opp", self.mapped(name, g, u[1]))
        return ("scal", u[1], self.mapped(name, g, u[2]))

    def scalar(self, a: tuple[Any, ...]) -> tuple[Any, ...]:
        """A scalar inside a vector with its inner products expanded."""
        if a[0] == "ip":
            return self.ip(self.vector(a[1]), self.vector(a[2]))
        if a[0] in ("+", "-", "*", "/", "neg", "pow", "hsum", "inv"):
            return (a[0], *(self.scalar(k) if isinstance(k, tuple) else k for k in a[1:]))
        return a

    def ip(self, u: tuple[Any, ...], w: tuple[Any, ...]) -> tuple[Any, ...]:
        for side, (a, b) in enumerate(((u, w), (w, u))):
            op = a[0]

            def again(new: tuple[Any, ...], side: int = side, b: tuple[Any, ...] = b) -> tuple[Any, ...]:
                return self.ip(new, b) if side == 0 else self.ip(b, new)

            if op == "vsum":  # its index renamed apart (the other argument may bind the same letter)
                fresh = self.fresh("t" if a[1] == "n" else "g")
                return ("hsum", a[1], fresh, again(renamed(a[3], {a[2]: fresh})))
            if op in ("plus", "minus"):
                return ("+" if op == "plus" else "-", again(a[1]), again(a[2]))
            if op == "opp":
                return ("neg", again(a[1]))
            if op == "scal":
                return ("*", self.scalar(a[1]), again(a[2]))
        return ("atom", ("ip", u[1], w[1]))


# ------------------------------------------------------------------ normal forms


@dataclass(frozen=True)
class Mono:
    """c n^a d^b H^e beta^k times the nested sums (outermost first) of a product of atoms."""

    coef: Fraction
    exps: tuple[int, int, int, int]
    dummies: tuple[tuple[str, str], ...]  # (name, range), outermost first
    atoms: tuple[tuple[Any, ...], ...]

    @property
    def shape(self) -> tuple[Any, ...]:
        return (self.exps, self.dummies, self.atoms)


NF = tuple[Mono, ...]


def positional(m: Mono, sort: bool = False) -> Mono:
    """The monomial with its bound indices named d0, d1, ... outermost first (and its atoms sorted by their text, where
    the proof allows: a product's `ring` does, a sum's split under its binder does not): monomials equal up to the
    names of their bound indices (as Coq reads them) are then written alike, merged and proved once."""
    names = {d: f"d{k}" for k, (d, _) in enumerate(m.dummies)}
    atoms = renamed_atoms(m.atoms, names)
    atoms = tuple(sorted(atoms, key=atom_text)) if sort else atoms
    return Mono(m.coef, m.exps, tuple((names[d], s) for d, s in m.dummies), atoms)


def times(ma: Mono, mb: Mono, names: dict[str, str]) -> Mono:
    """ma mb, mb's bound indices renamed apart by `names`, ma's outermost, named by position and its atoms sorted."""
    dummies = ma.dummies + tuple((names[d], s) for d, s in mb.dummies)
    atoms = ma.atoms + renamed_atoms(mb.atoms, names)
    return positional(Mono(ma.coef * mb.coef, plus(ma.exps, mb.exps), dummies, atoms), sort=True)


#: At most this many monomials in a node's normal form: past it the Coq file would be too long for coqc's time (the
#: kernel's own budget, `model_sums.MOST_MONOMIALS`, is larger), so no proof is written.
MOST_MONOMIALS = 400


def merged(monos: list[Mono]) -> NF:
    found: dict[Any, Mono] = {}
    for m in monos:
        key = m.shape
        found[key] = replace(m, coef=found[key].coef + m.coef) if key in found else m
    if len(found) > MOST_MONOMIALS:
        raise NotWritten(f"sums: a normal form of more than {MOST_MONOMIALS} monomials (too long for Coq)")
    return tuple(m for m in found.values() if m.coef)


def coefficient_text(m: Mono) -> str:
    parts = [] if m.coef == 1 else [real(m.coef)]
    for name, e in zip(SIZE_ORDER, m.exps, strict=True):
        base = SIZES[name]
        parts += [base if e == 1 else f"{base} ^ {e}"] if e > 0 else ([f"/ {base}" if e == -1 else f"/ {base} ^ {-e}"])
        if e == 0:
            parts.pop()
    return " * ".join(parts)


def body_text(m: Mono) -> str:
    """The monomial's sums and atoms, without its coefficient ("" for none)."""
    if not m.atoms and not m.dummies:
        return ""
    inner = " * ".join(atom_text(a) for a in m.atoms) if m.atoms else "1"
    for name, size in reversed(m.dummies):
        inner = f"hsum {size} (fun {name} => {inner})"
    return f"({inner})"


def mono_text(m: Mono) -> str:
    c, b = coefficient_text(m), body_text(m)
    if c and b:
        return f"({c}) * {b}"
    return f"({c or b or '1'})"


def nf_text(nf: NF) -> str:
    if not nf:
        return "0"
    found = mono_text(nf[-1])
    for m in reversed(nf[:-1]):
        found = f"{mono_text(m)} + ({found})"
    return found


def sizes_of(node: tuple[Any, ...]) -> tuple[Fraction, tuple[int, ...]]:
    """A divisor's value: a rational times powers of the sizes."""
    if node[0] == "num":
        return node[1], (0, 0, 0, 0)
    if node[0] == "size":
        return Fraction(1), tuple(int(s == node[1]) for s in SIZE_ORDER)
    if node[0] in ("*", "/"):
        (qa, ea), (qb, eb) = sizes_of(node[1]), sizes_of(node[2])
        sign = 1 if node[0] == "*" else -1
        return (qa * qb if sign == 1 else qa / qb), tuple(a + sign * b for a, b in zip(ea, eb, strict=True))
    if node[0] == "neg":
        q, e = sizes_of(node[1])
        return -q, e
    if node[0] == "pow":
        q, e = sizes_of(node[1])
        return q ** node[2], tuple(k * node[2] for k in e)
    raise NotWritten("sums: a divisor that is not a product of numbers and sizes")


def plus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, int, int, int]:
    return tuple(x + y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def minus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, int, int, int]:
    return tuple(x - y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]
