"""pysolve against the solvers a user would otherwise pick, in one run, and the table of targets (not a test).

    .venv/bin/python bench/peers.py [--seconds 10] [--runs 3] [--target-seconds 600]
                                    [--only queens,send,sudoku,hidato,sudoku-fast,tangram,squares]

First pysolve's finite domains: `pysolve.fd` on miniKanren, the N-queens
and SEND+MORE relations of docs/guide.md, the kanren back ends of Sudoku
and Hidato as `pysolve solve --backend kanren` runs them. The peers, each
skipped (and said so) when it is not installed (`pip install -e
'.[peers]'`): python-constraint, the pure-Python constraint solver, with
the models its own documentation shows (all-different plus a function
constraint per pair of queens or of consecutive Hidato numbers, SEND+MORE
column by column); and OR-tools CP-SAT with one worker.

Families: N-queens N=6..10, every solution; SEND+MORE, every solution; the
hard 9x9 Sudoku (data/sudoku/hardest.txt) and Hidato boards (shipped and
public; easy: at most 49 cells, hard: more), each counted up to 2. Figures
are CPU seconds of this process (`time.process_time`: CP-SAT's one worker
runs in it) per call: the median of `--runs` samples when the first took
under a second, a sample repeating a quicker call for 0.2 s and taking the
mean; each call stopped at `--seconds`. Every answer is checked (Sudoku
and Hidato grids against the rules) and the solvers' counts compared. A
ratio is pysolve's time over the peer's: under 1, pysolve is faster.

Then the table of targets, a row each, met or NOT MET with the reason
measured in the same run (each call stopped at `--target-seconds`):
- the families above against python-constraint: at least as fast at the
  median, within 2x on every instance;
- `sudoku-fast`: Python's fast search at least 5x a Norvig-style solver
  on top95 + hardest (first solutions, the same ones), and Python's and
  Prolog's within 2x CP-SAT on 16x16 (the shipped puzzles and ten
  generated ones; first solution and count<=2): bench/sudoku.py's
  measurements, the median of `--runs` calls a puzzle;
- `tangram`: kanren's count within 20x Python's on generated boards up to
  20x20 with 14 pieces (seeds 1-3 of 12x12/9, 16x16/12 and 20x20/14 with
  sides of at least 2 and distinct sizes, and of 20x20/14 with any
  pieces; the counts compared), and the default search's first tiling of
  50 generated boards (16x16 to 24x24, 12 pieces, seeds 0-49; the same
  tiling on both) within a second each on Python and Prolog;
- `squares`: Owen's 6x6 count on kanren under 15 s (the count compared
  with Python's and Prolog's). Where it is not, the reason: the cells the
  count labels and its CPU a cell against what 15 s allows, and, on the
  first part of the count's split, the block tables' runs a cell, their
  time each and their share of a cell's.
The longest rows are Owen's count on kanren and the tangram counts; a
whole run's time is in docs/bench.md, "The table of targets".
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pysolve import cli, fd
from pysolve import minikanren as mk
from pysolve.backends import available
from pysolve.bounded import call_bounded
from pysolve.budget import Budget
from pysolve.errors import SearchLimitExceeded
from pysolve.hidato import kanren as hidato_kanren
from pysolve.hidato import model as hidato
from pysolve.paths import data_dir
from pysolve.report import render_table
from pysolve.sudoku import kanren as sudoku_kanren
from pysolve.sudoku import model as sudoku

PYSOLVE, CONSTRAINT, CPSAT = "pysolve fd", "python-constraint", "CP-SAT"
PEER_MODULES = {CONSTRAINT: "constraint", CPSAT: "ortools.sat.python.cp_model"}  # a peer runs when its module imports
QUEENS = range(6, 11)
EASY_CELLS = 49  # Hidato boards of at most this many cells are easy
SEND = "SEND MORE MONEY"
REPEAT_UNDER = 1.0  # CPU seconds: a call this quick is sampled `--runs` times, the median kept
SAMPLE = 0.2  # CPU seconds: a sample repeats a quicker call this long (the CPU clock of a busy machine moves in
# steps of milliseconds) and takes the mean

Solutions = list[tuple[int, ...]]  # what a solver found, each solution as a tuple of values
Solver = Callable[[Any, int], Solutions]  # (instance, how many to find at most: 0 every one) -> solutions


# ---------------------------------------------------------------------------------------------------------
# The families: name, the model its instances share (kind), the instances (label, data), how many solutions
# each asks for (0: every one)

Family = tuple[str, str, list[tuple[str, Any]], int]


def families() -> list[Family]:
    """Every family with its instances."""
    boards = [(path.stem, hidato.load(path)) for folder in ("hidato", "hidato/public")
              for path in sorted((data_dir() / folder).glob("*.txt"))]
    hard_sudoku = sudoku.load(data_dir() / "sudoku" / "hardest.txt")
    return [("N-queens, all", "queens", [(f"N={n}", n) for n in QUEENS], 0),
            ("SEND+MORE, all", "send", [(SEND, SEND)], 0),
            ("Sudoku 9x9 hard, count<=2", "sudoku", [(f"hardest #{k}", b) for k, b in enumerate(hard_sudoku, 1)], 2),
            ("Hidato easy, count<=2", "hidato", [(name, b) for name, b in boards if b.size <= EASY_CELLS], 2),
            ("Hidato hard, count<=2", "hidato", [(name, b) for name, b in boards if b.size > EASY_CELLS], 2)]


def valid(kind: str, instance: Any, solution: tuple[int, ...]) -> bool:
    """Whether a solution keeps the rules (the one answer of SEND+MORE; queens never attacking)."""
    if kind == "queens":
        n = len(solution)
        return n == instance and all(len({f(r, c) for r, c in enumerate(solution)}) == n
                                     for f in (lambda r, c: c, lambda r, c: c + r, lambda r, c: c - r))
    if kind == "send":
        s, e, n, d, m, o, r, y = solution
        return m > 0 < s and len(set(solution)) == 8 and \
            (1000 * s + 100 * e + 10 * n + d) + (1000 * m + 100 * o + 10 * r + e) == \
            10000 * m + 1000 * o + 100 * n + 10 * e + y
    if kind == "sudoku":
        return sudoku.solves(instance, instance.rows(list(solution)))
    return hidato.solves(instance, instance.grid(list(solution)))


# ---------------------------------------------------------------------------------------------------------
# pysolve: the relations on pysolve.fd

def queens(n: int) -> tuple[mk.Goal, list[Any]]:
    """N-queens (docs/guide.md): a column per row, all different, and so are both diagonals' numbers."""
    columns = [mk.var() for _ in range(n)]
    rising, falling = [mk.var() for _ in range(n)], [mk.var() for _ in range(n)]
    diagonals = [mk.conj(fd.plusfd(c, row, rising[row]), fd.plusfd(c, n - row, falling[row]))
                 for row, c in enumerate(columns)]
    return mk.conj(fd.infd(columns, range(n)), fd.distinctfd(columns), *diagonals,
                   fd.distinctfd(rising), fd.distinctfd(falling), fd.labelfd(columns)), columns


