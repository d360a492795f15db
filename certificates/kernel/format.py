"""The certificate file format, shared by the writer and the checker: fields, canonical JSON, checksum, sizes.

A certificate is one JSON object `{"schema", "claim_id", "claim", "statement", "kind", "payload", "tools",
"sha256"}`. `statement` is the core statement the certificate proves (`headflow.certificates.kernel.verify`): data the
kernel checks the payload against and prints, never re-derived by the kernel from `claim`. `claim` is null for
the registry's claims and holds a claims-file claim's own fields (as written in the user's TOML, without its
free-text `title` and `statement`) otherwise: the provenance that `check-cert --claims` elaborates again.
`headflow check-cert` rejects any field it does not know (at every level) and prints only sentences it generates
from what it checked. `tools` records the versions of the tools the writer used (names and version strings of a
fixed form; never printed, never evidence). `sha256` is a checksum of the canonical JSON of the other fields
against accidental damage, not a seal: anyone can recompute it. What makes a certificate trustworthy is that
`headflow check-cert` checks the proof against the statement from the file alone, and prints the statement.
"""

import hashlib
import json
import re
from typing import Any

SCHEMA = "headflow-certificate/4"
KINDS = ("smt", "witness", "interval-cover", "convexity", "equilibrium", "gram", "trajectory", "equiangular", "sums")
KINDS += ("circulant", "spaced", "start", "arc", "clusters")
FIELDS = ("schema", "claim_id", "claim", "statement", "kind", "payload", "tools")
#: The tools a certificate records (their distributions are the writer's, `certificates.store`), and the form of a
#: recorded version.
TOOLS = ("python", "z3", "cvc5", "flint", "sympy", "headflow")
VERSION = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.+_-]{0,39}$")

#: Bounds on every size in a certificate, so that re-checking an accepted-size file is fast
#: (see benchmarks/check_cert.py for the measured worst cases).
MAX_FILE_BYTES = 20_000_000
MAX_TOKENS, MAX_DIMENSION, MAX_HEADS = 12, 12, 8
MAX_CONDITIONS = 80
MAX_TERM_NODES = 4_000
MAX_COVER_LEAVES = 200_000
#: Leaves times expression nodes of one cover: the number of ball operations a re-check costs.
MAX_COVER_WORK = 4_000_000
MIN_PRECISION, MAX_PRECISION = 16, 4096
MAX_COVER_PRECISION = 256


def content_hash(certificate: dict[str, Any]) -> str:
    """sha256 (hex) of the canonical JSON (sorted keys, no spaces, ASCII only: the one serialization that is hashed)
    of the certificate's fields other than the checksum."""
    content = {key: certificate[key] for key in FIELDS if key in certificate}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


#: Nodes of a derivative tree the checker computes from an expression (`headflow.certificates.kernel.derivatives`),
#: and lambda_c roots (at distinct exact ends) one cover's re-check may certify.
MAX_DERIVED_NODES, MAX_COVER_ROOTS = 40_000, 2_000
