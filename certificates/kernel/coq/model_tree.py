"""The model at an exact configuration for Coq's `interval`: the one chain of named definitions
(`certificates.kernel.model_chain`, which the checker also evaluates with balls), within what Coq can state, and a
`model` claim's own terms over it.

`witness_problem` is the one way a model statement's terms become a point problem (a claims-file model claim's
witness, a dynamics claim's refutation, a registry claim's configuration witness). It is `NotTranslatable` beyond
MAX_SIZE (n^2 H d) and for an operator norm (balls only), with the reason; an interaction (or its antiderivative) with
a node Coq has no term for is refused where the statement is written (`statements`). The chain is the checker's own
(`model_chain.Chain`): the check that passed before this problem is built ran the same definitions, so a quantity the
data do not define has already rejected the certificate.

A claim's sides and `given` conditions (`certificates.kernel.model_terms`, parsed from the embedded claim) are the
trees the checker's balls read (`model_values.Trees` over one `Chain`: weights, head outputs, velocities, score rates,
softmax rows, energies, entropies and their rates at the exact data, sums over the witness's n tokens and H heads
unrolled, each inner product and sum named), so that Coq states what check-cert checked; the two sides are named
too (`lhs`, `rhs`), so that each `interval` call sees a short term. A norm |u| is Coq's sqrt of the sum of squares and
a logarithm Coq's ln, each with its definedness among the conjuncts (`statements.translated`: 0 <= x under sqrt,
0 < x under ln). The cluster gap 1 - min_(a < b) <x_a, x_b> of the exact tokens reaches the trees as its rational
value g, which the Theorem pins first: g >= 1 - <x_a, x_b> for every pair, with equality at a pair of least inner
product, each inner product written out from the tokens' coordinates. An operator norm (balls only) is
`NotTranslatable`.

`start_problem` states a trajectory statement's `sometime` bound that the exact start meets (a refutation at t = 0):
the term at the tokens' coordinates, as a point, over the chain of symbolic tokens the check's balls read.

The Theorem of a claim's witness states, at the exact data, every `given` condition at every token i, for the
witness's head h when it names one (as the statement reads: "if the conditions hold at every token i"; `rhs - lhs` of
each with the sign it states) and `rhs - lhs` with the sign that negates the claim's relation (a universal claim: its
counterexample) or that states it (an existence claim: its instance), `model_values.witnessed`; an existence claim of an
equation states rhs - lhs = 0, which Coq proves by rewriting the chain's definitions and `ring` (exponentials as atoms:
the kernel's exact test holds it in exponential polynomials). The kind, geometry and
hypotheses (unit tokens, symmetric, aligned, orthogonal or scalar heads) are exact rational facts about the data,
which the Coq text does not mention as matrices: check-cert's own re-check (`model_statements.check`) decides them
exactly with Fractions before this problem is built, and the file's header says so.
"""

import functools
import itertools
from dataclasses import replace
from fractions import Fraction
from typing import Any, NamedTuple

from .. import equilibrium, equilibrium_statements as es, trajectory
from ..ball_model import stated_delta
from ..derivatives import derivative
from ..exact import ball_of, holds
from ..exact_data import ExactConfiguration, dot
from ..exprtree import fold, parse_rational, substitute, symbols
from ..model_chain import Chain, add, mul, root, tree_of, vector_dot
from ..model_statements import witness_configuration
from ..model_terms import STATED
from ..model_values import Trees, given_rows, witnessed
from ..operator_norm import rational_matrix
from ..recheck import Rejected
from .statements import SLICE, NotTranslatable, PointProblem, Problem, SliceProblem

#: The largest n^2 H d a configuration's Coq statement may have. The file proves one bound per definition
#: (`statements`), so coqc's time grows with the number of definitions: 10 s at n^2 H d = 768 (`cluster-gap-at-most-1`
#: of `examples/quantities.toml`, measured 2026-12-06; 20 s at 216 when the bound was set at 512), so about 30 s at
#: this bound, within coqc's time limit on a machine half as fast.
MAX_SIZE = 2048


