"""Conjunctions (`kind = "all"`): a claim holds when every part holds; the verdict is combined soundly (one refuted
part refutes it, a proof needs a proof of every part), each part's certificate embeds that part, and a part is
written, located and checked like a claim of its own kind."""

from __future__ import annotations

from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.claims.problems import ClaimsFileError
from headflow.certificates.claims.schema import UserClaim
from headflow.checks.claimsfile.conjunction import conjunction
from headflow.checks.verdicts import Outcome, Verdict
from headflow.identities.derivation import Step

from tests.checking import verify_file
from tests.checks.claimsfile.test_model_claims import decide
from tests.command import headflow
from tests.sample_claims import claims_of

ROOT = Path(__file__).resolve().parents[3]

TRUE_IDENTITY = """
[[claim.parts]]
kind = "identity"
lhs = "(x + 1)**2"
rhs = "x**2 + 2*x + 1"
symbols = { x = "real" }
"""
FALSE_INEQUALITY = """
[[claim.parts]]
kind = "inequality"
lhs = "x**2"
op = ">"
rhs = "0"
domain = { x = "[-1, 1]" }
"""


def _conjunction(claim_id: str, *parts: str) -> str:
    return f'[[claim]]\nid = "{claim_id}"\nkind = "all"\n' + "".join(parts)


CONJUNCTIONS = (ROOT / "examples" / "conjunctions.toml").read_text()
#: The example whose refuting part the dynamics search takes seconds to find: decided in the slow test.
SEARCHED = "condition8.iff-monotone"


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Verdict, dict]]:
    return decide(claims_of(CONJUNCTIONS, SEARCHED, keep=False), tmp_path_factory.mktemp("certs"))


def test_true_examples_are_decided_true_by_every_part(examples: dict[str, tuple[Verdict, dict]]) -> None:
    assert examples["energy-rate.both-geometries"][0] is Verdict.PROVED
    verdict, evidence = examples["c-star.root-range-monotone"]
    assert verdict is Verdict.CERTIFIED, evidence
    assert [part["verdict"] for part in evidence["details"]["parts"]] == ["PROVED"] + ["CERTIFIED"] * 3
    for path in evidence["certificates"]:
        ok, message = verify_file(Path(path))
        assert ok and "c-star.root-range-monotone.part" in message, message


def assert_refuted_by_one_part(examples: dict[str, tuple[Verdict, dict]], claim_id: str, part: str) -> None:
    verdict, evidence = examples[claim_id]
    assert verdict is Verdict.REFUTED, (claim_id, evidence)
    assert evidence["witness"]["part"] == f"{claim_id}.{part}"
    assert evidence["witness"]["verified_by"] in ("ball", "exact")


def test_false_examples_are_refuted_by_the_witness_of_one_part(examples: dict[str, tuple[Verdict, dict]]) -> None:
    assert SEARCHED not in examples
    assert_refuted_by_one_part(examples, "c-star.open-range", "part2")


@pytest.mark.slow
def test_the_searched_false_example_is_refuted_by_the_witness_of_one_part(tmp_path: Path) -> None:
    assert_refuted_by_one_part(decide(claims_of(CONJUNCTIONS, SEARCHED), tmp_path), SEARCHED, "part2")


def test_one_false_part_refutes_a_conjunction_of_true_ones(tmp_path: Path) -> None:
    text = _conjunction("mixed", TRUE_IDENTITY, FALSE_INEQUALITY)
    verdict, evidence = decide(text, tmp_path)["mixed"]
    assert verdict is Verdict.REFUTED and evidence["witness"]["part"] == "mixed.part2"
    assert decide(_conjunction("sound", TRUE_IDENTITY, TRUE_IDENTITY), tmp_path)["sound"][0] is Verdict.PROVED


def _part() -> UserClaim:
    (claim,) = parse_claims(_conjunction("p", TRUE_IDENTITY, TRUE_IDENTITY))
    return claim.parts[0]  # type: ignore[attr-defined]


