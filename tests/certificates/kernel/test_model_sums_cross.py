"""Theorem 39 in the kernel's normal form of sums (`certificates.kernel.model_sums`): the rate of a usa head's energy
and the bound of the other heads' pairings.

Worked by hand: with M_h self-adjoint and W_h = M_h, dE_h/dt = (1/n^2) sum_j <xdot_j, f^h_j>; on the sphere xdot_j =
P_j F_j / n, so n^3 dE_h/dt = sum_j (<F_j, f^h_j> - <F_j, x_j><f^h_j, x_j>), and T - a A = |f^h|^2 - <f^h, x><F, x>;
the difference of Theorem 39's sides is (1/n^3) sum_i sum_{g != h} (<f^h_i, f^g_i> + delta Z^h_i Z^g_i), each summand
>= 0 since |<x_j, M_h M_g x_k>| <= delta at unit tokens. The attacks: the error shrunk a hundredfold, the softmax shape
offered for usa weights (whose rows do not sum to 1), the bound without unit tokens (flat space), the Frobenius delta
without its hypothesis, the diagonal g = h left in the sum, a rate of another attention kind or without W = M.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.kernel import model_sums
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.model_sums import certify_model, proposals
from headflow.certificates.statements.model import statement_data
from headflow.checks.rechecks import recheck

from tests.sample_claims import example, one_claim

ALIGNED = 'assume = ["symmetric-scores", "aligned-values"]'
FROBENIUS = 'assume = ["symmetric-scores", "aligned-values", "orthogonal-heads(delta=1/10)"]'
CLAIM = '[[claim]]\nid = "c"\nkind = "model"\n{extra}\nlhs = "{lhs}"\nop = "{op}"\nrhs = "{rhs}"\n'
THEOREM_39 = "sum_i(T_h_i - a_h_i * A_h_i - {delta} * Z_h_i * (sum_h(Z_h_i) - Z_h_i)) / n**3"
CROSS = "inner(f_h_i, F_i) - norm2(f_h_i)"


def claim(lhs: str, op: str, rhs: str, extra: str = ALIGNED) -> Any:
    return one_claim(CLAIM.format(lhs=lhs, op=op, rhs=rhs, extra=extra))


def proved(data: dict[str, Any], terms: list[dict[str, Any]]) -> bool:
    try:
        model_sums.check(data, data["claim"], {"terms": terms})
    except Rejected:
        return False
    return True


def name(written: str) -> list[Any]:
    return ["name", written]


def bound(delta: str, op: str, g: str, usa: bool = True) -> list[Any]:
    weight = ["*", ["*", name(delta), name("Z_h_i")], name(f"Z_{g}_i")] if usa else name(delta)
    return [op, weight, ["inner", name("f_h_i"), name(f"f_{g}_i")]]


def off_diagonal(delta: str, op: str, usa: bool = True) -> list[Any]:
    """sum_{g != h} B_g as the kernel's shape sum_g(B_g) - B_h."""
    return ["-", ["sum_g", bound(delta, op, "g", usa)], bound(delta, op, "h", usa)]


def over_n_cubed(tree: list[Any]) -> list[dict[str, Any]]:
    return [{"coefficient": ["num", "1"], "term": ["/", ["sum_i", tree], ["pow", name("n"), 3]]}]


@pytest.mark.parametrize(
    ("lhs", "op", "rhs", "extra"),
    [
        ("dE_h_dt", ">=", THEOREM_39.format(delta="delta_op"), ALIGNED),
        ("dE_h_dt", ">=", THEOREM_39.format(delta="delta"), FROBENIUS),
        (CROSS, "<=", "(H - 1) * delta_op", 'attention = "softmax"\n' + ALIGNED),
        (CROSS, ">=", "-(H - 1) * delta", 'attention = "softmax"\n' + FROBENIUS),
        ("dE_h_dt", ">=", "0", ALIGNED + '\ngiven = ["' + THEOREM_39.format(delta="delta_op")[:-6] + ' >= 0"]'),
        ("dE_h_dt", "=", "sum_j(inner(xdot_j, f_h_j)) / n**2", ALIGNED),
        ("dE_dt", "=", "sum_h(dE_h_dt)", 'geometry = "flat"\n' + ALIGNED),
    ],
)
def test_theorem_39_and_the_rate_carry_certificates(lhs: str, op: str, rhs: str, extra: str, tmp_path: Path) -> None:
    stated = claim(lhs, op, rhs, extra)
    path = certify_model(stated, tmp_path)
    assert path is not None
    checked = check_file(path)
    assert checked.ok and checked.certificate["kind"] == "sums", checked.message
    assert recheck(path, claims={"c": stated}, read_claim=True).ok