#: What the header says first (its comment is cut at 300 characters) of the facts Coq does not re-prove.
EXACT_FACTS = "kind, geometry and hypotheses checked exactly on the rational data by check-cert, not restated in Coq"
#: What an equilibrium's Coq file leaves to check-cert (the header's first words).
SPECTRUM_LEFT = "Coq states the zero velocity; the spectrum (Gershgorin discs of the Jacobian) is check-cert's alone"
#: What an equilibrium's Coq file with the spectrum (`_spectrum_problem`) leaves to the reader (the header's start).
SPECTRUM = "Coq states the zero velocity, M K = 0 and |Q - I|_F < 1; what it leaves to the reader is in docs/coq.md"
#: What an equilibrium's Coq file in a slice's Krawczyk box leaves to the reader (the header's start).
SLICED = "Coq states psi's sign change on the slice and |Q - I|_F < 1 over the box; the reader's theorems: docs/coq.md"
#: The spectrum's last conjunct (its comment in the Theorem): what it gives and the theorems that the reader accepts.
FROBENIUS = "|Q - I|_F^2 < 1 for Q = M'^T X + X M', M' = M - K K^T: Q > 0, and with M K = 0 (K of rank r), "
FROBENIUS += "Ostrowski-Schneider, Sylvester, block-triangular spectra: M has r zeros, X's inertia minus r negatives"


def witness_problem(claim: Any, payload: dict[str, Any]) -> PointProblem:
    """The Coq problem of a model claim's witness whose payload check-cert has already re-checked
    (`model_statements.check`: hypotheses exact, conditions and sign in balls): the given conditions at every token
    and the witnessed sign of rhs - lhs at the witness's token and head, over the chain's definitions."""
    cfg = witness_configuration(claim, payload)
    if (size := cfg.n * cfg.n * len(cfg.score_matrices) * len(cfg.tokens[0])) > MAX_SIZE:
        raise NotTranslatable(f"too large: n^2 H d = {size} (the Coq statement takes at most {MAX_SIZE})")
    chain, at = Chain(cfg), dict(payload["at"])
    trees = Trees(chain, stated_delta(claim.hypotheses))

    def where(binding: dict[str, int]) -> str:
        return " at " + ", ".join(f"{k} = {v}" for k, v in sorted(binding.items())) if binding else ""

    gapped = any("cluster_gap" in t.names for r in (claim.relation, *claim.given) for t in (r.lhs, r.rhs))
    rows = _cluster_gap_rows(cfg.tokens) if gapped else []
    for c, binding, gap in given_rows(claim, trees, at):
        rows.append({"name": f"given {c.text}{where(binding)}", "expression": tree_of(gap), "relation": STATED[c.op]})
    lhs, rhs = (tree_of(chain.define(s, trees.tree(getattr(claim.relation, s), at))) for s in ("lhs", "rhs"))
    name = f"{claim.relation.text} {'holds' if claim.exists else 'fails'}{where(at)}: rhs - lhs {witnessed(claim)} 0"
    rows.append({"name": name, "expression": ["sub", rhs, lhs], "relation": witnessed(claim)})
    definitions, inlined = [], {}  # a definition that names an operator norm is written into the rows instead
    for name, tree in chain.definitions:
        if symbols(tree) & (set(chain.norms) | set(inlined)):
            inlined[name] = substitute(tree, inlined)
        else:
            definitions.append((name, tree))
    rows = [row | {"expression": substitute(row["expression"], inlined)} for row in rows]
    norms = tuple((name, tuple(_exact(P) for P in matrices)) for name, matrices in chain.norms.items())
    return PointProblem({}, rows, tuple(definitions), norms)


def _exact(matrix: Any) -> list[list[Fraction]]:
    """A python-flint rational matrix as rows of Fractions."""
    return [[Fraction(int(q.p), int(q.q)) for q in row] for row in matrix.tolist()]


