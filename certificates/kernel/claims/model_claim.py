"""The `model` kind: a relation between model terms at every configuration satisfying stated hypotheses.

Fields: `lhs`, `op` (= <= < >= >), `rhs` (model terms, `certificates.kernel.claims.model_terms`), and optionally
`attention` (usa, softmax, relu; default usa), `geometry` (sphere or flat; default sphere), `assume` (hypotheses on
the heads and tokens, names of `certificates.kernel.ball_model.HYPOTHESES`: MODEL_HYPOTHESES), `given` (conditions,
each `"lhs OP rhs"` in the same grammar or the name `condition8`, holding at every token i, for the statement's head
h: an implication), `exists` (a boolean, default false). The claim is for every n >= 2, d >= 1, H >= 1, beta > 0 and
every configuration of the stated kind with the hypotheses; free indices i and h mean every token and every head. With
`exists = true` it is the dual statement: some n, d, H, beta and some configuration with the hypotheses (the `given`
conditions at every token) satisfy the relation at some token i and head h. Its op is strict or non-strict, not `=`:
an existence claim is settled by a witness whose sign balls settle, and balls never settle an equality.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from certificates.kernel.claims.model_terms import Term, parse_term
from certificates.kernel.claims.problems import ExpressionError
from certificates.kernel.errors import InputError
from certificates.kernel.vocabulary import ATTENTION_KINDS, GEOMETRIES

REQUIRED = {"lhs", "op", "rhs"}
OPTIONAL = {"attention", "geometry", "assume", "given", "exists"}
#: The geometries whose model terms the interpreter knows (`model_terms`): Post-LN and the unnormalized flow.
MODEL_GEOMETRIES = ("sphere", "flat")
RELATIONS = ("=", "<=", "<", ">=", ">")
#: The hypotheses a model claim may assume (their exact checks: `ball_model.HYPOTHESES`).
MODEL_HYPOTHESES = (
    "unit-tokens",
    "symmetric-scores",
    "aligned-values",
    "orthogonal-heads",
    "scalar-heads",
    "symmetric-values",
)
#: Named conditions a `given` may use: Condition 8 at (i, h), sum_{g != h} a^h_i a^g_i <= T^h_i.
NAMED_CONDITIONS = {"condition8": "a_h_i * A_h_i <= T_h_i"}
MAX_GIVEN = 8
_SPLIT = re.compile(r"(<=|>=|<|>)")


@dataclass(frozen=True)
class Relation:
    """`lhs op rhs` between two scalar terms, with the text it was read from."""

    lhs: Term
    op: str
    rhs: Term
    text: str

    @property
    def free(self) -> frozenset[str]:
        return self.lhs.free | self.rhs.free


def model_fields(raw: dict[str, Any]) -> dict[str, Any]:
    """The typed fields of a model claim (InputError naming the first bad field)."""
    op = raw["op"]
    if op not in RELATIONS:
        raise InputError("op", op, f"expected one of {' '.join(RELATIONS)}")
    attention = raw.get("attention", "usa")
    if attention not in ATTENTION_KINDS:
        raise InputError("attention", attention, f"expected one of {', '.join(ATTENTION_KINDS)}")
    geometry = raw.get("geometry", "sphere")
    if geometry not in MODEL_GEOMETRIES:
        more = " (the normalization schemes are stated in dynamics claims)" if geometry in GEOMETRIES else ""
        raise InputError("geometry", geometry, f"expected one of {', '.join(MODEL_GEOMETRIES)}{more}")
    assume = _names(raw, "assume", MODEL_HYPOTHESES, "hypotheses")
    hypotheses = tuple(sorted(set(assume) | ({"unit-tokens"} if geometry == "sphere" else set())))
    relation = Relation(_term(raw, "lhs"), op, _term(raw, "rhs"), f"{raw['lhs']} {op} {raw['rhs']}")
    given = tuple(_condition(text) for text in _strings(raw, "given", MAX_GIVEN))
    exists = raw.get("exists", False)
    if not isinstance(exists, bool):
        raise InputError("exists", exists, "true (some configuration) or false (every configuration)")
    if exists and op == "=":
        raise InputError("op", op, "an existence claim states < <= > >= (balls settle a sign, never an equality)")
    return {
        "attention": attention,
        "geometry": geometry,
        "hypotheses": hypotheses,
        "relation": relation,
        "given": given,
        "exists": exists,
    }


def model_statement(fields: dict[str, Any]) -> str:
    """The precise statement the fields make."""
    relation: Relation = fields["relation"]
    free = sorted(relation.free | frozenset().union(*(g.free & {"h"} for g in fields["given"])))
    kind = f"{fields['attention']} attention, {fields['geometry']} dynamics"
    assumed = ", ".join(fields["hypotheses"]) or "no further hypothesis"
    conditions = " and ".join(g.text for g in fields["given"])
    if fields["exists"]:
        some = {"i": "a token i", "h": "a head h"}
        heads = " and every head h" if "h" in free and "h" not in relation.free else ""
        where = f" where {conditions} at every token i{heads}" if conditions else ""
        at = " at " + " and ".join(some[k] for k in sorted(relation.free)) if relation.free else ""
        return (
            f"There are n >= 2, d >= 1, H >= 1, beta > 0 and a configuration ({kind}; {assumed}){where} "
            f"with {relation.text}{at}."
        )
    indices = {"i": "every token i", "h": "every head h"}
    every = ", ".join(["every n >= 2, d >= 1, H >= 1, beta > 0", *(indices[k] for k in free)])
    given = f"if {conditions} at every token i, then " if conditions else ""
    return f"For {every} and every configuration ({kind}; {assumed}): {given}{relation.text}."


def _term(raw: dict[str, Any], key: str) -> Term:
    try:
        return parse_term(raw[key])
    except ExpressionError as exc:
        exc.field = key
        raise


def _condition(text: str) -> Relation:
    """A `given` condition: a named one or `lhs OP rhs` (OP one of <= >= < >)."""
    written = NAMED_CONDITIONS.get(text.strip(), text)
    parts = _SPLIT.split(written)
    if len(parts) != 3:
        raise InputError("given", text, "a condition is `lhs OP rhs` with one OP of <= >= < >, or condition8")
    try:
        lhs, rhs = parse_term(parts[0]), parse_term(parts[2])
    except ExpressionError as exc:
        exc.field = "given"
        raise
    return Relation(lhs, parts[1], rhs, text.strip() if text.strip() in NAMED_CONDITIONS else written.strip())


def _strings(raw: dict[str, Any], key: str, most: int) -> list[str]:
    value = raw.get(key, [])
    if not isinstance(value, list) or len(value) > most or not all(isinstance(v, str) and v.strip() for v in value):
        raise InputError(key, value, f"a list of at most {most} non-empty strings")
    return value


def _names(raw: dict[str, Any], key: str, allowed: tuple[str, ...], what: str) -> list[str]:
    names = _strings(raw, key, len(allowed))
    for name in names:
        if name not in allowed:
            raise InputError(key, name, f"unknown {what} (expected some of {', '.join(allowed)})")
    if len(set(names)) != len(names):
        raise InputError(key, names, f"each of the {what} once")
    return names
