"""Model statements (form `model`): a relation between the model's quantities, as term trees, and its witnesses.

A claims-file `model` claim is elaborated outside the kernel (`certificates.statements.model`) into this data:

    {"form": "model", "claim": id, "exists": bool, "attention": kind, "geometry": "sphere" | "flat",
     "beta": "positive" | "negative", "mask": "none" | "causal" | "given", "mask_rows": rows of 0/1 or null,
     "token": "every" | "first", "hypotheses": [names], "interaction": exprtree tree of phi(s) or null,
     "energy": exprtree tree of Phi(s) (the energy's antiderivative of phi) or null,
     "sizes": {"n": [low, high or null], "d": ..., "H": ..., "beta": [low or null, high or null, low open, high open]},
     "given": [{"lhs": term, "op": op, "rhs": term}, ...], "relation": {"lhs": term, "op": op, "rhs": term},
     "data": {"tokens": rows or null, "scores": matrices or null, "values": matrices or null, "beta": "p/q" or null},
     "head": null or the one head h the relation is about}

It states: for every (with `exists`: some) n, d, H, beta in the sizes and every (some) configuration of the kind with
the hypotheses and the exact `data` where each `given` condition holds at every token i (for the statement's head h),
the relation holds at every (some) token i and head h (the stated `head` only, when it names one). The geometry is any
normalization scheme; `xdot_i` is the sphere's or flat space's velocity, so a statement about another scheme does not
name it (its rates are the chain's: `dE_dt`, `norm_rate_i`, `dR_dt`). A term is a JSON tree over the model's primitives
(SPEC section 1): `["num", "p/q"]`, `["name", written]` (a symbol n, d, H, beta or a quantity at its indices: `x_i`,
`f_g_j`, `a_h_i`, `s_h_ji`, `E_g`), `["pow", term, k]`, and `[op, term, ...]` for `+ - * / neg`, `inner norm2 norm proj
M_h W_h log` and the sums `sum_i sum_j sum_h sum_g`. The kernel types each tree itself
(`certificates.kernel.model_terms.make`: vectors and numbers, free indices, what may divide; the claims-file parser
builds its terms with the same `make`) and reads it at the witness's exact data as trees of its chain, with balls
(`certificates.kernel.model_values.Trees`).

A universal statement is refuted by a `model-configuration` witness (exact data of the family, equal to the stated
`data`, where the given conditions hold at every token and `rhs - lhs` negates the relation, by balls); an existence
statement is proved by one where it states it, or, for an equality, by a `model-configuration-exact` witness (`rhs -
lhs` exactly 0 in the exponential-polynomial field: `certificates.kernel.model_values.equality_failures`). What is
printed is rendered from the data.

With an interaction phi the energy is E_h = (1/(2 n^2)) sum_ij Phi(s^h_ij): Phi is the statement's `energy`, proposed
outside the kernel (SymPy's integrate), and the kernel evaluates the energy only when d/ds Phi = phi is shown by its own
exact algebra (`certificates.kernel.interaction.is_antiderivative`; else the energy is unavailable and no witness
naming it is accepted). Phi fixes the energy's constant of integration, so the printed statement names it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from certificates.kernel import format as fmt
from certificates.kernel import recheck
from certificates.kernel.ball_model import ExactConfiguration
from certificates.kernel.exact import SETTLING, precision
from certificates.kernel.exprtree import TreeError, parse_rational
from certificates.kernel.interaction import Interaction, check_tree
from certificates.kernel.model_terms import (
    NEGATED,
    RELATIONS,
    STATED,
    Relation,
    Term,
    TermError,
    make,
    scalar_term,
    term_text,
)
from certificates.kernel.model_values import WITNESS, Settled, equality_failures, settle
from certificates.kernel.recheck import Rejected
from certificates.kernel.tree_text import term_text as tree_text
from certificates.kernel.vocabulary import ATTENTION_KINDS, GEOMETRIES, INTERACTION_KINDS

#: The least value of each integer size of the model (n >= 2 tokens, d >= 1, H >= 1).
LEAST = {"n": 2, "d": 1, "H": 1}
SIZE_NAMES = ("n", "d", "H", "beta")
#: The fields of a model statement (the module's docstring).
STATEMENT_KEYS = {"form", "claim", "exists", "attention", "geometry", "beta", "mask", "mask_rows", "token"}
STATEMENT_KEYS |= {"hypotheses", "interaction", "energy", "sizes", "given", "relation", "data", "head"}
#: The exact data a statement may fix: the configuration's field each names, and the depth of its rows.
DATA = {"tokens": ("tokens", 2), "scores": ("score_matrices", 3), "values": ("values", 3), "beta": ("beta", 0)}
WITNESS_KEYS = {"witness", "configuration", "hypotheses", "at", "prec", "relation", "enclosure"}
EXACT_KEYS = {"witness", "configuration", "hypotheses", "at"}

FORM = "model"


def term_of(data: object) -> Term:
    """The scalar term of a JSON tree, typed by `make`; Rejected when it is not one (at most MAX_TERM_NODES nodes)."""
    budget = [fmt.MAX_TERM_NODES]

    def read(node: object, depth: int) -> Term:
        budget[0] -= 1
        if depth > 60 or budget[0] < 0:
            raise TermError("a term nested too deeply or too large")
        if not isinstance(node, list) or not node or not isinstance(node[0], str):
            raise TermError(f"malformed term node {str(node)[:60]}")
        op, args = node[0], node[1:]
        if op == "num" and len(args) == 1:
            return make("num", (parse_rational(args[0]),))
        if op == "name" and len(args) == 1:
            return make("name", (args[0],))
        if op == "pow" and len(args) == 2:
            return make("pow", (read(args[0], depth + 1), args[1]))
        return make(op, tuple(read(a, depth + 1) for a in args))

    try:
        return scalar_term(read(data, 0))
    except (TermError, TreeError) as exc:
        raise Rejected(f"not a model term: {exc}") from None


@dataclass(frozen=True)
class Sizes:
    """Integer ranges of n, d, H (upper end None: unbounded) and beta's interval (0, oo) by default."""

    low: dict[str, int] = field(default_factory=lambda: dict(LEAST))
    high: dict[str, int | None] = field(default_factory=lambda: dict.fromkeys(LEAST))
    #: beta's ends (None: 0 open below, unbounded above) and whether each is open.
    beta: tuple[Fraction | None, Fraction | None, bool, bool] = (None, None, True, True)

    def check(self, n: int, d: int, H: int, beta: Fraction, negative_beta: bool = False) -> list[str]:
        """Why sizes n, d, H and beta lie outside the ranges (empty: inside), decided exactly. With `negative_beta`
        (a claim for every beta < 0, which states no beta range: `model_claim`) beta's range is beta < 0."""
        integers = {"n": n, "d": d, "H": H}  # high None: no upper end
        out = [f"{k} = {v} is outside {self.range_text(k)}" for k, v in integers.items()
               if not self.low[k] <= v <= (self.high[k] or v)]  # fmt: skip
        if negative_beta:
            return out + ([] if beta < 0 else [f"beta = {beta} is outside beta < 0"])
        low, high, low_open, high_open = self.beta
        below = beta <= 0 if low is None else (beta <= low if low_open else beta < low)
        above = high is not None and (beta >= high if high_open else beta > high)
        if below or above:
            out.append(f"beta = {beta} is outside {self.range_text('beta')}")
        return out

    def range_text(self, name: str) -> str:
        if name == "beta":
            low, high, low_open, high_open = self.beta
            lower = "beta > 0" if low is None else f"beta {'>' if low_open else '>='} {low}"
            return lower if high is None else f"{lower}, beta {'<' if high_open else '<='} {high}"
        low, high = self.low[name], self.high[name]
        if high == low:
            return f"{name} = {low}"
        return f"{name} >= {low}" if high is None else f"{low} <= {name} <= {high}"


