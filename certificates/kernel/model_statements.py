"""Model statements (form `model`): a relation between the model's quantities, as term trees, and its witnesses.

A claims-file `model` claim is elaborated outside the kernel (`headflow.certificates.statements.model`) into this data:

    {"form": "model", "claim": id, "exists": bool, "attention": kind, "geometry": "sphere" | "flat",
     "beta": "positive" | "negative", "mask": "none" | "causal" | rows of 0/1 (a given mask),
     "fixed": {} or the token i and/or head h the relation is stated at ({"i": 0}: the first token),
     "hypotheses": [names], "interaction": exprtree tree of phi(s) or null,
     "energy": exprtree tree of Phi(s) (the energy's antiderivative of phi) or null,
     "given": [{"lhs": term, "op": op, "rhs": term}, ...], "relation": {"lhs": term, "op": op, "rhs": term},
     "data": {"tokens": rows or null, "scores": matrices or null, "values": matrices or null, "beta": "p/q" or null}}

It states: for every (with `exists`: some) n >= 2, d >= 1, H >= 1, beta of the sign and every (some) configuration of
the kind with the hypotheses and the exact `data` where each `given` condition holds at every token i (for the
statement's head h), the relation holds at every (some) token i and head h (those `fixed` names only).
The geometry is any normalization scheme; `xdot_i` is its velocity (the chain's update of the token: P_i v_i on the
sphere, v_i in flat space, the scheme's otherwise), and every rate is along it (`dE_dt`, `norm_rate_i`, `dR_dt`). The
ranges of a claim's sizes are given conditions on the symbols (`n >= 3`, `beta <= 2`), decided exactly like any other at
exact data. A term is a JSON tree over the model's primitives (SPEC section 1): `["num", "p/q"]`, `["name", written]` (a
symbol n, d, H, beta or a quantity at its indices: `x_i`, `f_g_j`, `a_h_i`, `s_h_ji`, `E_g`), `["pow", term, k]`, and
`[op, term, ...]` for `+ - * / neg`, `inner norm2 norm proj M_h W_h log` and the sums `sum_i sum_j sum_h sum_g`. The
kernel types each tree itself (`certificates.kernel.model_terms.make`: vectors and numbers, free indices, what may
divide; the claims-file parser builds its terms with the same `make`) and reads it at the witness's exact data as trees
of its chain, with balls (`headflow.certificates.kernel.model_values.Trees`).

A universal statement is refuted by a `model-configuration` witness (exact data of the family, equal to the stated
`data`, where the given conditions hold at every token and `rhs - lhs` negates the relation, by balls); an existence
statement is proved by one where it states it, or, for an equality, by a `model-configuration-exact` witness (`rhs -
lhs` exactly 0 in the exponential-polynomial field), both checked by `certificates.kernel.model_values.settle`. What is
printed is rendered from the data.

With an interaction phi the energy is E_h = (1/(2 n^2)) sum_ij Phi(s^h_ij): Phi is the statement's `energy`, proposed
outside the kernel (SymPy's integrate), and the kernel evaluates the energy only when d/ds Phi = phi is shown by its own
exact algebra (`certificates.kernel.interaction.is_antiderivative`; else the energy is unavailable and no witness
naming it is accepted). Phi fixes the energy's constant of integration, so the printed statement names it.
"""

import json
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

from . import ball_model, format as fmt, recheck
from .ball_model import ExactConfiguration
from .exact import SETTLING, precision
from .exprtree import TreeError, node_parts, parse_rational
from .interaction import Interaction, check_tree
from .model_terms import FREE, NEGATED, STATED, Relation, Term, TermError, make, scalar_term, term_text
from .model_values import DATA, WITNESS, settle, witnessed
from .recheck import Rejected
from .tree_text import term_text as tree_text
from .vocabulary import ATTENTION_KINDS, GEOMETRIES, INTERACTION_KINDS

#: The fields of a model statement (the module's docstring).
STATEMENT_KEYS = {"form", "claim", "exists", "attention", "geometry", "beta", "mask", "fixed", "hypotheses"}
STATEMENT_KEYS |= {"interaction", "energy", "given", "relation", "data"}
WITNESS_KEYS = {"witness", "configuration", "hypotheses", "at", "prec", "relation", "enclosure"}
EXACT_KEYS = {"witness", "configuration", "hypotheses", "at"}

FORM = "model"


