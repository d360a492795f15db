"""examples/rates.toml: rates (`decays-exponentially`, `decays-like`), non-clustering starts (`exists = true`,
`does-not-tend-to`, stationary witnesses) and existence of an equality (a model claim with `exists = true`, op `=`),
each decided as its comment says, every certificate accepted by `check-cert`; and the boundaries of the rate: just
above and just below the exact one."""

from __future__ import annotations

from pathlib import Path

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.errors import InputError
from headflow.checks.verdicts import Verdict

from tests.checking import verify_file
from tests.checks.claimsfile.test_model_claims import decide

ROOT = Path(__file__).resolve().parents[3]

EXPECTED = {
    "rate.softmax.faster-than-1": Verdict.PROVED,
    "rate.usa.positive": Verdict.PROVED,
    "rate.hemisphere.fitted": Verdict.CONFIRMED,
    "rate.softmax.too-fast": Verdict.REFUTED,
    "rate.usa.above-exact": Verdict.REFUTED,
    "rate.repulsive": Verdict.REFUTED,
    "rate.relu.hemisphere": Verdict.REFUTED,
    "hemisphere.mixed-heads.stays": Verdict.CERTIFIED,
    "hemisphere.relu.stays": Verdict.CERTIFIED,
    "hemisphere.relu.all-cluster": Verdict.REFUTED,
    "hemisphere.mixed-heads.all-cluster": Verdict.REFUTED,
    "equiangular.usa.stays": Verdict.REFUTED,
    "hemisphere.usa.stays": Verdict.INCONCLUSIVE,
    "equality.rate-zero": Verdict.CERTIFIED,
    "equality.relu-shadow": Verdict.CERTIFIED,
    "equality.negative-power": Verdict.REFUTED,
    "equality.energy-falls": Verdict.REFUTED,
    "shape.pre-ln.power-law": Verdict.PROVED,
    "shape.pre-ln.one-over-t": Verdict.REFUTED,
    "shape.pre-ln.exponential": Verdict.REFUTED,
    "shape.mix-ln.power-law": Verdict.PROVED,
    "shape.ngpt.exponential": Verdict.PROVED,
    "shape.ngpt.power-law": Verdict.REFUTED,
    "shape.post-ln.exact-rate": Verdict.PROVED,
    "shape.post-ln.wrong-rate": Verdict.REFUTED,
    "shape.post-ln.extra-power": Verdict.REFUTED,
    "shape.repulsive": Verdict.REFUTED,
    "shape.fitted": Verdict.CONFIRMED,
}


#: The decided claims in the regime of the kernel's `equiangular` form (unmasked equiangular tokens on the sphere or
#: under a normalization scheme, numbers, a shape t^p exp(k t) of decays-like): each carries its certificate.
EQUIANGULAR = {
    "equiangular.usa.stays",  # does-not-tend-to 0, refuted by the proof that the gap tends to 0
    "rate.softmax.faster-than-1",
    "rate.usa.positive",
    "rate.softmax.too-fast",
    "rate.usa.above-exact",
    "rate.repulsive",
    "shape.post-ln.exact-rate",
    "shape.post-ln.wrong-rate",
    "shape.repulsive",
    "shape.post-ln.extra-power",
    "shape.pre-ln.power-law",
    "shape.pre-ln.one-over-t",
    "shape.pre-ln.exponential",
    "shape.mix-ln.power-law",
    "shape.ngpt.exponential",
    "shape.ngpt.power-law",
}


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Verdict, dict]]:
    return decide((ROOT / "examples" / "rates.toml").read_text(), tmp_path_factory.mktemp("certs"))


def test_every_example_is_decided_as_its_comment_says(examples: dict[str, tuple[Verdict, dict]]) -> None:
    assert {k: v for k, (v, _) in examples.items()} == EXPECTED


def test_every_certificate_is_accepted_by_check_cert(examples: dict[str, tuple[Verdict, dict]]) -> None:
    paths = [Path(p) for _, evidence in examples.values() for p in evidence.get("certificates", [])]
    # equality.energy-falls's among them (Theorem 11's dE/dt >= 0 denies dE/dt = -1), and equality.negative-power's
    # sums certificate (T_h_i >= 0 denies T_h_i = -1)
    assert len(paths) == 25
    assert any(".gram." in p for p in examples["equality.energy-falls"][1]["certificates"])
    equiangular = {
        name
        for name, (_, evidence) in examples.items()
        if any(".equiangular." in p for p in evidence.get("certificates", []))
    }
    assert equiangular == EQUIANGULAR  # the claims on the cluster gap of equiangular tokens, decided
    for path in paths:
        ok, message = verify_file(path)
        assert ok, message


def test_a_proved_rate_shows_r_above_r0_and_a_constant(examples: dict[str, tuple[Verdict, dict]]) -> None:
    _, evidence = examples["rate.softmax.faster-than-1"]
    r, C = (evidence["details"][key] for key in ("r", "C"))
    assert 1 < eval_fraction(r) <= 2 and eval_fraction(C) > 0  # r between r0 = 1 and the exact rate 2
    assert evidence["details"]["exact_rate"] == "2"
    assert any("Gronwall" in step["text"] for step in evidence["steps"])


