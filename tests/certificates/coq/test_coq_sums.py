"""The `sums` kind in Coq: the kernel states the model statement itself over every real inner-product space
(`certificates.kernel.coq.sums_statement`), the proof writer (`certificates.coq.sums`) proves it node by node.

Without coqc: the Theorem says what the claim says (its sides, its hypotheses and size bounds, the attention kind's
weight, nothing assumed that the claim does not), a name with no Coq definition is `not translatable` with its
reason, and the writer refuses a statement whose sides its normal forms do not match (a false one). With coqc: three
of the examples' verdicts (vectors through sums; an inequality by a spread of squares; the softmax entropy) are
re-checked by Coq, and the attacks on the Coq side are not accepted: the genuine proof under a changed goal, the
inequality's step with a forged coefficient, the statement at every H (its bound H >= 2 dropped).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from headflow.certificates.coq.source import source
from headflow.certificates.coq.sums import ProofWriter
from headflow.certificates.coq.sums_terms import NotWritten
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.coq.statements import TextStatement
from headflow.certificates.kernel.coq.sums_statement import problem as sums_problem
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.model_sums import certify_model
from headflow.certificates.statements.model import statement_data
from headflow.checks import coq_files

from tests.coq_tier import needs_coqc
from tests.sample_claims import example, one_claim

RECHECKED = [("sums", "norm-of-sum"), ("sums", "shadow-cauchy-schwarz"), ("quantities", "entropy-definition")]
#: Claims of each rule the proof follows: W = M, scores symmetric under relabelling, relu weights symmetric, flat
#: space's velocity, a sum of zeros, sizes in the coefficients, tangency on the sphere.
VARIED = [
    ("inner(x_i, W_h(x_i))", "=", "inner(x_i, M_h(x_i))", 'assume = ["aligned-values"]'),
    ("sum_i(sum_j(s_h_ij * inner(x_i, x_j)))", "=", "sum_i(sum_j(s_h_ji * inner(x_i, x_j)))", ""),
    ("sum_j(w_h_ij * s_h_ij)", "=", "sum_j(w_h_ji * s_h_ji)", 'attention = "relu"\nassume = ["symmetric-scores"]'),
    ("inner(xdot_i, x_i) + sum_h(0)", "=", "sum_h(a_h_i)", 'geometry = "flat"\nattention = "softmax"'),
    ("d * beta * sum_i(a_h_i) / (2 * n)", "=", "beta * d * sum_j(a_h_j) / n / 2", ""),
    ("inner(xdot_i, x_i)", "=", "0", ""),
    ("E + E_h", ">=", "0", ""),  # the usa energies >= 0 by their definitions
]
CLAIM = '[[claim]]\nid = "c"\nkind = "model"\n{extra}\nlhs = "{lhs}"\nop = "{op}"\nrhs = "{rhs}"\n'


def certificate(name: str, claim_id: str, folder: Path) -> Path:
    path = certify_model(one_claim(example(name, claim_id)), folder)
    assert path is not None
    return path


def theorem(path: Path) -> str:
    text = coq_files.coq_text(path)
    return text[text.index("Theorem claim_") : text.index("Proof.", text.index("Theorem claim_"))]


def test_the_theorem_is_the_claim_over_every_inner_product_space(tmp_path: Path) -> None:
    stated = theorem(certificate("sums", "norm-of-sum", tmp_path))
    assert "forall (V : ModuleSpace R_Ring) (ip : V -> V -> R) (x : nat -> V)" in stated
    assert "is_inner ip ->" in stated and "(2 <= n)%nat ->" in stated and "0 < beta ->" in stated
    assert "(forall t, ip (x t) (x t) = 1) ->" in stated  # on the sphere: unit tokens
    assert "let f := fun g t => vsum n (fun u => scal (w g t u) (W g (x u))) in" in stated  # SPEC's head output
    goal = "(ip (vsum n (fun i => (x i))) (vsum n (fun i => (x i)))) = (hsum n (fun i => (hsum n (fun j => "
    assert goal + "(ip (x i) (x j))))))." in stated
    assert "ip (M g u) w = ip u (M g w)" not in stated  # no symmetric scores assumed


def test_the_hypotheses_bounds_and_kind_are_the_claims(tmp_path: Path) -> None:
    symmetric = theorem(certificate("sums", "symmetric-weighted-scores", tmp_path))
    assert "(forall g u w, ip (M g u) w = ip u (M g w)) ->" in symmetric
    assert "let w := fun g t u => exp (beta * s g t u) in" in symmetric  # usa
    bounded = theorem(certificate("sums", "heads-at-least-two", tmp_path))
    assert "(INR H) >= 2 ->" in bounded and "(INR H) <= 8 ->" in bounded
    softmax = theorem(certificate("quantities", "entropy-definition", tmp_path))
    assert "let w := fun g t u => p g t u in" in softmax
    assert "let entropy := fun g t => - hsum n (fun u => p g t u * ln (p g t u)) in" in softmax


def test_a_name_without_a_coq_definition_is_not_translatable(tmp_path: Path) -> None:
    text = '[[claim]]\nid = "e"\nkind = "model"\nlhs = "2 * cluster_gap"\nop = "="\nrhs = "cluster_gap * 2"\n'
    path = certify_model(one_claim(text), tmp_path)
    assert path is not None and check_file(path).ok
    verdict = coq_files.check(path)
    assert verdict.status == coq_files.UNTRANSLATABLE and "cluster_gap has no definition" in verdict.message


def test_a_proof_writers_failure_is_no_verdict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel accepted the certificate: a crash of the (untrusted) proof writer says `not translatable` with
    its reason, never that Coq rejected the certificate."""
    path = certificate("sums", "head-pairs", tmp_path)

    def crash(self: ProofWriter) -> str:
        raise KeyError("an atom")

    monkeypatch.setattr(ProofWriter, "proof", crash)
    verdict = coq_files.check(path)
    assert verdict.status == coq_files.UNTRANSLATABLE and "no Coq proof written (KeyError" in verdict.message


