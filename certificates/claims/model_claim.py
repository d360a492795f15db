"""The `model` kind: a relation between model terms at every configuration satisfying stated hypotheses.

Fields: `lhs`, `op` (= <= < >= >), `rhs` (model terms, `headflow.certificates.kernel.model_terms`), and optionally
`attention` (usa, softmax, relu; default usa), `geometry` (sphere or flat; default sphere), `assume` (hypotheses on
the heads and tokens, names of `headflow.certificates.kernel.ball_model.HYPOTHESES`: MODEL_HYPOTHESES, or
`orthogonal-heads(delta=q)` with an exact q >= 0, kept in its one written form `approximate_orthogonality`;
`lambda_h` needs `scalar-heads`; `identical-heads`, M_h = alpha I for every head with one real alpha of any sign,
implies `symmetric-scores`), `given` (conditions,
each `"lhs OP rhs"` in the same grammar or the name `condition8`, holding at every token i, for the statement's head
h: an implication), `exists` (a boolean, default false), `domain` (ranges of n, d, H, beta:
`headflow.certificates.claims.model_sizes`). The claim is for every n >= 2, d >= 1, H >= 1, beta > 0 and
every configuration of the stated kind with the hypotheses; free indices i and h mean every token and every head. With
`exists = true` it is the dual statement: some n, d, H, beta and some configuration with the hypotheses (the `given`
conditions at every token) satisfy the relation at some token i and head h. A sign (< <= > >=) is settled by balls at
the witness; an equality (`=`) only exactly (`headflow.certificates.kernel.model_values.settle`), never by balls
or floats.

Models beyond the paper: `beta = "negative"` states the claim for every beta < 0 (repulsive attention) instead of
beta > 0 (no `domain.beta` range then); `mask = "causal"` puts the causal mask on every configuration (token i attends
to the tokens j <= i, `certificates.kernel.masks`; with an `interaction` too), and `mask = [[1, 0], [1, 1]]` a given
0/1 mask (n rows with ones on the diagonal: the claim is then for that n only); `token = "first"` binds the free
token i to the first token only (under the causal mask it attends to itself alone).
"""

from __future__ import annotations

import ast
import dataclasses
import re
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

from headflow.certificates.claims.expressions import check_characters, checked_syntax, rational_literal
from headflow.certificates.claims.interaction_text import parse_interaction
from headflow.certificates.claims.model_sizes import Sizes, parse_sizes
from headflow.certificates.claims.model_text import statement_text
from headflow.certificates.claims.problems import ExpressionError
from headflow.certificates.errors import InputError
from headflow.certificates.kernel.ball_model import orthogonality_bound, stated_delta
from headflow.certificates.kernel.model_terms import FUNCTIONS, Relation, Term, TermError, make, scalar_term
from headflow.certificates.kernel.vocabulary import ATTENTION_KINDS, GEOMETRIES
from headflow.certificates.masks import MAX_GIVEN_TOKENS, Mask, mask_of

