"""A/B of the Prolog rule bases of two checkouts: Prolog CPU time and inferences of the same untraced searches.

Each repetition starts one fresh Python process per checkout, in turn (A, B, A, B, ...), with that checkout first
on PYTHONPATH, so pysolve and its rule bases (prolog/*.pl) are that checkout's. The process asks the Prolog back
end (pysolve.bridge) each question of the workload below, every one wrapped so that Prolog itself reports the CPU
time and the inferences the goal took (statistics/2), and then asks it in a loop for about SPAN seconds
(the time of one answer: the loop's over its length). A question's time is the minimum over the repetitions; its
inferences must be the same in every repetition.

    .venv/bin/python bench/prolog_ab.py /tmp/prolog-before . --repeat 5

Why: the recorded searches are compiled from the untraced ones (prolog/pysolve_traced.pl); the untraced clauses
must stay as fast as the hand-written ones were, which this shows question by question.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from ab import print_table

HERE = Path(__file__).resolve()

Question = tuple[str, str, str]  # label, rule base, goal text
SPAN = 0.2  # seconds of Prolog CPU each question is timed over, asked as often as that takes


def sudoku_questions() -> list[Question]:
    """Sudoku: the propagating search on hard boards, the plain backtracker on easy ones."""
    from pysolve.bridge import Var, goal
    from pysolve.paths import data_dir

    def rows(line: str) -> list[list[int]]:
        digits = [int(c) if c.isdigit() else 0 for c in line.strip()]
        return [digits[i:i + 9] for i in range(0, 81, 9)]

    hardest = (data_dir() / "sudoku" / "hardest.txt").read_text().split()
    easy = (data_dir() / "sudoku" / "easy.txt").read_text().split()
    asked = [(f"sudoku fast hardest#{i}", "fast", hardest[i]) for i in range(6)]
    asked += [(f"sudoku plain easy#{i}", "plain", easy[i]) for i in range(len(easy))]
    return [(label, "sudoku", goal("packed_solutions", strategy, rows(line), 0, Var("_")))
            for label, strategy, line in asked]


def hidato_questions() -> list[Question]:
    """Hidato: the position model, the strengthened walk and the original walk, every solution."""
    from pysolve.bridge import Var, goal
    from pysolve.hidato.model import load
    from pysolve.paths import data_dir

    questions = []
    for name, strategies in [("rect_8x8_s14", ["logic", "walk", "original"]), ("holes_9x9_s22", ["logic", "walk"]),
                             ("rect_10x10_s15", ["logic", "walk"]), ("cross_12x12_s33", ["logic"])]:
        grid = load(data_dir() / "hidato" / f"{name}.txt").grid()
        questions += [(f"hidato {strategy} {name}", "hidato", goal("solutions", strategy, grid, 0, Var("_")))
                      for strategy in strategies]
    return questions


def squares_questions() -> list[Question]:
    """Squares: the original, indexed-row and most-constrained searches, counted inside Prolog."""
    from pysolve.bridge import Goal
    from pysolve.paths import data_dir
    from pysolve.squares.model import load
    from pysolve.squares.prolog import with_puzzle

    questions = []
    for name, path in [("insects", data_dir() / "squares" / "insects.txt"),
                       ("eternity4", data_dir() / "squares" / "eternity" / "pieces_04x04.txt")]:
        instance = load(path)
        for strategy, rotation in [("original", "all"), ("rows", "all"), ("mrv", "by_class")]:
            if name == "eternity4" and strategy == "original":
                continue
            inner = Goal(f"aggregate_all(count, solve({strategy}, {rotation}, _), _)")
            questions.append((f"squares {strategy} {name}", "squares", with_puzzle(instance, inner)))
    return questions


def tangram_questions() -> list[Question]:
    """Tangram: every tiling by the depth-first and the cell-first search, on the classic and generated boards."""
    from pysolve.bridge import Var, goal
    from pysolve.tangram.generate import generate
    from pysolve.tangram.prolog import on_instance
    from pysolve.tangram.reader import load_instance

    instances = [("classic", load_instance()), ("gen 8x8 seed 3", generate(8, 8, 7, seed=3)),
                 ("gen 9x7 seed 5", generate(9, 7, 7, seed=5))]
    questions = []
    for name, instance in instances:
        order = list(instance.names)
        for strategy in ("dfs", "cell"):
            inner = goal("count_tilings", strategy, order, [], Var("_"))
            questions.append((f"tangram {strategy} {name}", "tangram", on_instance(instance, inner)))
    return questions


def child() -> None:
    """One repetition in this process: each question's Prolog CPU seconds and inferences, as JSON on stdout.

    A question is asked once (its inferences, and its tables warmed), then again in a loop inside Prolog long
    enough (about SPAN seconds) that the clock's grain does not matter; its time is the loop's over its length.
    """
    from pysolve import bridge

    results = {}
    for label, rule_base, asked in (sudoku_questions() + hidato_questions() + squares_questions()
                                    + tangram_questions()):
        once = (f"statistics(cputime, T0), statistics(inferences, I0), once(({asked})), "
                "statistics(inferences, I1), statistics(cputime, T1), T is T1 - T0, I is I1 - I0")
        (row,) = bridge.solutions(rule_base, once, max_solutions=1, seconds=120).rows
        times = max(1, round(SPAN / max(row["T"], 1e-6)))
        loop = (f"statistics(cputime, T0), forall(between(1, {times}, _), once(({asked}))), "
                f"statistics(cputime, T1), T is (T1 - T0) / {times}")
        (timed,) = bridge.solutions(rule_base, loop, max_solutions=1, seconds=120).rows
        results[label] = [timed["T"], row["I"]]
    json.dump(results, sys.stdout)


def run(tree: Path) -> dict[str, list[float]]:
    """One repetition in a fresh process on the checkout `tree`."""
    env = dict(os.environ, PYTHONPATH=str(tree.resolve()), PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run([sys.executable, str(HERE), "--child"], env=env, cwd=tree, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def main() -> None:
    """Interleave the repetitions of the two checkouts; print each question's minimum time and inferences."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path, nargs="?")
    parser.add_argument("b", type=Path, nargs="?")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child()
        return
    runs: dict[str, list[dict[str, list[float]]]] = {"a": [], "b": []}
    for _ in range(args.repeat):
        runs["a"].append(run(args.a))
        runs["b"].append(run(args.b))
    rows = []
    for label in runs["a"][0]:
        best = [min(r[label][0] for r in runs[side]) for side in ("a", "b")]
        inferences = [",".join(map(str, sorted({r[label][1] for r in runs[side]}))) for side in ("a", "b")]
        rows.append((label, best[0], best[1], f"{inferences[0]:>14} {inferences[1]:>14}"))
    print_table(rows, f"{'A inferences':>14} {'B inferences':>14}")

if __name__ == "__main__":
    main()
