"""A dynamics claim's own head matrices (`scores`, `queries` and `keys`, `values`): parsed exactly, validated
(shapes, finite, sizes, no float literal), and read the same by the numpy model, the balls and the exact model."""

from __future__ import annotations

import math
import textwrap
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from headflow.certificates import model_balls
from headflow.certificates.claims.given_matrices import MAX_ENTRIES, given_matrices
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.errors import InputError
from headflow.certificates.kernel import ball_model
from headflow.certificates.kernel.ball_model import ExactConfiguration
from headflow.certificates.kernel.model_chain import Chain
from headflow.certificates.statements.dynamics import family_hypotheses
from headflow.checks.claimsfile.dynamics_starts import configuration
from headflow.checks.model import field

HEAD = """
[[claim]]
id = "c"
kind = "dynamics"
quantity = "energy"
property = "non-decreasing"
n = 3
d = 2
beta = 1
tokens = "random-sphere"
"""


def options(text: str, base: Path | None = None) -> dict:
    (claim,) = parse_claims(textwrap.dedent(HEAD + text), "t.toml", base)
    return claim.options


def test_inline_scores_and_values_are_exact_rationals() -> None:
    found = options('heads = "given"\nscores = [[[1, "1/3"], ["-0.25", 2]]]\nvalues = [[[0, 1], [1, 0]]]\n')
    assert found["scores"].exact() == [[[1, Fraction(1, 3)], [Fraction(-1, 4), 2]]]
    assert found["values"] == "given" and found["value_matrices"].exact() == [[[0, 1], [1, 0]]]
    assert found["H"] == 1


def test_queries_and_keys_give_their_exact_product() -> None:
    found = options('heads = "given"\nqueries = [[[1, 2], [0, "1/2"], [3, 0]]]\nkeys = [[[1, 0], [1, 1], [0, 2]]]\n')
    Q, K = np.array([[1, 2], [0, 0.5], [3, 0]]), np.array([[1, 0], [1, 1], [0, 2]])
    assert found["scores"].exact() == [[[Fraction(v) for v in row] for row in Q.T @ K]]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('heads = "given"\nscores = [[[1, 0.5], [0, 1]]]\n', "write the entry exactly"),  # a float literal
        ('heads = "given"\nscores = [[[1, 0], [0, 1], [1, 1]]]\n', "2 x 2"),  # not d x d
        ('heads = "given"\nscores = [[[1, 0], [0, 1]]]\nH = 2\n', "H = 2"),  # one matrix for two heads
        ('heads = "given"\nscores = [[[1, 0], [0]]]\n', "same shape"),  # ragged
        ('heads = "given"\nscores = [[["1/0", 0], [0, 1]]]\n', "zero denominator"),
        ('heads = "given"\nscores = [[["1e7", 0], [0, 1]]]\n', "at most"),  # huge entry
        ('heads = "given"\nscores = [[[true, 0], [0, 1]]]\n', "an entry is"),
        ('heads = "given"\nscores = [[["x", 0], [0, 1]]]\n', "an entry is"),
        ('heads = "given"\n', "need `scores`"),
        ('heads = "given"\nqueries = [[[1, 0], [0, 1]]]\n', "go together"),
        ('heads = "given"\nscores = [[[1, 0], [0, 1]]]\nkeys = [[[1, 0], [0, 1]]]\n', "not both"),
        ('heads = "random-symmetric"\nscores = [[[1, 0], [0, 1]]]\n', "only used with heads = given"),
        ('heads = "random-symmetric"\nvalues = [[[1, 0, 0], [0, 1, 0], [0, 0, 1]]]\n', "2 x 2"),
        ('heads = "random-symmetric"\nvalues = "W.txt"\n', "expected one of"),
        ('heads = "random-symmetric"\nvalues = "missing.npy"\n', "names no data file"),  # text has no folder
    ],
)
def test_bad_matrices_are_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        options(text)


def test_a_huge_matrix_is_refused_before_it_is_built(tmp_path: Path) -> None:
    side = int(MAX_ENTRIES**0.5) + 1
    np.save(tmp_path / "big.npy", np.zeros((1, side, side)))
    with pytest.raises(InputError, match="more than"):
        given_matrices("scores", "big.npy", tmp_path)
    with pytest.raises(InputError, match="more than"):
        given_matrices("scores", [[[0] * 400] * 400], None)


