"""Ctrl-C stops a parallel run at once: exit 130, one line, no tracebacks from the workers, no process left.

A terminal sends SIGINT to every process of its foreground group, so the
runs here lead a group of their own and the signal goes to the whole
group, workers included, as Ctrl-C's would.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

HANG_GUARD = 60  # wall seconds, pytest-timeout's: only so that a broken interrupt fails the test instead of hanging it
pytestmark = [pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process tree from /proc"),
              pytest.mark.subprocess, pytest.mark.timeout(HANG_GUARD)]

TRACKER = b"resource_tracker"  # on the command line of the pool's resource tracker, which is no worker

# Owen's 6x6 squares counted by miniKanren in parts on 2 processes: it runs far longer than these tests wait
# (20 s and more), and a process of its own starts no SWI-Prolog, so its workers are forked copies of it
LONG_COUNT = ["solve", "squares", "eternity-6x6", "--count", "--backend", "kanren", "--workers", "2", "--seconds", "60"]


def parent_of(pid: int) -> int | None:
    """The parent process id of `pid`, or None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rpartition(")")[2].split()[1])  # after the command name, which may hold spaces: state, ppid


def descendants(pid: int) -> set[int]:
    """Every living process below `pid` in the process tree."""
    parents = {int(entry): parent_of(int(entry)) for entry in os.listdir("/proc") if entry.isdigit()}
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def workers_of(pid: int) -> set[int]:
    """The pool workers among `pid`'s descendants: all but the pool's resource tracker."""
    workers = set()
    for child in descendants(pid):
        try:
            if TRACKER not in Path(f"/proc/{child}/cmdline").read_bytes():
                workers.add(child)
        except OSError:
            pass
    return workers


def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie, dead and not yet reaped by its new parent, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def wait_for_workers(run: subprocess.Popen[str], count: int) -> None:
    """Return once `run` has `count` pool workers; fail when it ends first."""
    while len(workers_of(run.pid)) < count:
        assert run.poll() is None, run.communicate()
        time.sleep(0.01)


@pytest.mark.parametrize(("workers", "after"), [
    (2, 2.0),  # the parts are running: miniKanren deep in each worker's count
    (1, 0.01),  # the first worker is still starting: loading miniKanren, before any part
], ids=["counting", "starting"])
def test_ctrl_c_stops_a_parallel_count_and_every_worker(workers: int, after: float) -> None:
    run = subprocess.Popen([sys.executable, "-m", "pysolve.cli", *LONG_COUNT], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    wait_for_workers(run, workers)
    time.sleep(after)
    assert run.poll() is None, run.communicate()
    below = descendants(run.pid)
    os.killpg(run.pid, signal.SIGINT)  # as Ctrl-C on a terminal: to the whole group
    out, err = run.communicate()
    assert (run.returncode, out, err) == (130, "", "pysolve: interrupted\n")
    while any(alive(pid) for pid in below):  # the pool's resource tracker ends when it reads its pipe closed
        time.sleep(0.05)
