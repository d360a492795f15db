"""The orders in beta of the equiangular times (`reduced-time` statements with `upper` or `infinite`,
examples/metastability.toml) are re-checked by Coq: each end's relation over beta is an instance of
`hf_order_end`, `hf_infinite_end` or `hf_sqrt_end` (certificates/coq/reduced_time.py), and the same proof does not
prove the relation made stronger (the end's error without its factor n, the bound of 1/h a thousand or a hundred
times smaller)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.checks import coq_files
from headflow.checks.coq_files import certificate_problem, kernel_checks

from tests.coq_tier import needs_coqc

DATA = Path(__file__).resolve().parents[2] / "data"
#: log T / beta in [1/200, 4/5] at the limit (PROVED) and T / beta -> +oo (the refutation of T = Theta(beta)).
STORED = {"merge-time.equiangular.log-grows-like-beta": "merge_time_log_over_beta.json"}
STORED["merge-time.equiangular.grows-like-beta"] = "merge_time_over_beta.json"
#: log T / sqrt(beta) -> +oo (the refutation of log T = o(sqrt(beta))).
STORED["clustering-time.equiangular.log-o-of-sqrt-beta"] = "clustering_time_log_over_sqrt_beta.json"


def _stored(tmp_path: Path, claim_id: str) -> Path:
    return Path(shutil.copy(DATA / STORED[claim_id], tmp_path / f"{claim_id}.smt.json"))


@needs_coqc
@pytest.mark.parametrize("claim_id", sorted(STORED))
def test_the_orders_in_beta_are_rechecked_by_coq(tmp_path: Path, claim_id: str) -> None:
    verdict = coq_files.check(_stored(tmp_path, claim_id))
    assert verdict.status == coq_files.RECHECKED, verdict.message


def _end_statement(tmp_path: Path, claim_id: str, needle: str):
    """The first of the kernel's built statements whose goal's text contains `needle` (an end's relation)."""
    _, built = certificate_problem(kernel_checks.checked(_stored(tmp_path, claim_id)))
    return next(s for s in built if needle in json.dumps(s.goal))


@needs_coqc
@pytest.mark.parametrize(
    ("claim_id", "genuine", "stronger"),
    [
        ("merge-time.equiangular.log-grows-like-beta", '["log", ["mul", ["rat", "4"]', '["log", ["mul", ["rat", "1"]'),
        ("merge-time.equiangular.grows-like-beta", '["rat", "1/40000"]', '["rat", "1/40"]'),
        (
            "clustering-time.equiangular.log-o-of-sqrt-beta",
            '["mul", ["rat", "200"], ["rpow"',
            '["mul", ["rat", "2"], ["rpow"',
        ),
    ],
)
def test_the_end_lemmas_do_not_prove_a_stronger_relation(
    tmp_path: Path, claim_id: str, genuine: str, stronger: str
) -> None:
    """log((m + e^(c beta)) DA) - c beta is not within log(DA + 1/DA) (n = 4 is needed: at beta = 1, 1.10 > 0.73);
    beta/((m + e^(c beta)) DA) is not below 2/(1000 c^2 DA beta) (e^x < 500 x^2 at x = c beta = 10);
    sqrt(beta)/log((m + e^(c beta)) DA) is not below 2/sqrt(beta) (at beta = 100: 100 > 2 log((3 + e) DA) = 2.66)."""
    statement = _end_statement(tmp_path, claim_id, genuine)
    text = source("orders", "genuine", "genuine", [statement], bracket="softmax")
    assert "hf_" in text and run.compile_source(text).status == "accepted"
    forged = statement._replace(goal=json.loads(json.dumps(statement.goal).replace(genuine, stronger)))
    answer = run.compile_source(source("orders", "stronger", "stronger", [forged], bracket="softmax"))
    assert answer.status == "rejected" and "Error" in answer.message, answer
