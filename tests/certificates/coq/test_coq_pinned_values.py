"""Coq states model witnesses whose claims read a norm, a logarithm or the cluster gap.

The cluster gap 1 - min_(a < b) <x_a, x_b> of exact tokens reaches the statement as its rational value g, pinned by
one conjunct per pair (g >= 1 - <x_a, x_b>, equality at a pair of least inner product, the inner products written
out from the coordinates): coqc proves them, and refuses the statement with g changed. A logarithm of a model term
is stated with its definedness (0 < n under ln n), which coqc proves with the claim's sign.
"""

from __future__ import annotations

from pathlib import Path

from headflow.certificates.coq.source import source
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.verify import check_file

from tests.coq_tier import needs_coqc
from tests.sample_claims import EXAMPLES, certificates_of, claims_of

#: A stationary start whose claim reads the cluster gap, and a model claim with a logarithm (both REFUTED).
CLAIMS = claims_of((EXAMPLES / "masks.toml").read_text(), "repulsive-relu-hemisphere-clusters") + claims_of(
    (EXAMPLES / "literature.toml").read_text(), "rig.entropy-non-negative.wrong-log-n"
)


@needs_coqc
def test_the_cluster_gap_and_a_logarithm_are_stated_and_a_changed_gap_is_refused(tmp_path: Path) -> None:
    paths = certificates_of(CLAIMS, tmp_path)
    assert set(paths) == {"repulsive-relu-hemisphere-clusters", "rig.entropy-non-negative.wrong-log-n"}
    for claim, path in paths.items():
        sentence, built = problem(check_file(path))
        assert run.compile_source(source(path.name, claim, sentence, built)).status == "accepted", claim
    sentence, built = problem(check_file(paths["repulsive-relu-hemisphere-clusters"]))
    pinned = built.conditions[0]
    assert pinned["name"].startswith("cluster_gap = 1 - <x_") and pinned["relation"] == "="
    shifted = {**pinned, "expression": ["add", pinned["expression"], ["rat", "1/1000"]]}  # g off by 1/1000
    wrong = built._replace(conditions=[shifted, *built.conditions[1:]])
    assert run.compile_source(source("t", "repulsive-relu-hemisphere-clusters", sentence, wrong)).status == "rejected"


@needs_coqc
def test_an_exact_identity_at_a_witness_is_proved_by_ring_and_a_shifted_one_refused(tmp_path: Path) -> None:
    """An existence claim of an equation (dE_h/dt = 0 somewhere) holds exactly at its witness: Coq rewrites the
    chain's definitions (exponentials as atoms) and proves rhs - lhs = 0 by ring; shifted by 1/1000 it is refused."""
    claim = "equality.rate-zero"
    (path,) = certificates_of(claims_of((EXAMPLES / "rates.toml").read_text(), claim), tmp_path).values()
    sentence, built = problem(check_file(path))
    exact = built.conditions[-1]
    assert exact["relation"] == "=" and built.definitions  # over the chain, not a number already computed
    assert run.compile_source(source(path.name, claim, sentence, built)).status == "accepted"
    shifted = {**exact, "expression": ["add", exact["expression"], ["rat", "1/1000"]]}
    wrong = built._replace(conditions=[*built.conditions[:-1], shifted])
    assert run.compile_source(source("t", claim, sentence, wrong)).status == "rejected"
