"""Core statements of form `dynamics`: a property of a model quantity along the trajectories of a family.

The statement (elaborated outside the kernel, `certificates.statements.dynamics`) holds, as data:
- `claim`: the claims-file claim's id; `quantity` (a name of `certificates.kernel.model_quantities`), `property`
  (non-negative, non-decreasing, tends-to, does-not-tend-to, decays-at-rate, decays-exponentially), `exists` (some
  start of the family has the property, rather than every start), `limit` (the tree of the claimed limit, or None);
- `family`: attention kind, geometry (the normalization scheme), n, d, H, beta (a rational), the token family (and
  the given tokens), the head family (and the given score matrices or the scalar strengths), the values (aligned
  W_h = M_h, identity, spd, or the given value matrices), the mask (rows of 0/1, or None), the interaction phi as a
  tree (or None: the kind's own weights; no antiderivative: the energy itself has no certified value at a state, only
  its rate, which needs phi alone), and the head a per-head claim is about (or None);
- `witness`: `configuration` (with `refuting`: the quantity and the relation whose truth at an exact member of the
  family refutes the claim) or `stationary-start`.

What the kernel derives itself from that data, never from a free field: the exact hypotheses of the family
(`hypotheses`), the refuting quantity (the quantity itself for non-negative; its rate, per head when the claim names a
head, for non-decreasing: Q is non-decreasing along every trajectory iff dQ/dt >= 0 at every state of the family),
and the limit a stationary start must avoid (`avoided_limit`). The checks:
- configuration: the payload is an exact configuration (`recheck.configuration`: the family's kind, geometry,
  hypotheses, mask and phi; beta of the family's sign) that belongs to the family exactly (`family_failures`), with
  the refuting quantity < 0 settled by balls (`ball_model`), so the claim, about every start, is false;
- stationary start: exact data of the family whose velocity is exactly 0 at every token
  (`ball_model.stationary`: exponential polynomials, a velocity of 1e-30 is not 0), so the trajectory from
  it is constant (an autonomous ODE with a locally Lipschitz field), and whose quantity, exact, is separated from the
  limit by a ball: some start does not tend to the limit (proving `exists` does-not-tend-to, refuting a universal
  tends-to or decay to 0 for a family whose every member the claim is about: given tokens, an open hemisphere).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from certificates.kernel import ball_model, exprtree, recheck
from certificates.kernel.exact import ball_of, precision
from certificates.kernel.exact_data import dot
from certificates.kernel.exp_field import ExpFieldError
from certificates.kernel.family_names import HEAD_FAMILIES, TOKEN_FAMILIES
from certificates.kernel.interaction import Interaction, check_tree
from certificates.kernel.masks import mask_of
from certificates.kernel.model_quantities import CERTIFIED, MODEL_QUANTITIES
from certificates.kernel.model_values import token_products
from certificates.kernel.recheck import Rejected
from certificates.kernel.tree_text import term_text

FORM = "dynamics"
STATEMENT_KEYS = {"form", "claim", "quantity", "property", "exists", "limit", "family", "witness", "refuting"}
FAMILY_KEYS = {
    "attention", "geometry", "n", "d", "H", "beta", "tokens", "given_tokens", "heads", "scores", "strengths",
    "values", "value_matrices", "mask", "interaction", "head",
}  # fmt: skip
#: The properties: of every state, then of the limit.
PROPERTIES = ("non-negative", "non-decreasing")
PROPERTIES += ("tends-to", "does-not-tend-to", "decays-at-rate", "decays-exponentially")
STATIONARY = "stationary-start"
#: The exact hypotheses of a family's geometry, attention kind and values (given matrices: none beyond their entries,
#: which `family_failures` compares one by one).
GEOMETRY_HYPOTHESES = dict.fromkeys(("flat", "pre-ln", "peri-ln", "mix-ln"), ())
GEOMETRY_HYPOTHESES |= {"sphere": ("unit-tokens", "spherical-geometry"), "ngpt": ("unit-tokens",)}
ATTENTION_HYPOTHESES = {"usa": (), "softmax": ("softmax-attention",), "relu": ()}
VALUE_HYPOTHESES = {kind: (f"{kind}-values",) for kind in ("aligned", "identity", "spd")} | {"given": ()}
#: Ball precision of a stationary start's separation from the limit.
PRECISION = 128


def refuting_quantity(quantity: str, prop: str, head: int | None) -> str | None:
    """The quantity whose negative value at a state of the family refutes `quantity prop` (None: none does)."""
    if prop == "non-negative":
        return quantity
    model = MODEL_QUANTITIES[quantity]
    if prop == "non-decreasing" and model.rate is not None:
        if head is not None and model.per_head is not None:
            model = MODEL_QUANTITIES[model.per_head]
        return model.rate
    return None


def hypotheses(family: dict[str, Any]) -> list[str] | None:
    """The exact hypotheses the family implies, or None when it has no exact members a witness can name."""
    tokens, heads = TOKEN_FAMILIES.get(family["tokens"]), HEAD_FAMILIES.get(family["heads"])
    kinds = family["attention"] in ATTENTION_HYPOTHESES and family["geometry"] in GEOMETRY_HYPOTHESES
    if not (kinds and tokens and heads and (tokens.free or tokens.exact_members) and heads.rounds):
        return None
    stated = {"given_tokens": family["tokens"] == "given", "scores": family["heads"] == "given"}
    stated |= {"value_matrices": family["values"] == "given", "strengths": family["heads"] == "scalar"}
    if any(needed and family[key] is None for key, needed in stated.items()):
        return None  # given data the statement does not hold (floats, a file): no exact member can be compared
    if family["values"] not in VALUE_HYPOTHESES or exprtree.parse_rational(family["beta"]) == 0:
        return None
    return [
        *VALUE_HYPOTHESES[family["values"]],
        *GEOMETRY_HYPOTHESES[family["geometry"]],
        *ATTENTION_HYPOTHESES[family["attention"]],
        *heads.hypotheses,
    ]


def family_failures(family: dict[str, Any], exact: ball_model.ExactConfiguration) -> list[str]:
    """What keeps exact data out of the family (checked exactly; empty when they belong)."""
    d, values, heads, rows = len(exact.tokens[0]), family["values"], family["heads"], recheck.rational_rows
    strengths, named = rows(family["strengths"]) if heads == "scalar" else [], f"{values}-values"
    diagonal = [[[lam * (i == j) for j in range(d)] for i in range(d)] for lam in strengths]
    symmetric = heads != "scalar" and "symmetric-scores" in HEAD_FAMILIES[heads].hypotheses
    phi = exact.interaction.tree if exact.interaction is not None else None
    failed = {
        "sizes": (exact.n, d, len(exact.score_matrices)) != (family["n"], family["d"], family["H"]),
        "beta": exact.beta != exprtree.parse_rational(family["beta"]),
        "attention or geometry": (exact.attention, exact.geometry) != (family["attention"], family["geometry"]),
        "the mask": exact.n == family["n"] and exact.mask != mask_of(family["mask"], exact.n),
        named: values in ("identity", "spd") and bool(ball_model.hypothesis_failures(exact, [named])),
        "the given value matrices": values == "given" and exact.values != rows(family["value_matrices"]),
        "W_h = M_h": values not in ("identity", "spd", "given") and exact.values != exact.score_matrices,
        "the stated interaction function": phi != family["interaction"],
        "unit tokens": any(sum(v * v for v in x) != 1 for x in exact.tokens),
        "the given tokens": family["tokens"] == "given" and exact.tokens != rows(family["given_tokens"]),
        "tokens in an open hemisphere": family["tokens"] == "hemisphere" and not in_open_hemisphere(exact.tokens),
        "the given score matrices": heads == "given" and exact.score_matrices != rows(family["scores"]),
        # the stated strengths: every hypothesis of the family follows
        "the stated scalar strengths": heads == "scalar" and exact.score_matrices != diagonal,
        "symmetric heads": symmetric and bool(ball_model.hypothesis_failures(exact, ["symmetric-scores"])),
    }
    return [name for name, fails in failed.items() if fails]


def in_open_hemisphere(tokens: list[list[Fraction]]) -> bool:
    """A sufficient exact test that the tokens lie in one open hemisphere: <x_i, c> > 0 for every i, with c the sum
    of the tokens (then they lie in {y : <y, c> > 0}); False does not show that no hemisphere holds them."""
    centre = [sum(column, Fraction(0)) for column in zip(*tokens, strict=True)]
    return all(dot(x, centre) > 0 for x in tokens)


#: The state quantities with an exact rational value at exact tokens (`checks.model.field`'s definitions).
EXACT_QUANTITIES: dict[str, Callable[[list[list[Fraction]]], Fraction]] = {
    "cluster_gap": lambda tokens: 1 - min(token_products(tokens)),
    "least_inner_product": lambda tokens: min(token_products(tokens)),
    "largest_inner_product": lambda tokens: max(token_products(tokens)),
}


def avoided_limit(statement: dict[str, Any]) -> exprtree.Tree | None:
    """The limit a stationary start must avoid to settle the statement (None: no stationary start settles it)."""
    family, prop, exists = statement["family"], statement["property"], statement["exists"]
    if statement["quantity"] not in EXACT_QUANTITIES or family["head"] is not None:
        return None
    if exists and prop == "does-not-tend-to":
        return statement["limit"]
    if not TOKEN_FAMILIES[family["tokens"]].exact_members:
        return None  # a random family's universal claim is about almost every start (an equilibrium is one point)
    if not exists and prop == "tends-to":
        return statement["limit"]
    if not exists and prop in ("decays-at-rate", "decays-exponentially"):
        return ["rat", "0"]
    return None


def stationary_failures(
    statement: dict[str, Any], cfg: ball_model.ExactConfiguration
) -> tuple[list[str], Fraction | None]:
    """Why `cfg` is not a stationary start of the statement's family whose quantity avoids the limit (empty: it is
    one), and the quantity's exact value there."""
    family, limit = statement["family"], avoided_limit(statement)
    if limit is None:
        return [f"no stationary start settles it ({statement['property']}, exists = {statement['exists']})"], None
    if family["geometry"] not in ("sphere", "flat"):
        return [f"exact stationary starts are for sphere and flat dynamics, not {family['geometry']}"], None
    if family["interaction"] is not None:
        return ["the exact model has exp(beta s) weights: a stated interaction phi has no exact stationary start"], None
    if family["values"] not in ("aligned", "given") or hypotheses(family) is None:
        return ["the exact stationary starts have W_h = M_h or the given values, and exact members"], None
    if outside := family_failures(family, cfg):
        return [f"not in the family: {', '.join(outside)}"], None
    try:
        if not ball_model.stationary(cfg):
            return ["some velocity component is not exactly 0"], None
    except ExpFieldError as exc:
        return [f"the velocity has no exact value: {exc}"], None
    value = EXACT_QUANTITIES[statement["quantity"]](cfg.tokens)
    with precision(PRECISION):
        gap = exprtree.evaluate(limit, {}) - ball_of(value)
    if not (gap > 0 or gap < 0):
        return [f"{statement['quantity']} = {value} is not separated from the limit {term_text(limit)} by balls"], value
    return [], value