def _cluster_gap_rows(tokens: Any) -> list[dict[str, Any]]:
    """What pins the rational value g of `cluster_gap` = 1 - min_(a < b) <x_a, x_b> at exact tokens (it reaches the
    statement as that number): g >= 1 - <x_a, x_b> for every pair, with equality at the first pair of least inner
    product, each inner product written out from the coordinates."""
    pairs = sorted(itertools.combinations(range(len(tokens)), 2), key=lambda p: dot(tokens[p[0]], tokens[p[1]]))
    value, rows = tree_of(1 - dot(tokens[pairs[0][0]], tokens[pairs[0][1]])), []
    for k, (a, b) in enumerate(pairs):
        products = (["mul", tree_of(u), tree_of(w)] for u, w in zip(tokens[a], tokens[b], strict=True))
        name, relation = f"cluster_gap {'=' if k == 0 else '>='} 1 - <x_{a}, x_{b}>", "=" if k == 0 else ">="
        expression = ["sub", value, ["sub", ["rat", "1"], ["add", *products]]]
        rows.append({"name": name, "expression": expression, "relation": relation})
    return rows


def equilibrium_problem(payload: dict[str, Any]) -> tuple[str, Problem]:
    """(what the file leaves to others, the Coq problem) of an equilibrium certificate that check-cert accepted, when
    its equilibrium is its centre (no point: the fixed set has dimension 0) at unit rational tokens: every velocity
    coordinate is 0, over the chain; with the writer's `lyapunov` matrix also the spectrum (`_spectrum_problem`, at
    tokens c_i/|c_i| of one norm too), or, in a Krawczyk box of a one-dimensional slice, the sign change and the
    spectrum over the box (`SLICED`)."""
    problem = equilibrium.problem_of(payload)
    if "lyapunov" in payload:
        return (SLICED if payload["point"] else SPECTRUM), _spectrum_problem(problem, payload)
    chain = Chain(problem.cfg)
    if payload["point"] or any(dot(x, x) != 1 for x in chain.cfg.tokens):
        raise NotTranslatable("an equilibrium in a Krawczyk box or at tokens not unit rationals: no exact Coq term")
    rows = [_row("velocity", v, "=") for x in chain.velocities() for v in x]
    return SPECTRUM_LEFT, PointProblem({}, rows, tuple(chain.definitions))


def _row(name: str, value: Any, relation: str) -> dict[str, Any]:
    return {"name": name, "expression": tree_of(value), "relation": relation}


def _power(base: Any, k: int) -> Any:
    return base**k if isinstance(base, Fraction) else ["pow", tree_of(base), k]


def pivot_coordinates(tokens: list[list[Fraction]]) -> list[int]:
    """Each token's first coordinate of the largest |value| (where the tangent basis solves for the normal part)."""
    return [[abs(v) for v in c].index(max(map(abs, c))) for c in tokens]


def tangent_frame(
    tokens: list[list[Fraction]], pivots: list[int] | None = None
) -> tuple[list[list[Fraction]], list[tuple[Any, Any]]]:
    """(C, basis): the centre's tokens scaled to a largest |coordinate| 1 (the same directions x_i = c_i / |c_i|), and
    a rational basis of the tangent spaces c_i^perp with the coordinates that read it: for each token i and k != p (p
    its first coordinate +-1, or the given pivot), (i, k) and u = e_(i,k) - (c_ik / c_ip) e_(i,p) as {(token,
    coordinate): entry}; a tangent vector w of token i is sum_(k != p) w_k u_k (its coordinates (i, k), k != p, read
    it exactly)."""
    centre = [[v / max(map(abs, x)) for v in x] for x in tokens]
    return centre, [
        ((i, k), {(i, k): Fraction(1), (i, p): -c[k] / c[p]})
        for i, (c, p) in enumerate(zip(centre, pivots or pivot_coordinates(centre), strict=True))
        for k in range(len(c))
        if k != p
    ]


class _Frame(NamedTuple):
    """Where the spectrum is stated: t^2 (1 without a square root), each token coordinate's value (a pair e + t o),
    the tangent basis ((token, coordinate) that reads it, {(token, coordinate): entry}), the orbit directions K_c
    at those coordinates, and the slice's direction e (none at the centre)."""

    t2: Fraction
    tokens: list[list[tuple[Any, Any]]]
    basis: list[tuple[Any, Any]]
    K: list[list[Any]]
    direction: list[Fraction] | None = None


