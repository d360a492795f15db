"""The cluster gap of equiangular tokens under the normalization schemes as `equiangular` statements.

Under a scheme the directions follow the sphere's trajectory at a positive speed whose integral diverges, so the limit
is the sphere's, and the late form eps ~ C t^p e^(-r t) is the scheme's: nGPT (p, r) = (0, 2) (r*/V* = 2), Pre-LN
and Peri-LN (-2, 0), Mix-LN (-8/3, 0) (p = -2/k, k = 1, 1, 3/4). The verdicts below are worked by hand from these
(usa and softmax, n = 4, beta = 1, rho0 = 1/5, strengths 1 or (1, 1/2)), and each attack is a test: the geometry
relabelled (a sphere's certificate read under nGPT, a scheme's on the sphere), a rate or power one off, (1 + t)^p read
as t^p, a scheme with a repulsive head, an initial rate, a quantity or variables the form does not state under a
scheme, a geometry it does not know.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.coq.source import source
from headflow.certificates.kernel import equiangular
from headflow.certificates.kernel.coq import run
from headflow.certificates.kernel.coq.certificate import problem
from headflow.certificates.kernel.recheck import Rejected
from headflow.certificates.kernel.verify import check_file
from headflow.certificates.provers.equiangular import certify
from headflow.certificates.statements.equiangular import statement
from headflow.checks.rechecks import recheck

from tests.certificates.kernel.test_equiangular_statements import _accepts
from tests.coq_tier import needs_coqc
from tests.forging import forged_file


def _claim(geometry: str, line: str, attention: str = "softmax", lambdas: str = "[1.0]", claim_id: str = "c") -> Any:
    text = (
        f'[[claim]]\nid = "{claim_id}"\nkind = "dynamics"\nquantity = "cluster_gap"\ngeometry = "{geometry}"\n'
        f'heads = "scalar"\ntokens = "equiangular"\n{line}\nattention = "{attention}"\nlambdas = {lambdas}\n'
        "rho = 0.2\nn = 4\nd = 4\nbeta = 1.0\n"
    )
    (claim,) = parse_claims(text)
    return claim


def like(shape: str) -> str:
    return f'property = "decays-like"\nlike = "{shape}"'


def rate(value: str) -> str:
    return f'property = "decays-at-rate"\nrate = "{value}"'


#: (geometry, property line, attention, lambdas) -> whether the claim holds.
CASES = {
    ("pre-ln", like("t**(-2)"), "softmax", "[1.0]"): True,
    ("pre-ln", like("(1 + t)**(-2)"), "softmax", "[1.0]"): True,  # (1 + t)^p / t^p -> 1
    ("pre-ln", like("1/t"), "softmax", "[1.0]"): False,
    ("pre-ln", like("t**(-3)"), "softmax", "[1.0]"): False,
    ("pre-ln", like("exp(-t)"), "softmax", "[1.0]"): False,
    ("pre-ln", like("t**(-2)*exp(-t)"), "softmax", "[1.0]"): False,  # the right power, an exponential too many
    ("pre-ln", rate("2"), "softmax", "[1.0]"): False,  # a power law decays at no exponential rate
    ("pre-ln", 'property = "tends-to"\nlimit = "0"', "softmax", "[1.0]"): True,  # the sphere's limit
    ("pre-ln", 'property = "tends-to"\nlimit = "4/3"', "softmax", "[1.0]"): False,
    ("pre-ln", 'property = "decays-exponentially"\nrate = "-1/10"', "softmax", "[1.0]"): True,  # below 0: bounded
    ("pre-ln", 'property = "decays-exponentially"\nrate = "0"', "softmax", "[1.0]"): False,
    ("peri-ln", like("t**(-2)"), "softmax", "[1.0]"): True,
    ("mix-ln", like("(1 + t)**(-8/3)"), "softmax", "[1.0]"): True,
    ("mix-ln", like("t**(-8/3)"), "softmax", "[1.0]"): True,
    ("mix-ln", like("t**(-2)"), "softmax", "[1.0]"): False,  # Pre-LN's power, not Mix-LN's
    ("ngpt", like("exp(-2*t)"), "usa", "[1.0, 0.5]"): True,  # r*/V* = 2 whatever the kind and strengths
    ("ngpt", rate("2"), "usa", "[1.0, 0.5]"): True,
    ("ngpt", rate("2*exp(1) + exp(1/2)"), "usa", "[1.0, 0.5]"): False,  # the sphere's r*
    ("ngpt", rate("2*(1 + 10**-40)"), "usa", "[1.0, 0.5]"): False,  # one part in 10^40 off
    ("ngpt", like("t**(-2)"), "usa", "[1.0, 0.5]"): False,
    ("ngpt", like("t*exp(-2*t)"), "usa", "[1.0, 0.5]"): False,  # the right rate, a power of t too many
}


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[1].split(chr(10))[1]}" for c in CASES])
def test_the_kernel_accepts_exactly_the_true_verdict(case: tuple[str, str, str, str]) -> None:
    claim = _claim(*case)
    assert statement(claim, True) is not None
    assert _accepts(claim, CASES[case]) and not _accepts(claim, not CASES[case])


def test_the_sphere_s_verdicts_are_not_a_scheme_s() -> None:
    """The same claims on the sphere (Post-LN): eps ~ C e^(-r* t), r* = 2 e (usa, n = 4, one head), so t^(-2) and nGPT's
    rate 2 are refuted there and Post-LN's exponential holds."""
    assert _accepts(_claim("sphere", like("t**(-2)"), "usa"), False)
    assert _accepts(_claim("sphere", rate("2"), "usa"), False)
    assert _accepts(_claim("sphere", like("exp(-2*exp(1)*t)"), "usa"), True)
    assert not _accepts(_claim("ngpt", like("exp(-2*exp(1)*t)"), "usa"), True)


