"""The Coq statement of what a certificate proves, written from the checker's own obligation (never from file text).

The statement is the `Definition`s and the `Theorem` line; the proofs are written outside the kernel
(`certificates.coq.source`) and checked by coqc, so a wrong proof fails the file and never changes what it states.
Three shapes cover the translatable certificates:
- `PointProblem`: conditions `expr relation 0` at an exact rational point (a constant to digits, a
  counterexample, a refuting point). The file defines each coordinate once, and the `Theorem` states
  every definedness condition of every expression (`translated`) and every condition, in the
  obligation's order; `interval` proves each conjunct (bisection-free: the point is exact). A condition's
  `lambda_c(n, beta)` is a root the Theorem binds over all the conjuncts, after its guards (`bound_roots`); the
  proof brackets it by the signs of the prelude's equation at two rationals (`certificates.coq.roots`).
- `UniversalProblem`: statements `forall constants, hypotheses -> goal` over the reals (the SMT
  obligations: the T19 threshold statements, a claims-file inequality on its domain). The proof adds,
  for each `exp`, `sqrt`, `ln` and inverse atom, the library facts it rests on (`exp_pos`,
  `exp_ineq1_le`, monotonicity, `exp_plus`, `sqrt_sqrt` with its sign proved, `exp_ln`, `Rinv_r` with its
  base proved non-zero), then closes the goal with
  `nra`/`lra` after splitting conjunctions and equivalences.
- `TextStatement`: a `Theorem` the kernel writes as text from a checked statement (`sums_statement`: a model
  statement for every n, d, H over every inner-product space, the model's quantities as `let`s).
The source starts with the prelude (`prelude.v`) inline, so each file compiles alone.

Trees (`headflow.certificates.kernel.exprtree`) become Coq text over the reals (R_scope) by one rule per node
(`exprtree.fold`, `translated`; a formula's connectives: `formula`), so that a reader can check it: `add` and `mul`
are `+` and `*`, `["pow", b, k]` is `b ^ k` for k >= 0 (Coq's `pow` with a natural exponent) and `/ (b ^ -k)` for k < 0,
`neg`, `sub`, `div` are `-`, `-`, `/`, `c_star` is the prelude's `c_star`, `golden`, `pi`, `e` their values,
`exp`, `log`, `sqrt` are Coq's `exp`, `ln`, `sqrt`, a rational `p/q` is the real `(p / q)`; in a formula,
`["is_derive", f, df]` (a convexity chain's, `registry_statements.chain`) is Coquelicot's `is_derive (fun u => f) u df`:
df is the derivative in u of f at the point u (the prelude imports Coquelicot). Coq's `ln`,
`sqrt` and `/` are total (they return 0 outside their domain), so the same walk lists what a statement
must also assert for every subterm to be defined (`translated`'s domain): `0 < x` under `ln`, `0 <= x` under `sqrt`,
`x <> 0` under a negative power or a `div`. `lambertw` and `lambda_c` (implicit) and the other named nodes have no
Coq term here: `NotTranslatable` names them, except `lambda_c` in a universal statement's goal or a point problem's
conditions, a bound root of the prelude's equation, and `lambertw` in a universal statement, a bound w of
`is_lambertw` (`bound_roots`, `binder`); an integer variable is a Z, written `IZR n`.
Symbol names become Coq identifiers unchanged when they are ones; any other name is refused, never escaped into text.
"""

import re
from fractions import Fraction
from functools import partial, reduce
from pathlib import Path
from typing import Any, NamedTuple

from ..exprtree import ARITY, RELATIONS, TreeError, expand, fold, node_parts, rational_text

PRELUDE = (Path(__file__).with_name("prelude.v")).read_text(encoding="ascii")