REQUIRED = {"lhs", "op", "rhs"}
OPTIONAL = {"attention", "geometry", "assume", "given", "exists", "domain", "interaction", "mask", "beta", "token"}
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
    "identity-values",
    "spd-values",
    "identical-heads",
)
#: Hypotheses that imply others (added to the claim's list, so that the engine and the witness checks see them).
IMPLIED = {"identical-heads": ("symmetric-scores",)}
#: The sign of beta a model claim is about (beta > 0 by default; beta < 0 is repulsive attention).
BETA_SIGNS = ("positive", "negative")
#: The masks a model claim may put on every configuration by name ("none": every token attends to every token); a
#: mask may also be given as n rows of 0/1 (then the claim is for that n only, `_given_mask`).
MASKS = ("none", "causal")
#: Which tokens the free index i ranges over.
TOKENS = ("every", "first")
#: Named conditions a `given` may use: Condition 8 at (i, h), sum_{g != h} a^h_i a^g_i <= T^h_i.
NAMED_CONDITIONS = {"condition8": "a_h_i * A_h_i <= T_h_i"}
MAX_GIVEN = 8
_SPLIT = re.compile(r"(<=|>=|<|>)")
#: `orthogonal-heads(delta=...)` as a user may write it (spaces allowed), and its number.
_BOUNDED = re.compile(r"orthogonal-heads\s*\(\s*delta\s*=\s*([^)]{1,60}?)\s*\)")
_NUMBER = re.compile(r"-?[0-9]{1,30}(\.[0-9]{1,30})?(/[0-9]{1,30})?")


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
    assume = _assumed(raw)
    hypotheses = model_hypotheses(assume, geometry)
    relation = Relation(_term(raw, "lhs"), op, _term(raw, "rhs"), f"{raw['lhs']} {op} {raw['rhs']}")
    given = tuple(_condition(text) for text in _strings(raw, "given", MAX_GIVEN))
    strengths = [text for text in (relation.text, *(g.text for g in given)) if "lambda_h" in _identifiers(text)]
    if strengths and "scalar-heads" not in hypotheses:
        raise InputError(
            "assume", assume, "lambda_h is a scalar head's strength (M_h = lambda_h I): assume scalar-heads"
        )
    bounded = [text for text in (relation.text, *(g.text for g in given)) if "delta" in _identifiers(text)]
    if bounded and stated_delta(hypotheses) is None:
        raise InputError("assume", assume, "delta is the bound of orthogonal-heads(delta=q): assume it with q > 0")
    exists = raw.get("exists", False)
    if not isinstance(exists, bool):
        raise InputError("exists", exists, "true (some configuration) or false (every configuration)")
    choices = (("beta", BETA_SIGNS), ("mask", MASKS), ("token", TOKENS))
    extra = {key: _word(raw, key, allowed) for key, allowed in choices if key != "mask" or not _rows(raw)}
    sizes, rows = parse_sizes(raw.get("domain")), None
    if _rows(raw):
        extra["mask"], rows, sizes = "given", *_given_mask(raw["mask"], sizes)
    if extra["token"] == "first" and "i" not in relation.free:
        raise InputError("token", "first", "only used when the relation speaks of the token i")
    interaction = parse_interaction(raw["interaction"], attention) if "interaction" in raw else None
    if interaction is not None:
        _without_entropies(raw, relation, given)
    if extra["beta"] == "negative" and isinstance(raw.get("domain"), dict) and "beta" in raw["domain"]:
        raise InputError("domain.beta", raw["domain"]["beta"], 'beta = "negative" states every beta < 0: no range')
    return {
        "beta_sign": extra["beta"],
        "mask": extra["mask"],
        "token": extra["token"],
        "attention": attention,
        "geometry": geometry,
        "hypotheses": hypotheses,
        "relation": relation,
        "given": given,
        "exists": exists,
        "sizes": sizes,
        "interaction": interaction,
        "mask_rows": rows,
    }


def model_hypotheses(assumed: list[str] | tuple[str, ...], geometry: str) -> tuple[str, ...]:
    """The hypotheses a model claim is about: the assumed ones, those they imply (IMPLIED) and, on the sphere, unit
    tokens (what the prover, the search and the witness checks read)."""
    implied = {more for name in assumed for more in IMPLIED.get(name, ())}
    return tuple(sorted(set(assumed) | implied | ({"unit-tokens"} if geometry == "sphere" else set())))


def _rows(raw: dict[str, Any]) -> bool:
    return isinstance(raw.get("mask"), list)


def _given_mask(value: list[Any], sizes: Sizes) -> tuple[Mask, Sizes]:
    """A mask given as n rows of 0/1 (`certificates.kernel.masks`): the claim is then about n = its size only, which
    must lie in the claim's range of n."""
    if not 2 <= len(value) <= MAX_GIVEN_TOKENS:
        raise InputError("mask", f"{len(value)} rows", f"a given mask has 2 to {MAX_GIVEN_TOKENS} rows (one per token)")
    rows = mask_of(value, len(value))
    assert rows is not None
    n = len(rows)
    if n < sizes.low["n"] or (sizes.high["n"] is not None and n > sizes.high["n"]):
        raise InputError("domain.n", sizes.range_text("n"), f"the given mask is for n = {n} tokens")
    return rows, dataclasses.replace(sizes, low=sizes.low | {"n": n}, high=sizes.high | {"n": n})


def _without_entropies(raw: dict[str, Any], relation: Relation, given: tuple[Relation, ...]) -> None:
    """InputError when a term names an attention entropy: they are defined for exp(beta s) weights only."""
    for part in (relation, *given):
        for term in (part.lhs, part.rhs):
            if _names_entropy(term):
                raise InputError("interaction", raw["interaction"], "attention entropies are defined for exp(beta s)")


def _names_entropy(term: Term) -> bool:
    if term.op == "scalar":
        return str(term.args[0]).startswith("entropy")
    return any(_names_entropy(a) for a in term.args if isinstance(a, Term))


def model_statement(fields: dict[str, Any]) -> str:
    """The precise statement the fields make (`headflow.certificates.claims.model_text.statement_text`)."""
    return statement_text(SimpleNamespace(**fields))


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


def _word(raw: dict[str, Any], key: str, allowed: tuple[str, ...]) -> str:
    """An optional choice among `allowed` (default the first)."""
    value = raw.get(key, allowed[0])
    if value not in allowed:
        raise InputError(key, value, f"expected one of {', '.join(allowed)}")
    return value


def _strings(raw: dict[str, Any], key: str, most: int) -> list[str]:
    value = raw.get(key, [])
    if not isinstance(value, list) or len(value) > most or not all(isinstance(v, str) and v.strip() for v in value):
        raise InputError(key, value, f"a list of at most {most} non-empty strings")
    return value