def test_the_examples_of_theorem_39_carry_certificates(tmp_path: Path) -> None:
    for file, claim_id in [("operator_norms", "operator-norm-theorem-39"), ("quantities", "softmax-cross-term")]:
        path = certify_model(one_claim(example(file, claim_id)), tmp_path)
        assert path is not None and check_file(path).ok, claim_id


def test_the_corollary_needs_its_given_condition() -> None:
    """dE_h/dt >= 0 follows from Theorem 39 where its sum is >= 0 (the given's margin over n^3, then the bound); without
    the given, or with a weaker one, the same payload is refused."""
    summed = THEOREM_39.format(delta="delta_op")[:-6]
    data = statement_data(claim("dE_h_dt", ">=", "0", ALIGNED + f'\ngiven = ["{summed} >= 0"]'))
    (payload,) = proposals(data)
    assert [item["term"][0] for item in payload] == ["/", "/"]  # the margin and the bound, each over n^3
    assert proved(data, payload)
    assert not proved(data | {"given": []}, payload)
    weaker = statement_data(claim("dE_h_dt", ">=", "0", ALIGNED + f'\ngiven = ["{summed} >= -1"]'))
    assert not proved(weaker, payload)


def test_the_error_shrunk_is_refused_with_the_true_claims_term() -> None:
    true = statement_data(claim("dE_h_dt", ">=", THEOREM_39.format(delta="delta_op")))
    small = statement_data(claim("dE_h_dt", ">=", THEOREM_39.format(delta="delta_op / 100")))
    terms = over_n_cubed(off_diagonal("delta_op", "+"))
    assert proved(true, terms)
    assert not proved(small, terms)
    assert not proved(true, over_n_cubed(off_diagonal("delta_op", "-")))  # the other sign: not the difference
    assert not proved(true, [{"coefficient": ["num", "2"], "term": terms[0]["term"]}])  # a forged coefficient


def test_the_shape_holds_only_for_its_attention_and_unit_tokens() -> None:
    """usa weights sum to Z, not 1: the softmax bound for usa heads is false and its shape is refused; in flat space
    the tokens are not unit vectors and no shape of the bound is accepted."""
    usa = statement_data(claim(CROSS, "<=", "(H - 1) * delta_op"))
    assert not proved(usa, [{"coefficient": ["num", "1"], "term": off_diagonal("delta_op", "-", usa=False)}])
    softmax = statement_data(claim(CROSS, "<=", "(H - 1) * delta_op", 'attention = "softmax"\n' + ALIGNED))
    assert proved(softmax, [{"coefficient": ["num", "1"], "term": off_diagonal("delta_op", "-", usa=False)}])
    flat = statement_data(claim("dE_h_dt", ">=", THEOREM_39.format(delta="delta_op"), 'geometry = "flat"\n' + ALIGNED))
    assert not proved(flat, over_n_cubed(off_diagonal("delta_op", "+")))
    assert model_sums.cross_trees(model_sums.statement_of(flat, "c")) == []


def test_each_delta_bounds_only_where_it_is_stated() -> None:
    """The Frobenius delta's shape under a statement that assumes no orthogonal-heads: refused (delta_op's taken)."""
    data = statement_data(claim("dE_h_dt", ">=", THEOREM_39.format(delta="delta_op")))
    assert not proved(data, over_n_cubed(off_diagonal("delta", "+")))
    frobenius = statement_data(claim("dE_h_dt", ">=", THEOREM_39.format(delta="delta"), FROBENIUS))
    assert proved(frobenius, over_n_cubed(off_diagonal("delta", "+")))


def test_the_diagonal_is_not_bounded() -> None:
    """sum_g (delta Z^h Z^g - <f^h, f^g>) >= 0 is false (its g = h term is delta (Z^h)^2 - |f^h|^2): its own sum over
    every head, the diagonal kept, is not a shape >= 0."""
    whole = ["sum_g", bound("delta_op", "-", "g")]
    data = statement_data(claim("sum_g(delta_op * Z_h_i * Z_g_i - inner(f_h_i, f_g_i))", ">=", "0"))
    assert not proved(data, [{"coefficient": ["num", "1"], "term": whole}])


@pytest.mark.parametrize(
    "extra",
    ['attention = "softmax"\n' + ALIGNED, 'assume = ["symmetric-scores"]', 'assume = ["aligned-values"]'],
)
def test_the_rate_is_read_only_for_usa_heads_aligned_and_self_adjoint(extra: str) -> None:
    data = statement_data(claim("dE_h_dt", "=", "sum_j(inner(xdot_j, f_h_j)) / n**2", extra))
    assert not proved(data, [])