@pytest.mark.parametrize(
    ("geometry", "line", "lambdas"),
    [
        ("pre-ln", like("t**(-2)"), "[-1.0]"),  # a repulsive head: the speed's integral is not shown to diverge
        ("ngpt", like("exp(-2*t)"), "[1.0, -0.5]"),
        ("ngpt", 'property = "initial-rate"\nderivative = "-1"', "[1.0]"),  # sigma(0) is not 1 under nGPT
        ("pre-ln", 'property = "initial-rate"\nderivative = "-1"', "[1.0]"),
    ],
)
def test_statements_outside_the_schemes_regime_are_refused(geometry: str, line: str, lambdas: str) -> None:
    claim = _claim(geometry, line, lambdas=lambdas)
    assert not _accepts(claim, True) and not _accepts(claim, False)


def _genuine(tmp_path: Path) -> Path:
    path = certify(_claim("pre-ln", like("t**(-2)"), claim_id="pre"), True, tmp_path)
    assert path is not None
    return path


def _edit(field: str, value: Any) -> Any:
    return lambda data: data["statement"].__setitem__(field, value)


FORGERIES = {
    "relabelled to the sphere": _edit("geometry", "sphere"),
    "relabelled to nGPT": _edit("geometry", "ngpt"),
    "relabelled to Mix-LN": _edit("geometry", "mix-ln"),
    "a geometry the form does not know": _edit("geometry", "flat"),
    "another power": _edit("value", ["pow", ["sym", "t"], -1]),
    "the opposite verdict": _edit("holds", False),
    "the first pair's gap": _edit("quantity", "first_pair_gap"),
    "a repulsive head": _edit("strengths", ["-1"]),
    "no geometry": lambda data: data["statement"].pop("geometry"),
}


@pytest.mark.parametrize("name", FORGERIES)
def test_forged_scheme_certificates_are_rejected(name: str, tmp_path: Path) -> None:
    genuine = _genuine(tmp_path)
    assert check_file(genuine).ok and "geometry = pre-ln" in check_file(genuine).proved
    assert not check_file(forged_file(genuine, tmp_path, FORGERIES[name])).ok


def test_check_cert_holds_the_certificate_to_the_claims_file(tmp_path: Path) -> None:
    """The Pre-LN certificate against its claim (accepted), and against the same claim under Peri-LN, whose
    statement differs by its geometry (refused), though Peri-LN's power is Pre-LN's."""
    genuine = _genuine(tmp_path)
    claim = _claim("pre-ln", like("t**(-2)"), claim_id="pre")
    assert recheck(genuine, claims={"pre": claim}, read_claim=True).ok
    other = _claim("peri-ln", like("t**(-2)"), claim_id="pre")
    assert not recheck(genuine, claims={"pre": other}, read_claim=True).ok


@needs_coqc
def test_coq_proves_a_scheme_s_facts(tmp_path: Path) -> None:
    """Mix-LN's power law and nGPT's refuted Post-LN rate: coqc proves the lemma and the facts."""
    for claim, holds in (
        (_claim("mix-ln", like("(1 + t)**(-8/3)")), True),
        (_claim("ngpt", rate("2*exp(1) + exp(1/2)"), "usa", "[1.0, 0.5]"), False),
    ):
        path = certify(claim, holds, tmp_path)
        assert path is not None
        proved, coq_problem = problem(check_file(path))
        assert run.compile_source(source(path.name, "c", proved, coq_problem)).status == "accepted"


@pytest.mark.parametrize("exponent", [-2.0, "-2"])
def test_a_power_whose_exponent_is_no_integer_is_no_shape(exponent: Any) -> None:
    """A `pow` node holds an integer exponent; a float or a string there (a hand-written tree, -2.0 or "-2", which a
    Fraction would read as -2) is not read as a power of t: the kernel refuses the Pre-LN statement it would accept
    with the integer -2."""
    stated = statement(_claim("pre-ln", like("t**(-2)")), True)
    assert stated is not None and stated["value"] == ["pow", ["sym", "t"], -2]
    assert equiangular.check(stated, "c", equiangular.FORM, {"holds": True, "point": None, "fails_at": None}, 0)
    with pytest.raises(Rejected):
        equiangular.check(
            stated | {"value": ["pow", ["sym", "t"], exponent]},
            "c",
            equiangular.FORM,
            {"holds": True, "point": None, "fails_at": None},
            0,
        )


def test_the_kernel_s_late_forms_are_the_reduction_s() -> None:
    """The kernel's table (it imports nothing from `identities`) against the derivation it cites: every scheme of
    `identities.normalized_reduction`, nGPT's rate r*/V* = 2 and the others' power p = -r*/(k V*) = -2/k (r* = 2 V*)."""
    from headflow.identities import normalized_reduction

    expected = {
        name: (0, 2) if k is None else (Fraction(-2) / Fraction(str(k)), 0)
        for name, (_, k) in normalized_reduction.SCHEMES.items()
    }
    assert expected == equiangular.LATE_FORMS
