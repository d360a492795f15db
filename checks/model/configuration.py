"""A validated configuration of the model of SPEC section 1 (tokens, heads, beta, kind, geometry)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from headflow.certificates.claims.interaction_text import parse_interaction
from headflow.certificates.errors import InputError
from headflow.certificates.kernel.interaction import Interaction
from headflow.certificates.kernel.vocabulary import ATTENTION_KINDS, DIRECTION_GEOMETRIES, GEOMETRIES
from headflow.certificates.masks import mask_of
from headflow.certificates.vocabulary import (
    MAX_DIMENSION,
    MAX_HEADS,
    MAX_TOKENS,
    SPHERICAL_GEOMETRIES,
    Attention,
    Geometry,
)
from headflow.checks.model import memory

#: Largest |norm - 1| accepted for a token on the sphere when the caller does not normalize.
UNIT_NORM_TOLERANCE = 1e-9
#: Most float64 entries of one family's array of H*n*d or H*d*d numbers (`headflow.checks.model.families`) and of a
#: simulation's records; the model's n x n arrays are bounded by the memory budget instead (`memory`).
MAX_ARRAY_ELEMENTS = 2**25


@dataclass(frozen=True, eq=False)
class Configuration:
    """Tokens X (n x d), score matrices M (H x d x d), value matrices W, beta, kind, geometry (the normalization
    scheme: `headflow.certificates.kernel.vocabulary.GEOMETRIES`), attention mask, interaction function.

    Build it with `Configuration.create`, which validates every field; the arrays are
    read-only so a configuration can be shared safely between checks. beta may have either sign
    (beta < 0: repulsive attention) or be 0 (uniform softmax weights; the usa energy, with its
    1/beta, is undefined there). `mask` is None (every token attends to every token) or an n x n
    boolean array with a true diagonal (`headflow.certificates.kernel.masks`).
    """

    tokens: np.ndarray
    score_matrices: np.ndarray
    values: np.ndarray
    beta: float
    attention: Attention = "usa"
    geometry: Geometry = "sphere"
    mask: np.ndarray | None = None
    #: The stated interaction function phi(s) of the weights (None: the kind's own, exp(beta s) or relu).
    interaction: Interaction | None = None
    #: Bytes the float evaluations may hold at once (None: the memory available); n x n quantities are
    #: evaluated a block of query tokens at a time within it (`headflow.checks.model.memory`).
    memory_budget: int | None = None

    @classmethod
    def create(
        cls,
        tokens: object,
        score_matrices: object | None = None,
        values: object | None = None,
        beta: float = 1.0,
        attention: str = "usa",
        geometry: str = "sphere",
        normalize: bool = False,
        unit_tolerance: float = UNIT_NORM_TOLERANCE,
        interaction: str | Interaction | None = None,
        *,
        queries: object | None = None,
        keys: object | None = None,
        mask: object | None = None,
        memory_budget: int | str | None = None,
    ) -> Configuration:
        """Validate and freeze a configuration; `values=None` means value alignment W = M. `interaction` (usa or
        softmax attention) is phi(s) as text, e.g. "s**2" (`certificates.kernel.interaction`): weights phi(s_ij),
        normalized over j for softmax.

        The scores are given either as `score_matrices` M_h or as `queries` Q_h and `keys` K_h (H x r x d
        each), with M_h = Q_h^T K_h so that s^h_ij = <Q_h x_i, K_h x_j>. `mask` is None, "causal" (token i
        attends to j <= i) or n rows of n entries 0/1 with ones on the diagonal (with an interaction too: weights
        m_ij phi(s_ij)). `memory_budget` (bytes, or text such as "8GiB"; None: the memory available) bounds what one
        evaluation holds: a configuration whose evaluation by one query token at a time would not fit is refused."""
        X = _finite_array("tokens", tokens, ndim=2)
        M = _finite_array("score_matrices", _scores(score_matrices, queries, keys), ndim=3)
        W = M if values is None else _finite_array("values", values, ndim=3)
        n, d = X.shape
        if n < 2:
            raise InputError("n", n, "at least two tokens are needed")
        if n > MAX_TOKENS:
            raise InputError("n", n, f"at most {MAX_TOKENS} tokens are supported")
        if d < 1 or d > MAX_DIMENSION:
            raise InputError("d", d, f"the dimension must lie in 1..{MAX_DIMENSION}")
        H = M.shape[0]
        if H < 1 or H > MAX_HEADS:
            raise InputError("H", H, f"the number of heads must lie in 1..{MAX_HEADS}")
        if M.shape[1:] != (d, d):
            raise InputError("score_matrices.shape", M.shape, f"expected (H, {d}, {d}) for d={d}")
        if W.shape != M.shape:
            raise InputError("values.shape", W.shape, f"expected the shape of score_matrices {M.shape}")
        budget = None if memory_budget is None else memory.checked_budget(memory_budget)
        needed = memory.whole_bytes(n, d, H, mask is not None) + memory.row_bytes(n, H)
        memory.require(needed, budget, f"an evaluation at n={n}, d={d}, H={H}")
        beta = _finite_float("beta", beta)
        mask_array = _mask_array(mask, n)
        if attention not in ATTENTION_KINDS:
            raise InputError("attention", attention, f"expected one of {', '.join(ATTENTION_KINDS)}")
        if geometry not in GEOMETRIES:
            raise InputError("geometry", geometry, f"expected one of {', '.join(GEOMETRIES)}")
        if isinstance(interaction, Interaction):
            interaction = parse_interaction(interaction.text, attention) if attention == "relu" else interaction
        elif interaction is not None:
            interaction = parse_interaction(interaction, attention)
        if not (isinstance(unit_tolerance, int | float) and 0 <= unit_tolerance < 1):
            raise InputError("unit_tolerance", unit_tolerance, "must be a number in [0, 1)")
        if normalize:
            norms = np.linalg.norm(X, axis=1)
            if np.any(norms == 0):
                raise InputError("tokens", int(np.argmin(norms)), "a zero token cannot be normalized")
            if not np.all(np.isfinite(norms)):
                raise InputError("tokens", int(np.argmax(~np.isfinite(norms))), "the token's norm overflows float64")
            X = X / norms[:, None]
        if geometry in DIRECTION_GEOMETRIES and np.any(np.linalg.norm(X, axis=1) == 0):
            raise InputError("tokens", int(np.argmin(np.linalg.norm(X, axis=1))), f"{geometry} needs non-zero tokens")
        if normalize or geometry in SPHERICAL_GEOMETRIES:
            deviation = np.abs(np.linalg.norm(X, axis=1) - 1.0)
            worst = int(np.argmax(deviation))
            if deviation[worst] > max(unit_tolerance, 1e-12 if normalize else 0.0):
                raise InputError(
                    f"tokens[{worst}]",
                    float(np.linalg.norm(X[worst])),
                    f"tokens on the sphere need unit norm (tolerance {unit_tolerance:g}); "
                    + ("normalizing did not reach it" if normalize else "pass normalize=True to rescale"),
                )
        if mask_array is not None:
            mask_array.setflags(write=False)
        return cls(_frozen(X), _frozen(M), _frozen(W), beta, attention, geometry, mask_array, interaction, budget)  # type: ignore[arg-type]

    @property
    def n(self) -> int:
        return self.tokens.shape[0]

    @property
    def d(self) -> int:
        return self.tokens.shape[1]

    @property
    def H(self) -> int:
        return self.score_matrices.shape[0]

    def moved_to(self, tokens: np.ndarray) -> Configuration:
        """The same heads and options at new token positions (used along trajectories).

        Only the shape and finiteness are re-checked: an integrator's retraction keeps the
        norms within rounding, and the caller owns that invariant.
        """
        X = np.asarray(tokens, dtype=float)
        if X.shape != self.tokens.shape:
            raise InputError("tokens.shape", X.shape, f"expected {self.tokens.shape}")
        if not np.all(np.isfinite(X)):
            raise InputError("tokens", "non-finite", "the state left the finite range")
        moved = Configuration(
            _frozen(X),
            self.score_matrices,
            self.values,
            self.beta,
            self.attention,
            self.geometry,
            self.mask,
            self.interaction,
            self.memory_budget,
        )
        # The block evaluators (one per thread, `checks.model.token_blocks.heads_of`) do not depend on the tokens:
        # every state moved to from this configuration shares them, and their work buffers.
        moved.__dict__["_heads"] = self.__dict__.setdefault("_heads", {})
        return moved


def _finite_array(field: str, value: object, ndim: int) -> np.ndarray:
    try:
        array = np.array(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InputError(field, value, f"not a numeric array ({exc})") from None
    if array.ndim != ndim:
        raise InputError(f"{field}.ndim", array.ndim, f"expected a {ndim}-dimensional array")
    if array.size == 0:
        raise InputError(f"{field}.shape", array.shape, "empty array")
    if not np.all(np.isfinite(array)):
        raise InputError(field, "non-finite entry", "every entry must be finite")
    return array


def _mask_array(mask: object | None, n: int) -> np.ndarray | None:
    """The mask as an n x n boolean array (None: no mask), validated as `headflow.certificates.masks.mask_of` does
    but in whole-array operations (n may be large): 0/1 entries, ones on the diagonal."""
    if mask is None:
        return None
    if isinstance(mask, str):
        if mask.strip() != "causal":
            mask_of(mask, n)  # raises the one-line error naming the known masks
        return np.tril(np.ones((n, n), dtype=bool))
    try:
        rows = np.asarray(mask)
    except (TypeError, ValueError):
        rows = np.empty(0)
    if rows.shape != (n, n) or rows.dtype.kind not in "biuf":
        raise InputError("mask", getattr(rows, "shape", None), f"expected {n} rows of {n} entries 0/1")
    binary = (rows == 0) | (rows == 1)
    if not np.all(binary):
        raise InputError(f"mask[{int(np.argmin(np.all(binary, axis=1)))}]", "entries", "every entry is 0 or 1")
    diagonal = np.diagonal(rows) == 1
    if not np.all(diagonal):
        i = int(np.argmin(diagonal))
        raise InputError(f"mask[{i}][{i}]", 0, "every token attends to itself (m_ii = 1): softmax rows normalize")
    return rows.astype(bool)


def _scores(score_matrices: object | None, queries: object | None, keys: object | None) -> object:
    """M_h as given, or Q_h^T K_h from queries and keys (H x r x d each); exactly one of the two ways."""
    if (queries is None) != (keys is None):
        raise InputError("keys" if keys is None else "queries", None, "give both queries and keys (M_h = Q_h^T K_h)")
    if queries is None:
        if score_matrices is None:
            raise InputError("score_matrices", None, "give score_matrices, or queries and keys")
        return score_matrices
    if score_matrices is not None:
        raise InputError("score_matrices", "given", "give score_matrices or queries and keys, not both")
    Q, K = _finite_array("queries", queries, ndim=3), _finite_array("keys", keys, ndim=3)
    if Q.shape != K.shape:
        raise InputError("keys.shape", K.shape, f"expected the shape of queries {Q.shape} (H x r x d)")
    return np.swapaxes(Q, 1, 2) @ K


def _finite_float(field: str, value: object) -> float:
    if isinstance(value, bool):
        raise InputError(field, value, "not a number")
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InputError(field, value, "not a number") from None
    if not math.isfinite(number):
        raise InputError(field, value, "must be finite")
    return number


def _frozen(array: np.ndarray) -> np.ndarray:
    array = np.array(array, dtype=float, copy=True)
    array.setflags(write=False)
    return array
