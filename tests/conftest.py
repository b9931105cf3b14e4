"""Shared test set-up: back ends are chosen through pysolve's own pytest plugin, and only there.

The plugin (pysolve.pytest_plugin, loaded through its `pytest11` entry
point) reads `--pysolve-backends`; by default it exercises all three back
ends, or kanren and python when PYSOLVE_NO_PROLOG hides Prolog on purpose.
Tests take the `pysolve_backend` fixture (one back end per test instance)
or `pysolve_backends` (the whole list). SWI-Prolog is a real dependency:
when it is missing, not hidden, the prolog tests fail loudly.
"""

from __future__ import annotations

import gc

import pytest

from pysolve.errors import BackendUnavailable


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """With Prolog hidden on purpose (PYSOLVE_NO_PROLOG), a test that needs it is skipped, saying so.

    Only the typed error of a back end hidden on purpose skips; a missing Prolog stays a failure.
    """
    try:
        return (yield)
    except BackendUnavailable as error:
        if error.hidden:
            pytest.skip(f"needs the {error.backend} back end, hidden on purpose: {error}")
        raise


def pytest_collection_finish(session: pytest.Session) -> None:
    """The objects collection made (every test module, hypothesis's strategies) moved out of the garbage
    collector's reach: a full collection over the whole suite's heap takes tenths of a second of the thread that
    triggers it, which a test holding a 0.5 s search to its CPU budget would count as the search's."""
    gc.collect()
    gc.freeze()
