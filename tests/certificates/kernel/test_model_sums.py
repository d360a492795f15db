"""Model claims for every n, d, H certified in the kernel's normal form of sums (kind `sums`,
`certificates.kernel.model_sums`): both sides expanded over their sums, equal, or apart by terms c_k N_k >= 0.

The attacks: a claim false for some configurations (two heads' outputs that interfere, scores that are not
symmetric, |sum_i x_i|^2 <= n), false at one size only (H = 1), a forged coefficient, a term that is not >= 0 by its
shape, a coefficient negative at the least size, terms on an equality, a strict relation, a given condition that is
not a range of a size, a term that outgrows the budget, a certificate filed under another claim: none is accepted.
The dummy of a sum being expanded is not renamed apart inside its own body (the bug that made sum_h |f_h|^2 and
|sum_h f_h|^2 one expansion is a test).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.kernel import model_sums
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.model_sums import certify_model, certify_region
from headflow.certificates.statements.model import statement_data
from headflow.checks.rechecks import recheck

from tests.sample_claims import example, one_claim

TRUE = [
    ("sums", "norm-of-sum"),
    ("sums", "pairwise-distances"),
    ("sums", "shadow-cauchy-schwarz"),
    ("sums", "head-pairs"),
    ("sums", "softmax-normalized"),
    ("sums", "symmetric-weighted-scores"),
    ("sums", "heads-at-least-two"),
    ("quantities", "entropy-definition"),
    ("quantities", "entropy-scalar-heads"),
    ("quantities", "entropy-non-negative"),
    ("literature", "rig.entropy-moment-identity"),
    ("literature", "rig.entropy-non-negative"),
]
FALSE = ["pythagoras-without-orthogonality", "weighted-scores-without-symmetry", "norm-of-sum-bounded-by-n"]
FALSE += ["heads-any-number"]
CLAIM = """
[[claim]]
id = "c"
kind = "model"
{extra}
lhs = "{lhs}"
op = "{op}"
rhs = "{rhs}"
"""
SPREAD = ["sum_i", ["sum_j", ["pow", ["-", ["name", "a_h_i"], ["name", "a_h_j"]], 2]]]
HEAD_SQUARES = ["sum_h", ["pow", ["name", "a_h_i"], 2]]


def statement(lhs: str, op: str, rhs: str, extra: str = "") -> dict[str, Any]:
    return statement_data(one_claim(CLAIM.format(lhs=lhs, op=op, rhs=rhs, extra=extra)))


def proved(data: dict[str, Any], terms: list[dict[str, Any]] | None = None) -> bool:
    try:
        model_sums.check(data, data["claim"], {"terms": terms or []})
    except Rejected:
        return False
    return True


def term(coefficient: list[Any], tree: list[Any]) -> dict[str, Any]:
    return {"coefficient": coefficient, "term": tree}


@pytest.mark.parametrize(("name", "claim_id"), TRUE)
def test_a_true_claim_carries_a_certificate_held_to_its_file(name: str, claim_id: str, tmp_path: Path) -> None:
    text = example(name, claim_id)
    path = certify_model(one_claim(text), tmp_path)
    assert path is not None
    checked = check_file(path)
    assert checked.ok and checked.certificate["kind"] == "sums", checked.message
    assert recheck(path, claims={claim_id: one_claim(text)}, read_claim=True).ok


@pytest.mark.parametrize("claim_id", FALSE)
def test_a_false_claim_gets_no_certificate(claim_id: str, tmp_path: Path) -> None:
    assert certify_model(one_claim(example("sums", claim_id)), tmp_path) is None
    assert not list(tmp_path.iterdir())


def test_a_sum_being_expanded_keeps_its_dummy() -> None:
    assert not proved(statement("sum_h(norm2(f_h_i))", "=", "norm2(sum_h(f_h_i))"))
    assert proved(statement("norm2(sum_h(f_h_i))", "=", "sum_h(sum_g(inner(f_h_i, f_g_i)))"))
    assert proved(statement("sum_i(norm2(x_i))", "=", "n"))  # unit tokens, summed over i: n
    assert not proved(statement("sum_i(norm2(x_i))", "=", "n", 'geometry = "flat"'))  # no unit tokens in flat space


def test_the_hypotheses_are_used_only_where_stated() -> None:
    scores = ("sum_j(s_h_ij)", "=", "sum_j(s_h_ji)")
    assert proved(statement("sum_i(sum_j(s_h_ij * inner(x_i, x_j)))", "=", "sum_i(sum_j(s_h_ji * inner(x_i, x_j)))"))
    assert proved(statement(*scores, 'assume = ["symmetric-scores"]'))
    assert not proved(statement(*scores))
    values = ("inner(x_i, W_h(x_i))", "=", "inner(x_i, M_h(x_i))")
    assert proved(statement(*values, 'assume = ["aligned-values"]')) and not proved(statement(*values))
    scalar = ("s_h_ij", "=", "lambda_h * inner(x_i, x_j)")
    assert proved(statement("sum_j(" + scalar[0] + ")", "=", "sum_j(" + scalar[2] + ")", 'assume = ["scalar-heads"]'))


def test_softmax_rows_sum_to_one_and_nothing_else_does() -> None:
    softmax = 'attention = "softmax"'
    assert proved(statement("sum_j(p_h_ij) * sum_j(p_h_ij)", "=", "1", softmax))
    assert proved(statement("sum_j(w_h_ij)", "=", "1", softmax))
    assert not proved(statement("sum_j(w_h_ij)", "=", "1"))  # usa weights are not normalized
    assert not proved(statement("sum_j(p_h_ij * s_h_ij)", "=", "1", softmax))


def test_an_inequality_needs_its_terms_with_their_signs() -> None:
    data = statement_data(one_claim(example("sums", "shadow-cauchy-schwarz")))
    assert not proved(data)
    assert proved(data, [term(["num", "1/2"], SPREAD)])
    assert not proved(data, [term(["num", "1"], SPREAD)])  # a forged coefficient
    assert not proved(data, [term(["num", "-1/2"], SPREAD)])  # a negative one
    negated = ["sum_i", ["sum_j", ["neg", ["pow", ["-", ["name", "a_h_i"], ["name", "a_h_j"]], 2]]]]
    assert not proved(data, [term(["num", "-1/2"], negated)])  # the same residual, not >= 0 by its shape
    heads = statement_data(one_claim(example("sums", "heads-at-least-two")))
    assert proved(heads, [term(["-", ["name", "H"], ["num", "2"]], HEAD_SQUARES)])
    every = statement_data(one_claim(example("sums", "heads-any-number")))  # false at H = 1 only
    assert not proved(every, [term(["-", ["name", "H"], ["num", "2"]], HEAD_SQUARES)])


@pytest.mark.parametrize(("op", "value", "holds"), [(">", "1", True), (">=", "3/2", True), (">=", "1", False)])
def test_a_range_of_the_heads_enters_at_its_least_integer(op: str, value: str, holds: bool) -> None:
    data = statement("sum_h(a_h_i**2)", "<=", "(H - 1) * sum_h(a_h_i**2)")
    data["given"] = [{"lhs": ["name", "H"], "op": op, "rhs": ["num", value]}]
    assert proved(data, [term(["-", ["name", "H"], ["num", "2"]], HEAD_SQUARES)]) == holds


def test_shapes_outside_the_form_are_refused() -> None:
    data = statement_data(one_claim(example("sums", "norm-of-sum")))
    with pytest.raises(Rejected, match="no terms"):
        model_sums.check(data, "norm-of-sum", {"terms": [term(["num", "1"], ["num", "0"])]})
    with pytest.raises(Rejected, match="universal"):
        model_sums.check(data | {"geometry": "ngpt"}, "norm-of-sum", {"terms": []})
    with pytest.raises(Rejected, match="strict relation needs a term > 0"):
        model_sums.check(data | {"relation": data["relation"] | {"op": "<"}}, "norm-of-sum", {"terms": []})
    with pytest.raises(Rejected):
        model_sums.check(data, "norm-of-sum", {"terms": [], "extra": 1})
    cauchy = statement_data(one_claim(example("sums", "shadow-cauchy-schwarz")))
    with pytest.raises(Rejected, match="not a model term"):  # a float literal for 1/2
        model_sums.check(cauchy, "shadow-cauchy-schwarz", {"terms": [term(["num", 0.5], SPREAD)]})


def test_a_term_past_the_budget_is_refused_not_run() -> None:
    big = statement("sum_i(sum_j(inner(x_i, x_j)))**4", "=", "sum_i(sum_j(inner(x_i, x_j)))**4")
    with pytest.raises(Rejected, match="dummies"):
        model_sums.check(big, "c", {"terms": []})
    wide = "(" + " + ".join(f"{k} * sum_h(a_h_i) * T_h_i" for k in range(1, 9)) + ")"
    many = statement(f"{wide}**8", "=", f"{wide}**8")  # 8 summands to the 8th power: past the counted budget
    with pytest.raises(Rejected, match="sums: more than"):
        model_sums.check(many, "c", {"terms": []})


def test_a_certificate_filed_under_another_claim_is_refused(tmp_path: Path) -> None:
    path = certify_model(one_claim(example("sums", "heads-at-least-two")), tmp_path)
    assert path is not None
    every = one_claim(example("sums", "heads-any-number").replace("heads-any-number", "heads-at-least-two"))
    assert not recheck(path, claims={"heads-at-least-two": every}, read_claim=True).ok


def test_quantities_non_negative_by_definition_and_no_others() -> None:
    for lhs in ("entropy_h_i", "Z_h_i", "E_h", "sum_j(p_h_ij * w_h_ij)"):
        data = statement(lhs, ">=", "0", 'attention = "softmax"')
        assert proved(data, [term(["num", "1"], data["relation"]["lhs"])]), lhs
    for lhs in ("entropy_rate_h_i", "dE_h_dt", "a_h_i", "log(Z_h_i)", "-(entropy_h_i)"):
        data = statement(lhs, ">=", "0")  # each can be negative: an entropy falls, a shadow points away, Z < 1
        assert not proved(data, [term(["num", "1"], data["relation"]["lhs"])]), lhs


def test_an_invariant_region_carries_its_bound(tmp_path: Path) -> None:
    """entropy >= 0 at every configuration: the region {entropy >= 0} holds every trajectory (the bound route)."""
    text = example("invariance", "entropy.stays-non-negative")
    path = certify_region(one_claim(text), tmp_path)
    assert path is not None and check_file(path).ok
    assert recheck(path, claims={"entropy.stays-non-negative": one_claim(text)}, read_claim=True).ok
    at_least = one_claim(text.replace('"stays-non-negative"', '"stays-at-least"\nbound = "1/2"'))
    assert not recheck(path, claims={"entropy.stays-non-negative": at_least}, read_claim=True).ok


@pytest.mark.parametrize(
    ("name", "claim_id"), [("existence", "negative-tangential-power"), ("rates", "equality.negative-power")]
)
def test_a_false_existence_claim_carries_the_bound_that_denies_it(name: str, claim_id: str, tmp_path: Path) -> None:
    text = example(name, claim_id)
    path = certify_model(one_claim(text), tmp_path)
    assert path is not None and check_file(path).ok
    assert check_file(path).certificate["statement"]["relation"]["op"] == ">="  # T >= 0 at every configuration
    assert recheck(path, claims={claim_id: one_claim(text)}, read_claim=True).ok
    somewhere = one_claim(text.replace('op = "<"', 'op = ">"').replace('rhs = "-1"', 'rhs = "1"'))
    assert not recheck(path, claims={claim_id: somewhere}, read_claim=True).ok
    assert certify_model(somewhere, tmp_path / "true") is None  # T > 0 (or T = 1) somewhere: true, nothing denies it


@pytest.mark.parametrize(
    ("lhs", "op", "rhs", "holds"),
    [
        ("sum_i(sum_j(norm2(x_i - x_j)))", "<=", "2 * n**2", True),  # 2 n^2 - lhs = 2 |sum_i x_i|^2
        ("sum_h(sum_g(inner(f_h_i, f_g_i)))", ">=", "0", True),  # lhs = |sum_h f_h_i|^2
        ("sum_i(sum_j(norm2(x_i - x_j)))", "<=", "n**2", False),  # false: tokens summing to 0 give 2 n^2
    ],
)
def test_a_squared_norm_of_a_sum_is_proposed(lhs: str, op: str, rhs: str, holds: bool, tmp_path: Path) -> None:
    path = certify_model(one_claim(CLAIM.format(lhs=lhs, op=op, rhs=rhs, extra="")), tmp_path)
    assert (path is not None) == holds
    if path is not None:
        assert check_file(path).ok


def test_a_given_conditions_margin_counts_outside_head_sums_only() -> None:
    """A given condition holds at every token i, at the statement's head h: its margin is a term >= 0 there and in a
    sum over the tokens; inside sum_h it would be read at every head (sum_h a_h_i >= 0 does not follow from a_h_i >= 0
    at one head h), and the kernel reads no margin inside a sum over heads."""
    given = [{"lhs": ["name", "a_h_i"], "op": ">=", "rhs": ["num", "0"]}]
    margin = ["-", ["name", "a_h_i"], ["num", "0"]]
    at_i = statement("2 * a_h_i", ">=", "0") | {"given": given}
    assert proved(at_i, [term(["num", "2"], margin)])
    assert not proved(at_i, [term(["num", "2"], ["-", ["name", "a_h_i"], ["num", "1"]])])  # not the margin
    tokens = statement("sum_i(a_h_i)", ">=", "0") | {"given": given}
    assert proved(tokens, [term(["num", "1"], ["sum_i", margin])])
    heads = statement("sum_h(a_h_i)", ">=", "0") | {"given": given}
    assert not proved(heads, [term(["num", "1"], ["sum_h", margin])])
    reversed_ = statement("a_h_i", "<=", "0") | {"given": given}  # the margin's sign is the condition's
    assert not proved(reversed_, [term(["num", "1"], margin)])