def _well_formed(statement: dict[str, Any], kind: str) -> dict[str, Any]:
    """The statement's family, once every field of the statement has its shape; Rejected otherwise."""
    recheck.require_keys(statement, STATEMENT_KEYS, "dynamics statement")
    family = statement["family"]
    recheck.require_keys(family, FAMILY_KEYS, "dynamics family")
    if kind != "witness" or statement["witness"] not in ("configuration", STATIONARY):
        raise Rejected(f"a dynamics statement is proved by a configuration or stationary-start witness, not {kind}")
    if statement["quantity"] not in MODEL_QUANTITIES or statement["property"] not in PROPERTIES:
        raise Rejected(f"unknown quantity or property {statement['quantity']!s:.40} {statement['property']!s:.40}")
    if not isinstance(statement["exists"], bool):
        raise Rejected("exists must be true or false")
    if not all(recheck.natural(family[key], 1) for key in ("n", "d", "H")):
        raise Rejected("family.n, d and H must be positive integers")
    if family["head"] is not None and not recheck.natural(family["head"], 0, family["H"] - 1):
        raise Rejected("family.head must be null or one of the H heads")
    if family["interaction"] is not None:
        check_tree(family["interaction"], "phi")
    if statement["limit"] is not None:
        exprtree.count_nodes(statement["limit"], 400)
        if exprtree.symbols(statement["limit"]):
            raise Rejected("the limit is a number: it names no symbol")
    recheck.mask_rows(family["mask"], family["n"], "family.mask")
    return family


