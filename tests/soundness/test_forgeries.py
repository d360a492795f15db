"""The standing forgery suite: every generated forgery of a genuine certificate is rejected by check-cert.

Each forgery is a genuine certificate (written by `headflow certify`) with one edit and a valid
recomputed checksum, so only the re-derived obligation and the re-check can catch it. The genuine
files themselves must re-check (a checker that rejects everything would pass the rest).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.checking import verify_file
from tests.forging import write
from tests.soundness import forgeries

SOURCES = {
    "smt": "T19.threshold",
    "point": "T22.superadditivity",
    "invariance": "C8.invariance",
    "convexity": "T22.superadditivity.reading-b.listed-n",
    "configuration": "T17.shadow-obstruction",
    "alignment": "T11.hypotheses.no-alignment",
}
SMUGGLED_OUTPUT = Path("/tmp/headflow-forged.pth")


@pytest.fixture(scope="module")
def genuine(certified: dict[str, list[Path]]) -> dict[str, dict[str, Any]]:
    return {group: json.loads(certified[claim][0].read_text()) for group, claim in SOURCES.items()}


def test_the_genuine_certificates_recheck(certified: dict[str, list[Path]]) -> None:
    for claim in SOURCES.values():
        ok, reason = verify_file(certified[claim][0])
        assert ok, reason
        assert reason.startswith(f"ok: {claim}: ")


def test_every_forgery_is_rejected(genuine: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    SMUGGLED_OUTPUT.unlink(missing_ok=True)
    forged = forgeries.forgeries(genuine)
    assert len(forged) >= 192  # the generators, not a hand-picked list (docs/certificates.md quotes this bound)
    accepted = []
    for k, (group, name, data) in enumerate(forged):
        assert data != genuine[group], name
        path = tmp_path / f"forgery-{k}.json"
        write(data, path)
        ok, reason = verify_file(path)
        if ok:
            accepted.append(f"{group}: {name}: {reason}")
        assert "\n" not in reason
    assert not accepted, accepted
    assert not SMUGGLED_OUTPUT.exists()  # no text from a file reached a solver's options


def test_every_unknown_field_is_rejected_by_name(genuine: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    """A field the checker does not check, at any level of any certificate (its checksum recomputed), is rejected
    and the rejection names it: nothing in a certificate is unchecked free text."""
    cases = forgeries.unchecked(genuine)
    assert len(cases) >= 6 * 3
    unnamed = []
    for k, (group, name, data) in enumerate(cases):
        path = write(data, tmp_path / f"unchecked-{k}.json")
        ok, reason = verify_file(path)
        if ok or forgeries.UNCHECKED not in reason:
            unnamed.append(f"{group}: {name}: {reason}")
    assert not unnamed, unnamed
