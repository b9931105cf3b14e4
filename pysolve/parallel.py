"""Questions answered in parallel: one count split into independent parts, or a file of many puzzles.

A count (`Puzzle.split`: its first placements) is the sum of its parts'
counts, since the parts partition its solutions, whatever runs them: a pool
of processes (`--workers N`, `--workers auto`: one per core) or an existing
Dask cluster (`--cluster ADDRESS`). The pool starts first, its workers
load their back end, and one of them tries the question alone for
PROBE_SECONDS of CPU (`try_alone`: this process runs no search and starts
no engine, so that its share of the run stays small) while the others
start on the parts: a question answered in that time is answered (the
pool is stopped, and the answer says why it ran as one search), since
splitting it would cost more than it saves. So does a count whose back end
shares work between the branches of its search (a memo), which parts would
each do again: `splits_pay`, asked before connecting to a cluster (such a
count imports no Dask and makes no connection). Then the parts go to the
workers as they free up, at least PARTS_PER_WORKER each, and a part that
runs long is given back and split again (`run_sliced`), so that no worker
waits long on the last.

The question's time limit is each worker's: CPU seconds of its own, spent
over the parts it runs (every part gets what is left of them when it
starts), with the wall-clock guard of the limit (`budget.wall_guard`, from
the start of the count, shared by the machines of a cluster) over them all.
One part out of time makes the whole count `unknown`, with the parts that did
finish adding up to an "at least".

A file of many puzzles (`answers`) goes to the workers in chunks and comes
back in order; with `--workers auto` its first puzzles are answered here
for a worker's start in CPU, and the rest goes to the workers only if they
would finish it sooner (`executors.Trial`).
"""

from __future__ import annotations

import collections
import dataclasses
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Any

from pysolve import backends, executors, puzzles, words
from pysolve.answers import NO_SOLUTION, SOLVED, UNKNOWN, Answer
from pysolve.budget import guard_words, wall_guard, work_clock
from pysolve.errors import InputError
from pysolve.puzzle import Puzzle
from pysolve.report import Progress

PROBE_SECONDS = executors.START_SECONDS  # CPU seconds one search may take before a count is split
PARTS_PER_WORKER = 8  # a count is split further until each worker has this many parts
CHUNKS_PER_WORKER = 8  # the puzzles of a file go to the workers in this many chunks each


@dataclasses.dataclass(frozen=True)
class Part:
    """One part of a count, as a worker runs it.

    One sub-question, the back end to ask, the count it belongs to (`run`: the workers' CPU time is counted
    per count), the wall-clock time (time.time()) past which no part starts (the limit's guard), and the CPU
    seconds it may take before it is given back to be split again (`slice`; None: to its end).
    """

    puzzle: str
    question: Any
    backend: str
    run: str
    guard: float
    slice: float | None = None


_cpu_started: dict[tuple[str, int], float] = {}  # (count, thread) -> the thread's CPU clock at its first part
os.register_at_fork(after_in_child=_cpu_started.clear)  # a forked worker's clock starts again at 0


@dataclasses.dataclass(frozen=True)
class PartCount:
    """What one part found: its status, count, the reason when unknown, and its own seconds (wall and CPU)."""

    status: str
    count: int
    reason: str
    seconds: float
    cpu_seconds: float = 0.0
    sliced: bool = False  # out of its slice, not of the count's limit: to be split again


def count_part(part: Part) -> PartCount:
    """Count one part on its back end, in a worker.

    Count one part on its back end, within what is left of this worker's CPU time for the count (runs in a
    worker, whose back end starts first: its start-up is spent from that time too).
    """
    puzzle = puzzles.get(part.puzzle)
    limit = part.question.seconds
    started = _cpu_started.setdefault((part.run, threading.get_ident()), work_clock())
    backends.require(part.backend)
    left = limit - (work_clock() - started)
    if left <= 0 or time.time() > part.guard:
        why = f"its time limit of {limit:g} s" if left <= 0 else guard_words(limit)
        return PartCount(UNKNOWN, 0, f"{puzzle.name} count passed {why} before this part started", 0.0)
    sliced = part.slice is not None and part.slice < left
    answer = puzzle.solve(dataclasses.replace(part.question, seconds=part.slice if sliced else left), part.backend)
    return PartCount(answer.status, answer.count or 0, answer.stats.get("reason", ""), answer.stats["seconds"],
                     answer.stats["cpu_seconds"], sliced and answer.status == UNKNOWN)


