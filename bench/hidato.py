"""Hidato benchmark: per-back-end times and ratios, measured in one run (not a test).

    .venv/bin/python bench/hidato.py [--puzzles 20] [--budget 20]

Sections: the 8-row sample on every back end and strategy; every shipped
board on the fast strategies; generated 15x15 rectangular puzzles with
unique solutions (solve and prove unique, count to 2); how each back end
scales with the board size; the long thin boards.
Times are wall seconds on this machine; Prolog is warmed up first (its
one-time start-up, about 0.2 s, is not counted).
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

from pysolve import bridge  # noqa: E402
from pysolve.hidato import generate, kanren, model, prolog, python  # noqa: E402
from pysolve.budget import Budget  # noqa: E402
from pysolve.hidato.model import Board, Question  # noqa: E402
from pysolve.paths import data_dir  # noqa: E402
from pysolve.puzzle import SOLVED, UNKNOWN, Found  # noqa: E402
from pysolve.report import render_table  # noqa: E402

DATA = data_dir() / "hidato"
KANREN_SIZE = 6  # beyond this miniKanren's walk spends its whole budget


def solvers(budget: float) -> dict[str, Callable[[Board, int], Found]]:
    """Back end and strategy -> a solver taking (board, limit), all under a time budget."""

    def asking(module: ModuleType, strategy: str) -> Callable[[Board, int], Found]:
        return lambda board, limit: module.solve(Question(board, "bench", limit, strategy, seconds=budget),
                                                 Budget(seconds=budget))

    def prolog_clpfd(board: Board, limit: int) -> Found:
        """The CLP(FD) model of prolog/hidato.pl (solutions/4 with `clpfd`), for comparison."""
        goal = bridge.goal("solutions", "clpfd", board.grid(), limit, bridge.Var("All"))
        result = bridge.solutions(prolog.RULE_BASE, goal, max_solutions=1, budget=Budget(seconds=budget))
        return Found([], {}, status=UNKNOWN if result.stopped else SOLVED)

    return {"python fast": asking(python, "fast"), "python original": asking(python, "original"),
            "prolog fast": asking(prolog, "fast"), "prolog original": asking(prolog, "original"),
            "prolog clpfd": prolog_clpfd, "kanren": asking(kanren, "original")}


def timed(solver: Callable[[Board, int], Found], board: Board, limit: int) -> tuple[float, str]:
    """(seconds, status) of one call."""
    started = time.perf_counter()
    found = solver(board, limit)
    return time.perf_counter() - started, found.status


def fmt(seconds: float) -> str:
    """Seconds as milliseconds text."""
    return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.1f} s"


def sample_section(runs: dict[str, Callable[[Board, int], Found]]) -> str:
    """The sample: median of 5 runs per back end, first solution and count to 2, ratio to python fast."""
    board = model.load(DATA / "sample.txt")
    rows, base = [], {}
    for name, solver in runs.items():
        cells = [name]
        for limit in (1, 2):
            seconds = statistics.median(timed(solver, board, limit)[0] for _ in range(5))
            base.setdefault(limit, seconds)
            cells += [fmt(seconds), f"{seconds / base[limit]:.1f}x"]
        rows.append(cells)
    return "sample (40 cells, 15 givens), median of 5\n" + render_table(
        ["back end", "first", "ratio", "count<=2", "ratio"], rows)


def generated(rows: int, cols: int, seeds: range) -> list[Board]:
    """Unique puzzles from the generator, one per seed."""
    return [model.make_board(generate.generate(generate.Recipe(rows, cols, seed))["puzzle"]) for seed in seeds]


def family_times(solver: Callable[[Board, int], Found], boards: list[Board]) -> tuple[list[float], int]:
    """Count-to-2 times over a family of boards, and how many hit the budget."""
    results = [timed(solver, board, 2) for board in boards]
    return [seconds for seconds, _ in results], sum(status == "unknown" for _, status in results)


def big_section(runs: dict[str, Callable[[Board, int], Found]], count: int) -> str:
    """Generated 15x15 unique puzzles: solve and prove unique, Python and Prolog."""
    boards = generated(15, 15, range(1, count + 1))
    givens = statistics.median(len(board.givens) for board in boards)
    rows, medians = [], {}
    for name in ("python fast", "prolog fast"):
        times, unknown = family_times(runs[name], boards)
        medians[name] = statistics.median(times)
        rows.append([name, fmt(medians[name]), fmt(max(times)), str(unknown)])
    ratio = medians["prolog fast"] / medians["python fast"]
    return (f"{count} generated 15x15 unique puzzles (median {givens:.0f} givens of 225), count<=2\n"
            + render_table(["back end", "median", "worst", "unknown"], rows)
            + f"\nmedian ratio prolog fast / python fast: {ratio:.1f}x")


def shipped_section(runs: dict[str, Callable[[Board, int], Found]]) -> str:
    """Every shipped board (the Rosetta Code sample and data/hidato's own): count<=2, Python and Prolog fast."""
    names = ("python fast", "prolog fast")
    rows, worst = [], dict.fromkeys(names, 0.0)
    for path in sorted(DATA.glob("*.txt")) + sorted((DATA / "long").glob("*.txt")):
        board = model.load(path)
        seconds = {}
        cells = [f"{path.stem} ({board.size} cells)"]
        for name in names:
            seconds[name], status = timed(runs[name], board, 2)
            worst[name] = max(worst[name], seconds[name])
            cells.append(fmt(seconds[name]) + ("" if status == SOLVED else f" {status}"))
        rows.append(cells + [f"{seconds['prolog fast'] / seconds['python fast']:.1f}x"])
    return ("every shipped board, count<=2\n" + render_table(["board", *names, "prolog / python"], rows)
            + f"\nworst: python fast {fmt(worst['python fast'])}, prolog fast {fmt(worst['prolog fast'])}")


def scaling_section(runs: dict[str, Callable[[Board, int], Found]]) -> str:
    """Median count-to-2 time per size (3 generated puzzles each) for every back end."""
    sizes = (5, 6, 8, 10, 12, 15)
    families = {size: generated(size, size, range(100, 103)) for size in sizes}
    rows = []
    for name, solver in runs.items():
        cells = [name]
        for size in sizes:
            if name == "kanren" and size > KANREN_SIZE:
                cells.append("-")
                continue
            times, unknown = family_times(solver, families[size])
            cells.append(fmt(statistics.median(times)) + (f" ({unknown}?)" if unknown else ""))
        rows.append(cells)
    return ("scaling: median count<=2 over 3 generated unique puzzles per size; (k?) = k hit the budget; "
            f"kanren only up to {KANREN_SIZE}x{KANREN_SIZE}\n"
            + render_table(["back end"] + [f"{s}x{s}" for s in sizes], rows))


def long_section(runs: dict[str, Callable[[Board, int], Found]]) -> str:
    """The long thin boards: first solution (and count<=2 for the unique ones) on each back end."""
    rows = []
    for path in sorted((DATA / "long").glob("*.txt")):
        board = model.load(path)
        limit = 2 if path.name.startswith("unique") else 1
        cells = [f"{path.stem} ({board.size} cells, {len(board.givens)} givens, {'count<=2' if limit == 2 else 'first'})"]
        for name, solver in runs.items():
            seconds, status = timed(solver, board, limit)
            cells.append(fmt(seconds) + ("" if status == "solved" else f" {status}"))
        rows.append(cells)
    return "long thin boards\n" + render_table(["board"] + list(runs), rows)


def main() -> None:
    """Run every section and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=20, help="generated 15x15 puzzles to time")
    parser.add_argument("--budget", type=float, default=10.0, help="time budget per solve, seconds")
    args = parser.parse_args()
    runs = solvers(args.budget)
    runs["prolog fast"](model.load(DATA / "sample.txt"), 1)  # start SWI-Prolog once
    runs["prolog clpfd"](model.load(DATA / "sample.txt"), 1)  # and load library(clpfd)
    for section in (lambda: sample_section(runs), lambda: shipped_section(runs), lambda: big_section(runs, args.puzzles),
                    lambda: long_section(runs), lambda: scaling_section(runs)):
        print(section(), end="\n\n", flush=True)


if __name__ == "__main__":
    main()
