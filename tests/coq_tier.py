"""The tests that run coqc (Coq with its Interval and Coquelicot libraries): skipped, with the reason printed, where
coqc is missing, and marked `coq`. The default suite leaves them out for their time (every file coqc checks loads
Interval and Coquelicot first, about a second of CPU, and most are checked twice: the kernel's statement alone, then
with the proof); `.ci/run` runs them after it (`pytest -m "coq and not slow"`), and so should a change to the Coq
statements, proofs or guard."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pytest
from headflow.certificates.kernel.coq import run

T = TypeVar("T", bound=Callable[..., object])

MISSING = "coqc missing (apt-get install coq libcoq-interval libcoq-coquelicot)"


def needs_coqc(test: T) -> T:
    """A test that runs coqc: marked `coq`, skipped where coqc is missing."""
    return pytest.mark.coq(pytest.mark.skipif(run.coqc() is None, reason=MISSING)(test))


def module_needs_coqc(what: str) -> pytest.MarkDecorator:
    """The `pytestmark` of a module whose every test runs coqc: the module is skipped (the reason names `what`) where
    coqc is missing."""
    if run.coqc() is None:
        pytest.skip(f"{MISSING}: {what} skipped", allow_module_level=True)
    return pytest.mark.coq