def warm(puzzle: str, question: Any, backend: str | None) -> None:
    """Start a worker: import the puzzle and start its back end.

    A worker's start: import the puzzle and start the back end that answers `question` (SWI-Prolog,
    miniKanren), the default one when `backend` is None, before any part.
    """
    chosen = puzzles.get(puzzle)
    backends.require(backend or chosen.default_backend(question))


def count_in_parts(puzzle: Puzzle, question: Any, backend: str | None = None, workers: int | str = 1,
                   cluster: str | None = None, probe: float = PROBE_SECONDS) -> Answer:
    """Count `question`'s solutions as the sum of its parts' counts.

    Count `question`'s solutions as the sum of its parts' counts, the parts run by up to `workers`
    processes ("auto": one per core; no more than help: `executors.useful_workers`) or on the Dask cluster at
    `cluster`, with progress on a terminal; with neither, the parts one after another in this process.
    A question that one search answers within `probe` CPU seconds, or whose parts would repeat each other's
    work (`splits_pay`), is answered by one search here: its `stats["serially"]` says why.
    InputError when the question cannot be split. The time limit is each worker's CPU time (this process's,
    when it runs the parts itself, spent on the split too).
    """
    started, guard, run = time.perf_counter(), time.time() + wall_guard(question.seconds), uuid.uuid4().hex
    started_cpu = work_clock()
    _cpu_started[run, threading.get_ident()] = work_clock()  # parts run here share this thread's time
    try:
        parts = puzzle.split(question)
        if parts is None:
            raise InputError(f"--workers/--cluster: this {puzzle.name} question cannot be split into parts "
                             f"(only {puzzle.splits} can)")
        processes = executors.useful_workers(workers, len(parts))
        if cluster is None and processes == 1 and workers != 1:
            return serially(puzzle, question, backend, f"ran as one search: {executors.ran_on(1, workers)}")
        if cluster is None and processes > 1:
            parts = finer(puzzle, parts, PARTS_PER_WORKER * processes)
        if cluster is not None:  # no pool to fork first: a count its parts would not pay for never imports Dask
            backend = backend or puzzle.default_backend(question)
            if not puzzle.splits_pay(question, backend):
                return serially(puzzle, question, backend, shares_work(backend))
        # the pool starts before the back end is chosen here, which may start SWI-Prolog: then its workers are
        # forked copies of this process (see executors.start_method)
        with executors.executor(processes, cluster, warm=(warm, puzzle.name, question, backend)) as chosen:
            backend = backend or puzzle.default_backend(question)
            if cluster is None and chosen is not None and not puzzle.splits_pay(question, backend):
                executors.abandon(chosen)
                return serially(puzzle, question, backend, shares_work(backend))
            tried = None  # the search tried alone in a worker, beside the parts
            if chosen is not None and probe > 0 and question.seconds > probe:
                tried = chosen.submit(try_alone, puzzle.name, question, backend, probe)
            work = [Part(puzzle.name, part, backend, run, guard) for part in parts]
            progress = Progress(len(work), f"{puzzle.name} count, parts")
            try:
                results = run_parts(work, progress) if chosen is None else run_sliced(puzzle, work, chosen, progress,
                                                                                      tried)
            finally:
                progress.close()
            alone = tried.result() if tried is not None else None  # within PROBE_SECONDS of CPU
            if alone is not None and alone.status != UNKNOWN:
                executors.abandon(chosen)
                return noted(alone, f"ran as one search: it took {words.seconds(alone.stats['cpu_seconds'])} of "
                                    f"CPU, less than starting {executors.ran_on(processes, workers)} costs", TRIED_ON)
    finally:
        _cpu_started.pop((run, threading.get_ident()), None)
    here = work_clock() - started_cpu
    tried_cpu = alone.stats.get("cpu_seconds", 0.0) if alone is not None else 0.0
    elsewhere = tried_cpu + sum(result.cpu_seconds for result in results) if chosen is not None else 0.0
    return summed(puzzle, question, backend, results, time.perf_counter() - started, here + elsewhere,
                  cluster or executors.ran_on(processes, workers), here)


