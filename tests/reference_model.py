"""A slow, independent reference of SPEC section 1 written with explicit loops (tests only)."""

from __future__ import annotations

import math

import numpy as np


class Reference:
    def __init__(self, X, M, W, beta, attention, geometry):
        self.X = [list(map(float, row)) for row in X]
        self.M = [[list(map(float, r)) for r in m] for m in M]
        self.W = [[list(map(float, r)) for r in w] for w in W]
        self.beta, self.attention, self.geometry = beta, attention, geometry
        self.n, self.d, self.H = len(self.X), len(self.X[0]), len(self.M)

    @staticmethod
    def dot(u, v):
        return sum(a * b for a, b in zip(u, v, strict=True))

    @staticmethod
    def matvec(A, v):
        return [sum(A[r][c] * v[c] for c in range(len(v))) for r in range(len(A))]

    def proj(self, x, u):
        c = self.dot(u, x)
        return [u[k] - c * x[k] for k in range(len(u))]

    def score(self, h, i, j, X=None):
        X = X or self.X
        return self.dot(X[i], self.matvec(self.M[h], X[j]))

    def weight(self, h, i, j):
        b, n = self.beta, self.n
        if self.attention == "usa":
            return math.exp(b * self.score(h, i, j))
        if self.attention == "softmax":
            return self.p(h, i, j)
        return max(b * self.score(h, i, j), 0.0) / n

    def p(self, h, i, j, X=None):
        z = [self.beta * self.score(h, i, k, X) for k in range(self.n)]
        top = max(z)
        denom = sum(math.exp(v - top) for v in z)
        return math.exp(z[j] - top) / denom

    def f(self, h, i):
        out = [0.0] * self.d
        for j in range(self.n):
            wx = self.matvec(self.W[h], self.X[j])
            w = self.weight(h, i, j)
            for k in range(self.d):
                out[k] += w * wx[k]
        return out

    def v(self, i):
        total = [0.0] * self.d
        for h in range(self.H):
            fh = self.f(h, i)
            for k in range(self.d):
                total[k] += fh[k]
        scale = 1.0 / self.n if self.attention == "usa" else 1.0
        return [scale * t for t in total]

    def xdot(self, i):
        """The scheme's update, each written out from its definition in docs/models.md ("Normalization")."""
        if self.geometry in ("sphere", "flat"):
            v = self.v(i)
            return self.proj(self.X[i], v) if self.geometry == "sphere" else v
        y = [[c / math.sqrt(self.dot(x, x)) for c in x] for x in self.X]
        reads = y if self.geometry in ("pre-ln", "peri-ln", "mix-ln") else self.X
        v = Reference(reads, self.M, self.W, self.beta, self.attention, "flat").v(i)
        length = math.sqrt(self.dot(v, v))
        if self.geometry == "pre-ln":
            return v
        if self.geometry == "peri-ln":
            return [c / length for c in v]
        if self.geometry == "ngpt":
            return self.proj(self.X[i], [c / length for c in v])
        tangent = self.proj(y[i], v)  # mix-ln: a quarter Post-LN, three quarters Pre-LN
        return [0.25 * t + 0.75 * c for t, c in zip(tangent, v, strict=True)]

    def head_energy(self, h, X=None):
        X = X or self.X
        total = sum(math.exp(self.beta * self.score(h, i, j, X)) for i in range(self.n) for j in range(self.n))
        return total / (2 * self.beta * self.n**2)

    def head_energy_rate(self, h):
        """Chain rule written out per pair: d/dt exp(beta s_ij)/(2 beta n^2)."""
        Xd = [self.xdot(i) for i in range(self.n)]
        total = 0.0
        for i in range(self.n):
            for j in range(self.n):
                sdot = self.dot(Xd[i], self.matvec(self.M[h], self.X[j])) + self.dot(
                    self.X[i], self.matvec(self.M[h], Xd[j])
                )
                total += math.exp(self.beta * self.score(h, i, j)) * sdot
        return total / (2 * self.n**2)

    def shadow(self, h, i):
        return self.dot(self.f(h, i), self.X[i])

    def tangential(self, h, i):
        t = self.proj(self.X[i], self.f(h, i))
        return self.dot(t, t)

    def entropy(self, h, i, X=None):
        ps = [self.p(h, i, j, X) for j in range(self.n)]
        return -sum(q * math.log(q) for q in ps if q > 0)

    def entropy_rate(self, h, i, step=1e-6):
        """Central difference of the entropy along X + t Xdot (the reference does not differentiate)."""
        Xd = [self.xdot(k) for k in range(self.n)]
        plus = [[self.X[k][c] + step * Xd[k][c] for c in range(self.d)] for k in range(self.n)]
        minus = [[self.X[k][c] - step * Xd[k][c] for c in range(self.d)] for k in range(self.n)]
        return (self.entropy(h, i, plus) - self.entropy(h, i, minus)) / (2 * step)

    def cluster_gap(self):
        return max(1 - self.dot(self.X[i], self.X[j]) for i in range(self.n) for j in range(self.n) if i != j)


def as_arrays(ref: Reference):
    return np.array(ref.X), np.array(ref.M), np.array(ref.W)
