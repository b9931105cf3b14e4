"""Small real searches that record themselves in the trace format (`pysolve.trace.Trace`), for the tests of the
replay side by side: the fichas puzzle searched depth-first, breadth-first, best-first and by hill climbing (on
its model's moves and heuristic), and N queens depth-first (a big trace when N is large).

They stand for the back ends' own recorded searches, which other modules write; the replay reads only the
format, so any search written to it will do.
"""

from __future__ import annotations

import heapq
from collections import deque
from pathlib import Path

from pysolve.fichas.model import heuristic, is_goal, start, successors
from pysolve.trace import DEFAULT_LIMIT, Trace


def fichas_trace(path: Path, m: int, n: int, strategy: str, backend: str = "python") -> Path:
    """The search of fichas (m, n) by `strategy` (dfs, bfs, best-first, hill-climbing), recorded into `path`."""
    with path.open("w", encoding="utf-8") as out:
        trace = Trace(out, "fichas", backend, {"m": m, "n": n, "strategy": strategy, "flavour": "hs"})
        found = {"dfs": depth_first, "bfs": breadth_first, "best-first": best_first,
                 "hill-climbing": hill_climbing}[strategy](trace, start(m, n))
        trace.end("solved" if found else "no solution")
    return path


def depth_first(trace: Trace, board: str, path: tuple[str, ...] = ()) -> bool:
    """Depth-first, a board already on the path a dead end; True at the goal."""
    if is_goal(board):
        trace.solution()
        return True
    for child in successors(board):
        trace.push(child)
        if child in path or child == board:
            trace.fail()
        elif depth_first(trace, child, (*path, board)):
            return True
        trace.pop()
    if trace.stack[-1]:
        trace.fail()
    return False


def breadth_first(trace: Trace, board: str) -> bool:
    """Breadth-first: boards entered in the order made, a board seen before a dead end."""
    seen, frontier = {board}, deque([(0, board)])
    while frontier:
        node, here = frontier.popleft()
        for child in successors(here):
            made = trace.enter(child, node)
            if child in seen:
                trace.fail(made)
                continue
            seen.add(child)
            if is_goal(child):
                trace.solution(made)
                return True
            frontier.append((made, child))
    return False


def best_first(trace: Trace, board: str) -> bool:
    """Best-first: the open board of the lowest heuristic expanded next."""
    seen, frontier = {board}, [(heuristic(board), 0, board)]
    while frontier:
        _, node, here = heapq.heappop(frontier)
        for child in successors(here):
            made = trace.enter(child, node)
            if child in seen:
                trace.fail(made)
                continue
            seen.add(child)
            if is_goal(child):
                trace.solution(made)
                return True
            heapq.heappush(frontier, (heuristic(child), made, child))
    return False


def hill_climbing(trace: Trace, board: str) -> bool:
    """Hill climbing: every successor made, the best one taken only when it beats the board; stuck otherwise."""
    node, here = 0, board
    while not is_goal(here):
        made = [(heuristic(child), trace.enter(child, node), child) for child in successors(here)]
        best = min(made)
        if best[0] >= heuristic(here):
            trace.fail(node)
            return False
        node, here = best[1], best[2]
    trace.solution(node)
    return True


def queens_trace(path: Path, size: int, backend: str = "python", limit: int = DEFAULT_LIMIT,
                 strategy: str = "left") -> Path:
    """Every placement of `size` queens, depth-first row by row, each row's columns from the left (or from the
    right), recorded into `path` (at most `limit` events)."""
    columns_in_order = range(size) if strategy == "left" else range(size - 1, -1, -1)

    def place(columns: tuple[int, ...]) -> None:
        if len(columns) == size:
            trace.solution()
            return
        row = len(columns)
        for column in columns_in_order:
            trace.push(f"r{row + 1}c{column + 1}")
            if any(c == column or abs(c - column) == row - r for r, c in enumerate(columns)):
                trace.fail()
            else:
                place((*columns, column))
            trace.pop()

    with path.open("w", encoding="utf-8") as out:
        trace = Trace(out, "queens", backend, {"n": size, "strategy": strategy}, limit=limit)
        place(())
        trace.end("solved")
    return path
