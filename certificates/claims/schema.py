"""The six kinds of claims a claims file may state, validated field by field into typed claims.

Each `[[claim]]` table has `id`, `kind`, optionally `title` and `statement` (the user's own
words; a precise statement is generated otherwise), and the fields of its kind. Unknown keys,
missing fields and wrong types are InputErrors naming the field; expressions are parsed by
`headflow.certificates.claims.expressions` with exactly the declared symbols.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy as sp
from headflow.certificates import nonempty
from headflow.certificates.claims import equilibrium_claim
from headflow.certificates.claims.conditions import Condition, unique
from headflow.certificates.claims.data_files import names_file
from headflow.certificates.claims.domains import Domain, dependency_order, domain_region, parse_domain
from headflow.certificates.claims.expressions import parse_defined
from headflow.certificates.claims.given_angles import given_angles
from headflow.certificates.claims.given_matrices import FIELDS as MATRIX_FIELDS
from headflow.certificates.claims.given_matrices import given_matrices, head_matrices
from headflow.certificates.claims.given_tokens import given_tokens
from headflow.certificates.claims.head_domains import domain_scope
from headflow.certificates.claims.head_sums import HeadScope
from headflow.certificates.claims.interaction_text import parse_interaction
from headflow.certificates.claims.model_claim import OPTIONAL as MODEL_OPTIONAL
from headflow.certificates.claims.model_claim import REQUIRED as MODEL_REQUIRED
from headflow.certificates.claims.model_claim import Relation, model_fields, model_statement
from headflow.certificates.claims.model_sizes import Sizes
from headflow.certificates.claims.numbers import float_parameter, stated
from headflow.certificates.claims.orders import QUANTITIES as ASYMPTOTIC_QUANTITIES
from headflow.certificates.claims.orders import parameter_symbol, parse_approach, parse_order
from headflow.certificates.claims.problems import ExpressionError
from headflow.certificates.claims.quantified import (
    FIELD_NAMES,
    QUANTIFIABLE,
    check_domains,
    instance_fields,
    quantified_fields,
)
from headflow.certificates.errors import InputError
from headflow.certificates.families import HEAD_FAMILIES, OPTIONS, TOKEN_FAMILIES, Family, Option
from headflow.certificates.kernel.exprtree import TreeError
from headflow.certificates.kernel.interaction import Interaction
from headflow.certificates.kernel.vocabulary import ATTENTION_KINDS, GEOMETRIES
from headflow.certificates.masks import NAMED as NAMED_MASKS
from headflow.certificates.masks import Mask, mask_of
from headflow.certificates.model_quantities import MODEL_QUANTITIES
from headflow.certificates.quantity_uses import (
    INTEGER_PARAMETERS,
    OF_TRAJECTORY,
    PARAMETER,
    RESCALED,
    RESCALED_ATTENTION,
    RESCALED_GEOMETRY,
    RESCALED_PROPERTIES,
    UNCLAIMED,
    fields_of,
)
from headflow.certificates.vocabulary import MAX_DIMENSION, MAX_HEADS, MAX_TOKENS

KINDS = ("identity", "constant", "inequality", "dynamics", "asymptotic", "model", "all", "equilibrium")
#: Most parts of one `all` claim (a conjunction of claims of the other kinds).
MAX_PARTS = 20
#: A dynamics claim's model options beyond the paper (docs/models.md): the attention mask ("causal" or n rows of
#: 0/1) and the values ("aligned": W_h = M_h, the default; "identity": W_h = I; "spd": random symmetric positive
#: definite W_h; or the user's exact matrices, `headflow.certificates.claims.given_matrices`, then "given" with the
#: matrices under "value_matrices"). Present in the options only when
#: the file gives them, so the paper's claims read as before.
DYNAMICS_MODEL_OPTIONS = ("mask", "values")
DYNAMICS_VALUES = ("aligned", "identity", "spd")
#: The quantities built on the usa energy, whose 1/beta leaves them undefined at beta = 0.
ENERGY_QUANTITIES = ("energy", "energy_rate", "head_energy_rate")
OPERATORS = ("<", "<=", ">", ">=")
QUANTITIES = tuple(name for name in MODEL_QUANTITIES if name not in UNCLAIMED)
PROPERTIES = (
    "non-decreasing",
    "non-negative",
    "tends-to",
    "decays-at-rate",
    "at-most",
    "at-least",
    "does-not-tend-to",
    "decays-exponentially",
    "initial-rate",
    "stays-non-negative",
    "stays-at-least",
    "decays-like",
    "grows-like",
)
#: The field holding the target of each property that has one (decays-exponentially: the rate r0 that some rate
#: r > r0 beats, `headflow.checks.claimsfile.exponential_decay`).
TARGETS = {
    "tends-to": "limit",
    "decays-at-rate": "rate",
    "at-most": "bound",
    "at-least": "bound",
    "stays-at-least": "bound",
    "does-not-tend-to": "limit",
    "decays-exponentially": "rate",
    "initial-rate": "derivative",
    "decays-like": "like",
    "grows-like": "order",
}
#: The properties about t -> oo that a start of the family may be claimed to have (`exists = true`: some start).
LIMIT_PROPERTIES = ("tends-to", "decays-at-rate", "does-not-tend-to", "decays-exponentially", "decays-like")
#: beta as the variable of a `grows-like` order (an order in beta of a trajectory observable, as beta -> oo).
BETA = sp.Symbol("beta", positive=True)
#: What a `grows-like` order may be of: the quantity itself, or its logarithm (`of = "log"`).
ORDER_OF = ("quantity", "log")
#: The time t of a `decays-like` target (an expression of t: quantity(t)/like(t) -> C, 0 < C < oo, as t -> oo).
TIME = sp.Symbol("t", positive=True)
MAX_DIGITS = 1000
MAX_SAMPLES = 10_000

_COMMON = {"id", "kind", "title", "statement"}
_FIELDS: dict[str, tuple[set[str], set[str]]] = {  # kind -> (required, optional)
    "identity": ({"lhs", "rhs"}, {"symbols"}),
    "constant": ({"expr", "value", "digits"}, set()),
    "inequality": ({"lhs", "op", "rhs"}, {"domain", "not_all_equal"}),
    "dynamics": (
        {"quantity", "property", "n", "d", "beta", "heads", "tokens"},
        {
            "attention",
            "geometry",
            "H",
            *OPTIONS,
            "head",
            "time",
            "samples",
            "limit",
            "rate",
            "bound",
            "derivative",
            "like",
            "radius",
            "level",
            "k",
            "domain",
            *DYNAMICS_MODEL_OPTIONS,
            "exists",
            "interaction",
            "order",
            "of",
            "as",
        },
    ),
    "asymptotic": ({"quantity", "as"}, {"attention", "order", "limit", "over", "expr", "domain"}),
    "model": (MODEL_REQUIRED, MODEL_OPTIONAL),
    "all": ({"parts"}, set()),
    "equilibrium": (equilibrium_claim.REQUIRED, equilibrium_claim.OPTIONAL),
}
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:+-]{0,99}$")
_DECIMAL = re.compile(r"^[+-]?([0-9]{1,1000}(\.[0-9]{0,1000})?|\.[0-9]{1,1000})([eE][+-]?[0-9]{1,3})?$")


@dataclass(frozen=True, kw_only=True)
class UserClaim:
    """What every claim has: id, kind, title, statement, and its line in the file (None if unknown)."""

    id: str
    kind: str
    title: str
    statement: str
    line: int | None = None
    #: The claim's own TOML fields as parsed (floats as their literal text): what a certificate embeds.
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    #: The folder its data files are read from (`headflow.certificates.claims.data_files`); None: it names none.
    folder: Path | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, kw_only=True)
class IdentityClaim(UserClaim):
    """lhs = rhs for every point of the symbols' domains."""

    lhs: sp.Expr
    rhs: sp.Expr
    domains: dict[sp.Symbol, Domain] = field(default_factory=dict)
    order: list[sp.Symbol] = field(default_factory=list)
    conditions: tuple[Condition, ...] = ()
    #: Why the domain could not be shown non-empty ("" when a verified point shows it is).
    domain_unsettled: str = ""