#: Names a symbol may not take: Coq keywords and the functions and notations the statements use.
_RESERVED = """as at cofix else end exists exists2 fix for forall fun if IF in let match mod Prop return Set then Type
using where with R Z nat exp ln sqrt Rabs PI IZR INR pow Rmax Rmin sin cos Rinv Rdiv Rminus Ropp Rplus Rmult c_star
proj I O S True False and or not iff Theorem Lemma Proof Qed Definition fun is_derive Derive"""
RESERVED = frozenset(_RESERVED.split())
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}\Z")
#: The roots a statement binds, by the texts of their arguments: lambda_c's equation's at (tokens, beta), the k-th
#: named `lambda_c'k`; Lambert W's at (z,), `lambertw'k` (the kind by the number of arguments, `ROOTS`).
Roots = list[tuple[str, ...]]
ROOTS = {2: "lambda_c", 1: "lambertw"}
#: `expr relation 0` of a point condition or a domain condition, as Coq text with 0 on the side Interval wants it.
SIGN_TEXT = {">": "0 < {}", ">=": "0 <= {}", "<": "{} < 0", "<=": "{} <= 0", "!=": "{} <> 0", "=": "{} = 0"}


class NotTranslatable(ValueError):
    """The tree uses a node with no Coq counterpart here; the message is the reason."""


def identifier(name: object) -> str:
    """The symbol's name as a Coq identifier (the same text), or NotTranslatable."""
    if not isinstance(name, str) or not _IDENTIFIER.match(name) or name in RESERVED:
        raise NotTranslatable(f"symbol name {str(name)[:40]!r} is not a plain Coq identifier")
    return name


def real(value: Fraction) -> str:
    """A rational as a Coq real literal, in parentheses unless a natural number (TreeError past the size of a recorded
    rational, `rational_text`)."""
    text = rational_text(value).replace("/", " / ")
    return text if value >= 0 and "/" not in text else f"({text})"


def translated(
    tree: Any, domain: dict[str, None], integers: Any = (), roots: Roots | None = None, applied: Any = ()
) -> str:
    """The Coq text of a term tree; each subterm's domain condition, innermost first, joins `domain` (an ordered set)
    unless it is there already (a statement gathers them over all its trees, each once). A symbol in `integers` is
    a Z variable (`IZR n`), one in `applied` a function of the slice's variable (`(name z_slice)`); with a list
    `roots`, `lambda_c(n, beta)` is the name `lambda_c'k` of the k-th root the statement binds (`bound_roots`), its
    arguments' texts appended (a name no symbol can take: `'` is in none)."""

    def defined(text: str, argument: str, relation: str) -> str:
        """`text`, the text of a node defined where its `argument` has `relation` to 0 (which joins `domain`)."""
        domain[SIGN_TEXT[relation].format(argument)] = None  # once, where it first joined
        return text

    def power(base: str, k: int) -> str:
        if abs(k) > 1000:
            raise NotTranslatable("exponent too large")
        return f"({base} ^ {k})" if k >= 0 else defined(f"(/ ({base} ^ {-k}))", base, "!=")

    rules = {op: partial(_untranslatable, op) for op in ARITY} | {"rat": real, "pow": power, "sub": "({} - {})".format}
    rules |= {"sym": partial(_symbol, integers, applied)}
    rules |= {op: partial(_untranslatable, op) if roots is None else partial(_root, roots) for op in ROOTS.values()}
    rules |= {"add": lambda *texts: f"({' + '.join(texts)})", "mul": lambda *texts: f"({' * '.join(texts)})"}
    rules |= {"neg": "(- {})".format, "exp": "(exp {})".format, "c_star": "(c_star {})".format}
    rules |= {"div": lambda a, b: defined(f"({a} / {b})", b, "!="), "log": lambda a: defined(f"(ln {a})", a, ">")}
    rules |= {"sqrt": lambda a: defined(f"(sqrt {a})", a, ">="), "golden": lambda: "((1 + sqrt 5) / 2)"}
    rules |= {"pi": lambda: "PI", "e": lambda: "(exp 1)", "cos": "(cos {})".format, "sin": "(sin {})".format}
    return fold(expanded(tree), rules)