def sizes_of(data: object) -> Sizes:
    """The sizes of statement data; Rejected unless each integer range starts at the model's least size or above and
    beta's range lies in beta > 0."""
    recheck.require_keys(data, SIZE_NAMES, "sizes")
    assert isinstance(data, dict)
    sizes = Sizes()
    for name, least in LEAST.items():
        sizes.low[name], sizes.high[name] = recheck.integer_range(data[name], least, f"sizes.{name}")
    beta = data["beta"]
    if not isinstance(beta, list) or len(beta) != 4 or not all(isinstance(b, bool) for b in beta[2:]):
        raise Rejected("sizes.beta: [low or null, high or null, low open, high open]")
    low, high = (None if end is None else parse_rational(end) for end in beta[:2])
    if (low is not None and low <= 0) or (low is not None and high is not None and high < low):
        raise Rejected("sizes.beta: a range in beta > 0 (no lower end: 0, open; no upper end: unbounded)")
    return Sizes(sizes.low, sizes.high, (low, high, beta[2], beta[3]))


@dataclass(frozen=True)
class ModelStatement:
    """A `model` statement read from its data, with the fields a witness is settled against
    (`certificates.kernel.model_values.settle`)."""

    id: str
    exists: bool
    attention: str
    geometry: str
    beta_sign: str
    mask: str
    mask_rows: Any
    token: str
    hypotheses: tuple[str, ...]
    interaction: Any
    sizes: Sizes
    given: tuple[Relation, ...]
    relation: Relation
    #: The exact data every configuration has (by `DATA`'s names; only those the statement fixes).
    data: dict[str, Any] = field(default_factory=dict)
    head: int | None = None


