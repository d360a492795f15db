"""A mask given as 0/1 rows in a model claim: parsed into the claim (for that n only), bad masks refused with a
one-line error naming the field, and the exact check of a witness's mask against the claim's rows."""

from __future__ import annotations

from fractions import Fraction

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.errors import InputError
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.kernel.masks import causal
from headflow.certificates.kernel.model_values import configuration_failures
from headflow.certificates.statements.model import kernel_statement

ROWS = "[[1, 1, 0], [0, 1, 1], [1, 0, 1]]"


def claim(mask: str, extra: str = ""):
    text = f'[[claim]]\nid = "m"\nkind = "model"\nmask = {mask}\nlhs = "inner(x_i, xdot_i)"\nop = "="\nrhs = "0"\n'
    (parsed,) = parse_claims(text + extra, "t.toml")
    return parsed


def test_a_given_mask_fixes_n_and_is_named_in_the_statement() -> None:
    parsed = claim(ROWS)
    assert parsed.mask == "given"
    assert parsed.mask_rows == ((True, True, False), (False, True, True), (True, False, True))
    assert parsed.sizes.low["n"] == parsed.sizes.high["n"] == 3
    assert "the mask [[1, 1, 0], [0, 1, 1], [1, 0, 1]]" in parsed.statement
    assert claim(ROWS, "[claim.domain]\nn = { min = 2, max = 5 }\n").sizes.high["n"] == 3


@pytest.mark.parametrize(
    ("mask", "extra", "field"),
    [
        ("[[1, 0], [1.0, 1]]", "", "mask[1]"),  # a float literal
        ("[[1, 0], [1, 0]]", "", "mask[1][1]"),  # a token that does not attend to itself
        ("[[1, 0], [1, 1, 0]]", "", "mask[1]"),  # ragged
        ("[[1, 2], [0, 1]]", "", "mask[0]"),
        ('[["1", 0], [0, 1]]', "", "mask[0]"),
        ("[[1]]", "", "mask"),  # one token
        (str([[1] * 65] * 65), "", "mask"),  # a huge mask
        (ROWS, "[claim.domain]\nn = { min = 4, max = 6 }\n", "domain.n"),  # not the claim's n
        ('"upper"', "", "mask"),
    ],
)
def test_bad_given_masks_are_one_line_errors(mask: str, extra: str, field: str) -> None:
    with pytest.raises(InputError) as info:
        claim(mask, extra)
    assert info.value.field == field, info.value


def test_a_witness_needs_exactly_the_claims_rows() -> None:
    parsed = kernel_statement(claim(ROWS))
    identity = [[Fraction(int(i == j)) for j in range(2)] for i in range(2)]
    tokens = [[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)], [Fraction(-1), Fraction(0)]]
    cfg = ExactConfiguration(tokens, [identity], [identity], Fraction(1), mask=parsed.mask_rows)
    assert configuration_failures(parsed, cfg, {"i": 0}) == []
    for other in (None, causal(3), tuple(tuple(r) for r in zip(*parsed.mask_rows, strict=True))):
        forged = ExactConfiguration(tokens, [identity], [identity], Fraction(1), mask=other)
        assert configuration_failures(parsed, forged, {"i": 0}), other
    masked = ExactConfiguration(tokens, [identity], [identity], Fraction(1), mask=parsed.mask_rows)
    assert configuration_failures(kernel_statement(claim('"causal"')), masked, {"i": 0})