def _symbol(integers: Any, applied: Any, name: str) -> str:
    if name in applied:
        return f"({identifier(name)} {SLICE})"
    return f"(IZR {identifier(name)})" if name in integers else identifier(name)


def expanded(tree: Any) -> Any:
    """The tree with `beta_star`, `rate` and `lambda_max` written out as their stored closed forms (`exprtree.expand`:
    the one meaning of each name) and each `rpow` as an exp of a log; the other named nodes have a Coq term of their
    own."""
    if not isinstance(tree, list) or tree[:1] in (["rat"], ["sym"]):
        return tree
    tree = [tree[0], *map(expanded, tree[1:])]
    if tree[0] == "rpow" and len(tree) == 3:  # b^q as exp(q ln b), defined where b > 0 (`real_encoding`'s reading)
        return ["exp", ["mul", tree[2], ["log", tree[1]]]]
    return expanded(expand(tree)) if tree[0] in ("beta_star", "rate", "lambda_max") else tree


def _root(roots: Roots, *arguments: str) -> str:
    """The name of the root a statement binds for lambda_c at (tokens, beta) or lambertw at its argument, the
    arguments free of roots (bound before them): a new one unless the statement names that root already."""
    if "'" in "".join(arguments):
        raise NotTranslatable("an implicit value (lambda_c, lambertw) of an expression that uses one")
    if arguments not in roots:
        roots.append(arguments)
    return f"{ROOTS[len(arguments)]}'{roots.index(arguments)}"


def _untranslatable(op: str, *parts: Any) -> str:
    raise NotTranslatable(f"no Coq term for the node {op!r} (lambertw, lambda_c: implicit, no term gives them)")


#: The Coq text between the operands of a connective (the connective's text is parenthesized; its operands need no
#: parentheses of their own: a relation (level 70) and `~` (75) bind tighter than any connective).
CONNECTIVES = {"and": " /\\ ", "or": " \\/ ", "implies": " -> ", "iff": " <-> "}


def formula(tree: Any, integers: Any = (), roots: Roots | None = None) -> str:
    """The Coq proposition of a formula tree (relations and connectives; `translated`'s `integers` and `roots`); its
    terms' domain conditions are not stated (its statement states them itself, or a proof's hypotheses do)."""
    op, args = node_parts(tree, 0)
    if op in RELATIONS and len(args) == 2:
        return f"{translated(args[0], {}, integers, roots)} {op} {translated(args[1], {}, integers, roots)}"
    if op in CONNECTIVES and (len(args) == 2 or (op in ("and", "or") and args)):
        return "(" + CONNECTIVES[op].join(formula(a, integers, roots) for a in args) + ")"
    if op == "is_derive" and len(args) == 2:  # Coquelicot's: the derivative in u of the first term is the second
        return "is_derive (fun u => {}) u {}".format(*(translated(a, {}, integers, roots) for a in args))
    if op == "not" and len(args) == 1:
        return f"~ ({formula(args[0], integers, roots)})"
    if op in ("true", "false") and not args:
        return op.capitalize()
    raise TreeError(f"unknown or malformed formula node {op!r}")


class PointProblem(NamedTuple):
    """Conditions (`name`, `expression` tree, `relation`, as a point payload holds them) at an exact point."""

    point: dict[str, Fraction]
    conditions: list[dict[str, Any]]
    #: Named subterms (name, tree) after the point, each over the point and the earlier names.
    definitions: tuple[tuple[str, Any], ...] = ()
    #: Operator norms (name, exact matrices P_k): the name is max_k |P_k|_op (0 for none), bound in the Theorem by
    #: the definition of each |P_k|_op (`opnorm_binders`); no definition names it.
    norms: tuple[tuple[str, tuple[Any, ...]], ...] = ()


#: The variable of a symmetry slice's chart: each definition of a `SliceProblem` is a function of it.
SLICE = "z_slice"


