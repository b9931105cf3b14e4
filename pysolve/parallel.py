"""A count split into independent parts (`Puzzle.split`: the first placements), run in parallel, summed.

The parts of a question partition its solutions, so their counts add up to
the serial count, whatever runs them: a pool of processes (`--workers N`) or
an existing Dask cluster (`--cluster ADDRESS`). The question's time limit is
each worker's: CPU seconds of its own, spent over the parts it runs (every
part gets what is left of them when it starts), with the wall-clock guard
of the limit (`budget.wall_guard`, from the start of the count, shared by
the machines of a cluster) over them all. One part out of time makes the
whole count `unknown`, with the parts that did finish adding up to an "at
least".
"""

from __future__ import annotations

import dataclasses
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Executor, Future, as_completed
from typing import Any

from pysolve import backends, executors, puzzles
from pysolve.answers import NO_SOLUTION, SOLVED, UNKNOWN, Answer
from pysolve.budget import guard_words, wall_guard, work_clock
from pysolve.errors import InputError
from pysolve.puzzle import Puzzle
from pysolve.report import Progress


@dataclasses.dataclass(frozen=True)
class Part:
    """One sub-question, the back end to ask, the count it belongs to (`run`: the workers' CPU time is counted
    per count) and the wall-clock time (time.time()) past which no part starts: the limit's guard."""

    puzzle: str
    question: Any
    backend: str
    run: str
    guard: float


_cpu_started: dict[tuple[str, int], float] = {}  # (count, thread) -> the thread's CPU clock at its first part


@dataclasses.dataclass(frozen=True)
class PartCount:
    """What one part found: its status, count, the reason when unknown, and its own seconds (wall and CPU)."""

    status: str
    count: int
    reason: str
    seconds: float
    cpu_seconds: float = 0.0


def count_part(part: Part) -> PartCount:
    """Count one part on its back end, within what is left of this worker's CPU time for the count (runs in a
    worker, whose back end starts first: its start-up is spent from that time too)."""
    puzzle = puzzles.get(part.puzzle)
    limit = part.question.seconds
    started = _cpu_started.setdefault((part.run, threading.get_ident()), work_clock())
    backends.require(part.backend)
    left = limit - (work_clock() - started)
    if left <= 0 or time.time() > part.guard:
        why = f"its time limit of {limit:g} s" if left <= 0 else guard_words(limit)
        return PartCount(UNKNOWN, 0, f"{puzzle.name} count passed {why} before this part started", 0.0)
    answer = puzzle.solve(dataclasses.replace(part.question, seconds=left), part.backend)
    return PartCount(answer.status, answer.count or 0, answer.stats.get("reason", ""), answer.stats["seconds"],
                     answer.stats["cpu_seconds"])


def count_in_parts(puzzle: Puzzle, question: Any, backend: str | None = None, workers: int = 1,
                   cluster: str | None = None) -> Answer:
    """Count `question`'s solutions as the sum of its parts' counts, the parts run by up to `workers`
    processes (no more than help: `executors.useful_workers`) or on the Dask cluster at `cluster` (in this
    process when neither), with progress on a terminal.
    InputError when the question cannot be split. The time limit is each worker's CPU time (this process's,
    when it runs the parts itself, spent on the split too)."""
    started, guard, run = time.perf_counter(), time.time() + wall_guard(question.seconds), uuid.uuid4().hex
    started_cpu = work_clock()
    _cpu_started[run, threading.get_ident()] = work_clock()  # parts run here share this thread's time
    parts = puzzle.split(question)
    if parts is None:
        raise InputError(f"--workers/--cluster: this {puzzle.name} question cannot be split into parts "
                         f"(only {puzzle.splits} can)")
    backend = backend or puzzle.default_backend(question)
    processes = executors.useful_workers(workers, len(parts))
    work = [Part(puzzle.name, part, backend, run, guard) for part in parts]
    progress = Progress(len(work), f"{puzzle.name} count, parts")
    try:
        with executors.executor(processes, cluster) as chosen:
            results = run_parts(work, chosen, progress.step)
    finally:
        progress.close()
        _cpu_started.pop((run, threading.get_ident()), None)
    elsewhere = sum(result.cpu_seconds for result in results) if chosen is not None else 0.0
    return summed(puzzle, question, backend, results, time.perf_counter() - started,
                  work_clock() - started_cpu + elsewhere, cluster or ran_on(processes, workers))


def ran_on(processes: int, asked: int) -> str:
    """The processes a count ran on, in words, with the number asked for when it was more than helps."""
    ran = f"{processes} process{'es' if processes > 1 else ''}"
    return ran if processes == asked else f"{ran} (of {asked} asked: at most one per core and per part)"


def run_parts(work: list[Part], executor: Executor | None, progress: Callable[[str], None]) -> list[PartCount]:
    """Every part's count, in part order, on `executor` (in this process when None)."""
    if executor is None:
        results = []
        for part in work:
            results.append(count_part(part))
            progress(results[-1].status)
        return results
    futures: dict[Future[PartCount], int] = {executor.submit(count_part, part): number
                                             for number, part in enumerate(work)}
    ordered: list[PartCount | None] = [None] * len(work)
    for future in as_completed(futures):
        ordered[futures[future]] = future.result()
        progress(future.result().status)
    return [result for result in ordered if result is not None]


def summed(puzzle: Puzzle, question: Any, backend: str, results: list[PartCount], seconds: float,
           cpu_seconds: float, ran_on: str) -> Answer:
    """The parts' counts added up into one Answer (unknown when any part is, with its reason), taken in
    `seconds` of the wall clock and `cpu_seconds` of every process's CPU time."""
    total = puzzle.total(question, [result.count for result in results])
    stopped = [result for result in results if result.status == UNKNOWN]
    status = UNKNOWN if stopped else SOLVED if total else NO_SOLUTION
    stats: dict[str, Any] = {"seconds": round(seconds, 6), "cpu_seconds": round(cpu_seconds, 6), "parts": len(results),
                             "ran_on": ran_on,
                             "part_seconds": round(sum(result.seconds for result in results), 6)}
    if stopped:
        stats["reason"] = f"{len(stopped)} of {len(results)} parts unknown: {stopped[0].reason}"
    return Answer(puzzle=puzzle.name, backend=backend, solutions=[], stats=stats, count=total, status=status,
                  question=puzzle.describe(question), asked=question)
