"""Coq states model witnesses whose claims read a norm, a logarithm or the cluster gap.

The cluster gap 1 - min_(a < b) <x_a, x_b> of exact tokens reaches the statement as its rational value g, pinned by
one conjunct per pair (g >= 1 - <x_a, x_b>, equality at a pair of least inner product, the inner products written
out from the coordinates): coqc proves them, and refuses the statement with g changed. A logarithm of a model term
is stated with its definedness (0 < n under ln n), which coqc proves with the claim's sign.
"""

from __future__ import annotations

from pathlib import Path

import headflow.checks as checks
from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.verify import check_file

from tests.coq_tier import needs_coqc

STATIONARY = """
[[claim]]
id = "repulsive-relu-hemisphere-clusters"
kind = "dynamics"
quantity = "cluster_gap"
property = "tends-to"
limit = "0"
attention = "relu"
n = 4
d = 3
beta = -1
heads = "scalar"
lambdas = [1.0]
tokens = "hemisphere"

[[claim]]
id = "entropy-at-least-log-n"
kind = "model"
attention = "softmax"
lhs = "entropy_h_i"
op = ">="
rhs = "log(n)"
"""


@needs_coqc
def test_the_cluster_gap_and_a_logarithm_are_stated_and_a_changed_gap_is_refused(tmp_path: Path) -> None:
    claims = tmp_path / "claims.toml"
    claims.write_text(STATIONARY)
    checks.check(claims, certificates=tmp_path / "out", progress=False)
    paths = {path.name.split(".")[0]: path for path in (tmp_path / "out").glob("*.json")}
    assert set(paths) == {"repulsive-relu-hemisphere-clusters", "entropy-at-least-log-n"}
    for claim, path in paths.items():
        sentence, built = problem(check_file(path))
        assert run.compile_source(source(path.name, claim, sentence, built)).status == "accepted", claim
    sentence, built = problem(check_file(paths["repulsive-relu-hemisphere-clusters"]))
    pinned = built.conditions[0]
    assert pinned["name"].startswith("cluster_gap = 1 - <x_") and pinned["relation"] == "="
    shifted = {**pinned, "expression": ["add", pinned["expression"], ["rat", "1/1000"]]}  # g off by 1/1000
    wrong = built._replace(conditions=[shifted, *built.conditions[1:]])
    assert run.compile_source(source("t", "repulsive-relu-hemisphere-clusters", sentence, wrong)).status == "rejected"
