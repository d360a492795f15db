"""What an `equiangular` certificate states: a claim about the cluster gap of equiangular tokens, as data.

The regime is that of `headflow.identities.equiangular_reduction` at numbers: n unit tokens with every <x_i, x_j> =
rho0 at t = 0, scalar heads M_h = W_h = lambda_h I (rational lambda_h), rational beta > 0, the sphere, no mask, no
interaction. The statement carries the claim's data and its number (the claimed limit, rate, initial rate or rate
to beat) and whether the claim holds; the kernel (`certificates.kernel.equiangular`) re-derives the reduced field
from the model's weights, checks the facts the verdict needs exactly (python-flint) and prints the steps it cites.

The reduction's identity is a lemma of the kernel's table (`REDUCTION`, beside the paper's identities): for unit x,
y with <x, y> = rho, r the sum of the n - 2 other tokens and any reals D, O, the pair moving with the tangent
projections of D x + O (y + r) and D y + O (x + r) has d<x, y>/dt = 2 O (1 - rho)(1 + (n - 1) rho), whatever D.
"""

from __future__ import annotations

from typing import Any

from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import TIME, DynamicsClaim
from headflow.certificates.kernel import equiangular
from headflow.certificates.kernel.exprtree import TreeError, rational_text
from headflow.certificates.statements.inner_products import GramObligation, VectorTree, X, inner
from headflow.certificates.sympy_trees import from_sympy
from headflow.identities.closed_forms import tangent_projection

Y, R = VectorTree(["vec", "y"]), VectorTree(["vec", "r"])
DIAG, OFF, RHO, N = (["sym", name] for name in ("diag", "off", "rho", "n"))
#: n - 2 and n - 1 as trees.
N2, N1 = (["add", N, ["rat", str(-k)]] for k in (2, 1))
ONE_MINUS_RHO = ["add", ["rat", "1"], ["mul", ["rat", "-1"], RHO]]

REDUCTION = {
    equiangular.REDUCTION: GramObligation(
        "for every n >= 2 and vectors x, y, r of any real inner-product space (every R^d) with <x, x> = <y, y> = 1, "
        "<x, y> = rho, <x, r> = <y, r> = (n - 2) rho and <r, r> = (n - 2)(1 + (n - 3) rho) (r the sum of the n - 2 "
        "other tokens of an equiangular configuration), and every reals diag, off: when x and y move with the tangent "
        "projections P_x(diag x + off (y + r)) and P_y(diag y + off (x + r)), d<x, y>/dt = 2 off (1 - rho)(1 + (n - 1) "
        "rho)",
        (
            (
                ["rate", inner(X, Y)],
                ["mul", ["rat", "2"], OFF, ONE_MINUS_RHO, ["add", ["rat", "1"], ["mul", N1, RHO]]],
            ),
        ),
        unit=("x", "y"),
        gram=(
            ("x", "y", RHO),
            ("r", "x", ["mul", N2, RHO]),
            ("r", "y", ["mul", N2, RHO]),
            ("r", "r", ["mul", N2, ["add", ["rat", "1"], ["mul", ["add", N, ["rat", "-3"]], RHO]]]),
        ),
        velocities=(
            ("x", tangent_projection(X, DIAG * X + (OFF * Y + OFF * R), inner).tree),
            ("y", tangent_projection(Y, DIAG * Y + (OFF * X + OFF * R), inner).tree),
        ),
    )
}


def covered(claim: DynamicsClaim) -> bool:
    """Whether the claim is one an `equiangular` statement states: the cluster gap of the reduction's regime at
    numbers (beta > 0), one of the kernel's properties, a target without symbols (a shape: of t alone)."""
    options = claim.options
    lambdas = options.get("lambdas")
    numbers = [options.get(key) for key in ("n", "beta", "rho")] + (lambdas if isinstance(lambdas, list) else [None])
    return (
        claim.quantity == "cluster_gap"
        and claim.property in equiangular.PROPERTIES
        and not claim.exists
        and not claim.parameters
        and claim.target is not None
        and claim.target.free_symbols <= ({TIME} if claim.property == "decays-like" else set())
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in numbers)
        and options["beta"] > 0
        and (options["tokens"], options["heads"], options["geometry"]) == ("equiangular", "scalar", "sphere")
        and options.get("mask") is None
        and options.get("values", "aligned") == "aligned"
        and "interaction" not in options
    )


def statement(claim: DynamicsClaim, holds: bool) -> dict[str, Any] | None:
    """The statement that the claim holds (or, `holds` false, that it fails), or None when the form does not state
    it (`covered`; a number past what a certificate records)."""
    if not covered(claim):
        return None
    options = claim.options
    try:
        value = from_sympy(claim.target)
    except TreeError:
        return None
    return {
        "form": equiangular.FORM,
        "claim": claim.id,
        "attention": options["attention"],
        "n": options["n"],
        "beta": rational_text(stated(options["beta"])),
        "strengths": [rational_text(stated(v)) for v in options["lambdas"]],
        "rho0": rational_text(stated(options["rho"])),
        "property": claim.property,
        "value": value,
        "holds": holds,
    }
