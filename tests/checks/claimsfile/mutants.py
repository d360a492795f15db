"""Mutants in the claims-file language (`headflow check`): file forms of paper claims, mutated."""

from __future__ import annotations

from headflow.certificates.claims.loader import parse_claims
from headflow.checks.claimsfile.deciders import DECIDERS
from headflow.checks.registry import Context
from headflow.checks.verdicts import Outcome

from tests.checks.claimsfile.claim_texts import gap_claim
from tests.soundness.mutation import Decide, Mutant


def claims_file(text: str) -> Decide:
    """The one claim of a claims-file text, decided by the decider of its kind (what `headflow check` runs)."""

    def decide(ctx: Context) -> Outcome:
        (claim,) = parse_claims(text, "mutant.toml")
        return DECIDERS[claim.kind][1](claim, ctx)

    return decide


_THRESHOLD_FILE = """
[[claim]]
id = "threshold"
kind = "inequality"
lhs = "exp(2 * alpha * beta_star(H, n, alpha))"
op = "{op}"
rhs = "(n - 1) / (H - 1)"
[claim.domain]
H = {{ min = 2, max = 3, integer = true }}
n = {{ min = 3, max = 5, integer = true }}
alpha = "[1/2, 2]"
"""
_ENTROPY_FILE = """
[[claim]]
id = "entropy"
kind = "dynamics"
quantity = "{quantity}"
property = "{property}"
{extra}
attention = "softmax"
heads = "{heads}"
{lambdas}
tokens = "{tokens}"
n = 4
d = 4
H = 1
beta = 2.0
time = 1.0
"""

_C_STAR_INVERSE_FILE = """
[[claim]]
id = "c-star-inverse"
kind = "identity"
lhs = "1/c_star(H) - c_star(H)"
rhs = "{rhs}"
symbols = {{ H = {{ min = 1 }} }}
"""
_BETA_STAR_FILE = """
[[claim]]
id = "beta-star"
kind = "identity"
lhs = "beta_star(H, n, alpha)"
rhs = "log(c_star(H){power}*(n - 1)/(H - 1))/(2*alpha)"
symbols = {{ H = "integer>=2", n = "integer>=2", alpha = "positive" }}
"""


#: phi's tangent condition beyond lambda_max: (1 - u) e^u + n - 1 <= 0 for u = beta l >= 1 + W((n-1)/e), tight at
#: the bound (the boundary step of the interval engine proves it).
_TANGENT_FILE = """
[[claim]]
id = "tangent"
kind = "inequality"
lhs = "(1 - beta*l)*exp(beta*l) + n - 1"
op = "{op}"
rhs = "{rhs}"
[claim.domain]
n = {{ min = 2, max = 6, integer = true }}
beta = "[1/2, 2]"
l = {{ min = "lambda_max(n, beta)", max = 8 }}
"""


def _pre_ln_shape(like: str) -> str:
    """The cluster gap of equiangular tokens under Pre-LN (softmax, one head) decays like `like`."""
    return gap_claim("power-law", "decays-like", like, "softmax", "[1.0]", "0.2", geometry='"pre-ln"')


