"""The `equilibrium` kind: a token regime is a critical point of the multi-head field, or its projected Jacobian
has a stated spectrum, for stated ranges of n, d, H, beta and kinds (or all of them).

Fields: `tokens` (the regime, `regimes.REGIMES`), `property`:
- `critical-point`: every token's velocity is exactly 0;
- `stable`: an equilibrium whose projected Jacobian (on the tangent space, the rotation zeros removed) has every
  other eigenvalue with Re < 0 (index 0); `unstable`: some eigenvalue has Re > 0;
- `index` (with `index = k`): exactly k eigenvalues with Re > 0 and none on the imaginary axis but the rotation zeros;
- `hyperbolic`: no eigenvalue on the imaginary axis but the rotation zeros (the index is defined).
Optional: `heads` (`scalar`: M_h = lambda_h I, W_h = nu_h I, the default; `orthogonal`: M_h = W_h = lambda_h P_h, P_h
the projection on head h's block of coordinates, `regimes.head_blocks`; `eigenvector`: any heads whose
value matrices W_h have the common token x as an eigenvector, for `single-cluster` and `antipodal` at every n, d, H,
beta only), `attention` (a kind or a list; default every kind, the smooth ones for a spectrum), `n` and `d` (an integer
or `{ min = a, max = b }`; absent: every value the regime allows), `beta` (any real number: beta < 0
repulsive weights, beta = 0 uniform usa and softmax weights and zero relu ones; absent: every beta > 0), `lambdas` (head
strengths; absent: every H and every strengths), `value_strengths` (nu_h; default nu_h = lambda_h), `rho` (the
equiangular inner product, a formula in n), `sizes` (the antipodal split [p, q], absent: every split; the clusters'
sizes), `points` (the given tokens, exact rational unit rows, `given_tokens`), `index`.

A claim is about every instance of its domain where the regime exists (d at least the dimension its tokens span).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import sympy as sp
from headflow.certificates.claims import regimes
from headflow.certificates.claims.decimals import decimal_value
from headflow.certificates.claims.expressions import parse_defined
from headflow.certificates.claims.given_tokens import GivenTokens, given_tokens
from headflow.certificates.claims.numbers import exact_number
from headflow.certificates.claims.problems import ExpressionError
from headflow.certificates.claims.regimes import HEADS, PROPERTIES, SPECTRAL, Instance, splits
from headflow.certificates.errors import InputError
from headflow.certificates.kernel import format as fmt
from headflow.certificates.kernel.exprtree import TreeError, parse_rational
from headflow.certificates.kernel.vocabulary import ATTENTION_KINDS, SMOOTH_KINDS
from headflow.certificates.sympy_trees import from_sympy

REQUIRED = {"tokens", "property"}
OPTIONAL = {"heads", "attention", "n", "d", "beta", "lambdas", "value_strengths", "rho", "sizes", "points", "index"}
#: Most instances a claim with finite ranges may have (each is decided, a spectrum certified, one by one).
MAX_INSTANCES = 64
#: Most tangent directions n (d - 1) of an instance whose spectrum is certified (the Jacobian over jets grows as
#: (n d)^2 and beyond this takes minutes), and the largest n of an instance decided exactly.
MAX_TANGENT = 16
MAX_EXACT_TOKENS = fmt.MAX_TOKENS
N = sp.Symbol("n", integer=True, positive=True)


def _rational(field: str, value: object) -> Fraction:
    if isinstance(value, str):
        text = value.replace(" ", "")
        try:
            return parse_rational(text)
        except TreeError:
            try:
                decimal = decimal_value(text, 100) if len(text) <= 200 else None
            except ValueError:
                decimal = None
            if decimal is None:
                raise InputError(field, value, 'an exact number: an integer, "p/q" or a decimal') from None
            return decimal
    return exact_number(field, value)


def _size_range(raw: dict[str, Any], key: str) -> tuple[int | None, int | None]:
    """(min, max) of an integer n or d: an integer, or a table { min = a, max = b } (absent: (None, None))."""
    value = raw.get(key)
    if value is None:
        return None, None
    limit = fmt.MAX_TOKENS if key == "n" else fmt.MAX_DIMENSION
    if isinstance(value, int) and not isinstance(value, bool):
        low = high = value
    elif isinstance(value, dict) and set(value) <= {"min", "max"} and value:
        low, high = value.get("min"), value.get("max")
        if any(v is not None and (isinstance(v, bool) or not isinstance(v, int)) for v in (low, high)):
            raise InputError(key, value, "min and max are integers")
    else:
        raise InputError(key, value, f"an integer or {{ min = a, max = b }} (absent: every {key})")
    if high is not None and not 1 <= high <= limit:
        raise InputError(key, value, f"at most {limit} (the size of a certificate)")
    if low is not None and high is not None and low > high:
        raise InputError(key, value, "min is larger than max")
    return low, high


def _strengths(raw: dict[str, Any], key: str) -> tuple[Fraction, ...] | None:
    if key not in raw:
        return None
    value = raw[key]
    if not isinstance(value, list) or not 1 <= len(value) <= fmt.MAX_HEADS:
        raise InputError(key, value, f"a list of 1 to {fmt.MAX_HEADS} numbers, one per head")
    out = tuple(_rational(key, v) for v in value)
    if any(v == 0 for v in out):
        raise InputError(key, value, "a head strength is non-zero")
    return out


def _attentions(raw: dict[str, Any], spectral: bool) -> tuple[str, ...]:
    allowed = SMOOTH_KINDS if spectral else ATTENTION_KINDS
    value = raw.get("attention", list(allowed))
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names or any(k not in ATTENTION_KINDS for k in names):
        raise InputError("attention", value, f"a kind or a list of kinds among {', '.join(ATTENTION_KINDS)}")
    if any(k not in allowed for k in names):
        raise InputError("attention", value, "relu weights have a kink at a zero score: no Jacobian, no spectrum")
    return tuple(dict.fromkeys(names))


def _sizes(raw: dict[str, Any], regime: str) -> tuple[int, ...] | None:
    if "sizes" not in raw:
        if regime == "clusters":
            raise InputError("sizes", None, "missing: clusters need their sizes, e.g. sizes = [2, 2, 2]")
        return None
    if regime not in ("antipodal", "clusters"):
        raise InputError("sizes", raw["sizes"], "only used with tokens = antipodal or clusters")
    value = raw["sizes"]
    count = 2 if regime == "antipodal" else None
    if (
        not isinstance(value, list)
        or any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in value)
        or (count is not None and len(value) != count)
        or len(value) < 2
        or sum(value) > fmt.MAX_TOKENS
    ):
        raise InputError("sizes", value, f"a list of {count or 'at least 2'} positive group sizes, n at most 12")
    return tuple(value)


def equilibrium_fields(raw: dict[str, Any], base: Path | None) -> dict[str, Any]:
    """The typed fields of an equilibrium claim; InputError naming the first bad field."""
    regime = raw["tokens"]
    if regime not in regimes.REGIMES:
        raise InputError("tokens", regime, f"a regime among {', '.join(regimes.REGIMES)}")
    prop = raw["property"]
    if prop not in PROPERTIES:
        raise InputError("property", prop, f"one of {', '.join(PROPERTIES)}")
    spectral = prop in SPECTRAL
    heads = raw.get("heads", "orthogonal" if regime == "orthogonal-subspaces" else "scalar")
    if heads not in HEADS:
        raise InputError("heads", heads, f"one of {', '.join(HEADS)}")
    if heads == "eigenvector" and (regime not in ("single-cluster", "antipodal") or spectral):
        raise InputError("heads", heads, "heads with a common eigenvector: critical points of a cluster or a split")
    if regime == regimes.FOUND and not spectral:
        raise InputError("tokens", regime, "the equilibria a search finds are critical points: state their spectrum")
    if (heads == "orthogonal") != (regime == "orthogonal-subspaces") and regime not in ("given", regimes.FOUND):
        raise InputError("heads", heads, "orthogonal heads go with tokens = orthogonal-subspaces (or given tokens)")
    strengths, nus = _strengths(raw, "lambdas"), _strengths(raw, "value_strengths")
    if heads == "eigenvector" and (strengths or nus):
        raise InputError("lambdas", raw.get("lambdas"), "heads = eigenvector are any heads: no strengths")
    if nus is not None and (heads != "scalar" or strengths is None or len(nus) != len(strengths)):
        raise InputError("value_strengths", raw["value_strengths"], "one nu_h per lambda_h, for scalar heads")
    if heads == "orthogonal" and (strengths is None or len(strengths) < 2):
        raise InputError("lambdas", raw.get("lambdas"), "orthogonal heads need their strengths, at least two heads")
    if spectral and nus is not None and nus != strengths:
        raise InputError("value_strengths", raw["value_strengths"], "a spectrum is certified for W_h = M_h only")
    # any real beta is the model's (beta < 0: repulsive weights; beta = 0: usa and softmax weights are uniform, relu
    # ones 0); the energy's 1/beta is not used by an equilibrium or its Jacobian
    beta = _rational("beta", raw["beta"]) if "beta" in raw else None
    rho = None
    if ("rho" in raw) != (regime == "equiangular"):
        raise InputError("rho", raw.get("rho"), "equiangular tokens need rho (a formula in n), and only they")
    if "rho" in raw:
        try:
            rho = parse_defined(raw["rho"], {"n": N})[0]
        except ExpressionError as exc:
            exc.field = "rho"
            raise
    points: GivenTokens | None = None
    if ("points" in raw) != (regime == "given"):
        raise InputError("points", raw.get("points"), "given tokens need points (exact rational unit rows), only they")
    if "points" in raw:
        points = given_tokens("points", raw["points"], base)
        if not points.exact:
            raise InputError("points", "...", "an equilibrium is decided exactly: write the tokens as rationals")
    if ("index" in raw) != (prop == "index"):
        raise InputError("index", raw.get("index"), "property = index needs index = k, and only it")
    index = raw.get("index")
    if index is not None and (isinstance(index, bool) or not isinstance(index, int) or index < 0):
        raise InputError("index", index, "a non-negative integer")
    sizes = _sizes(raw, regime)
    n_range, d_range = _size_range(raw, "n"), _size_range(raw, "d")
    fixed_n = sum(sizes) if sizes else points.n if points else None
    if fixed_n is not None:
        if n_range != (None, None) and not (n_range[0] or 0) <= fixed_n <= (n_range[1] or fixed_n):
            raise InputError("n", raw["n"], f"the regime has n = {fixed_n} tokens")
        n_range = (fixed_n, fixed_n)
    if points is not None:
        if d_range != (None, None) and d_range != (points.d, points.d):
            raise InputError("d", raw["d"], f"the given tokens are in R^{points.d}")
        d_range = (points.d, points.d)
    n_low = max(n_range[0] or 2, 2)
    d_low = max(d_range[0] or 2, 2)
    if points is not None and (points.n > fmt.MAX_TOKENS or points.d > fmt.MAX_DIMENSION):
        raise InputError("points", "...", f"at most {fmt.MAX_TOKENS} tokens in dimension {fmt.MAX_DIMENSION}")
    fields = {
        "regime": regime,
        "property": prop,
        "heads": heads,
        "attentions": _attentions(raw, spectral),
        "n_range": (n_low, n_range[1]),
        "d_range": (d_low, d_range[1]),
        "beta": beta,
        "strengths": strengths,
        "value_strengths": nus,
        "rho": rho,
        "rho_tree": None if rho is None else from_sympy(rho),
        "sizes": sizes,
        "points": points,
        "index": index,
    }
    _probe(SimpleNamespace(**fields))
    return fields


def _probe(fields: SimpleNamespace) -> None:
    """Refuse at reading what deciding would meet: rho not rational at an n, too many instances or none (a finite
    domain), no n of the first few where the tokens exist (an unbounded one)."""
    if fields.regime == regimes.FOUND and fields.heads == "orthogonal" and fields.d_range[0] < len(fields.strengths):
        raise InputError("d", fields.d_range[0], "orthogonal heads need d >= H")
    if finite(fields):
        instances(fields)
        return
    low, high = fields.n_range
    if low > MAX_EXACT_TOKENS:
        return  # beyond exact instances: only a symbolic proof decides such a claim
    if all(least_dimension(fields, n) is None for n in range(low, min(high or low + 3, low + 3) + 1)):
        raise InputError("tokens", fields.regime, f"the regime's tokens do not exist at n = {low}..{low + 3}")


def least_dimension(fields: Any, n: int) -> int | None:
    """The least d where the regime exists at n tokens (`regimes.least_dimension`); InputError naming rho when rho
    is not a rational number at n."""
    try:
        return regimes.least_dimension(fields, n)
    except ValueError as exc:
        raise InputError("rho", str(fields.rho), str(exc)) from None


def finite(fields: Any) -> bool:
    """Whether the domain is a finite list of instances (every size bounded, beta and the strengths given)."""
    return (
        fields.n_range[1] is not None
        and fields.d_range[1] is not None
        and fields.beta is not None
        and fields.strengths is not None
    )


def instances(fields: Any) -> list[Instance]:
    """Every instance of a finite domain where the regime exists; InputError when there are too many or none."""
    out = []
    n_low, n_high = fields.n_range
    d_low, d_high = fields.d_range
    for n in range(n_low, n_high + 1):
        least = least_dimension(fields, n)
        if least is None:
            continue  # no such tokens at this n (rho outside its range): the claim is about the others
        for d, attention, split in itertools.product(
            range(max(d_low, least), d_high + 1), fields.attentions, splits(fields, n)
        ):
            if fields.property in SPECTRAL and n * (d - 1) > MAX_TANGENT:
                raise InputError(
                    "d", d, f"n (d - 1) = {n * (d - 1)} tangent directions: a spectrum is certified up to {MAX_TANGENT}"
                )
            out.append(Instance(n, d, attention, fields.beta, tuple(fields.strengths), split))
            if len(out) > MAX_INSTANCES:
                raise InputError("n", f"{n_low}..{n_high}", f"more than {MAX_INSTANCES} instances: narrow the ranges")
    if not out:
        raise InputError(
            "d",
            f"{d_low}..{d_high}",
            "no instance of the domain where the regime's tokens exist (d too small, or rho outside its range)",
        )
    return out


def statement(raw: dict[str, Any], fields: dict[str, Any]) -> str:
    """The claim in words, generated from its fields."""
    sizes, points = fields["sizes"], str(fields["points"])
    regime = {
        "single-cluster": "all tokens equal",
        "antipodal": f"an antipodal split {sizes[0]}+{sizes[1]}" if sizes else "every antipodal split x_i = +-x",
        "simplex": "the regular simplex <x_i, x_j> = -1/(n-1)",
        "equiangular": f"equiangular tokens <x_i, x_j> = {raw.get('rho')}",
        "clusters": f"clusters of sizes {list(sizes or [])} at the vertices of a regular simplex",
        "orthogonal-subspaces": "tokens split along the head subspaces (+-e of head i mod H's first axis)",
        "given": points,
        "found": "every equilibrium class a seeded search finds (structured candidates and random starts)",
    }[fields["regime"]]
    prop = {
        "critical-point": "is a critical point (every velocity exactly 0)",
        "stable": "is a linearly stable equilibrium modulo rotations (index 0)",
        "unstable": "is an equilibrium with an eigenvalue of positive real part",
        "index": f"is an equilibrium of index {fields['index']}",
        "hyperbolic": "is an equilibrium, hyperbolic modulo rotations (its index is defined)",
    }[fields["property"]]
    heads = {
        "scalar": "scalar heads M_h = lambda_h I, W_h = nu_h I",
        "orthogonal": "orthogonal heads M_h = W_h = lambda_h P_h",
        "eigenvector": "any heads whose value matrices have x as a common eigenvector",
    }[fields["heads"]]

    def span(key: str) -> str:
        low, high = fields[f"{key}_range"]
        return f"{key} = {low}" if low == high else f"{key} in [{low}, {'oo)' if high is None else f'{high}]'}"

    lams = f"lambda = ({', '.join(map(str, fields['strengths']))})" if fields["strengths"] else "every H and strengths"
    beta = f"beta = {fields['beta']}" if fields["beta"] is not None else "every beta > 0"
    return (
        f"For {span('n')}, {span('d')} (where the tokens exist), {', '.join(fields['attentions'])} attention, "
        f"{beta}, {heads} ({lams}): {regime} {prop}."
    )
