"""Benchmark of edge-matching squares: every back end on the same questions, times and ratios in one run.

Run: .venv/bin/python bench/squares.py [--full | --insects] [--seconds S]
CPU seconds (process time: SWI-Prolog runs inside this process, so it counts
too) are the numbers to compare on a shared machine; wall seconds are shown
for orientation. Each cell is the best of a few runs for short questions.
Ratios are against the Python fast path on the same row's instance.
`--full` adds the long runs (Prolog and miniKanren on the larger sets, the
harder insect-rule generated grids). When the exact-cover library xcover
(Knuth's Algorithm C with colours, MRV) is importable, the insect-rule rows
also time its count of the same instance (cells and pieces primary items,
seams coloured secondary items, distinct turns only), after a warm-up of its
JIT; it is not a dependency of pysolve (`pip install xcover` to compare).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pysolve.errors import PysolveError, SearchLimitExceeded
from pysolve.puzzle import UNKNOWN
from pysolve.squares.generate import generate
from pysolve.squares.model import ALL, COUNT, ETERNITY, INSECT, Instance, Matcher, Question, load, oriented
from pysolve.squares.puzzle import PUZZLE

# back end label -> (back end, strategy)
RUNNERS = {
    "python fast": ("python", "fast"),
    "python reference": ("python", "original"),
    "prolog indexed": ("prolog", "fast"),  # row order; counts: insect rule MRV, eternity rule halves joined
    "prolog original": ("prolog", "original"),
    "kanren": ("kanren", "fast"),
    "xcover": ("", ""),  # not a back end: the exact-cover library, when importable (see xcover_count)
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


def ask(instance: Instance, label: str, seconds: float, mode: str = ALL) -> Callable[[], int]:
    """A run of one back end asking for all solutions (or their count); returns the count.

    Raises SearchLimitExceeded when the run stopped.
    """
    backend, strategy = RUNNERS[label]
    question = Question(instance, mode, strategy=strategy, seconds=seconds)

    def run() -> int:
        answer = PUZZLE.solve(question, backend)
        if answer.status == UNKNOWN:
            raise SearchLimitExceeded(answer.stats["reason"])
        return answer.count or 0

    return run


def xcover_count(instance: Instance) -> Callable[[], int] | None:
    """A run of xcover counting the solutions of `instance` (insect rule), or None when xcover is not importable."""
    try:
        from xcover import covers
    except ImportError:
        return None
    matcher, complement = Matcher(instance), instance.complement()
    rows, cols = instance.rows, instance.cols
    options = []
    for r in range(rows):
        for c in range(cols):
            border = (r == 0, c == cols - 1, r == rows - 1, c == 0)
            for piece, _, (n, e, s, w) in oriented(instance):
                if all(matcher.border(label) if on else matcher.inner(label)
                       for label, on in zip((n, e, s, w), border)):
                    seams = [(c + 1 < cols, f"h{r},{c}:{e}"), (r + 1 < rows, f"v{r},{c}:{s}"),
                             (c > 0, f"h{r},{c - 1}:{complement[w]}"), (r > 0, f"v{r - 1},{c}:{complement[n]}")]
                    options.append([f"c{r},{c}", f"p{piece}"] + [item for inside, item in seams if inside])
    primary = [f"c{r},{c}" for r in range(rows) for c in range(cols)] + [f"p{p.id}" for p in instance.pieces]
    secondary = ([f"h{r},{c}" for r in range(rows) for c in range(cols - 1)]
                 + [f"v{r},{c}" for r in range(rows - 1) for c in range(cols)])
    return lambda: sum(1 for _ in covers(options, primary=primary, secondary=secondary, colored=True))


def bench_row(title: str, instance: Instance, labels: list[str], seconds: float, mode: str = ALL) -> None:
    """Time every back end in `labels` on all solutions (or the count) of `instance` and print a table."""
    asked = "count" if mode == COUNT else "all solutions"
    print(f"\n{title}  ({instance.rows}x{instance.cols}, {instance.rule} rule, {asked})")
    print(f"  {'back end':<17} {'count':>6} {'cpu s':>9} {'wall s':>9} {'x python fast':>14}")
    base = None
    for label in labels:
        try:
            quick = label != "kanren" and instance.rows * instance.cols <= 16
            run = xcover_count(instance) if label == "xcover" else ask(instance, label, seconds, mode)
            if run is None:
                print(f"  {label:<17} not installed")
                continue
            count, cpu, wall = measure(run, 5 if quick else 1)
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
    parser.add_argument("--insects", action="store_true", help="only the random insect-rule counts (all of them)")
    args = parser.parse_args()
    if not args.insects:
        fixed_rows(args.full, args.seconds)
    insect_rows(args.full or args.insects, args.seconds)


def fixed_rows(full: bool, seconds: float) -> None:
    """The shipped sets and the generated eternity-rule grids, every back end that answers them in time."""
    everyone = [label for label in RUNNERS if label != "xcover"]  # xcover: insect rule only
    bench_row("insects", load("insects"), everyone, seconds)
    bench_row("Owen 3x3", load("eternity-3x3"), everyone, seconds)
    bench_row("Owen 4x4", load("eternity-4x4"), everyone, seconds)
    bench_row("Owen 5x5", load("eternity-5x5"),
              everyone if full else ["python fast", "prolog indexed"], seconds)
    bench_row("Owen 6x6", load("eternity-6x6"), ["python fast", "prolog indexed"], seconds)
    bench_row("Owen 6x6", load("eternity-6x6"), ["python fast", "prolog indexed"], seconds, COUNT)
    for size in (5, 6):
        labels = ["python fast", "prolog indexed"] + (["kanren"] if full and size == 5 else [])
        bench_row(f"generated K={size} seed=1", generate(size, size, size, 1, ETERNITY), labels, seconds)


def insect_rows(full: bool, seconds: float) -> None:
    """The issue's random insect-rule puzzles, counted: Python, Prolog and (when importable) xcover."""
    # the random insect-rule puzzles: N x N with K letters, counted (python fast and prolog indexed: MRV)
    warm = xcover_count(generate(3, 3, 3, 0, INSECT))
    if warm:
        warm()  # compile xcover's JIT outside the measured rows
    insect_cases = [(4, 4, 1), (5, 6, 1), (6, 10, 1), (6, 12, 1)]
    if full:
        insect_cases += [(5, 6, 2), (5, 6, 3), (5, 8, 1), (5, 10, 1), (5, 12, 1), (6, 10, 2), (6, 10, 3),
                         (6, 12, 2), (6, 8, 1), (5, 6, 4), (5, 6, 5), (6, 8, 2), (6, 8, 3)]
    for size, letters, seed in insect_cases:
        labels = ["python fast", "prolog indexed", "xcover"]
        bench_row(f"generated K={letters} seed={seed}", generate(size, size, letters, seed, INSECT), labels,
                  seconds, COUNT)


if __name__ == "__main__":
    main()
