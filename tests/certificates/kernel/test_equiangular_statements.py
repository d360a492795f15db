"""Claims on the cluster gap of equiangular tokens as `equiangular` statements (`certificates.kernel.equiangular`).

The kernel re-checks the reduction's lemma (d<x, y>/dt = 2 off (1 - rho)(1 + (n - 1) rho) for any diag, off) and,
from the statement's numbers alone, the facts its verdict needs, exactly: the expected values below are worked by
hand from the model's weights (usa, n = 4, beta = 1, lambda = 1, rho0 = 1/5: S(rho) = 2 (1/4) e^rho, so the late rate
is r* = 4 S(1) = 2 e and the initial rate -(4/5)(8/5) S(1/5) = -(16/25) e^(1/5)). Each attack is a test: a changed
number, a claim true only at one point (rho0 = 0 under relu, where S is exactly 0), a value past float precision,
the opposite verdict, a relabelled claim, out-of-range data, a shape the form does not state.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.coq.source import source
from headflow.certificates.kernel import equiangular, registry_statements
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.coq.statements import UniversalStatement
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.equiangular import certify
from headflow.certificates.statements.equiangular import REGISTRY_CLAIMS, statement
from headflow.checks.rechecks import recheck

from tests.coq_tier import needs_coqc
from tests.forging import forged_file
from tests.sample_claims import EXAMPLES, certificates_of, claims_of

REGIME = """
kind = "dynamics"
quantity = "cluster_gap"
geometry = "sphere"
heads = "scalar"
tokens = "equiangular"
"""


def _claim(property_line: str, attention: str = "usa", lambdas: str = "[1.0]", rho: str = "0.2", n: int = 4) -> Any:
    text = f'[[claim]]\nid = "c"\n{REGIME}{property_line}\nattention = "{attention}"\nlambdas = {lambdas}\n'
    (claim,) = parse_claims(text + f"rho = {rho}\nn = {n}\nd = {n}\nbeta = 1.0\n")
    return claim


def _accepts(claim: Any, holds: bool) -> bool:
    """Whether the kernel accepts the statement that the claim holds (or fails); False when there is none."""
    if (stated := statement(claim, holds)) is None:
        return False
    try:
        equiangular.check(
            stated,
            claim.id,
            equiangular.FORM,
            {"holds": holds, "point": stated["point"], "fails_at": stated["fails_at"]},
            0,
        )
    except Rejected:
        return False
    return True


#: (property line, attention, lambdas, rho) -> whether the claim holds, worked by hand (the module's docstring).
CASES = {
    ('property = "decays-at-rate"\nrate = "2*exp(1)"', "usa", "[1.0]", "0.2"): True,
    ('property = "decays-at-rate"\nrate = "2*exp(1)/4"', "usa", "[1.0]", "0.2"): False,  # the per-token rate
    ('property = "decays-at-rate"\nrate = "3"', "softmax", "[1.0, 0.5]", "0.2"): True,  # 2 (1 + 1/2)
    ('property = "decays-at-rate"\nrate = "2*exp(1)"', "usa", "[-1.0]", "0.2"): False,  # repulsive: no decay
    ('property = "decays-at-rate"\nrate = "2"', "relu", "[1.0]", "0.2"): True,  # 2 beta lambda^2
    ('property = "tends-to"\nlimit = "0"', "usa", "[1.0]", "0.2"): True,
    ('property = "tends-to"\nlimit = "4/3"', "usa", "[-1.0]", "0.2"): True,  # to the simplex, n/(n - 1)
    ('property = "tends-to"\nlimit = "0"', "usa", "[-1.0]", "0.2"): False,
    ('property = "tends-to"\nlimit = "1"', "relu", "[1.0]", "0"): True,  # S(0) = 0 exactly: eps stays 1
    ('property = "tends-to"\nlimit = "0"', "relu", "[1.0]", "0"): False,
    ('property = "initial-rate"\nderivative = "-(16/25)*exp(1/5)"', "usa", "[1.0]", "0.2"): True,
    ('property = "initial-rate"\nderivative = "-(16/25)*exp(1/5)*(1 + 10**-40)"', "usa", "[1.0]", "0.2"): False,
    ('property = "decays-exponentially"\nrate = "5"', "usa", "[1.0]", "0.2"): True,  # 2 e = 5.44 > 5
    ('property = "decays-exponentially"\nrate = "2*exp(1)"', "usa", "[1.0]", "0.2"): False,  # r > r* fails
    ('property = "decays-like"\nlike = "exp(-2*exp(1)*t)"', "usa", "[1.0]", "0.2"): True,
    ('property = "decays-like"\nlike = "exp(-2*t)"', "usa", "[1.0]", "0.2"): False,
}


@pytest.mark.parametrize("case", CASES, ids=[f"{c[1]}-{c[0].split(chr(10))[1]}" for c in CASES])
def test_the_kernel_accepts_exactly_the_true_verdict(case: tuple[str, str, str, str]) -> None:
    claim = _claim(*case)
    assert statement(claim, True) is not None
    assert _accepts(claim, CASES[case]) and not _accepts(claim, not CASES[case])


def test_a_rate_just_past_float_precision_is_refuted_exactly() -> None:
    """2 e (1 + 10^-40) is not the rate: the exact zero test says the difference is not 0, a ball gives its sign."""
    claim = _claim('property = "decays-at-rate"\nrate = "2*exp(1)*(1 + 10**-40)"')
    assert _accepts(claim, False) and not _accepts(claim, True)


def test_shapes_the_form_does_not_state_get_no_statement_the_kernel_accepts() -> None:
    """A shape that is no t^p e^(k t) (a log, t^2 in the exponent, a power of an exponential, a sum): the kernel
    states neither verdict for it."""
    for like in ("log(t)", "exp(-t**2)", "exp(-t)**2", "exp(-t)*log(t)", "t + exp(-t)"):
        claim = _claim(f'property = "decays-like"\nlike = "{like}"')
        assert not _accepts(claim, True) and not _accepts(claim, False), like


@pytest.mark.parametrize("like", ["t*exp(-2*exp(1)*t)", "t**(-2)", "(1 + t)**(-2)*exp(-2*exp(1)*t)"])
def test_a_power_of_t_in_the_shape_refutes_the_sphere_s_exponential(like: str) -> None:
    """On the sphere eps ~ C e^(-2 e t) (usa, n = 4): a shape with a power of t other than t^0 is not it, whatever
    its exponential; the kernel accepts only the refutation."""
    claim = _claim(f'property = "decays-like"\nlike = "{like}"')
    assert _accepts(claim, False) and not _accepts(claim, True)


def test_claims_outside_the_regime_have_no_statement() -> None:
    """A mask, another quantity, a geometry the lemma does not cover, beta <= 0: no equiangular statement."""
    base = '[[claim]]\nid = "c"\n' + REGIME + 'property = "tends-to"\nlimit = "0"\nattention = "usa"\nlambdas = [1.0]\n'
    tail = "rho = 0.2\nn = 4\nd = 4\n"
    texts = [
        base.replace('geometry = "sphere"', 'geometry = "flat"') + tail + "beta = 1.0\n",
        base + tail + "beta = -1.0\n",
        base + tail + 'beta = 1.0\nmask = "causal"\n',
        base.replace('quantity = "cluster_gap"', 'quantity = "first_pair_gap"') + tail + "beta = 1.0\n",
    ]
    for text in texts:
        (claim,) = parse_claims(text)
        assert statement(claim, True) is None, text


def _genuine(tmp_path: Path) -> Path:
    path = certify(_claim('property = "decays-at-rate"\nrate = "2*exp(1)"'), True, tmp_path)
    assert path is not None
    return path


def _edit(field: str, value: Any) -> Any:
    return lambda data: data["statement"].__setitem__(field, value)


FORGERIES = {
    "a changed coefficient": _edit("value", ["mul", ["rat", "2001/1000"], ["exp", ["rat", "1"]]]),
    "another attention kind": _edit("attention", "softmax"),
    "a stronger head": _edit("strengths", ["2"]),
    "the opposite verdict": _edit("holds", False),
    "rho0 past the simplex": _edit("rho0", "-1/2"),
    "one token": _edit("n", 1),
    "beta = 0": _edit("beta", "0"),
    "a value with a symbol": _edit("value", ["sym", "x"]),
    "an unknown property": _edit("property", "decays-at-least"),
    "a relabelled claim": lambda data: data.__setitem__("claim_id", "other"),
    "the payload's verdict alone flipped": lambda data: data["payload"].__setitem__("holds", False),
    "a gram kind": lambda data: data.__setitem__("kind", "gram"),
}


@pytest.mark.parametrize("name", FORGERIES)
def test_forged_certificates_are_rejected(name: str, tmp_path: Path) -> None:
    genuine = _genuine(tmp_path)
    assert check_file(genuine).ok
    assert not check_file(forged_file(genuine, tmp_path, FORGERIES[name])).ok


def test_the_reduction_lemma_is_re_checked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """With the lemma's right side edited in the kernel's table (3 off for 2 off), no certificate re-checks."""
    genuine = _genuine(tmp_path)
    table = json.loads(registry_statements.PATH.read_text())
    table[equiangular.REDUCTION]["identities"][0][1][1] = ["rat", "3"]
    monkeypatch.setattr(registry_statements, "table", lambda: table)
    assert not check_file(genuine).ok


def test_a_claims_file_run_writes_certificates_held_to_the_file(tmp_path: Path) -> None:
    """`headflow check` writes the certificate of each verdict; check-cert --claims accepts it against the file and
    refuses it against the same claim with another rate."""
    text = "".join(
        f'[[claim]]\nid = "{name}"\n{REGIME}{line}\nattention = "usa"\nlambdas = [1.0]\nrho = 0.2\nn = 4\nd = 4\n'
        "beta = 1.0\n"
        for name, line in (
            ("exact", 'property = "decays-at-rate"\nrate = "2*exp(1)"'),
            ("wrong", 'property = "decays-at-rate"\nrate = "2"'),
        )
    )
    found = {p.name.split(".")[0]: p for p in certificates_of(text, tmp_path).values() if ".equiangular." in p.name}
    assert set(found) == {"exact", "wrong"}
    claims = {claim.id: claim for claim in parse_claims(text)}
    assert json.loads(found["exact"].read_text())["payload"] == {"holds": True, "point": None, "fails_at": None}
    assert json.loads(found["wrong"].read_text())["payload"] == {"holds": False, "point": None, "fails_at": None}
    for path in found.values():
        assert recheck(path, claims=claims, read_claim=True).ok
    edited = {claim.id: claim for claim in parse_claims(text.replace('rate = "2"\n', 'rate = "3"\n'))}
    assert not recheck(found["wrong"], claims=edited, read_claim=True).ok


@needs_coqc
def test_coq_proves_the_identity_and_the_facts(tmp_path: Path) -> None:
    for holds, line in (
        (True, 'property = "decays-at-rate"\nrate = "3"'),
        (False, 'property = "tends-to"\nlimit = "1"'),
    ):
        path = certify(_claim(line, "softmax", "[1.0, 0.5]"), holds, tmp_path)
        assert path is not None
        proved, coq_problem = problem(check_file(path))
        assert run.compile_source(source(path.name, "c", proved, coq_problem)).status == "accepted"


@needs_coqc
def test_coq_refuses_a_forged_fact(tmp_path: Path) -> None:
    """The same problem with its rate fact made false (r* = 2 e written as e): coqc does not accept it."""
    path = _genuine(tmp_path)
    proved, coq_problem = problem(check_file(path))
    *kept, (name, constants, hypotheses, (op, lhs, _)) = [tuple(s)[:4] for s in coq_problem]
    forged = [UniversalStatement(*s) for s in kept] + [
        UniversalStatement(name, constants, hypotheses, [op, lhs, ["exp", ["rat", "1"]]])
    ]
    assert run.compile_source(source(path.name, "c", proved, forged)).status != "accepted"


# ---------------------------------------------------------------- statements over variables (a proof for every value)

#: Theorem 22's late rate as the registry states it (its claims-file text), under the id "c".
LATE_RATE = REGISTRY_CLAIMS["T22.late-rate"].replace('id = "T22.late-rate"', 'id = "c"')


def _over_variables(text: str = LATE_RATE) -> Any:
    (claim,) = parse_claims(text)
    return claim


#: Edits of the late-rate claim -> whether the kernel proves it for every value of its variables.
SYMBOLIC = {
    "the late rate 2 sum_h lambda_h (Theorem 22)": ({}, True),
    "twice the rate": ({'rate = "2 * sum_h(lam_h)"': 'rate = "4 * sum_h(lam_h)"'}, False),
    "a rate with a term outside the sum": (
        {'rate = "2 * sum_h(lam_h)"': 'rate = "2 * sum_h(lam_h) + 0*beta + 1"'},
        False,
    ),
    "strengths of either sign (S(rho0) > 0 not shown)": ({'lam_h = "positive"': 'lam_h = "real"'}, False),
    "strengths >= 0 (0 is allowed: no decay)": ({'lam_h = "positive"': "lam_h = { min = 0 }"}, False),
    "usa: 2 sum_h lambda_h e^(beta lambda_h)": (
        {'"softmax"': '"usa"', 'rate = "2 * sum_h(lam_h)"': 'rate = "2 * sum_h(lam_h * exp(beta * lam_h))"'},
        True,
    ),
    "relu from rho0 in (-1/(n - 1), 1): the score's sign unknown": (
        {'"softmax"': '"relu"', 'rate = "2 * sum_h(lam_h)"': 'rate = "2 * beta * sum_h(lam_h**2)"'},
        False,
    ),
    "relu from rho0 in (0, 1)": (
        {
            '"softmax"': '"relu"',
            'rate = "2 * sum_h(lam_h)"': 'rate = "2 * beta * sum_h(lam_h**2)"',
            'min = "-1/(n - 1)"': "min = 0",
        },
        True,
    ),
    "the limit 0": (
        {'property = "decays-at-rate"\nrate = "2 * sum_h(lam_h)"': 'property = "tends-to"\nlimit = "0"'},
        True,
    ),
    "the limit 1/2": (
        {'property = "decays-at-rate"\nrate = "2 * sum_h(lam_h)"': 'property = "tends-to"\nlimit = "1/2"'},
        False,
    ),
}


@pytest.mark.parametrize("name", SYMBOLIC)
def test_statements_over_variables_are_proofs_for_every_value(name: str) -> None:
    edits, proved = SYMBOLIC[name]
    text = LATE_RATE
    for old, new in edits.items():
        assert old in text
        text = text.replace(old, new)
    claim = _over_variables(text)
    stated = statement(claim, True)
    assert (stated is not None and _accepts(claim, True)) == proved
    assert not _accepts(claim, False)  # over variables a statement is a proof only


def test_the_initial_rate_holds_for_strengths_of_either_sign() -> None:
    """Theorem 22's early rate at the orthogonal start: no sign is needed, the rate is an identity in lambda."""
    text = LATE_RATE.replace('rate = "2 * sum_h(lam_h)"', 'derivative = "-sum_h(2*lam_h/(n + exp(beta*lam_h) - 1))"')
    text = text.replace('"decays-at-rate"', '"initial-rate"').replace('rho = "rho0"', "rho = 0.0")
    text = text.replace('lam_h = "positive"', 'lam_h = "real"').replace("rho0 = { min", "# rho0 = { min")
    assert _accepts(_over_variables(text), True)
    assert not _accepts(_over_variables(text.replace("2*lam_h/", "3*lam_h/")), True)


