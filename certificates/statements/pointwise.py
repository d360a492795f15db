"""The pointwise statement behind a dynamics claim: the `model` claim whose truth at every configuration implies it.

`Q non-decreasing along every trajectory` follows from `dQ/dt >= 0 at every configuration` of the model the
trajectories move in, and `Q non-negative at every time` from `Q >= 0 at every configuration`: a trajectory of the
model never leaves its configurations (the tokens stay unit on the sphere, the heads, values, mask, attention kind,
interaction and beta are constants of the motion), so the start family does not matter once the pointwise statement
is proved. The statement is built here as a `ModelClaim` through the model kind's own pieces (terms by
`model_terms.make`, hypotheses by `model_claim.model_hypotheses`, the sentence by `model_claim.model_statement`),
never as text parsed back; its `raw` fields are rendered from the same pieces (`term_text`) so that a certificate of
it embeds a model claim that `check-cert` re-reads to exactly this claim (a test round-trips them).

The model claim is about the dynamics claim's n, d, H and (beta > 0) its exact beta, so that a witness of its
negation has the family's sizes; its hypotheses are those every member of the family has: unit tokens on the sphere,
the head family's (`family_names.HEAD_FAMILIES`), the values' (`dynamics.VALUE_HYPOTHESES`), and for heads or values
given as exact data (scalar strengths, the user's matrices) the hypotheses their exact data satisfy
(`ball_model.hypothesis_failures`). `general_pointwise_claim` is the same statement for every n, d and beta of the
claim's sign, at its own H: what a claim quantified over n, d, beta (and the family's rho) needs.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from headflow.certificates.claims.model_claim import model_hypotheses, model_statement
from headflow.certificates.claims.model_sizes import LEAST, Sizes
from headflow.certificates.claims.numbers import stated
from headflow.certificates.claims.schema import DynamicsClaim, ModelClaim
from headflow.certificates.family_names import HEAD_FAMILIES
from headflow.certificates.kernel.ball_model import ExactConfiguration, hypothesis_failures
from headflow.certificates.kernel.exprtree import rational_text
from headflow.certificates.kernel.model_terms import Relation, Term, make, scalar_term, term_text
from headflow.certificates.masks import mask_of
from headflow.certificates.model_quantities import MODEL_QUANTITIES
from headflow.certificates.statements.dynamics import VALUE_HYPOTHESES, searched_quantity
from headflow.certificates.statements.model import statement_data

#: The geometries a model claim is about (the normalization schemes have no model claims), and the schemes, whose
#: pointwise statement a certificate may state (`proof`: their directions' energy, `checks.claimsfile.scheme_energy`).
GEOMETRIES = ("sphere", "flat")
SCHEMES = ("pre-ln", "peri-ln", "mix-ln", "ngpt")
#: The properties a pointwise statement implies (the invariant regions `stays-non-negative`, `stays-at-least`: from the
#: statements of `region_claims`).
PROPERTIES = ("non-decreasing", "non-negative")
#: Head hypotheses read off exact head data (orthogonality only where the family states it: a scalar or one given
#: head is trivially "orthogonal", which would send the model search to other heads than the family's).
EXACT_HEAD_HYPOTHESES = ("symmetric-scores", "scalar-heads", "identical-heads")
EXACT_VALUE_HYPOTHESES = ("aligned-values", "symmetric-values", "identity-values", "spd-values")
#: Parameters of a quantified claim that leave the pointwise statement for all n, d, beta > 0 the same.
SIZE_PARAMETERS = frozenset({"n", "d", "beta", "rho"})
#: The rate terms whose model claims the model kind decides end to end (the Gram reduction and its float search):
#: `R`, `dR_dt` and `norm_rate_i` are model terms of the schemes' and the circle's statements, which the model kind's
#: float search does not evaluate (a model claim about them stops on a KeyError in `float_terms` today).
MODEL_CLAIM_TERMS = ("dE_dt", "dE_h_dt", "entropy_rate_h_i")
SUFFIX = ".pointwise"
#: The invariant-region properties and the bound c each states (None: the claim's `bound`).
REGION_PROPERTIES: dict[str, int | None] = {"stays-non-negative": 0, "stays-at-least": None}
#: The value term and rate term of each quantity an invariant region `stays-at-least c` is decided for through model
#: claims (`region_claims`): the energies and the attention entropy.
REGION_TERMS = {
    "energy": ("E", "dE_dt"),
    "head_energies": ("E_h", "dE_h_dt"),
    "attention_entropy": ("entropy_h_i", "entropy_rate_h_i"),
}


def pointwise_term(claim: DynamicsClaim) -> Term | None:
    """The model term whose sign at every configuration the claim's property reads (dE_dt, dE_h_dt,
    entropy_rate_h_i, ...): its rate for `non-decreasing`, the quantity itself for `non-negative`; None when it has no
    model term a model claim may state."""
    if claim.property not in PROPERTIES or claim.exists:
        return None
    searched = searched_quantity(claim)
    name = None if searched is None else MODEL_QUANTITIES[searched].term
    if name not in MODEL_CLAIM_TERMS:
        return None
    return scalar_term(make("name", (name,)))


def pointwise_claim(
    claim: DynamicsClaim,
    relation: Relation | None = None,
    given: tuple[Relation, ...] = (),
    suffix: str = SUFFIX,
    schemes: bool = False,
) -> ModelClaim | None:
    """The model claim `term >= 0` at every configuration of the claim's model with its n, d, H and exact beta
    (beta < 0: every beta < 0), or None when the claim is not a closed claim of a property a pointwise statement
    implies in a model the model kind states."""
    if claim.parameters:
        return None
    options = claim.options
    beta = stated(options["beta"])
    if beta == 0:
        return None
    sizes = Sizes({k: options[k] for k in ("n", "d", "H")}, {k: options[k] for k in ("n", "d", "H")})
    if beta > 0:
        sizes = Sizes(sizes.low, sizes.high, (beta, beta, False, False))
    return _built(claim, sizes, "negative" if beta < 0 else "positive", relation, given, suffix, schemes)


def general_pointwise_claim(
    claim: DynamicsClaim, relation: Relation | None = None, given: tuple[Relation, ...] = (), suffix: str = SUFFIX
) -> ModelClaim | None:
    """The same statement for every n >= 2, d >= 1, beta of the claim's sign and the claim's own number of heads H:
    what implies a claim quantified over n, d, beta (beta's domain is positive) and the family's rho; None for other
    parameters. (H stays the claim's: softmax's energy is monotone for one head only.)"""
    if not claim.parameters or set(claim.parameters) - SIZE_PARAMETERS:
        return None
    beta = claim.options["beta"]
    sign = "positive" if "beta" in claim.parameters or stated(beta) > 0 else "negative"
    if "beta" not in claim.parameters and stated(beta) == 0:
        return None
    heads = claim.options["H"]
    if not isinstance(heads, int):
        return None
    sizes = Sizes({**LEAST, "H": heads}, {**dict.fromkeys(LEAST), "H": heads})
    return _built(claim, sizes, sign, relation, given, suffix)


def region_claims(claim: DynamicsClaim, bound: Fraction | None) -> list[tuple[str, ModelClaim]]:
    """The model claims each of which implies `stays-at-least c` (`stays-non-negative`: c = 0) of a quantity q with a
    value term and a rate term (`REGION_TERMS`), with the route each proves it by (`checks.claimsfile.region_route`):

    - `monotone`: dq/dt >= 0 at every configuration (every entry is then non-decreasing, hence stays >= its start);
    - `bound`: q >= c at every configuration (c exact; the region is then every configuration);
    - `boundary`: dq/dt > 0 wherever q = c (given `q >= c` and `q <= c`), for a q of no token axis (a given holds at
      every token, which states the boundary of a per-token region wrongly). Strict: the first-exit argument needs no
      constraint qualification. c exact.

    The claim's n, d, H and exact beta, or for a quantified claim (`bound` None unless it is a number) every n, d and
    beta of its sign at its H; the monotone statement only when c depends on the parameters."""
    terms = region_terms(claim)
    if terms is None:
        return []
    value, rate = (scalar_term(make("name", (name,))) for name in terms)
    zero = make("num", (Fraction(0),))
    build = general_pointwise_claim if claim.parameters else pointwise_claim
    rows: list[tuple[str, Relation, tuple[Relation, ...]]] = [
        ("monotone", Relation(rate, ">=", zero, f"{term_text(rate)} >= 0"), ())
    ]
    if bound is not None:
        c = make("num", (bound,))
        rows.append(("bound", Relation(value, ">=", c, f"{term_text(value)} >= {term_text(c)}"), ()))
        if "i" not in value.free:
            at = tuple(Relation(value, op, c, f"{term_text(value)} {op} {term_text(c)}") for op in (">=", "<="))
            rows.append(("boundary", Relation(rate, ">", zero, f"{term_text(rate)} > 0"), at))
    built = [(route, build(claim, relation, given, f".{route}")) for route, relation, given in rows]
    return [(route, model) for route, model in built if model is not None]


def region_terms(claim: DynamicsClaim) -> tuple[str, str] | None:
    """The value term and rate term of the claim's quantity (one head's with `head`), None when it has no pair the
    model kind decides."""
    name = claim.quantity
    if claim.options.get("head") is not None and MODEL_QUANTITIES[name].per_head is not None:
        name = MODEL_QUANTITIES[name].per_head
    return REGION_TERMS.get(name)


def _built(
    claim: DynamicsClaim,
    sizes: Sizes,
    beta_sign: str,
    relation: Relation | None = None,
    given: tuple[Relation, ...] = (),
    suffix: str = SUFFIX,
    schemes: bool = False,
) -> ModelClaim | None:
    options = claim.options
    term = pointwise_term(claim) if relation is None else relation.lhs
    hypotheses = _hypotheses(options)
    if term is None or hypotheses is None or options["geometry"] not in GEOMETRIES + SCHEMES * schemes:
        return None
    interaction = options.get("interaction")
    if interaction is not None and any(name.startswith("entropy") for name in term.names):
        return None  # attention entropies are defined for exp(beta s) weights only
    word, rows = _mask(options, sizes)
    if word is None:
        return None
    if relation is None:
        relation = Relation(term, ">=", make("num", (Fraction(0),)), f"{term_text(term)} >= 0")
    fields: dict[str, Any] = {
        "beta_sign": beta_sign,
        "mask": word,
        "token": "every",
        "attention": options["attention"],
        "geometry": options["geometry"],
        "hypotheses": hypotheses,
        "relation": relation,
        "given": given,
        "exists": False,
        "sizes": sizes,
        "interaction": interaction,
        "mask_rows": rows,
    }
    model_id = claim.id[: 100 - len(suffix)] + suffix
    raw = _raw(model_id, fields)
    header = {"id": model_id, "kind": "model", "title": model_id, "line": claim.line, "raw": raw}
    return ModelClaim(**header, statement=model_statement(fields), **fields)


def _mask(options: dict[str, Any], sizes: Sizes) -> tuple[str | None, Any]:
    """The model claim's mask word and rows (None: a mask the claim cannot state for these sizes)."""
    written = options.get("mask")
    if written is None:
        return "none", None
    if isinstance(written, str):
        return written, None
    n = sizes.low["n"]
    if sizes.high["n"] != n:
        return None, None  # given rows are for one n
    return "given", mask_of(written, n)


