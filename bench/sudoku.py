"""Sudoku benchmark: per-back-end times and ratios, measured in one run (not a test).

    .venv/bin/python bench/sudoku.py [--budget 10]

Sections: the hard 9x9 set (Norvig's top95 and hardest, 106 puzzles) on
the propagating search in Python and Prolog and on Prolog's CLP(FD), first
solution and proved unique, against the targets; the easy puzzles on every
back end and strategy; the 16x16 puzzles; counting every solution of open
boards (thousands to hundreds of thousands); the plain strategies and
miniKanren on a few hard puzzles, cut at a short budget. Times are wall
seconds on this machine (the counts CPU seconds); Prolog is warmed up first
(its one-time start-up is not counted).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pysolve import bridge
from pysolve.budget import Budget
from pysolve.paths import data_dir
from pysolve.puzzle import SOLVED, UNKNOWN, Found
from pysolve.report import render_table
from pysolve.sudoku import kanren, model, prolog, python
from pysolve.sudoku.model import Board, Question

DATA = data_dir() / "sudoku"
Solver = Callable[[Board, int], Found]


def solvers(budget: float) -> dict[str, Solver]:
    """Back end and strategy -> a solver taking (board, limit), under a time budget."""

    def asking(module: ModuleType, strategy: str) -> Solver:
        return lambda board, limit: module.solve(Question(board, "bench", limit, strategy, seconds=budget),
                                                 Budget(seconds=budget))

    def prolog_clpfd(board: Board, limit: int) -> Found:
        """The CLP(FD) model of prolog/sudoku.pl (solution/3 with `clpfd`), for comparison."""
        goal = bridge.goal("solution", "clpfd", board.rows(), bridge.Var("S"))
        result = bridge.solutions(prolog.RULE_BASE, goal, max_solutions=limit, budget=Budget(seconds=budget))
        return Found([], {}, status=UNKNOWN if result.stopped else SOLVED)

    return {"python fast": asking(python, "fast"), "python plain": asking(python, "plain"),
            "prolog fast": asking(prolog, "fast"), "prolog plain": asking(prolog, "plain"),
            "prolog clpfd": prolog_clpfd, "kanren": asking(kanren, "fast")}


def times(solver: Solver, boards: list[Board], limit: int) -> tuple[list[float], int]:
    """Seconds of each call over `boards`, and how many did not answer `solved`."""
    seconds, missed = [], 0
    for board in boards:
        started = time.perf_counter()
        found = solver(board, limit)
        seconds.append(time.perf_counter() - started)
        missed += found.status != "solved"
    return seconds, missed


def fmt(seconds: float) -> str:
    """Seconds as milliseconds text."""
    return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.1f} s"


def verdict(ok: bool) -> str:
    """The target met or not."""
    return "met" if ok else "MISSED"


def hard_section(runs: dict[str, Solver]) -> str:
    """Top95 and hardest: mean and worst per back end, first solution and count<=2, against the targets."""
    boards = model.load(DATA / "top95.txt") + model.load(DATA / "hardest.txt")
    rows, means, worst = [], {}, {}
    for name in ("python fast", "prolog fast", "prolog clpfd"):
        for limit in (1, 2):
            seconds, missed = times(runs[name], boards, limit)
            means[name, limit], worst[name, limit] = statistics.mean(seconds), max(seconds)
            rows.append([name, "first" if limit == 1 else "count<=2", fmt(means[name, limit]),
                         fmt(statistics.median(seconds)), fmt(worst[name, limit]), str(missed)])
    ratios = [f"mean ratio {name} / python fast (first): {means[name, 1] / means['python fast', 1]:.1f}x"
              for name in ("prolog fast", "prolog clpfd")]
    targets = [f"python mean {fmt(means['python fast', 1])} < 5 ms: {verdict(means['python fast', 1] < 0.005)}",
               f"python worst {fmt(worst['python fast', 1])} < 100 ms: {verdict(worst['python fast', 1] < 0.1)}",
               f"prolog fast worst {fmt(worst['prolog fast', 1])} < 0.5 s: "
               f"{verdict(worst['prolog fast', 1] < 0.5)}"]
    return (f"hard set: top95 + hardest ({len(boards)} 9x9 puzzles)\n"
            + render_table(["back end", "question", "mean", "median", "worst", "not solved"], rows)
            + "\n" + "\n".join(ratios + targets))


def easy_section(runs: dict[str, Solver]) -> str:
    """The easy and small puzzles on every back end and strategy: median count<=2, ratio to python fast."""
    families = {"easy 9x9 (2)": model.load(DATA / "easy.txt"), "4x4 and 6x6 (10)": model.load(DATA / "small.txt")}
    rows, base = [], {}
    for name, solver in runs.items():
        cells = [name]
        for family, boards in families.items():
            seconds, missed = times(solver, boards, 2)
            median = statistics.median(seconds)
            base.setdefault(family, median)
            cells += [fmt(median) + (f" ({missed}?)" if missed else ""), f"{median / base[family]:.1f}x"]
        rows.append(cells)
    header = ["back end"] + [column for family in families for column in (family, "ratio")]
    return "easy puzzles, median count<=2 per puzzle; (k?) = k not solved\n" + render_table(header, rows)


def sixteen_section(runs: dict[str, Solver]) -> str:
    """The 16x16 puzzles: first solution and count<=2, propagation in Python and Prolog, CLP(FD), miniKanren."""
    boards = model.load(DATA / "sixteen.txt")
    rows = []
    for name in ("python fast", "prolog fast", "prolog clpfd", "kanren"):
        for limit in (1, 2):
            seconds, missed = times(runs[name], boards, limit)
            rows.append([name, "first" if limit == 1 else "count<=2", fmt(statistics.mean(seconds)),
                         fmt(max(seconds)), str(missed)])
    worst = max(times(runs["python fast"], boards, 2)[0])
    return (f"16x16 ({len(boards)} generated puzzles)\n"
            + render_table(["back end", "question", "mean", "worst", "not solved"], rows)
            + f"\npython worst count<=2 {fmt(worst)} < 1 s: {verdict(worst < 1)}")


def open_board(taken: int) -> Board:
    """The Wikipedia puzzle (easy.txt's first) without its first `taken` givens."""
    cells = list(model.load(DATA / "easy.txt")[0].cells)
    for k in [k for k, value in enumerate(cells) if value][:taken]:
        cells[k] = 0
    return Board(tuple(cells))


def many_section(budget: float) -> str:
    """Counting every solution of open boards (thousands to hundreds of thousands), Python and Prolog fast,
    `budget` seconds each: Prolog lists every grid too (packed into one string on the way)."""
    runs, rows = solvers(budget), []
    for taken in (7, 8, 9):
        board = open_board(taken)
        cells, seconds = [f"Wikipedia minus {taken} givens"], {}
        for name in ("python fast", "prolog fast"):
            started = time.process_time()
            found = runs[name](board, 10**9)
            seconds[name] = time.process_time() - started
            cells += [f"{len(found.solutions):,}", fmt(seconds[name])]
        rows.append(cells + [f"{seconds['prolog fast'] / seconds['python fast']:.1f}x"])
    return ("counting every solution (CPU seconds)\n"
            + render_table(["board", "python count", "python", "prolog count", "prolog", "prolog / python"], rows))


def plain_section(budget: float) -> str:
    """The plain strategies and miniKanren on the first five hard puzzles, each cut at `budget` seconds."""
    runs = solvers(budget)
    boards = model.load(DATA / "hardest.txt")[:5]
    rows = []
    for name in ("python plain", "prolog plain", "kanren"):
        seconds, missed = times(runs[name], boards, 1)
        rows.append([name, fmt(statistics.median(seconds)), fmt(max(seconds)), f"{len(boards) - missed}/{len(boards)}"])
    return (f"plain backtracking on hardest.txt (first 5), first solution, {budget:g} s budget each\n"
            + render_table(["back end", "median", "worst", "solved"], rows))


def main() -> None:
    """Run every section and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=10.0, help="time budget per solve, seconds")
    parser.add_argument("--plain-budget", type=float, default=2.0,
                        help="time budget per solve of the plain strategies and miniKanren on hard puzzles")
    parser.add_argument("--count-budget", type=float, default=120.0,
                        help="time budget of each count of every solution of an open board")
    args = parser.parse_args()
    runs = solvers(args.budget)
    runs["prolog fast"](model.load(DATA / "easy.txt")[0], 1)  # start SWI-Prolog once
    runs["prolog clpfd"](model.load(DATA / "easy.txt")[0], 1)  # and load library(clpfd)
    for section in (lambda: hard_section(runs), lambda: easy_section(runs), lambda: sixteen_section(runs),
                    lambda: many_section(args.count_budget), lambda: plain_section(args.plain_budget)):
        print(section(), end="\n\n", flush=True)


if __name__ == "__main__":
    main()
