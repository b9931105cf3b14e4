"""Sudoku benchmark: per-back-end times and ratios, measured in one run (not a test).

    .venv/bin/python bench/sudoku.py [--budget 10]

    .venv/bin/python bench/sudoku.py --sections norvig,cpsat

Sections (`--sections`, default all): `hard`, the hard 9x9 set (Norvig's
top95 and hardest, 106 puzzles) on the propagating search in Python and
Prolog and on Prolog's CLP(FD), first solution and proved unique, against
the targets; `easy`, the easy puzzles on every back end and strategy;
`sixteen`, the 16x16 puzzles; `many`, counting every solution of open
boards (thousands to hundreds of thousands); `plain`, the plain strategies
and miniKanren on a few hard puzzles, cut at a short budget; `norvig`,
Python's fast search against a Norvig-style solver (his essay's eliminate
and assign on strings of digits) on the hard set, first solution; `cpsat`,
the fast search in Python and Prolog against OR-tools CP-SAT with one
worker on 16x16 (the shipped puzzles and `--generated` ones), first
solution and count<=2 (skipped when ortools is not installed: `pip install
-e '.[peers]'`). Times are wall seconds on this machine (the counts, the
`norvig` and `cpsat` sections CPU seconds, each the median of `--runs`
calls); Prolog is warmed up first (its one-time start-up is not counted),
and so is CP-SAT.
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
from pysolve.sudoku import generate, kanren, model, prolog, python
from pysolve.sudoku.model import Board, Question

DATA = data_dir() / "sudoku"
SECTIONS = ("hard", "easy", "sixteen", "many", "plain", "norvig", "cpsat")
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


# --- a Norvig-style solver: Peter Norvig's "Solving Every Sudoku Puzzle", his representation and rules ----------

DIGITS = "123456789"
SQUARES = [row + col for row in "ABCDEFGHI" for col in DIGITS]
UNITLIST = ([[row + col for row in "ABCDEFGHI"] for col in DIGITS]
            + [[row + col for col in DIGITS] for row in "ABCDEFGHI"]
            + [[row + col for row in rows for col in cols] for rows in ("ABC", "DEF", "GHI")
               for cols in ("123", "456", "789")])
UNITS = {square: [unit for unit in UNITLIST if square in unit] for square in SQUARES}
PEERS = {square: {peer for unit in UNITS[square] for peer in unit} - {square} for square in SQUARES}
Values = dict[str, str]  # square -> the digits it may still hold


def norvig_solve(board: Board) -> Values | None:
    """The first solution of a 9x9 board, or None: the givens assigned, then the search."""
    values = dict.fromkeys(SQUARES, DIGITS)
    for square, given in zip(SQUARES, board.cells):
        if given and not norvig_assign(values, square, str(given)):
            return None
    return norvig_search(values)


def norvig_assign(values: Values, square: str, digit: str) -> bool:
    """Every other digit leaves `square`; False on a contradiction."""
    return all(norvig_eliminate(values, square, other) for other in values[square].replace(digit, ""))


def norvig_eliminate(values: Values, square: str, digit: str) -> bool:
    """`digit` leaves `square`: one left leaves the peers, a digit with one place in a unit goes there."""
    if digit not in values[square]:
        return True
    values[square] = values[square].replace(digit, "")
    if not values[square]:
        return False
    if len(values[square]) == 1 and not all(norvig_eliminate(values, peer, values[square]) for peer in PEERS[square]):
        return False
    for unit in UNITS[square]:
        places = [place for place in unit if digit in values[place]]
        if not places or (len(places) == 1 and not norvig_assign(values, places[0], digit)):
            return False
    return True


def norvig_search(values: Values) -> Values | None:
    """Depth first from the square with the fewest digits, on a copy per digit."""
    if all(len(values[square]) == 1 for square in SQUARES):
        return values
    _, square = min((len(values[square]), square) for square in SQUARES if len(values[square]) > 1)
    for digit in values[square]:
        trial = values.copy()
        if norvig_assign(trial, square, digit):
            found = norvig_search(trial)
            if found:
                return found
    return None


def cpu_median(runs: int, call: Callable[..., object], *args: object) -> tuple[float, object]:
    """The median CPU seconds of `runs` calls of `call(*args)`, and the last call's answer."""
    spent, answer = [], None
    for _ in range(runs):
        started = time.process_time()
        answer = call(*args)
        spent.append(time.process_time() - started)
    return statistics.median(spent), answer


def norvig_measure(fast: Solver, repeats: int) -> tuple[dict[str, float], list[float]]:
    """Python's fast search and the Norvig-style solver on the hard set, first solution: each one's total CPU
    seconds (median of `repeats` calls a puzzle) and, per puzzle, Norvig-style's time over Python's. The two
    solutions are checked to be the same."""
    boards = model.load(DATA / "top95.txt") + model.load(DATA / "hardest.txt")
    totals = {"python fast": 0.0, "Norvig-style": 0.0}
    ratios = []
    for board in boards:
        ours, found = cpu_median(repeats, fast, board, 1)
        theirs, values = cpu_median(repeats, norvig_solve, board)
        assert isinstance(found, Found) and isinstance(values, dict)
        assert [int(values[square]) for square in SQUARES] == [v for row in found.solutions[0] for v in row]
        totals["python fast"] += ours
        totals["Norvig-style"] += theirs
        ratios.append(theirs / ours)
    return totals, ratios