def send_more_money() -> tuple[mk.Goal, list[Any]]:
    """SEND + MORE = MONEY (docs/guide.md): different digits, no leading zero, the sum as one equation."""
    s, e, n, d, m, o, r, y = letters = [mk.var() for _ in range(8)]
    money = fd.linearfd([1000, 100, 10, 1, 1000, 100, 10, 1, -10000, -1000, -100, -10, -1],
                        [s, e, n, d, m, o, r, e, m, o, n, e, y], 0)
    return mk.conj(fd.infd(letters, range(10)), fd.distinctfd(letters), fd.neqfd(s, 0), fd.neqfd(m, 0),
                   money, fd.labelfd(letters)), letters


def pysolve_run(relation: tuple[mk.Goal, list[Any]], limit: int) -> Solutions:
    """The answers of a relation (goal, its variables)."""
    goal, variables = relation
    return [tuple(answer) for answer in mk.run(goal, variables, limit)]


def pysolve_sudoku(board: sudoku.Board, limit: int) -> Solutions:
    """The kanren back end's answer, as `pysolve solve sudoku --backend kanren --count 2` gets it."""
    found = sudoku_kanren.solve(sudoku.Question(board, "bench", limit), Budget())
    return [tuple(value for row in grid for value in row) for grid in found.solutions]


def pysolve_hidato(board: hidato.Board, limit: int) -> Solutions:
    """The kanren back end's answer, each grid read back as the cell of every number."""
    found = hidato_kanren.solve(hidato.Question(board, "bench", limit), Budget())
    return [cells_of_numbers(board, grid) for grid in found.solutions]


def cells_of_numbers(board: hidato.Board, grid: list[list[int]]) -> tuple[int, ...]:
    """A filled Hidato grid as the open cell of each number 1..N."""
    where = {grid[r][c]: index for index, (r, c) in enumerate(board.cells)}
    return tuple(where[number] for number in range(1, board.size + 1))


PYSOLVE_SOLVERS: dict[str, Solver] = {
    "queens": lambda n, limit: pysolve_run(queens(n), limit),
    "send": lambda _, limit: pysolve_run(send_more_money(), limit),
    "sudoku": pysolve_sudoku, "hidato": pysolve_hidato}


