"""Claims-file text shared by tests that need one certificate of each common kind, `claims_of`, which picks
claims out of a claims file's text, `example` (one example file's claim) and `one_claim` (text of one claim, parsed),
and `certificates_of`, the certificates a check of such text writes."""

import re
from pathlib import Path
from typing import Any

#: The repository's example claims files.
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

#: A constant (its certificate: a point witness) and an inequality for every H (its certificate: smt).
POINT_AND_SMT = """
[[claim]]
id = "golden.inverse"
kind = "constant"
expr = "1 / golden"
value = "0.6180339887"
digits = 10

[[claim]]
id = "c-star.at-most-one"
kind = "inequality"
lhs = "c_star(H)"
op = "<="
rhs = "1"
domain = { H = { min = 1 } }
"""


def claims_of(text: str, *ids: str, keep: bool = True) -> str:
    """The `[[claim]]` tables of `text` whose id is (keep) or is not (not keep) one of `ids`."""
    tables = ["[[claim]]" + part for part in text.split("[[claim]]")[1:]]
    named = [(t, re.search(r'^id = "([^"]+)"', t, re.MULTILINE)) for t in tables]  # none: "[[claim]]" in a comment
    return "".join(t for t, found in named if found is not None and (found[1] in ids) == keep)


def example(name: str, claim_id: str) -> str:
    """The text of one claim of the example file `examples/{name}.toml`."""
    return claims_of((EXAMPLES / f"{name}.toml").read_text(), claim_id)


def one_claim(text: str) -> Any:
    """The one claim of a claims file's text, parsed."""
    from headflow.certificates.claims.loader import parse_claims

    (claim,) = parse_claims(text)
    return claim


def certificates_of(text: str, folder: Path) -> dict[str, Path]:
    """The certificates `headflow check` writes for the claims of `text` (run in `folder`), by claim id."""
    import headflow.checks as checks

    claims = folder / "claims.toml"
    claims.write_text(text)
    checks.check(claims, certificates=folder / "out", progress=False)
    return {path.name.split(".witness.")[0]: path for path in (folder / "out").glob("*.json")}


def dynamics_claim(claim_id: str, quantity: str, prop: str, extra: str, setting: str) -> str:
    """A claims-file dynamics claim: its id, quantity and property, the property's `extra` lines (a bound, a limit),
    then the `setting` lines (attention, heads, tokens, sizes)."""
    head = f'id = "{claim_id}"\nkind = "dynamics"\nquantity = "{quantity}"\nproperty = "{prop}"'
    return f"\n[[claim]]\n{head}\n{extra}\n{setting}\n"
