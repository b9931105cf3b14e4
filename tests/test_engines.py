"""Prolog engines in worker processes (pysolve.engines), as the web server uses them: queries answered as in this
process, side by side on engines of their own, a request whose client left stopped by killing its worker,
an engine that dies reported and replaced, and the server itself answering its Prolog there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pysolve import bridge, budget, puzzles
from pysolve.engines import EngineDied, EnginePool
from pysolve.errors import PrologError, SearchLimitExceeded
from pysolve.pytest_plugin import needs_prolog

pytestmark = [needs_prolog, pytest.mark.subprocess]  # an engine pool is worker processes

SPIN = "statistics(cputime, T0), get_time(W0), (between(1, inf, N), statistics(cputime, T), T - T0 > {cpu}, !), " \
       "get_time(W1), current_prolog_flag(pid, Pid)"


@pytest.fixture
def pool() -> Iterator[EnginePool]:
    """A pool of two engines that every query of this process goes to while the test runs."""
    engines = EnginePool(2)
    bridge.answer_on(engines)
    try:
        yield engines
    finally:
        bridge.answer_on(None)
        engines.close()


def test_a_pool_answers_as_this_process_does(pool: EnginePool) -> None:
    goal = "findall(X, between(1, 5, X), Xs), sum_list(Xs, N)"
    on_pool = bridge.solutions("fichas", goal)
    bridge.answer_on(None)
    here = bridge.solutions("fichas", goal)
    bridge.answer_on(pool)
    assert on_pool == here and on_pool.rows[0]["N"] == 15
    sudoku = puzzles.get("sudoku")
    asked = sudoku.question(file="hardest", index=1, count=2)
    assert sudoku.solve(asked, "prolog").solutions == sudoku.solve(asked, "python").solutions
    with pytest.raises(PrologError, match="Unknown procedure"):
        bridge.solutions("fichas", "no_such_predicate(X)")
    big = bridge.solutions("fichas", "X is 2**100")  # integers past 64 bits come back whole
    assert big.rows == [{"X": 2**100}]


def test_two_queries_run_side_by_side_on_engines_of_their_own(pool: EnginePool) -> None:
    rows: list[dict[str, Any]] = []

    def spin() -> None:
        rows.extend(bridge.solutions("fichas", SPIN.format(cpu=0.6), max_solutions=1, seconds=10).rows)

    threads = [threading.Thread(target=spin) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    first, second = rows
    assert first["Pid"] != second["Pid"] != os.getpid()
    assert first["W0"] < second["W1"] and second["W0"] < first["W1"]  # each began before the other ended


def test_a_request_whose_client_left_is_stopped_and_its_worker_replaced(pool: EnginePool) -> None:
    gone, outcome = threading.Event(), {}

    def ask() -> None:
        with budget.serving(60, gone):
            try:
                bridge.solutions("fichas", "between(1, inf, _), fail", seconds=30)
            except SearchLimitExceeded as error:
                outcome["error"] = str(error)

    asking = threading.Thread(target=ask)
    asking.start()
    bridge.solutions("fichas", SPIN.format(cpu=0.2), max_solutions=1)  # the other engine, meanwhile
    gone.set()
    asking.join(30)
    assert "the request that asked for it was abandoned" in outcome["error"] and pool.replaced == 1
    assert bridge.solutions("fichas", "X = 1").rows == [{"X": 1}]  # a fresh worker in its place


def test_an_engine_that_dies_is_reported_and_replaced(pool: EnginePool) -> None:
    pids: list[int] = []

    def killed_while_it_works() -> None:
        while not pool._busy:
            threading.Event().wait(0.01)
        victim = next(iter(pool._busy)).process
        assert victim.pid is not None
        pids.append(victim.pid)
        os.kill(victim.pid, 9)

    killer = threading.Thread(target=killed_while_it_works)
    killer.start()
    with pytest.raises(EngineDied, match="died"):
        bridge.solutions("fichas", "between(1, inf, _), fail", seconds=30)
    killer.join()
    assert pool.replaced == 1
    (row,) = bridge.solutions("fichas", "current_prolog_flag(pid, P)").rows
    assert row["P"] not in pids


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """`pysolve serve` with two engines on a free port of this machine, and its URL."""
    code = "from pysolve.web.serve import serve; serve('127.0.0.1', 0, 'prolog', engines=2)"
    process = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    match = re.search(r"http://[\d.]+:\d+/", process.stderr.readline())
    assert match, "the server did not say where it listens"
    try:
        yield process, match.group(0)
    finally:
        process.terminate()
        process.wait(30)


def engines_of(pid: int) -> list[int]:
    """The pids of the engine processes a server process started: its spawned children (not the tracker of
    multiprocessing's shared resources)."""
    tasks = Path(f"/proc/{pid}/task").iterdir()  # a worker thread's children are listed under its own task
    children = [child for task in tasks for child in (task / "children").read_text().split()]
    return [int(child) for child in children if "spawn_main" in Path(f"/proc/{child}/cmdline").read_text()]


def test_the_server_answers_prolog_requests_side_by_side(server: tuple[subprocess.Popen[str], str]) -> None:
    process, base = server
    grids = [line for line in (Path(__file__).parent.parent / "data/sudoku/hardest.txt").read_text().splitlines()
             if line.strip()][:4]

    def solve(grid: str) -> dict[str, Any]:
        for _ in range(100):  # the address is printed as it binds; it answers once uvicorn runs
            try:
                return httpx.post(base + "api/sudoku/solve", json={"grid": grid, "backend": "prolog", "count": 2,
                                                                   "strategy": "plain"}, timeout=120).json()
            except httpx.ConnectError:
                threading.Event().wait(0.1)
        raise AssertionError("the server never answered")

    answers: list[dict[str, Any]] = []
    threads = [threading.Thread(target=lambda grid=grid: answers.append(solve(grid))) for grid in grids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [answer["status"] for answer in answers] == ["solved"] * len(grids)
    assert all(answer["count"] == 1 for answer in answers)
    assert len(engines_of(process.pid)) == 2  # both engines were needed: the requests came at once