def statement_of(data: dict[str, Any], claim_id: str) -> ModelStatement:
    """The statement of a certificate of `claim_id`; Rejected when the data are not a well-formed model statement."""
    recheck.require_keys(data, STATEMENT_KEYS, "model statement")
    words = {"attention": ATTENTION_KINDS, "geometry": GEOMETRIES, "beta": ("positive", "negative")}
    recheck.require_choices(
        data, words | {"mask": ("none", "causal", "given"), "token": ("every", "first")}, "statement"
    )
    hypotheses, given = data["hypotheses"], data["given"]
    if not isinstance(hypotheses, list) or not all(isinstance(h, str) for h in hypotheses) or len(hypotheses) > 12:
        raise Rejected("statement hypotheses: a list of names")
    if not isinstance(given, list) or len(given) > fmt.MAX_CONDITIONS or not isinstance(data["exists"], bool):
        raise Rejected("statement given: a list of conditions; exists: a boolean")
    rows = data["mask_rows"]
    if data["mask"] == "given":
        rows = recheck.mask_rows(rows, len(rows) if isinstance(rows, list) else 0, "statement mask_rows")
    elif rows is not None:
        raise Rejected("statement mask_rows: only for a given mask")
    interaction = _interaction(data)
    relation = _relation(data["relation"], RELATIONS)
    conditions = tuple(_relation(g, tuple(STATED)) for g in given)
    names = frozenset().union(*(t.names for r in (relation, *conditions) for t in (r.lhs, r.rhs)))
    if "lambda_h" in names and "scalar-heads" not in hypotheses:
        raise Rejected("lambda_h is a scalar head's strength: the statement must assume scalar-heads")
    if interaction is not None and any(name.startswith("entropy") for name in names):
        raise Rejected("attention entropies are defined for exp(beta s) weights, not a stated interaction")
    if data["token"] == "first" and "i" not in relation.free:
        raise Rejected("token = first binds the token i, which the relation does not name")
    if data["head"] is not None and not (recheck.natural(data["head"], 0, fmt.MAX_HEADS) and "h" in relation.free):
        raise Rejected("statement head: null, or the head (a natural number) of a relation that names h")
    if data["geometry"] not in ("sphere", "flat") and "xdot" in names:
        raise Rejected(f"xdot_i is the sphere's or flat space's velocity, not {data['geometry']}'s")
    fields = {k: data[k] for k in ("exists", "attention", "geometry", "mask", "token", "head")}
    fields |= {"mask_rows": rows, "hypotheses": tuple(hypotheses), "interaction": interaction, "given": conditions}
    fields |= {"beta_sign": data["beta"], "data": _exact_data(data["data"])}
    return ModelStatement(id=claim_id, sizes=sizes_of(data["sizes"]), relation=relation, **fields)