def mutants() -> list[Mutant]:
    """The claims-file deciders (`headflow check`) on file forms of T19, T22, T27 and the golden ratio, mutated."""
    scalar = {"heads": "scalar", "lambdas": "lambdas = [1.0]", "tokens": "equiangular", "extra": "rho = 0.2"}
    symmetric = {"heads": "random-symmetric", "lambdas": "", "tokens": "random-sphere", "extra": ""}
    return [
        Mutant(
            "file-threshold-reversed",
            "T19.threshold",
            "file form: at beta*, e^(2 alpha beta) > (n-1)/(H-1), i.e. Condition 8 fails at beta* (relation reversed)",
            False,
            claims_file(_THRESHOLD_FILE.format(op=">")),
        ),
        Mutant(
            "file-threshold",
            "T19.threshold",
            "file form: at beta*, e^(2 alpha beta) < (n-1)/(H-1) (true: c* < 1); the cover must certify it",
            True,
            claims_file(_THRESHOLD_FILE.format(op="<")),
            accept=True,
        ),
        Mutant(
            "file-entropy-rate-any-heads",
            "T27.entropy-monotone",
            "file form: dH/dt >= 0 for any symmetric head and any tokens (false: reading-c is refuted)",
            False,
            claims_file(_ENTROPY_FILE.format(quantity="entropy_rate", property="non-negative", **symmetric)),
        ),
        Mutant(
            "file-entropy-limit-log-n-1",
            "T27.entropy-limit",
            "file form: the entropy of a scalar head on equiangular tokens tends to log(n - 1)",
            False,
            claims_file(
                _ENTROPY_FILE.format(quantity="attention_entropy", property="tends-to", **scalar)
                .replace("rho = 0.2", 'rho = 0.2\nlimit = "log(n - 1)"')
                .replace("time = 1.0", "time = 30.0")
            ),
        ),
        Mutant(
            "file-c-star-inverse",
            "T19.c-star",
            "file form: 1/c*(H) - c*(H) = H - 1 for H >= 1 (true: c*^2 + (H-1)c* = 1); proved by algebraic reduction",
            True,
            claims_file(_C_STAR_INVERSE_FILE.format(rhs="H - 1")),
            accept=True,
        ),
        Mutant(
            "file-c-star-inverse-shifted",
            "T19.c-star",
            "file form: 1/c*(H) - c*(H) = H (the constant term dropped)",
            False,
            claims_file(_C_STAR_INVERSE_FILE.format(rhs="H")),
        ),
        Mutant(
            "file-beta-star-log-form",
            "T19.threshold",
            "file form: beta* = ln(c*(n-1)/(H-1))/(2 alpha) (true: c*^2/(1-c*^2) = c*/(H-1)); proved through logs",
            True,
            claims_file(_BETA_STAR_FILE.format(power="")),
            accept=True,
        ),
        Mutant(
            "file-beta-star-log-form-squared",
            "T19.threshold",
            "file form: beta* = ln(c*^2 (n-1)/(H-1))/(2 alpha) (c* squared once too often)",
            False,
            claims_file(_BETA_STAR_FILE.format(power="**2")),
        ),
        Mutant(
            "file-late-rate-3-lambda",
            "T22.late-rate",
            "file form: the cluster gap decays at rate 3 Lambda (softmax, equiangular; the exact rate is 2 Lambda)",
            False,
            claims_file(gap_claim("late-rate", "decays-at-rate", "3*(1 + 0.5)", "softmax", "[1.0, 0.5]", "0.2")),
        ),
        Mutant(
            "file-late-rate",
            "T22.late-rate",
            "file form: the cluster gap decays at rate 2 Lambda (softmax, equiangular); the exact route must prove it",
            True,
            claims_file(gap_claim("late-rate", "decays-at-rate", "2*(1 + 0.5)", "softmax", "[1.0, 0.5]", "0.2")),
            accept=True,
        ),
        Mutant(
            "file-late-rate-usa-2-lambda",
            "T22.late-rate",
            "file form: with usa attention the cluster gap decays at softmax's rate 2 Lambda "
            "(the exact usa rate is 2 sum lambda_h e^(beta lambda_h))",
            False,
            claims_file(gap_claim("late-rate", "decays-at-rate", "2*(1 + 0.5)", "usa", "[1.0, 0.5]", "0.2")),
        ),
        Mutant(
            "file-pre-ln-power-law",
            "T22.late-rate",
            "file form: under Pre-LN the cluster gap decays like t^(-2) (Karagodin-Ge-Polyanskiy-Rigollet); the exact "
            "route must prove it",
            True,
            claims_file(_pre_ln_shape("t**(-2)")),
            accept=True,
        ),
        Mutant(
            "file-pre-ln-power-law-1-over-t",
            "T22.late-rate",
            "file form: under Pre-LN the cluster gap decays like 1/t (the power is 2)",
            False,
            claims_file(_pre_ln_shape("1/t")),
        ),
        Mutant(
            "file-pre-ln-power-law-exponential",
            "T22.late-rate",
            "file form: under Pre-LN the cluster gap decays like e^(-2 t), Post-LN's shape (it is a power of t)",
            False,
            claims_file(_pre_ln_shape("exp(-2*t)")),
        ),
        Mutant(
            "file-tangent",
            "T22.superadditivity",
            "file form: beyond lambda_max, phi' <= 0: (1 - beta l) e^(beta l) + n - 1 <= 0 (true, 0 at the bound)",
            True,
            claims_file(_TANGENT_FILE.format(op="<=", rhs="0")),
            accept=True,
        ),
        Mutant(
            "file-tangent-shifted",
            "T22.superadditivity",
            "file form: beyond lambda_max, (1 - beta l) e^(beta l) + n - 1 <= -1/1000 (false at the bound)",
            False,
            claims_file(_TANGENT_FILE.format(op="<=", rhs="-1/1000")),
        ),
        Mutant(
            "file-tangent-reversed",
            "T22.superadditivity",
            "file form: beyond lambda_max, (1 - beta l) e^(beta l) + n - 1 >= 0 (relation reversed)",
            False,
            claims_file(_TANGENT_FILE.format(op=">=", rhs="0")),
        ),
        Mutant(
            "file-golden-digits",
            "T19.golden",
            "file form: 1/golden = 0.6180339888 to 10 digits (last digit off by one)",
            False,
            claims_file(
                '[[claim]]\nid = "g"\nkind = "constant"\nexpr = "1/golden"\nvalue = "0.6180339888"\ndigits = 10\n'
            ),
        ),
    ]
