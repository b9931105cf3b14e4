"""Shared test set-up: which back ends this run exercises.

SWI-Prolog is a real dependency: when it is missing the prolog tests fail
loudly, unless PYSOLVE_NO_PROLOG is set on purpose (the fallback run).
"""

from __future__ import annotations

import os

import pytest

from pysolve import backends

PROLOG_HIDDEN = bool(os.environ.get("PYSOLVE_NO_PROLOG"))


def pytest_report_header(config: pytest.Config) -> list[str]:
    return [f"pysolve back end {info.name}: {'available, ' + info.version if info.available else 'UNAVAILABLE: ' + info.reason}"
            for info in backends.all_info()]


@pytest.fixture(scope="session")
def live_backends() -> list[str]:
    """The back ends this run must exercise: all three, or kanren and python when Prolog is hidden."""
    names = [name for name in backends.NAMES if not (PROLOG_HIDDEN and name == "prolog")]
    for name in names:
        backends.require(name)  # a missing engine is a failure, not a skip
    return names
