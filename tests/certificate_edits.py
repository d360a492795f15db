"""Edited copies of certificate files, for the tampering tests."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from certificates.store import content_hash


def mutated_copy(path: Path, folder: Path, mutate: Callable[[dict[str, Any]], None], rehash: bool) -> Path:
    """A copy of the certificate at `path` in `folder` with `mutate` applied (and its hash redone if asked)."""
    data = json.loads(path.read_text())
    mutate(data)
    if rehash:
        data["sha256"] = content_hash(data)
    target = folder / f"mutated-{path.name}"
    target.write_text(json.dumps(data))
    return target