# ---------------------------------------------------------------------------------------------------------
# python-constraint: the models of its documentation

def first(solutions: Iterator[dict[Any, int]], keys: list[Any], limit: int) -> Solutions:
    """Up to `limit` (0: every one) of a python-constraint solution stream, as tuples in the order of `keys`."""
    found = []
    for solution in solutions:
        found.append(tuple(solution[key] for key in keys))
        if len(found) == limit:
            break
    return found


def constraint_queens(n: int, limit: int) -> Solutions:
    """A column per row, all different, and a function constraint per pair of rows for the diagonals."""
    import constraint

    problem = constraint.Problem()
    rows = list(range(n))
    problem.addVariables(rows, rows)
    problem.addConstraint(constraint.AllDifferentConstraint())
    for a in rows:
        for b in rows[a + 1:]:
            problem.addConstraint(lambda x, y, apart=b - a: abs(x - y) != apart, (a, b))
    return first(problem.getSolutionIter(), rows, limit)


def constraint_send(_: Any, limit: int) -> Solutions:
    """The library's own example: the sum column by column, all different."""
    import constraint

    problem = constraint.Problem()
    problem.addVariables("sendmory", range(10))
    problem.addConstraint(lambda s, m: s and m, "sm")
    problem.addConstraint(lambda d, e, y: (d + e) % 10 == y, "dey")
    problem.addConstraint(lambda n, d, r, e, y: (10 * n + d + 10 * r + e) % 100 == 10 * e + y, "ndrey")
    problem.addConstraint(lambda e, n, d, o, r, y: (100 * e + 10 * n + d + 100 * o + 10 * r + e) % 1000
                          == 100 * n + 10 * e + y, "endory")
    problem.addConstraint(lambda s, e, n, d, m, o, r, y: 1000 * s + 100 * e + 10 * n + d + 1000 * m + 100 * o
                          + 10 * r + e == 10000 * m + 1000 * o + 100 * n + 10 * e + y, "sendmory")
    problem.addConstraint(constraint.AllDifferentConstraint())
    return first(problem.getSolutionIter(), list("sendmory"), limit)


def constraint_sudoku(board: sudoku.Board, limit: int) -> Solutions:
    """A variable per cell (its given value, or 1..N), all different in every row, column and box."""
    import constraint

    problem = constraint.Problem()
    cells = list(range(len(board.cells)))
    for cell, value in enumerate(board.cells):
        problem.addVariable(cell, [value] if value else list(range(1, board.size + 1)))
    for unit in board.geometry.all_units:
        problem.addConstraint(constraint.AllDifferentConstraint(), list(unit))
    return first(problem.getSolutionIter(), cells, limit)


def constraint_hidato(board: hidato.Board, limit: int) -> Solutions:
    """A variable per number (its cell), all different, a function constraint per consecutive pair."""
    import constraint

    problem = constraint.Problem()
    given = board.givens
    numbers = list(range(1, board.size + 1))
    for number in numbers:
        problem.addVariable(number, [given[number]] if number in given else list(range(board.size)))
    problem.addConstraint(constraint.AllDifferentConstraint())
    touching = [frozenset(near) for near in board.neighbours]
    for number in numbers[:-1]:
        problem.addConstraint(lambda a, b: b in touching[a], (number, number + 1))
    return first(problem.getSolutionIter(), numbers, limit)


CONSTRAINT_SOLVERS: dict[str, Solver] = {"queens": constraint_queens, "send": constraint_send,
                                         "sudoku": constraint_sudoku, "hidato": constraint_hidato}


# ---------------------------------------------------------------------------------------------------------
# CP-SAT, one worker

