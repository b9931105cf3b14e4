"""Hidato benchmark: per-back-end times and ratios, measured in one run (not a test).

    .venv/bin/python bench/hidato.py [--puzzles 20] [--budget 20] [--kanren-budget 2] [--only public]

Sections: the 8-row sample on every back end and strategy; every shipped
board on the fast strategies; the public set (data/hidato/public/, puzzles
published by others) on the fast strategies and miniKanren; generated 15x15
rectangular puzzles with unique solutions (solve and prove unique, count to
2); how each back end scales with the board size; the long thin boards.
Times are wall seconds on this machine, except the public set's, which are
CPU seconds (Prolog runs in this process, so they count its work too, and
another job on the machine does not); Prolog is warmed up first (its
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

from pysolve import bridge
from pysolve.budget import Budget
from pysolve.hidato import generate, kanren, model, prolog, python
from pysolve.hidato.model import Board, Question
from pysolve.paths import data_dir
from pysolve.puzzle import SOLVED, UNKNOWN, Found
from pysolve.report import render_table

DATA = data_dir() / "hidato"
KANREN_SIZE = 6  # beyond this miniKanren's walk spends its whole budget
PUBLIC_RUNS = 5  # the public set's times are the median of this many CPU-timed calls


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


def cpu_timed(solver: Callable[[Board, int], Found], board: Board, limit: int,
              runs: int = 1) -> tuple[float, Found]:
    """(median CPU seconds over `runs` calls, the last call's answer)."""
    times = []
    for _ in range(runs):
        started = time.process_time()
        found = solver(board, limit)
        times.append(time.process_time() - started)
    return statistics.median(times), found


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


def public_section(runs: dict[str, Callable[[Board, int], Found]], kanren_budget: float) -> str:
    """The public set: count<=2 and first solution on Python and Prolog fast (median CPU time), the count,
    miniKanren's count<=2 under its own budget; then each source's median and worst."""
    names = ("python fast", "prolog fast")
    ask_kanren = solvers(kanren_budget)["kanren"]
    rows, counts = [], {}  # counts: puzzle -> back end -> count<=2 seconds
    for path in sorted((DATA / "public").glob("*.txt")):
        board = model.load(path)
        counted, first = {}, {}
        for name in names:
            counted[name], found = cpu_timed(runs[name], board, 2, PUBLIC_RUNS)
            first[name], _ = cpu_timed(runs[name], board, 1, PUBLIC_RUNS)
        kanren_seconds, by_kanren = cpu_timed(ask_kanren, board, 2)
        counts[path.stem] = counted
        rows.append([f"{path.stem} ({board.size} cells, {len(board.givens)} givens)",
                     str(found.count) if found.status == SOLVED else found.status,
                     fmt(counted["python fast"]), fmt(counted["prolog fast"]),
                     f"{counted['prolog fast'] / counted['python fast']:.1f}x",
                     fmt(first["python fast"]), fmt(first["prolog fast"]),
                     fmt(kanren_seconds) + (f" ({by_kanren.count})" if by_kanren.status == SOLVED
                                            else f" {by_kanren.status}")])
    sources: dict[str, list[str]] = {}
    for stem in counts:
        sources.setdefault(stem.split("_")[0], []).append(stem)
    summary = [source_row(source, [counts[stem] for stem in stems], names) for source, stems in sources.items()]
    summary.append(source_row("all", list(counts.values()), names))
    worst = {name: max(counts, key=lambda stem: counts[stem][name]) for name in names}
    ahead = sum(counted["python fast"] < counted["prolog fast"] for counted in counts.values())
    return (f"the public set (data/hidato/public), count<=2 and first solution, median CPU time of {PUBLIC_RUNS}; "
            f"kanren: one count<=2 within {kanren_budget:g} s, (k) = its count\n"
            + render_table(["puzzle", "count<=2", "python fast", "prolog fast", "prolog / python",
                            "python first", "prolog first", "kanren"], rows)
            + "\n\nthe public set by source, count<=2\n"
            + render_table(["source", "puzzles", "python median", "python worst", "prolog median", "prolog worst",
                            "prolog / python"], summary)
            + "\nworst: " + ", ".join(f"{name} {fmt(counts[worst[name]][name])} ({worst[name]})" for name in names)
            + f"; python ahead on {ahead} of {len(counts)}")


def source_row(source: str, puzzles: list[dict[str, float]], names: tuple[str, ...]) -> list[str]:
    """One source's line: how many puzzles, each back end's median and worst, the range of the ratio."""
    cells = [source, str(len(puzzles))]
    for name in names:
        spent = [counted[name] for counted in puzzles]
        cells += [fmt(statistics.median(spent)), fmt(max(spent))]
    ratios = [counted["prolog fast"] / counted["python fast"] for counted in puzzles]
    return cells + [f"{min(ratios):.1f}x to {max(ratios):.1f}x"]


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
        asked = "count<=2" if limit == 2 else "first"
        cells = [f"{path.stem} ({board.size} cells, {len(board.givens)} givens, {asked})"]
        for solver in runs.values():
            seconds, status = timed(solver, board, limit)
            cells.append(fmt(seconds) + ("" if status == "solved" else f" {status}"))
        rows.append(cells)
    return "long thin boards\n" + render_table(["board"] + list(runs), rows)


def main() -> None:
    """Run every section and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=20, help="generated 15x15 puzzles to time")
    parser.add_argument("--budget", type=float, default=10.0, help="time budget per solve, seconds")
    parser.add_argument("--kanren-budget", type=float, default=2.0,
                        help="miniKanren's time budget per public puzzle, seconds")
    parser.add_argument("--only", choices=("sample", "shipped", "public", "big", "long", "scaling"),
                        help="print this section only")
    args = parser.parse_args()
    runs = solvers(args.budget)
    runs["prolog fast"](model.load(DATA / "sample.txt"), 1)  # start SWI-Prolog once
    runs["prolog clpfd"](model.load(DATA / "sample.txt"), 1)  # and load library(clpfd)
    sections = {"sample": lambda: sample_section(runs), "shipped": lambda: shipped_section(runs),
                "public": lambda: public_section(runs, args.kanren_budget),
                "big": lambda: big_section(runs, args.puzzles), "long": lambda: long_section(runs),
                "scaling": lambda: scaling_section(runs)}
    for name, section in sections.items():
        if args.only in (None, name):
            print(section(), end="\n\n", flush=True)


if __name__ == "__main__":
    main()
