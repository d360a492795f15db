"""Benchmark: one velocity evaluation against the complete plain-numpy floor and against the implementation it replaced.

Run from the repository root: `python benchmarks/velocity.py` (a few minutes), `--quick` (n = 64 and 512 only), or
`--long` for the long contexts alone (n = 1024 ... 16384, d = 64, H = 8: most of an hour on two cores).

1. The sphere's softmax, usa and relu velocity at n = 64 (d = 8, H = 4), n = 512 (d = 32, H = 8) and n = 2048
   (d = 64, H = 8), random symmetric heads, beta = 1. Timed side by side in one process, interleaved round by
   round and the best of many rounds kept (the machine is shared): the plain numpy floor (`floor`: the complete
   field written independently, normalization, sum over heads and projection included, checked equal to
   headflow's before timing; no checks, no shift), the replaced implementation (`replaced_velocity`, kept here
   verbatim: `token_velocity(cfg.moved_to(X))` before the token blocks), and headflow as the integrator calls it
   (`field.velocity_function`, one workspace per trajectory). Printed: each time and the ratios to the floor.
2. Long contexts (`--long`): the softmax velocity at n = 1024 ... 16384 (d = 64, H = 8) under the default memory
   budget: the time per evaluation, its ratio to n^2 H d scaling from n = 1024, and the peak memory the
   evaluation allocates (tracemalloc), against the one (H, n, n) float64 array the replaced implementation held.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # headflow's default (checks/__init__.py), set before numpy loads
import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from headflow.checks.model import families
from headflow.checks.model import field as model
from headflow.checks.model.configuration import Configuration

#: (n, d, H, rounds): the sizes of part 1 and how many interleaved rounds each takes the best of.
SIZES = ((64, 8, 4, 3000), (512, 32, 8, 60), (2048, 64, 8, 8))
QUICK_SIZES = SIZES[:2]
LONG_SIZES = (1024, 2048, 4096, 8192, 16384)
LONG_D, LONG_H = 64, 8
KINDS = ("softmax", "usa", "relu")


def floor(X: np.ndarray, M: np.ndarray, values_t: np.ndarray, attention: str) -> np.ndarray:
    """The complete field at beta = 1 in plain numpy, written independently of headflow: the scores <x_i, M_h x_j>
    as one stacked product, the weights in place (exp for softmax and usa, max(s, 0) for relu), the weighted sum of
    the values, the normalization (softmax: by each row's sum; usa and relu: by n), the sum over the heads and the
    projection on each token's tangent space. Nothing left out that headflow computes, no checks, no shift."""
    H, n, d = M.shape[0], X.shape[0], X.shape[1]
    weights = ((X @ M).reshape(H * n, d) @ X.T).reshape(H, n, n)
    if attention == "relu":
        np.maximum(weights, 0.0, out=weights)
    else:
        np.exp(weights, out=weights)
    outputs = weights @ (X @ values_t)
    if attention == "softmax":
        outputs /= weights.sum(axis=-1, keepdims=True)
    else:
        outputs /= n
    total = outputs.sum(axis=0)
    return total - np.sum(total * X, axis=-1, keepdims=True) * X


def replaced_velocity(cfg: Configuration, X: np.ndarray) -> np.ndarray:
    """The velocity as headflow computed it before the token blocks (sphere, no mask, no interaction), verbatim in
    its steps: `moved_to` re-validates and copies the state, beta scales X M_h, an O(H n d) bound decides the
    shift, the values get their column of ones per call, the outputs are divided, summed and projected."""
    cfg = cfg.moved_to(X)
    X = cfg.tokens
    Y = X @ cfg.score_matrices
    if cfg.beta != 1.0:
        Y *= cfg.beta
    bound = float(np.sqrt(np.max(np.einsum("hid,hid->hi", Y, Y)) * np.max(np.einsum("id,id->i", X, X))))
    H, n, d = Y.shape
    z = (Y.reshape(H * n, d) @ X.T).reshape(H, n, n)
    if cfg.attention == "softmax":
        if bound > model.UNSHIFTED_SOFTMAX_BOUND:
            z -= z.max(axis=-1, keepdims=True)
        np.exp(z, out=z)
    elif cfg.attention == "usa":
        with np.errstate(over="ignore"):
            np.exp(z, out=z)
        if bound > model.EXP_SAFE_BOUND and not np.isfinite(np.max(z)):
            raise ValueError("overflow")
    else:
        np.maximum(z, 0.0, out=z)
    values = np.empty((H, n, d + 1))
    np.matmul(X, np.swapaxes(cfg.values, 1, 2), out=values[..., :d])
    values[..., d] = 1.0
    products = z @ values
    outputs = products[..., :d]
    if cfg.attention == "softmax":
        outputs = outputs / products[..., d:]
    elif cfg.attention == "relu":
        outputs /= n
    total = outputs.sum(axis=0)
    if cfg.attention == "usa":
        total /= n
    return total - np.sum(total * X, axis=-1, keepdims=True) * X


def configuration(n: int, d: int, H: int, attention: str, seed: int = 7) -> Configuration:
    rng = np.random.default_rng(seed)
    X = families.random_sphere_tokens(n, d, rng)
    return Configuration.create(X, families.random_symmetric_heads(H, d, rng), beta=1.0, attention=attention)


def interleaved_best(functions: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """The smallest wall time of each function over `rounds` rounds, each round calling every function once (so
    that load on the shared machine hits all of them alike)."""
    best = dict.fromkeys(functions, float("inf"))
    for _ in range(rounds):
        for name, function in functions.items():
            start = time.perf_counter()
            function()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def compare(sizes: tuple[tuple[int, int, int, int], ...]) -> list[dict[str, object]]:
    """Part 1: floor, replaced and headflow side by side at each size and kind."""
    print(
        "one velocity evaluation on the sphere (best of interleaved rounds); ratios to the plain numpy floor"
        " (the complete field)"
    )
    print(
        f"  {'case':34s} {'floor':>10s} {'replaced':>10s} {'headflow':>10s} {'replaced/floor':>15s} {'ours/floor':>11s}"
    )
    rows = []
    for n, d, H, rounds in sizes:
        for attention in KINDS:
            cfg = configuration(n, d, H, attention)
            X, M, values_t = np.array(cfg.tokens), cfg.score_matrices, np.swapaxes(cfg.values, 1, 2)
            ours = model.velocity_function(cfg)
            assert np.allclose(ours(X), replaced_velocity(cfg, X), rtol=1e-12, atol=1e-14)
            assert np.allclose(ours(X), floor(X, M, values_t, attention), rtol=1e-12, atol=1e-14)  # the same field
            functions: dict[str, Callable[[], object]] = {
                "floor": lambda X=X, M=M, W=values_t, a=attention: floor(X, M, W, a),
                "replaced": lambda c=cfg, X=X: replaced_velocity(c, X),
                "headflow": lambda f=ours, X=X: f(X),
            }
            times = interleaved_best(functions, rounds)
            case = f"{attention}, n={n}, d={d}, H={H}"
            fl, old, new = times["floor"], times["replaced"], times["headflow"]
            timings = f"{fl * 1e3:8.3f}ms {old * 1e3:8.3f}ms {new * 1e3:8.3f}ms"
            print(f"  {case:30s} {timings} {old / fl:15.3f} {new / fl:11.3f}")
            rows.append(
                {
                    "benchmark": "velocity",
                    "case": case,
                    "seconds": new,
                    "baseline": "plain numpy floor (complete field)",
                    "baseline_seconds": fl,
                    "ratio": fl / new,
                    "ours_over_floor": new / fl,
                    "replaced_seconds": old,
                    "replaced_over_floor": old / fl,
                    "rounds": rounds,
                }
            )
    return rows


def long_contexts(sizes: tuple[int, ...] = LONG_SIZES) -> list[dict[str, object]]:
    """Part 2: the blocked velocity at long contexts: time, n^2 H d scaling from the first size, peak memory."""
    print(f"\nlong contexts: softmax velocity, d={LONG_D}, H={LONG_H}, default memory budget")
    rows, first = [], None
    for n in sizes:
        cfg = configuration(n, LONG_D, LONG_H, "softmax")
        X = np.array(cfg.tokens)
        tracemalloc.start()  # the workspace included
        ours = model.velocity_function(cfg)
        ours(X)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        seconds = interleaved_best({"headflow": lambda f=ours, X=X: f(X)}, 3 if n <= 4096 else 1)["headflow"]
        first = first or (n, seconds)
        scaled = first[1] * (n / first[0]) ** 2
        whole = 8 * LONG_H * n * n
        print(
            f"  n={n:6d}: {seconds:8.3f} s per evaluation, {seconds / scaled:5.2f}x n^2 scaling from n={first[0]}, "
            f"peak {peak / 2**20:8.1f} MiB (one (H, n, n) array: {whole / 2**20:8.1f} MiB)"
        )
        rows.append(
            {
                "benchmark": "velocity",
                "case": f"long context softmax, n={n}, d={LONG_D}, H={LONG_H}",
                "seconds": seconds,
                "baseline": f"n^2 scaling from n={first[0]}",
                "baseline_seconds": scaled,
                "ratio": scaled / seconds,
                "peak_MiB": peak / 2**20,
                "whole_array_MiB": whole / 2**20,
            }
        )
    return rows


def measure(quick: bool = False, long: tuple[int, ...] = ()) -> list[dict[str, object]]:
    """Every figure of this benchmark (the long contexts at the sizes `long` instead when given), as rows."""
    if long:
        return long_contexts(long)
    return compare(QUICK_SIZES if quick else SIZES)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 64 and 512 only")
    parser.add_argument("--long", action="store_true", help="the long contexts only (n up to 16384)")
    parser.add_argument("--sizes", help="the long contexts' n, comma-separated (default 1024,2048,4096,8192,16384)")
    options = parser.parse_args()
    from benchmarks import results

    sizes = tuple(int(n) for n in options.sizes.split(",")) if options.sizes else LONG_SIZES
    if options.long:
        results.save("velocity-long", measure(long=sizes), sizes=",".join(map(str, sizes)))
    else:
        results.save("velocity", measure(options.quick), quick=options.quick)