def _centre_frame(cfg: ExactConfiguration, orbit: list[Any]) -> _Frame:
    """At the tokens c_i / |c_i| of the centre (`tangent_frame`'s, one |c_i|^2 = q): each coordinate c_ik t with
    t = sqrt(1/q) (a rational when q is a square), the rational basis, K_c = A_c c_i (|c_i| A_c x_i)."""
    centre, basis = tangent_frame(cfg.tokens)
    if len(norms := {dot(x, x) for x in centre}) != 1:
        raise NotTranslatable("a spectrum in Coq needs tokens c_i / |c_i| with one |c_i|^2 (one square root)")
    t2, zero = 1 / norms.pop(), Fraction(0)
    t = root(t2)
    token = (lambda v: (v * t, zero)) if isinstance(t, Fraction) else (lambda v: (zero, v))  # x_i_k = c_ik t
    K = [[dot(A[k], centre[i]) for (i, k), _ in basis] for A in orbit]
    return _Frame(t2, [[token(v) for v in x] for x in centre], basis, K)


def _slice_frame(problem: equilibrium.Problem, orbit: list[Any], define: Any) -> _Frame:
    """Along the chart of a one-dimensional slice: x_i(z) = w_i / |w_i|, w_i = c_i + z e_i (`equilibrium.chart_tokens`
    with E = [e]), each coordinate a definition of z (`SLICE`); the basis at w_i(z), u = e_(i,k) - (w_ik / w_ip)
    e_(i,p) (p the centre's pivot, `tangent_frame`), and K_c = A_c x_i(z)."""
    if len(E := equilibrium.slice_of(problem)) != 1:
        raise NotTranslatable("a Krawczyk box of a slice of dimension != 1: no sign change in several variables")
    cfg, (e,), z, zero = problem.cfg, E, ["sym", SLICE], Fraction(0)
    d = len(cfg.tokens[0])
    w = [[add([c, mul(e[i * d + k], z)]) for k, c in enumerate(x)] for i, x in enumerate(cfg.tokens)]
    tokens, basis = [], []
    for i, (wi, p) in enumerate(zip(w, pivot_coordinates(cfg.tokens), strict=True)):
        norm = define(f"chart_norm_{i}", root(add([mul(v, v) for v in wi])))
        fixed = isinstance(norm, Fraction)  # a token the slice does not move: rational coordinates
        quotients = [v if v == 0 else v / norm if fixed else ["div", tree_of(v), tree_of(norm)] for v in wi]
        tokens.append([define(f"x_{i}_{k}", v) for k, v in enumerate(quotients)])
        for k in (k for k in range(d) if k != p):
            entry = zero if wi[k] == 0 else define(f"chart_u_{i}_{k}", ["neg", ["div", tree_of(wi[k]), tree_of(wi[p])]])
            basis.append(((i, k), {(i, k): Fraction(1), (i, p): entry}))
    K = [[vector_dot(A[k], tokens[i]) for (i, k), _ in basis] for A in orbit]
    return _Frame(Fraction(1), [[(v, zero) for v in x] for x in tokens], basis, K, e)


