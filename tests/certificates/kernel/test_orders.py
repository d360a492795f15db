"""Asymptotic claims on the reduced clustering time that a table entry's sentence establishes carry that entry's
certificate (form `order`, `registry_statements.order_check`; `certificates.statements.orders`): T25's readings e and
f bound the reduced speed from below, so the time from above (the comparison step their sentences cite): softmax O(n)
holds, Omega(n) and Theta(n) fail; relu Omega(n log d) and Theta(n log d) fail as n -> oo. The attacks: an order no
entry lists (Theta(log n), true but not what the statements show), the opposite verdict, a relabelled certificate and
a forged payload get no certificate or are refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.registry_statements import order_check
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.orders import certify
from headflow.checks import coq_files
from headflow.checks.rechecks import recheck

from tests.coq_tier import needs_coqc
from tests.sample_claims import example, one_claim

#: (examples file, claim id) -> whether the claim holds and the entry its certificate cites.
LISTED = {
    ("paper", "T25.softmax-time.reading-e"): (True, "T25.softmax-time.reading-e"),
    ("paper", "T25.softmax-time.reading-f"): (False, "T25.softmax-time.reading-f"),
    ("paper", "T25.relu-time.reading-e"): (False, "T25.relu-time.reading-e"),
    ("asymptotics", "softmax-time.linear-n"): (False, "T25.softmax-time.reading-f"),
    ("asymptotics", "relu-time.n-log-d"): (False, "T25.relu-time.reading-e"),
}
CLAIM = """
[[claim]]
id = "time"
kind = "asymptotic"
quantity = "clustering_time"
attention = "{attention}"
as = "n -> oo"
order = "{order}"
"""


@pytest.mark.parametrize(("name", "claim_id"), LISTED)
def test_a_listed_order_carries_its_entry_and_is_held_to_its_file(name: str, claim_id: str, tmp_path: Path) -> None:
    holds, entry = LISTED[name, claim_id]
    text = example(name, claim_id)
    path = certify(one_claim(text), holds, tmp_path)
    assert path is not None
    checked = check_file(path)
    assert checked.ok, checked.message
    assert f"which follows from {entry}: " in checked.proved and (" is not " in checked.proved) != holds
    assert recheck(path, claims={claim_id: one_claim(text)}, read_claim=True).ok


@pytest.mark.parametrize(
    ("attention", "order", "holds"),
    [
        ("softmax", "Theta(log(n))", True),
        ("softmax", "O(n)", False),
        ("softmax", "Omega(n)", True),
        ("relu", "O(n)", True),
    ],
)
def test_an_order_no_entry_lists_gets_no_certificate(attention: str, order: str, holds: bool, tmp_path: Path) -> None:
    assert certify(one_claim(CLAIM.format(attention=attention, order=order)), holds, tmp_path) is None
    assert not list(tmp_path.iterdir())


def test_a_relabelled_or_forged_order_certificate_is_refused(tmp_path: Path) -> None:
    path = certify(one_claim(CLAIM.format(attention="softmax", order="O(n)")), True, tmp_path)
    assert path is not None and check_file(path).ok
    omega = one_claim(CLAIM.format(attention="softmax", order="Omega(n)"))
    assert not recheck(path, claims={"time": omega}, read_claim=True).ok
    statement = check_file(path).certificate["statement"]
    with pytest.raises(Rejected):  # the payload says the opposite of the statement
        order_check(statement, "time", "smt", {"holds": False}, 20)
    with pytest.raises(Rejected):  # the verdict flipped in both: no entry lists O(n) as failing
        order_check(statement | {"holds": False}, "time", "smt", {"holds": False}, 20)


@needs_coqc
def test_coq_re_checks_an_order_certificate(tmp_path: Path) -> None:
    path = certify(one_claim(example("asymptotics", "relu-time.n-log-d")), False, tmp_path)
    assert path is not None
    checked = coq_files.check(path)
    assert checked.status == coq_files.RECHECKED, checked.message