@dataclass(frozen=True, kw_only=True)
class ConstantClaim(UserClaim):
    """expr lies in [low, high], the numbers that round to `value` at `digits` significant digits."""

    expr: sp.Expr
    value: sp.Rational
    digits: int
    low: sp.Rational
    high: sp.Rational
    conditions: tuple[Condition, ...] = ()


@dataclass(frozen=True, kw_only=True)
class InequalityClaim(UserClaim):
    """lhs op rhs for every point of the domain (bounds may depend on other parameters)."""

    lhs: sp.Expr
    op: str
    rhs: sp.Expr
    domains: dict[sp.Symbol, Domain] = field(default_factory=dict)
    order: list[sp.Symbol] = field(default_factory=list)
    conditions: tuple[Condition, ...] = ()
    #: Why the domain could not be shown non-empty ("" when a verified point shows it is).
    domain_unsettled: str = ""
    #: Per-head symbols and their count H (`headflow.certificates.claims.head_sums`): the claim is for every H of the
    #: domain and every family of values; `not_all_equal`: only families whose heads are not all equal.
    heads: HeadScope | None = None
    not_all_equal: bool = False
    #: Points each symbol's domain leaves out (`except = "c"`: every x != c), decided by `checks.claimsfile.maximiser`.
    punctures: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class DynamicsClaim(UserClaim):
    """A property of a model quantity (SPEC section 4) under the given model options."""

    quantity: str
    property: str
    options: dict[str, Any]
    target: sp.Expr | None = None
    #: Some start of the family has the property (True), rather than every start (False).
    exists: bool = False
    #: Quantified parameters (`headflow.certificates.claims.quantified`): field path ("n", "lambdas[0]") -> symbol,
    #: the symbols' domains in dependency order; the options then hold these symbols. Empty: one instance.
    parameters: dict[str, sp.Symbol] = field(default_factory=dict)
    domains: dict[sp.Symbol, Domain] = field(default_factory=dict)
    order: list[sp.Symbol] = field(default_factory=list)
    domain_unsettled: str = ""


@dataclass(frozen=True, kw_only=True)
class AsymptoticClaim(UserClaim):
    """quantity relation reference as variable -> oo (`certificates.claims.orders`): relation is Theta, O, Omega,
    o, ~ or limit (quantity/over -> reference); `expr` and the domain only for quantity = "expression"."""

    quantity: str
    attention: str
    variable: sp.Symbol
    relation: str
    reference: sp.Expr
    over: sp.Expr
    expr: sp.Expr | None = None
    domains: dict[sp.Symbol, Domain] = field(default_factory=dict)
    order: list[sp.Symbol] = field(default_factory=list)
    conditions: tuple[Condition, ...] = ()
    domain_unsettled: str = ""


@dataclass(frozen=True, kw_only=True)
class ModelClaim(UserClaim):
    """A relation between model terms at every configuration of the stated kind with the hypotheses, for all n, d,
    H, beta (`headflow.certificates.claims.model_claim`), under the `given` conditions at every token; with `exists`,
    at some configuration, token and head."""

    attention: str
    geometry: str
    hypotheses: tuple[str, ...]
    relation: Relation
    given: tuple[Relation, ...] = ()
    exists: bool = False
    #: The sign of beta the claim is about ("positive" or "negative": repulsive attention).
    beta_sign: str = "positive"
    #: "none", "causal" or "given": the attention mask of every configuration of the claim (given: `mask_rows`).
    mask: str = "none"
    #: The given mask's rows (`headflow.certificates.kernel.masks`; the claim is then about n = len(mask_rows) only).
    mask_rows: Mask | None = None
    #: "every" token i, or the "first" token only.
    token: str = "every"
    sizes: Sizes = field(default_factory=Sizes)
    #: The stated interaction function (`headflow.certificates.kernel.interaction`); None: the kind's own weights.
    interaction: Interaction | None = None


@dataclass(frozen=True, kw_only=True)
class AllClaim(UserClaim):
    """Every part holds (a conjunction: an "iff" is its two implications). Each part is a claim of another kind
    whose id is the claim's id and its number (`T19.c-star.part2`); its certificates embed the part."""

    parts: tuple[UserClaim, ...]


@dataclass(frozen=True, kw_only=True)
class EquilibriumClaim(UserClaim):
    """A token regime is a critical point of the field, or an equilibrium with a stated spectrum, on the stated ranges
    of n, d, beta, kinds and heads (`headflow.certificates.claims.equilibrium_claim`; None: every value)."""

    regime: str
    property: str
    heads: str
    attentions: tuple[str, ...]
    n_range: tuple[int, int | None]
    d_range: tuple[int, int | None]
    beta: Fraction | None
    strengths: tuple[Fraction, ...] | None
    value_strengths: tuple[Fraction, ...] | None
    rho: sp.Expr | None
    #: rho as an expression tree in n (what the exact domain checks evaluate, `regimes.regime_gram`).
    rho_tree: Any
    sizes: tuple[int, ...] | None
    points: Any
    index: int | None