def _forged_domain(data: dict[str, Any]) -> None:
    for variable in data["statement"]["variables"]:
        if variable["name"] == "lam_h":
            variable["low"] = ["rat", "-1"]


def _two_strengths(data: dict[str, Any]) -> None:
    data["statement"]["strengths"] = ["lam_h", "lam_h"]


def _unbound_symbol(data: dict[str, Any]) -> None:
    data["statement"]["value"] = ["mul", ["rat", "2"], ["sym", "mu"]]


def _real_n(data: dict[str, Any]) -> None:
    next(v for v in data["statement"]["variables"] if v["name"] == "n")["integer"] = False


@pytest.mark.parametrize("edit", [_forged_domain, _two_strengths, _unbound_symbol, _real_n])
def test_forged_statements_over_variables_are_rejected(edit: Any, tmp_path: Path) -> None:
    path = certify(_over_variables(), True, tmp_path)
    assert path is not None and check_file(path).ok
    assert not check_file(forged_file(path, tmp_path, edit)).ok


def test_the_registry_late_rate_carries_its_statement(tmp_path: Path) -> None:
    """`headflow verify`'s T22.late-rate writes the certificate of the claims-file statement of it, which its
    registry elaboration gives back (so a relabelled or edited one is refused by the report's re-check)."""
    from headflow.certificates.provers.equiangular import certify_registry
    from headflow.certificates.statements import registry

    path = certify_registry("T22.late-rate", tmp_path)
    assert path is not None
    checked = check_file(path)
    assert checked.ok and "sum_h(2*lam_h) over any H >= 1 heads" in checked.proved
    assert json.loads(path.read_text())["statement"] == registry.statement("T22.late-rate", {})
    assert recheck(path).ok
    (example,) = parse_claims(claims_of((EXAMPLES / "paper.toml").read_text(), "T22.late-rate"))
    assert statement(example, True) == registry.statement("T22.late-rate", {})  # the examples' claim is the registry's


