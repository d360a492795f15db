"""The Coq proof of a `sums` certificate's statement (`certificates.kernel.coq.sums_statement`).

Untrusted: coqc checks every step. The proof follows the kernel's reading (`certificates.kernel.model_sums`) with its
own normal form of Coq terms, each step a lemma coqc checks:

- every inner product of vectors is expanded by bilinearity, the linearity of the maps and the definitions of the
  named vectors (F, v, xdot, P, xbar) into a scalar term over inner products of basis vectors (x t, f g t, M g and
  W g of them), by rewriting (`setoid_rewrite`, under the sums' binders) and `reflexivity` against the term written
  here (`Expander`: the left argument first, as the rewriting goes);
- every scalar node gets an equation `node = NF`, NF a sum of monomials `(c) * hsum .. (fun t1 => .. atoms)` with the
  node's own sums outermost: from its children's equations (`f_equal`), a sum by splitting its body's monomials
  (a monomial free of the summed index gains a factor n or H, p^g_tu summed over u is 1, the others bind it),
  a product by pulling the factors' sums out (`PROD`), the named scalars by their definitions (the entropy's
  log p = beta s - log Zn);
- the sides (and each term of an inequality's payload) are compared after relabelling each monomial's bound indices
  (`hf_hsum_switch`) and orienting its atoms (symmetry of ip, self-adjoint M, symmetric weights) into one canonical
  form, then `field`; an inequality's terms are >= 0 by their shapes (`hf_hsum_nonneg`, `hf_ip_pos`, squares, the
  definitions' signs) and its coefficients by `nra` on the sizes' bounds; a strict relation's term > 0 (a strict
  premise's margin, a number: `strict`) and its coefficient > 0 the same way, with `<` for `<=`.

A statement whose normal forms this writer cannot match (a rule of the kernel it does not follow) raises
`NotWritten` (a `NotTranslatable`) with the reason, before any Coq is written.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction
from math import prod
from pathlib import Path
from typing import Any

from headflow.certificates.coq.sums_terms import (
    NF,
    SIZE_ORDER,
    Expander,
    Mono,
    NotWritten,
    atom_text,
    basis_text,
    body_text,
    coefficient_text,
    indices,
    merged,
    minus,
    nf_text,
    plus,
    positional,
    renamed,
    renamed_atoms,
    sizes_of,
    text,
    times,
    tree_of,
)
from headflow.certificates.kernel.ball_model import stated_delta
from headflow.certificates.kernel.coq.statements import TextStatement, statements
from headflow.certificates.kernel.coq.sums_statement import DEFINED, VELOCITY, XDOT, bounded
from headflow.certificates.kernel.model_statements import statement_of, term_of
from headflow.certificates.kernel.model_sums import DEFINED as KERNEL_DEFINED
from headflow.certificates.kernel.model_sums import RATES, least_sizes, margins

#: The lemmas every proof uses (sums, inner products, linear maps, the softmax row), proved in the file itself.
LEMMAS = Path(__file__).with_name("sums_lemmas.v").read_text(encoding="ascii")
#: At most this many bound indices of a kind in one monomial (their relabellings are tried one by one).
MOST_DUMMIES = 5


#: A product of two monomials as one nested sum: the left factor's sums pulled out, then the right's, then ring.
PROD = (
    "repeat (cbv beta; first [ apply hf_hsum_ext; intro | rewrite <- hf_hsum_mult_r | rewrite <- hf_hsum_mult_l ]);"
    " ring."
)
FIELD = "field; repeat split; assumption."
HYPOTHESIS_NAMES = {"aligned-values": "HWM", "scalar-heads": "HSc", "symmetric-scores": "HMs", "unit-tokens": "Hunit"}
HYPOTHESIS_NAMES["orthogonal-heads"] = "HOrth"
#: The scalars defined in the statement, as the kernel defines them (`model_sums.DEFINED`).
DEFINITIONS = {"a": "a_h_i", "T": "T_h_i", "A": "A_h_i", "s": "s_h_ij", "entropy": "entropy_h_i"}
#: The energies' rates, which the kernel reads as `model_sums.RATES` for usa heads, self-adjoint and aligned.
RATE_NAMES = {"dEh": "dE_h_dt", "dE": "dE_dt"}
ZERO = (0, 0, 0, 0)
CONGRUENCES = {"+": "Rplus", "-": "Rminus", "*": "Rmult"}
#: The names the proof introduces: the statement's binders and premises (then its `given` bounds, hypotheses, lets).
BOUND = ["V", "ip", "x", "M", "W", "lambda", "n", "d", "H", "beta", "i", "h", "Hip", "HM", "HW", "Hn", "Hd", "HH", "Hb"]
SOFTMAX = "(fun u => beta * s g t u)"
#: Facts of the definitions, proved before their bodies are cleared (the proof rewrites with them to unfold one).
FACTS = (
    f"assert (Prow : forall g t, hsum n (fun u => p g t u) = 1) by (intros; apply (hf_softmax_row n {SOFTMAX}); lia).",
    "assert (Dlogp : forall g t u, ln (p g t u) = beta * s g t u - ln (Zn g t))"
    f" by (intros; apply (hf_softmax_log n {SOFTMAX}); lia).",
    "assert (Pp : forall g t u, 0 <= p g t u) by (intros; apply Rlt_le, Rdiv_lt_0_compat; [apply exp_pos |"
    " apply hf_hsum_pos; [lia | intro; apply exp_pos]]).",
    "assert (PZn : forall g t, 0 <= Zn g t) by (intros; apply Rlt_le, hf_hsum_pos; [lia | intro; apply exp_pos]).",
    f"assert (Pentropy : forall g t, 0 <= entropy g t) by (intros; apply (hf_entropy_nonneg n {SOFTMAX}); lia).",
    "assert (PT : forall g t, 0 <= T g t) by (intros; apply (hf_ip_pos _ ip Hip)).",
    "assert (PEh : forall g, 0 <= Eh g) by (intros; apply Rmult_le_pos; [apply Rlt_le, Rinv_0_lt_compat, "
    "Rmult_lt_0_compat; [lra | apply pow_lt, lt_0_INR; lia] | apply hf_hsum_nonneg; intros; apply hf_hsum_nonneg; "
    "intros; apply Rlt_le, exp_pos]).",
    "assert (PE : 0 <= E) by (apply hf_hsum_nonneg; intros; apply PEh).",
)
#: The sizes non-zero (for `field`) and at least their least values (for `nra`), and ip's symmetry.
SIZE_FACTS = (
    "assert (Hn0 : INR n <> 0) by (apply not_0_INR; lia).",
    "assert (HH0 : INR H <> 0) by (apply not_0_INR; lia).",
    "assert (Hd0 : INR d <> 0) by (apply not_0_INR; lia).",
    "assert (Hb0 : beta <> 0) by lra.",
    "pose proof (le_INR _ _ Hn) as Hn1. pose proof (le_INR _ _ Hd) as Hd1. pose proof (le_INR _ _ HH) as HH1.",
    "simpl in Hn1, Hd1, HH1.",
    "pose proof (hf_ip_sym _ ip Hip) as IPsym.",
)


class ProofWriter:
    """The proof's sentences, node by node (the module's docstring)."""

    def __init__(self, problem: TextStatement, claim_id: str) -> None:
        self.claim = statement_of(problem.statement, claim_id)
        self.payload = problem.payload
        self.hypotheses = set(self.claim.hypotheses)
        self.count = 0
        self.lines: list[str] = []
        self.expander = Expander(self.fresh, self.claim.attention, self.claim.geometry, self.hypotheses)
        aligned = {"symmetric-scores", "aligned-values"} <= self.hypotheses
        self.rates = self.claim.attention == "usa" and aligned  # the kernel's reading of the rates (`RATES`)
        self.bounds = bounded(self.claim)  # the reals the cross premises bound
        self.crosses = self.bounds + ["0"] * ("orthogonal-heads" in self.hypotheses)  # and 0 for M g M g' = 0
        self.margins = [tree_of(m, {"i": "i", "h": "h"}) for m in margins(self.claim)]  # the premises G0, G1, ...
        self.every = ["i" in g.free for g in self.claim.given]  # a premise at every token i < n

    def fresh(self, kind: str) -> str:
        self.count += 1
        return f"{kind}{self.count}"

    def asserted(self, scope: list[str], statement: str, proof: str, prefix: str = "E") -> str:
        """`assert (E : forall scope, statement)` with its proof (after `intros scope`); the term of it applied."""
        label = self.fresh(prefix)
        binders = f"forall {' '.join(scope)} : nat, " if scope else ""
        intros = f"intros {' '.join(scope)}. " if scope else ""
        self.lines.append(f"  assert ({label} : {binders}{statement}).\n  {{ {intros}{proof} }}")
        return f"({label} {' '.join(scope)})" if scope else label

    # --- scalar nodes: (NF, a proof term of `text(node) = NF` under the scope's intros)

    def equation(self, node: tuple[Any, ...], scope: list[str]) -> tuple[NF, str]:
        op = node[0]
        if op == "num":
            return ((Mono(node[1], ZERO, (), ()),) if node[1] else ()), "eq_refl"
        if op == "size":
            return (Mono(Fraction(1), tuple(int(s == node[1]) for s in SIZE_ORDER), (), ()),), "eq_refl"
        if op == "inv":
            q, e = sizes_of(node[1])
            nf = (Mono(1 / q, tuple(-k for k in e), (), ()),)
            return nf, self.asserted(scope, f"{text(node)} = {nf_text(nf)}", FIELD)
        if op == "atom":
            a = node[1]
            if a[0] == "ip" and a[1] == a[2] and a[1][0] == "x" and "unit-tokens" in self.hypotheses:
                return (Mono(Fraction(1), ZERO, (), ()),), f"(Hunit {a[1][1]})"
            if a[0] == "w" and self.claim.attention == "softmax":
                return (Mono(Fraction(1), ZERO, (), (("p", *a[1:]),)),), f"(Dw {' '.join(a[1:])})"
            return (Mono(Fraction(1), ZERO, (), (a,)),), "eq_refl"
        if op == "named":
            return self.named(node, scope)
        if op == "hsum":
            return self.summed(node, scope)
        if op == "ip":
            expanded = self.expander.ip(self.expander.vector(node[1]), self.expander.vector(node[2]))
            if expanded[0] == "atom" and text(expanded) == text(node):  # two basis vectors: an atom already
                return self.equation(expanded, scope)
            vector = self.asserted(scope, f"{text(node)} = {text(expanded)}", self.vector_tactic())
            nf, inner = self.equation(expanded, scope)
            proof = f"transitivity ({text(expanded)}). {{ exact {vector}. }} exact {inner}."
            return nf, self.asserted(scope, f"{text(node)} = {nf_text(nf)}", proof)
        if op in ("+", "-", "*", "neg", "pow", "/"):
            return self.operation(node, scope)
        raise NotWritten(f"sums: no scalar node {op}")

    def operation(self, node: tuple[Any, ...], scope: list[str]) -> tuple[NF, str]:
        op = node[0]
        children = [self.equation(k, scope) for k in node[1 : 2 if op in ("neg", "pow", "/") else 3]]
        nfs, proofs = [c[0] for c in children], [c[1] for c in children]
        if op in ("+", "-", "*"):
            step = f"f_equal2 {CONGRUENCES[op]} {proofs[0]} {proofs[1]}"
            middle = f"({nf_text(nfs[0])}) {op} ({nf_text(nfs[1])})"
        elif op == "neg":
            step, middle = f"f_equal Ropp {proofs[0]}", f"- ({nf_text(nfs[0])})"
        elif op == "pow":
            step, middle = f"f_equal (fun y => y ^ {node[2]}) {proofs[0]}", f"({nf_text(nfs[0])}) ^ {node[2]}"
        else:
            step = f"f_equal (fun y => y / {text(node[2])}) {proofs[0]}"
            middle = f"({nf_text(nfs[0])}) / {text(node[2])}"
        nf, combine = self.combined(node, nfs)
        proof = f"transitivity ({middle}). {{ exact ({step}). }} {combine}"
        return nf, self.asserted(scope, f"{text(node)} = {nf_text(nf)}", proof)

    def combined(self, node: tuple[Any, ...], nfs: list[NF]) -> tuple[NF, str]:
        """(the node's NF, tactics proving `middle = NF` from its children's NFs)."""
        op = node[0]
        if op in ("+", "-"):
            sign = 1 if op == "+" else -1
            return merged([*nfs[0], *(replace(m, coef=sign * m.coef) for m in nfs[1])]), FIELD
        if op == "neg":
            return merged([replace(m, coef=-m.coef) for m in nfs[0]]), FIELD
        if op == "/":
            q, e = sizes_of(node[2])
            return merged([replace(m, coef=m.coef / q, exps=minus(m.exps, e)) for m in nfs[0]]), FIELD
        if op == "*":
            return self.product(nfs[0], nfs[1])
        if node[2] == 0:
            return (Mono(Fraction(1), ZERO, (), ()),), "ring."
        found, steps = nfs[0], []
        for _ in range(node[2] - 1):
            previous = found
            found, proof = self.product(previous, nfs[0])
            label = self.fresh("Q")
            steps.append(
                f"assert ({label} : ({nf_text(previous)}) * ({nf_text(nfs[0])}) = {nf_text(found)}). {{ {proof} }}"
            )
            steps.append(f"try rewrite {label}.")
        factors = " * ".join([f"({nf_text(nfs[0])})"] * node[2])
        asserts = " ".join(s for s in steps if s.startswith("assert"))
        rewrites = " ".join(s for s in steps if s.startswith("try rewrite"))
        return found, f"{asserts} transitivity ({factors}). {{ ring. }} {rewrites} reflexivity."

    def product(self, a: NF, b: NF) -> tuple[NF, str]:
        """(NF of a b, tactics proving `(a) * (b) = NF`): each pair of monomials with sums as one nested sum."""
        terms, lemmas, monos = [], [], []
        for ma in a:
            for mb in b:
                body = times(ma, mb, {d: self.fresh(d[0]) for d, _ in mb.dummies})
                monos.append(body)
                product = f"{body_text(ma) or '1'} * {body_text(mb) or '1'}"
                if (ma.dummies or mb.dummies) and product not in [p for p, _, _ in lemmas]:
                    label = self.fresh("P")
                    lemmas.append((product, label, f"assert ({label} : {product} = {body_text(body)}). {{ {PROD} }}"))
                terms.append(f"({coefficient_text(body) or '1'}) * ({product})")
        proof = " ".join(text_ for _, _, text_ in lemmas)
        rewrites = "".join(f" rewrite {label}." for _, label, _ in lemmas)
        middle = " + ".join(terms) or "0"
        return merged(monos), f"{proof} transitivity ({middle}). {{ {FIELD} }}{rewrites} {FIELD}"

    def summed(self, node: tuple[Any, ...], scope: list[str]) -> tuple[NF, str]:
        """A sum over the node's letter: its body's monomials split, each free one times the size, each p row
        summed to 1, the others binding a fresh dummy outermost."""
        size, letter = node[1], self.fresh("k")
        body = renamed(node[3], {node[2]: letter})  # named apart from the context's i and h (alpha-equivalent)
        nf_body, eq = self.equation(body, [*scope, letter])
        within = f"hsum {size} (fun {letter} => {nf_text(nf_body)})"
        steps = [f"transitivity ({within}). {{ apply hf_hsum_ext; intro {letter}. exact {eq}. }}"]
        steps.append("repeat rewrite hf_hsum_plus." if nf_body else f"rewrite (hf_hsum_const {size} 0).")
        monos = []
        for m in nf_body:
            c, b = coefficient_text(m), body_text(m)
            if c and b:
                steps.append(f"rewrite (hf_hsum_mult_l {size} ({c}) (fun {letter} => {b})).")
            deps = set().union(*map(indices, m.atoms)) if m.atoms else set()
            rows = [a for a in m.atoms if letter in indices(a)]
            if letter not in deps:
                steps.append(f"rewrite (hf_hsum_const {size} ({b or c or '1'})).")
                exps = list(m.exps)
                exps[SIZE_ORDER.index(size)] += 1
                monos.append(replace(m, exps=tuple(exps)))
            elif len(rows) == 1 and rows[0][0] == "p" and rows[0][3] == letter and letter not in rows[0][1:3]:
                rest = replace(m, atoms=tuple(a for a in m.atoms if a is not rows[0]))
                row = self.asserted(
                    scope,
                    f"hsum {size} (fun {letter} => {b}) = {body_text(rest) or '1'}",
                    self.row(m, rows[0], letter, size),
                    "R",
                )
                steps.append(f"rewrite {row}.")
                monos.append(rest)
            else:
                dummy = self.fresh("t" if size == "n" else "g")
                monos.append(
                    positional(
                        replace(m, dummies=((dummy, size), *m.dummies), atoms=renamed_atoms(m.atoms, {letter: dummy}))
                    )
                )
        nf = merged(monos)
        return nf, self.asserted(scope, f"{text(node)} = {nf_text(nf)}", f"{' '.join(steps)} {FIELD}")

    @staticmethod
    def row(m: Mono, row: tuple[Any, ...], letter: str, size: str) -> str:
        """hsum over `letter` of the monomial = the monomial without its p row: the sum moved innermost (switches),
        the other atoms pulled out of it, the row summed to 1."""
        steps = [f"rewrite hf_hsum_switch. apply hf_hsum_ext; intro {name}." for name, _ in m.dummies]
        others = " * ".join(atom_text(a) for a in m.atoms if a is not row) or "1"
        steps.append(
            f"transitivity ({others} * hsum {size} (fun {letter} => {atom_text(row)})). "
            f"{{ rewrite <- hf_hsum_mult_l. apply hf_hsum_ext; intro {letter}. ring. }} "
            f"rewrite (Prow {row[1]} {row[2]}). ring."
        )
        return " ".join(steps)

    def named(self, node: tuple[Any, ...], scope: list[str]) -> tuple[NF, str]:
        """A defined scalar (a, T, A, s, the entropy, the energies' rates): its definition rewritten, then its term's
        equation."""
        name, args = node[1], node[2:]
        if name in RATE_NAMES and self.rates:
            definition = tree_of(RATES[RATE_NAMES[name]], {"h": args[0]} if args else {})
        elif name in DEFINITIONS:
            letters = {"h": args[0], "i": args[1]} | ({"j": args[2]} if len(args) > 2 else {})
            definition = tree_of(KERNEL_DEFINED[DEFINITIONS[name]], letters)
        else:
            raise NotWritten(f"sums: {name} is not a scalar of the statement")
        nf, inner = self.equation(definition, scope)
        unfold = f"rewrite (D{name} {' '.join(args)})." + (" setoid_rewrite Dlogp." if name == "entropy" else "")
        return nf, self.asserted(scope, f"{text(node)} = {nf_text(nf)}", f"{unfold} exact {inner}.")

    def vector_tactic(self) -> str:
        """Definitions of the named vectors, W = M and M = lambda I, the maps pushed in, then ip expanded."""
        unfold = "repeat first [ setoid_rewrite DF | setoid_rewrite Dv | setoid_rewrite Dxdot | setoid_rewrite DP"
        unfold += " | setoid_rewrite Dxbar ]."
        maps = [
            f"repeat setoid_rewrite {HYPOTHESIS_NAMES[h]}."
            for h in ("aligned-values", "scalar-heads")
            if h in self.hypotheses
        ]
        pushes = " | ".join(f"setoid_rewrite {m}{k}" for m in "MW" for k in "vpmos")
        ips = " | ".join(f"setoid_rewrite I{k}{side}" for side in "lr" for k in "VPMOS")
        return f"{unfold} {' '.join(maps)} repeat first [ {pushes} ]. repeat first [ {ips} ]. reflexivity."

    # --- the canonical form of a monomial: relabelled, its atoms oriented

    def oriented(self, a: tuple[Any, ...]) -> tuple[tuple[Any, ...], list[str]]:
        """The atom in its orientation (the least text among <u, w>, <w, u> and, with self-adjoint M, those with
        every M moved to the other side) and the rewrites that turn `a` into it."""
        if a[0] == "w" and self.claim.attention != "softmax" and "symmetric-scores" in self.hypotheses:
            if a[3] < a[2]:
                return ("w", a[1], a[3], a[2]), [f"rewrite (Wsym {a[1]} {a[2]} {a[3]})."]
            return a, []
        if a[0] != "ip":
            return a, []
        options = []
        for flip in (False, True):
            u, w = (a[2], a[1]) if flip else (a[1], a[2])
            steps = [f"rewrite (IPsym {basis_text(a[1])} {basis_text(a[2])})."] if flip and a[1] != a[2] else []
            while "symmetric-scores" in self.hypotheses and u[0] == "M":
                steps.append(f"rewrite (HMs {u[1]} {basis_text(u[2])} {basis_text(w)}).")
                u, w = u[2], ("M", u[1], w)
            options.append((atom_text(("ip", u, w)), ("ip", u, w), steps))
        _, atom, steps = min(options, key=lambda o: (o[0], len(o[2])))
        return atom, steps

    def canonical(self, m: Mono) -> tuple[Mono, list[str]]:
        """(the monomial's body relabelled u0.., q0.. in its least reading, its atoms oriented; the sentences that
        prove body(m) = body(canonical))."""
        tokens = [d for d, s in m.dummies if s == "n"]
        heads = [d for d, s in m.dummies if s == "H"]
        if len(tokens) > MOST_DUMMIES or len(heads) > MOST_DUMMIES:
            raise NotWritten(f"sums: more than {MOST_DUMMIES} bound indices of a kind in a monomial")
        best = None
        for pt in itertools.permutations(range(len(tokens))):
            for ph in itertools.permutations(range(len(heads))):
                names = {d: f"u{k}" for d, k in zip(tokens, pt, strict=True)}
                names |= {d: f"q{k}" for d, k in zip(heads, ph, strict=True)}
                atoms = [self.oriented(renamed(a, names)) for a in m.atoms]
                key = sorted(atom_text(a) for a, _ in atoms)
                if best is None or key < best[0]:
                    best = (key, names, atoms)
        assert best is not None
        _, names, atoms = best
        order = [(f"u{k}", "n") for k in range(len(tokens))] + [(f"q{k}", "H") for k in range(len(heads))]
        target = Mono(m.coef, m.exps, tuple(order), tuple(sorted((a for a, _ in atoms), key=atom_text)))
        raw = renamed_atoms(m.atoms, names)
        current = [names[d] for d, _ in m.dummies]
        sizes = dict(order)
        sentences = []
        for goal in range(len(order)):  # bubble the wanted index up to level `goal`
            at = current.index(order[goal][0])
            for j in range(at - 1, goal - 1, -1):
                current[j], current[j + 1] = current[j + 1], current[j]
                step = Mono(Fraction(1), ZERO, tuple((d, sizes[d]) for d in current), raw)
                descend = " ".join(f"apply hf_hsum_ext; intro {d}." for d in current[:j])
                sentences.append(
                    f"transitivity {body_text(step)}. {{ {descend} rewrite hf_hsum_switch. reflexivity. }}"
                )
        descend = " ".join(f"apply hf_hsum_ext; intro {d}." for d in current)
        turns = " ".join(dict.fromkeys(step for _, steps in atoms for step in steps))  # each rewrite once: it turns all
        sentences.append(f"{descend} {turns} ring.")
        return target, sentences

    # --- signs

    def nonnegative(self, node: tuple[Any, ...]) -> str:
        """Tactics proving `0 <= text(node)` by its shape (the kernel's `model_sums.nonnegative`)."""
        op = node[0]
        if node in self.margins:  # a given condition's premise, at the statement's i and h
            k = self.margins.index(node)
            return f"pose proof (G{k} i Hi); lra" if self.every[k] else "lra"
        if op == "hsum" and node[1] == "n" and renamed(node[3], {node[2]: "i"}) in self.margins:  # at every token
            k = self.margins.index(renamed(node[3], {node[2]: "i"}))
            return f"apply hf_hsum_nonneg; intros t Ht; cbv beta; pose proof (G{k} t Ht); lra"
        if op == "num" and node[1] >= 0:
            return "lra"
        if op == "size":
            return "lra" if node[1] == "beta" else "apply pos_INR"
        if op == "atom" and node[1][0] in ("p", "w", "Zn", "E", "Eh"):
            return f"apply P{node[1][0]}"
        if op == "named" and node[1] in ("entropy", "T"):
            return f"apply P{node[1]}"
        if op == "pow" and node[2] % 2 == 0:
            half = f"({text(node[1])} ^ {node[2] // 2})"
            return f"replace {text(node)} with ({half} ^ 2) by ring; apply pow2_ge_0"
        if op == "pow":
            return f"apply pow_le; {self.nonnegative(node[1])}"
        if op in ("+", "*"):
            lemma = "Rplus_le_le_0_compat" if op == "+" else "Rmult_le_pos"
            return f"apply {lemma}; [ {self.nonnegative(node[1])} | {self.nonnegative(node[2])} ]"
        if op == "hsum":
            k = self.fresh("k")
            return f"apply hf_hsum_nonneg; intros {k} _; {self.nonnegative(renamed(node[3], {node[2]: k}))}"
        if op == "ip" and node[1] == node[2]:
            return "apply (hf_ip_pos _ ip Hip)"
        if op == "/":
            positive = "repeat first [ apply Rmult_lt_0_compat | apply pow_lt ]; lra"
            return (
                f"unfold Rdiv; apply Rmult_le_pos; [ {self.nonnegative(node[1])} | "
                f"apply Rlt_le, Rinv_0_lt_compat; {positive} ]"
            )
        if op == "-" and node[1][:2] == ("hsum", "H") and renamed(node[1][3], {node[1][2]: "h"}) == node[2]:
            g = node[1][2]
            bounds = "".join(f"pose proof (X{b} {g} t Hg Hgh); " for b in self.crosses)
            near = (
                f"match goal with |- context [ip (f h ?t) (f {g} ?t)] => {bounds} "
                f"pose proof (Rle_abs (ip (f h t) (f {g} t))); pose proof (Rle_abs (- ip (f h t) (f {g} t))) end; "
                "rewrite ?Rabs_Ropp in *; nra"
            )
            offdiagonal = f"apply (hf_offdiag H h (fun {g} => {text(node[1][3])}))"
            return f"{offdiagonal}; [ exact Hh | intros {g} Hg Hgh; cbv beta; {near} ]"
        raise NotWritten(f"sums: no sign of {text(node)[:60]} by its shape")

    # --- the whole proof

    def preamble(self) -> list[str]:
        kind, geometry = self.claim.attention, self.claim.geometry
        givens = [f"G{k}" for k in range(len(self.claim.given))]
        hyps = [HYPOTHESIS_NAMES[h] for h in sorted(self.hypotheses) if h in HYPOTHESIS_NAMES]
        premises = ["Hi", "Hh", *(["Hq"] if stated_delta(self.claim.hypotheses) is not None else [])]
        premises += [f"H{b}" for b in self.bounds]
        names = BOUND[:12] + self.bounds + BOUND[12:] + hyps + premises + list(DEFINED) + givens
        rows = [f"intros {' '.join(names)}."]
        facts = {
            "Ds": "forall g t u, s g t u = ip (x t) (M g (x u))",
            "DF": "forall t, F t = vsum H (fun g => f g t)",
            "Dv": f"forall t, v t = {VELOCITY[kind]}",
            "DP": "forall t u, P t u = minus u (scal (ip u (x t)) (x t))",
            "Dxdot": f"forall t, xdot t = {XDOT[geometry]}",
            "Dxbar": "forall g t, xbar g t = vsum n (fun u => scal (p g t u) (x u))",
            "Da": "forall g t, a g t = ip (f g t) (x t)",
            "DT": "forall g t, T g t = ip (P t (f g t)) (P t (f g t))",
            "DA": "forall g t, A g t = ip (minus (F t) (f g t)) (x t)",
            "Dentropy": "forall g t, entropy g t = - hsum n (fun u => p g t u * ln (p g t u))",
        }
        if kind == "softmax":
            facts["Dw"] = "forall g t u, w g t u = p g t u"
        rows += [f"assert ({k} : {v}) by (intros; reflexivity)." for k, v in facts.items()]
        rows += [*FACTS, f"assert (Pw : forall g t u, 0 <= w g t u) by (intros; {POSITIVE_WEIGHT[kind]})."]
        rows += self.rate_facts() + self.cross_facts()
        if kind != "softmax" and "symmetric-scores" in self.hypotheses:
            rows.append(
                "assert (Wsym : forall g t u, w g t u = w g u t) by (intros; unfold w, s; "
                "rewrite (hf_ip_sym _ ip Hip (x t) (M g (x u))), (HMs g (x u) (x t)); reflexivity)."
            )
        rows += [f"clearbody {' '.join(DEFINED)}.", *SIZE_FACTS]
        for k, lemma in zip("VPMOS", ("vsum", "plus", "minus", "opp", "scal"), strict=True):
            rows.append(
                f"pose proof (hf_ip_{lemma}_l _ ip Hip) as I{k}l. pose proof (hf_ip_{lemma}_r _ ip Hip) as I{k}r."
            )
            m = k.lower()
            rows.append(f"pose proof (hf_map_{lemma} _ M HM) as M{m}. pose proof (hf_map_{lemma} _ W HW) as W{m}.")
        return rows

    def rate_facts(self) -> list[str]:
        """dEh g and dE as the kernel reads them (`model_sums.RATES`), from the lemma `hf_energy_rate` (the
        derivative along the motion, then the symmetry of the scores) and F's definition."""
        if not self.rates:
            return []
        head, total = (text(tree_of(RATES[name], {"h": "g"})) for name in ("dE_h_dt", "dE_dt"))
        rate = (
            "intros g. unfold dEh. rewrite (hf_energy_rate _ ip Hip (M g) (HM g) (HMs g) x xdot n beta "
            "(Rgt_not_eq _ _ Hb) ltac:(apply not_0_INR; lia)). unfold Rdiv. f_equal. apply hf_hsum_ext; intro j. "
            "unfold f, w, s. f_equal. apply vsum_proper; [reflexivity | intro u]. rewrite HWM. reflexivity."
        )
        whole = (
            "unfold dE. setoid_rewrite DdEh. unfold Rdiv. rewrite hf_hsum_mult_r. f_equal. rewrite hf_hsum_switch. "
            "apply hf_hsum_ext; intro j. rewrite DF, (hf_ip_vsum_r _ ip Hip). reflexivity."
        )
        return [
            f"assert (DdEh : forall g, dEh g = {head}).\n  {{ {rate} }}",
            f"assert (DdE : dE = {total}).\n  {{ {whole} }}",
        ]

    def cross_facts(self) -> list[str]:
        """For each real a cross premise bounds, and 0 for orthogonal heads: |<f^h_t, f^g_t>| <= delta Zn h t Zn g t
        (usa) or delta (softmax, whose rows sum to 1) for g != h, from `hf_cross_pair` at the weights and the premise
        at unit tokens (orthogonal heads: <x_u, M h M g x_w> = <x_u, 0> = 0)."""
        if "unit-tokens" not in self.hypotheses or not {"symmetric-scores", "aligned-values"} <= self.hypotheses:
            return []
        softmax = self.claim.attention == "softmax"
        rows = ["assert (Wrow : forall g t, hsum n (w g t) = 1) by (intros; exact (Prow g t))."] if softmax else []
        for b in self.crosses:
            weight = "" if softmax else " * Zn h t * Zn g t"
            pair = (
                f"pose proof (hf_cross_pair _ ip Hip n (w h t) (w g t) (fun u => W h (x u)) (fun u => W g (x u)) {b} "
                f"(Pw h t) (Pw g t)) as X"
            )
            premise = "intros u1 u2. rewrite !HWM, (HMs h (x u1) (M g (x u2))). " + (
                f"pose proof (H{b} h g (x u1) (x u2) Hh Hg (fun e => Hgh (eq_sym e))) as B. "
                "rewrite !Hunit, sqrt_1 in B. lra"
                if b != "0"
                else "rewrite (HOrth h g (x u2) Hh Hg (fun e => Hgh (eq_sym e))), (hf_ip_sym _ ip Hip (x u1) zero), "
                "(hf_ip_zero_l _ ip Hip), Rabs_R0. lra"
            )
            close = "rewrite !Wrow, !Rmult_1_r in X. apply X. " if softmax else "apply X. "
            rows.append(
                f"assert (X{b} : forall g t, (g < H)%nat -> g <> h -> Rabs (ip (f h t) (f g t)) <= {b}{weight}).\n"
                f"  {{ intros g t Hg Hgh. {pair}. {close}{premise}. }}"
            )
        return rows

    def proof(self) -> str:
        claim, free = self.claim, {"i": "i", "h": "h"}
        relation = claim.relation
        lhs, rhs = tree_of(relation.lhs, free), tree_of(relation.rhs, free)
        sides = [self.equation(lhs, []), self.equation(rhs, [])]
        terms = []
        for item in self.payload.get("terms", []):
            coefficient, term = (
                tree_of(term_of(item["coefficient"], frozenset()), free),
                tree_of(term_of(item["term"]), free),
            )
            terms.append((coefficient, term, self.equation(coefficient, []), self.equation(term, [])))
        difference = [*sides[1][0], *(replace(m, coef=-m.coef) for m in sides[0][0])]
        if relation.op in (">=", ">"):
            difference = [replace(m, coef=-m.coef) for m in difference]
        for _, _, (c, _), (n, _) in terms:
            difference += [replace(m, coef=-m.coef) for m in self.scaled(c, n)]
        rewrites, totals = [], {}
        seen = set()
        for m in sorted(difference, key=lambda m: not m.dummies):
            target, sentences = self.canonical(m)
            key = (target.exps, body_text(target))
            totals[key] = totals.get(key, 0) + m.coef
            if body_text(m) != body_text(target) and body_text(m) not in seen:
                seen.add(body_text(m))
                label = self.fresh("C")
                self.lines.append(
                    f"  assert ({label} : {body_text(m)} = {body_text(target)}).\n  {{ {' '.join(sentences)} }}"
                )
                rewrites.append(label)
        if any(totals.values()):
            raise NotWritten(
                "sums: the sides' normal forms here differ (a rule of the kernel this proof does not follow)"
            )
        names = ["L", "R", *(f"N{k}" for k in range(len(terms)))]
        nfs = [sides[0][0], sides[1][0], *(t[3][0] for t in terms)]
        premises = " -> ".join(f"{v} = {nf_text(nf)}" for v, nf in zip(names, nfs, strict=True))
        sum_terms = " + ".join(f"{text(c)} * N{k}" for k, (c, *_) in enumerate(terms)) or "0"
        goal = f"L - R = {sum_terms}" if relation.op in (">=", ">") else f"R - L = {sum_terms}"
        goal = "L = R" if relation.op == "=" else goal
        arrows = " ".join("->" for _ in names)
        turned = f" rewrite {', '.join('?' + r for r in rewrites)}." if rewrites else ""
        self.lines.append(
            f"  assert (Id : forall {' '.join(names)} : R, {premises} -> {goal}).\n"
            f"  {{ intros {' '.join(names)} {arrows}.{turned} {FIELD} }}"
        )
        equations = " ".join([sides[0][1], sides[1][1], *(t[3][1] for t in terms)])
        if relation.op == "=":
            self.lines.append(f"  exact (Id _ _ {equations}).")
        else:
            self.lines.append(f"  pose proof (Id _ _ {'_ ' * len(terms)}{equations}) as Hid.")
            strict = self.strict(terms) if relation.op in ("<", ">") else None
            for k, (c, n, _, _) in enumerate(terms):
                self.lines.append(f"  assert (K{k} : 0 <= {text(c)}) by nra.")
                self.lines.append(f"  assert (S{k} : 0 <= {text(n)}) by ({self.nonnegative(n)}).")
                self.lines.append(f"  pose proof (Rmult_le_pos _ _ K{k} S{k}).")
                if k == strict:
                    self.lines.append(f"  assert (K{k}' : 0 < {text(c)}) by nra.")
                    self.lines.append(f"  assert (S{k}' : 0 < {text(n)}) by ({self.nonnegative(n)}).")
                    self.lines.append(f"  pose proof (Rmult_lt_0_compat _ _ K{k}' S{k}').")
            self.lines.append("  lra.")
        return "\n".join([*(f"  {r}" for r in self.preamble()), *self.lines])

    def strict(self, terms: list[tuple[Any, ...]]) -> int:
        """The index of the payload's term > 0 that the kernel's check of a strict relation found: a number > 0 or a
        strict given condition's margin (whose premise `lra` reads, as for >= 0), its coefficient > 0 at the sizes'
        least values (`model_sums.least_sizes`)."""
        least = least_sizes(self.claim)
        strict = [self.margins[k] for k, g in enumerate(self.claim.given) if g.op in ("<", ">")]
        for k, (_, n, (c, _), _) in enumerate(terms):
            at_least = sum(m.coef * prod(least[s] ** e for s, e in zip(SIZE_ORDER, m.exps, strict=True)) for m in c)
            if (n in strict or (n[0] == "num" and n[1] > 0)) and at_least > 0:
                return k
        raise NotWritten("sums: a strict relation without a term > 0")

    @staticmethod
    def scaled(coefficient: NF, nf: NF) -> list[Mono]:
        """c nf for c a polynomial in the sizes alone: nf's monomials as they are written (so that the identity's
        relabelling equations find them), their coefficients multiplied."""
        return [replace(m, coef=c.coef * m.coef, exps=plus(c.exps, m.exps)) for c in coefficient for m in nf]


POSITIVE_WEIGHT = {
    "usa": "apply Rlt_le, exp_pos",
    "softmax": "apply Pp",
    "relu": "unfold Rdiv; apply Rmult_le_pos; [apply Rmax_r | apply Rlt_le, Rinv_0_lt_compat, lt_0_INR; lia]",
}


def body(claim_id: str, problem: TextStatement) -> str:
    """The lemmas, the kernel's statement and its proof (the module's docstring)."""
    ((_, theorem),) = statements(claim_id, problem)
    proof = ProofWriter(problem, claim_id).proof()
    return f"{LEMMAS}\n{theorem}\nProof.\n{proof}\nQed.\n"
