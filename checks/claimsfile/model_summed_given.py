"""Using a `given` condition that is one global inequality (a sum over tokens, or any quantity free of the free token
i) in the symbolic proof of a `model` claim.

A per-token condition is used by solving it for one of its atoms (`model_reduction._use_margins`); a condition such
as sum_i(a_h_i * A_h_i) <= sum_i(T_h_i), or dE_h/dt >= 0 once the gradient lemma made it a sum, has no single atom to
solve for. It is used as a whole instead: its margin m (>= 0, or > 0 for a strict condition) becomes one global atom
G, and the residual r of the claim (rhs - lhs) is written r = c G + (r - c m) for a multiplier c free of the model's
atoms (a rational function of n, d, H, beta). That is an identity (G = m), so the residual is unchanged as a function
of the configuration; the claim follows when c G + (r - c m) has the claimed sign with G's sign declared, which the
sign prover (`identities.signs`) decides exactly: c > 0 proved (c = 1/n^3 for dE_h/dt and a summed Condition 8), and
the rest (zero when r is exactly c m, otherwise a part the engine proves by itself) of the sign.

The multipliers tried are the exact ratios, monomial by monomial, of r's coefficient to m's on the same product of
atoms (both in the canonical form over their dummies, `model_atoms.canonical`): nothing is evaluated, and a multiplier
of the wrong or of an unknown sign only fails to prove.
"""

from __future__ import annotations

import sympy as sp
from headflow.checks.claimsfile import model_atoms as atoms

#: The most multipliers tried per condition, and the most ways of using the conditions tried in all.
MOST_MULTIPLIERS = 4
MOST_USES = 8


def global_margin(index: int) -> sp.Symbol:
    """The atom G standing for the margin of the `index`-th global given condition."""
    return atoms.scalar(f"given{index}", None, ())


def is_global(margin: sp.Expr) -> bool:
    """Whether a reduced margin is one global quantity: it sums over tokens or is free of tokens, never at token i."""
    return not any("i" in atoms.tokens_of(s) for s in margin.free_symbols)


def _split(monomial: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """A monomial as (its factor free of the model's atoms, the product of its atoms)."""
    coefficient, product = sp.Integer(1), sp.Integer(1)
    for factor in sp.Mul.make_args(monomial):
        if any(atoms.info(s) is not None for s in factor.free_symbols):
            product *= factor
        else:
            coefficient *= factor
    return coefficient, product


def _coefficients(expr: sp.Expr, most: int) -> dict[sp.Expr, sp.Expr]:
    """The canonical sum expr (at most `most` dummies a monomial) as {product of atoms: its coefficient}."""
    out: dict[sp.Expr, sp.Expr] = {}
    for level in atoms.canonical(expr, most).values():
        for monomial in atoms.monomials(level):
            coefficient, product = _split(monomial)
            out[product] = out.get(product, sp.Integer(0)) + coefficient
    return out


def multipliers(residual: sp.Expr, margin: sp.Expr, most: int) -> list[sp.Expr]:
    """The multipliers c to try in r = c G + (r - c m): each exact ratio of r's coefficient to m's on a product of
    atoms both contain, in the order of m's monomials (at most MOST_MULTIPLIERS, without repeats)."""
    mine, theirs = _coefficients(residual, most), _coefficients(margin, most)
    out: list[sp.Expr] = []
    for product, coefficient in sorted(theirs.items(), key=lambda kv: str(kv[0])):
        if product not in mine or coefficient == 0:
            continue
        c = sp.factor(sp.cancel(mine[product] / coefficient))
        if c != 0 and c not in out:
            out.append(c)
        if len(out) == MOST_MULTIPLIERS:
            break
    return out


def uses(
    residual: sp.Expr, margins: list[tuple[sp.Expr, str]], most: int
) -> list[tuple[sp.Expr, dict[sp.Symbol, str], str]]:
    """The ways of using the global conditions (each margin m with its relation >=0 or >0), most used first: each is
    (the residual rewritten as c G + (r - c m) for the conditions used, the signs of their atoms G, a note); the
    residual as it is comes last. `most` bounds the dummies of a monomial."""
    found: list[tuple[sp.Expr, dict[sp.Symbol, str], str]] = [(residual, {}, "")]
    for index, (margin, relation) in enumerate(margins):
        g = global_margin(index)
        sign = "positive" if relation == ">0" else "nonnegative"
        more = []
        for expr, known, note in found:
            for c in multipliers(expr, margin, most):
                rest = sp.expand(expr - c * margin)
                tail = "" if not atoms.canonical(rest, most) else " + a rest"
                text = (
                    f"the given condition as a whole, {g} = (summed over its dummies t) {margin} {relation[:-1]} 0: "
                    f"rhs - lhs = ({c}) {g}{tail}"
                )
                rewritten = rest + c * g
                more.append((rewritten, {**known, g: sign}, "; ".join(filter(None, (note, text)))))
        found = (more + found)[:MOST_USES]
    return found
