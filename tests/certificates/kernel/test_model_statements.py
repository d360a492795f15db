"""Certificates of `model` claims carry their statement as term trees (`certificates.kernel.model_statements`), those
of `equilibrium` claims an exact configuration (`headflow.certificates.kernel.equilibrium_statements`).

The certificates are written by the real deciders (`headflow check` on a small claims file): a universal claim
refuted by a witness, an existence claim certified by one, an existence equality certified by an exact witness. Each
is accepted, and what check-cert prints is rendered from the statement. Forged statements (recomputed checksum, so
only the kernel's check can reject them) are rejected: the relation flipped, a given condition the witness violates
added, a witness outside the family (wrong n, a non-symmetric score matrix for a symmetric-scores claim), an existence
statement filed for the universal claim, another claim's statement pasted in, a malformed term. Checking loads no
SymPy or mpmath of its own (a subprocess records who imports them). Equilibrium statements (the regime elaborated at
the certificate's instance into exact heads and block Gram matrices) likewise: a moving witness of a configuration at
rest or of no configuration, one stating a spectrum, a spectrum of other data or counts, a relabelled claim are
rejected by the kernel; an instance outside the claim's ranges or another configuration by `check-cert --claims`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from headflow.certificates.claims.loader import parse_claims
from headflow.certificates.kernel.format import content_hash
from headflow.certificates.statements import elaborate, restated
from headflow.certificates.statements.model import statement_data, term_data

from tests.checking import verify_file
from tests.command import headflow

ROOT = Path(__file__).resolve().parents[3]
CLAIMS = """
[[claim]]
id = "energy-monotone-without-alignment"
kind = "model"
assume = ["symmetric-scores", "symmetric-values"]
lhs = "dE_dt"
op = ">="
rhs = "0"

[[claim]]
id = "shadow-obstruction"
kind = "model"
exists = true
assume = ["symmetric-scores", "aligned-values", "orthogonal-heads"]
lhs = "dE_h_dt"
op = "<"
rhs = "0"

[[claim]]
id = "shadow-equals-one"
kind = "model"
exists = true
attention = "relu"
lhs = "a_h_i"
op = "="
rhs = "1"

[[claim]]
id = "tangential-power-nonnegative"
kind = "model"
lhs = "T_h_i"
op = ">="
rhs = "0"

[[claim]]
id = "energy-positive-square"
kind = "model"
interaction = "s**2"
lhs = "E"
op = ">="
rhs = "0"

[[claim]]
id = "unequal-clusters-at-rest"
kind = "equilibrium"
tokens = "clusters"
sizes = [2, 1, 1]
d = 2
beta = 1
lambdas = [1]
attention = "softmax"
property = "critical-point"

[[claim]]
id = "orthonormal-tokens-at-rest"
kind = "equilibrium"
tokens = "equiangular"
rho = "0"
property = "critical-point"

[[claim]]
id = "cluster-unstable"
kind = "equilibrium"
tokens = "single-cluster"
property = "unstable"
n = 3
d = 3
beta = 2
lambdas = [1]
attention = "usa"
"""
MODEL = {"energy-monotone-without-alignment", "shadow-obstruction", "shadow-equals-one", "energy-positive-square"}
REGIMES = {"unequal-clusters-at-rest", "orthonormal-tokens-at-rest", "cluster-unstable"}
#: A true claim the kernel's normal form of sums proves (`certificates.kernel.model_sums`): T^h_i = |P f|^2 >= 0.
SUMS = {"tangential-power-nonnegative"}
TRACE = """
import builtins, sys, traceback
from pathlib import Path
chains, original = set(), builtins.__import__
def project(filename):
    path = Path(filename).resolve()
    inside = path.is_relative_to(Path.cwd()) and not filename.startswith("<")
    return str(path.relative_to(Path.cwd())) if inside else None
def traced(name, globals=None, locals=None, fromlist=(), level=0):
    if name.split(".")[0] in ("sympy", "mpmath") and project((globals or {}).get("__file__") or "/"):
        chains.add(tuple(p for f in traceback.extract_stack() if (p := project(f.filename))))
    return original(name, globals, locals, fromlist, level)
