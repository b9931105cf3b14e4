"""The miniKanren fallback against Prolog and Python on every shipped instance, measured in one run (not a test).

    .venv/bin/python bench/fallback.py [--only hidato|sudoku|squares] [--floor 2] [--factor 20]

Each instance is asked the same question of the three back ends: Hidato and
Sudoku, count to 2 (a solution, and whether it is unique); squares, the
count. Prolog and Python answer first; miniKanren then gets its limit, the
larger of `factor` times Prolog's time and `floor` seconds (the fallback's
target). Every figure is CPU seconds of this process (Prolog runs inside it).
Prints, per family, how many instances miniKanren answered within its limit,
the median and worst ratio kanren/prolog and kanren/python, and the slowest
instances. Instances: data/hidato (top level, long/, public/), data/sudoku
(every file), data/squares (insects and the four eternity sets).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pysolve import puzzles
from pysolve.backends import available
from pysolve.errors import UnknownName
from pysolve.paths import data_dir
from pysolve.puzzle import SOLVED
from pysolve.report import render_table

DATA = data_dir()
SQUARES = ["insects", "eternity-3x3", "eternity-4x4", "eternity-5x5", "eternity-6x6"]


def instances(family: str) -> list[tuple[str, dict[str, Any]]]:
    """(label, question options) of every shipped instance of a family."""
    if family == "hidato":
        folder = DATA / "hidato"
        paths = sorted(folder.glob("*.txt")) + sorted((folder / "long").glob("*.txt")) + sorted(
            (folder / "public").glob("*.txt"))
        return [(str(path.relative_to(folder)), {"file": str(path), "count": 2}) for path in paths]
    if family == "sudoku":
        puzzle = puzzles.get("sudoku")
        found = []
        for path in sorted((DATA / "sudoku").glob("*.txt")):
            for index in range(1, len(puzzle.questions(file=str(path))) + 1):
                found.append((f"{path.name}:{index}", {"file": str(path), "index": index, "count": 2}))
        return found
    return [(name, {"file": name, "count": True}) for name in SQUARES]


def timed(family: str, options: dict[str, Any], backend: str, seconds: float) -> tuple[float, str, Any]:
    """CPU seconds, status and count of one back end's answer."""
    puzzle = puzzles.get(family)
    question = puzzle.question(**options, seconds=seconds)
    started = time.process_time()
    try:
        answer = puzzle.solve(question, backend)
    except UnknownName:  # the back end declines the question
        return 0.0, "declined", None
    return time.process_time() - started, answer.status, answer.count


def measure(family: str, floor: float, factor: float) -> list[dict[str, Any]]:
    """One row per instance: each back end's CPU seconds and whether miniKanren agreed within its limit."""
    rows = []
    for label, options in instances(family):
        prolog_s, prolog_status, prolog_count = timed(family, options, "prolog", 60.0)
        python_s, _, _ = timed(family, options, "python", 60.0)
        limit = max(factor * prolog_s, floor)
        kanren_s, kanren_status, kanren_count = timed(family, options, "kanren", limit)
        answered = kanren_status == SOLVED and prolog_status == SOLVED and kanren_count == prolog_count
        rows.append({"instance": label, "prolog": prolog_s, "python": python_s, "kanren": kanren_s, "limit": limit,
                     "answered": answered, "status": kanren_status})
        print(f"  {label:36} prolog {prolog_s:8.4f}  python {python_s:8.4f}  kanren {kanren_s:8.4f} "
              f"(limit {limit:5.1f}) {'ok' if answered else kanren_status}", flush=True)
    return rows


def summary(family: str, rows: list[dict[str, Any]]) -> None:
    """Coverage, ratios and the slowest instances of one family."""
    answered = [row for row in rows if row["answered"]]
    ratios = {base: sorted(row["kanren"] / max(row[base], 1e-6) for row in answered) for base in ("prolog", "python")}
    print(f"\n{family}: kanren answered {len(answered)} of {len(rows)} within max(20 x prolog, 2 s)")
    if answered:
        for base, values in ratios.items():
            print(f"  kanren / {base}: median {statistics.median(values):.1f}x, worst {values[-1]:.1f}x")
    slowest = sorted(rows, key=lambda row: -row["kanren"])[:8]
    print(render_table(["instance", "prolog s", "python s", "kanren s", "limit s", "kanren"],
                       [[row["instance"], f"{row['prolog']:.4f}", f"{row['python']:.4f}", f"{row['kanren']:.4f}",
                         f"{row['limit']:.1f}", "ok" if row["answered"] else row["status"]] for row in slowest]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["hidato", "sudoku", "squares"])
    parser.add_argument("--floor", type=float, default=2.0, help="kanren's least limit in seconds (default 2)")
    parser.add_argument("--factor", type=float, default=20.0, help="kanren's limit as a multiple of Prolog's time")
    args = parser.parse_args()
    if not available("prolog"):
        print("fallback bench: needs SWI-Prolog to compare against; it is unavailable here")
        return 1
    for family in [args.only] if args.only else ["hidato", "sudoku", "squares"]:
        print(f"\n--- {family}", flush=True)
        summary(family, measure(family, args.floor, args.factor))
    return 0


if __name__ == "__main__":
    sys.exit(main())