@pytest.mark.parametrize("claim_id", ["pythagoras-without-orthogonality", "norm-of-sum-bounded-by-n"])
def test_the_writer_refuses_a_false_statement(claim_id: str) -> None:
    """Past the kernel (which refuses them): the writer's own normal forms do not match, so it writes no proof."""
    data = statement_data(one_claim(example("sums", claim_id)))
    with pytest.raises(NotWritten, match="differ"):
        ProofWriter(TextStatement("", data, {"terms": []}), claim_id).proof()


def _genuine(path: Path) -> tuple[str, str]:
    sentence, built = problem(check_file(path))
    return source(path.name, "c", sentence, built), built.text


@needs_coqc
@pytest.mark.parametrize(("name", "claim_id"), RECHECKED)
def test_the_verdict_is_rechecked_by_coq(name: str, claim_id: str, tmp_path: Path) -> None:
    verdict = coq_files.check(certificate(name, claim_id, tmp_path))
    assert verdict.status == coq_files.RECHECKED, verdict.message


@needs_coqc
@pytest.mark.parametrize(("lhs", "op", "rhs", "extra"), VARIED)
def test_each_rule_is_rechecked_by_coq(lhs: str, op: str, rhs: str, extra: str, tmp_path: Path) -> None:
    path = certify_model(one_claim(CLAIM.format(lhs=lhs, op=op, rhs=rhs, extra=extra)), tmp_path)
    assert path is not None
    verdict = coq_files.check(path)
    assert verdict.status == coq_files.RECHECKED, verdict.message


@pytest.mark.slow
@needs_coqc
def test_a_wide_power_is_rechecked_by_coq(tmp_path: Path) -> None:
    """(a + A + T)^5 against the same with its terms reordered: monomials equal up to the names of their bound indices
    are merged and proved once, an atom repeated in a monomial is turned once (both failed coqc before); about 13 s."""
    lhs, rhs = "(a_h_i + A_h_i + T_h_i)**5", "(T_h_i + A_h_i + a_h_i)**5"
    path = certify_model(one_claim(CLAIM.format(lhs=lhs, op="=", rhs=rhs, extra="")), tmp_path)
    assert path is not None
    verdict = coq_files.check(path)
    assert verdict.status == coq_files.RECHECKED, verdict.message