def family_text(family: dict[str, Any]) -> str:
    """The family, rendered from the statement's own data."""
    phi = family["interaction"] and term_text(family["interaction"])
    given = {"tokens": family["given_tokens"], "heads": family["scores"] or family["strengths"]}
    given |= {"values": family["value_matrices"]}
    parts = [f"{family['attention']} attention", f"{family['geometry']} geometry"]
    parts += [f"n = {family['n']}, d = {family['d']}, H = {family['H']}, beta = {family['beta']}"]
    parts += [f"{key} {family[key]}" + (f" {data}" if data else "") for key, data in given.items()]
    optional = {"mask": family["mask"], "phi(s) =": phi, "head": family["head"]}
    return ", ".join(parts + [f"{key} {value}" for key, value in optional.items() if value is not None])


def _claim_text(statement: dict[str, Any]) -> str:
    limit = "" if statement["limit"] is None else f" {term_text(statement['limit'])}"
    starts = "some start" if statement["exists"] else "every start"
    return f"{statement['quantity']} {statement['property']}{limit} for {starts}"


def _phi(family: dict[str, Any]) -> Interaction | None:
    """The family's stated interaction phi (None: the kind's own weights)."""
    tree = family["interaction"]
    return None if tree is None else Interaction(term_text(tree), tree)