def _hypotheses(options: dict[str, Any]) -> tuple[str, ...] | None:
    """What every member of the family satisfies, as model hypotheses (None: values the model kind cannot state)."""
    heads, values = options["heads"], options.get("values", "aligned")
    exact_heads = _exact_heads(options)
    assumed: set[str] = set()
    if exact_heads is None:
        assumed |= set(HEAD_FAMILIES[heads].hypotheses)
    else:
        assumed |= _holding(exact_heads, exact_heads, EXACT_HEAD_HYPOTHESES)
    if values == "given":
        given = options["value_matrices"].exact()
        names = EXACT_VALUE_HYPOTHESES if exact_heads is not None else EXACT_VALUE_HYPOTHESES[1:]
        assumed |= _holding(exact_heads or given, given, names)
    elif values in VALUE_HYPOTHESES:
        assumed |= set(VALUE_HYPOTHESES[values])
    else:
        return None
    return model_hypotheses(sorted(assumed), options["geometry"])


def _exact_heads(options: dict[str, Any]) -> list[list[list[Fraction]]] | None:
    """The score matrices as exact data when the family fixes them (scalar strengths, the user's matrices)."""
    if options["heads"] == "scalar":  # d quantified: the hypotheses of lambda I do not depend on d
        d = options["d"] if isinstance(options["d"], int) else 1
        return [[[stated(lam) * (i == j) for j in range(d)] for i in range(d)] for lam in options["lambdas"]]
    if options["heads"] == "given":
        return options["scores"].exact()
    return None


