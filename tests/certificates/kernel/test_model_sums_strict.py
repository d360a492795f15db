"""Strict relations and exactly orthogonal heads in the kernel's normal form of sums (`certificates.kernel.model_sums`).

Worked by hand: with M_h self-adjoint and W_h = M_h, n^3 dE_h/dt = sum_i (<F_i, f^h_i> - <F_i, x_i> a^h_i) on the
sphere, and T - a A = |f^h|^2 - <F, x> a, so n^3 dE_h/dt + E_h = G + E_h + sum_i sum_{g != h} <f^h_i, f^g_i>, G the
summed Condition 8's margin sum_i T - sum_i a A. Under `orthogonal-heads` (M_h M_g = 0) the last sum is 0, the bound
sum_g(B_g) - B_h >= 0 at delta = 0; G > 0 where the condition is strict and E_h >= 0 by its definition, so the sides
differ by a term > 0 plus terms >= 0. The attacks: the same payload where the condition is not strict (only parts
>= 0), a coefficient changed, the given dropped, a coefficient > 0 on the range but 0 at the least n, the delta = 0
bound without orthogonal heads.
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

from tests.sample_claims import example, one_claim

STRICT = "strict-summed-condition8-with-energy"
ASSUME = 'assume = ["symmetric-scores", "aligned-values", "orthogonal-heads"]'
GIVEN = 'given = ["sum_i(a_h_i * A_h_i) < sum_i(T_h_i)"]'
CLAIM = '[[claim]]\nid = "c"\nkind = "model"\n{extra}\nlhs = "{lhs}"\nop = "{op}"\nrhs = "{rhs}"\n'
MARGIN = ["-", ["sum_i", ["name", "T_h_i"]], ["sum_i", ["*", ["name", "a_h_i"], ["name", "A_h_i"]]]]


def data(lhs: str, op: str, rhs: str, extra: str = f"{ASSUME}\n{GIVEN}") -> dict[str, Any]:
    return statement_data(one_claim(CLAIM.format(lhs=lhs, op=op, rhs=rhs, extra=extra)))


def item(coefficient: list[Any], term: list[Any]) -> dict[str, Any]:
    return {"coefficient": coefficient, "term": term}


def proved(statement: dict[str, Any], terms: list[dict[str, Any]]) -> bool:
    try:
        model_sums.check(statement, statement["claim"], {"terms": terms})
    except Rejected:
        return False
    return True


def strict_payload() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    statement = statement_data(one_claim(example("implications", STRICT)))
    accepted = [p for p in proposals(statement) if proved(statement, p)]
    assert accepted, "no proposal of the strict claim passes the kernel"
    return statement, accepted[0]


def test_the_strict_claim_carries_a_certificate(tmp_path: Path) -> None:
    path = certify_model(one_claim(example("implications", STRICT)), tmp_path)
    assert path is not None
    checked = check_file(path)
    assert checked.ok, checked.message
    assert "one > 0" in checked.proved


def test_the_payload_is_the_margin_the_energy_and_the_orthogonal_bound() -> None:
    _, payload = strict_payload()
    terms = [entry["term"] for entry in payload]
    assert MARGIN in terms and ["name", "E_h"] in terms
    assert any(t[0] == "sum_i" and t[1][1][0] == "sum_g" for t in terms)  # the bound of the other heads, delta = 0


def test_strict_from_parts_that_are_only_non_negative_is_refused() -> None:
    statement, payload = strict_payload()
    (given,) = statement["given"]
    weak = statement | {"given": [given | {"op": "<="}]}  # the margin is only >= 0
    with pytest.raises(Rejected, match="strict relation needs a term > 0"):
        model_sums.check(weak, STRICT, {"terms": payload})
    assert proved(weak | {"relation": statement["relation"] | {"op": ">="}}, payload)  # >= is what it proves


def test_a_changed_coefficient_or_a_dropped_given_is_refused() -> None:
    statement, payload = strict_payload()
    for k, entry in enumerate(payload):
        changed = [*payload[:k], entry | {"coefficient": ["num", "2"]}, *payload[k + 1 :]]
        assert not proved(statement, changed), entry["term"]
    assert not proved(statement | {"given": []}, payload)
    assert not proved(statement, [entry for entry in payload if entry["term"] != MARGIN])


@pytest.mark.parametrize(("factor", "holds"), [("n - 1", True), ("n - 2", False)])
def test_the_strict_terms_coefficient_is_positive_at_the_least_sizes(factor: str, holds: bool) -> None:
    """(n - 2) G is >= 0 for n >= 2 but 0 at n = 2, so it gives no strict bound; (n - 1) G does."""
    statement = data(f"({factor}) * (sum_i(T_h_i) - sum_i(a_h_i * A_h_i)) + E_h", ">", "0")
    coefficient = ["-", ["name", "n"], ["num", factor[-1]]]
    assert proved(statement, [item(coefficient, MARGIN), item(["num", "1"], ["name", "E_h"])]) is holds


def test_a_positive_number_is_a_strict_term_and_the_relation_reads_both_ways() -> None:
    one = [item(["num", "1"], ["norm2", ["name", "F_i"]]), item(["num", "1"], ["num", "1"])]
    assert proved(data("norm2(F_i) + 1", ">", "0", ""), one)
    assert proved(data("0", "<", "norm2(F_i) + 1", ""), one)
    assert not proved(data("norm2(F_i)", ">", "0", ""), one[:1])
    assert not proved(data("norm2(F_i) + 1", ">", "0", ""), [one[0], item(["num", "0"], ["num", "1"])])


def test_the_orthogonal_bound_needs_orthogonal_heads(tmp_path: Path) -> None:
    monotone = statement_data(one_claim(example("implications", "summed-condition8-monotone")))
    (payload, *_) = [p for p in proposals(monotone) if proved(monotone, p)]
    without = statement_data(one_claim(example("implications", "summed-condition8-without-orthogonality")))
    assert not proved(without, payload)
    assert not any(proved(without, p) for p in proposals(without))