PROVED = Outcome(Verdict.PROVED, "m", steps=[Step("s")])
CERTIFIED = Outcome(Verdict.CERTIFIED, "m", certificates=["c.json"])
CONFIRMED = Outcome(Verdict.CONFIRMED, "m", cases=500, tolerance=1e-9)
CONFIRMED_FEW = Outcome(Verdict.CONFIRMED, "m", cases=120, tolerance=1e-6)
UNDECIDED = Outcome(Verdict.INCONCLUSIVE, "m", notes="no route")
REFUTED = Outcome(Verdict.REFUTED, "m", witness={"verified_by": "ball", "x": "1"})


@pytest.mark.parametrize(
    ("outcomes", "expected"),
    [
        ((PROVED, PROVED), Verdict.PROVED),
        ((PROVED, CERTIFIED), Verdict.CERTIFIED),
        ((CERTIFIED, CONFIRMED), Verdict.CONFIRMED),
        ((CONFIRMED, UNDECIDED), Verdict.INCONCLUSIVE),
        ((UNDECIDED, PROVED), Verdict.INCONCLUSIVE),
        ((UNDECIDED, REFUTED), Verdict.REFUTED),
        ((PROVED, CONFIRMED, REFUTED), Verdict.REFUTED),
    ],
)
def test_the_combined_verdict_is_never_stronger_than_the_weakest_part(outcomes, expected) -> None:
    part = _part()
    assert conjunction([(part, outcome) for outcome in outcomes]).verdict is expected


def test_a_confirmed_conjunction_reports_its_weakest_evidence() -> None:
    part = _part()
    combined = conjunction([(part, CONFIRMED), (part, CONFIRMED_FEW), (part, PROVED)])
    assert (combined.cases, combined.tolerance) == (120, 1e-6)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('[[claim]]\nid = "a"\nkind = "all"\nparts = 3\n', "parts"),
        (_conjunction("a", TRUE_IDENTITY), "parts"),
        (_conjunction("a", TRUE_IDENTITY, '[[claim.parts]]\nkind = "all"\nparts = []\n'), "parts[2].kind"),
        (
            _conjunction("a", TRUE_IDENTITY, TRUE_IDENTITY.replace('kind = "identity"', 'id = "x"\nkind = "identity"')),
            "parts[2].id",
        ),
        (_conjunction("a", TRUE_IDENTITY, FALSE_INEQUALITY.replace('op = ">"', 'op = "=>"')), "parts[2].op"),
        (_conjunction("a", TRUE_IDENTITY, TRUE_IDENTITY.replace("x**2 + 2*x", "x**2 + 2*__import__")), "parts[2]"),
    ],
)
def test_a_malformed_conjunction_is_a_located_input_error(text: str, field: str) -> None:
    with pytest.raises(ClaimsFileError) as error:
        parse_claims(text, "t.toml")
    assert error.value.key.startswith(field), (error.value.key, str(error.value))
    assert error.value.line is not None


def test_a_part_id_may_not_collide_with_a_claim_id() -> None:
    text = _conjunction("a", TRUE_IDENTITY, TRUE_IDENTITY) + '[[claim]]\nid = "a.part1"\nkind = "identity"\n'
    text += 'lhs = "1"\nrhs = "1"\n'
    with pytest.raises(ClaimsFileError, match="duplicate claim id"):
        parse_claims(text, "t.toml")


def test_check_cert_compares_part_certificates_with_the_claims_file(
    examples: dict[str, tuple[Verdict, dict]], tmp_path: Path
) -> None:
    claims = ROOT / "examples" / "conjunctions.toml"
    paths = [Path(p) for p in examples["c-star.open-range"][1]["certificates"] if ".part1." in p]
    assert paths, examples["c-star.open-range"][1]
    run = ["check-cert", "--width=1000", str(paths[0]), "--claims"]  # in this process (`tests.command.headflow`)
    ok = headflow(*run, str(claims))
    assert ok.returncode == 0, ok.stderr
    # The same certificate compared with a file whose part says something else: rejected.
    edited = tmp_path / "edited.toml"
    edited.write_text(_conjunction("c-star.open-range", FALSE_INEQUALITY, TRUE_IDENTITY))
    bad = headflow(*run, str(edited))
    assert bad.returncode == 1 and "other fields" in bad.stderr, bad.stderr
