"""Two holes in the ball re-check of model-claim witnesses (`model_values.settle`), found by the Coq translation
(Coq refused what check-cert accepted): sizes entered as Python ints, so `d / n` was a rounded float; and a `given`
condition was checked only at the witness's own token, while the claim (and its prover) means every token."""

from __future__ import annotations

from fractions import Fraction

from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.kernel.exact import precision
from headflow.certificates.kernel.model_values import settle
from headflow.certificates.statements.model import kernel_statement

F = Fraction
#: Three unit tokens in R^2 (e1, e2, -e1) and one identity head: a_h_i = <f_h_i, x_i> differs in sign by token.
TOKENS = [[F(1), F(0)], [F(0), F(1)], [F(-1), F(0)]]
IDENTITY = [[F(1), F(0)], [F(0), F(1)]]


def _claim(body: str):  # type: ignore[no-untyped-def]
    (claim,) = parse_claims('[[claim]]\nid = "c"\nkind = "model"\n' + body, "t.toml")
    return kernel_statement(claim)


def _config(tokens: list[list[Fraction]], head: list[list[Fraction]] = IDENTITY) -> ExactConfiguration:
    return ExactConfiguration(tokens, [head], [head], F(1))


def test_sizes_are_exact_numbers_so_d_over_n_is_not_rounded() -> None:
    # (d/n) beta n = d beta exactly; with d / n a float (2/3 rounded) balls "saw" the left side below the right.
    claim = _claim('exists = true\nlhs = "(d / n) * beta * n"\nop = "<"\nrhs = "d * beta"\n')
    with precision(128):
        settled = settle(claim, _config(TOKENS), {})
    assert not settled.failures and settled.sign == "", (settled.sign, settled.value)


def test_a_given_condition_must_hold_at_every_token_not_only_the_witness_s() -> None:
    # True claim: if a_h_i >= 0 at every token i, then sum_i(a_h_i) - a_h_i >= 0 (a sum of the others' shadows).
    # With M = W = -I at these tokens a_0 ~ 0.72 >= 0 and a_2 ~ 0.36, but a_1 ~ -0.73 < 0: the relation fails at
    # i = 0 (a_1 + a_2 < 0), where the given holds locally; it does not hold at every token, so this is no witness.
    tokens = [[F(1), F(0)], [F(0), F(1)], [F(-3, 5), F(4, 5)]]
    minus = [[F(-1), F(0)], [F(0), F(-1)]]
    claim = _claim('given = ["a_h_i >= 0"]\nlhs = "sum_i(a_h_i) - a_h_i"\nop = ">="\nrhs = "0"\n')
    with precision(128):
        settled = settle(claim, _config(tokens, minus), {"i": 0, "h": 0})
    assert settled.failures and "given" in settled.failures[0], (settled.failures, settled.sign)