builtins.__import__ = traced
from headflow.certificates.kernel.verify import check_file
print([check_file(p).ok for p in sys.argv[1:]])
print(sorted(chains))
"""


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """claim id -> its certificate, written by `headflow check` on CLAIMS."""
    folder = tmp_path_factory.mktemp("model-statements")
    (folder / "claims.toml").write_text(CLAIMS)
    headflow("check", str(folder / "claims.toml"), "--certificates", str(folder))  # in this process
    found = {json.loads(p.read_text())["claim_id"]: p for p in folder.glob("*.json")}
    assert set(found) == MODEL | REGIMES | SUMS, found
    return found


def forged(path: Path, change: Any, name: str = "forged.json") -> Path:
    """The certificate at `path` with `change(data)` applied and its checksum recomputed."""
    data = json.loads(path.read_text())
    change(data)
    data.pop("sha256")
    data["sha256"] = content_hash(data)
    out = path.with_name(name)
    out.write_text(json.dumps(data))
    return out


def test_the_deciders_certificates_carry_model_statements_and_are_accepted(written: dict[str, Path]) -> None:
    for claim_id, path in written.items():
        data = json.loads(path.read_text())
        assert data["statement"]["form"] == ("model" if claim_id in MODEL | SUMS else "equilibrium")
        assert data["statement"] == elaborate(claim_id, data["kind"], data["payload"], data["claim"])
        ok, message = verify_file(path)
        assert ok, message
    _, refuted = verify_file(written["energy-monotone-without-alignment"])
    assert "refutes" in refuted and '"exists": false' in refuted and '"relation": "dE_dt >= 0"' in refuted, refuted
    assert '"hypotheses": ["symmetric-scores", "symmetric-values", "unit-tokens"]' in refuted, refuted
    _, instance = verify_file(written["shadow-obstruction"])
    assert "proves" in instance and '"exists": true' in instance and "dE_h_dt < 0" in instance, instance
    _, exact = verify_file(written["shadow-equals-one"])
    assert "a_h_i = 1 holds exactly" in exact, exact


def test_the_statement_is_term_trees_read_back_the_same() -> None:
    (claim,) = parse_claims(
        '[[claim]]\nid = "c"\nkind = "model"\nlhs = "sum_j(p_h_ij * inner(x_j, M_h(x_i))) / n"\nop = "<="\n'
        'rhs = "norm(proj(v_i))**2 + log(Z_h_i)"\ngiven = ["a_h_i >= 0"]\ndomain = { n = { min = 3, max = 5 } }\n',
        "t.toml",
    )
    data = statement_data(claim)
    assert data["relation"]["lhs"] == [
        "/",
        ["sum_j", ["*", ["name", "p_h_ij"], ["inner", ["name", "x_j"], ["M_h", ["name", "x_i"]]]]],
        ["name", "n"],
    ]
    n_range = [
        {"lhs": ["name", "n"], "op": ">=", "rhs": ["num", "3"]},
        {"lhs": ["name", "n"], "op": "<=", "rhs": ["num", "5"]},
    ]
    assert data["given"][:2] == n_range and len(data["given"]) == 3  # the sizes are given conditions on n
    from headflow.certificates.kernel.model_statements import statement_of

    read = statement_of(data, "c")
    assert read.relation.lhs == claim.relation.lhs and read.relation.rhs == claim.relation.rhs
    assert read.given[2].lhs == claim.given[0].lhs and [g.text for g in read.given[:2]] == ["n >= 3", "n <= 5"]
    assert term_data(read.relation.rhs) == data["relation"]["rhs"]


def _relation(op: str) -> Any:
    return lambda data: data["statement"]["relation"].__setitem__("op", op)


def test_a_flipped_relation_is_rejected(written: dict[str, Path]) -> None:
    ok, message = verify_file(forged(written["energy-monotone-without-alignment"], _relation("<=")))
    assert not ok and "does not negate" in message, message
    ok, message = verify_file(forged(written["shadow-obstruction"], _relation(">")))
    assert not ok and "does not state" in message, message


def test_a_given_condition_the_witness_violates_is_rejected(written: dict[str, Path]) -> None:
    condition = {"lhs": ["name", "dE_dt"], "op": ">=", "rhs": ["num", "0"]}  # the witness has dE_dt < 0
    ok, message = verify_file(
        forged(written["energy-monotone-without-alignment"], lambda d: d["statement"]["given"].append(condition))
    )
    assert not ok and "given" in message and "not settled" in message, message


def test_a_witness_outside_the_family_is_rejected(written: dict[str, Path]) -> None:
    path = written["energy-monotone-without-alignment"]
    n = len(json.loads(path.read_text())["payload"]["configuration"]["tokens"])

    def other_n(data: dict[str, Any]) -> None:
        data["statement"]["given"].append({"lhs": ["name", "n"], "op": ">=", "rhs": ["num", str(n + 1)]})

    ok, message = verify_file(forged(path, other_n))
    assert not ok and f"given n >= {n + 1} is not settled" in message, message

    def non_symmetric(data: dict[str, Any]) -> None:
        scores = data["payload"]["configuration"]["scores"][0]
        scores[0][1], scores[1][0] = "7", "-7"

    ok, message = verify_file(forged(path, non_symmetric))
    assert not ok and "violates symmetric-scores" in message, message


def test_an_existence_statement_for_the_universal_claim_is_rejected(written: dict[str, Path]) -> None:
    """The instance of `dE_h_dt < 0` filed for the universal `dE_h_dt < 0`: it is no counterexample."""
    ok, message = verify_file(
        forged(written["shadow-obstruction"], lambda d: d["statement"].__setitem__("exists", False))
    )
    assert not ok and "does not negate" in message, message


def test_a_true_universal_claim_gets_no_witness(written: dict[str, Path]) -> None:
    """T_h_i = |P f|^2 >= 0 is true: the decider writes its sums certificate and no witness, and a witness forged for
    its statement (another claim's configuration, at token 0 and head 0, claiming rhs - lhs = -T > 0) is rejected."""
    claim = parse_claims(CLAIMS, "t.toml")[3]
    path = written["energy-monotone-without-alignment"]
    assert [p.name.split(".")[1] for p in path.parent.glob("tangential-power-nonnegative.*.json")] == ["sums"]

    def pasted(data: dict[str, Any]) -> None:
        data["statement"] = statement_data(claim) | {"hypotheses": data["payload"]["hypotheses"]}
        data["claim_id"] = data["statement"]["claim"]
        data["payload"] |= {"at": {"h": 0, "i": 0}, "relation": ">", "enclosure": ["1/1000000", "1000000"]}

    ok, message = verify_file(forged(path, pasted))
    assert not ok and "rhs - lhs" in message, message


def test_another_claims_statement_is_rejected(written: dict[str, Path]) -> None:
    other = json.loads(written["shadow-obstruction"].read_text())["statement"]
    ok, message = verify_file(
        forged(written["energy-monotone-without-alignment"], lambda d: d.__setitem__("statement", other))
    )
    assert not ok and "the statement is of claim 'shadow-obstruction'" in message, message


@pytest.mark.parametrize(
    "term",
    [
        ["name", "x_i"],  # a vector side
        ["sum_i", ["sum_i", ["name", "a_h_i"]]],  # nested sums over one index
        ["/", ["name", "E"], ["name", "E"]],  # a division by a quantity that may vanish
        ["name", "a_h_k"],  # an unknown name
        ["name", "s_h_ij"],  # j free
        ["pow", ["name", "E"], 9],
        ["eval", ["num", "1"]],
    ],
)
def test_a_malformed_term_is_rejected(written: dict[str, Path], term: list[Any]) -> None:
    change = lambda data: data["statement"]["relation"].__setitem__("lhs", term)  # noqa: E731
    ok, message = verify_file(forged(written["energy-monotone-without-alignment"], change))
    assert not ok and "not a model term" in message, message


def test_the_energy_is_that_of_the_stated_antiderivative_the_kernel_verifies(written: dict[str, Path]) -> None:
    """E >= 0 with phi = s**2 is refuted with the proposed Phi = s**3/3, which the statement carries and check-cert
    prints; a Phi that is no antiderivative (s**3/3 + s, whose energy is larger), none, or one without phi is
    rejected: the energy is then unavailable (issue 37: the kernel accepts Phi only by its exact algebra)."""
    path = written["energy-positive-square"]
    s3 = ["mul", ["rat", "1/3"], ["pow", ["sym", "s"], 3]]
    assert json.loads(path.read_text())["statement"]["energy"] == s3
    ok, message = verify_file(path)
    assert ok and "Phi(s) = s**3/3" in message and "E >= 0 fails" in message, message
    for Phi in (["add", s3, ["sym", "s"]], None):
        ok, message = verify_file(forged(path, lambda d, Phi=Phi: d["statement"].__setitem__("energy", Phi)))
        assert not ok and "no verified antiderivative of s**2: the energy is unavailable" in message, message
    ok, message = verify_file(forged(path, lambda d: d["statement"].__setitem__("interaction", None)))
    assert not ok and "with an interaction phi only" in message, message


def test_an_exact_witness_of_a_moved_equality_is_rejected(written: dict[str, Path]) -> None:
    change = lambda data: data["statement"]["relation"].__setitem__("rhs", ["num", "2"])  # noqa: E731
    ok, message = verify_file(forged(written["shadow-equals-one"], change))
    assert not ok and "not exactly 0" in message, message


ENTROPIES = ["sum_i", ["sum_h", ["name", "entropy_h_i"]]]
#: Forged statement fields (claim, change, what the rejection names): the token and head a relation is stated at,
#: the mask's rows, a name whose hypothesis is not assumed, a quantity the stated interaction does not define.
FIELD_FORGERIES = {
    "head of no relation head": ("energy-monotone-without-alignment", ("fixed", {"h": 0}), "statement fixed"),
    "negative token": ("shadow-equals-one", ("fixed", {"i": -1}), "statement fixed"),
    "another token": ("shadow-equals-one", ("fixed", {"i": 5}), "the statement is at {'i': 5}"),
    "a word for rows": ("energy-monotone-without-alignment", ("mask", "given"), "statement mask"),
    "rows of no mask": ("energy-monotone-without-alignment", ("mask", [[1, 1], [0, 0]]), "statement mask"),
    "another mask": ("energy-monotone-without-alignment", ("mask", [[1, 0], [1, 1]]), "mask"),
    "delta unstated": ("energy-monotone-without-alignment", ("lhs", ["name", "delta"]), "orthogonal-heads(delta=q)"),
    "entropy under phi": ("energy-positive-square", ("lhs", ENTROPIES), "exp(beta s) only"),
}


@pytest.mark.parametrize("name", sorted(FIELD_FORGERIES))
def test_a_forged_statement_field_is_rejected(written: dict[str, Path], name: str) -> None:
    claim_id, (key, value), reason = FIELD_FORGERIES[name]

    def change(data: dict[str, Any]) -> None:
        if key == "lhs":
            data["statement"]["relation"]["lhs"] = value
        else:
            data["statement"][key] = value

    ok, message = verify_file(forged(written[claim_id], change))
    assert not ok and reason in message, message


def test_checking_loads_no_sympy_or_mpmath_of_its_own(written: dict[str, Path]) -> None:
    run = subprocess.run(
        [sys.executable, "-c", TRACE, *map(str, written.values())],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    results, chains = run.stdout.strip().splitlines()[-2:]
    assert results == str([True] * len(written)), run.stdout
    assert chains == "[]", chains  # no import of SymPy or mpmath on the checking path, by any project module


def _statement(key: str, value: Any) -> Any:
    return lambda data: data["statement"].__setitem__(key, value)


def test_the_regimes_certificates_print_their_concrete_statement(written: dict[str, Path]) -> None:
    _, moving = verify_file(written["unequal-clusters-at-rest"])
    assert "are not an equilibrium" in moving and '["1", "1", "-1/2", "-1/2"]' in moving, moving
    _, spectrum = verify_file(written["cluster-unstable"])
    assert "are an equilibrium" in spectrum and "0 with Re > 0" in spectrum and '["1", "1", "1"]' in spectrum, spectrum


def test_a_moving_witness_of_a_configuration_at_rest_or_of_none_is_rejected(written: dict[str, Path]) -> None:
    path = written["unequal-clusters-at-rest"]
    cluster = [[["1"] * 4 for _ in range(4)]]  # the single cluster rests
    ok, message = verify_file(forged(path, _statement("grams", cluster)))
    assert not ok and "exactly 0" in message, message
    ok, message = verify_file(forged(path, _statement("grams", [[["1", "2"], ["2", "1"]]])))  # and n = 4
    assert not ok and "grams" in message, message
    ok, message = verify_file(forged(path, _statement("n", 2)))  # the Gram matrices are 4 x 4
    assert not ok, message
    not_semidefinite = [[["1", "-1", "-1", "-1"], ["-1", "1", "-1", "-1"], ["-1", "-1", "1", "-1"], ["-1"] * 3 + ["1"]]]
    ok, message = verify_file(forged(path, _statement("grams", not_semidefinite)))
    assert not ok and "no unit tokens" in message, message


def test_a_moving_witness_stating_a_spectrum_is_rejected(written: dict[str, Path]) -> None:
    counts = {"zeros": 1, "negative": 0, "positive": 5}
    ok, message = verify_file(forged(written["unequal-clusters-at-rest"], _statement("spectrum", counts)))
    assert not ok and "equilibrium certificate its spectrum" in message, message


def test_a_spectral_statement_of_other_data_or_counts_is_rejected(written: dict[str, Path]) -> None:
    path = written["cluster-unstable"]
    for key, value in (("beta", "3"), ("attention", "softmax"), ("values", [["2"]])):
        ok, message = verify_file(forged(path, _statement(key, value)))
        assert not ok and "not the statement's" in message, (key, message)
    counts = json.loads(path.read_text())["statement"]["spectrum"]
    ok, message = verify_file(forged(path, _statement("spectrum", {**counts, "positive": 1, "negative": 3})))
    assert not ok and "re-check finds" in message, message
    ok, message = verify_file(forged(path, _statement("claim", "unequal-clusters-at-rest")))  # relabelled
    assert not ok and "statement is of claim" in message, message


def test_a_malformed_stated_spectrum_is_rejected_in_one_line(written: dict[str, Path]) -> None:
    """The stated counts are held equal to the re-check's, whatever their shape: a text, a count as a boolean or a
    float, an extra or a missing count, a long list never re-check, and the reason is one short line."""
    path = written["cluster-unstable"]
    counts = json.loads(path.read_text())["statement"]["spectrum"]
    small = next(key for key, value in counts.items() if value in (0, 1))  # Python's == holds it equal to a bool
    for spectrum in (
        "index 0",
        {**counts, small: bool(counts[small])},
        {**counts, small: float(counts[small])},
        {**counts, small: str(counts[small])},
        {**counts, "extra": 0},
        {key: value for key, value in counts.items() if key != "positive"},
        [0] * 10_000,
    ):
        ok, message = verify_file(forged(path, _statement("spectrum", spectrum)))
        assert not ok and "re-check finds" in message and "\n" not in message and len(message) < 600, message


def test_check_cert_claims_refuses_a_statement_the_file_does_not_elaborate(written: dict[str, Path]) -> None:
    """The link to the claim's regime and domain is the elaboration's: an instance outside the ranges elaborates to
    nothing, and a true statement of another configuration differs from the file's."""
    path = written["cluster-unstable"]
    data = json.loads(path.read_text())
    assert restated(data, data["claim"]) is None
    for key, value in (("n", 4), ("d", 2), ("beta", "3"), ("attention", "softmax"), ("strengths", ["1", "1"])):
        instance = {**data["payload"]["instance"], key: value}
        other = {**data, "payload": {**data["payload"], "instance": instance}}
        assert elaborate(data["claim_id"], "equilibrium", other["payload"], data["claim"]) is None, key
        assert restated(other, data["claim"]) is not None, key
    moving = json.loads(written["unequal-clusters-at-rest"].read_text())
    moving["statement"]["grams"] = [[["1", "1", "1", "1"], ["1", "1", "1", "1"], ["1"] * 4, ["1"] * 4]]
    assert restated(moving, moving["claim"]) is not None