def finer(puzzle: Puzzle, parts: list[Any], wanted: int) -> list[Any]:
    """`parts`, each split again while there are fewer than `wanted` and splitting makes more."""
    while len(parts) < wanted:
        deeper = [piece for part in parts for piece in (puzzle.split(part) or [part])]
        if len(deeper) == len(parts):
            break
        parts = deeper
    return parts


def shares_work(backend: str) -> str:
    """Why a count whose parts would not pay (`Puzzle.splits_pay`) ran as one search."""
    return f"ran as one search: the {backend} count shares work between its branches, which parts would each do again"


TRIED_ON = "one worker process"  # where a count tried alone ran (`try_alone`)


def try_alone(puzzle: str, question: Any, backend: str, seconds: float) -> Answer:
    """The answer of one search of the whole `question` within `seconds` of CPU, in a worker.

    A count is tried so before it is split: a worker's back end is started already, and this process stays
    free of the search and of its engine."""
    return puzzles.get(puzzle).solve(dataclasses.replace(question, seconds=seconds), backend)


def serially(puzzle: Puzzle, question: Any, backend: str | None, why: str) -> Answer:
    """`question` answered by one search in this process, the answer noting `why`."""
    return noted(puzzle.solve(question, backend), why)


def noted(answer: Answer, why: str, where: str = "this process") -> Answer:
    """`answer` of one search (in this process unless `where` says), its stats saying so and why (`serially`)."""
    answer.stats.update(ran_on=where, serially=why)
    return answer


def run_parts(work: list[Part], progress: Progress) -> list[PartCount]:
    """Every part's count, one after another in this process."""
    results = []
    for part in work:
        results.append(count_part(part))
        progress.step(results[-1].status)
    return results


MIN_SLICE = 0.05  # CPU seconds: the least a part may run before it is given back to be split again


def run_sliced(puzzle: Puzzle, work: list[Part], executor: Executor, progress: Progress,
               tried: Future[Answer] | None = None) -> list[PartCount]:
    """Every part's count on `executor`, the parts handed out as workers free up (one waiting beyond them).

    `tried`, the whole question searched alone in one worker for a moment (`try_alone`), runs beside the
    first parts: when it answers the question, the parts are of no more use, and those counted so far are
    returned at once.

    So that the last part does not hold the whole count up, a part may run for at most half of a worker's
    share of the count's estimated CPU time (its slice: the parts counted so far times all the parts, split
    among the workers); one that does not finish in it comes back and is split again (`Puzzle.split` of the
    part), its sub-parts handed out first. The first parts, handed out before any is counted, run to their
    end. What a part spent before it was split again is lost (at most its slice): its count comes back
    `sliced`, for its CPU seconds only.
    """
    width = executors.width(executor)
    waiting, running = collections.deque(work), dict[Future[PartCount], Part]()
    results: list[PartCount] = []
    while waiting or running:
        while waiting and len(running) <= width:
            part = dataclasses.replace(waiting.popleft(), slice=_slice(results, len(waiting) + len(running) + 1, width))
            running[executor.submit(count_part, part)] = part
        watched: list[Future[Any]] = [*running, *([tried] if tried is not None else [])]
        finished, _ = wait(watched, return_when=FIRST_COMPLETED)
        if tried is not None and tried in finished:
            if tried.result().status != UNKNOWN:
                return results
            finished.discard(tried)
            tried = None
        for future in finished:
            part, result = running.pop(future), future.result()
            deeper = (puzzle.split(part.question) or []) if result.sliced else []
            if len(deeper) > 1:
                waiting.extendleft(reversed([dataclasses.replace(part, question=piece) for piece in deeper]))
                progress.total += len(deeper) - 1
            elif result.sliced:  # a part that splits no further runs to its end
                waiting.appendleft(dataclasses.replace(part, slice=None))
            if not result.sliced:
                progress.step(result.status)
            results.append(result)
    return results