@needs_coqc
def test_coq_proves_a_statement_over_variables(tmp_path: Path) -> None:
    path = certify(_over_variables(), True, tmp_path)
    assert path is not None
    proved, coq_problem = problem(check_file(path))
    assert run.compile_source(source(path.name, "c", proved, coq_problem)).status == "accepted"


@pytest.mark.parametrize(
    ("domain", "positive"),
    [
        ("{ min = 0, min_open = true }", True),
        ("{ min = 0 }", False),
        ("{ min = -0.5, min_open = true }", False),
        ('"real"', False),
    ],
)
def test_a_strength_is_positive_only_when_its_lower_bound_shows_it(domain: str, positive: bool) -> None:
    """x > -1/2 (open) is no x > 0: only an open bound at 0, or a bound above it, gives S(rho0) > 0."""
    text = LATE_RATE.replace('lam_h = "positive"', f"lam_h = {domain}")
    assert _accepts(_over_variables(text), True) == positive


ENTROPY = LATE_RATE.replace('quantity = "cluster_gap"', 'quantity = "attention_entropy"').replace(
    'property = "decays-at-rate"\nrate = "2 * sum_h(lam_h)"', 'property = "tends-to"\nlimit = "log(n)"'
)


@pytest.mark.parametrize(
    ("edits", "proved"),
    [
        ({}, True),  # Theorem 27's limit: at rho = 1 every row of weights is uniform
        ({'limit = "log(n)"': 'limit = "0"'}, False),
        ({'limit = "log(n)"': 'limit = "log(n - 1)"'}, False),
        ({'lam_h = "positive"': 'lam_h = "real"'}, False),  # repulsive heads: no collapse, no uniform limit
        ({'"softmax"': '"usa"'}, True),
    ],
)
def test_the_attention_entropy_tends_to_log_n_once_the_gap_does(edits: dict[str, str], proved: bool) -> None:
    text = ENTROPY
    for old, new in edits.items():
        text = text.replace(old, new)
    claim = _over_variables(text)
    assert _accepts(claim, True) == proved and not _accepts(claim, False)