def cpsat(build: Callable[[Any], list[Any]], limit: int, seconds: float) -> Solutions:
    """Up to `limit` (0: every one) solutions of the model `build(model)` makes (returning its variables)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    variables = build(model)

    class Collect(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.found: Solutions = []

        def on_solution_callback(self) -> None:
            self.found.append(tuple(self.Value(v) for v in variables))
            if len(self.found) == limit:
                self.StopSearch()

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.max_time_in_seconds = seconds
    collect = Collect()
    status = solver.Solve(model, collect)
    if status == cp_model.UNKNOWN or (status == cp_model.FEASIBLE and len(collect.found) != limit):
        raise SearchLimitExceeded(f"CP-SAT passed its time limit of {seconds:g} s")
    return collect.found


def cpsat_solvers(seconds: float) -> dict[str, Solver]:
    """The CP-SAT models, each stopped at `seconds`."""

    def queens_model(n: int) -> Callable[[Any], list[Any]]:
        def build(model: Any) -> list[Any]:
            columns = [model.NewIntVar(0, n - 1, f"c{row}") for row in range(n)]
            model.AddAllDifferent(columns)
            model.AddAllDifferent([c + row for row, c in enumerate(columns)])
            model.AddAllDifferent([c - row for row, c in enumerate(columns)])
            return columns
        return build

    def send(model: Any) -> list[Any]:
        s, e, n, d, m, o, r, y = letters = [model.NewIntVar(0, 9, letter) for letter in "sendmory"]
        model.AddAllDifferent(letters)
        model.Add(s != 0)
        model.Add(m != 0)
        model.Add(1000 * s + 100 * e + 10 * n + d + 1000 * m + 100 * o + 10 * r + e
                  == 10000 * m + 1000 * o + 100 * n + 10 * e + y)
        return letters

    def sudoku_model(board: sudoku.Board) -> Callable[[Any], list[Any]]:
        def build(model: Any) -> list[Any]:
            cells = [model.NewIntVar(value or 1, value or board.size, f"x{k}") for k, value in enumerate(board.cells)]
            for unit in board.geometry.all_units:
                model.AddAllDifferent([cells[cell] for cell in unit])
            return cells
        return build

    def hidato_model(board: hidato.Board) -> Callable[[Any], list[Any]]:
        def build(model: Any) -> list[Any]:
            given = board.givens
            cells = [model.NewIntVar(given.get(k, 0), given.get(k, board.size - 1), f"n{k}")
                     for k in range(1, board.size + 1)]
            model.AddAllDifferent(cells)
            pairs = [(cell, other) for cell, near in enumerate(board.neighbours) for other in near]
            for a, b in itertools.pairwise(cells):
                model.AddAllowedAssignments([a, b], pairs)
            return cells
        return build

    return {"queens": lambda n, limit: cpsat(queens_model(n), limit, seconds),
            "send": lambda _, limit: cpsat(send, limit, seconds),
            "sudoku": lambda board, limit: cpsat(sudoku_model(board), limit, seconds),
            "hidato": lambda board, limit: cpsat(hidato_model(board), limit, seconds)}


# ---------------------------------------------------------------------------------------------------------
# Measuring

def installed() -> tuple[list[str], list[str]]:
    """The peers whose modules import here, and a line for each that does not."""
    present, absent = [], []
    for peer, module in PEER_MODULES.items():
        try:
            importlib.import_module(module)  # imported here, not in the first call measured
        except ImportError:
            absent.append(f"{peer}: not installed (pip install -e '.[peers]'), skipped")
        else:
            present.append(peer)
    return present, absent


def sample(solver: Solver, instance: Any, limit: int, seconds: float) -> tuple[float, Solutions]:
    """CPU seconds of one call and its solutions; a quick call is repeated until SAMPLE seconds have passed
    and their mean taken (SearchLimitExceeded past `seconds`)."""
    calls, started = 0, time.process_time()
    while True:
        found = call_bounded(lambda: solver(instance, limit), seconds, "the solver")
        calls += 1
        spent = time.process_time() - started
        if spent >= SAMPLE:
            return spent / calls, found


def measured(solver: Solver, instance: Any, limit: int, seconds: float,
             runs: int) -> tuple[float | None, Solutions | None]:
    """(median CPU seconds of `runs` samples, one if the first took over REPEAT_UNDER; the solutions), or
    (None, None) when a call passed `seconds`."""
    times: list[float] = []
    found = None
    try:
        while len(times) < (runs if not times or times[0] < REPEAT_UNDER else 1):
            spent, found = sample(solver, instance, limit, seconds)
            times.append(spent)
    except SearchLimitExceeded:
        return None, None
    return statistics.median(times), found


def ratio(mine: float | None, theirs: float | None) -> float | None:
    """pysolve's time over the peer's; None where either did not finish."""
    return None if mine is None or theirs is None else mine / max(theirs, 1e-6)


def fmt(seconds: float | None, limit: float) -> str:
    """CPU seconds as ms below a second, or '> limit' for a call stopped."""
    if seconds is None:
        return f"> {limit:g} s"
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def times_x(value: float | None) -> str:
    """A ratio as '0.42x' ('-' when there is none)."""
    return "-" if value is None else f"{value:.2f}x"


def family_rows(family: Family, solvers: dict[str, Solver], seconds: float,
                runs: int) -> tuple[list[list[str]], dict[str, list[float | None]], list[str]]:
    """One family measured: a row per instance, each solver's times, and any disagreement or bad answer."""
    name, kind, cases, limit = family
    times: dict[str, list[float | None]] = {peer: [] for peer in solvers}
    rows, problems = [], []
    for label, instance in cases:
        counts, row = {}, [label]
        for peer, solver in solvers.items():
            spent, found = measured(solver, instance, limit, seconds, runs)
            times[peer].append(spent)
            if found is not None:
                counts[peer] = len(found)
                problems += [f"{name} {label}: {peer} gave a wrong answer {s}" for s in found
                             if not valid(kind, instance, s)][:1]
            row.append(fmt(spent, seconds))
        if len(set(counts.values())) > 1:
            problems.append(f"{name} {label}: the counts differ: {counts}")
        row.append(str(next(iter(counts.values()), "-")))
        row += [times_x(ratio(times[PYSOLVE][-1], times[peer][-1])) for peer in solvers if peer != PYSOLVE]
        rows.append(row)
        print(" ".join(row), file=sys.stderr, flush=True)  # progress: a long run shows where it is
    return rows, times, problems