class SliceProblem(NamedTuple):
    """Conditions along a one-dimensional symmetry slice's chart, its variable `SLICE` in [low, high]: the named
    subterms (name, tree) each a function of it (the earlier names applied to it), `psi`'s sign change at the ends
    (psi(low) psi(high) < 0), and the `conditions` (as a point problem's) at every value in [low, high]."""

    low: Fraction
    high: Fraction
    psi: str
    conditions: list[dict[str, Any]]
    definitions: tuple[tuple[str, Any], ...]


class UniversalStatement(NamedTuple):
    """For all real `constants`: the hypotheses (formula trees) imply the goal (a formula tree)."""

    name: str
    constants: list[str]
    hypotheses: list[Any]
    goal: Any
    #: The constants that range over the integers (bound as Z after the real ones, written `IZR n`).
    integers: tuple[str, ...] = ()
    #: Proof data the kernel checked (an smt payload's Taylor cuts of exp): the proof restates them, the statement not.
    cuts: tuple[Any, ...] = ()


#: Statements, each its own Theorem.
UniversalProblem = list[UniversalStatement]


class TextStatement(NamedTuple):
    """A statement the kernel wrote as Coq text (`sums_statement`: a `sums` certificate's model statement), with the
    checked data it was written from: its core statement and payload, which the proof follows."""

    text: str
    statement: dict[str, Any]
    payload: dict[str, Any]


Problem = PointProblem | SliceProblem | UniversalProblem | TextStatement


def theorem_name(text: str) -> str:
    """A Coq identifier from a claim id or statement name (letters, digits, underscores)."""
    return "claim_" + re.sub(r"[^A-Za-z0-9]", "_", text)[:80]


def comment(text: str) -> str:
    """Text inside a Coq comment, with the comment delimiters and string quotes removed (claim text is untrusted;
    Coq reads a string inside a comment as a string, so a lone quote would carry the comment past its end)."""
    return re.sub(r"[^ -~]", "?", text.replace("(*", "( *").replace("*)", "* )").replace('"', "'"))[:300]


def header(title: str, claim_id: str, sentence: str) -> str:
    """The file's opening comment (certificate, claim, what it proves) and the prelude's definitions."""
    claim = f"headflow certificate {comment(title)}: claim {comment(claim_id)}"
    return f"(* {claim} *)\n(* {comment(sentence)} *)\n{PRELUDE}"


def statements(claim_id: str, problem: Problem) -> list[tuple[str, str]]:
    """Every sentence the file must hold verbatim, what it states, as (the name it defines or proves, its text): for a
    point problem each coordinate and named subterm as a `Definition`, then the `Theorem` (every definedness condition
    of every expression, `translated`, and every condition, in the obligation's order); for a universal one
    each statement's `Theorem`, `forall constants : R, hypotheses -> goal`."""
    if isinstance(problem, list):
        return [(theorem_name(s.name), _universal(s)) for s in problem]
    if isinstance(problem, TextStatement):
        return [(theorem_name(claim_id), problem.text)]
    if isinstance(problem, SliceProblem):
        return _slice(claim_id, problem)
    conjuncts: dict[str, None] = {}  # every definedness condition, each once, in the order the trees need them
    values = [(n, real(v)) for n, v in problem.point.items()]
    values += [(n, translated(t, conjuncts)) for n, t in problem.definitions]
    defined = [(identifier(n), f"Definition {identifier(n)} : R := {text}.") for n, text in values]
    roots: Roots = []  # each lambda_c of a condition, bound over every conjunct (`bound_roots`)
    for condition in problem.conditions:
        text = translated(condition["expression"], conjuncts, (), roots)
        conjuncts[f"(* {comment(condition['name'])} *) {SIGN_TEXT[condition['relation']].format(text)}"] = None
    if not conjuncts:
        raise NotTranslatable("the point witness has no conditions")
    statement = opnorm_binders(problem.norms) + bound_roots(roots, " /\\\n  ".join(conjuncts), exists=True)
    return [*defined, (theorem_name(claim_id), f"Theorem {theorem_name(claim_id)} :\n  {statement}.")]