def test_an_entropy_limit_at_numbers_needs_the_gap_to_close() -> None:
    """n = 4, lambda = 1 from rho0 = 1/5: S(rho0) > 0, every entropy tends to log 4; lambda = -1: S(rho0) < 0, rho ->
    -1/3, where the scores -1 (own) and 1/3 (others) are not uniform: the entropy tends below log 4 (balls)."""
    line = 'property = "tends-to"\nlimit = "log(4)"'
    text = f'[[claim]]\nid = "c"\n{REGIME.replace("cluster_gap", "attention_entropy")}{line}\nattention = "softmax"\n'
    for lambdas, proved in (("[1.0]", True), ("[-1.0]", False)):
        (claim,) = parse_claims(text + f"lambdas = {lambdas}\nrho = 0.2\nn = 4\nd = 4\nbeta = 1.0\n")
        assert _accepts(claim, True) == proved and _accepts(claim, False) == (not proved)


@needs_coqc
def test_coq_proves_an_entropy_limit(tmp_path: Path) -> None:
    path = certify(_over_variables(ENTROPY), True, tmp_path)
    assert path is not None
    proved, coq_problem = problem(check_file(path))
    assert run.compile_source(source(path.name, "c", proved, coq_problem)).status == "accepted"


def test_a_verdict_the_kernel_contradicts_is_not_taken(tmp_path: Path) -> None:
    """A route that said PROVED for the per-token rate 2e/4 (r* = 2e): the kernel proves the opposite, so the outcome
    is INCONCLUSIVE and carries no certificate; the true verdict keeps its own."""
    from headflow.checks.claimsfile.dynamics_decider import with_equiangular_certificate
    from headflow.checks.registry import Context
    from headflow.checks.verdicts import Outcome, Step, Verdict

    claim, ctx = _claim('property = "decays-at-rate"\nrate = "2*exp(1)/4"'), Context(certificate_dir=tmp_path)
    wrong = with_equiangular_certificate(claim, Outcome(Verdict.PROVED, "a route", steps=[Step("a step")]), ctx)
    assert wrong.verdict is Verdict.INCONCLUSIVE and not wrong.certificates and "opposite" in wrong.notes
    witness = {"verified_by": "exact"}
    right = with_equiangular_certificate(claim, Outcome(Verdict.REFUTED, "a route", witness=witness), ctx)
    assert right.verdict is Verdict.REFUTED and len(right.certificates) == 1