def term_of(data: object, free: frozenset[str] | None = FREE) -> Term:
    """The scalar term of a JSON tree, typed by `make`, its indices outside `free` bound (`free` None: any term, a
    vector too, its indices free); Rejected when it is not one (at most MAX_TERM_NODES nodes)."""
    budget = [fmt.MAX_TERM_NODES]

    def read(node: object, depth: int) -> Term:
        budget[0] -= 1
        if depth > 60 or budget[0] < 0:
            raise TermError("a term nested too deeply or too large")
        op, parts = node_parts(node, depth)
        args = tuple(read(a, depth + 1) if isinstance(a, list) else a for a in parts)
        return make(op, tuple(map(parse_rational, args)) if op == "num" else args)

    try:
        return read(data, 0) if free is None else scalar_term(read(data, 0), free)
    except (TermError, TreeError) as exc:
        raise Rejected(f"not a model term: {exc}") from None


@dataclass(frozen=True)
class ModelStatement:
    """A `model` statement read from its data, with the fields a witness is settled against
    (`headflow.certificates.kernel.model_values.settle`)."""

    id: str
    exists: bool
    attention: str
    geometry: str
    beta_sign: str
    mask: str
    mask_rows: Any
    hypotheses: tuple[str, ...]
    interaction: Any
    given: tuple[Relation, ...]
    relation: Relation
    #: The exact data every configuration has (by `DATA`'s names; only those the statement fixes).
    data: dict[str, Any] = field(default_factory=dict)
    #: The token i and head h the relation is stated at (the others: every one).
    fixed: dict[str, int] = field(default_factory=dict)


def statement_of(data: dict[str, Any], claim_id: str) -> ModelStatement:
    """The statement of a certificate of `claim_id`; Rejected when the data are not a well-formed model statement."""
    recheck.require_keys(data, STATEMENT_KEYS, "model statement")
    mask = data["mask"]
    rows = recheck.mask_rows(mask, len(mask), "statement mask") if isinstance(mask, list) else None
    words = {"attention": ATTENTION_KINDS, "geometry": GEOMETRIES, "beta": ("positive", "negative")}
    recheck.require_choices(data, words | ({} if rows else {"mask": ("none", "causal")}), "statement")
    hypotheses = recheck.require_list(data["hypotheses"], 12, "statement hypotheses")
    given = recheck.require_list(data["given"], fmt.MAX_CONDITIONS, "statement given")
    if not all(isinstance(h, str) for h in hypotheses) or not isinstance(data["exists"], bool):
        raise Rejected("statement hypotheses: a list of names; exists: a boolean")
    interaction, relation = _interaction(data), _relation(data["relation"], tuple(NEGATED))
    conditions = tuple(_relation(g, tuple(STATED)) for g in given)
    names = frozenset().union(*(t.names for r in (relation, *conditions) for t in (r.lhs, r.rhs)))
    if "lambda_h" in names and "scalar-heads" not in hypotheses:
        raise Rejected("lambda_h is a scalar head's strength: the statement must assume scalar-heads")
    if "delta" in names and ball_model.stated_delta(hypotheses) is None:
        raise Rejected("delta is the bound of orthogonal-heads(delta=q): the statement must assume it")
    fixed = data["fixed"]
    if not isinstance(fixed, dict) or not set(fixed) <= relation.free or not all(map(recheck.natural, fixed.values())):
        raise Rejected("statement fixed: the token i or head h (natural numbers) of the relation it is stated at")
    fields = {k: data[k] for k in ("exists", "attention", "geometry", "fixed")} | {"mask": "given" if rows else mask}
    fields |= {"mask_rows": rows, "hypotheses": tuple(hypotheses), "interaction": interaction, "given": conditions}
    fields |= {"beta_sign": data["beta"], "data": _exact_data(data["data"])}
    return ModelStatement(id=claim_id, relation=relation, **fields)


def _exact_data(data: object) -> dict[str, Any]:
    """The statement's exact data as Fractions (rows of at most MAX_TOKENS entries), the null ones left out."""
    data = recheck.require_keys(data, DATA, "statement data")

    def rows(value: object, depth: int) -> Any:
        if depth == 0:
            return parse_rational(value)
        return [rows(v, depth - 1) for v in recheck.require_list(value, fmt.MAX_TOKENS, "statement data rows", 1)]

    try:
        return {key: rows(value, DATA[key][1]) for key, value in data.items() if value is not None}
    except TreeError as exc:
        raise Rejected(f"statement data: {exc}") from None


