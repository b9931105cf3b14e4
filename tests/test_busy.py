"""Limits on a busy machine: every back end and every kind of search, driven past its time limit while the
test keeps the machine busy itself, ends within the bound of its own clock (`budget.most_work`: the limit,
10 % more and 0.3 s of CPU), with its answer or `unknown`; and a question that fits its limit in CPU time is
answered however long the wall clock says it took.

The load is real: two processes spinning on the core this process is pinned to while the tests run, so
that it gets about a third of that core. Nothing here asserts on the wall clock.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pysolve import backends, puzzles
from pysolve.answers import NO_SOLUTION, SOLVED, UNKNOWN, Answer
from pysolve.azul.model import RandomStream
from pysolve.azul.search_players import Mcts, Minimax
from pysolve.azul.tree import Game
from pysolve.budget import most_work
from pysolve.hidato import python as hidato_python
from pysolve.sudoku import python as sudoku_python
from pysolve.tangram.generate import generate as generate_tangram
from pysolve.tangram.model import Question as TangramQuestion

LIMIT = 0.4  # CPU seconds of each search driven past its limit
SPINNERS = 2  # processes sharing this process's core
SPIN = "while True: pass"


def cpu_of(pid: int) -> float:
    """CPU seconds (user and system) process `pid` has used, from /proc."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.fixture(scope="module")
def busy() -> Iterator[list[subprocess.Popen[bytes]]]:
    """This process pinned to one core with SPINNERS processes spinning on it; afterwards the spinners are
    stopped and the process may run anywhere again. Yields the spinners (to show they did spin)."""
    before = os.sched_getaffinity(0)
    core = {min(before)}
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(SPINNERS)]
    for spinner in spinners:
        os.sched_setaffinity(spinner.pid, core)
    os.sched_setaffinity(0, core)
    try:
        yield spinners
    finally:
        os.sched_setaffinity(0, before)
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def open_hidato(side: int) -> list[list[int]]:
    """A side x side Hidato board with only its first and last numbers given: very many solutions."""
    rows = [[0] * side for _ in range(side)]
    rows[0][0], rows[-1][-1] = 1, side * side
    return rows


def asked(puzzle: str, **values: Any) -> Any:
    """The checked question of `puzzle` from option values, with the time limit LIMIT."""
    return puzzles.get(puzzle).question(seconds=LIMIT, **values)


def written(tmp: Path, name: str, rows: list[list[Any]], blank: str) -> str:
    """The rows written as a board file in `tmp` (0 shown as `blank`): its path."""
    path = tmp / name
    path.write_text("\n".join(" ".join(str(cell) if cell else blank for cell in row) for row in rows) + "\n")
    return str(path)


def open_hidato(tmp: Path) -> Any:
    """A 24x24 Hidato board with only its first and last numbers given: very many solutions."""
    rows = [[0] * 24 for _ in range(24)]
    rows[0][0], rows[-1][-1] = 1, 24 * 24
    return asked("hidato", file=written(tmp, "open.txt", rows, "__"), count=10**9)


HARD = {  # a board of very many solutions and the blank it is written with
    "sudoku": ([[0] * 9] * 9, "0"),
    "hidato": ([[1] + [0] * 11] + [[0] * 12] * 10 + [[0] * 11 + [144]], "__"),
}

# case -> the question, given a tmp folder; every back end that answers it is asked
PAST_THEIR_LIMIT: dict[str, Callable[[Path], Any]] = {
    **{f"fichas {strategy}": lambda tmp, strategy=strategy: asked("fichas", m=6, n=6, strategy=strategy)
       for strategy in ("dfs", "bfs", "best-first", "hill-climbing", "shortest", "astar")},
    "hidato count (Prolog returning many solutions)": open_hidato,
    "squares count": lambda tmp: asked("squares", file="eternity-6x6", count=True),
    "squares first solution": lambda tmp: asked("squares", file="eternity-6x6"),
    **{f"tangram {mode} {strategy}": lambda tmp, mode=mode, strategy=strategy: TangramQuestion(
        generate_tangram(20, 20, 14, 2, min_side=2, distinct=True), mode, strategy, seconds=LIMIT)
       for mode, strategy in (("count", "dfs"), ("all", "dfs"), ("all", "cell"), ("first", "bfs"))},
    **{f"{name} count, strategy {strategy}": lambda tmp, name=name, strategy=strategy: asked(
        name, file=written(tmp, f"{name}.txt", *HARD[name]), count=10**9, strategy=strategy)
       for name, strategies in (("sudoku", sudoku_python.STRATEGIES), ("hidato", hidato_python.STRATEGIES))
       for strategy in strategies},
}


