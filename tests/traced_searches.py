"""Recorded searches for the tests of the replay side by side: fichas searched depth-first, breadth-first,
best-first and by hill climbing, as a back end records it, and N queens depth-first written here with
`pysolve.trace.Trace` (a big trace when N is large: the replay reads only the format, so any search written to
it will do).
"""

from __future__ import annotations

from pathlib import Path

import pysolve
from pysolve.trace import DEFAULT_LIMIT, Trace


def fichas_trace(path: Path, m: int, n: int, strategy: str, backend: str = "python") -> Path:
    """The search of fichas (m, n) by `strategy` (dfs, bfs, best-first, hill-climbing), as the back end recorded
    it (`pysolve solve fichas --trace`) into `path`."""
    pysolve.solve("fichas", m=m, n=n, strategy=strategy, backend=backend, trace=path)
    return path


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
