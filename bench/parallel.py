"""Benchmark of parallel runs: each run as one process, then on N workers, then on a Dask cluster of N workers.

Run: .venv/bin/python bench/parallel.py [--workers N] [--quick] [--rows WORDS] [--repeat K]
Each row is a `pysolve` command run as a user runs it, in a process of its
own, three ways in one run: alone (`--workers 1`), with `--workers N`, and
with `--cluster` on a Dask LocalCluster of N single-threaded worker processes
started here. Printed: wall seconds of each; the speed-up (wall alone over
wall with workers) and the efficiency (speed-up / N); the CPU seconds of the
command's own process and of every process it started, and the parent's
share of all of them (what N cores cannot share out: the figure that says
what 16 cores would give); the CPU seconds of the whole run with workers
over those of the run alone (what splitting costs in all: efficiency can
be at most its inverse, whatever the load of the machine); the Dask run's
wall seconds over the pool's and its CPU seconds: the command's own, the
cluster's workers' and its scheduler's and nannies' (this process's) over
the run; and how the count ran (parts, or one search and why). The answers
must agree. The cluster is readied before its first run, as a long-lived
one is: every worker has imported pysolve and started every back end that
can run (what a forked pool's workers have of the command's own process).
`--quick` leaves out the rows that take a minute or more alone; `--rows
azul,prolog` runs only the rows whose label holds one of the words.
`--repeat K` runs each row K times in turn (alone, pool, alone, ...), a line
each, then a line of the medians and of the best of each way (timeit's
minimum: the run least slowed by the machine's other work), where one run
on a machine whose cores change speed says little; the Dask runs the same.
The pool's runs come first, with no cluster alive: an idle cluster's
scheduler and workers take CPU a second of their own (about 0.13 of a core
here), which a run on every core would lose to them; the cluster is then
started and the same commands run on it, their wall seconds set against the
pool's median.
"""

from __future__ import annotations

import argparse
import importlib
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

# The command runs in this wrapper, which writes its own CPU seconds (user + system) to the file given first.
WRAPPER = """
import atexit, resource, runpy, sys
out = sys.argv.pop(1)
def own():
    used = resource.getrusage(resource.RUSAGE_SELF)
    with open(out, "w") as f:
        f.write(str(used.ru_utime + used.ru_stime))
atexit.register(own)
sys.argv[0] = "pysolve"
runpy.run_module("pysolve.cli", run_name="__main__")
"""


class Run(NamedTuple):
    """One command's run: its output, wall seconds, its own CPU seconds and those of the processes it started."""

    out: str
    err: str
    wall: float
    own_cpu: float
    children_cpu: float

    @property
    def cpu(self) -> float:
        """Every CPU second the run took: the command's own process's and those of the processes it started."""
        return self.own_cpu + self.children_cpu

    @property
    def parent_share(self) -> float:
        """The command's own process's share of all the CPU seconds the run took."""
        return self.own_cpu / self.cpu


def children_cpu() -> float:
    """CPU seconds of this process's children that have ended (and theirs)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(argv: list[str]) -> Run:
    """`pysolve argv` in a process of its own, measured."""
    with tempfile.NamedTemporaryFile("r", suffix=".cpu") as own:
        before, started = children_cpu(), time.perf_counter()
        done = subprocess.run([PYTHON, "-c", WRAPPER, own.name, *argv], cwd=ROOT, capture_output=True, text=True,
                              check=False)
        wall, everything = time.perf_counter() - started, children_cpu() - before
        if done.returncode != 0:
            raise SystemExit(f"pysolve {' '.join(argv)} failed ({done.returncode}):\n{done.stderr}")
        own_cpu = float(Path(own.name).read_text())
    return Run(done.stdout, done.stderr, wall, own_cpu, everything - own_cpu)


def answer_of(kind: str, out: str) -> Any:
    """What must agree between the ways a command ran: a count, a file's answers, a tournament's table."""
    if kind == "count":
        answer = json.loads(out)
        return answer["count"]
    if kind == "file":
        return [(answer["status"], answer["solutions"]) for answer in json.loads(out)["answers"]]
    return out  # a tournament's table: its first games and the standings


def how(kind: str, out: str) -> str:
    """How a command ran: the parts of a count and where, or why it ran as one search."""
    if kind != "count":
        return ""
    stats = json.loads(out)["stats"]
    return stats.get("serially") or f"{stats.get('parts', 1)} parts on {stats.get('ran_on')}"


def rows(board: Path, quick: bool) -> list[tuple[str, str, list[str]]]:
    """(label, kind, pysolve argv without --workers/--cluster) of every measured run."""
    owen = ["solve", "squares", "eternity-6x6", "--count", "--json", "--seconds", "600"]
    tangram = ["solve", "tangram", str(board), "--count", "--json", "--seconds", "600"]
    top95 = ["solve", "sudoku", "top95", "--json", "--backend"]
    table = [("azul simulate, 20,000 games (python)", "games",
              ["azul", "simulate", "--games", "20000", "--backend", "python"]),
             ("tangram 20x20/14 count (python, memo)", "count", [*tangram, "--backend", "python"]),
             ("tangram 20x20/14 count (prolog, memo)", "count", [*tangram, "--backend", "prolog"]),
             ("tangram 20x20/14 count (kanren, tabled)", "count", [*tangram, "--backend", "kanren"]),
             ("squares Owen 6x6 count (python)", "count", [*owen, "--backend", "python"]),
             ("squares Owen 6x6 count (prolog)", "count", [*owen, "--backend", "prolog"]),
             ("sudoku top95, 95 puzzles (prolog)", "file", [*top95, "prolog"]),
             ("sudoku top95, 95 puzzles (python)", "file", [*top95, "python"])]
    if not quick:
        table.append(("squares Owen 6x6 count (kanren)", "count", [*owen, "--backend", "kanren"]))
    return table


def ready() -> None:
    """A cluster worker's state after earlier runs: pysolve imported, every back end that can run started."""
    from pysolve import backends

    for module in ("pysolve.cli", "pysolve.azul.cli"):
        importlib.import_module(module)
    for name in backends.NAMES:
        if backends.available(name):
            backends.require(name)