def test_huge_statements_are_refused_by_counted_limits() -> None:
    """32 softmax heads of strengths 1/p (p prime) put more than exp_field's term limit into the exact pull: refused,
    not computed for ever; a value of more than 10^4 nodes is refused before any arithmetic."""
    from headflow.certificates.kernel.verify import check

    primes = [p for p in range(2, 140) if all(p % q for q in range(2, p))][:32]
    data = {"attention": "softmax", "n": "5", "beta": "1", "strengths": [f"1/{p}" for p in primes], "rho0": "1/3"}
    data |= {"family": False, "variables": [], "quantity": "cluster_gap", "property": "tends-to", "holds": True}
    data |= {"point": None}
    statement = {"form": "equiangular", "claim": "c", **data, "value": ["rat", "0"]}
    for value in (["rat", "0"], ["add", *[["rat", "0"]] * 20_000]):
        certificate = {"claim_id": "c", "statement": statement | {"value": value}, "kind": "equiangular"}
        with pytest.raises((Rejected, ValueError)):
            check(certificate | {"payload": {"holds": True, "point": None, "fails_at": None}}, 0)


@pytest.mark.parametrize(("rate", "holds"), [("3.0", True), ("2*1.5", True), ("3.0000000000000001", False)])
def test_a_float_literal_is_the_decimal_it_writes(rate: str, holds: bool) -> None:
    """softmax, lambda = (1, 1/2): r* = 3; 3.0000000000000001 is not 3 (no float rounds it onto the rate)."""
    claim = _claim(f'property = "decays-at-rate"\nrate = "{rate}"', "softmax", "[1.0, 0.5]")
    assert _accepts(claim, holds) and not _accepts(claim, not holds)