def median_time(times: list[float | None], seconds: float) -> float:
    """The median of a solver's times over a family, a call stopped counting as the limit."""
    return statistics.median(seconds if t is None else t for t in times)


def family_ratios(times: dict[str, list[float | None]], peer: str, seconds: float) -> tuple[float, float | None]:
    """pysolve's ratio to `peer` over a family: of the medians, and the worst of the instances both solved."""
    both = [ratio(mine, theirs) for mine, theirs in zip(times[PYSOLVE], times[peer])]
    worst = max((r for r in both if r is not None), default=None)
    return median_time(times[PYSOLVE], seconds) / max(median_time(times[peer], seconds), 1e-6), worst


def summary_row(name: str, times: dict[str, list[float | None]], seconds: float) -> list[str]:
    """A family's medians (a call stopped counts as the limit), solved counts, and pysolve's ratios to each peer:
    of the medians, and the worst of the instances both solved."""
    cases = len(times[PYSOLVE])
    row = [name, str(cases)]
    for peer in times:
        solved = sum(t is not None for t in times[peer])
        row.append(f"{fmt(median_time(times[peer], seconds), seconds)} ({solved}/{cases})")
    for peer in times:
        if peer != PYSOLVE:
            row += [times_x(value) for value in family_ratios(times, peer, seconds)]
    return row


# ---------------------------------------------------------------------------------------------------------
# The table (issue 39): each target measured in this run, met or the measured reason it is not.
# The rows beyond python-constraint take their measurements from the benches that own them (bench/sudoku.py,
# bench/fd_squares.py) or measure here what no bench did (tangram's counts and first tilings).

Target = list[str]  # family, pysolve's side, the peer, what was measured, the target, the verdict
TARGET_HEADER = ["family", "pysolve", "peer", "measured", "target", "verdict"]
NORVIG_AT_LEAST = 5.0  # Python's fast search against the Norvig-style solver, first solutions, at least this
CPSAT_WITHIN = 2.0  # 16x16 Sudoku, Python's and Prolog's fast search within this of CP-SAT
TANGRAM_WITHIN = 20.0  # kanren's tangram counts within this of Python's
TANGRAM_COUNTS = ((12, 9, True), (16, 12, True), (20, 14, True), (20, 14, False))  # side, pieces, sides >= 2
TANGRAM_FIRST = 1.0  # CPU seconds: each of the 50 generated boards' first tiling within this
OWEN_UNDER = 15.0  # CPU seconds: Owen's 6x6 count on kanren under this
MET, NOT_MET = "met", "NOT MET"


def verdict(ok: bool, reason: str = "") -> str:
    """'met', or 'NOT MET' with the measured reason."""
    return MET if ok else f"{NOT_MET}: {reason}" if reason else NOT_MET


def fd_targets(measured: dict[str, dict[str, list[float | None]]], seconds: float) -> list[Target]:
    """pysolve.fd at least as fast as python-constraint at each family's median, within 2x on every instance."""
    rows = []
    for name, times in measured.items():
        if CONSTRAINT not in times:
            rows.append([name, "kanren (pysolve.fd)", CONSTRAINT, "python-constraint not installed",
                         "median <= 1x, every instance <= 2x", "not measured (pip install -e '.[peers]')"])
            continue
        at_median, worst = family_ratios(times, CONSTRAINT, seconds)
        unsolved = sum(t is None for t in times[PYSOLVE])
        ok = at_median <= 1 and worst is not None and worst <= 2 and not unsolved
        rows.append([name, "kanren (pysolve.fd)", CONSTRAINT,
                     f"median {times_x(at_median)}, worst {times_x(worst)}"
                     + (f", {unsolved} stopped at {seconds:g} s" if unsolved else ""),
                     "median <= 1x, every instance <= 2x", verdict(ok, "slower than the peer")])
    return rows


