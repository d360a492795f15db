"""The whole Coq file of a certificate: the kernel's statement (`certificates.kernel.coq.statements`) and its proof.

Nothing here is trusted: the statement comes from the kernel, written from the claim's obligation, and coqc checks
every proof written here. A point problem's proof bounds each named definition by a lemma proved by `interval` on its
own short term (hints from `enclosures`, re-proved by coqc), makes it `Opaque`, and closes every conjunct with
`interval` (bisection-free: the point is exact). A universal statement's proof puts the library facts of every
`exp`, `sqrt`, `ln` and inverse atom among the hypotheses (`exp_pos`, `exp_ineq1_le`, monotonicity, `exp_plus`,
`sqrt_sqrt` with its sign proved, `exp_ln`, `Rinv_r` with its base proved non-zero), then closes the goal with
`nra`/`lra` after splitting conjunctions and equivalences, or uses a hand proof (`proofs.PROOFS`). A `sums`
statement (a model statement for every n, d, H) is proved node by node (`sums`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp
from headflow.certificates.coq import (
    circle,
    convexity,
    cuts,
    enclosures,
    exit_gap,
    factored,
    logs,
    norms,
    past_root,
    reduced_time,
    roots,
    sums,
)
from headflow.certificates.coq import lambertw as lambertw_facts
from headflow.certificates.coq.covers import cover_proof
from headflow.certificates.coq.proofs import PROOFS
from headflow.certificates.kernel import exprtree
from headflow.certificates.kernel.coq.statements import (
    SLICE,
    PointProblem,
    Problem,
    SliceProblem,
    TextStatement,
    UniversalStatement,
    binders,
    expanded,
    formula,
    header,
    identifier,
    real,
    statements,
    translated,
)

#: The proof of a universal statement without a hand proof: a product, sum or quotient of factors each positive by
#: lra (`hf_positive`: an equiangular certificate's pull), else `field` with its denominators shown non-zero by nra (an
#: identity of rational functions: its rate), else (where SymPy proposes one) the signs of each relation's factors
#: (`factored`: a product of three defeats nra, whose failing search may take a minute), else the atoms' facts and
#: lra/nra, else `interval` (a strict sign), or each conjunct by lra or `interval` (a point in a domain bounded by
#: closed forms: beta <= beta*(2, n, 1) at n = 3).
FALLBACK = (
    "hf_positive | solve [ field; repeat split; intro; nra ]",
    "hf_decide | interval with (i_prec 256) | solve [ repeat split; first [ lra | interval with (i_prec 256) ] ]",
)
#: Bits of working precision `interval` uses beyond the certificate's ball precision.
EXTRA_BITS = 16
#: The ball precision of the provers' point witnesses (their payload's `prec`), for a file written without one.
WITNESS_BITS = 64


def source(
    title: str,
    claim_id: str,
    sentence: str,
    problem: Problem,
    prec: int = WITNESS_BITS,
    cover: tuple[dict[str, Any], dict[str, Any]] | None = None,
    bracket: str | None = None,
) -> str:
    """The whole Coq file: a header naming the certificate, the prelude, the statement and its proof (a point
    problem's `interval` calls work at the ball precision `prec` its conditions were settled at, plus EXTRA_BITS;
    an interval-cover certificate's (`cover`: its core statement and payload) follows the cover, `covers`; a convexity
    chain's its own, `convexity`; a `reduced-time` certificate's (`bracket`: its attention) the bracket's lemmas,
    `reduced_time`, and an `exit-gap` certificate's (`bracket`: `exit-gap`) its own, `exit_gap`)."""
    if isinstance(problem, PointProblem):
        body = _point(claim_id, problem, prec)
    elif isinstance(problem, SliceProblem):
        body = _slice(claim_id, problem, prec)
    elif isinstance(problem, TextStatement):
        body = sums.body(claim_id, problem)
    elif cover is not None:
        (universal,) = problem
        lemmas, proof = cover_proof(cover[0], universal, cover[1])
        body = f"{lemmas}\n{statements(claim_id, problem)[0][1]}\nProof.\n{proof}\nQed.\n"
    elif convexity.is_chain(problem):
        body = convexity.body(claim_id, problem)
    else:
        texts = [text for _, text in statements(claim_id, problem)]
        offsets = [sum(len(s.cuts) for s in problem[:k]) for k in range(len(problem))]
        lemmas = cuts.lemmas([c for s in problem for c in s.cuts])
        lemmas += circle.LEMMAS if any(circle.proof(s) for s in problem) else ""
        hand = exit_gap if bracket == exit_gap.FORM else reduced_time if bracket else None
        bracket_lemmas = hand.lemmas(bracket) if hand else ""
        if "hf_exp_le" in bracket_lemmas and "Lemma hf_exp_le" not in lemmas:  # the factor's lemma uses it
            lemmas += cuts.POWER
        lemmas += bracket_lemmas
        written = [hand.proof(s, bracket) if hand else None for s in problem]
        proofs = "\n".join(
            f"{text}\nProof.\n{own}\nQed.\n" if own else _universal(s, text, first)
            for s, text, first, own in zip(problem, texts, offsets, written, strict=True)
        )
        lemmas += (
            reduced_time.ORDER_LEMMAS if any(f"hf_{e}_end" in proofs for e in ("order", "infinite", "sqrt")) else ""
        )
        lemmas += past_root.LEMMAS if "hf_past_root" in proofs else ""
        lemmas += logs.LEMMAS if "hf_ln_sqrt" in proofs else ""
        lemmas += lambertw_facts.LEMMAS if "hf_lambertw_same" in proofs else ""
        if ("hf_exp_pow" in proofs or "hf_product_" in proofs) and "hf_exp_pow" not in lemmas:  # powers, products
            lemmas += cuts.POWER
        body = lemmas + proofs
    return header(title, claim_id, sentence) + "\n" + body


# ---------------------------------------------------------------- points


#: exp(b) replaced by exp(a) wherever `field` shows a = b (arguments equal as numbers, written differently), so that
#: `field` sees one atom: an exact zero X - X of two sides written apart.
SAME_EXPONENTIALS = (
    "repeat match goal with |- context [exp ?a] => match goal with |- context [exp ?b] => "
    "assert_fails (constr_eq a b); replace (exp b) with (exp a) by (f_equal; field) end end"
)


def _point(claim_id: str, problem: PointProblem, ball_bits: int) -> str:
    *defined, (_, theorem) = statements(claim_id, problem)
    names = [identifier(name) for name in problem.point]
    bounds = enclosures.hints(problem.point, problem.definitions) if problem.definitions else []
    lemmas = {
        identifier(name): _bound_lemma(name, tree, hint, names)
        for (name, tree), hint in zip(problem.definitions, bounds, strict=True)
    }
    exact = any(c["relation"] == "=" for c in problem.conditions)
    lines = [line for name, text in defined for line in (text, lemmas.get(name)) if line]
    defined = [identifier(name) for name, _ in problem.definitions]
    prec = max(ball_bits + EXTRA_BITS, enclosures.COQ_BITS if defined else 0)
    nonzero = f"apply nonzero_of_abs; interval with (i_prec {prec})"
    tactics = [f"interval with (i_prec {prec})", nonzero]
    if exact:  # an equation (a zero velocity, a pinned value): every name unfolded (one pass), lra, ring or field
        unfold = f"cbv delta [{' '.join(defined)}]; " if defined else ""
        tactics.append(f"{unfold}first [ lra | ring | field; repeat split; {nonzero} ]")
    if any(c["relation"] in (">=", "<=") for c in problem.conditions):  # a sign met by an exact 0 (equal sides)
        tactics.append(f"apply Req_le; {SAME_EXPONENTIALS}; field; repeat split; {nonzero}")
    close = f"first [ {' | '.join(tactics)} ]"
    named = names + (["c_star"] if uses_c_star([c["expression"] for c in problem.conditions]) else [])
    unfold = f"  unfold {', '.join(named)}.\n" if named else ""
    facts = "".join(f"  pose proof {name}_bounds.\n" for name in defined)
    root_lemmas, opening = roots.proof(problem, f"unfold {', '.join(named)}; " if named else "", prec)
    bracketed = "".join(f"{line}\n" for line in opening)  # the guards, then each lambda_c root bounded
    lines += [root_lemmas, theorem] if root_lemmas else [theorem]
    bounded = "".join(f"{line}\n" for line in norms.proof_lines(problem.norms))  # the operator norms' bounds
    lines.append(f"Proof.\n{bounded}{facts}{bracketed}{unfold}  repeat split.\n  all: {close}.\nQed.")
    return "\n".join(lines) + "\n"


def _bound_lemma(name: str, tree: Any, hint: tuple[Fraction, Fraction], point: list[str]) -> str:
    """`lo <= name <= hi`, proved by `interval` on the definition's own term, the earlier names as bounded atoms."""
    used = sorted(exprtree.symbols(tree))
    facts = "".join(f" pose proof {identifier(u)}_bounds." for u in used if u not in point)
    unfold = ", ".join([identifier(name)] + [u for u in used if u in point])
    low, high = real(hint[0]), real(hint[1])
    return (
        f"Lemma {identifier(name)}_bounds : {low} <= {identifier(name)} <= {high}.\n"
        f"Proof.{facts} unfold {unfold}. interval with (i_prec {enclosures.COQ_BITS}). Qed.\n"
        f"Opaque {identifier(name)}."
    )


def _slice(claim_id: str, problem: SliceProblem, ball_bits: int) -> str:
    """Each definition bounded over the box (`forall z_slice` in it) and, where psi needs it, at each end, by `interval`
    on its own term (hints from `enclosures`), then `Opaque`; the sign change by `interval` from psi's bounds at the
    ends, the box's conditions from every definition's bounds over it."""
    *defined, (_, theorem) = statements(claim_id, problem)
    trees = dict(problem.definitions)
    needed, stack = set(), [problem.psi]  # what psi's value at an end rests on
    while stack:
        needed |= {name := stack.pop()}
        stack += [u for u in exprtree.symbols(trees[name]) if u in trees and u not in needed]
    ends = [d for d in problem.definitions if d[0] in needed]
    box = dict(zip(trees, enclosures.hints({SLICE: (problem.low, problem.high)}, problem.definitions), strict=True))
    at = [dict(zip(dict(ends), enclosures.hints({SLICE: v}, ends), strict=True)) for v in (problem.low, problem.high)]
    lemmas = {}
    for name, tree in problem.definitions:
        used = [identifier(u) for u in sorted(exprtree.symbols(tree)) if u in trees]
        low, high = real(box[name][0]), real(box[name][1])
        facts = "".join(f" pose proof ({u}_bounds {SLICE} H)." for u in used)
        text = [
            f"Lemma {identifier(name)}_bounds : forall {SLICE} : R, {real(problem.low)} <= {SLICE} <= "
            f"{real(problem.high)} -> {low} <= {identifier(name)} {SLICE} <= {high}.\n"
            f"Proof. intros {SLICE} H.{facts} cbv beta delta [{identifier(name)}]. "
            f"interval with (i_prec {enclosures.COQ_BITS}). Qed."
        ]
        for end, (value, hint) in zip(("low", "high"), ((problem.low, at[0]), (problem.high, at[1])), strict=True):
            if name in hint:
                facts = "".join(f" pose proof {u}_{end}." for u in used)
                text.append(
                    f"Lemma {identifier(name)}_{end} : {real(hint[name][0])} <= {identifier(name)} {real(value)} <= "
                    f"{real(hint[name][1])}.\nProof.{facts} cbv beta delta [{identifier(name)}]. "
                    f"interval with (i_prec {enclosures.COQ_BITS}). Qed."
                )
        lemmas[identifier(name)] = "\n".join([*text, f"Opaque {identifier(name)}."])
    lines = [line for name, text in defined for line in (text, lemmas.get(name)) if line]
    prec = max(ball_bits + EXTRA_BITS, enclosures.COQ_BITS)
    psi, facts = identifier(problem.psi), "".join(f" pose proof ({identifier(n)}_bounds {SLICE} H)." for n in trees)
    close = f"first [ interval with (i_prec {prec}) | apply nonzero_of_abs; interval with (i_prec {prec}) ]"
    lines += [
        theorem,
        f"Proof.\n  split.\n  - pose proof {psi}_low. pose proof {psi}_high. interval with (i_prec {prec}).\n"
        f"  - intros {SLICE} H.{facts}\n    repeat split.\n    all: {close}.\nQed.",
    ]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- universal statements


def _universal(statement: UniversalStatement, text: str, first_cut: int = 0) -> str:
    """The statement's Theorem (`text`, the kernel's) and its proof: after the intros, the guards of each lambda_c
    root proved and the roots' equations introduced (`exp (r * beta)` is then an atom), every atom's facts and the
    cuts' lemmas (numbered from `first_cut` in the file) posed at every exponential atom."""
    if (trigonometric := circle.proof(statement)) is not None:
        return f"{text}\nProof.\n{trigonometric}\nQed.\n"
    names = [name for group, _ in binders(statement) for name in group]
    roots: list[tuple[str, ...]] = []
    labels, named = [], []  # each hypothesis, after the lambda_c roots it names (bound just before it)
    for k, tree in enumerate(statement.hypotheses):  # the roots in the order the statement binds them
        before = len(roots)
        formula(tree, statement.integers, roots)
        new = [r for r in range(before, len(roots)) if len(roots[r]) == 2]
        labels += [f"lambda_c'{r} (hr{r}b & hr{r}u & hr{r}e)" for r in new] + [f"h{k}"]
        named.append(new[0] if len(new) == 1 else -1)
    bound = len(roots)
    formula(statement.goal, statement.integers, roots)
    lambertw = [k for k, root in enumerate(roots) if len(root) == 1]  # w with w e^w = z, before the hypotheses
    intros = " ".join(names + [f"lambertw'{k} [hw{k}l hw{k}e]" for k in lambertw] + labels)
    opened = [
        f"  intros lambda_c'{k} (hr{k}b & hr{k}u & hr{k}e)." for k in range(bound, len(roots)) if k not in lambertw
    ]
    if opened:
        opened.insert(0, "  split; [ hf_decide | ].")
    atoms = [f"lambertw'{k}" if k in lambertw else f"(lambda_c'{k} * {root[1]})" for k, root in enumerate(roots)]
    trees: dict[str, Any] = {}
    formulas = [*statement.hypotheses, statement.goal]
    facts, exps = _atom_facts(formulas, statement.integers, atoms, trees, roots)
    if lambertw:
        lean = _lean(formulas, statement.integers, roots, facts, exps, list(statement.cuts))
        return text + "\nProof.\n" + "\n".join([f"  intros {intros}.", *opened, *lean]) + "\nQed.\n"

    exponents = tuple(trees[e] for e in exps if e in trees)  # each exponential's atom, as the facts rewrite them
    factoring = factored.Factoring(statement, exponents)  # its atoms and a domain point, for the goal and every cut

    def premise(a: str, b: str, q: int, p: int) -> str | None:
        return factoring.premise(trees[a], trees[b], q, p) if a in trees and b in trees else None

    taylor, pairs = cuts.facts(list(statement.cuts), exps, first_cut, premise)
    past = past_root.facts(list(statement.hypotheses), roots, named, statement.integers)
    split = logs.splits([tree for tree in trees.values() if tree[0] == "log"], statement.integers, roots)
    proof = [f"  intros {intros}." if intros else "", *opened, *past, *facts, *split, *taylor]
    by_factors = factoring.proof() if statement.name not in PROOFS and len(roots) == bound else None
    tactics = " | ".join([FALLBACK[0], *([by_factors] if by_factors else []), FALLBACK[1]])
    closing = cuts.closing(list(statement.cuts), exps, f"first [ {tactics} ]")
    if split and pairs:  # the split logarithms first, without the pairs' facts (nra's search grows with each)
        joined = "; ".join(line.strip().rstrip(".") for line in pairs)
        alone = closing.strip().rstrip(".")
        closing = f"  first [ solve [ {alone} ] | ({joined}; {alone}) ]."
    else:
        proof += pairs
    proof.append(PROOFS.get(statement.name, closing))
    return text + "\nProof.\n" + "\n".join(line for line in proof if line) + "\nQed.\n"


#: Each conjunct of a statement that binds Lambert W values (`_lean`): linear or nonlinear arithmetic, a term < 0 * b
#: as a product of positive factors, an identity by `field`, or by nra once the denominators are cleared
#: (`field_simplify_eq`: 2 w / (beta (n - 1)) against w e^w e = n - 1), or b (x / b) as x (beta ((1 + w) / beta)) and
#: then nra with w e^w e = X.
LEAN = (
    "lra | intro; lra | nra | intro; nra | (rewrite Rmult_0_l; apply Ropp_lt_cancel; rewrite Ropp_0; ring_simplify; "
    "repeat apply Rmult_lt_0_compat; first [ lra | nra ]) "
    "| solve [ field; repeat match goal with |- _ /\\ _ => split end; intro; nra ] "
    "| solve [ field_simplify_eq; [ nra | repeat match goal with |- _ /\\ _ => split end; intro; nra ] ] "
    "| ((repeat match goal with |- context [?b * (?x / ?b)] => replace (b * (x / b)) with x by (field; lra) end); nra)"
)


def _lean(
    formulas: list[Any],
    integers: Any,
    roots: list[tuple[str, ...]],
    facts: list[str],
    exps: list[str],
    certified: list[dict[str, Any]],
) -> list[str]:
    """The proof lines of a statement that binds Lambert W values: each exponential atom's sign and each inverse's
    facts only (with every atom's and pair's facts, ~100 hypotheses, lra and nra do not finish on these goals),
    e^(1 + w) as e^1 e^w wherever an exponent is 1 + w (the product cut's fact), w e^w e = X where z = X / e, then
    each conjunct by `LEAN`; where the certificate's cuts order products (`certified`), a strict x < y also by
    contradiction: from y <= x, one product of atoms it orders at a time, then nra (1 + W((n - 1)/e) < lambda_c(n, 1):
    from lambda_c <= 1 + w, e^lambda_c <= e e^w, against both equations; 4 s, where all the products at once take nra
    46 s, and their premises by nra as many again)."""
    lambertw = [k for k, root in enumerate(roots) if len(root) == 1]
    lines = [f"  pose proof (exp_pos {a})." for a in exps]
    lines += [f for f in facts if f.startswith("  hf_inverse_facts")]
    joined = "in * by (rewrite <- exp_plus; f_equal; field; lra)"
    lines += [f"  try (replace (exp {a}) with (exp 1 * exp lambertw'{k}) {joined})." for k in lambertw for a in exps]
    quotients: dict[str, str] = {}

    def walk(node: Any) -> None:  # z = X / e, by the text the statement gives z: X's text
        if isinstance(node, list) and node and node[0] not in ("rat", "sym"):
            if node[0] == "lambertw" and isinstance(node[1], list) and node[1][0] == "div" and node[1][2] == ["e"]:
                quotients[translated(node[1], {}, integers)] = translated(node[1][1], {}, integers)
            for child in node[1:2] if node[0] == "pow" else node[1:]:
                walk(child)

    for tree in formulas:
        walk(expanded(tree))
    for k in [k for k in lambertw if roots[k][0] in quotients]:
        z, shown = roots[k][0], quotients[roots[k][0]]
        fact, nonzero = f"pose proof (f_equal (Rmult (exp 1)) hw{k}e) as hs{k}", "apply Rgt_not_eq, exp_pos"
        lines.append(f"  try ({fact}; replace (exp 1 * {z}) with {shown} in hs{k} by (field; {nonzero})).")
    one = lambertw_facts.same(lambertw)  # two W values of equal arguments made one, where LEAN alone fails
    closers = [LEAN, *([f"({one}; first [ {LEAN} ])"] if one else [])]
    if cuts.multiplied(certified, exps):  # x < y from y <= x: one product fact it orders (e^l <= e^1 e^w), then nra
        each = " | ".join(f"({fact}; nra)" for fact in cuts.product_tactics(exps, "lra"))
        closers.insert(0, f"(apply Rnot_le_lt; intro; first [ {each} ])")  # first: LEAN's nra fails slowly (48 s)
    return [*lines, "  repeat match goal with |- _ /\\ _ => split end.", f"  all: first [ {' | '.join(closers)} ]."]


def _atom_facts(
    formulas: list[Any],
    integers: Any = (),
    roots: list[str] | None = None,
    trees: dict[str, Any] | None = None,
    bound: list[tuple[str, ...]] | None = None,
) -> tuple[list[str], list[str]]:
    """(proof lines that put the library facts of every exp, sqrt and ln atom among the hypotheses, the exponential
    atoms' arguments: the formulas' own, then `roots`, the exponents of the roots the statement binds, `bound`: their
    names in the terms); `trees` gets the tree of each argument the formulas give."""
    trees = {} if trees is None else trees
    exps: list[str] = []
    sqrts: list[str] = []
    logs: list[str] = []
    inverses: list[str] = []
    logs_trees: dict[str, Any] = {}

    def _term(tree: Any) -> str:
        return translated(tree, {}, integers, None if bound is None else list(bound))

    def walk(node: Any) -> None:
        if not isinstance(node, list) or not node or node[0] in ("rat", "sym", "lambda_c"):
            return
        for child in node[1:2] if node[0] == "pow" else node[1:]:
            walk(child)
        if node[0] == "exp":
            exps.append(_term(node[1]))
            trees[exps[-1]] = node[1]
        elif node[0] == "sqrt":
            sqrts.append(_term(node[1]))
        elif node[0] == "log":
            logs.append(_term(node[1]))
            logs_trees[logs[-1]] = node[1]
        elif node[0] == "c_star":
            sqrts.append(f"(({_term(node[1])} - 1) ^ 2 + 4)")
        elif node[0] == "golden":  # (1 + sqrt 5) / 2
            sqrts.append("5")
        elif node[0] == "div":
            inverses.append(_term(node[2]))
        elif node[0] == "pow" and isinstance(node[2], int) and node[2] < 0:
            inverses.append(_term(["pow", node[1], -node[2]]))

    for f in formulas:
        walk(expanded(f))  # the named closed forms as the statement writes them out
    exps += roots or []
    exps, sqrts, logs, inverses = (list(dict.fromkeys(x)) for x in (exps, sqrts, logs, inverses))
    unfold = ["  unfold c_star in *."] if uses_c_star(formulas) else []
    lines = list(unfold)
    for a in logs:
        lines.append(f"  hf_log_facts {a}.")
        exps.append(f"(ln {a})")
        trees[exps[-1]] = ["log", logs_trees[a]]
    for a in sqrts:
        lines.append(f"  hf_sqrt_facts {a}.")
    for a in exps:
        lines.append(f"  hf_exp_facts {a}.")
    for i, a in enumerate(exps):
        for b in exps[i + 1 :]:
            lines.append(f"  hf_exp_pair {a} {b}.")
            inverse = f"rewrite <- exp_plus; replace ({a} + {b}) with 0 by ring; apply exp_0"
            lines.append(f"  try (assert (exp {a} * exp {b} = 1) by ({inverse})).")  # e^a e^(-a) = 1
    lines += [f"  hf_inverse_facts {a}." for a in inverses] + unfold  # a base's sign: the atoms' facts
    for i, a in enumerate(sqrts):  # one atom for radicands equal by ring: sqrt 5 and c_star 2's sqrt ((2 - 1)^2 + 4)
        lines += [f"  try (replace (sqrt {b}) with (sqrt {a}) in * by (f_equal; ring))." for b in sqrts[i + 1 :]]
    for i, a in enumerate(exps):  # and for exponents equal by ring: exp (beta * lam) and exp (lam * beta)
        lines += [f"  try (replace (exp {b}) with (exp {a}) in * by (f_equal; ring))." for b in exps[i + 1 :]]
    return lines, _distinct(exps, trees)


def _distinct(exps: list[str], trees: dict[str, Any]) -> list[str]:
    """The exponential atoms less each whose argument SymPy expands to an earlier one's (a proposal: the proof's
    `replace ... by ring` rewrites it away, and facts stated of it would only lengthen nra's search)."""
    kept: list[tuple[str, Any]] = []
    for a in exps:
        try:
            value = sp.expand(factored.sympy_of(trees[a])) if a in trees else None
        except factored.PROPOSAL_ERRORS:
            value = None
        if value is None or all(other is None or sp.expand(value - other) != 0 for _, other in kept):
            kept.append((a, value))
    return [a for a, _ in kept]


def uses_c_star(trees: list[Any]) -> bool:
    """Whether a `c_star` node occurs (the proof then unfolds the prelude's definition)."""
    return any(node == "c_star" or (isinstance(node, list) and uses_c_star(node)) for node in trees)
