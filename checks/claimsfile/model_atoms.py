"""The atoms of the symbolic model reduction: dimension-free pairings and named scalars at tokens and heads.

Every atom is a SymPy symbol whose name says what it is, and whose `Info` (kept by name: equal names, equal meaning)
says at which tokens and heads it sits, so that the reduction can rename them without reading names:

- `<b,b'>@t` a pairing of two of token t's vectors (b in x, F, f_h: head h's output); `<b@t,b'@u>` one across the
  tokens t != u (as symbols: they may still coincide); `[Pb,Pb']@t` the pairing of their tangent parts at t;
- `name_h@t` a scalar of head h at token t (an entropy, a normalizer Z), `name_h@t,u` one at a pair (score,
  weight, softmax);
- `E`, `E_h`, `dE/dt`, `dE_h/dt` the energies and their rates, `lambda_h` a scalar head's strength; `m0@t` a given
  condition's margin at token t; `log(q)` the logarithm of a positive atom or size q (at q's tokens and head);
- `Σ_g(q)` the sum over the heads g of a term q of higher degree in head g (kept: q's own atoms name g).

Tokens: `i` the free token, `u1, u2, ...` a token a sum is being taken over (open), `t1, t2, ...` a token a
finished sum bound (a dummy: every monomial is summed over the dummies it contains, `canonical` relabels them).
Heads: `h` the free head, `s1, s2, ...` a head a sum is being taken over, `g` the bound head inside `Σ_g`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

import sympy as sp

#: (x | F | f | xbar | a word of head matrices applied to one of them (`model_words`), head or None, token)
Basis = tuple[str, str | None, str]


@dataclass(frozen=True)
class Info:
    """What an atom is: its kind (gram, tangent, scalar, pair, global, margin, headsum, log), the bases of a pairing,
    the label and head of a named scalar (of a logarithm: its argument's head), its tokens, whether a pair scalar is
    symmetric, a head sum's summand or a logarithm's argument."""

    kind: str
    bases: tuple[Basis, ...] = ()
    label: str = ""
    head: str | None = None
    tokens: tuple[str, ...] = ()
    symmetric: bool = False
    inner: sp.Expr | None = None


_INFO: dict[str, Info] = {}


def info(atom: sp.Symbol) -> Info | None:
    """The Info of an atom (None for the size symbols n, d, H, beta and other symbols)."""
    return _INFO.get(atom.name)


def _make(name: str, data: Info) -> sp.Symbol:
    _INFO.setdefault(name, data)
    return sp.Symbol(name)


def _basis_text(b: Basis) -> str:
    return b[0] if b[1] is None else f"{b[0]}_{b[1]}"


def gram(a: Basis, b: Basis) -> sp.Symbol:
    """The pairing <a, b> (symmetric)."""
    a, b = sorted((a, b), key=lambda v: (v[2], _basis_text(v)))
    if a[2] == b[2]:
        name = f"<{_basis_text(a)},{_basis_text(b)}>@{a[2]}"
    else:
        name = f"<{_basis_text(a)}@{a[2]},{_basis_text(b)}@{b[2]}>"
    return _make(name, Info("gram", (a, b), tokens=tuple(dict.fromkeys((a[2], b[2])))))


def tangent(a: Basis, b: Basis) -> sp.Symbol:
    """<P a, P b> at their (common) token."""
    a, b = sorted((a, b), key=_basis_text)
    return _make(f"[P{_basis_text(a)},P{_basis_text(b)}]@{a[2]}", Info("tangent", (a, b), tokens=(a[2],)))


def scalar(label: str, head: str | None, tokens: tuple[str, ...], symmetric: bool = False) -> sp.Symbol:
    """A named scalar (entropy, score, weight, ...) of a head at one or two tokens; a symmetric pair scalar is
    stored with its tokens in order."""
    if symmetric:
        tokens = tuple(sorted(tokens))
    kind = "pair" if len(tokens) == 2 else "scalar" if tokens else "global"
    name = (label if head is None else f"{label}_{head}") + ("/dt" if label == "dE" else "")
    if tokens:
        name += "@" + ",".join(tokens)
    return _make(name, Info(kind, label=label, head=head, tokens=tokens, symmetric=symmetric))


def margin(index: int, token: str) -> sp.Symbol:
    return _make(f"m{index}@{token}", Info("margin", label=str(index), tokens=(token,)))


def headsum(inner: sp.Expr, marker: str) -> sp.Symbol:
    """The atom sum over the heads (marker) of `inner`, its head written g."""
    summand = rename(inner, {}, {marker: "g"})
    tokens = tuple(dict.fromkeys(t for s in sorted(summand.free_symbols, key=str) for t in tokens_of(s)))
    return _make(f"Σ_g({summand})", Info("headsum", tokens=tokens, inner=summand))


def logarithm(argument: sp.Symbol) -> sp.Symbol:
    """The atom log(argument) of a positive atom (Z, E, E_h) or size symbol: at its argument's tokens and head."""
    data = info(argument)
    head = data.head if data is not None else None
    return _make(f"log({argument})", Info("log", head=head, tokens=tokens_of(argument), inner=argument))


def tokens_of(atom: sp.Symbol) -> tuple[str, ...]:
    data = info(atom)
    return () if data is None else data.tokens


def heads_of(atom: sp.Symbol) -> frozenset[str]:
    """The heads an atom depends on (for a head sum: those of its summand other than its own g)."""
    data = info(atom)
    if data is None:
        return frozenset()
    if data.kind == "headsum":
        assert data.inner is not None
        return frozenset().union(*(heads_of(s) for s in data.inner.free_symbols)) - {"g"}
    return frozenset(b[1] for b in data.bases if b[1] is not None) | ({data.head} if data.head else set())


def rename_atom(atom: sp.Symbol, tokens: dict[str, str], heads: dict[str, str]) -> sp.Expr:
    """The same atom at renamed tokens and heads."""
    data = info(atom)
    if data is None:
        return atom

    def basis(b: Basis) -> Basis:
        return (b[0], heads.get(b[1], b[1]) if b[1] else None, tokens.get(b[2], b[2]))

    if data.kind == "gram":
        return gram(*(basis(b) for b in data.bases))
    if data.kind == "tangent":
        return tangent(*(basis(b) for b in data.bases))
    if data.kind == "margin":
        return margin(int(data.label), tokens.get(data.tokens[0], data.tokens[0]))
    if data.kind == "headsum":
        assert data.inner is not None
        return headsum(rename(data.inner, tokens, {k: v for k, v in heads.items() if k != "g"}), "g")
    if data.kind == "log":
        assert isinstance(data.inner, sp.Symbol)
        renamed = rename_atom(data.inner, tokens, heads)
        assert isinstance(renamed, sp.Symbol)
        return logarithm(renamed)
    head = heads.get(data.head, data.head) if data.head else None
    return scalar(data.label, head, tuple(tokens.get(t, t) for t in data.tokens), data.symmetric)


def rename(expr: sp.Expr, tokens: dict[str, str], heads: dict[str, str]) -> sp.Expr:
    """expr with every atom's tokens and heads renamed."""
    rule = {s: rename_atom(s, tokens, heads) for s in expr.free_symbols if info(s) is not None}
    return expr.xreplace({s: v for s, v in rule.items() if v != s})


def dummies(expr: sp.Expr) -> set[str]:
    """The bound tokens (t1, t2, ...) of expr's atoms."""
    return {t for s in expr.free_symbols for t in tokens_of(s) if t.startswith("t")}


def monomials(expr: sp.Expr) -> list[sp.Expr]:
    return list(sp.Add.make_args(sp.expand(expr))) if expr != 0 else []


def canonical(expr: sp.Expr, most: int) -> dict[int, sp.Expr]:
    """expr as sums of monomials by their number of dummies, each monomial's dummies relabelled t1, t2, ... in the
    order that gives the least name (relabelling the dummies of a sum over them leaves it unchanged)."""
    out: dict[int, sp.Expr] = {}
    for term in monomials(expr):
        own = sorted(dummies(term))
        if len(own) > most:
            raise ValueError(f"a sum over {len(own)} tokens at once (at most {most})")
        targets = [f"t{k + 1}" for k in range(len(own))]
        best = min((rename(term, dict(zip(own, p, strict=True)), {}) for p in permutations(targets)), key=str)
        out[len(own)] = out.get(len(own), sp.Integer(0)) + best
    return {level: sp.expand(value) for level, value in out.items() if sp.expand(value) != 0}


def symmetrized(expr: sp.Expr, level: int) -> sp.Expr:
    """The average of expr over the relabellings of the dummies t1..t<level> (the same sum over them)."""
    names = [f"t{k + 1}" for k in range(level)]
    images = [rename(expr, dict(zip(names, p, strict=True)), {}) for p in permutations(names)]
    return sp.expand(sp.Add(*images) / len(images))
