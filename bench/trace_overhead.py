"""A/B of the untraced Python and miniKanren searches of two checkouts: CPU time of the same questions.

A Python process per checkout, that checkout first on PYTHONPATH (so pysolve is that checkout's), answers
bursts: a question of the workload below asked through `api.solve` on its back end (python or kanren), nothing
recorded, in a loop for about SPAN seconds of CPU (`time.process_time`), its time the loop's over its length.
Each question is warmed once in both, then timed in bursts taken in turn, A, B, B, A, A, B, ..., a few
seconds apart at most, both processes on the same CPU, so that a machine shared with other work slows both
alike; before each burst the heap so far is frozen (`gc.freeze`), so that a collection costs the same in both.
A question's time is the minimum over the bursts of several such pairs of processes, each pair fresh (where a
process's objects lie in memory moves one's times by several per cent, for the whole process), and its answer
(status, solutions, states searched) must be the same in every burst.

    git worktree add --detach /tmp/before HEAD      # before the change
    .venv/bin/python bench/trace_overhead.py /tmp/before . --processes 5 --repeat 4

Why: a search reports to its recorder without asking whether there is one (pysolve.trace, NOT_RECORDED); an
unrecorded search must stay as fast as it was with its `if trace is not None` tests, which this shows question by
question.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from ab import print_table

HERE = Path(__file__).resolve()
SPAN = 0.2  # CPU seconds of a burst: a question asked as often as that takes

Case = tuple[str, str, str, dict[str, Any]]  # label, puzzle, back end, options


def cases() -> list[Case]:
    """The workload: every searching strategy of the five puzzles that record searches, on each back end."""
    from pysolve.paths import data_dir

    sudoku, hidato, squares = data_dir() / "sudoku", data_dir() / "hidato", data_dir() / "squares"
    eternity4 = str(squares / "eternity" / "pieces_04x04.txt")
    return [
        ("sudoku fast hardest#6 count", "sudoku", "python",
         {"file": str(sudoku / "hardest.txt"), "index": 6, "count": 2}),
        ("sudoku fast hardest#2 count", "sudoku", "python",
         {"file": str(sudoku / "hardest.txt"), "index": 2, "count": 2}),
        ("sudoku plain easy#0 count", "sudoku", "python",
         {"file": str(sudoku / "easy.txt"), "index": 1, "strategy": "plain", "count": 2}),
        ("sudoku kanren easy#0", "sudoku", "kanren", {"file": str(sudoku / "easy.txt"), "index": 1}),
        ("hidato fast rect_15x15 count", "hidato", "python", {"file": str(hidato / "rect_15x15_s18.txt"), "count": 2}),
        ("hidato fast holes_13x11 count", "hidato", "python",
         {"file": str(hidato / "holes_13x11_s23.txt"), "count": 2}),
        ("hidato original rect_6x6 count", "hidato", "python",
         {"file": str(hidato / "rect_6x6_s12.txt"), "strategy": "original", "count": 2}),
        ("hidato kanren rect_6x6", "hidato", "kanren", {"file": str(hidato / "rect_6x6_s12.txt")}),
        ("squares original insects all", "squares", "python",
         {"file": str(squares / "insects.txt"), "strategy": "original", "all": True}),
        ("squares fast insects all", "squares", "python", {"file": str(squares / "insects.txt"), "all": True}),
        ("squares fast eternity4 count", "squares", "python", {"file": eternity4, "count": True}),
        ("squares kanren insects", "squares", "kanren", {"file": str(squares / "insects.txt")}),
        ("tangram dfs classic all", "tangram", "python", {"all": True, "strategy": "dfs"}),
        ("tangram cell classic all", "tangram", "python", {"all": True, "strategy": "cell"}),
        ("tangram bfs classic", "tangram", "python", {"strategy": "bfs"}),
        ("tangram kanren dfs classic all", "tangram", "kanren", {"all": True, "strategy": "dfs"}),
        ("tangram kanren cell classic all", "tangram", "kanren", {"all": True, "strategy": "cell"}),
        ("fichas dfs 4x4", "fichas", "python", {"m": 4, "n": 4, "strategy": "dfs"}),
        ("fichas bfs 2x3 py", "fichas", "python", {"m": 2, "n": 3, "strategy": "bfs", "flavour": "py"}),
        ("fichas shortest 5x5", "fichas", "python", {"m": 5, "n": 5, "strategy": "shortest"}),
        ("fichas astar 5x5", "fichas", "python", {"m": 5, "n": 5, "strategy": "astar"}),
        ("fichas kanren dfs 2x2", "fichas", "kanren", {"m": 2, "n": 2, "strategy": "dfs"}),
        ("fichas kanren bfs 2x2", "fichas", "kanren", {"m": 2, "n": 2, "strategy": "bfs"}),
    ]


def child() -> None:
    """Answer bursts: for each question label read on stdin, one line of JSON, [CPU seconds an answer, the
    answer in short]."""
    from pysolve import api

    asked = {label: (puzzle, backend, options) for label, puzzle, backend, options in cases()}
    os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    for line in sys.stdin:
        puzzle, backend, options = asked[line.strip()]
        answer = api.solve(puzzle, backend=backend, **options)
        gc.collect()
        gc.freeze()
        said = [answer.status, len(answer.solutions), answer.stats.get("states")]
        times, start = 1, time.process_time()
        while time.process_time() - start < SPAN:
            api.solve(puzzle, backend=backend, **options)
            times += 1
        print(json.dumps([(time.process_time() - start) / (times - 1), said]), flush=True)


class Checkout:
    """The process answering bursts on the checkout `tree`."""

    def __init__(self, tree: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(tree.resolve()), PYTHONDONTWRITEBYTECODE="1",
                   PYTHONHASHSEED="0")
        self.process = subprocess.Popen([sys.executable, str(HERE), "--child"], env=env, cwd=tree, text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def burst(self, label: str) -> list[Any]:
        """[CPU seconds an answer, the answer in short] of one burst of the question `label`."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(label + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        """End the process."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def main() -> None:
    """Interleave the repetitions of the two checkouts; print each question's minimum time, B/A and its answer."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path, nargs="?")
    parser.add_argument("b", type=Path, nargs="?")
    parser.add_argument("--processes", type=int, default=5, help="fresh pairs of processes, one after the other")
    parser.add_argument("--repeat", type=int, default=4, help="bursts of each question in each process")
    parser.add_argument("--only", default="", help="the questions whose label holds this text (default: all)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child()
        return
    labels = [label for label, *_ in cases() if args.only in label]
    runs: dict[str, dict[str, list[list[Any]]]] = {"a": {}, "b": {}}
    for _ in range(args.processes):
        checkouts = {"a": Checkout(args.a), "b": Checkout(args.b)}
        for label in labels:
            for side in ("a", "b"):
                checkouts[side].burst(label)  # warmed: tables built, code paths taken once
            for turn in range(args.repeat):
                for side in ("a", "b") if turn % 2 else ("b", "a"):
                    runs[side].setdefault(label, []).append(checkouts[side].burst(label))
        for checkout in checkouts.values():
            checkout.close()
    rows = []
    for label in labels:
        best = [min(burst[0] for burst in runs[side][label]) for side in ("a", "b")]
        said = {json.dumps(burst[1]) for side in ("a", "b") for burst in runs[side][label]}
        rows.append((label, best[0], best[1],
                     " / ".join(sorted(said)) + ("" if len(said) == 1 else "  DIFFERENT ANSWERS")))
    print_table(rows, "answer (status, solutions, states)")

if __name__ == "__main__":
    main()