def test_files_hold_the_same_exact_matrices(tmp_path: Path) -> None:
    M = np.array([[[0.5, -1.25], [2.0, 0.0]], [[1.0, 0.0], [0.0, -3.0]]])
    np.save(tmp_path / "M.npy", M)
    np.save(tmp_path / "F.npy", np.asfortranarray(M[0]))  # one head, Fortran order
    np.save(tmp_path / "I.npy", M.astype(np.int64))
    (tmp_path / "M.csv").write_text("1/2,-1.25\n2,0\n\n1,0\n0,-3\n")
    expected = [[[Fraction(v) for v in row] for row in head] for head in M]
    assert given_matrices("scores", "M.npy", tmp_path).exact() == expected
    assert given_matrices("scores", "M.csv", tmp_path).exact() == expected
    assert given_matrices("scores", "F.npy", tmp_path).exact() == expected[:1]
    assert given_matrices("scores", "I.npy", tmp_path).exact() == [[[int(v) for v in r] for r in h] for h in M]
    np.save(tmp_path / "nan.npy", np.array([[np.nan, 0.0], [0.0, 1.0]]))
    with pytest.raises(InputError, match="not a finite number"):
        given_matrices("scores", "nan.npy", tmp_path)
    found = options('heads = "given"\nscores = "M.npy"\nvalues = "M.csv"\n', tmp_path)
    assert found["H"] == 2 and found["value_matrices"].exact() == expected


@pytest.mark.parametrize("seed", range(4))
def test_the_three_representations_agree_on_given_matrices(seed: int) -> None:
    """Random rational Q, K and W: the numpy velocity of the claim's configuration, the ball velocity and the exact
    velocity at the same exact data agree (W apart from M = Q^T K)."""
    rng = np.random.default_rng(seed)
    H, r, d = 2, 3, 2

    def text(shape: tuple[int, ...]) -> str:
        entries = rng.integers(-6, 7, shape)
        return str([[[f"{int(v)}/4" for v in row] for row in M] for M in entries]).replace("'", '"')

    Q, K, W = text((H, r, d)), text((H, r, d)), text((H, d, d))
    found = options(f'heads = "given"\nqueries = {Q}\nkeys = {K}\nvalues = {W}\n')
    cfg = configuration(found, rng)
    tokens = [[Fraction(3, 5), Fraction(4, 5)], [Fraction(1), Fraction(0)], [Fraction(-5, 13), Fraction(12, 13)]]
    cfg = cfg.moved_to(np.array([[float(v) for v in x] for x in tokens]))
    exact = ExactConfiguration(tokens, found["scores"].exact(), found["value_matrices"].exact(), Fraction(1))
    balls = model_balls.balls(exact, Chain.velocities)
    exact_velocity = ball_model.exact_values(exact, Chain.velocities)
    floats = field.token_velocity(cfg)
    for i in range(3):
        for k in range(d):
            assert (
                balls[i][k].contains(_value(exact_velocity[i][k]))
                or abs(float(balls[i][k].mid()) - _value(exact_velocity[i][k])) < 1e-12
            )
            assert abs(float(balls[i][k].mid()) - floats[i, k]) < 1e-10


def _value(number: object) -> float:
    """An exact model value (a quotient of exponential polynomials) in floats."""
    if not hasattr(number, "numerator") or isinstance(number, Fraction | int):
        return float(number)  # type: ignore[arg-type]

    def poly(terms: tuple) -> float:
        return sum(float(c) * math.exp(float(e)) for e, c in terms)

    return poly(number.numerator) / poly(number.denominator)  # type: ignore[attr-defined]


def test_matrices_a_certificate_cannot_embed_have_no_exact_witnesses(tmp_path: Path) -> None:
    """A file is not embedded (the checker does not read it), nor is inline text beyond the embedded claim's bound:
    such claims have no witness family (floats only), rather than certificates that check-cert would refuse."""
    np.save(tmp_path / "M.npy", np.eye(2)[None])
    inline = options('heads = "given"\nscores = [[[1, 0], [0, 1]]]\n')
    filed = options('heads = "given"\nscores = "M.npy"\n', tmp_path)
    assert family_hypotheses(inline) is not None and family_hypotheses(filed) is None
    wide = [[[f"{k}/7" for k in range(30)] for _ in range(30)] for _ in range(12)]
    big = given_matrices("values", wide, None)
    assert not big.embeddable and big.exact()[0][0][1] == Fraction(1, 7)
