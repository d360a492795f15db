"""Head matrices, logarithms and entropies in the symbolic reduction over tokens and heads (`model_reduction`).

Words of head matrices are bases of one head (`model_words`): a head matrix inside a sum over heads, a matrix of one
head on a vector of another, and an attention mean inside a sum over heads are refused (not reduced), never
identified with another head's quantity. Claims true only for scalar heads are PROVED only with `scalar-heads`;
entropies' non-negativity is a condition at every token, relabelled with the dummies of double sums.
"""

from __future__ import annotations

import json

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.checks.claimsfile import model_atoms as atoms
from headflow.checks.claimsfile.model_reduction import prove_model
from headflow.checks.claimsfile.model_words import pairing


def claim(lhs: str, op: str, rhs: str, assume: list[str] | None = None, **extra: object):  # type: ignore[no-untyped-def]
    fields = {"id": "c", "kind": "model", "assume": assume or [], "lhs": lhs, "op": op, "rhs": rhs, **extra}
    (parsed,) = parse_claims("[[claim]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in fields.items()), "t.toml")
    return parsed


SYM = ["symmetric-scores"]


@pytest.mark.parametrize(
    ("lhs", "op", "rhs", "assume", "reason"),
    [
        # the sum over heads of <x, M_h x> is not H times one head's
        ("sum_h(inner(x_i, M_h(x_i)))", "=", "H * inner(x_i, M_h(x_i))", SYM, "inside a sum over heads"),
        ("sum_h(norm2(M_h(x_i)))", ">=", "0", SYM, "inside a sum over heads"),
        # M_h f^g: a word mixing two heads
        ("sum_g(inner(M_h(f_g_i), x_i))", "=", "H * inner(M_h(f_h_i), x_i)", SYM, "of another head"),
        ("sum_g(inner(M_h(f_g_i), x_i))", "=", "inner(M_h(F_i), x_i)", SYM, "of another head"),
        # the heads' attention means do not sum to F (main PROVED this: xbar^s was summed like f^s)
        ("sum_h(inner(xbar_h_i, x_i))", "=", "inner(F_i, x_i)", [], "attention mean inside a sum over heads"),
        ("sum_h(norm2(xbar_h_i))", "=", "norm2(F_i)", [], "attention mean inside a sum over heads"),
    ],
)
def test_head_matrices_and_means_in_head_sums_are_refused(
    lhs: str, op: str, rhs: str, assume: list[str], reason: str
) -> None:
    derivation = prove_model(claim(lhs, op, rhs, assume))
    assert not derivation.proved
    assert any(reason in failure for failure in derivation.failures), derivation.failures


@pytest.mark.parametrize(
    ("lhs", "op", "rhs", "assume"),
    [
        ("sum_h(lambda_h)", "=", "H * lambda_h", ["scalar-heads"]),  # different heads' strengths
        ("sum_h(log(Z_h_i))", "=", "H * log(Z_h_i)", []),
        ("sum_i(log(Z_h_i))", "=", "n * log(Z_h_i)", []),  # different tokens' normalizers
        ("sum_h(entropy_h_i)", "=", "H * entropy_h_i", []),
        ("sum_g(inner(M_h(x_i), f_g_i))", "=", "H * inner(M_h(x_i), f_h_i)", SYM),
        ("sum_g(inner(M_h(x_i), f_g_i)) + inner(f_h_i, M_h(x_i))", ">=", "inner(M_h(x_i), F_i)", SYM),
    ],
)
def test_different_heads_and_tokens_are_different_atoms(lhs: str, op: str, rhs: str, assume: list[str]) -> None:
    assert not prove_model(claim(lhs, op, rhs, assume)).proved


SCALAR_ONLY = [
    ("inner(M_h(x_i), f_h_i)", "=", "inner(M_h(x_i), x_i) * inner(x_i, f_h_i)"),
    ("inner(x_i, M_h(x_i))", ">", "0"),
    ("norm2(M_h(f_h_i))", "=", "inner(f_h_i, M_h(M_h(f_h_i)))"),  # also true for symmetric heads
]


@pytest.mark.parametrize(("lhs", "op", "rhs"), SCALAR_ONLY)
def test_scalar_heads_prove_what_they_make_true(lhs: str, op: str, rhs: str) -> None:
    derivation = prove_model(claim(lhs, op, rhs, ["scalar-heads"]))
    assert derivation.proved, derivation.failures
    assert any("Scalar heads: M_h = lambda_h I" in step.text for step in derivation.steps)


@pytest.mark.parametrize(("lhs", "op", "rhs"), SCALAR_ONLY[:2])
def test_claims_true_only_for_scalar_heads_are_not_proved_without(lhs: str, op: str, rhs: str) -> None:
    for assume in ([], SYM, [*SYM, "aligned-values", "orthogonal-heads"]):
        assert not prove_model(claim(lhs, op, rhs, assume)).proved


@pytest.mark.parametrize(
    ("lhs", "op", "rhs", "proved_with", "not_with"),
    [
        # a word at the free head inside a sum over another head: linear in f^g, so <M_h x, F>
        ("sum_g(inner(M_h(x_i), f_g_i))", "=", "inner(M_h(x_i), F_i)", [], None),
        # symmetric matrices move across tokens of a sum
        ("inner(M_h(sum_j(x_j)), x_i)", "=", "sum_j(inner(x_j, M_h(x_i)))", SYM, []),
        ("norm2(M_h(x_i))", "=", "inner(x_i, M_h(M_h(x_i)))", SYM, []),
        # every matrix of the word must be symmetric to move
        (
            "norm2(M_h(W_h(x_i)))",
            "=",
            "inner(x_i, W_h(M_h(M_h(W_h(x_i)))))",
            [*SYM, "symmetric-values"],
            SYM,
        ),
        # aligned values: W_h = M_h
        ("inner(W_h(x_i), f_h_i)", "=", "inner(x_i, M_h(f_h_i))", [*SYM, "aligned-values"], SYM),
    ],
)
def test_words_of_one_head(lhs: str, op: str, rhs: str, proved_with: list[str], not_with: list[str] | None) -> None:
    derivation = prove_model(claim(lhs, op, rhs, proved_with))
    assert derivation.proved, derivation.failures
    if not_with is not None:
        assert not prove_model(claim(lhs, op, rhs, not_with)).proved


@pytest.mark.parametrize(
    ("lhs", "op", "rhs", "expected"),
    [
        ("log(n)", ">", "0", True),  # n >= 2
        ("log(H)", ">=", "0", True),
        ("log(d)", ">=", "0", True),
        ("log(H)", ">", "0", False),  # H = 1
        ("log(d)", ">", "0", False),  # d = 1
        ("log(beta)", ">=", "0", False),  # beta < 1
        ("log(E)", ">", "0", False),
        ("log(Z_h_i)", ">=", "0", False),  # Z can be < 1 (scores < 0)
    ],
)
def test_signs_of_logarithms(lhs: str, op: str, rhs: str, expected: bool) -> None:
    assert prove_model(claim(lhs, op, rhs)).proved is expected


@pytest.mark.parametrize(
    ("lhs", "op", "rhs", "expected"),
    [
        ("sum_i(entropy_h_i)", ">=", "0", True),
        ("sum_i(entropy_h_i)", ">", "0", False),
        # the condition at each dummy is one function of its token: relabelling t1 <-> t2 maps it to itself
        ("sum_i(sum_j(entropy_h_i * entropy_h_j))", ">=", "0", True),
        ("sum_i(sum_j(entropy_h_i - entropy_h_j))", "=", "0", True),
        ("sum_i(sum_j(entropy_h_i - 2 * entropy_h_j))", "=", "0", False),
        ("sum_h(entropy_h_i)", ">=", "0", True),  # a head sum of entropies (not reduced) is >= 0
        ("entropy_h_i * log(n)", ">=", "0", True),
    ],
)
def test_entropy_conditions_at_every_token(lhs: str, op: str, rhs: str, expected: bool) -> None:
    derivation = prove_model(claim(lhs, op, rhs, attention="softmax"))
    assert derivation.proved is expected, derivation.failures


def test_pairing_names_one_split_and_moves_only_within_one_head() -> None:
    x, mx = ("x", None, "i"), ("M[x]", "h", "i")
    mmx = ("M[M[x]]", "h", "i")
    symmetric = frozenset("M")
    assert pairing(x, mmx, symmetric) == pairing(mx, mx, symmetric) == (mx, mx)  # the square
    assert pairing(x, mmx, frozenset()) == (x, mmx)  # not symmetric: not moved
    other = ("f", "s1", "i")
    assert pairing(mx, other, symmetric) == (mx, other)  # M_h onto f^s would mix heads
    across = pairing(("M[x]", "h", "t1"), ("x", None, "t2"), symmetric)
    assert atoms.gram(*across) == atoms.gram(*pairing(("x", None, "t1"), ("M[x]", "h", "t2"), symmetric))


RATE = "sum_i(Z_h_i * inner(xdot_i, M_h(xbar_h_i))) / n**2"


@pytest.mark.parametrize(
    ("lhs", "op", "rhs", "assume", "attention"),
    [
        # E_h is then (1/(2 n^2)) sum Phi(s): its rate has the weights phi(s), not exp(beta s) = Z p
        ("dE_h_dt", "=", RATE, SYM, "usa"),
        ("dE_h_dt", "=", RATE, [*SYM, "aligned-values"], "softmax"),
        # the approximate orthogonality lemma's row sums are those of exp(beta s)
        (
            "inner(f_h_i, F_i) - norm2(f_h_i)",
            "<=",
            "(H - 1) / 10",
            [*SYM, "aligned-values", "orthogonal-heads(delta=1/10)"],
            "softmax",
        ),
        ("log(E)", "=", "log(E)", [], "usa"),  # an interaction's energy may be <= 0
    ],
)
def test_a_stated_interaction_keeps_the_exp_reductions_out(
    lhs: str, op: str, rhs: str, assume: list[str], attention: str
) -> None:
    assert prove_model(claim(lhs, op, rhs, assume, attention=attention)).proved
    assert not prove_model(claim(lhs, op, rhs, assume, attention=attention, interaction="1 + s**2")).proved