def cases() -> list[tuple[str, str]]:
    return [(case, backend) for case in PAST_THEIR_LIMIT for backend in backends.NAMES]


def held_to_its_clock(answer: Answer, collecting: float = 0.0) -> None:
    """The answer came within the bound of its own clock: found, or unknown because of its time limit (or
    another limit it names: kanren's depth-first fichas passes Python's recursion limit first).

    `collecting`: the CPU seconds SWI-Prolog spent collecting garbage during the search, which no alarm
    interrupts, so that a collection under way when the limit passes ends first (one of a few hundred
    megabytes takes a good part of a second)."""
    assert answer.stats["cpu_seconds"] <= most_work(LIMIT) + collecting, (answer.stats, collecting)
    assert answer.status in (SOLVED, NO_SOLUTION, UNKNOWN), answer.stats
    if answer.status == UNKNOWN:
        assert f"time limit of {LIMIT:g} s" in answer.reason or "recursion limit" in answer.reason, answer.reason


@pytest.mark.slow
@pytest.mark.parametrize("case, backend", cases())
def test_every_search_ends_within_its_own_clock_on_a_busy_machine(busy: list[subprocess.Popen[bytes]], case: str,
                                                                  backend: str, tmp_path: Any) -> None:
    question = PAST_THEIR_LIMIT[case](tmp_path)
    puzzle = puzzles.get(case.split()[0])
    if backend not in puzzle.backends_for(question):
        pytest.skip(f"{backend} does not answer this {puzzle.name} question")  # declined: no search to bound
    backends.require(backend)
    collected = garbage_collected(puzzle.name) if backend == "prolog" else 0.0
    answer = puzzle.solve(question, backend)
    held_to_its_clock(answer, garbage_collected(puzzle.name) - collected if backend == "prolog" else 0.0)


def garbage_collected(rule_base: str) -> float:
    """CPU seconds SWI-Prolog has spent collecting garbage in this process (`statistics/2`, asked in `rule_base`)."""
    from pysolve import bridge

    found = bridge.first(rule_base, "statistics(garbage_collection, [_, _, Milliseconds|_])")
    assert found is not None
    return float(found["Milliseconds"]) / 1000


@pytest.mark.slow
def test_the_spinners_do_share_the_core(busy: list[subprocess.Popen[bytes]]) -> None:
    before = [cpu_of(spinner.pid) for spinner in busy]
    started = time.thread_time()
    while time.thread_time() - started < 0.3:
        pass
    assert all(cpu_of(spinner.pid) > spun for spinner, spun in zip(busy, before))
    assert os.sched_getaffinity(0) == {os.sched_getaffinity(busy[0].pid).pop()}


@pytest.mark.slow
@pytest.mark.parametrize("player", [Mcts(seconds=LIMIT), Minimax(depth=8, seconds=LIMIT)], ids=["mcts", "minimax"])
def test_azul_players_by_the_clock_keep_to_theirs_on_a_busy_machine(busy: list[subprocess.Popen[bytes]],
                                                                    player: Any) -> None:
    state, stream = Game(2).new_initial_state(), RandomStream(1)
    while state.is_chance_node:
        state.apply_chance(state.sample_chance(stream))
    started = time.thread_time()
    move = player(state.to_json(), state.legal_moves(), stream)
    assert time.thread_time() - started <= most_work(LIMIT) and move in state.legal_moves()


@pytest.mark.slow
def test_generating_keeps_its_limit_on_a_busy_machine(busy: list[subprocess.Popen[bytes]]) -> None:
    started = time.thread_time()
    data, _ = puzzles.get("hidato").generated(rows=200, cols=4, seed=1, seconds=LIMIT)
    assert time.thread_time() - started <= most_work(LIMIT)
    assert data["stopped"].startswith(f"taking givens away passed its time limit of {LIMIT:g} s")


@pytest.mark.slow
@pytest.mark.parametrize("backend, puzzle, values, seconds", [
    ("prolog", "fichas", {"m": 3, "n": 3, "strategy": "bfs"}, 2.0),           # about 0.65 CPU s
    ("python", "squares", {"file": "eternity-6x6", "count": True}, 6.0),      # about 2 CPU s
    ("kanren", "sudoku", {"file": "hardest", "index": 1}, 1.0),               # about 0.01 CPU s
])
def test_a_question_within_its_limit_in_cpu_is_answered_however_long_the_wall_clock_takes(
        busy: list[subprocess.Popen[bytes]], backend: str, puzzle: str, values: dict[str, Any], seconds: float) -> None:
    backends.require(backend)
    answer = puzzles.get(puzzle).solve(puzzles.get(puzzle).question(seconds=seconds, **values), backend)
    assert answer.status == SOLVED and answer.stats["cpu_seconds"] <= most_work(seconds), answer.stats