def _slice(claim_id: str, problem: SliceProblem) -> list[tuple[str, str]]:
    """Each named subterm as a `Definition` of a function of `SLICE`, then the `Theorem`: psi(low) psi(high) < 0, and
    for every `SLICE` in [low, high] every definedness condition and every condition."""
    conjuncts: dict[str, None] = {}
    names, (low, high) = {name for name, _ in problem.definitions}, map(real, (problem.low, problem.high))
    defined = [
        (identifier(n), f"Definition {identifier(n)} ({SLICE} : R) : R := {translated(t, conjuncts, applied=names)}.")
        for n, t in problem.definitions
    ]
    for condition in problem.conditions:
        text = translated(condition["expression"], conjuncts, applied=names)
        conjuncts[f"(* {comment(condition['name'])} *) {SIGN_TEXT[condition['relation']].format(text)}"] = None
    psi, every = identifier(problem.psi), " /\\\n  ".join(conjuncts)
    statement = f"{psi} {low} * {psi} {high} < 0 /\\\n  forall {SLICE} : R, {low} <= {SLICE} <= {high} ->\n  {every}"
    return [*defined, (theorem_name(claim_id), f"Theorem {theorem_name(claim_id)} :\n  {statement}.")]


def opnorm_binders(norms: tuple[tuple[str, tuple[Any, ...]], ...]) -> str:
    """`forall s : R, 0 <= s /\\ B s /\\ (forall b : R, 0 <= b -> B b -> s <= b) ->` for each matrix P_k of each norm
    (B b: |P v|^2 <= b^2 |v|^2 for every v; so s is the least such b, |P_k|_op: the definition, which the theorem
    assumes and every matrix meets), then `forall name : R, name = Rmax (...) ->` the largest of them (0 for none)."""
    text = ""
    for name, matrices in norms:
        parts = [f"{identifier(name)}'{k}" for k in range(len(matrices))]
        for part, matrix in zip(parts, matrices, strict=True):
            v = [f"v{j}" for j in range(len(matrix[0]))]
            image = " + ".join(
                "(" + " + ".join(f"{real(p)} * {x}" for p, x in zip(row, v, strict=True)) + ") ^ 2" for row in matrix
            )
            norm = " + ".join(f"{x} ^ 2" for x in v)
            bound = f"(forall {' '.join(v)} : R, {image} <= {{0}} ^ 2 * ({norm}))"
            text += f"forall {part} : R, 0 <= {part} /\\ {bound.format(part)} /\\\n  "
            text += f"(forall b : R, 0 <= b -> {bound.format('b')} -> {part} <= b) ->\n  "
        largest = reduce(lambda a, b: f"(Rmax {a} {b})", parts) if parts else "0"
        text += f"forall {identifier(name)} : R, {identifier(name)} = {largest} ->\n  "
    return text


def binders(statement: UniversalStatement) -> list[tuple[list[str], str]]:
    """The statement's constants as Coq binders: (the real ones, "R"), then (the integer ones, "Z"), each if any."""
    names = [identifier(name) for name in statement.constants]
    groups = {kind: [n for n in names if (n in statement.integers) == (kind == "Z")] for kind in ("R", "Z")}
    return [(group, kind) for kind, group in groups.items() if group]


def _universal(statement: UniversalStatement) -> str:
    """The `Theorem` of a universal statement: `forall constants : R, hypotheses -> goal`; each lambertw of the
    hypotheses (a bound) or the goal a w bound before the hypotheses, `forall w : R, is_lambertw z w ->` (`binder`);
    each lambda_c of the goal a root bound after its arguments' conditions, `(0 < n - 1 and 0 < beta) and forall r :
    R, is_lambda_c n beta r -> goal` (for n > 1, beta > 0 the root exists and is unique: the prelude's equation, the
    kernel's SMT encoding)."""
    quantified = "".join(f"forall {' '.join(names)} : {kind},\n  " for names, kind in binders(statement))
    roots: Roots = []
    shown = ""
    for hypothesis in statement.hypotheses:  # a lambda_c root a hypothesis names is bound just before it
        before, text = len(roots), formula(hypothesis, statement.integers, roots)
        shown += "".join(binder(k, roots[k]) for k in range(before, len(roots)) if len(roots[k]) == 2)
        shown += f"{text} ->\n  "
    bound = len(roots)
    goal = bound_roots(roots, formula(statement.goal, statement.integers, roots), first=bound)
    early = "".join(binder(k, root) for k, root in enumerate(roots) if len(root) == 1)
    return f"Theorem {theorem_name(statement.name)} :\n  {quantified}{early}{shown}{goal}."


