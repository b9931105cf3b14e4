"""Tokens-puzzle timings: every back end on the same questions, in one run, with ratios to Python.

Run: .venv/bin/python bench/fichas.py [--repeat N]
Prints the best CPU time of N runs (warm engines; SWI-Prolog runs in-process,
so its CPU time counts) for the four course strategies on orders (2, 2) and
(3, 3) in both flavours, for shortest paths on (5, 5), (6, 6) and (8, 8), and A* on (3, 3), with
the states each back end expanded and its time as a multiple of Python's.
"""

from __future__ import annotations

import argparse
import time

from pysolve import backends
from pysolve.fichas.model import Question
from pysolve.fichas.puzzle import PUZZLE
from pysolve.report import render_table

QUESTIONS = [Question(k, k, strategy, flavour)
             for k in (2, 3)
             for strategy in ("dfs", "bfs", "best-first", "hill-climbing")
             for flavour in ("hs", "py")] + [Question(k, k, "shortest") for k in (5, 6, 8)] + [Question(3, 3, "astar")]


def best_cpu(question: Question, backend: str, repeat: int) -> tuple[float, int]:
    """Best CPU seconds of `repeat` answers, and the states the back end expanded."""
    best, states = float("inf"), 0
    for _ in range(repeat):
        started = time.process_time()
        answer = PUZZLE.solve(question, backend)
        best = min(best, time.process_time() - started)
        states = answer.stats["states"]
    return best, states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (best counts)")
    args = parser.parse_args()
    rows = []
    for question in QUESTIONS:
        offered = [b for b in PUZZLE.backends_for(question) if backends.available(b)]
        if question.m >= 6 or (question.strategy == "bfs" and question.m >= 3):
            # kanren: iterative deepening takes seconds at (5, 5), ~20 s at (6, 6); breadth-first tree search
            # expands 68,000-86,000 states at (3, 3), about a millisecond each (docs/fichas.md)
            offered = [b for b in offered if b != "kanren"]
        times = {backend: best_cpu(question, backend, args.repeat) for backend in offered}
        python_seconds = times["python"][0]
        for backend, (seconds, states) in times.items():
            ratio = seconds / python_seconds if python_seconds else float("inf")
            rows.append([f"({question.m},{question.n})", question.strategy,
                         question.flavour if question.strategy != "shortest" else "-",
                         backend, states, f"{seconds * 1000:.2f}", f"{ratio:.1f}x"])
    print(render_table(["order", "strategy", "flavour", "backend", "states", "cpu ms", "vs python"], rows))


if __name__ == "__main__":
    main()
