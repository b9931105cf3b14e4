"""Benchmark of edge-matching squares: every back end on the same questions, times and ratios in one run.

Run: .venv/bin/python bench/squares.py [--full] [--seconds S]
CPU seconds (process time: SWI-Prolog runs inside this process, so it counts
too) are the numbers to compare on a shared machine; wall seconds are shown
for orientation. Each cell is the best of a few runs for short questions.
Ratios are against the Python fast path on the same row's instance.
`--full` adds the long runs (Prolog and miniKanren on the larger sets, the
insect-rule generated grids).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pysolve.errors import PysolveError, SearchLimitExceeded  # noqa: E402
from pysolve.puzzle import UNKNOWN  # noqa: E402
from pysolve.squares.generate import generate  # noqa: E402
from pysolve.squares.model import ALL, ETERNITY, INSECT, Instance, Question, load  # noqa: E402
from pysolve.squares.puzzle import PUZZLE  # noqa: E402

# back end label -> (back end, strategy)
RUNNERS = {
    "python fast": ("python", "fast"),
    "python reference": ("python", "original"),
    "prolog indexed": ("prolog", "fast"),
    "prolog original": ("prolog", "original"),
    "kanren": ("kanren", "fast"),
}


def measure(run: Callable[[], int], repeat: int) -> tuple[int, float, float]:
    """(count, best CPU seconds, best wall seconds) over `repeat` runs."""
    best_cpu = best_wall = float("inf")
    count = 0
    for _ in range(repeat):
        cpu, wall = time.process_time(), time.perf_counter()
        count = run()
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return count, best_cpu, best_wall


def ask(instance: Instance, label: str, seconds: float) -> Callable[[], int]:
    """A run of one back end asking for all solutions; returns the count (SearchLimitExceeded when it stopped)."""
    backend, strategy = RUNNERS[label]
    question = Question(instance, ALL, strategy=strategy, seconds=seconds)

    def run() -> int:
        answer = PUZZLE.solve(question, backend)
        if answer.status == UNKNOWN:
            raise SearchLimitExceeded(answer.stats["reason"])
        return answer.count or 0

    return run


def bench_row(title: str, instance: Instance, labels: list[str], seconds: float) -> None:
    """Time every back end in `labels` on all solutions of `instance` and print a table."""
    print(f"\n{title}  ({instance.rows}x{instance.cols}, {instance.rule} rule, all solutions)")
    print(f"  {'back end':<17} {'count':>6} {'cpu s':>9} {'wall s':>9} {'x python fast':>14}")
    base = None
    for label in labels:
        try:
            quick = label != "kanren" and instance.rows * instance.cols <= 16
            count, cpu, wall = measure(ask(instance, label, seconds), 5 if quick else 1)
        except PysolveError as error:
            print(f"  {label:<17} {'-':>6} {'-':>9} {'-':>9}   did not finish: {error}")
            continue
        base = cpu if base is None else base
        print(f"  {label:<17} {count:>6} {cpu:>9.4f} {wall:>9.4f} {cpu / base if base else 0:>14.1f}")
        sys.stdout.flush()


def main() -> None:
    """Run the benchmark rows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="add the long runs")
    parser.add_argument("--seconds", type=float, default=300.0, help="time limit per run (default 300)")
    args = parser.parse_args()
    everyone = list(RUNNERS)
    bench_row("insects", load("insects"), everyone, args.seconds)
    bench_row("Owen 3x3", load("eternity-3x3"), everyone, args.seconds)
    bench_row("Owen 4x4", load("eternity-4x4"), everyone, args.seconds)
    bench_row("Owen 5x5", load("eternity-5x5"),
              everyone if args.full else ["python fast", "prolog indexed"], args.seconds)
    bench_row("Owen 6x6", load("eternity-6x6"),
              ["python fast", "prolog indexed"] if args.full else ["python fast"], args.seconds)
    for size in (5, 6):
        labels = ["python fast", "prolog indexed"] + (["kanren"] if args.full and size == 5 else [])
        bench_row(f"generated K={size} seed=1", generate(size, size, size, 1, ETERNITY), labels, args.seconds)
    # the random insect-rule puzzles: N x N with K letters (python fast = mrv for these counts)
    insect_cases = [(4, 4, 1)] + ([(5, 6, seed) for seed in (1, 2, 3)] + [(6, 10, seed) for seed in (1, 2, 3)]
                                  + [(6, 8, 1)] if args.full else [(5, 6, 1), (6, 10, 1)])
    for size, letters, seed in insect_cases:
        labels = ["python fast"] + (["prolog indexed"] if size <= 4 else [])
        bench_row(f"generated K={letters} seed={seed}", generate(size, size, letters, seed, INSECT), labels,
                  args.seconds)


if __name__ == "__main__":
    main()
