"""The Coq statement of a `sums` certificate: its model statement itself, over every real inner-product space.

The statement (`model_sums`: universal, the sphere or flat space, beta > 0, no data, mask or interaction) reads in Coq
as: for every real vector space V (Coquelicot's `ModuleSpace R_Ring`) with a symmetric bilinear form `ip` that is
>= 0 on the diagonal (`is_inner`: an inner product, or a semi-definite one), tokens x : nat -> V, linear maps M g, W g
(`is_linear`), strengths lambda g, sizes n >= 2, d >= 1, H >= 1, beta > 0 and a token i and head h, under the
statement's hypotheses (unit tokens <x_t, x_t> = 1; M g self-adjoint; W g = M g; M g = lambda g I; M g M g' = 0 for
heads g != g'), with the model's
quantities defined as SPEC section 1 defines them (`let`: the score s, the normalizer Zn, the softmax distribution p,
the kind's weight w, the head output f g t = sum_u w g t u W g x_u, F, the velocity field v, the projection P t u = u
- <u, x_t> x_t, the geometry's velocity xdot, the attention mean xbar, the shadow a, the tangential power T, the other
heads' shadow A, the entropy -sum_u p log p), and under the `given` conditions (bounds of the sizes, or conditions on
the configuration at head h and, where they name the token, at every token, as the claim assumes them), `lhs op
rhs`. Sums are
`hsum m (fun k => ...)` (k = 0 .. m - 1) over the tokens (m = n) or the heads (m = H), `vsum` for vectors (the
prelude's definitions); a size is the real `INR n`. d is the dimension of the model's R^d and bounds nothing here:
the statement holds in every inner-product space, R^d among them. Token i is one of the n tokens, head h one of the H
heads (i < n, h < H).

The rates of the usa energies are derivatives: dEh g is the derivative at tau = 0 of head g's energy at the tokens
x_t + tau xdot_t (Coquelicot's `Derive`), the rate along any motion whose velocity is xdot now, and dE = sum_g dEh g.
A bound of the other heads' products is a premise on a real: `delta_op` (max_{g != g'} |M_g M_g'|_op) is read as any
real delta_op with |<u, M_g M_g' w>| <= delta_op |u| |w| for heads g != g' (the operator norm is the least such
number, so the statement for every such delta_op is the claim at it, and more), and `orthogonal-heads(delta=q)`
(|M_g M_g'|_F <= q) as that premise on delta = q, which |A|_op <= |A|_F gives (the Frobenius norm needs a basis;
the premise, weaker, does not). Named quantities with no definition here (the other rates and global scalars) are
`NotTranslatable`.
"""

from typing import Any

from ..ball_model import stated_delta
from ..model_statements import statement_of
from ..model_terms import Term
from .statements import NotTranslatable, TextStatement, real, theorem_name