def _spectrum_problem(problem: equilibrium.Problem, payload: dict[str, Any]) -> Problem:
    """Zero velocity and the spectrum at the tokens x_i = c_i / |c_i| of the centre C (`tangent_frame`'s; one
    |c_i|^2 = q), over the chain of symbolic tokens x_i_k at their values, each tree folded exactly in Q(exp)(t),
    t = sqrt(1/q), t^2 = 1/q: a pair (e, o) is e + t o, each part a rational or a definition (`name`, `name_odd`); t
    is rational when q is a square (tokens +-e_k: no odd parts). D{b}_name is a definition's derivative along the b-th
    vector u_b of `tangent_frame` (forward mode, `derivatives.derivative`): M (a, b) = D{b}_xdot_a (a = (i, k) of that
    basis) is the tangent Jacobian in the basis u (it has no odd part, else NotTranslatable); the orbit directions
    K_c = A_c c_i (|c_i| A_c x_i) at those coordinates give M K_c = 0, and Q = M'^T X + X M' with M' = M - K K^T has
    |Q - I|_F^2 < 1 (Q positive definite). X is the payload's `lyapunov`: symmetric, nonsingular, with negative +
    zeros negative eigenvalues and positive positive ones (Descartes' rule of signs on its characteristic polynomial,
    whose roots are real), checked here; Rejected otherwise. In a Krawczyk box of a one-dimensional slice
    (`_slice_frame`) the same chain is a function of the chart's variable z: psi = e^T F(x(z)) changes sign at the
    box's ends, and |Q - I|_F^2 < 1 at every z of the box (a `SliceProblem`)."""
    cfg, counts, r, definitions = problem.cfg, payload["spectrum"], len(payload["orbit"]), []
    n, d = cfg.n, len(cfg.tokens[0])
    orbit = equilibrium.array(payload["orbit"], (r, d, d), "")

    def define(name: str, value: Any) -> Any:  # a rational is itself, anything else a definition
        if isinstance(value, Fraction):
            return value
        definitions.append((name, value))
        return ["sym", name]

    frame = _slice_frame(problem, orbit, define) if payload["point"] else _centre_frame(cfg, orbit)
    t2, token_values, basis, K, direction = frame
    zero, tangent = Fraction(0), [a for a, _ in basis]
    env: dict[str, Any] = {f"x_{i}_{k}": v for i, x in enumerate(token_values) for k, v in enumerate(x)}
    N, X = len(tangent), equilibrium.array(payload["lyapunov"], (len(tangent),) * 2, "lyapunov")
    Xm = rational_matrix(X)
    poly = Xm.charpoly().coeffs()  # det(tI - X) from t^0: its sign changes count its positive roots (all are real)
    changes = sum(a * b < 0 for a, b in itertools.pairwise([c for c in poly if c]))
    if Xm != Xm.transpose() or not poly[0] or (changes, N - changes) != (counts["positive"], counts["negative"] + r):
        raise Rejected("the lyapunov matrix is not symmetric with the counts' inertia (negative + zeros, positive)")
    chain = Chain(replace(cfg, tokens=[[["sym", f"x_{i}_{k}"] for k in range(d)] for i in range(n)]))

    def times(a: Any, b: Any) -> Any:  # (a0 + t a1)(b0 + t b1), t^2 = t2
        return add([mul(a[0], b[0]), mul(t2, mul(a[1], b[1]))]), add([mul(a[0], b[1]), mul(a[1], b[0])])

    def even(a: Any) -> Any:  # the even part of a pair without an odd one
        if a[1] != 0:
            raise NotTranslatable("an odd term (t = sqrt(1/q)) under a power or exp, or in the tangent Jacobian")
        return a[0]

    rules = {"rat": lambda v: (v, zero), "sym": env.__getitem__, "pow": lambda a, k: (_power(even(a), k), zero)}
    rules |= {"exp": lambda a: (["exp", tree_of(even(a))], zero), "mul": lambda *v: functools.reduce(times, v)}
    rules |= {"add": lambda *v: (add([a for a, _ in v]), add([b for _, b in v]))}
    rules |= {"div": lambda a, b: times(a, rules["pow"](b, -1))}

    def named(name: str, tree: Any) -> None:  # the tree at the tokens' values: each part a rational, or a definition
        parts = fold(tree_of(tree), rules)
        env[name] = tuple(
            v if isinstance(v, Fraction) else define(name + s, v) for v, s in zip(parts, ("", "_odd"), strict=True)
        )

    for name, tree in chain.definitions if chain.velocities() else []:  # the velocities' and their definitions
        named(name, tree)
    for b, (_, u) in enumerate(basis):
        env |= {f"D{b}_x_{i}_{k}": (u.get((i, k), zero), zero) for i in range(n) for k in range(d)}
        for name, tree in chain.definitions:
            terms = (["mul", derivative(tree, s), ["sym", f"D{b}_{s}"]] for s in sorted(symbols(tree)))
            named(f"D{b}_{name}", ["add", ["rat", "0"], *terms])
    M = [[even(env[f"D{b}_xdot_{i}_{k}"]) for b in range(N)] for i, k in tangent]
    velocities = [env[f"xdot_{i}_{k}"] for i in range(n) for k in range(d)]  # e + t o
    S = [[add([M[a][b], *(mul(Fraction(-1), mul(Kc[a], Kc[b])) for Kc in K)]) for b in range(N)] for a in range(N)]
    for p, q in itertools.combinations_with_replacement(range(N), 2):  # Q = M'^T X + X M', M' = M - K K^T
        named(f"Q_{p}_{q}", add([v for a in range(N) for v in (mul(X[a][q], S[a][p]), mul(X[p][a], S[a][q]))]))
    E = [add([env[f"Q_{min(p, q)}_{max(p, q)}"][0], Fraction(-(p == q))]) for p in range(N) for q in range(N)]
    frobenius = _row(FROBENIUS, add([Fraction(1), mul(Fraction(-1), add([mul(e, e) for e in E]))]), ">")
    if direction:
        definitions.append(("chart_psi", tree_of(add([mul(direction[a], even(v)) for a, v in enumerate(velocities)]))))
        z0, radius = equilibrium.array(payload["point"], (1,), "point")[0], parse_rational(payload["radius"])
        return SliceProblem(z0 - radius, z0 + radius, "chart_psi", [frobenius], tuple(definitions))
    rows = [_row("velocity", add([e, mul(root(t2), o)]), "=") for e, o in velocities]
    rows += [_row(f"M K_{c}, row {a}", vector_dot(Ma, Kc), "=") for c, Kc in enumerate(K) for a, Ma in enumerate(M)]
    return PointProblem({}, [*rows, frobenius], tuple(definitions))