def _slice(counted: list[PartCount], left: int, width: int) -> float | None:
    """The CPU seconds the next part may take: half of a worker's share of the count's estimated CPU time,
    from the `counted` parts and the `left` ones (at least MIN_SLICE); None before any part is counted."""
    finished = [result for result in counted if not result.sliced]
    if not finished:
        return None
    done = sum(result.cpu_seconds for result in counted)
    estimate = done + sum(result.cpu_seconds for result in finished) / len(finished) * left
    return max(MIN_SLICE, estimate / width / 2)


def summed(puzzle: Puzzle, question: Any, backend: str, results: list[PartCount], seconds: float,
           cpu_seconds: float, ran_on: str, parent_cpu_seconds: float) -> Answer:
    """The parts' counts added up into one Answer.

    The parts' counts added up into one Answer (unknown when any part is, with its reason), taken in
    `seconds` of the wall clock and `cpu_seconds` of every process's CPU time, `parent_cpu_seconds` of them
    this process's (splitting, trying alone, gathering).
    """
    split_again = sum(result.sliced for result in results)
    results = [result for result in results if not result.sliced]
    total = puzzle.total(question, [result.count for result in results])
    stopped = [result for result in results if result.status == UNKNOWN]
    status = UNKNOWN if stopped else SOLVED if total else NO_SOLUTION
    stats: dict[str, Any] = {"seconds": round(seconds, 6), "cpu_seconds": round(cpu_seconds, 6), "parts": len(results),
                             "ran_on": ran_on, "part_seconds": round(sum(result.seconds for result in results), 6),
                             "parent_cpu_seconds": round(parent_cpu_seconds, 6)}
    if split_again:  # parts out of their slice, split again: `parts` counts their sub-parts
        stats["split_again"] = split_again
    if stopped:
        stats["reason"] = f"{len(stopped)} of {len(results)} parts unknown: {stopped[0].reason}"
    return Answer(puzzle=puzzle.name, backend=backend, solutions=[], stats=stats, count=total, status=status,
                  question=puzzle.describe(question), asked=question)


def answer_one(puzzle: str, question: Any, backend: str | None) -> Answer:
    """One question of a file, answered in a worker."""
    return puzzles.get(puzzle).solve(question, backend)


def answer_chunk(puzzle: str, questions: Sequence[Any], backend: str | None) -> list[Answer]:
    """A chunk of a file's questions, answered one after another in a worker."""
    return [answer_one(puzzle, question, backend) for question in questions]


def answers(puzzle: Puzzle, questions: Sequence[Any], backend: str | None, workers: int | str = 1,
            cluster: str | None = None, say: Callable[[str], None] | None = None) -> Iterator[Answer]:
    """The answers of many questions (a file of puzzles), in order, each as soon as it and those before it are in.

    Here one by one, or on up to `workers` processes (or the cluster at `cluster`) in chunks,
    CHUNKS_PER_WORKER a worker. With `workers` "auto" and a back end that runs here already (or needs no
    start), the first questions are answered here, and the rest go to the pool only when it pays
    (`executors.Trial`); `say` hears in one line why a file ran here. A back end still to start goes to the
    pool at once: the workers start it side by side in the time it would take here.
    """
    def here(question: Any) -> Answer:
        return puzzle.solve(question, backend)

    def on(chosen: Executor, questions: Sequence[Any]) -> Iterator[Answer]:
        pieces = executors.chunks(questions, executors.width(chosen) * CHUNKS_PER_WORKER)
        for future in [chosen.submit(answer_chunk, puzzle.name, piece, backend) for piece in pieces]:
            yield from future.result()

    processes = executors.useful_workers(workers, len(questions))
    if cluster is None and processes == 1:
        yield from map(here, questions)
        return
    if cluster is None and workers == executors.AUTO and backend is not None and backends.started(backend):
        trial = executors.Trial(questions, processes, executors.start_seconds())
        yield from trial.run(here)
        if not trial.pays():
            if say is not None:
                say(trial.why_here(f"{puzzle.name} question"))
            yield from map(here, trial.left)
            return
        questions = trial.left
    with executors.executor(processes, cluster, warm=(warm, puzzle.name, questions[0], backend)) as chosen:
        assert chosen is not None
        yield from on(chosen, questions)