def sudoku_targets(seconds: float, runs: int) -> list[Target]:
    """Python's fast search at least 5x the Norvig-style solver on top95 + hardest (first solutions); on 16x16,
    Python and Prolog within 2x CP-SAT (one worker), the shipped puzzles and ten generated ones."""
    import sudoku as sudoku_bench  # bench/sudoku.py

    solvers = sudoku_bench.solvers(seconds)
    totals, ratios = sudoku_bench.norvig_measure(solvers["python fast"], runs)
    overall = totals["Norvig-style"] / totals["python fast"]
    rows = [["Sudoku 9x9 first solutions, top95 + hardest", "python", "a Norvig-style solver",
             f"{overall:.2f}x faster in all (median puzzle {statistics.median(ratios):.2f}x)",
             f">= {NORVIG_AT_LEAST:g}x", verdict(overall >= NORVIG_AT_LEAST, "slower than the target")]]
    solvers["prolog fast"](sudoku.load(data_dir() / "sudoku" / "easy.txt")[0], 1)  # start SWI-Prolog first
    puzzles = sudoku_bench.sixteens(range(4, 14))
    try:
        spent = sudoku_bench.cpsat_measure(solvers, puzzles, runs, seconds)
    except ImportError as error:
        return rows + [["Sudoku 16x16", "python, prolog", "CP-SAT, one worker", f"{error}",
                        f"<= {CPSAT_WITHIN:g}x", "not measured (pip install -e '.[peers]')"]]
    for limit, question in sudoku_bench.QUESTIONS.items():
        for name in ("python fast", "prolog fast"):
            times = spent[limit]
            overall = sum(times[name]) / sum(times["CP-SAT"])
            rows.append([f"Sudoku 16x16 {question}, {len(puzzles)} puzzles", name.split()[0], "CP-SAT, one worker",
                         f"{times_x(overall)} in all", f"<= {CPSAT_WITHIN:g}x",
                         verdict(overall <= CPSAT_WITHIN, "slower than the target")])
    return rows