def binder(k: int, root: tuple[str, ...]) -> str:
    """`forall lambda_c'k : R, is_lambda_c n beta lambda_c'k ->` (`lambertw'k`, `is_lambertw z`) for the k-th root."""
    return "forall {0}'{1} : R, is_{0} {2} {0}'{1} ->\n  ".format(ROOTS[len(root)], k, " ".join(root))


def bound_roots(roots: Roots, goal: str, exists: bool = False, first: int = 0) -> str:
    """`goal` with the lambda_c roots (n, beta) it names bound: `(0 < n - 1 and 0 < beta) and forall r : R,
    is_lambda_c n beta r -> goal` (for n > 1, beta > 0 the root exists and is unique: the prelude's equation, the
    kernel's SMT encoding and its enclosure `lambda_c.enclose`), with `exists` also `exists r' : R, is_lambda_c n beta
    r'` among the guards (a point's roots, whose existence Coq proves: the theorem is then not vacuous); `goal`
    unchanged without them; the roots before `first` are bound already (a hypothesis's: `forall r : R, is_lambda_c n
    beta r ->` just before the hypothesis that names it, no guard: the root exists where the domain has a point). A
    lambertw root is the caller's to bind (`binder`: a w with w >= -1 and w e^w = z; W(z) is one, so the theorem holds
    at W(z), and z >= -1/e, where W(z) is defined, is the kernel's check), never at a point."""
    if exists and any(len(root) == 1 for root in roots):
        raise NotTranslatable("lambertw at a point: no bracket of W's value is written yet")
    found = [(k, root) for k, root in enumerate(roots) if len(root) == 2 and k >= first]
    if not found:
        return goal
    exist = " /\\ (exists r' : R, is_lambda_c {} {} r')" if exists else ""
    guards = " /\\ ".join(f"0 < {n} - 1 /\\ 0 < {b}" + exist.format(n, b) for _, (n, b) in found)
    return f"({guards}) /\\\n  ({''.join(binder(k, root) for k, root in found)}{goal})"


def guard(title: str, claim_id: str, sentence: str, problem: Problem) -> dict[str, Any]:
    """What `run.compile_source` holds a certificate's Coq file to (its keyword arguments): `theorems`, the theorems
    whose `Print Assumptions` may show Coq's standard axioms only, and `statement`, the kernel's statement compiled
    alone (its header, every `Definition`, each `Theorem` `Admitted`) with the queries whose answers coqc must give
    alike after it and after the certificate's file: each theorem's type (`Check`), each definition (`Print`) and what
    every name and notation symbol they use stands for (`Locate`: a name the proof shadows, by a lemma or a module, or
    a notation it redefines answers differently even where the printing reads the same)."""
    stated = statements(claim_id, problem)
    theorems = [name for name, text in stated if text.startswith("Theorem ")]
    file = header(title, claim_id, sentence) + "".join(f"{t}\n" + "Admitted.\n" * (n in theorems) for n, t in stated)
    words = " ".join(sentences(" ".join(text for _, text in stated)))
    names = sorted(set(_NAME.findall(words)) - _KEYWORDS) + [f'"{s}"' for s in sorted(set(_SYMBOL.findall(words)))]
    queries = [f"{'Check' if name in theorems else 'Print'} {name}." for name, _ in stated]
    return {"theorems": theorems, "statement": (file, queries + [f"Locate {name}." for name in names])}


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")
_SYMBOL = re.compile(r"[^\sA-Za-z0-9_'()]+")
#: Words of the statements' text that are Coq's keywords, not names.
_KEYWORDS = {"Definition", "Theorem", "forall", "exists", "fun", "let", "in"}
#: A tactic sentence: bullets, a goal selector, then a tactic's name, which starts lowercase (every vernacular
#: command starts with a capital or `#[`).
_TACTIC = re.compile(r"([-+*{}]\s*)*((all|[0-9]+)\s*:\s*)?[a-z]")
#: What Coq's lexer tells apart for sentences: comment brackets, a string (to its closing quote, if any), other text.
_LEXEMES = re.compile(r'\(\*|\*\)|"[^"]*"?|[^(*"]+|.', re.DOTALL)
_LEMMA = re.compile(r"Lemma ([A-Za-z_][A-Za-z0-9_']*) :.*|Opaque( [A-Za-z_][A-Za-z0-9_']*)+")