@needs_coqc
def test_coq_refuses_the_proof_under_a_changed_goal_or_a_forged_step(tmp_path: Path) -> None:
    text, stated = _genuine(certificate("sums", "norm-of-sum", tmp_path))
    changed = stated.replace("= (hsum n (fun i =>", "= 2 * (hsum n (fun i =>")
    assert changed != stated
    assert run.compile_source(text.replace(stated, changed)).status == "rejected"
    text, _ = _genuine(certificate("sums", "shadow-cauchy-schwarz", tmp_path))
    assert "(1 / 2) * N0" in text
    assert run.compile_source(text.replace("(1 / 2) * N0", "1 * N0")).status == "rejected"


@needs_coqc
def test_coq_refuses_the_bound_dropped(tmp_path: Path) -> None:
    """heads-at-least-two without H >= 2 (false at H = 1): its Theorem and proof without that premise."""
    path = certificate("sums", "heads-at-least-two", tmp_path)
    text, stated = _genuine(path)
    dropped = stated.replace("  (INR H) >= 2 ->\n", "")
    assert dropped != stated
    text = text.replace(stated, dropped).replace(" dE G0 G1.", " dE G1.")
    answer = run.compile_source(text)
    assert answer.status == "rejected"
    assert run.compile_source(_genuine(path)[0]).status == "accepted"


def test_the_problem_is_the_kernels_statement(tmp_path: Path) -> None:
    path = certificate("sums", "head-pairs", tmp_path)
    data = check_file(path).certificate
    assert data is not None
    built = sums_problem(data["statement"], data["claim_id"], data["payload"])
    assert problem(check_file(path))[1] == built


THEOREM_39 = [
    ("operator_norms", "operator-norm-theorem-39"),
    ("operator_norms", "operator-norm-softmax-cross-term"),
]


@needs_coqc
@pytest.mark.parametrize(("name", "claim_id"), THEOREM_39)
def test_theorem_39_is_rechecked_by_coq(name: str, claim_id: str, tmp_path: Path) -> None:
    """The rate of E_h as the derivative along the motion (`hf_energy_rate`) and the bound of the other heads'
    pairings for g != h (`hf_cross_pair`, `hf_offdiag`), under the premise that delta_op bounds |<u, M_g M_g' w>|."""
    path = certificate(name, claim_id, tmp_path)
    stated = theorem(path)
    assert "Rabs (ip u (M g (M g' w))) <= delta_op * sqrt (ip u u) * sqrt (ip w w))" in stated
    assert "(h < H)%nat ->" in stated
    verdict = coq_files.check(path)
    assert verdict.status == coq_files.RECHECKED, verdict.message


@needs_coqc
def test_coq_refuses_theorem_39_shrunk_or_a_rate_off_by_two(tmp_path: Path) -> None:
    text, stated = _genuine(certificate("operator_norms", "operator-norm-theorem-39", tmp_path))
    shrunk = stated.replace("((delta_op * (Zn h i))", "(((delta_op / 100) * (Zn h i))")
    assert shrunk != stated
    assert run.compile_source(text.replace(stated, shrunk)).status == "rejected"
    rate = '[[claim]]\nid = "r"\nkind = "model"\nassume = ["symmetric-scores", "aligned-values"]\n'
    rate += 'lhs = "dE_h_dt"\nop = "="\nrhs = "sum_j(inner(xdot_j, f_h_j)) / n**2"\n'
    path = certify_model(one_claim(rate), tmp_path)
    assert path is not None
    text, stated = _genuine(path)
    doubled = stated.replace("Derive (fun tau => / (2 * beta", "Derive (fun tau => / (4 * beta")
    assert doubled != stated
    assert run.compile_source(text.replace(stated, doubled)).status == "rejected"


@needs_coqc
def test_a_condition_at_every_token_is_a_premise_at_every_token(tmp_path: Path) -> None:
    """Condition 8 summed over the tokens (C8.radial-dominance.reading-b's third part): the kernel reads the given's
    margin in a sum over the tokens, and Coq's premise holds at every token i < n, as the claim assumes it."""
    text = CLAIM.format(lhs="sum_i(a_h_i * A_h_i)", op="<=", rhs="sum_i(T_h_i)", extra='given = ["condition8"]')
    path = certify_model(one_claim(text), tmp_path)
    assert path is not None
    assert "(forall i, (i < n)%nat -> ((a h i) * (A h i)) <= (T h i)) ->" in theorem(path)
    verdict = coq_files.check(path)
    assert verdict.status == coq_files.RECHECKED, verdict.message