def validate_claim(raw: Any, line: int | None, base: Path | None = None) -> UserClaim:
    """The typed claim of one `[[claim]]` table; InputError names the first bad field. The data files a claim
    names are read from inside the folder `base` (the claims file's; None: the claim may name no data file)."""
    if not isinstance(raw, dict):
        raise InputError("claim", raw, "each [[claim]] must be a table")
    claim_id = _string(raw, "id")
    if not _ID.match(claim_id):
        raise InputError("id", claim_id, "ids are 1-100 characters: letters, digits and _ . : + - (not first)")
    kind = _string(raw, "kind")
    if kind not in KINDS:
        raise InputError("kind", kind, f"unknown kind (expected one of {', '.join(KINDS)})")
    required, optional = _FIELDS[kind]
    unknown = sorted(set(raw) - _COMMON - required - optional)
    if unknown:
        allowed = ", ".join(sorted(_COMMON | required | optional))
        raise InputError(unknown[0], raw[unknown[0]], f"unknown key for a {kind} claim (allowed: {allowed})")
    for key in sorted(required):
        if key not in raw:
            raise InputError(key, None, f"missing: a {kind} claim needs {', '.join(sorted(required))}")
    header = {
        "id": claim_id,
        "kind": kind,
        "line": line,
        "title": _optional_string(raw, "title") or claim_id,
        "raw": dict(raw),
        "folder": base,
    }
    stated = _optional_string(raw, "statement")
    if kind == "dynamics":
        return _dynamics(raw, header, stated, base)
    if kind == "all":
        return _all(raw, header, stated, base)
    if kind == "equilibrium":
        fields = equilibrium_claim.equilibrium_fields(raw, base)
        return EquilibriumClaim(**header, statement=stated or equilibrium_claim.statement(raw, fields), **fields)
    return _BUILDERS[kind](raw, header, stated)


def _all(raw: dict[str, Any], header: dict[str, Any], stated: str | None, base: Path | None) -> AllClaim:
    """A conjunction: each table of `parts` is a claim of another kind, numbered after the claim's id."""
    tables = raw["parts"]
    if not isinstance(tables, list) or not 2 <= len(tables) <= MAX_PARTS:
        raise InputError("parts", "...", f"a list of 2 to {MAX_PARTS} claim tables ([[claim.parts]])")
    parts = []
    for number, table in enumerate(tables, start=1):
        if not isinstance(table, dict):
            raise InputError(f"parts[{number}]", table, "each part is a table")
        if "id" in table:
            raise InputError(f"parts[{number}].id", table["id"], "a part's id is its claim's id and number")
        if table.get("kind") == "all":
            raise InputError(f"parts[{number}].kind", "all", "parts do not nest: list every part in one claim")
        try:
            parts.append(validate_claim({"id": f"{header['id']}.part{number}", **table}, header["line"], base))
        except InputError as exc:
            exc.field = f"parts[{number}].{exc.field}"  # the same error (an expression keeps its column)
            raise
    statement = stated or "all of: " + "; ".join(f"({k}) {part.statement}" for k, part in enumerate(parts, 1))
    return AllClaim(**header, statement=statement, parts=tuple(parts))


def with_parts(claims: list[UserClaim]) -> list[UserClaim]:
    """The claims and, after each conjunction, its parts (the claims a certificate may embed)."""
    return [c for claim in claims for c in (claim, *getattr(claim, "parts", ()))]


def _identity(raw: dict[str, Any], header: dict[str, Any], stated: str | None) -> IdentityClaim:
    domains, order, symbols, unsettled = _domains(raw, "symbols")
    (lhs, left), (rhs, right) = _defined(raw, "lhs", symbols), _defined(raw, "rhs", symbols)
    statement = stated or f"{_for_all(domains, order)}{raw['lhs']} = {raw['rhs']}."
    return IdentityClaim(
        **header,
        statement=statement,
        lhs=lhs,
        rhs=rhs,
        domains=domains,
        order=order,
        conditions=unique(left + right),
        domain_unsettled=unsettled,
    )


def _constant(raw: dict[str, Any], header: dict[str, Any], stated: str | None) -> ConstantClaim:
    expr, conditions = _defined(raw, "expr", {})
    text = raw["value"]
    if not isinstance(text, str):
        raise InputError("value", text, 'write the value as a decimal string, e.g. value = "0.6180339887"')
    if not _DECIMAL.match(text.strip()):
        raise InputError("value", text, "not a decimal number (digits, optional point and exponent up to 3 digits)")
    exact = Fraction(text.strip())
    if abs(exact) > 10**100 or (exact != 0 and abs(exact) < Fraction(1, 10**400)):
        raise InputError("value", text, "magnitude must lie within 1e-400..1e100")
    digits = raw["digits"]
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= MAX_DIGITS:
        raise InputError("digits", digits, f"an integer from 1 to {MAX_DIGITS} (significant digits)")
    written = significant_digits(text.strip())
    if written > digits:
        raise InputError(
            "value", text, f"{written} significant digits, more than digits = {digits}: write the value rounded to "
            f"{digits} digits (or raise digits)"
        )  # fmt: skip
    value = sp.Rational(exact.numerator, exact.denominator)
    low, high = rounding_interval(value, digits)
    statement = stated or (
        f"{raw['expr']} = {text} to {digits} significant digits, i.e. {raw['expr']} lies in "
        f"[{decimal_text(low)}, {decimal_text(high)}]."
    )
    return ConstantClaim(
        **header, statement=statement, expr=expr, value=value, digits=digits, low=low, high=high, conditions=conditions
    )


def significant_digits(text: str) -> int:
    """The significant digits of a decimal text: from the first non-zero digit of the mantissa to its last
    digit, trailing zeros included after a decimal point ("1.50": 3) and not in a whole number ("1500": 2).
    Zero has none."""
    mantissa = text.lstrip("+-").lower().partition("e")[0]
    whole, point, fraction = mantissa.partition(".")
    figures = (whole + fraction).lstrip("0")
    return len(figures if point else figures.rstrip("0"))


