"""Tangram timings: every back end on the same questions, in one run, with ratios to Python.

Run: .venv/bin/python bench/tangram.py [--repeat N] [--budget SECONDS] [--counts] [--side N]
Prints CPU time (best of N, warm engines; SWI-Prolog runs in-process, so
its CPU counts too; wall time on a shared machine is noise) for the classic 10x10 instance: all 36
tilings (fixed-order dfs and first-empty-cell), breadth-first from each piece;
then, on random boards cut into rectangles (pysolve.tangram.generate), the
tiling count per back end; last, the issue-12 boards (sides >= 2, sizes
distinct), as generated and turned, on every back end (`--counts`: only those).
A search that passes its budget shows as `>budget`.
"""

from __future__ import annotations

import argparse
import dataclasses
import time

from pysolve import backends
from pysolve.answers import UNKNOWN
from pysolve.errors import SearchLimitExceeded
from pysolve.report import render_table
from pysolve.tangram.generate import generate
from pysolve.tangram.model import Instance, Question
from pysolve.tangram.puzzle import PUZZLE
from pysolve.tangram.reader import load_instance

BACKENDS = [name for name in backends.NAMES if backends.available(name)]
BOARDS = [(8, 8, 7), (10, 10, 8), (12, 12, 9), (14, 14, 10), (16, 16, 12)]  # width, height, pieces
SEEDS = (1, 2, 3)


def timed(question: Question, backend: str, repeat: int) -> tuple[float | None, object]:
    """Best CPU time of `repeat` runs and the answer's count/first solution; None time past the budget."""
    best, result = float("inf"), None
    solve = PUZZLE.backend_module(backend).solve
    for _ in range(repeat):
        started = time.process_time()
        try:
            found = solve(question, PUZZLE.budget(question))
        except SearchLimitExceeded:
            return None, None
        if found.status == UNKNOWN:
            return None, None
        best = min(best, time.process_time() - started)
        result = found.count if found.count is not None else found.solutions[:1]
    return best, result


def row(label: str, question: Question, repeat: int) -> list[str]:
    """One table row: the label, each back end's time, and each time relative to Python's."""
    times, results = {}, set()
    for backend in BACKENDS:
        seconds, result = timed(question, backend, repeat)
        times[backend] = seconds
        if seconds is not None:
            results.add(repr(result))
    base = times.get("python")
    cells = [f"{times[b] * 1000:.1f} ms" if times[b] is not None else f">{question.seconds:g} s" for b in BACKENDS]
    ratios = [f"{times[b] / base:.1f}x" if times[b] is not None and base else "-" for b in BACKENDS if b != "python"]
    agree = "yes" if len(results) == 1 else "NO" if len(results) > 1 else "-"
    return [label, *cells, *ratios, agree]


def classic_rows(repeat: int, budget: float) -> list[list[str]]:
    """The classic instance: all tilings both ways, then breadth-first from each piece."""
    classic = load_instance()
    rows = [row("classic all 36, dfs", Question(classic, "all", seconds=budget), repeat),
            row("classic all 36, cell", Question(classic, "all", "cell", seconds=budget), repeat)]
    rows += [row(f"classic bfs from {name}", Question(classic, "first", "bfs", name, seconds=budget), repeat)
             for name in classic.names]
    return rows


def scaling_rows(budget: float) -> list[list[str]]:
    """Random boards of growing size: the count (the memo counter on Prolog and Python, whatever the
    strategy; miniKanren's tabled relation `counto` on the same facts)."""
    rows = []
    for width, height, pieces in BOARDS:
        for seed in SEEDS:
            instance = generate(width, height, pieces, seed)
            rows.append(row(f"{width}x{height}/{pieces} seed {seed} count", Question(instance, "count", seconds=budget),
                            1))
    return rows


def transposed(instance: Instance) -> Instance:
    """The same board turned a quarter (width and height of the board and of every piece swapped)."""
    pieces = tuple(dataclasses.replace(p, width=p.height, height=p.width) for p in instance.pieces)
    return dataclasses.replace(instance, width=instance.height, height=instance.width, pieces=pieces,
                               name=f"{instance.name}-turned")


def issue_rows(budget: float, sides: list[int] | None = None) -> list[list[str]]:
    """Boards cut by guillotine cuts, sides >= 2, all sizes distinct (issue 12), as given and turned: the
    count on every back end, 12x12 to 24x24 (`sides`: only boards of those sides)."""
    rows = []
    for side, pieces, seeds in ((12, 9, range(1, 4)), (16, 12, range(1, 4)), (20, 14, range(1, 13)),
                                (24, 16, range(1, 9))):
        if sides and side not in sides:
            continue
        for seed in seeds:
            instance = generate(side, side, pieces, seed, min_side=2, distinct=True)
            for board, how in ((instance, ""), (transposed(instance), " turned")):
                rows.append(row(f"{side}x{side}/{pieces} min2 distinct seed {seed}{how} count",
                                Question(board, "count", seconds=budget), 1))
    return rows


def warm_up(instance: Instance) -> None:
    """Start SWI-Prolog and load the rule base before anything is timed."""
    for backend in BACKENDS:
        PUZZLE.solve(Question(instance, "first"), backend)


def main() -> None:
    """Print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per classic question (best is shown)")
    parser.add_argument("--budget", type=float, default=30.0, help="seconds per search before giving up")
    parser.add_argument("--counts", action="store_true", help="only the issue-12 counting table")
    parser.add_argument("--side", type=int, action="append", help="only the issue-12 boards of this side (repeatable)")
    args = parser.parse_args()
    warm_up(load_instance())
    header = ["question", *BACKENDS, *(f"{b}/python" for b in BACKENDS if b != "python"), "agree"]
    print(f"back ends: {', '.join(f'{i.name} ({i.version})' for i in backends.all_info() if i.available)}\n")
    if not args.counts:
        print(render_table(header, classic_rows(args.repeat, args.budget)))
        print()
        print(render_table(header, scaling_rows(args.budget)))
        print()
    print(render_table(header, issue_rows(args.budget, args.side)))


if __name__ == "__main__":
    main()