def _pair(property_line: str, attention: str = "usa", lambdas: str = "[1.0]") -> Any:
    """The first pair's gap under the causal mask, n = 4, beta = 1, rho0 = 3/10."""
    text = f'[[claim]]\nid = "c"\n{REGIME}{property_line}\nattention = "{attention}"\nlambdas = {lambdas}\n'
    text = text.replace('"cluster_gap"', '"first_pair_gap"') + 'rho = 0.3\nn = 4\nd = 4\nbeta = 1.0\nmask = "causal"\n'
    (claim,) = parse_claims(text)
    return claim


#: The causal first pair, worked by hand: token 1 fixed, token 2 pulled by c lambda w_21, so d rho/dt = (1 - rho)(1 +
#: rho) S(rho) with usa S = (1/4) e^rho (r* = 2 S(1) = e/2, the initial rate -(7/10)(13/10) S(3/10)), softmax S =
#: e^rho / (e + e^rho) (r* = 2 S(1) = 1); a repelled token 2 goes to -x_1 (the gap to 2).
PAIR_CASES = {
    ('property = "decays-at-rate"\nrate = "2*exp(1)/4"', "usa", "[1.0]"): True,
    ('property = "decays-at-rate"\nrate = "2*exp(1)"', "usa", "[1.0]"): False,  # every pair's rate, unmasked
    ('property = "decays-at-rate"\nrate = "1"', "softmax", "[1.0]"): True,
    ('property = "decays-at-rate"\nrate = "2"', "softmax", "[1.0]"): False,
    ('property = "tends-to"\nlimit = "2"', "usa", "[-1.0]"): True,
    ('property = "tends-to"\nlimit = "4/3"', "usa", "[-1.0]"): False,  # every pair's limit n/(n - 1), unmasked
    ('property = "initial-rate"\nderivative = "-(91/400)*exp(3/10)"', "usa", "[1.0]"): True,
    ('property = "initial-rate"\nderivative = "-(91/400)*exp(3/10)*(1 + 10**-40)"', "usa", "[1.0]"): False,
}


