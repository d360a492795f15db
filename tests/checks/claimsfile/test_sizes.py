"""A claim whose model the float evaluations cannot hold is bad input: one line, exit code 2, before any deciding
(it was an INCONCLUSIVE "procedure crashed: InputError" with exit code 0)."""

from __future__ import annotations

from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.errors import InputError
from headflow.checks.claimsfile.register import register_claims

from tests.command import headflow

BIG = """[[claim]]
id = "big"
kind = "dynamics"
quantity = "energy"
property = "non-decreasing"
heads = "random-symmetric"
tokens = "random-sphere"
H = 256
n = 2000
d = 512
beta = 1.0
"""


def test_too_large_a_model_is_a_one_line_error_with_exit_code_2(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_text(BIG)
    done = headflow("check", str(path))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip().count("\n") == 0 and "claim 'big' (line 1)" in done.stderr
    assert "more than" in done.stderr and "INCONCLUSIVE" not in done.stdout


def test_a_part_of_a_conjunction_is_held_to_the_same_bound() -> None:
    body = BIG.split("\n", 2)[2].replace('kind = "dynamics"\n', "")
    text = f'[[claim]]\nid = "both"\nkind = "all"\n[[claim.parts]]\nkind = "dynamics"\n{body}'
    text += '[[claim.parts]]\nkind = "dynamics"\n' + body.replace("H = 256", "H = 1")
    with pytest.raises(InputError, match=r"both\.part1.*more than"):
        register_claims(parse_claims(text))
    assert register_claims(parse_claims(BIG.replace("H = 256", "H = 2")))  # within the bound: registered
