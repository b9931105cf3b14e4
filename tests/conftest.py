"""Shared test set-up: back ends are chosen through pysolve's own pytest plugin, and only there.

The plugin (pysolve.pytest_plugin, loaded through its `pytest11` entry
point) reads `--pysolve-backends`; by default it exercises all three back
ends, or kanren and python when PYSOLVE_NO_PROLOG hides Prolog on purpose.
Tests take the `pysolve_backend` fixture (one back end per test instance)
or `pysolve_backends` (the whole list). SWI-Prolog is a real dependency:
when it is missing, not hidden, the prolog tests fail loudly.

The suite has layers (markers in pyproject.toml): `make test-fast` leaves out
the `slow`, `browser` and `subprocess` tests and runs with `--no-processes`,
under which a test that starts a process (the CLI, SWI-Prolog, a pool's
worker) fails, naming the marker it lacks, so the fast layer stays fast.

`make test` (what CI runs) draws hypothesis's examples under the `ci`
profile: derived from each test's name, the same on every run, so a red run
is one that any run reproduces. Runs of pytest by hand and `make test-fast`
draw fresh examples each time and keep the ones that failed (.hypothesis/).
"""

from __future__ import annotations

import gc
import multiprocessing.process
import os
import shutil
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from pysolve.errors import BackendUnavailable

settings.register_profile("ci", derandomize=True, database=None)


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


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C raises KeyboardInterrupt here and in the programs tests start: pytest-xdist's workers ignore
    SIGINT, which a Python started from one inherits, and tests of Ctrl-C send it on purpose."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if config.getoption("--no-processes"):
        from pysolve import bridge

        bridge.status()  # SWI-Prolog started before any test: finding it runs `swipl` once, which is no test's


def pytest_collection_finish(session: pytest.Session) -> None:
    """The objects collection made (every test module, hypothesis's strategies) moved out of the garbage
    collector's reach: a full collection over the whole suite's heap takes tenths of a second of the thread that
    triggers it, which a test holding a 0.5 s search to its CPU budget would count as the search's."""
    gc.collect()
    gc.freeze()


ROOT = Path(__file__).resolve().parent.parent
UNTRACKED = pytest.StashKey[set[str] | None]()  # the checkout's untracked files before the run


def untracked() -> set[str] | None:
    """The files in the checkout that git neither tracks nor ignores (None outside a git checkout)."""
    listed = subprocess.run(["git", "ls-files", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True,
                            text=True, check=False)
    return set(listed.stdout.splitlines()) if listed.returncode == 0 else None


def pytest_sessionstart(session: pytest.Session) -> None:
    """The checkout's untracked files noted before the tests (by the run's controller, not an xdist worker)."""
    if not hasattr(session.config, "workerinput"):
        session.config.stash[UNTRACKED] = untracked()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A run whose tests left a file in the checkout fails, naming it: a test writes under tmp_path (as
    pysolve writes only the user's outputs), never into the folder it runs from."""
    before = session.config.stash.get(UNTRACKED, None)
    after = untracked() if before is not None else None
    if before is not None and after is not None and after - before:
        left = ", ".join(sorted(after - before))
        session.config.get_terminal_writer().line(f"tests left files in the checkout: {left}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--no-processes", action="store_true",
                     help="fail a test that starts a process unless it is marked subprocess (make test-fast)")


class StartsAProcess(Exception):
    """A test of the fast layer started a process."""


def refused(what: str) -> Callable[..., Any]:
    """A stand-in for a function that starts `what`, failing with StartsAProcess instead."""
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise StartsAProcess(f"this test starts {what}: mark it @pytest.mark.subprocess (or slow) to keep it out "
                             f"of the fast layer")
    return refuse


@pytest.fixture(autouse=True)
def _no_processes(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under --no-processes, starting a process from a test not marked subprocess fails that test."""
    if not request.config.getoption("--no-processes") or request.node.get_closest_marker("subprocess"):
        return
    monkeypatch.setattr(subprocess.Popen, "__init__", refused("a program"))
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start",
                        refused("a worker process"))
    monkeypatch.setattr(os, "fork", refused("a forked copy of pytest"))


CHROMIUM_VARIABLE = "PYSOLVE_CHROMIUM"  # the Chromium the browser tests drive, when it is not on the PATH
CHROMIUM_NAMES = ("chromium", "chromium-browser")  # Debian's name, then Ubuntu's


@pytest.fixture
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--workers auto` sees two cores, as on the machine CI runs on, whatever this one has."""
    from pysolve import executors

    monkeypatch.setattr(executors.os, "sched_getaffinity", lambda pid: {0, 1})


def find_chromium() -> Path | None:
    """The Chromium the browser tests drive: $PYSOLVE_CHROMIUM when set, else Debian's `chromium` on the PATH.

    Playwright from PyPI comes without a browser of its own (`playwright install` is never run), so every test
    that launches one passes this as its `executable_path`; None when there is none.
    """
    if os.environ.get(CHROMIUM_VARIABLE):
        return Path(os.environ[CHROMIUM_VARIABLE])
    found = next(filter(None, map(shutil.which, CHROMIUM_NAMES)), None)
    return Path(found) if found else None


@pytest.fixture(scope="session")
def chromium() -> Path:
    """The Chromium to launch (find_chromium); without one the test is skipped, saying how to get one, and a
    PYSOLVE_CHROMIUM that names no program fails it."""
    found = find_chromium()
    if found is None:
        pytest.skip(f"no browser: no {' or '.join(CHROMIUM_NAMES)} on the PATH (`make setup` installs Debian's "
                    f"chromium when run as root; else apt install chromium, or set {CHROMIUM_VARIABLE})")
    if not os.access(found, os.X_OK):
        pytest.fail(f"{CHROMIUM_VARIABLE}={found} is no program to run")
    return found