def witness_configuration(statement: dict[str, Any], payload: dict[str, Any]) -> ball_model.ExactConfiguration:
    """The exact configuration of a configuration witness, with the family's interaction, mask and sign of beta:
    what the kernel re-checks and what the Coq statement is written at."""
    family = statement["family"]
    negative = exprtree.parse_rational(family["beta"]) < 0
    return recheck.exact_configuration(
        payload["configuration"], _phi(family), negative_beta=negative, masked=family["mask"] is not None
    )


def check(
    statement: dict[str, Any], claim_id: str, kind: str, payload: dict[str, Any], seconds: float
) -> tuple[str, str]:
    """(what the witness proves or refutes, how it was re-checked); Rejected when it does not."""
    family = _well_formed(statement, kind)
    found = hypotheses(family)
    if found is None:
        raise Rejected(f"claim {claim_id!r}: its family has no exact members (no witness settles it)")
    negative, masked = exprtree.parse_rational(family["beta"]) < 0, family["mask"] is not None
    quantity = statement["quantity"]
    about = f"claims-file claim {claim_id!r} ({_claim_text(statement)} of the family: {family_text(family)})"
    if statement["witness"] == STATIONARY:
        if statement["refuting"] is not None:
            raise Rejected("a stationary start refutes no rate: refuting must be null")
        recheck.require_witness(payload, STATIONARY, {"witness", "configuration"}, "the stationary start")
        cfg = recheck.exact_configuration(payload["configuration"], negative_beta=negative, masked=masked)
        failures, value = stationary_failures(statement, cfg)
        if failures:
            raise Rejected(f"not a stationary witness of {claim_id!r}: {'; '.join(failures)}")
        limit = term_text(avoided_limit(statement))  # type: ignore[arg-type]
        verb = "proves" if statement["exists"] else "refutes"
        return (
            f"{verb} {about}: an exact start of the family is stationary, so {quantity} = {value} for all t >= 0, "
            f"which is not {limit}",
            "exact data: family membership checked exactly, every velocity component exactly 0 (exponential "
            f"polynomials), {quantity} exact, separated from {limit} by a ball",
        )
    searched = refuting_quantity(quantity, statement["property"], family["head"])
    if statement["exists"] or searched is None or searched not in CERTIFIED:
        raise Rejected(f"claim {claim_id!r}: no value at one state refutes {_claim_text(statement)}")
    if statement["refuting"] != {"quantity": searched, "relation": "<"}:
        raise Rejected(f"the statement's refuting rate is not {searched} < 0, the one that refutes {claim_id!r}")
    kinds = {"attention": family["attention"], "geometry": family["geometry"], "interaction": _phi(family)}
    how = recheck.configuration(
        payload, hypotheses=frozenset(found), quantity=searched, relation="<", claim_id=claim_id, masked=masked,
        negative_beta=negative, **kinds,
    )  # fmt: skip
    if outside := family_failures(family, witness_configuration(statement, payload)):
        raise Rejected(f"the exact data are not in the family of {claim_id!r}: {', '.join(outside)}")
    if family["head"] is not None and payload.get("head") != family["head"]:
        raise Rejected(f"claim {claim_id!r} is about head {family['head']}, the witness shows another")
    consequence = "" if searched == quantity else f", so {quantity} decreases on the trajectory from it"
    return f"refutes {about}: {searched} < 0 at an exact member of the family{consequence}", how