def own_cpu() -> float:
    """This process's CPU seconds (user + system)."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def workers_cpu(client: Any) -> float:
    """The CPU seconds the cluster's worker processes have taken, all together."""
    return sum(client.run(own_cpu).values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="workers of the pool and of the cluster (default 2)")
    parser.add_argument("--quick", action="store_true", help="leave out the rows that take a minute or more alone")
    parser.add_argument("--rows", metavar="WORDS", default="",
                        help="only the rows whose label holds one of these comma-separated words (azul,prolog)")
    parser.add_argument("--repeat", type=int, default=1, metavar="K",
                        help="run each row K times in turn, then print the medians and the best (default 1)")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error(f"--repeat: at least 1, not {args.repeat}")
    import distributed

    folder = Path(tempfile.mkdtemp(prefix="bench-parallel-"))
    board = folder / "tangram-20x20.txt"
    board.write_text(run(["generate", "tangram", "--width", "20", "--height", "20", "--pieces", "14",
                          "--seed", "3"]).out)
    wanted = [word for word in args.rows.split(",") if word]
    chosen = [row for row in rows(board, args.quick) if not wanted or any(word in row[0] for word in wanted)]
    workers = args.workers
    print(f"{'run':40} | {'alone s':>7} | {f'{workers} workers s':>11} {'speed-up':>8} {'effic.':>6} "
          f"{'CPU own/all':>12} {'parent':>6} {'CPU/alone':>9} | how the count ran")
    pooled_walls, answers = {}, {}
    for label, kind, argv in chosen:
        walls: list[tuple[float, float]] = []
        for repeat in range(args.repeat):
            alone = run(argv)
            pooled = run([*argv, "--workers", str(workers)])
            answers.setdefault(label, set()).update(answer_of(kind, each.out).__repr__() for each in (alone, pooled))
            walls.append((alone.wall, pooled.wall))
            speed_up = alone.wall / pooled.wall
            print(f"{numbered(label, repeat, args.repeat):40} | {alone.wall:7.2f} | {pooled.wall:11.2f} "
                  f"{speed_up:7.2f}x {speed_up / workers:6.0%} {pooled.own_cpu:5.2f}/{pooled.cpu:6.2f} "
                  f"{pooled.parent_share:6.1%} {pooled.cpu / alone.cpu:8.2f}x | {how(kind, pooled.out)}", flush=True)
        for word, pick in summaries(args.repeat):
            alone_wall, pooled_wall = (pick(each[way] for each in walls) for way in range(2))
            print(f"{f'  {word} of {args.repeat}':40} | {alone_wall:7.2f} | {pooled_wall:11.2f} "
                  f"{alone_wall / pooled_wall:7.2f}x {alone_wall / pooled_wall / workers:6.0%}", flush=True)
        pooled_walls[label] = statistics.median(each[1] for each in walls)
    print(f"\n{'run':40} | {'Dask s':>7} {'vs pool':>7} {'CPU own/workers/sched.':>22} | answers")
    with (distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                   dashboard_address=None) as cluster, distributed.Client(cluster) as client):
        client.run(ready)
        for label, kind, argv in chosen:
            dask_walls = []
            for repeat in range(args.repeat):
                before, scheduler_before = workers_cpu(client), own_cpu()
                dask = run([*argv, "--cluster", cluster.scheduler_address])
                scheduler, on_workers = own_cpu() - scheduler_before, workers_cpu(client) - before
                answers[label].add(answer_of(kind, dask.out).__repr__())
                dask_walls.append(dask.wall)
                print(f"{numbered(label, repeat, args.repeat):40} | {dask.wall:7.2f} "
                      f"{dask.wall / pooled_walls[label]:6.2f}x {dask.own_cpu:6.2f}/{on_workers:6.2f}/{scheduler:6.2f} "
                      f"| {'agree' if len(answers[label]) == 1 else 'DISAGREE'}", flush=True)
            for word, pick in summaries(args.repeat):
                wall = pick(dask_walls)
                print(f"{f'  {word} of {args.repeat}':40} | {wall:7.2f} {wall / pooled_walls[label]:6.2f}x",
                      flush=True)


def numbered(label: str, repeat: int, repeats: int) -> str:
    """A row's label, numbered by its repeat when there are several."""
    return label if repeats == 1 else f"{label[:35]} #{repeat + 1}"


def summaries(repeats: int) -> list[tuple[str, Callable[[Iterable[float]], float]]]:
    """The lines after a row's repeats, by name and how each picks its wall seconds: none for one run."""
    return [("median", statistics.median), ("best", min)] if repeats > 1 else []


if __name__ == "__main__":
    main()