def norvig_section(runs: dict[str, Solver], repeats: int) -> str:
    """Python's fast search against the Norvig-style solver on the hard set, first solution, CPU seconds."""
    totals, ratios = norvig_measure(runs["python fast"], repeats)
    ratio = totals["Norvig-style"] / totals["python fast"]
    rows = [[name, fmt(total / len(ratios)), fmt(total)] for name, total in totals.items()]
    return (f"first solution of the hard set ({len(ratios)} puzzles), CPU seconds (median of {repeats} calls each), "
            "the same solutions\n" + render_table(["solver", "mean", "total"], rows)
            + f"\nNorvig-style / python fast: {ratio:.2f}x in all, {statistics.median(ratios):.2f}x at the median "
              f"puzzle, {min(ratios):.2f}x at worst; at least 5x: {verdict(ratio >= 5)}")


# --- OR-tools CP-SAT on 16x16 ---------------------------------------------------------------------------------------


def sixteens(seeds: range) -> list[tuple[str, Board]]:
    """The shipped 16x16 puzzles and those `pysolve generate sudoku --size 16 --seed N` makes for `seeds`."""
    shipped = [(f"sixteen.txt #{k}", board) for k, board in enumerate(model.load(DATA / "sixteen.txt"), start=1)]
    made = [(f"seed {seed}", model.make_board(generate.generate(16, seed)["puzzle"])) for seed in seeds]
    return shipped + made


CPSAT_NAMES = ("python fast", "prolog fast", "CP-SAT")
QUESTIONS = {1: "first", 2: "count<=2"}  # the limits asked, by name


def cpsat_measure(runs: dict[str, Solver], puzzles: list[tuple[str, Board]], repeats: int,
                  budget: float) -> dict[int, dict[str, list[float]]]:
    """The fast search in Python and Prolog and CP-SAT (one worker) on `puzzles`, first solution and count<=2:
    per limit, each solver's CPU seconds per puzzle (median of `repeats` calls), the counts checked to agree.
    ImportError when OR-tools is not installed."""
    from peers import cpsat_solvers
    cpsat = cpsat_solvers(budget)["sudoku"]
    cpsat(puzzles[0][1], 1)  # load OR-tools once
    spent: dict[int, dict[str, list[float]]] = {}
    for limit in QUESTIONS:
        spent[limit] = {name: [] for name in CPSAT_NAMES}
        for label, board in puzzles:
            counts = set()
            for name in CPSAT_NAMES:
                seconds, answer = cpu_median(repeats, cpsat if name == "CP-SAT" else runs[name], board, limit)
                spent[limit][name].append(seconds)
                counts.add(len(answer) if isinstance(answer, list) else len(answer.solutions))
            assert len(counts) == 1, f"{label}: counts differ {counts}"
    return spent


def cpsat_section(runs: dict[str, Solver], puzzles: list[tuple[str, Board]], repeats: int, budget: float) -> str:
    """The fast search in Python and Prolog against CP-SAT (one worker) on 16x16: CPU seconds, ratios."""
    try:
        spent = cpsat_measure(runs, puzzles, repeats, budget)
    except ImportError as error:
        return f"16x16 against CP-SAT: skipped, {error} (pip install -e '.[peers]')"
    rows, summary = [], []
    for limit, question in QUESTIONS.items():
        times = spent[limit]
        for k, (label, _) in enumerate(puzzles):
            rows.append([label, question] + [fmt(times[name][k]) for name in CPSAT_NAMES]
                        + [f"{times[name][k] / times['CP-SAT'][k]:.2f}x" for name in CPSAT_NAMES[:2]])
        for name in CPSAT_NAMES[:2]:
            ratios = [ours / theirs for ours, theirs in zip(times[name], times["CP-SAT"])]
            ratio = sum(times[name]) / sum(times["CP-SAT"])
            summary.append(f"{name} / CP-SAT, {question}: {ratio:.2f}x in all, "
                           f"{statistics.median(ratios):.2f}x at the median puzzle, {max(ratios):.2f}x at worst; "
                           f"within 2x in all: {verdict(ratio <= 2)}")
    return (f"16x16 against CP-SAT (one worker), CPU seconds (median of {repeats} calls each), every count agreed\n"
            + render_table(["puzzle", "question", *CPSAT_NAMES, "python / CP-SAT", "prolog / CP-SAT"], rows)
            + "\n" + "\n".join(summary))


def main() -> None:
    """Run every section and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=10.0, help="time budget per solve, seconds")
    parser.add_argument("--plain-budget", type=float, default=2.0,
                        help="time budget per solve of the plain strategies and miniKanren on hard puzzles")
    parser.add_argument("--count-budget", type=float, default=120.0,
                        help="time budget of each count of every solution of an open board")
    parser.add_argument("--sections", default=",".join(SECTIONS),
                        help=f"the sections to run, comma-separated, of {', '.join(SECTIONS)}")
    parser.add_argument("--runs", type=int, default=5, help="calls per puzzle in the norvig and cpsat sections")
    parser.add_argument("--generated", type=int, default=10,
                        help="16x16 puzzles generated for the cpsat section (seeds 4 on)")
    args = parser.parse_args()
    runs = solvers(args.budget)
    runs["prolog fast"](model.load(DATA / "easy.txt")[0], 1)  # start SWI-Prolog once
    runs["prolog clpfd"](model.load(DATA / "easy.txt")[0], 1)  # and load library(clpfd)
    sections = {"hard": lambda: hard_section(runs), "easy": lambda: easy_section(runs),
                "sixteen": lambda: sixteen_section(runs), "many": lambda: many_section(args.count_budget),
                "plain": lambda: plain_section(args.plain_budget), "norvig": lambda: norvig_section(runs, args.runs),
                "cpsat": lambda: cpsat_section(runs, sixteens(range(4, 4 + args.generated)), args.runs, args.budget)}
    for name in args.sections.split(","):
        if name not in sections:
            parser.error(f"--sections: {name!r} is not one of {', '.join(SECTIONS)}")
        print(sections[name](), end="\n\n", flush=True)


if __name__ == "__main__":
    main()