def _exact_data(data: object) -> dict[str, Any]:
    """The statement's exact data as Fractions (rows of at most MAX_TOKENS entries), the null ones left out."""
    recheck.require_keys(data, DATA, "statement data")
    assert isinstance(data, dict)

    def rows(value: object, depth: int) -> Any:
        if depth == 0:
            return parse_rational(value)
        return [rows(v, depth - 1) for v in recheck.require_list(value, fmt.MAX_TOKENS, "statement data rows", 1)]

    try:
        return {key: rows(value, DATA[key][1]) for key, value in data.items() if value is not None}
    except TreeError as exc:
        raise Rejected(f"statement data: {exc}") from None


def data_failures(claim: ModelStatement, cfg: ExactConfiguration, at: dict[str, int]) -> list[str]:
    """The stated exact data the configuration does not have, and a witness at another head than the stated one."""
    failures = [f"the stated {key}" for key, value in claim.data.items() if getattr(cfg, DATA[key][0]) != value]
    return failures + ([f"the stated head {claim.head}"] if claim.head not in (None, at.get("h")) else [])


def settled(claim: ModelStatement, cfg: ExactConfiguration, at: dict[str, int]) -> Settled:
    """`model_values.settle` of a witness whose data are the statement's (what the checker and the provers run)."""
    failures = data_failures(claim, cfg, at)
    return Settled(failures=failures) if failures else settle(claim, cfg, at)


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
    recheck.require_keys(data, {"lhs", "op", "rhs"}, "relation")
    assert isinstance(data, dict)
    if data["op"] not in allowed:
        raise Rejected(f"relation op {str(data['op'])[:10]!r}: one of {' '.join(allowed)}")
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
    wanted = WITNESS if exact else "model-configuration"
    recheck.require_witness(payload, wanted, EXACT_KEYS if exact else WITNESS_KEYS, "the model witness")
    if payload["hypotheses"] != list(claim.hypotheses):
        raise Rejected(f"the witness states hypotheses other than the statement's ({', '.join(claim.hypotheses)})")
    at = payload["at"]
    if not isinstance(at, dict) or set(at) - {"i", "h"} or not all(map(recheck.natural, at.values())):
        raise Rejected(f"`at` names the token i and head h as integers, not {str(at)[:80]}")
    cfg = witness_configuration(claim, payload)
    sizes = f"exact data n = {cfg.n}, d = {len(cfg.tokens[0])}, H = {len(cfg.score_matrices)}, beta = {cfg.beta}"
    where = ", ".join(f"{k} = {v}" for k, v in sorted(at.items()))
    verb, outcome = ("proves", "holds") if claim.exists else ("refutes", "fails")
    proved = (
        f"{verb} claim {claim_id!r}: the model statement {shown(data, claim)} [{claim.relation.text} {outcome}"
        f"{' exactly' if exact else ''} at an exact configuration{' at ' + where if where else ''}]"
    )
    if exact:
        if failures := data_failures(claim, cfg, dict(at)) or equality_failures(claim, cfg, dict(at)):
            raise Rejected(f"not an exact witness of {claim_id!r}: {'; '.join(failures)}")
        return proved, f"{sizes}: hypotheses checked exactly, rhs - lhs = 0 exactly (exponential polynomials)"
    relation = payload["relation"]
    if relation not in SETTLING[STATED[claim.relation.op] if claim.exists else NEGATED[claim.relation.op]]:
        raise Rejected(f"relation {str(relation)[:20]!r} does not {'state' if claim.exists else 'negate'} the claim's")
    with precision(recheck.recorded_precision(payload)):
        result = settled(claim, cfg, dict(at))
        if result.failures:
            raise Rejected(f"not a witness of {claim_id!r}: {'; '.join(result.failures)}")
        recheck.check_enclosure(result.value, payload["enclosure"], relation, "rhs - lhs")
    return proved, f"{sizes}: hypotheses checked exactly, rhs - lhs = {result.value.str(6)} {relation} 0 (balls)"
