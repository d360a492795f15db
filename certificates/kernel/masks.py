"""Attention masks as data: which tokens j a token i attends to (m_ij = 1) or ignores (m_ij = 0).

A mask is an n x n table of 0/1 entries with m_ii = 1 on the diagonal: every token attends to itself, so every
softmax row sum_j m_ij exp(beta s_ij) is positive and the normalization is defined. The causal mask is the lower
triangle m_ij = 1 for j <= i (token i attends to tokens j <= i). In every representation a mask enters as a factor
m_ij of each weight w_ij (softmax: normalized over the unmasked j), of each term of the energies
E_h = (1/(2 beta n^2)) sum_ij m_ij exp(beta s_ij), and of the attention distributions; `None` is no mask (m = 1).
A user's masks are validated outside the kernel (`headflow.certificates.masks`); here the checker reads a certificate's.
"""

Mask = tuple[tuple[bool, ...], ...]


def causal(n: int) -> Mask:
    """m_ij = 1 for j <= i: token i attends to itself and the tokens before it."""
    return tuple(tuple(j <= i for j in range(n)) for i in range(n))


def mask_of(value: object, n: int) -> Mask | None:
    """The mask certificate data give n tokens: null (none), "causal", or n rows of n entries 0/1 with 1 on the
    diagonal; ValueError otherwise (which the checker rejects, `headflow.certificates.kernel.recheck.mask_rows`)."""
    if value is None or value == "causal":
        return None if value is None else causal(n)
    shaped = isinstance(value, list) and len(value) == n and all(isinstance(r, list) and len(r) == n for r in value)
    if not shaped or any(isinstance(m, str) or m not in (0, 1) for row in value for m in row):  # type: ignore[union-attr]
        raise ValueError(f'a mask is "causal" or {n} rows of {n} entries 0/1')
    if not all(value[i][i] for i in range(n)):  # type: ignore[index]
        raise ValueError("every token attends to itself (m_ii = 1), so that every softmax row is normalized")
    return tuple(tuple(bool(m) for m in row) for row in value)  # type: ignore[union-attr]


def claim_mask(word: str, rows: Mask | None, n: int) -> Mask | None:
    """The mask a model claim puts on a configuration of n tokens: none, the causal one, or its given rows."""
    return {"given": rows, "causal": causal(n)}.get(word)
