"""miniKanren's finite-domain squares relation against Prolog and Python, measured in one run (not a test).

    .venv/bin/python bench/fd_squares.py [--seconds 600] [--skip-count] [--orders] [--parts]

Rows: Owen's 5x5 count, Owen's 6x6 first solution and Owen's 6x6 count (260
solutions), then the fd layer's other users, Sudoku hardest #11 and the
README's generated 8x8 Hidato, each on every back end. The 6x6 count goes to
the relation directly (`kanren.solutions`), to count the cells it labels:
it runs to its end or to `--seconds`, and the row says how many rotation
classes (65 in all) and labelled cells it reached, and the CPU time a labelled
cell took. Figures are CPU seconds of
this process (Prolog runs inside it); ratios are kanren/prolog and
kanren/python.

`--orders` then counts Owen's 6x6 and three generated eternity boards (whose
frames share the inside's colours) under each labelling of the relation
(`ff`, `ffr`, `leftmost`), each within `--seconds`: the figures behind the
relation's choice of order (docs/squares.md, "miniKanren: Owen's 6x6
count"). About ten minutes.

`--parts` then labels only a part of Owen's 6x6 (the top three rows, the
bottom three, the inner 4 x 4), the whole relation posted, one grid per
rotation class: how many fillings of the part propagation leaves and the
cells it labels to reach them, the measure of what a join of parts (top
halves with bottom halves, the frame with the inside) could save. About
five minutes.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pysolve import fd, puzzles
from pysolve import minikanren as mk
from pysolve.backends import available
from pysolve.budget import Budget
from pysolve.errors import SearchLimitExceeded
from pysolve.report import render_table
from pysolve.squares import kanren
from pysolve.squares.generate import generate
from pysolve.squares.model import ETERNITY, dump, load

BACKENDS = ("kanren", "prolog", "python")


def timed(family: str, options: dict[str, Any], backend: str) -> tuple[float, str]:
    """CPU seconds and the printed count (or status) of one back end's answer."""
    puzzle = puzzles.get(family)
    question = puzzle.question(**options)
    started = time.process_time()
    answer = puzzle.solve(question, backend)
    return time.process_time() - started, str(answer.count if answer.count is not None else answer.status)


def kanren_count(name: str, seconds: float, labelling: str | None = None) -> tuple[float, str]:
    """The relation's count of one grid per rotation class (in its own order, or by `labelling`): CPU seconds
    and 'classes, cells labelled'."""
    budget = Budget(nodes=10**10, seconds=seconds)
    started = time.process_time()
    try:
        classes = f"{len(kanren.solutions(load(name), True, 0, budget, labelling=labelling))} classes"
    except SearchLimitExceeded:
        classes = "unfinished"
    seconds = time.process_time() - started
    return seconds, f"{classes}, {budget.spent} cells, {1000 * seconds / max(budget.spent, 1):.2f} ms a cell"