SIZES = {"n": "(INR n)", "d": "(INR d)", "H": "(INR H)", "beta": "beta"}
RANGES = {"sum_i": "n", "sum_j": "n", "sum_h": "H", "sum_g": "H"}
#: The quantities the statement defines, by declared name: their Coq name and whether a head index comes first.
SCALARS = {"a_h_i": "a", "T_h_i": "T", "A_h_i": "A", "entropy_h_i": "entropy", "Z_h_i": "Zn"}
VECTORS = {"x": "x", "F": "F", "v": "v", "xdot": "xdot"}  # at a token; f and xbar also at a head
WEIGHTS = {"usa": "exp (beta * s g t u)", "softmax": "p g t u", "relu": "Rmax (beta * s g t u) 0 / INR n"}
VELOCITY = {"usa": "scal (/ INR n) (F t)", "softmax": "F t", "relu": "F t"}
XDOT = {"sphere": "P t (v t)", "flat": "v t"}
HYPOTHESES = {
    "unit-tokens": "(forall t, ip (x t) (x t) = 1)",
    "symmetric-scores": "(forall g u w, ip (M g u) w = ip u (M g w))",
    "aligned-values": "(forall g u, W g u = M g u)",
    "scalar-heads": "(forall g u, M g u = scal (lambda g) u)",
    "orthogonal-heads": "(forall g g' u, (g < H)%nat -> (g' < H)%nat -> g <> g' -> M g (M g' u) = zero)",
}
RELATIONS = {"=": "=", "<=": "<=", ">=": ">=", "<": "<", ">": ">", "!=": "<>"}
BINDERS = "(V : ModuleSpace R_Ring) (ip : V -> V -> R) (x : nat -> V) (M W : nat -> V -> V) (lambda : nat -> R)"
BINDERS += "\n    (n d H : nat) (beta : R) (i h : nat)"
#: The names the statement's `let`s define, in order (the proof introduces them by these names).
DEFINED = ("s", "Zn", "p", "w", "f", "F", "v", "P", "xdot", "xbar", "a", "T", "A", "entropy", "Eh", "E", "dEh", "dE")
#: The premise that a real bounds the other heads' products (the module's docstring), with the real's text.
CROSS = (
    "(forall g g' u w, (g < H)%nat -> (g' < H)%nat -> g <> g' ->\n"
    "    Rabs (ip u (M g (M g' w))) <= {0} * sqrt (ip u u) * sqrt (ip w w))"
)


def coq_text(term: Term, env: dict[str, str]) -> str:
    """The Coq text of a model term, its index letters read as `env` says (a sum binds its letter as itself)."""
    op, args, vector = term.op, term.args, term.vector
    if op == "num":
        return real(args[0])
    if op == "symbol":
        return SIZES[args[0]]
    if op in ("vector", "scalar", "pair"):
        return _named(args[0], args[2], env)
    if op in RANGES:
        letter = op[-1]
        body = coq_text(args[0], env | {letter: letter})
        return f"({'vsum' if vector else 'hsum'} {RANGES[op]} (fun {letter} => {body}))"
    parts = [coq_text(a, env) for a in args if isinstance(a, Term)]
    if op == "*" and vector:
        return f"(scal {parts[0]} {parts[1]})" if args[1].vector else f"(scal {parts[1]} {parts[0]})"
    if op == "/" and vector:
        return f"(scal (/ {parts[1]}) {parts[0]})"
    binary = {"+": ("plus", "+"), "-": ("minus", "-"), "*": (None, "*"), "/": (None, "/")}
    if op in binary:
        return f"({binary[op][0]} {parts[0]} {parts[1]})" if vector else f"({parts[0]} {binary[op][1]} {parts[1]})"
    simple = {"neg": "(opp {0})" if vector else "(- {0})", "inner": "(ip {0} {1})", "norm2": "(ip {0} {0})"}
    simple |= {"log": "(ln {0})", "proj": "(P {i} {0})", "M_h": "(M {h} {0})", "W_h": "(W {h} {0})"}
    if op == "pow":
        return f"({parts[0]} ^ {args[1]})"
    if op in simple:
        return simple[op].format(*parts, i=env.get("i", "i"), h=env.get("h", "h"))
    raise NotTranslatable(f"sums: no Coq term for {op} (a square root)")


def _named(name: str, slots: Any, env: dict[str, str]) -> str:
    head, token = env.get(slots.head or ""), env.get(slots.token or "")
    if name in VECTORS:
        return f"({VECTORS[name]} {token})"
    if name in ("f", "xbar"):
        return f"({name} {head} {token})"
    if name in SCALARS:
        return f"({SCALARS[name]} {head} {token})"
    if name == "lambda_h":
        return f"(lambda {head})"
    if name in ("E", "E_h", "dE_dt", "dE_h_dt"):
        return {"E": "E", "E_h": f"(Eh {head})", "dE_dt": "dE", "dE_h_dt": f"(dEh {head})"}[name]
    if name in ("delta_op", "delta"):
        return name
    if name in ("s_h_ij", "w_h_ij", "p_h_ij"):
        return f"({name[0]} {head} {env[slots.pair[0]]} {env[slots.pair[1]]})"
    raise NotTranslatable(f"sums: {name} has no definition in the Coq statement")