def cpu(call: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of one call, and its result."""
    started = time.process_time()
    result = call()
    return time.process_time() - started, result


def tangram_targets(seconds: float) -> list[Target]:
    """kanren's count of tangram boards up to 20x20 with 14 pieces within 20x Python's (seeds 1-3 of each size,
    pieces with sides of at least 2 and distinct sizes, and 20x20 with any pieces), and the default search's
    first tiling of 50 generated boards (16x16 to 24x24, 12 pieces) within a second each on Python and Prolog."""
    from pysolve.answers import UNKNOWN
    from pysolve.tangram.generate import generate
    from pysolve.tangram.model import Question as TangramQuestion
    from pysolve.tangram.puzzle import PUZZLE as TANGRAM

    def solve(instance: Any, mode: str, backend: str) -> tuple[float, Any]:
        question = TangramQuestion(instance, mode, seconds=seconds)
        spent, found = cpu(lambda: TANGRAM.backend_module(backend).solve(question, TANGRAM.budget(question)))
        return spent if found.status != UNKNOWN else None, found

    rows = []
    for side, pieces, apart in TANGRAM_COUNTS:
        ratios, counts = [], []
        for seed in (1, 2, 3):
            board = generate(side, side, pieces, seed, min_side=2 if apart else 1, distinct=apart)
            (python_time, python), (kanren_time, kanren) = solve(board, "count", "python"), solve(board, "count",
                                                                                               "kanren")
            if python_time is not None and kanren_time is not None and python.count != kanren.count:
                raise SystemExit(f"tangram {side}x{side} seed {seed}: python counts {python.count}, "
                                 f"kanren {kanren.count}")
            counts.append(python.count)
            ratios.append(ratio(kanren_time, python_time))
            print(f"tangram {side}x{side}/{pieces} seed {seed}: {counts[-1]} tilings, kanren/python "
                  f"{times_x(ratios[-1])}", file=sys.stderr, flush=True)
        finished = [r for r in ratios if r is not None]
        worst = max(finished, default=None)
        ok = len(finished) == len(ratios) and worst is not None and worst <= TANGRAM_WITHIN
        rows.append([f"tangram {side}x{side}/{pieces}{' sides >= 2, distinct' if apart else ''} counts, seeds 1-3",
                     "kanren", "python", f"{times_x(min(finished, default=None))} .. {times_x(worst)}"
                     + ("" if len(finished) == len(ratios) else f", {len(ratios) - len(finished)} unfinished"),
                     f"<= {TANGRAM_WITHIN:g}x", verdict(ok, "slower than the target")])
    backends = ["python", "prolog"] if available("prolog") else ["python"]
    slowest = dict.fromkeys(backends, (0.0, ""))
    unfinished: dict[str, list[str]] = {backend: [] for backend in backends}
    for seed in range(50):
        side = 16 + 2 * (seed % 5)
        board, label = generate(side, side, 12, seed), f"{side}x{side} seed {seed}"
        tilings = set()
        for backend in backends:
            spent, found = solve(board, "first", backend)
            if spent is None:
                unfinished[backend].append(label)
                continue
            tilings.add(repr(found.solutions))
            slowest[backend] = max(slowest[backend], (spent, label))
        if len(tilings) > 1:
            raise SystemExit(f"tangram {label}: the back ends' first tilings differ")
    for backend in backends:
        spent, label = slowest[backend]
        measured = f"slowest {fmt(spent, seconds)} ({label})" + \
            (f", none within {seconds:g} s: {', '.join(unfinished[backend])}" if unfinished[backend] else "")
        rows.append(["tangram first tiling, 50 generated boards (16x16 to 24x24, 12 pieces)", backend, "-",
                     measured, f"<= {TANGRAM_FIRST:g} s each",
                     verdict(spent <= TANGRAM_FIRST and not unfinished[backend], "slower than the target")])
    if "prolog" not in backends:
        rows.append(["tangram first tiling, 50 generated boards", "prolog", "-", "SWI-Prolog not installed",
                     f"<= {TANGRAM_FIRST:g} s each", "not measured"])
    return rows


class BlockRuns:
    """While active, counts the runs of pysolve.fd's compact tables (the squares relation's 2 x 2 blocks) and the
    time inside them (perf_counter: a process clock read per run would cost a tenth of a run)."""

    def __enter__(self) -> BlockRuns:
        self.runs, self.inside, self.original = 0, 0.0, fd.Compact.propagate
        original = self.original

        def counted(propagator: fd.Compact, store: Any) -> bool:
            started = time.perf_counter()
            try:
                return original(propagator, store)
            finally:
                self.runs += 1
                self.inside += time.perf_counter() - started

        fd.Compact.propagate = counted  # type: ignore[method-assign]
        return self

    def __exit__(self, *_: object) -> None:
        fd.Compact.propagate = self.original  # type: ignore[method-assign]


def squares_target(seconds: float) -> list[Target]:
    """Owen's 6x6 count on kanren under 15 s, beside Python's and Prolog's; where it is not, the reason measured:
    the cells the count labels, the CPU a cell, and where a cell's time goes (the block tables' runs, counted on
    the first part of the count's split)."""
    from pysolve.squares import kanren as squares_kanren
    from pysolve.squares.model import COUNT, Question, load
    from pysolve.squares.puzzle import PUZZLE as SQUARES

    owen = load("eternity-6x6")
    question = Question(owen, COUNT, seconds=seconds)
    others = {}
    for backend in ("python", "prolog"):
        if backend == "python" or available("prolog"):
            SQUARES.solve(Question(load("eternity-3x3"), COUNT), backend)  # start the back end first
            others[backend] = cpu(lambda backend=backend: SQUARES.solve(question, backend))
    budget = Budget(nodes=10**10, seconds=seconds)
    try:
        spent, grids = cpu(lambda: squares_kanren.solutions(owen, True, 0, budget))
    except SearchLimitExceeded:
        return [["squares, Owen's 6x6 count", "kanren", "python, prolog", f"> {seconds:g} s",
                 f"< {OWEN_UNDER:g} s", verdict(False, f"unfinished after {budget.spent:,} cells")]]
    count = 4 * len(grids)  # one grid per rotation class, each standing for its four turns
    wrong = {backend: found.count for backend, (_, found) in others.items() if found.count != count}
    if wrong:
        raise SystemExit(f"Owen's 6x6: kanren counts {count}, {wrong}")
    cells = budget.spent
    per_cell = spent / cells
    measured = (f"{spent:.1f} s, {count} grids, {cells:,} cells at {per_cell * 1000:.2f} ms; "
                + ", ".join(f"{backend} {time_taken:.1f} s" for backend, (time_taken, _) in others.items()))
    reason = ""
    if spent >= OWEN_UNDER:
        part = SQUARES.split(Question(owen, COUNT))[0]
        part_budget = Budget(nodes=10**10, seconds=seconds)
        with BlockRuns() as blocks:
            started = time.perf_counter()
            squares_kanren.solutions(owen, True, 0, part_budget, owen.periods(), part.prefix)
            elapsed = time.perf_counter() - started
        share = blocks.inside / elapsed
        rest = spent * (1 - share)  # the count's time outside the block tables
        left = OWEN_UNDER - rest
        tables = (f"the rest alone takes {rest:.1f} s, past the target whatever the tables cost" if left <= 0 else
                  f"with the rest's {rest:.1f} s, the tables would have to take {spent * share / left:.1f}x less")
        reason = (f"{OWEN_UNDER:g} s at {cells:,} cells allows {OWEN_UNDER / cells * 1000:.2f} ms a cell, "
                  f"{spent / OWEN_UNDER:.1f}x less; on the split's first part ({part_budget.spent:,} cells) a cell "
                  f"runs {blocks.runs / part_budget.spent:.0f} block tables at {blocks.inside / blocks.runs * 1e6:.0f} "
                  f"us each, {share:.0%} of its time: {tables} (docs/bench.md, \"Squares: miniKanren, Owen's 6x6 "
                  "count\": the orders and propagations measured and dropped)")
    return [["squares, Owen's 6x6 count", "kanren", "python, prolog", measured, f"< {OWEN_UNDER:g} s",
             verdict(spent < OWEN_UNDER, reason)]]