def ratio(mine: float, other: float | None) -> str:
    return "" if other is None or other <= 0 else f"{mine / other:.1f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600.0, help="the 6x6 count's limit on kanren")
    parser.add_argument("--skip-count", action="store_true", help="leave out the 6x6 count")
    parser.add_argument("--orders", action="store_true", help="then the counts under each labelling")
    parser.add_argument("--parts", action="store_true", help="then the fillings of parts of Owen's 6x6")
    args = parser.parse_args()
    hidato = Path(tempfile.gettempdir()) / "pysolve-bench-hidato-8x8-seed7.txt"
    command = [str(Path(sys.executable).with_name("pysolve")), "generate", "hidato", "--rows", "8", "--cols", "8",
               "--seed", "7", "--out", str(hidato)]
    subprocess.run(command, check=True, capture_output=True)
    questions: list[tuple[str, str, dict[str, Any]]] = [
        ("squares eternity-5x5 --count", "squares", {"file": "eternity-5x5", "count": True}),
        ("squares eternity-6x6 (first)", "squares", {"file": "eternity-6x6"}),
        ("squares eternity-6x6 --count", "squares", {"file": "eternity-6x6", "count": True}),
        ("sudoku hardest --index 11", "sudoku", {"file": "hardest", "index": 11}),
        ("hidato 8x8 seed 7 (README)", "hidato", {"file": str(hidato)}),
    ]
    rows = []
    for label, family, options in questions:
        times: dict[str, float | None] = {}
        shown: dict[str, str] = {}
        for backend in BACKENDS:
            if backend == "prolog" and not available("prolog"):
                times[backend], shown[backend] = None, "absent"
            elif backend == "kanren" and label.endswith("6x6 --count"):
                if args.skip_count:
                    times[backend], shown[backend] = None, "skipped"
                else:
                    times[backend], shown[backend] = kanren_count("eternity-6x6", args.seconds)
            else:
                times[backend], shown[backend] = timed(family, options, backend)
        mine = times["kanren"]
        rows.append([label, *(f"{times[b]:.2f} s ({shown[b]})" if times[b] is not None else shown[b]
                              for b in BACKENDS),
                     ratio(mine, times["prolog"]) if mine else "", ratio(mine, times["python"]) if mine else ""])
    print(render_table(["question", *BACKENDS, "kanren/prolog", "kanren/python"], rows))
    if args.orders:
        print()
        print(render_table(["count", "frame apart", *ORDERS], orders(args.seconds)))
    if args.parts:
        print()
        print(render_table(["Owen's 6x6, labelled", "fillings left", "cells", "CPU"], parts(args.seconds)))


ORDERS = ("ff", "ffr", "leftmost")
GENERATED = ((7, 7, 1), (7, 6, 1), (6, 5, 1))  # eternity boards: side, colours, seed


def orders(seconds: float) -> list[list[str]]:
    """A row per board: whether its frame has colours of its own, and its count under each labelling."""
    boards = [("eternity-6x6", "eternity-6x6")]
    for side, colours, seed in GENERATED:
        path = Path(tempfile.gettempdir()) / f"pysolve-bench-eternity-{side}x{side}-k{colours}-s{seed}.txt"
        path.write_text(dump(generate(side, side, colours, seed, ETERNITY)))
        boards.append((f"generated {side}x{side} K={colours} seed {seed}", str(path)))
    rows = []
    for label, name in boards:
        cells = [kanren_count(name, seconds, labelling) for labelling in ORDERS]
        rows.append([label, "yes" if kanren.frame_apart(load(name)) else "no",
                     *(f"{spent:.1f} s ({shown})" for spent, shown in cells)])
    return rows


PARTS = {  # Owen's 6x6, row-major positions
    "top three rows": range(18),
    "bottom three rows": range(18, 36),
    "inner 4 x 4": [row * 6 + col for row in range(1, 5) for col in range(1, 5)],
}


def parts(seconds: float) -> list[list[str]]:
    """A row per part of Owen's 6x6: its fillings that propagation leaves, the cells labelled, CPU seconds."""
    instance = load("eternity-6x6")
    rows = []
    for label, positions in PARTS.items():
        budget = Budget(nodes=10**10, seconds=seconds)
        started = time.process_time()
        placements = kanren.Placements(instance, instance.periods(), budget)
        cells = [mk.var() for _ in range(instance.rows * instance.cols)]
        part = [cells[pos] for pos in positions]
        goal = mk.conj(fd.within(budget), kanren.squareso(instance, placements, cells),
                       kanren.canonicalo(instance, cells, placements), fd.labelfd(part, "ffr"))
        try:
            fillings = str(len(mk.run(goal, part)))
        except SearchLimitExceeded:
            fillings = "unfinished"
        rows.append([label, fillings, f"{budget.spent}", f"{time.process_time() - started:.1f} s"])
    return rows


if __name__ == "__main__":
    main()