def problem(data: dict[str, Any], claim_id: str, payload: dict[str, Any]) -> TextStatement:
    """The `Theorem` of a `sums` certificate's statement (the module's docstring), with its data."""
    claim = statement_of(data, claim_id)
    free = {"i": "i", "h": "h"}
    lines = ["is_inner ip", "(forall g, is_linear (M g))", "(forall g, is_linear (W g))"]
    lines += ["(2 <= n)%nat", "(1 <= d)%nat", "(1 <= H)%nat", "0 < beta"]
    givens = [f"{coq_text(g.lhs, free)} {RELATIONS[g.op]} {coq_text(g.rhs, free)}" for g in claim.given]
    every = ["i" in g.free for g in claim.given]
    givens = [f"(forall i, (i < n)%nat -> {text})" if at else text for at, text in zip(every, givens, strict=True)]
    delta = stated_delta(claim.hypotheses)
    lines += [HYPOTHESES[name] for name in sorted(claim.hypotheses) if name in HYPOTHESES]
    lines += ["(i < n)%nat", "(h < H)%nat"]
    lines += [f"delta = {real(delta)}"] if delta is not None else []
    lines += [CROSS.format(bound) for bound in bounded(claim)]
    lets = {
        "s": "fun g t u => ip (x t) (M g (x u))",
        "Zn": "fun g t => hsum n (fun u => exp (beta * s g t u))",
        "p": "fun g t u => exp (beta * s g t u) / Zn g t",
        "w": f"fun g t u => {WEIGHTS[claim.attention]}",
        "f": "fun g t => vsum n (fun u => scal (w g t u) (W g (x u)))",
        "F": "fun t => vsum H (fun g => f g t)",
        "v": f"fun t => {VELOCITY[claim.attention]}",
        "P": "fun t u => minus u (scal (ip u (x t)) (x t))",
        "xdot": f"fun t => {XDOT[claim.geometry]}",
        "xbar": "fun g t => vsum n (fun u => scal (p g t u) (x u))",
        "a": "fun g t => ip (f g t) (x t)",
        "T": "fun g t => ip (P t (f g t)) (P t (f g t))",
        "A": "fun g t => ip (minus (F t) (f g t)) (x t)",
        "entropy": "fun g t => - hsum n (fun u => p g t u * ln (p g t u))",
        "Eh": "fun g => / (2 * beta * INR n ^ 2) * hsum n (fun t => hsum n (fun u => exp (beta * s g t u)))",
        "E": "hsum H (fun g => Eh g)",
        "dEh": "fun g => Derive (fun tau => / (2 * beta * INR n ^ 2) * hsum n (fun t => hsum n (fun u =>\n"
        "      exp (beta * ip (plus (x t) (scal tau (xdot t))) (M g (plus (x u) (scal tau (xdot u)))))))) 0",
        "dE": "hsum H (fun g => dEh g)",
    }
    relation = claim.relation
    goal = f"{coq_text(relation.lhs, free)} {RELATIONS[relation.op]} {coq_text(relation.rhs, free)}"
    body = "".join(f"  {line} ->\n" for line in lines) + "".join(f"  let {k} := {lets[k]} in\n" for k in DEFINED)
    body += "".join(f"  {given} ->\n" for given in givens)
    binders = BINDERS + "".join(f" ({bound} : R)" for bound in bounded(claim))
    text = f"Theorem {theorem_name(claim_id)} :\n  forall {binders},\n{body}  {goal}."
    return TextStatement(text, data, payload)


def bounded(claim: Any) -> list[str]:
    """The reals the statement's cross premises bound (the module's docstring): delta_op where a term names it, delta
    where it assumes `orthogonal-heads(delta=q)`."""
    names = frozenset().union(*(t.names for r in (claim.relation, *claim.given) for t in (r.lhs, r.rhs)))
    return ["delta_op"] * ("delta_op" in names) + ["delta"] * (stated_delta(claim.hypotheses) is not None)