def eval_fraction(text: str) -> float:
    numerator, _, denominator = text.partition("/")
    return int(numerator) / int(denominator or 1)


def test_a_fitted_rate_is_at_most_confirmed_with_r_and_c(examples: dict[str, tuple[Verdict, dict]]) -> None:
    _, evidence = examples["rate.hemisphere.fitted"]
    starts = evidence["details"]["starts"]
    assert all(s["status"] == "holds" and s["r"] > 0 and s["C"] > 0 for s in starts)


def test_the_stationary_witness_lies_in_an_open_hemisphere(examples: dict[str, tuple[Verdict, dict]]) -> None:
    _, evidence = examples["hemisphere.mixed-heads.stays"]
    witness = evidence["witness"]
    assert witness["verified_by"] == "exact" and witness["cluster_gap"] == "1"
    tokens = [[eval_fraction(v) for v in x] for x in witness["start"]]
    centre = [sum(column) for column in zip(*tokens, strict=True)]
    assert all(sum(a * b for a, b in zip(x, centre, strict=True)) > 0 for x in tokens)


RATE = """
[[claim]]
id = "{id}"
kind = "dynamics"
quantity = "cluster_gap"
property = "decays-exponentially"
rate = "{rate}"
attention = "softmax"
heads = "scalar"
lambdas = [1.0]
tokens = "equiangular"
rho = 0.2
n = 4
d = 4
beta = 1.0
"""


def test_a_rate_just_above_the_exact_one_is_refuted_and_just_below_proved(tmp_path: Path) -> None:
    text = RATE.format(id="above", rate="2 + 10**-30") + RATE.format(id="below", rate="2 - 10**-30")
    verdicts = decide(text, tmp_path)
    assert verdicts["above"][0] is Verdict.REFUTED, verdicts["above"]
    assert verdicts["above"][1]["witness"]["exact_rate"] == "2"
    assert verdicts["below"][0] is Verdict.PROVED, verdicts["below"]


def test_the_exact_rate_itself_is_not_beaten(tmp_path: Path) -> None:
    verdict, evidence = decide(RATE.format(id="equal", rate="2"), tmp_path)["equal"]
    assert verdict is Verdict.REFUTED and evidence["witness"]["verified_by"] == "exact", evidence


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ('exists = "yes"\n', "exists"),
        ('exists = true\nproperty = "non-negative"\n', "exists"),
    ],
)
def test_bad_exists_fields_are_one_line_errors(extra: str, field: str) -> None:
    text = RATE.format(id="bad", rate="1")
    if "property" in extra:
        text = text.replace('property = "decays-exponentially"\nrate = "1"\n', "")
    with pytest.raises(InputError) as info:
        parse_claims(text + extra, "t.toml")
    assert info.value.field == field


REPULSIVE = """
[[claim]]
id = "{id}"
kind = "dynamics"
{exists}quantity = "cluster_gap"
property = "does-not-tend-to"
limit = "{limit}"
attention = "usa"
heads = "scalar"
lambdas = [-1.0]
tokens = "equiangular"
rho = 0.3
n = 4
d = 4
beta = 1.0
"""


def test_does_not_tend_to_on_the_exact_reduction(tmp_path: Path) -> None:
    # One repulsive head: eps -> n/(n - 1) = 4/3 exactly. "Some start does not tend to 0" is PROVED (tends-to 0 is
    # refuted exactly on a family that is one start up to rotation); "no start tends to 4/3" is REFUTED.
    stays = REPULSIVE.format(id="stays", exists="exists = true\n", limit="0")
    every = REPULSIVE.format(id="every", exists="", limit="4/3")
    verdicts = decide(stays + every, tmp_path)
    assert verdicts["stays"][0] is Verdict.PROVED, verdicts["stays"]
    assert verdicts["every"][0] is Verdict.REFUTED, verdicts["every"]


def test_decays_exponentially_is_about_the_cluster_gap() -> None:
    with pytest.raises(InputError) as info:
        parse_claims(RATE.format(id="bad", rate="1").replace('"cluster_gap"', '"energy"'), "t.toml")
    assert info.value.field == "property"


def test_an_antipodal_equilibrium_is_some_random_start_but_refutes_no_almost_every_claim(tmp_path: Path) -> None:
    some = REPULSIVE.format(id="some", exists="exists = true\n", limit="0")
    some = some.replace('"equiangular"\nrho = 0.3', '"random-sphere"').replace("[-1.0]", "[1.0]")
    every = some.replace('id = "some"', 'id = "every"').replace("exists = true\n", "")
    every = every.replace('"does-not-tend-to"', '"tends-to"')
    verdicts = decide(some + every, tmp_path)
    verdict, evidence = verdicts["some"]
    assert verdict is Verdict.CERTIFIED and evidence["witness"]["cluster_gap"] == "2", evidence  # x, -x, x
    assert verdicts["every"][0] is not Verdict.REFUTED, verdicts["every"]
