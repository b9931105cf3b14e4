"""What running rules of one's own in a child process costs, measured in one run (not a test).

    .venv/bin/python bench/sandbox.py [--questions 200] [--starts 10]

Starting the child: a fresh `swipl` running prolog/pysolve_sandbox.pl, up to
its first answer (the load included), the median of `starts` such starts,
on a rule base of one's own as `pysolve check` loads it
(examples/class/hidato/ana.pl; the check's target: at most 0.2 s a run)
and on the shipped hidato rule base (its load, library(clpfd) included,
costs the same in pysolve's own engine).
Per question: the same small goals on the shipped hidato rule base asked in
pysolve's own engine (bridge.solutions) and in the warm child
(sandbox.solutions), the median wall time of each and their difference, the
child's overhead (target: at most 5 ms). Also the 300,000-row query that
once took 132 s through pyswip (`pysolve query fichas "between(1, inf, X)"
--limit 300000 --seconds 3`), through the child.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pysolve import bridge, sandbox

RULE_BASE = "hidato"
OWN = Path(__file__).resolve().parent.parent / "examples" / "class" / "hidato" / "ana.pl"
GOALS = ["hidato([[0, 0, 1], [0, 0, 0], [9, 0, 0]], S)", "length(L, 3)", "X = [a, b, c]"]


def timed(call: Callable[[], object]) -> float:
    """Wall seconds `call` took."""
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def start_times(rule_base: str | Path, starts: int) -> list[float]:
    """Seconds from no child to the first answer of a fresh one (start, load `rule_base`, one goal), `starts`
    times."""
    times = []
    for _ in range(starts):
        sandbox.close()
        times.append(timed(lambda: sandbox.solutions(rule_base, "true")))
    return times


def question_times(solutions: Callable[..., bridge.QueryResult], questions: int) -> list[float]:
    """Seconds per question, the goals asked in turn `questions` times in all (after one warm-up round)."""
    for goal in GOALS:
        solutions(RULE_BASE, goal, max_solutions=2)
    times = []
    for i in range(questions):
        started = time.perf_counter()
        solutions(RULE_BASE, GOALS[i % len(GOALS)], max_solutions=2)
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--starts", type=int, default=10)
    args = parser.parse_args()
    for rule_base, target in ((OWN, " (target: at most 200 ms)"), (RULE_BASE, "")):
        starts = start_times(rule_base, args.starts)
        print(f"child start to its first answer on {Path(rule_base).name}: median "
              f"{statistics.median(starts) * 1000:.0f} ms, worst {max(starts) * 1000:.0f} ms over {args.starts} "
              f"starts{target}")
    in_process = statistics.median(question_times(bridge.solutions, args.questions))
    child = statistics.median(question_times(sandbox.solutions, args.questions))
    print(f"per question on {RULE_BASE}: in-process {in_process * 1000:.2f} ms, child {child * 1000:.2f} ms, "
          f"overhead {(child - in_process) * 1000:.2f} ms (median of {args.questions}; target: at most 5 ms)")
    started = time.perf_counter()
    many = sandbox.solutions("fichas", "between(1, inf, X)", max_solutions=300000, seconds=3)
    print(f"fichas, between(1, inf, X), at most 300,000 rows, --seconds 3: {len(many.rows):,} rows, {many.status}, "
          f"{many.cpu_seconds:.2f} CPU s in the child, {time.perf_counter() - started:.2f} s wall")


if __name__ == "__main__":
    main()
