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

from pysolve.cli import main

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process tree from /proc")

WORKER = b"--multiprocessing-fork"  # on the command line of every process of a spawned pool
HANG_GUARD = 30.0  # wall seconds: only so that a broken interrupt fails the test instead of hanging it


@pytest.fixture(scope="module")
def long_count(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """A tangram count in parts on 2 processes that runs far longer than these tests wait (20 s and more)."""
    board = tmp_path_factory.mktemp("interrupt") / "board.txt"
    assert main(["generate", "tangram", "--width", "16", "--height", "16", "--pieces", "14", "--seed", "1",
                 "--rotations", "--out", str(board)]) == 0
    return ["solve", "tangram", str(board), "--count", "--workers", "2", "--seconds", "60"]


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
    """The pool workers among `pid`'s descendants."""
    workers = set()
    for child in descendants(pid):
        try:
            if WORKER in Path(f"/proc/{child}/cmdline").read_bytes():
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
    """Return once `run` has `count` pool workers; fail when it ends or takes over HANG_GUARD."""
    deadline = time.monotonic() + HANG_GUARD
    while len(workers_of(run.pid)) < count:
        assert run.poll() is None, run.communicate()
        assert time.monotonic() < deadline, "the pool's workers never started"
        time.sleep(0.01)


@pytest.mark.parametrize(("workers", "after"), [
    (2, 2.0),  # the parts are running: Prolog (or Python) deep in each worker's count
    (1, 0.2),  # the first worker is still starting: importing pysolve, before any code of ours runs in it
], ids=["counting", "starting"])
def test_ctrl_c_stops_a_parallel_count_and_every_worker(long_count: list[str], workers: int, after: float) -> None:
    run = subprocess.Popen([sys.executable, "-m", "pysolve.cli", *long_count], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    wait_for_workers(run, workers)
    time.sleep(after)
    assert run.poll() is None, run.communicate()
    below = descendants(run.pid)
    os.killpg(run.pid, signal.SIGINT)  # as Ctrl-C on a terminal: to the whole group
    out, err = run.communicate(timeout=HANG_GUARD)
    assert (run.returncode, out, err.splitlines()[0]) == (130, "", "pysolve: interrupted") and "Traceback" not in err
    if workers > 1:  # a worker still starting may leave a line of SWI-Prolog's after it (a known leftover)
        assert err == "pysolve: interrupted\n"
    deadline = time.monotonic() + HANG_GUARD  # the pool's resource tracker ends when it reads its pipe closed
    while any(alive(pid) for pid in below) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in below if alive(pid)]
