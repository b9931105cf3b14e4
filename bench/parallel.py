"""Benchmark of counts in parts: one search against the same count split into parts on a pool of N processes.

Run: .venv/bin/python bench/parallel.py [--workers N] [--quick]
For each count: wall seconds and CPU seconds (this process and its worker
processes) of the serial search, of the parts run one after another in this
process (what the split itself costs), and of the parts on N processes; the
speed-up is serial wall over pooled wall, measured in one run. `--quick`
leaves out the long Prolog rows.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pysolve.parallel import count_in_parts
from pysolve.paths import data_dir
from pysolve.puzzle import Answer, Puzzle
from pysolve.squares import model as squares
from pysolve.squares.generate import generate as generate_squares
from pysolve.squares.puzzle import PUZZLE as SQUARES
from pysolve.sudoku import model as sudoku
from pysolve.sudoku.puzzle import PUZZLE as SUDOKU
from pysolve.tangram.generate import generate as generate_tangram
from pysolve.tangram.puzzle import PUZZLE as TANGRAM
from pysolve.tangram.question import Question as TangramQuestion

SECONDS = 600.0  # time limit of every count


def open_sudoku() -> sudoku.Question:
    """The first easy puzzle with 11 of its 30 givens taken away (seeded): 19 givens, 192,737 solutions."""
    board = sudoku.load(data_dir() / "sudoku" / "easy.txt")[0]
    cells = list(board.cells)
    for cell in random.Random(1).sample([cell for cell, value in enumerate(cells) if value], 11):
        cells[cell] = 0
    return sudoku.Question(sudoku.Board(tuple(cells)), "easy.txt minus 11 givens", count=10**9, seconds=SECONDS)


def counts() -> list[tuple[str, Puzzle, Any, str]]:
    """(label, puzzle, question, back end) of every measured count."""
    insect = squares.Question(generate_squares(6, 6, 8, 1), squares.COUNT, seconds=SECONDS)
    owen = squares.Question(squares.load("eternity-6x6"), squares.COUNT, seconds=SECONDS)
    board = TangramQuestion(generate_tangram(24, 24, 16, 4, min_side=2, distinct=True), "count", seconds=SECONDS)
    return [("squares insect 6x6 K=8 seed 1", SQUARES, insect, "python"),
            ("squares insect 6x6 K=8 seed 1", SQUARES, insect, "prolog"),
            ("squares Owen 6x6", SQUARES, owen, "python"),
            ("squares Owen 6x6", SQUARES, owen, "prolog"),
            ("sudoku, 19 givens, all solutions", SUDOKU, open_sudoku(), "python"),
            ("tangram 24x24/16 seed 4 (memo)", TANGRAM, board, "python")]


def cpu() -> float:
    """CPU seconds of this process and of its children that have ended."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measured(run: Callable[[], Answer]) -> tuple[Answer, float, float]:
    """The answer of `run`, its wall seconds and its CPU seconds (workers included)."""
    wall, used = time.perf_counter(), cpu()
    answer = run()
    return answer, time.perf_counter() - wall, cpu() - used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="processes of the pool (default 2)")
    parser.add_argument("--quick", action="store_true", help="leave out the Prolog rows")
    args = parser.parse_args()
    print(f"{'count':34} {'back end':8} {'answer':>10} {'parts':>5} | {'serial wall/CPU':>15} | "
          f"{'parts in turn':>15} | {f'{args.workers} workers':>15} | speed-up")
    for label, puzzle, question, backend in counts():
        if args.quick and backend == "prolog":
            continue
        serial, serial_wall, serial_cpu = measured(partial(puzzle.solve, question, backend))
        _, turn_wall, turn_cpu = measured(partial(count_in_parts, puzzle, question, backend))
        pooled, pool_wall, pool_cpu = measured(partial(count_in_parts, puzzle, question, backend, args.workers))
        agree = "" if pooled.count == serial.count else f"  DISAGREE: {pooled.count}"
        print(f"{label:34} {backend:8} {serial.count:>10} {pooled.stats['parts']:>5} | "
              f"{serial_wall:6.2f} / {serial_cpu:6.2f} | {turn_wall:6.2f} / {turn_cpu:6.2f} | "
              f"{pool_wall:6.2f} / {pool_cpu:6.2f} | {serial_wall / pool_wall:.2f}x{agree}", flush=True)


if __name__ == "__main__":
    main()