def sentences(text: str) -> list[str]:
    """Coq's sentences of `text` (each without its final period, blanks collapsed), comments removed as Coq's lexer
    removes them (nested, a string inside a comment read as a string); NotStated for a string outside a comment, a
    comment left open, or a period a comment follows at once (Coq reads no sentence end there)."""
    kept: list[str] = []
    depth = 0
    for token in _LEXEMES.findall(text):
        if token == "(*":
            if not depth and kept and kept[-1].endswith("."):
                raise NotStated("a period directly before a comment")
            depth += 1
            kept.append(" ")
        elif token == "*)" and depth:
            depth -= 1
        elif token[0] == '"' and (not depth or token.count('"') < 2):
            raise NotStated("a string in the proof, or one left open in a comment")
        elif not depth:
            kept.append(token)
    if depth:
        raise NotStated("a comment left open")
    return [" ".join(part.split()) for part in re.split(r"\.(?=\s|$)", "".join(kept)) if part.strip()]


def require_stated(text: str, title: str, claim_id: str, sentence: str, problem: Problem) -> None:
    """NotStated unless the Coq file is the kernel's header, then the kernel's statement sentences (comments aside),
    in order and once each, with only proofs around them. Outside a proof only a statement sentence, a `Lemma` whose
    name the statements do not use, or `Opaque` may stand; each theorem or lemma is followed by `Proof.`, tactic
    sentences and `Qed.`. Anything else (an axiom, `Admitted`, an option, an attribute, a notation, a definition,
    a module, a `Require`, a printing command) could change what the statement means or what coqc checks."""
    opening = header(title, claim_id, sentence)
    if not text.startswith(opening):
        raise NotStated("the file does not open with the kernel's header and prelude")
    stated = sentences(" ".join(f"{t}\n" for _, t in statements(claim_id, problem)))
    names = set(_NAME.findall(" ".join(stated)))
    found: list[str] = []
    state = "outside"
    for part in sentences(text[len(opening) :]):
        lemma = _LEMMA.fullmatch(part)
        if state == "proof" and part != "Qed" and not _TACTIC.match(part):
            raise NotStated(f"the proof uses {part[:60]!r}, which a certificate's proof may not")
        if state == "opened" and part != "Proof":
            raise NotStated(f"a theorem is followed by {part[:60]!r}, not by Proof.")
        if state == "outside" and part not in stated and not (lemma and lemma.group(1) not in names):
            raise NotStated(f"the file states {part[:60]!r}: not the kernel's statement, a new lemma or Opaque")
        found += [part] * (state == "outside" and part in stated)
        opens = state == "outside" and part.startswith(("Theorem ", "Lemma "))
        state = "opened" if opens else "proof" if state == "opened" else "outside" if part == "Qed" else state
    if found != stated or state != "outside":
        raise NotStated("the file does not state the kernel's statements once each, in order, every proof closed")


class NotStated(ValueError):
    """A Coq file that does not state exactly the kernel's statement (or whose proof could change it)."""