@pytest.mark.parametrize("case", PAIR_CASES, ids=[f"{c[1]}-{c[0].split(chr(10))[1]}" for c in PAIR_CASES])
def test_the_causal_first_pair_is_the_reduction_of_order_two(case: tuple[str, str, str]) -> None:
    holds = PAIR_CASES[case]
    claim = _pair(*case)
    assert _accepts(claim, holds) and not _accepts(claim, not holds)


def test_a_pair_certificate_is_not_every_pairs_nor_read_without_its_lemma(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The pair's proved rate e/2, relabelled as the cluster gap (every pair, no mask: r* = 2 e), is rejected; with the
    pair's lemma edited in the kernel's table (2 off for off), the genuine certificate no longer re-checks."""
    path = certify(_pair('property = "decays-at-rate"\nrate = "2*exp(1)/4"'), True, tmp_path)
    assert path is not None and check_file(path).ok
    assert "by lemma.causal-pair with S(rho) = c sum_h" in check_file(path).proved
    assert not check_file(forged_file(path, tmp_path, _edit("quantity", "cluster_gap"))).ok
    table = json.loads(registry_statements.PATH.read_text())
    table[equiangular.PAIR]["identities"][0][1].insert(1, ["rat", "2"])
    monkeypatch.setattr(registry_statements, "table", lambda: table)
    assert not check_file(path).ok


@needs_coqc
def test_coq_proves_the_causal_pair(tmp_path: Path) -> None:
    path = certify(_pair('property = "decays-at-rate"\nrate = "2"', "softmax"), False, tmp_path)
    assert path is not None
    proved, coq_problem = problem(check_file(path))
    assert run.compile_source(source(path.name, "c", proved, coq_problem)).status == "accepted"


# ---------------------------------------------------------------- a quantified claim refuted at a point of its domain

#: quantified.toml's heads 1 and mu in [-3, 0] (usa, n = 4, beta = 1, rho0 = 1/10): S(rho0) = (e^(1/10) + mu
#: e^(mu/10))/2, negative at mu = -3 (the gap tends to 4/3, not 0), positive at mu = -6/5 (the claim holds there).
MIXED = claims_of((EXAMPLES / "quantified.toml").read_text(), "usa.mixed.collapse.wrong")


def _mixed(text: str = MIXED) -> Any:
    (claim,) = parse_claims(text)
    return claim


def test_a_quantified_claim_is_refuted_at_a_point_of_its_domain(tmp_path: Path) -> None:
    """The statement over mu in [-3, 0] fails at mu = -3: the kernel shows the point in the domain, then the facts
    there; check-cert --claims holds it to the file, and refuses it once the file's domain leaves the point out."""
    path = certify(_mixed(), False, tmp_path, {"mu": "-3"})
    assert path is not None
    checked = check_file(path)
    assert checked.ok and "-3 <= mu <= 0; at the point mu = -3) fails" in checked.proved, checked.message
    assert recheck(path, claims={"usa.mixed.collapse.wrong": _mixed()}, read_claim=True).ok
    narrower = _mixed(MIXED.replace('mu = "[-3, 0]"', 'mu = "[-1, 0]"'))
    assert not recheck(path, claims={"usa.mixed.collapse.wrong": narrower}, read_claim=True).ok


@pytest.mark.parametrize("point", [{"mu": "-6/5"}, {"mu": "-4"}, {"mu": "1/2"}, {"nu": "-3"}, {}], ids=str)
def test_no_refutation_at_a_point_where_it_holds_or_outside_the_domain(point: dict[str, str], tmp_path: Path) -> None:
    """mu = -6/5: the claim holds there; -4 and 1/2: outside [-3, 0]; no value of mu (a name that is no variable, or
    none at all). A point's values of parameters the statement does not state (d) are left out of it."""
    assert certify(_mixed(), False, tmp_path, point) is None


POINT_FORGERIES = {
    "the point outside the domain": lambda d: d["statement"]["point"].__setitem__("mu", "-4"),
    "the payload's point alone moved": lambda d: d["payload"].__setitem__("point", {"mu": "-2"}),
    "a proof at a point": lambda d: (
        d["statement"].__setitem__("holds", True),
        d["payload"].__setitem__("holds", True),
    ),
    "any H heads": _edit("family", True),
    "the domain widened to the point": lambda d: d["statement"]["variables"][0].__setitem__("low", ["rat", "-5"]),
}


@pytest.mark.parametrize("name", POINT_FORGERIES)
def test_forged_point_refutations_are_rejected(name: str, tmp_path: Path) -> None:
    genuine = certify(_mixed(), False, tmp_path, {"mu": "-3"})
    assert genuine is not None and check_file(genuine).ok
    forged = forged_file(genuine, tmp_path, POINT_FORGERIES[name])
    # accepted by the kernel, refused for the file: -3 is in [-5, 0]; "every H >= 1 heads" fails where one head does
    if name in ("the domain widened to the point", "any H heads"):
        assert not recheck(forged, claims={"usa.mixed.collapse.wrong": _mixed()}, read_claim=True).ok
    else:
        assert not check_file(forged).ok


@needs_coqc
def test_coq_proves_a_refutation_at_a_point_and_refuses_one_outside(tmp_path: Path) -> None:
    """Coq states the point's bounds (-3 <= -3 <= 0) and the facts at numbers; with the point's fact at mu = -4 it
    fails."""
    path = certify(_mixed(), False, tmp_path, {"mu": "-3"})
    assert path is not None
    proved, coq_problem = problem(check_file(path))
    assert any(s.name == "point" for s in coq_problem)
    assert run.compile_source(source(path.name, "c", proved, coq_problem)).status == "accepted"
    at_minus_four = ["and", [">=", ["rat", "-4"], ["rat", "-3"]], ["<=", ["rat", "-4"], ["rat", "0"]]]
    point = next(s for s in coq_problem if s.name == "point")
    assert point.goal == ["and", [">=", ["rat", "-3"], ["rat", "-3"]], ["<=", ["rat", "-3"], ["rat", "0"]]]
    outside = [s._replace(goal=at_minus_four) if s.name == "point" else s for s in coq_problem]
    assert run.compile_source(source(path.name, "c", proved, outside)).status != "accepted"