def _inequality(raw: dict[str, Any], header: dict[str, Any], stated: str | None) -> InequalityClaim:
    op = raw["op"]
    if op not in OPERATORS:
        raise InputError("op", op, f"expected one of {' '.join(OPERATORS)}")
    bare, excepted = _without_punctures(raw)
    domains, order, symbols, unsettled = _domains(bare, "domain")
    punctures = {symbols[name]: _expression({"except": text}, "except", symbols) for name, text in excepted.items()}
    heads = domain_scope(domains)
    distinct = raw.get("not_all_equal", False)
    if not isinstance(distinct, bool) or (distinct and heads is None):
        raise InputError("not_all_equal", distinct, "true or false, and only with per-head symbols (names ending _h)")
    (lhs, left), (rhs, right) = _defined(raw, "lhs", symbols, heads), _defined(raw, "rhs", symbols, heads)
    statement = stated or f"{_for_all(domains, order)}{raw['lhs']} {op} {raw['rhs']}."
    if punctures:
        if heads is not None:
            raise InputError("domain", raw["domain"], "a punctured domain (`except`) needs no per-head symbols")
        but = ", ".join(f"{symbol} != {excepted[str(symbol)]}" for symbol in punctures)
        statement = stated or f"{_for_all(domains, order)}{but}: {raw['lhs']} {op} {raw['rhs']}."
    if heads is not None:
        statement = stated or (
            f"{_for_all(domains, order)}for every family of H values {', '.join(sorted(heads.names))} in that domain"
            f"{', not all equal' if distinct else ''}: {raw['lhs']} {op} {raw['rhs']}."
        )
    return InequalityClaim(
        heads=heads,
        not_all_equal=distinct,
        **header,
        statement=statement,
        lhs=lhs,
        op=op,
        rhs=rhs,
        domains=domains,
        order=order,
        conditions=unique(left + right),
        domain_unsettled=unsettled,
        punctures=punctures,
    )


