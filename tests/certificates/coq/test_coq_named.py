"""Named closed forms in Coq statements: `beta_star`, `rate` and `lambda_max` are written out as their stored trees
(`exprtree.expand`, the one meaning of each name), so a claim that uses them has a Coq statement; `lambda_max`
(Lambert W) stays not translatable.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel.coq.statements import NotTranslatable, translated
from headflow.checks import coq_files
from headflow.checks.claimsfile.inequality_decider import decide_inequality
from headflow.checks.registry import Context
from headflow.checks.verdicts import Verdict

from tests.coq_tier import needs_coqc


def test_named_forms_are_written_out() -> None:
    rate = translated(["rate", ["sym", "l"], ["rat", "3"], ["rat", "1"]], {})
    assert "rate" not in rate and "exp" in rate and "l" in rate
    star = translated(["beta_star", ["rat", "2"], ["rat", "5"], ["rat", "1"]], {})
    assert "beta_star" not in star and "ln" in star and "sqrt" in star
    with pytest.raises(NotTranslatable, match="lambertw"):
        translated(["lambda_max", ["rat", "3"], ["rat", "1"]], {})


@pytest.mark.slow
@needs_coqc
def test_a_claim_with_rate_is_rechecked_by_coq_and_a_false_one_is_refuted() -> None:
    text = '[[claim]]\nid = "r"\nkind = "inequality"\nlhs = "rate(l, 2, 1)"\nop = "<="\nrhs = "RHS"\n'
    text += 'domain = { l = "[0, 5]" }\n'
    folder = Path(tempfile.mkdtemp())
    (true,) = parse_claims(text.replace("RHS", "1"), "t.toml")
    outcome = decide_inequality(true, Context(certificate_dir=folder))
    assert outcome.verdict is Verdict.CERTIFIED
    (path,) = outcome.certificates
    assert coq_files.check(Path(path)).status == coq_files.RECHECKED
    (false,) = parse_claims(text.replace("RHS", "1/2"), "t.toml")  # rate(l, 2, 1) reaches about 0.557
    refuted = decide_inequality(false, Context(certificate_dir=folder))
    assert refuted.verdict is Verdict.REFUTED
    (witness,) = refuted.certificates
    assert coq_files.check(Path(witness)).status == coq_files.RECHECKED