def _assumed(raw: dict[str, Any]) -> list[str]:
    """The hypotheses of `assume`, each of MODEL_HYPOTHESES or `orthogonal-heads(delta=q)` (written canonically)."""
    written = _strings(raw, "assume", len(MODEL_HYPOTHESES))
    out = []
    for text in written:
        bounded = _BOUNDED.fullmatch(text.strip())
        if bounded is not None:
            out.append(approximate_orthogonality(_delta(bounded.group(1))))
        elif text in MODEL_HYPOTHESES:
            out.append(text)
        else:
            expected = ", ".join([*MODEL_HYPOTHESES, "orthogonal-heads(delta=q)"])
            raise InputError("assume", text, f"unknown hypotheses (expected some of {expected})")
    if len({name.partition("(")[0] for name in out}) != len(out):
        raise InputError("assume", written, "each of the hypotheses once (orthogonal-heads with or without delta)")
    return out


def approximate_orthogonality(delta: Fraction) -> str:
    """The name of the hypothesis |M_h M_g|_F <= delta for h != g (`orthogonal-heads` when delta = 0), in the one
    written form the checker reads back (`ball_model.orthogonality_bound`)."""
    if delta < 0:
        raise ValueError("delta is a bound on a norm: >= 0")
    name = "orthogonal-heads" if delta == 0 else f"orthogonal-heads(delta={Fraction(delta)})"
    assert delta == 0 or orthogonality_bound(name) == delta
    return name


def _delta(text: str) -> Fraction:
    """The stated delta: an exact non-negative rational (a decimal or p/q)."""
    if not _NUMBER.fullmatch(text):
        raise InputError(
            "assume",
            text,
            "delta is an exact number >= 0: a decimal or p/q of at most 30 digits each (e.g. 1/10 or 0.1)",
        )
    negative, (numerator, _, denominator) = text.startswith("-"), text.lstrip("-").partition("/")
    if denominator and int(denominator) == 0:
        raise InputError("assume", text, "delta's denominator is 0")
    value = Fraction(numerator) / int(denominator or 1)
    if negative and value:
        raise InputError("assume", text, "delta bounds a norm: it is >= 0 (delta = 0 is orthogonal-heads)")
    return value


def _identifiers(text: str) -> set[str]:
    """The names a model expression's text uses (identifiers, for hypotheses that a name needs)."""
    return set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text))


def parse_term(text: object) -> Term:
    """The scalar term `text` denotes; ExpressionError (an InputError) for anything outside the grammar."""
    tree = checked_syntax(text)
    assert isinstance(text, str)
    term = _Walker(text).walk(tree, 0)
    check_characters(text)
    try:
        return scalar_term(term)
    except TermError as exc:
        raise ExpressionError(text, str(exc)) from None


#: The operators of the grammar, by their syntax node.
_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "pow"}


class _Walker:
    def __init__(self, text: str) -> None:
        self.text, self.offset = text, len(text) - len(text.lstrip())

    def fail(self, node: ast.AST, reason: str) -> ExpressionError:
        return ExpressionError(self.text, reason, getattr(node, "col_offset", 0) + 1 + self.offset)

    def make(self, node: ast.AST, op: str, args: tuple[object, ...]) -> Term:
        try:
            return make(op, args)
        except TermError as exc:
            raise self.fail(node, str(exc)) from None

    def walk(self, node: ast.AST, depth: int) -> Term:
        if depth > 60:
            raise self.fail(node, "nested too deeply")
        if isinstance(node, ast.Constant):
            return self.make(node, "num", (Fraction(str(rational_literal(self.text.strip(), node))),))
        if isinstance(node, ast.Name):
            return self.make(node, "name", (node.id,))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            operand = self.walk(node.operand, depth + 1)
            return operand if isinstance(node.op, ast.UAdd) else self.make(node, "neg", (operand,))
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            op, left = _OPERATORS[type(node.op)], self.walk(node.left, depth + 1)
            if op == "pow":
                k = node.right
                return self.make(node, op, (left, k.value if isinstance(k, ast.Constant) else None))
            at = node.right if op == "/" else node  # a bad divisor is reported at the divisor
            return self.make(at, op, (left, self.walk(node.right, depth + 1)))
        if isinstance(node, ast.BinOp):
            raise self.fail(node, f"operator {type(node.op).__name__} is not allowed")
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else None
            if name not in FUNCTIONS or node.keywords:
                raise self.fail(node, f"unknown function (model expressions call {', '.join(FUNCTIONS)})")
            return self.make(node, name, tuple(self.walk(a, depth + 1) for a in node.args))
        raise self.fail(node, f"not allowed in model expressions: {type(node).__name__}")