def moving_problem(data: dict[str, Any]) -> PointProblem:
    """The Coq problem of a block Gram witness that check-cert accepted, at the flat model of its algebra
    (`equilibrium_statements.flat_model`), over the chain: a moving token's squared tangent speed b^T G b is > 0 (G is
    positive semidefinite: b^T G b > 0 exactly when G b, the tangent velocity's coordinates, is not 0); at rest
    (`AT_REST`), G b_i = 0 for every token i, each coordinate exactly (names unfolded into their terms, `field`)."""
    stated = es.statement_of(data)
    (flat, G, tokens), resting = es.flat_model(stated), stated.spectrum == es.AT_REST
    chain = Chain(flat)
    rows = []
    for i in range(stated.n) if resting else [es.moving_token(stated)]:
        a, t = chain.velocities()[i], tokens[i]  # type: ignore[index]
        along = vector_dot(a, [vector_dot(row, t) for row in G])  # type: ignore[arg-type]
        b = [add([ak, mul(Fraction(-1), mul(along, tk))]) for ak, tk in zip(a, t, strict=True)]
        if not resting:
            speed = vector_dot(b, [vector_dot(row, b) for row in G])  # type: ignore[arg-type]
            rows.append({"name": f"token {i} moves: |P v_{i}|^2 > 0", "expression": tree_of(speed), "relation": ">"})
        for r, row in enumerate(G if resting else []):
            tangent = tree_of(vector_dot(row, b))  # type: ignore[arg-type]
            rows.append({"name": f"token {i} rests: (G b)_{r} = 0", "expression": tangent, "relation": "="})
    return PointProblem({}, rows, tuple(chain.definitions))


def start_problem(data: dict[str, Any], claim_id: str) -> PointProblem:
    """The Coq problem of a `sometime` trajectory statement that its exact start meets: t = 0 lies in [0, T] and x(0)
    is the stated tokens, so no ODE is solved; at the tokens' coordinates (the point), the residual term - bound with
    the statement's relation at every binding (when every one must meet it) or at the first whose balls meet it,
    over the chain of symbolic tokens that the check's balls read. A bound the start does not meet is shown at a later
    step end: `NotTranslatable`."""
    stated = trajectory.statement_of(data, claim_id)
    point = dict(zip(stated.names, (v for x in stated.cfg.tokens for v in x), strict=True))
    met = [holds(r, stated.op) for r in stated.field([ball_of(v) for v in point.values()], "residuals")]
    if not (all if stated.every else any)(met):
        raise NotTranslatable("the bound is shown after t = 0, by a chain of validated ODE steps")
    named = enumerate(zip(stated.residuals, met, strict=True))
    rows = [{"name": f"binding {k}", "expression": tree_of(r), "relation": stated.op} for k, (r, m) in named if m]
    return PointProblem(point, rows if stated.every else rows[:1], tuple(stated.chain.definitions))