def _without_punctures(raw: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The claim's fields with each domain table's `except = "c"` (the point c the symbol's domain leaves out) taken
    out, and those points' texts by symbol name."""
    table = raw.get("domain")
    if not isinstance(table, dict):
        return raw, {}
    excepted: dict[str, str] = {}
    domain: dict[str, Any] = {}
    for name, spec in table.items():
        if isinstance(spec, dict) and "except" in spec:
            if not isinstance(spec["except"], str):
                raise InputError(f"domain.{name}.except", spec["except"], "the point left out, as a string")
            excepted[name] = spec["except"]
            spec = {key: value for key, value in spec.items() if key != "except"}
        domain[name] = spec
    return ({**raw, "domain": domain}, excepted) if excepted else (raw, {})


def _dynamics(
    raw: dict[str, Any],
    header: dict[str, Any],
    stated: str | None,
    base: Path | None,
    values: dict[str, sp.Expr] | None = None,
    heads: HeadScope | None = None,
) -> DynamicsClaim:
    """One dynamics claim; a `domain` table makes it quantified (`_quantified`). `values` are the quantified
    parameters' values by symbol name, which the target may use (an instance of a quantified claim); `heads` the
    instance's family of per-head strengths, which the target's sum_h and mean_h are written out over."""
    if "domain" in raw:
        return _quantified(raw, header, stated, base)
    quantity, prop = _choice(raw, "quantity", QUANTITIES), _choice(raw, "property", PROPERTIES)
    of_trajectory = quantity in OF_TRAJECTORY
    if of_trajectory and prop not in ("at-most", "at-least", "grows-like"):
        raise InputError(
            "property", prop, f"{quantity} is one number per trajectory: use at-most, at-least or grows-like"
        )
    if prop == "decays-exponentially" and quantity != "cluster_gap":
        raise InputError("property", prop, "decays-exponentially is decided for quantity = cluster_gap")
    options: dict[str, Any] = {
        "attention": _choice(raw, "attention", ATTENTION_KINDS, "usa"),
        "geometry": _choice(raw, "geometry", GEOMETRIES, "sphere"),
        "heads": _choice(raw, "heads", tuple(HEAD_FAMILIES)),
        "tokens": _choice(raw, "tokens", tuple(TOKEN_FAMILIES)),
        "n": _integer(raw, "n", 2, MAX_TOKENS),
        "d": _integer(raw, "d", 1, MAX_DIMENSION),
        "beta": _number(raw, "beta", positive=False),
    }
    if quantity in RESCALED:
        _rescaled(raw, quantity, prop, options)
    if options["beta"] <= 0 and quantity == "kde_mode_count":
        raise InputError("beta", raw["beta"], "kde_mode_count: the kernel exp(beta <x, x_j>) needs beta > 0")
    if options["beta"] == 0 and quantity in ENERGY_QUANTITIES:
        raise InputError("beta", raw["beta"], "the energy (1/(2 beta n^2)) sum exp(beta s) is undefined at beta = 0")
    if "mask" in raw:
        mask = raw["mask"]
        if not (isinstance(mask, str) and mask.strip() in NAMED_MASKS):  # a name needs no table of n^2 entries
            mask_of(mask, options["n"])
        options["mask"] = mask if isinstance(mask, str) else tuple(tuple(int(m) for m in row) for row in mask)
    matrices = _given_matrices(raw, base, options["heads"])
    if "values" in raw and "values" not in matrices:
        options["values"] = _choice(raw, "values", DYNAMICS_VALUES)
    if matrices:
        options["H"] = next(iter(matrices.values())).H  # the default H: the number of matrices given
    _family_options(raw, options, base)
    options |= head_matrices(matrices, options["d"], options["H"])
    if options["heads"] == "given" and "scores" not in options:
        raise InputError("scores", None, "missing: heads = given need `scores`, or `queries` and `keys`")
    if "value_matrices" in options:
        options["values"] = "given"
    if "interaction" in raw:
        options["interaction"] = _dynamics_interaction(raw, options["attention"], quantity)
    taken = fields_of(quantity)
    for key in set(PARAMETER.values()):
        if key in raw and key not in taken:
            raise InputError(key, raw[key], f"only used with the quantities that take it ({_taking(key)})")
    for key in taken:
        if key not in raw:
            raise InputError(key, None, f"missing: {quantity} needs `{key}`")
        if key in INTEGER_PARAMETERS:  # the k-th merge of n tokens
            options[key] = _integer(raw, key, 1, options["n"] - 1)
        else:
            options[key] = _number(raw, key, positive=True)
    if "head" in raw:
        options["head"] = _integer(raw, "head", 0, options["H"] - 1)
    if "samples" in raw:
        options["samples"] = _integer(raw, "samples", 1, MAX_SAMPLES)
    if "time" in raw:
        # an order in beta of a state quantity may read it at t = 0: the family's start itself, no integration
        at_start = prop == "grows-like" and quantity not in OF_TRAJECTORY
        options["time"] = _number(raw, "time", positive=not at_start)
        if options["time"] < 0:
            raise InputError("time", raw["time"], "must be >= 0")
    target_key = TARGETS.get(prop)
    for key in set(TARGETS.values()):
        if key in raw and key != target_key:
            users = " or ".join(p for p, k in TARGETS.items() if k == key)
            raise InputError(key, raw[key], f"only used with property = {users}")
    target = None
    for key in ("of", "as"):
        if key in raw and prop != "grows-like":
            raise InputError(key, raw[key], "only used with property = grows-like")
    if target_key is not None:
        if target_key not in raw:
            raise InputError(target_key, None, f"missing: property {prop} needs `{target_key}`")
        known = {key: _exact(options[key]) for key in ("n", "d", "H", "beta")}
        if prop == "grows-like":
            target = _order_in_beta(raw, quantity, options, known)
        else:
            target = _expression(raw, target_key, known | (values or {}) | _time(prop), heads)
        if prop == "decays-like" and target == 0:  # as parsed (0*t is 0): a refusal, no verdict rests on it
            raise InputError("like", raw["like"], "is 0: the ratio q(t)/like(t) the property compares is undefined")
    exists = _exists(raw, prop)
    statement = stated or _dynamics_statement(raw, quantity, prop, options, exists)
    return DynamicsClaim(
        **header, statement=statement, quantity=quantity, property=prop, options=options, target=target, exists=exists
    )


def _rescaled(raw: dict[str, Any], quantity: str, prop: str, options: dict[str, Any]) -> None:
    """InputError unless a quantity of the rescaled tokens z_i = exp(-t V) x_i is claimed where they mean something:
    the flat softmax dynamics (whose rows of weights sum to 1, so that x_i' = V x_i + ..., V = sum_h W_h), with a
    property read off the trajectory's records and their times, of every start."""
    why = "the rescaled tokens exp(-t V) x_i undo the flat softmax dynamics' growth x_i' = V x_i + ... (V = sum_h W_h)"
    if options["geometry"] != RESCALED_GEOMETRY:
        where = {"sphere": "on the sphere the tokens stay unit vectors"}.get(
            options["geometry"],
            f"geometry = {options['geometry']} is a normalization scheme, whose tokens do not grow like exp(t V)",
        )
        raise InputError("geometry", options["geometry"], f'{quantity}: {why}; {where}: use geometry = "flat"')
    if options["attention"] != RESCALED_ATTENTION:
        raise InputError(
            "attention",
            options["attention"],
            f'{quantity}: {why}, which needs weights that sum to 1 over j: use attention = "softmax"',
        )
    if prop not in RESCALED_PROPERTIES:
        raise InputError("property", prop, f"{quantity} is decided as {', '.join(RESCALED_PROPERTIES)}")
    if raw.get("exists", False) is True:
        raise InputError("exists", True, f"{quantity} is claimed of every start (exists = false)")


def _order_in_beta(raw: dict[str, Any], quantity: str, options: dict[str, Any], known: dict[str, sp.Expr]) -> sp.Expr:
    """The comparison function g(beta) of a `grows-like` claim, its relation (Theta, O, Omega, o, ~: the asymptotic
    kind's `order` grammar, `orders.parse_order`, nothing executed) and what it is of (`of`: the quantity or its log)
    put in the options; beta is the variable (`as`, if given, must say "beta -> oo"), and the file's `beta` > 0 is
    the least beta the float route measures at. Only a quantity that is one number per trajectory, or one number
    per state read at t = `time`, has an order in beta."""
    if "as" in raw:
        try:
            parse_approach(raw["as"], ("beta",))
        except ExpressionError as exc:
            exc.field = "as"
            raise
    if quantity not in OF_TRAJECTORY and MODEL_QUANTITIES[quantity].axes:
        raise InputError("quantity", quantity, "an order in beta is of one number: a quantity with no head or token")
    if quantity == "closest_pair_merges_first":
        raise InputError("quantity", quantity, "a 0/1 reading has no order of growth in beta")
    if quantity not in OF_TRAJECTORY and "time" not in raw:
        raise InputError("time", None, f"missing: an order in beta of {quantity} reads it at t = `time`")
    if options["beta"] <= 0:
        raise InputError("beta", raw["beta"], "the least beta of an order in beta must be positive")
    options["of"] = _choice(raw, "of", ORDER_OF, "quantity")
    try:
        sizes = {key: known[key] for key in ("n", "d", "H")}
        relation, reference, _ = parse_order(raw["order"], sizes | {"beta": BETA})
    except ExpressionError as exc:
        exc.field = "order"
        raise
    if not reference.free_symbols <= {BETA}:
        raise InputError("order", raw["order"], "the comparison function is a formula of beta (and n, d, H)")
    options["order"] = relation
    return reference


def _time(prop: str) -> dict[str, sp.Expr]:
    """The symbol t for the target of `decays-like` (an expression of the time), none for any other property."""
    return {"t": TIME} if prop == "decays-like" else {}


def _dynamics_interaction(raw: dict[str, Any], attention: str, quantity: str) -> Interaction:
    """The stated phi(s) of a dynamics claim; entropies are defined for exp(beta s) weights only."""
    if quantity in ("attention_entropy", "entropy_rate", "attention_matrix"):
        raise InputError("interaction", raw["interaction"], f"{quantity} is defined for exp(beta s) weights only")
    return parse_interaction(raw["interaction"], attention)


def _exists(raw: dict[str, Any], prop: str) -> bool:
    """`exists`: true (some start of the family has the property) or false (every start), for a property as
    t -> oo (a pointwise property of some start is a model claim's `exists`)."""
    exists = raw.get("exists", False)
    if not isinstance(exists, bool):
        raise InputError("exists", exists, "true (some start of the family) or false (every start)")
    if exists and prop not in LIMIT_PROPERTIES:
        raise InputError("exists", exists, f"some start: only with property = {', '.join(LIMIT_PROPERTIES)}")
    return exists


def _dynamics_statement(
    raw: dict[str, Any], quantity: str, prop: str, options: dict[str, Any], exists: bool = False
) -> str:
    """The generated statement: the quantity, its property and the model options (`exists`: for some start)."""
    of_trajectory = quantity in OF_TRAJECTORY
    words = ", ".join(f"{key}={value}" for key, value in options.items())
    phrase = {
        "non-decreasing": "is non-decreasing along trajectories",
        "non-negative": "is non-negative",
        "tends-to": f"tends to {raw.get('limit')}",
        "decays-at-rate": f"decays at rate r = {raw.get('rate')}, i.e. {quantity}(t) ~ C exp(-r t) with C > 0",
        "at-most": f"is at most {raw.get('bound')}" + ("" if of_trajectory else " at every time"),
        "at-least": f"is at least {raw.get('bound')}" + ("" if of_trajectory else " at every time"),
        "does-not-tend-to": f"does not tend to {raw.get('limit')}",
        "decays-exponentially": (
            f"decays exponentially faster than {raw.get('rate')}: there are r > {raw.get('rate')} and C with "
            f"{quantity}(t) <= C exp(-r t) for all t >= 0"
        ),
        "decays-like": (
            f"decays like {raw.get('like')}: {quantity}(t) -> 0 and {quantity}(t) / ({raw.get('like')}) -> C with "
            "0 < C < oo as t -> oo"
        ),
        "grows-like": _order_phrase(raw, of_trajectory),
        "stays-non-negative": (
            "stays non-negative: at every t >= 0 (every entry), on every trajectory where it is at t = 0"
        ),
        "stays-at-least": (
            f"stays at least {raw.get('bound')}: at every t >= 0 (every entry), on every trajectory where it is at "
            "t = 0"
        ),
        "initial-rate": (
            f"has the initial rate {raw.get('derivative')}: the right derivative d+/dt at t = 0 of every entry "
            "equals it"
        ),
    }[prop]
    if exists:
        return f"Some start of the family has: {quantity} {phrase} ({words})."
    return f"{quantity} {phrase} ({words})."


def _order_phrase(raw: dict[str, Any], of_trajectory: bool) -> str:
    """The phrase of a `grows-like` claim: what is of which order in beta, and where it is read."""
    of = "(its log) " if raw.get("of") == "log" else ""
    read = "" if of_trajectory else f"(read at t = {raw.get('time')}) "
    order = str(raw.get("order", "")).strip()
    return f"{of}{read}is {order} as beta -> oo, from the family's start at each beta (least beta {raw.get('beta')})"


def _quantified(raw: dict[str, Any], header: dict[str, Any], stated: str | None, base: Path | None) -> DynamicsClaim:
    """A dynamics claim over the points of its `[claim.domain]`: its other fields are validated at a verified
    point of the domain (an instance), its options hold the symbols, its target is read with them."""
    if raw.get("tokens") in ("given", "angles"):
        raise InputError("domain", raw["domain"], "given tokens fix n and d: a claim about them has no domain")
    if raw.get("property") == "grows-like":
        raise InputError("domain", raw["domain"], "an order in beta is about one family as beta -> oo: no domain")
    domains, order, symbols, unsettled = _domains(raw, "domain")
    found = quantified_fields(raw, symbols)
    check_domains(found, domains, raw.get("n") if "n" not in found else None)
    settled = nonempty.settle(domain_region(domains, order))
    point = settled.point or {}
    if settled.point is None or not all(isinstance(value, Fraction) for value in point.values()):
        raise InputError(
            "domain", raw["domain"], f"no exact point of the domain found to check the claim ({unsettled})"
        )
    exact_point: dict[sp.Symbol, Any] = {symbol: point[symbol.name] for symbol in order}
    scope = _dynamics_scope(raw, found)
    if scope is not None:  # the instance checked: every head at the point's strength (at most MAX_HEADS of them)
        strength = found["lambdas"]
        count = exact_point[found["H"]] if "H" in found else raw["H"]
        exact_point[strength] = [exact_point[strength]] * min(int(count), MAX_HEADS)
    instance = dynamics_instance_of(raw, header, found, exact_point, base)
    options = dict(instance.options)
    for path, symbol in found.items():
        key, _, index = path.partition("[")
        if index:
            options[key] = list(options[key])
            options[key][int(index[:-1])] = symbol
        else:
            options[key] = symbol
    target = None
    if instance.target is not None:
        known = {
            key: options[key] if isinstance(options[key], sp.Symbol) else _exact(options[key]) for key in FIELD_NAMES
        }
        target = _expression(
            raw, TARGETS[instance.property], known | {s.name: s for s in order} | _time(instance.property), scope
        )
    statement = stated or _for_all(domains, order) + _dynamics_statement(
        raw, instance.quantity, instance.property, options, instance.exists
    )
    return dataclasses.replace(
        instance,
        statement=statement,
        raw=dict(raw),
        options=options,
        target=target,
        parameters=found,
        domains=domains,
        order=order,
        domain_unsettled=unsettled,
    )


def _dynamics_scope(raw: dict[str, Any], found: dict[str, sp.Symbol]) -> HeadScope | None:
    """The per-head scope of a claim with `lambdas = "lam_h"` (count: the H symbol or the file's H), else None."""
    if "lambdas" not in found:
        return None
    count = found.get("H", sp.Integer(raw["H"]) if isinstance(raw.get("H"), int) else None)
    return HeadScope(frozenset({found["lambdas"].name}), count)


def dynamics_instance_of(
    raw: dict[str, Any],
    header: dict[str, Any],
    found: dict[str, sp.Symbol],
    point: dict[sp.Symbol, Any],
    base: Path | None = None,
) -> DynamicsClaim:
    """The claim at one exact point of its domain, validated as a dynamics claim of its own (InputError naming the
    point when the family has no member there, e.g. d < n for equiangular tokens). A per-head symbol's value is
    the list of the heads' strengths."""
    fields = instance_fields(raw, found, point)
    values = {
        symbol.name: sp.Rational(value.numerator, value.denominator)
        for symbol, value in point.items()
        if not isinstance(value, list)
    }
    heads = None
    if "lambdas" in found:
        strengths = [sp.Rational(v.numerator, v.denominator) for v in point[found["lambdas"]]]
        members = tuple(({found["lambdas"].name: v}, strengths.count(v)) for v in dict.fromkeys(strengths))
        heads = HeadScope(frozenset({found["lambdas"].name}), sp.Integer(len(strengths)), members)
        values[found["lambdas"].name] = found["lambdas"]
        values.pop(str(found.get("H", "")), None)
    at = ", ".join(f"{symbol} = {value}" for symbol, value in point.items())
    try:
        return _dynamics(fields, header | {"raw": fields}, None, base, values, heads)
    except InputError as exc:
        if str(exc.field).partition("[")[0] not in QUANTIFIABLE:
            raise
        raise InputError(exc.field, exc.value, f"at the point {at} of the domain: {exc.reason}") from None


def dynamics_instance(claim: DynamicsClaim, point: dict[sp.Symbol, Fraction]) -> DynamicsClaim:
    """A quantified dynamics claim at one exact point of its domain (see dynamics_instance_of)."""
    header = {"id": claim.id, "kind": claim.kind, "line": claim.line, "title": claim.title, "folder": claim.folder}
    return dynamics_instance_of(claim.raw, header, claim.parameters, point, claim.folder)


def _asymptotic(raw: dict[str, Any], header: dict[str, Any], stated: str | None) -> AsymptoticClaim:
    quantity = _choice(raw, "quantity", tuple(ASYMPTOTIC_QUANTITIES))
    spec = ASYMPTOTIC_QUANTITIES[quantity]
    kinds = tuple(k for k in spec.variables if k)
    attention = _choice(raw, "attention", kinds, kinds[0] if len(kinds) == 1 else None) if kinds else ""
    if not kinds and "attention" in raw:
        raise InputError("attention", raw["attention"], f"not used with quantity = {quantity}")
    for key, needed in (("expr", quantity == "expression"), ("domain", quantity == "expression")):
        if key in raw and not needed:
            raise InputError(key, raw[key], "only used with quantity = expression")
    if ("order" in raw) == ("limit" in raw):
        raise InputError("order", raw.get("order"), "state exactly one of `order` (Theta, O, Omega, o, ~) and `limit`")
    if "over" in raw and "limit" not in raw:
        raise InputError("over", raw["over"], "only used with `limit` (quantity/over -> limit)")
    domains: dict[sp.Symbol, Domain] = {}
    order: list[sp.Symbol] = []
    unsettled, expr, conditions = "", None, ()
    if quantity == "expression":
        if "expr" not in raw:
            raise InputError("expr", None, "missing: quantity = expression needs `expr`")
        domains, order, symbols, unsettled = _domains(raw, "domain")
        expr, conditions = _defined(raw, "expr", symbols)
    else:
        symbols = {name: parameter_symbol(name) for name in spec.parameters}
    allowed = tuple(v for v in spec.variables[attention] if quantity != "expression" or v in symbols)
    try:
        variable = symbols[parse_approach(raw["as"], allowed)]
    except ExpressionError as exc:
        exc.field = "as"
        raise
    if "order" in raw:
        try:
            relation, reference, extra = parse_order(raw["order"], symbols)
        except ExpressionError as exc:
            exc.field = "order"
            raise
        over = sp.Integer(1)
    else:
        relation, (reference, extra) = "limit", _defined(raw, "limit", symbols)
        if variable in reference.free_symbols:
            raise InputError("limit", raw["limit"], f"a limit as {variable} -> oo cannot depend on {variable}")
        over, more = _defined(raw, "over", symbols) if "over" in raw else (sp.Integer(1), ())
        extra += more
    subject = (
        raw["expr"]
        if expr is not None
        else f"the {quantity.replace('_', ' ')}" + (f" ({attention})" if attention else "")
    )
    if relation == "limit":
        ratio = f"{subject} / ({raw['over']})" if "over" in raw else subject
        phrase = f"{ratio} -> {raw['limit']}"
    else:
        phrase = f"{subject} = {raw['order'].strip()}" if relation != "~" else f"{subject} {raw['order'].strip()}"
    where = _for_all(domains, order) if expr is not None else f"For all parameters of its regime ({spec.meaning}): "
    statement = stated or f"{where}{phrase} as {variable} -> oo."
    return AsymptoticClaim(
        **header,
        statement=statement,
        quantity=quantity,
        attention=attention,
        variable=variable,
        relation=relation,
        reference=reference,
        over=over,
        expr=expr,
        domains=domains,
        order=order,
        conditions=unique((*conditions, *extra)),
        domain_unsettled=unsettled,
    )


def _given_matrices(raw: dict[str, Any], base: Path | None, heads: str) -> dict[str, Any]:
    """The head matrices the claim states (`headflow.certificates.claims.given_matrices`), by field: scores, queries
    and keys for heads = "given" (another family's are refused by `_family_options`); `values` when it is a list or
    names a .npy/.csv file (else a kind of values: aligned, identity, spd)."""
    wanted = MATRIX_FIELDS if heads == "given" else ("values",)
    return {
        name: given_matrices(name, raw[name], base)
        for name in wanted
        if name in raw and not (name == "values" and isinstance(raw[name], str) and not names_file(raw[name]))
    }


def _taking(key: str) -> str:
    return ", ".join(name for name in PARAMETER if key in fields_of(name))


def _family_options(raw: dict[str, Any], options: dict[str, Any], base: Path | None) -> None:
    """H and the options the claim's families take, each in its domain, and the families' bounds on d, all as the
    records of `headflow.certificates.families` declare them; an option no chosen family takes is an error."""
    n, d = options["n"], options["d"]
    chosen: dict[str, Family] = {"heads": HEAD_FAMILIES[options["heads"]], "tokens": TOKEN_FAMILIES[options["tokens"]]}
    taken = {o.name for family in chosen.values() for o in family.options}
    for name in OPTIONS:
        if name in raw and name not in taken:
            raise InputError(name, raw[name], f"only used with {_takers(name)}")
    lengths = [len(_list(raw, o.name)) for o in chosen["heads"].options if o.per_head and o.name in raw]
    H = options["H"] = _integer(raw, "H", 1, MAX_HEADS, default=lengths[0] if lengths else options.get("H", 1))
    for kind, family in chosen.items():
        for option in family.options:
            if option.kind == "matrices":  # read with the values (`_given_matrices`)
                continue
            options[option.name] = _family_option(raw, option, f"{family.name} {kind}", n, H, base)
        if d < family.least_d(n, H):
            raise InputError("d", d, f"{family.name} {kind} need {family.d_text()} (here d >= {family.least_d(n, H)})")


def _takers(name: str) -> str:
    """ "heads = scalar": the families that take option `name`."""
    return " or ".join(
        f"{kind} = {', '.join(f.name for f in users)}"
        for kind, table in (("heads", HEAD_FAMILIES), ("tokens", TOKEN_FAMILIES))
        if (users := [f for f in table.values() if any(o.name == name for o in f.options)])
    )


def _list(raw: dict[str, Any], key: str) -> list[Any]:
    value = raw[key]
    if not isinstance(value, list) or not value or len(value) > MAX_HEADS:
        raise InputError(key, value, f"a list of 1 to {MAX_HEADS} numbers")
    return value


def _family_option(raw: dict[str, Any], option: Option, family: str, n: int, H: int, base: Path | None) -> Any:
    """The value of a family's option: its default or the file's number(s), each exactly in the option's domain; a
    count an integer in its domain up to n; the user's tokens read and checked (`given_tokens`), of the claim's n
    and d."""
    if option.name in raw and option.kind == "tokens":
        tokens = given_tokens(option.name, raw[option.name], base)
        if (tokens.n, tokens.d) != (n, raw["d"]):
            raise InputError(option.name, f"{tokens.n} x {tokens.d}", f"the claim states n = {n}, d = {raw['d']}")
        return tokens
    if option.name in raw and option.kind == "angles":
        if raw["d"] > 2:  # below 2 the family's bound d >= 2 says so
            raise InputError("d", raw["d"], "angles are tokens on the circle: d = 2")
        return given_angles(option.name, raw[option.name], n)
    if option.name in raw and option.kind == "count":
        low = int(option.domain.low.value) if option.domain.low is not None else 1
        return _integer(raw, option.name, low, n)
    if option.name not in raw:
        if option.default is None:
            raise InputError(option.name, None, f"missing: {family} need `{option.name}` ({option.meaning})")
        return [option.default] * H if option.per_head else option.default
    if option.per_head and len(_list(raw, option.name)) != H:
        raise InputError(option.name, raw[option.name], f"expected H = {H} numbers, one per head")
    values = [float_parameter(option.name, v) for v in (raw[option.name] if option.per_head else [raw[option.name]])]
    for value in values:
        if not option.domain.contains(stated(value), n):
            raise InputError(option.name, raw[option.name], f"{family} need {option.name} in {option.domain.text()}")
    return values if option.per_head else values[0]


def _domains(
    raw: dict[str, Any], key: str
) -> tuple[dict[sp.Symbol, Domain], list[sp.Symbol], dict[str, sp.Symbol], str]:
    """The parsed domains in dependency order, their symbols, and why the domain could not be shown non-empty
    ("" when a verified point shows it is); InputError naming the conflicting bounds when it is proved empty."""
    table = raw.get(key, {})
    if not isinstance(table, dict):
        raise InputError(key, table, 'a table of symbol = domain, e.g. { x = "positive", n = "integer>=2" }')
    names = set(table)
    parsed = {}
    for name, spec in table.items():
        try:
            parsed[name] = parse_domain(name, spec, names)
        except InputError as exc:
            exc.field = f"{key}.{exc.field}"
            raise
    order = dependency_order(parsed)
    symbols = {name: sp.Symbol(name, **parsed[name].assumptions()) for name in order}
    domains = {symbols[name]: parsed[name].with_symbols(symbols) for name in order}
    ordered = [symbols[name] for name in order]
    return domains, ordered, symbols, _unsettled(domains, ordered, key, table)


def _unsettled(domains: dict[sp.Symbol, Domain], order: list[sp.Symbol], key: str, table: dict[str, Any]) -> str:
    """The one check every claim with a domain passes (`headflow.certificates.nonempty`): "" when a verified exact point
    shows the domain non-empty, else why it could not be shown; a proof that it is empty is an InputError
    naming the conflicting bounds."""
    try:
        settled = nonempty.settle(domain_region(domains, order))
    except TreeError as exc:
        return f"the domain could not be shown non-empty: a bound has no expression tree ({exc})"
    if settled.empty:
        name = settled.sides[0]
        raise InputError(f"{key}.{name}", table[name], settled.reason)
    return "" if settled.point is not None else settled.reason


def _expression(raw: dict[str, Any], key: str, symbols: dict[str, sp.Expr], heads: HeadScope | None = None) -> sp.Expr:
    return _defined(raw, key, symbols, heads)[0]


def _defined(
    raw: dict[str, Any], key: str, symbols: dict[str, sp.Expr], heads: HeadScope | None = None
) -> tuple[sp.Expr, tuple[Condition, ...]]:
    """The expression of field `key` and the conditions under which it is defined as written (`heads`: the claim's
    per-head symbols, for sum_h and mean_h)."""
    try:
        return parse_defined(raw[key], symbols, heads)
    except ExpressionError as exc:
        exc.field = key
        raise


def rounding_interval(value: sp.Rational, digits: int) -> tuple[sp.Rational, sp.Rational]:
    """The closed interval of the numbers that round to `value` at `digits` significant digits.

    Half a unit of the last digit either side (half of 10^-digits when value is 0), except below
    a power of ten in magnitude, where numbers have one more digit after the point: 0.9996 rounds
    to 1.00 at 3 digits, 0.996 to 0.996, so the side towards zero is a tenth as wide.
    """
    if value == 0:
        half = sp.Rational(1, 2 * 10**digits)
        return -half, half
    magnitude = abs(value)
    exponent = len(str(magnitude.p)) - len(str(magnitude.q))
    while sp.Integer(10) ** exponent > magnitude:
        exponent -= 1
    while sp.Integer(10) ** (exponent + 1) <= magnitude:
        exponent += 1
    half = sp.Integer(10) ** (exponent - digits + 1) / 2
    inner = half / 10 if magnitude == sp.Integer(10) ** exponent else half
    return (value - half, value + inner) if value < 0 else (value - inner, value + half)


def decimal_text(value: sp.Rational) -> str:
    """The exact decimal expansion of a rational whose denominator divides a power of ten."""
    places = 0
    while (value * 10**places).q != 1:
        places += 1
    scaled = abs(int(value * 10**places))
    digits = str(scaled).rjust(places + 1, "0")
    body = digits if places == 0 else f"{digits[:-places]}.{digits[-places:]}"
    return ("-" if value < 0 else "") + body


def _for_all(domains: dict[sp.Symbol, Domain], order: list[sp.Symbol]) -> str:
    if not order:
        return ""
    return "For all " + ", ".join(f"{symbol} {domains[symbol].text}" for symbol in order) + ": "


def _string(raw: dict[str, Any], key: str) -> str:
    if key not in raw:
        raise InputError(key, None, "missing")
    value = raw[key]
    if not isinstance(value, str) or not value.strip():
        raise InputError(key, value, "must be a non-empty string")
    return value.strip()


def _optional_string(raw: dict[str, Any], key: str) -> str | None:
    return _string(raw, key) if key in raw else None


def _choice(raw: dict[str, Any], key: str, choices: tuple[str, ...], default: str | None = None) -> str:
    if key not in raw and default is not None:
        return default
    value = _string(raw, key)
    if value not in choices:
        raise InputError(key, value, f"expected one of {', '.join(choices)}")
    return value


def _integer(raw: dict[str, Any], key: str, low: int, high: int, default: int | None = None) -> int:
    if key not in raw and default is not None:
        return default
    value = raw.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(key, value, f"an integer from {low} to {high}")
    return value


def _number(raw: dict[str, Any], key: str, positive: bool, default: float | None = None) -> float:
    """A float model parameter, faithful to its text (`numbers.float_parameter`)."""
    if key not in raw:
        if default is not None:
            return default
        raise InputError(key, None, "missing")
    value = float_parameter(key, raw[key])
    if positive and value <= 0:
        raise InputError(key, raw[key], "must be positive")
    return value


def _exact(value: float | int) -> sp.Rational:
    exact = stated(value)
    return sp.Rational(exact.numerator, exact.denominator)


def _model(raw: dict[str, Any], header: dict[str, Any], stated: str | None) -> ModelClaim:
    fields = model_fields(raw)
    return ModelClaim(**header, statement=stated or model_statement(fields), **fields)


_BUILDERS = {
    "identity": _identity,
    "constant": _constant,
    "inequality": _inequality,
    "dynamics": _dynamics,
    "asymptotic": _asymptotic,
    "model": _model,
}
