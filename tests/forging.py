"""Forged certificates: a genuine certificate edited, its checksum recomputed, so only the re-check can catch it.

A certificate's `sha256` is a checksum against accidental damage, not a seal (docs/certificates.md):
anyone can recompute it, and every tampering test does so here, with `headflow.certificates.store.content_hash`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from headflow.certificates.store import content_hash

Edit = Callable[[dict[str, Any]], None]


def forged(original: dict[str, Any], edit: Edit, rehash: bool = True) -> dict[str, Any]:
    """A deep copy of a certificate object with `edit` applied and (unless `rehash` is false) a valid checksum."""
    data = copy.deepcopy(original)
    edit(data)
    if rehash:
        data["sha256"] = content_hash(data)
    return data


def write(data: dict[str, Any], path: Path) -> Path:
    """Write a certificate object to `path` as a JSON file and return the path."""
    path.write_text(json.dumps(data, indent=1))
    return path


def forged_file(source: Path, folder: Path, edit: Edit, rehash: bool = True, name: str = "") -> Path:
    """The certificate file `source` forged (see `forged`), written in `folder` as `forged-<name or its name>`."""
    data = forged(json.loads(source.read_text()), edit, rehash)
    return write(data, folder / f"forged-{name or source.name}")


def collapse_first_split(tree: dict[str, Any]) -> dict[str, Any]:
    """A cover tree with its first split (below monotone faces and boundary derivatives) replaced by its low
    half: a forgery that covers less than the domain."""
    if "split" in tree:
        return tree["low"]
    for key in ("face", "derivative"):
        if key in tree:
            return tree | {key: collapse_first_split(tree[key])}
    raise ValueError("the tree has no split")


def _verdict_turned(data: dict[str, Any]) -> None:
    data["statement"]["holds"] = not data["statement"]["holds"]
    data["payload"]["holds"] = not data["payload"]["holds"]


#: The forgeries of a certificate whose statement and payload say whether the claim `holds` (forms `spaced`,
#: `clusters`): the verdict turned in both, and in the payload alone.
VERDICT_EDITS: dict[str, Edit] = {
    "verdict turned": _verdict_turned,
    "payload's verdict": lambda c: c["payload"].update(holds=not c["payload"]["holds"]),
}