def _holding(scores: list[Any], values: list[Any], names: tuple[str, ...]) -> set[str]:
    """The hypotheses among `names` that these exact heads and values satisfy (the kernel's exact checks; the tokens
    are no part of them)."""
    d = len(scores[0])
    cfg = ExactConfiguration([[Fraction(int(k == 0)) for k in range(d)]], scores, values, Fraction(1))
    return {name for name in names if not hypothesis_failures(cfg, [name])}


def _raw(model_id: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The claim's TOML fields, rendered from the built fields (what a certificate of it embeds)."""
    relation, sizes = fields["relation"], fields["sizes"]
    raw: dict[str, Any] = {
        "id": model_id,
        "kind": "model",
        "lhs": term_text(relation.lhs),
        "op": relation.op,
        "rhs": term_text(relation.rhs),
        "attention": fields["attention"],
        "geometry": fields["geometry"],
        "assume": [name for name in fields["hypotheses"] if name != "unit-tokens"],
    }
    if fields["given"]:
        raw["given"] = [condition.text for condition in fields["given"]]
    domain = {k: sizes.low[k] for k in ("n", "d", "H") if sizes.high[k] == sizes.low[k]}
    low, high, _, _ = sizes.beta
    if low is not None and low == high:
        domain["beta"] = f"[{rational_text(low)}, {rational_text(high)}]"
    if domain:
        raw["domain"] = domain
    if fields["beta_sign"] == "negative":
        raw["beta"] = "negative"
    if fields["mask"] == "causal":
        raw["mask"] = "causal"
    elif fields["mask"] == "given":
        raw["mask"] = [[int(m) for m in row] for row in fields["mask_rows"]]
    if fields["interaction"] is not None:
        raw["interaction"] = fields["interaction"].text
    return raw


def proof(claim: DynamicsClaim) -> dict[str, Any] | None:
    """The statement of a dynamics claim's `gram` certificate: the universal model statement, under the claim's id,
    that implies the claim at every state (its pointwise claim at its sizes, else for every n, d and beta; for an
    invariant region, its `monotone` statement dq/dt >= 0: `region_claims`; None: none)."""
    regions = region_claims(claim, None) if claim.property in REGION_PROPERTIES and not claim.exists else []
    monotone = [model for route, model in regions if route == "monotone"]
    model = pointwise_claim(claim) or general_pointwise_claim(claim) or next(iter(monotone), None)
    model = model or pointwise_claim(claim, schemes=True)  # a scheme's: a statement only (no model claim decides it)
    return None if model is None else statement_data(model) | {"claim": claim.id}


def bound_proof(claim: DynamicsClaim) -> dict[str, Any] | None:
    """The statement of a dynamics claim's `sums` certificate: the `bound` model statement of its invariant region
    (q >= c at every configuration, c a number: `stays-non-negative`), under the claim's id; None: none."""
    c = None if claim.exists else REGION_PROPERTIES.get(claim.property)
    bound = [model for route, model in region_claims(claim, Fraction(c)) if route == "bound"] if c is not None else []
    return statement_data(bound[0]) | {"claim": claim.id} if bound else None
