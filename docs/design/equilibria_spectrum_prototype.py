"""Prototype for docs/design/equilibria-spectrum.md (outside the kernel, not part of headflow; run with
PYTHONPATH=$PWD on a certificate file): the spectrum of an exact-centre equilibrium certificate as a Coq point problem.

Definitions at the exact tokens (the symbolic chain's, folded), their directional derivatives along each tangent
coordinate vector (forward mode over the named definitions, `derivatives.derivative`), the tangent Jacobian M, the
known kernel K (orbit directions), the quotient J_C = (T^-1 M C)[r:], a Lyapunov matrix X (rational) and the LDL^T
pivots of Q = J_C^T X + X J_C (recurrence as definitions): conditions xdot = 0, M K = 0 (ring), pivots > 0 (interval).
"""

import json
import sys
import time
from fractions import Fraction as F
from pathlib import Path

import numpy as np
from flint import fmpq, fmpq_mat
from headflow.certificates.coq.source import source
from headflow.certificates.kernel import equilibrium as eq
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.statements import PointProblem, guard
from headflow.certificates.kernel.derivatives import derivative
from headflow.certificates.kernel.exact import ball_of, precision
from headflow.certificates.kernel.exact_data import ExactConfiguration
from headflow.certificates.kernel.exprtree import evaluate, rational_text, symbols
from headflow.certificates.kernel.model_chain import Chain


def R(t):  # a tree of a value
    return ["rat", rational_text(t)] if isinstance(t, F) else t


def fold(t):
    """Rational subtrees folded; 0/1 simplified; exp of a rational kept as exp(q)."""
    if isinstance(t, F):
        return t
    op = t[0]
    if op == "rat":
        return F(t[1])
    if op == "sym":
        return t
    if op == "pow":
        b = fold(t[1])
        k = t[2]
        if isinstance(b, F):
            return b**k
        return ["pow", R(b), k]
    args = [fold(a) for a in t[1:]]
    if op == "add":
        c = sum((a for a in args if isinstance(a, F)), F(0))
        rest = [a for a in args if not isinstance(a, F)]
        parts = rest + ([c] if c else [])
        return F(0) if not parts else parts[0] if len(parts) == 1 else ["add", *map(R, parts)]
    if op == "mul":
        c = F(1)
        for a in args:
            if isinstance(a, F):
                c *= a
        if c == 0:
            return F(0)
        rest = [a for a in args if not isinstance(a, F)]
        parts = ([c] if c != 1 or not rest else []) + rest
        return parts[0] if len(parts) == 1 else ["mul", *map(R, parts)]
    if op == "neg":
        return -args[0] if isinstance(args[0], F) else ["mul", ["rat", "-1"], args[0]]
    if op == "sub":
        return fold(["add", R(args[0]), ["mul", ["rat", "-1"], R(args[1])]])
    if op == "div":
        a, b = args
        if isinstance(a, F) and a == 0:
            return F(0)
        if isinstance(a, F) and isinstance(b, F):
            return a / b
        if isinstance(b, F):
            return fold(["mul", R(1 / b), R(a)])
        return ["div", R(a), R(b)]
    if op == "exp":
        return ["exp", R(args[0])] if not (isinstance(args[0], F) and args[0] == 0) else F(1)
    if op == "sqrt":
        return ["sqrt", R(args[0])]
    raise ValueError(op)


def subst(t, env):
    if isinstance(t, list) and t and t[0] == "sym":
        return R(env.get(t[1], t))
    if isinstance(t, list):
        return [t[0], *[subst(a, env) if isinstance(a, list) else a for a in t[1:]]]
    return t