def _interaction(data: dict[str, Any]) -> Interaction | None:
    """The statement's phi with its proposed antiderivative Phi (which `Interaction.energy_tree` accepts only when
    shown exactly); Rejected when either is not an interaction tree, or Phi is stated without phi."""
    phi, Phi = data["interaction"], data["energy"]
    if phi is None:
        if Phi is not None:
            raise Rejected("statement energy: an antiderivative Phi is stated with an interaction phi only")
        return None
    if data["attention"] not in INTERACTION_KINDS:
        raise Rejected(f"an interaction phi(s) is stated with attention {' or '.join(INTERACTION_KINDS)}")
    try:
        return Interaction(tree_text(check_tree(phi, "phi")), phi, None if Phi is None else check_tree(Phi, "Phi"))
    except TreeError as exc:
        raise Rejected(f"statement interaction: {exc}") from None


def _relation(data: object, allowed: tuple[str, ...]) -> Relation:
    data = recheck.require_keys(data, {"lhs", "op", "rhs"}, "relation")
    recheck.require_choices(data, {"op": allowed}, "relation")
    lhs, rhs = term_of(data["lhs"]), term_of(data["rhs"])
    return Relation(lhs, data["op"], rhs, f"{term_text(lhs)} {data['op']} {term_text(rhs)}")


def shown(data: dict[str, Any], claim: ModelStatement) -> str:
    """The statement as the kernel checked it: its fields (the module's docstring), its terms and the trees of phi and
    Phi rendered as text."""
    fields = {key: value for key, value in data.items() if value is not None and key not in ("form", "claim")}
    fields |= {"data": {key: value for key, value in data["data"].items() if value is not None}}
    for key, name in (("interaction", "phi"), ("energy", "Phi")):
        if data[key] is not None:
            fields[key] = f"{name}(s) = {tree_text(data[key])}"
    return json.dumps(fields | {"given": [g.text for g in claim.given], "relation": claim.relation.text})


def witness_configuration(claim: Any, payload: dict[str, Any]) -> ExactConfiguration:
    """The exact configuration of a model witness, with the claim's interaction, mask and sign of beta: what the
    kernel re-checks and what the Coq statement is written at."""
    negative, masked = claim.beta_sign == "negative", claim.mask != "none"
    return recheck.exact_configuration(payload["configuration"], claim.interaction, negative, masked)


def check(data: dict[str, Any], claim_id: str, kind: str, payload: dict[str, Any], seconds: float) -> tuple[str, str]:
    """(what the witness refutes or proves, how it was re-checked); Rejected when the payload is not a witness of the
    statement's negation (universal) or of the statement (existence). Which one follows from the statement alone."""
    claim = statement_of(data, claim_id)
    if kind != "witness":
        raise Rejected(f"a model statement's certificate is a witness, not {kind}")
    exact = claim.exists and claim.relation.op == "="
    keys = EXACT_KEYS if exact else WITNESS_KEYS
    recheck.require_witness(payload, WITNESS if exact else "model-configuration", keys, "the model witness")
    if payload["hypotheses"] != list(claim.hypotheses):
        raise Rejected(f"the witness states hypotheses other than the statement's ({', '.join(claim.hypotheses)})")
    at, relation = payload["at"], payload.get("relation")
    if not isinstance(at, dict):
        raise Rejected(f"`at` names the token i and head h, not {str(at)[:80]}")
    if not exact and relation not in SETTLING[witnessed(claim)]:
        raise Rejected(f"relation {str(relation)[:20]!r} does not {'state' if claim.exists else 'negate'} the claim's")
    cfg = witness_configuration(claim, payload)
    sizes = f"exact data n = {cfg.n}, d = {len(cfg.tokens[0])}, H = {len(cfg.score_matrices)}, beta = {cfg.beta}"
    where = ", ".join(f"{k} = {v}" for k, v in sorted(at.items()))
    verb, outcome = ("proves", "holds") if claim.exists else ("refutes", "fails")
    outcome += f"{' exactly' if exact else ''} at an exact configuration{' at ' + where if where else ''}"
    proved = f"{verb} claim {claim_id!r}: the model statement {shown(data, claim)} [{claim.relation.text} {outcome}]"
    with nullcontext() if exact else precision(recheck.recorded_precision(payload)):
        result = settle(claim, cfg, dict(at))
        if result.failures:
            raise Rejected(f"not {'an exact' if exact else 'a'} witness of {claim_id!r}: {'; '.join(result.failures)}")
        if exact:
            return proved, f"{sizes}: hypotheses checked exactly, rhs - lhs = 0 exactly (exponential polynomials)"
        recheck.check_enclosure(result.value, payload["enclosure"], relation, "rhs - lhs")
    return proved, f"{sizes}: hypotheses checked exactly, rhs - lhs = {result.value.str(6)} {relation} 0 (balls)"