def with_notes(targets: list[Target]) -> tuple[list[Target], list[str]]:
    """The rows with each reason a target is not met taken out as a note: 'NOT MET [k]', and '[k] reason'."""
    rows, notes = [], []
    for *cells, outcome in targets:
        if outcome.startswith(f"{NOT_MET}: "):
            notes.append(outcome.removeprefix(f"{NOT_MET}: "))
            outcome = f"{NOT_MET} [{len(notes)}]"
        rows.append([*cells, outcome])
    return rows, [f"[{k}] {note}" for k, note in enumerate(notes, 1)]


FAMILY_KINDS = ("queens", "send", "sudoku", "hidato")
TARGET_KINDS = ("sudoku-fast", "tangram", "squares")  # the rows beyond the finite-domain families


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=cli.seconds, default=10.0, help="CPU seconds per call at most")
    parser.add_argument("--runs", type=cli.positive_int, default=3, help="calls per instance under a second (median)")
    parser.add_argument("--target-seconds", type=cli.seconds, default=600.0,
                        help="CPU seconds per call at most in the rows beyond the finite-domain families")
    parser.add_argument("--only", default="",
                        help=f"comma-separated kinds: {', '.join(FAMILY_KINDS + TARGET_KINDS)} (default: all)")
    args = parser.parse_args()
    wanted = set(filter(None, args.only.split(",")))
    if wanted - set(FAMILY_KINDS + TARGET_KINDS):
        parser.error(f"--only: {', '.join(sorted(wanted - set(FAMILY_KINDS + TARGET_KINDS)))} is not a kind")
    present, absent = installed()
    for line in absent:
        print(line)
    makers: dict[str, Callable[[], dict[str, Solver]]] = {
        CONSTRAINT: lambda: CONSTRAINT_SOLVERS, CPSAT: lambda: cpsat_solvers(args.seconds)}
    peers = {peer: makers[peer]() for peer in present}
    summary, problems = [], []
    measured: dict[str, dict[str, list[float | None]]] = {}
    for family in families():
        name, kind = family[:2]
        if wanted and kind not in wanted:
            continue
        solvers = {PYSOLVE: PYSOLVE_SOLVERS[kind], **{peer: chosen[kind] for peer, chosen in peers.items()}}
        rows, times, wrong = family_rows(family, solvers, args.seconds, args.runs)
        problems += wrong
        measured[name] = times
        others = [peer for peer in solvers if peer != PYSOLVE]
        print(f"\n{name} (CPU seconds; ratio: pysolve / peer)")
        print(render_table(["instance", *solvers, "count", *(f"/ {peer}" for peer in others)], rows))
        summary.append(summary_row(name, times, args.seconds))
    if summary:
        others = list(peers)
        print(f"\nsummary: median CPU seconds (solved/instances; a call stopped at {args.seconds:g} s counts as "
              f"{args.seconds:g} s), pysolve's ratio of the medians and its worst instance ratio")
        print(render_table(["family", "instances", PYSOLVE, *others,
                            *(f"{what} / {peer}" for peer in others for what in ("median", "worst"))], summary))
    targets = fd_targets(measured, args.seconds)
    beyond = {"sudoku-fast": lambda: sudoku_targets(args.target_seconds, args.runs),
              "tangram": lambda: tangram_targets(args.target_seconds),
              "squares": lambda: squares_target(args.target_seconds)}
    for kind in TARGET_KINDS:
        if not wanted or kind in wanted:
            targets += beyond[kind]()
    print("\nthe targets (issue 39): CPU seconds of this process, SWI-Prolog and CP-SAT in it; ratios pysolve / peer")
    rows, notes = with_notes(targets)
    print("\n".join([render_table(TARGET_HEADER, rows), *notes]))
    print("\n".join(problems) if problems else "every answer checked; the counts agree")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