def main(path):
    payload = json.loads(Path(path).read_text())["payload"]
    prob = eq.problem_of(payload)
    cfg = prob.cfg
    toks = cfg.tokens
    n, d = len(toks), len(toks[0])
    axis = [next(k for k in range(d) if x[k]) for x in toks]
    assert all(sum(v != 0 for v in x) == 1 and abs(x[axis[i]]) == 1 for i, x in enumerate(toks))
    syms = [[["sym", f"x_{i}_{k}"] for k in range(d)] for i in range(n)]
    chain = Chain(ExactConfiguration(syms, cfg.score_matrices, cfg.values, cfg.beta, "sphere", cfg.attention))
    vel = chain.velocities()
    env = {f"x_{i}_{k}": toks[i][k] for i in range(n) for k in range(d)}  # name -> Fraction or sym
    defs = []

    def define(name, tree):
        v = fold(subst(tree, env))
        if isinstance(v, F):
            env[name] = v
        else:
            defs.append((name, v))
            env[name] = ["sym", name]

    tangent = [(i, k) for i in range(n) for k in range(d) if k != axis[i]]
    chain_defs = list(chain.definitions)
    for name, tree in chain_defs:
        define(name, tree)
    # forward derivatives along each tangent coordinate vector b
    for b, (bi, bk) in enumerate(tangent):
        dx = {f"x_{i}_{k}": F(int((i, k) == (bi, bk))) for i in range(n) for k in range(d)}
        for name, tree in chain_defs:
            terms = []
            for s in sorted(symbols(tree)):
                ds = dx.get(s, env.get(f"D{b}_{s}", F(0)))
                if isinstance(ds, F) and ds == 0:
                    continue
                terms.append(["mul", derivative(tree, s), R(ds)])
            define(f"D{b}_{name}", ["add", *terms] if terms else ["rat", "0"])

    def xdot(i, k):
        v = vel[i][k]
        return env[v[1]] if isinstance(v, list) and v[0] == "sym" else fold(subst(v, env))

    def J(a, b):
        i, k = tangent[a]
        v = vel[i][k]
        v = v[1] if isinstance(v, list) and v[0] == "sym" else None
        return env.get(f"D{b}_{v}", F(0)) if v else F(0)

    N = len(tangent)
    Jt = [[J(a, b) for b in range(N)] for a in range(N)]
    # numeric values
    with precision(200):
        benv = {}
        for name, tree in defs:
            benv[name] = evaluate(tree, benv)

        def num(t):
            return float((ball_of(t) if isinstance(t, F) else evaluate(t, benv)).mid())

        Mn = np.array([[num(Jt[a][b]) for b in range(N)] for a in range(N)])
    # the known kernel: orbit directions in tangent coordinates
    K = []
    for A in payload["orbit"]:
        A = [[F(v) for v in row] for row in A]
        AX = [[sum(A[r][c] * toks[i][c] for c in range(d)) for r in range(d)] for i in range(n)]
        K.append([AX[i][k] for i, k in tangent])
    r = len(K)
    cols = [list(v) for v in K]
    for a in range(N):
        e = [F(int(a == b)) for b in range(N)]
        if fmpq_mat([[fmpq(v.numerator, v.denominator) for v in c] for c in [*cols, e]]).rank() == len(cols) + 1:
            cols.append(e)
    T = fmpq_mat([[fmpq(cols[c][a].numerator, cols[c][a].denominator) for c in range(N)] for a in range(N)])
    Ti = T.inv()
    Ti = [[F(int(Ti[a, b].p), int(Ti[a, b].q)) for b in range(N)] for a in range(N)]
    C = cols[r:]
    m = N - r

    # J_C[p][q] = sum_a Ti[r+p][a] * sum_b M[a][b] C[q][b]
    def lin(coeffs):  # sum of rational * J entry, as a tree
        terms = [["mul", R(c), R(t)] for c, t in coeffs if c and not (isinstance(t, F) and t == 0)]
        return fold(["add", *terms]) if terms else F(0)

    JC = [
        [lin([(Ti[r + p][a] * C[q][b], Jt[a][b]) for a in range(N) for b in range(N)]) for q in range(m)]
        for p in range(m)
    ]
    JCn = np.array(
        [
            [sum(float(Ti[r + p][a] * C[q][b]) * Mn[a][b] for a in range(N) for b in range(N)) for q in range(m)]
            for p in range(m)
        ]
    )
    w, V = np.linalg.eig(JCn)
    assert np.abs(w.imag).max() < 1e-9
    w, V = w.real, V.real
    Vi = np.linalg.inv(V)
    Xn = Vi.T @ np.diag(np.sign(w)) @ Vi
    Xn = (Xn + Xn.T) / 2
    X = [[F(round(Xn[p][q] * 2**20), 2**20) for q in range(m)] for p in range(m)]
    X = [[X[min(p, q)][max(p, q)] for q in range(m)] for p in range(m)]
    # Q = JC^T X + X JC as definitions, then LDL^T recurrence
    for p in range(m):
        for q in range(p, m):
            t = lin([(X[k][q], JC[k][p]) for k in range(m)] + [(X[p][k], JC[k][q]) for k in range(m)])
            define(f"Q_{p}_{q}", R(t)) if not isinstance(t, F) else env.__setitem__(f"Q_{p}_{q}", t)

    def Q(p, q):
        return env[f"Q_{min(p, q)}_{max(p, q)}"]

    conds = []
    for j in range(m):  # d_j = Q_jj - sum_k<j L_jk^2 d_k ; L_ij = (Q_ij - sum_k<j L_ik L_jk d_k) / d_j
        dj = [
            "add",
            R(Q(j, j)),
            *[["mul", ["rat", "-1"], env[f"L_{j}_{k}"], env[f"L_{j}_{k}"], env[f"d_{k}"]] for k in range(j)],
        ]
        define(f"d_{j}", dj)
        conds.append({"name": f"pivot {j} of Q", "expression": R(env[f"d_{j}"]), "relation": ">"})
        for i in range(j + 1, m):
            lij = [
                "div",
                [
                    "add",
                    R(Q(i, j)),
                    *[["mul", ["rat", "-1"], env[f"L_{i}_{k}"], env[f"L_{j}_{k}"], env[f"d_{k}"]] for k in range(j)],
                ],
                R(env[f"d_{j}"]),
            ]
            define(f"L_{i}_{j}", lij)
    vel_conds = [{"name": "velocity", "expression": R(xdot(i, k)), "relation": "="} for i in range(n) for k in range(d)]
    ker_conds = [
        {"name": f"M K_{c}", "expression": R(lin([(K[c][b], Jt[a][b]) for b in range(N)])), "relation": "="}
        for c in range(r)
        for a in range(N)
    ]
    # the inertia of X: exact rational LDL^T in Python (a rational fact, check-cert's or lra's)
    signs = [
        np.sign(np.linalg.det(np.array([[float(X[a][b]) for b in range(k)] for a in range(k)]))) if k else 1
        for k in range(m + 1)
    ]
    print("eigs", np.round(np.sort(w), 4), "X leading-minor signs", signs, "defs", len(defs))
    problem = PointProblem({}, vel_conds + ker_conds + conds, tuple(defs))
    text = source("proto", "critical-points.cluster-stable", "prototype", problem, 64)
    Path("/tmp/equilibrium_spectrum.v").write_text(text)
    t = time.monotonic()
    ans = run.compile_source(text, 600, **guard("proto", "critical-points.cluster-stable", "prototype", problem))
    print(ans.status, ans.message[:300], round(time.monotonic() - t, 1), "s")


main(sys.argv[1])
