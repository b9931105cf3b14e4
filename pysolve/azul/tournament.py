"""Tournaments: many seeded games, seats rotated, statistics per strategy, on any Executor.

Each game is an independent task (players, seed, back end, strategies by seat).
Run here, the games are played one by one; on a `concurrent.futures.Executor`
(a process pool, one SWI-Prolog per process, or a Dask cluster's executor)
they go in chunks, CHUNKS_PER_WORKER per worker: a game of the random
strategy takes about a millisecond, far less than sending it to a process and
its result back, so a worker gets many at once, and each result comes back
without the final state that no summary reads (its per-move log only when
asked). Results come back in game order, so they are identical whatever
ran them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, as_completed
from dataclasses import dataclass, field, replace
from typing import Any

from pysolve import executors
from pysolve.azul.match import MatchResult, play_match, random_matches, random_only
from pysolve.azul.model import STANDARD, check_players, check_variant
from pysolve.azul.protocol import MOVE_SECONDS
from pysolve.errors import InputError


@dataclass(frozen=True)
class Task:
    """One game of a tournament."""

    players: int
    seed: int
    backend: str
    strategies: tuple[str, ...]
    log: bool = False
    variant: str = STANDARD
    move_seconds: float = MOVE_SECONDS  # an outside agent's time per move


def run_task(task: Task) -> MatchResult:
    """Play one tournament game (a top-level function, so that it pickles to other processes)."""
    return play_match(task.players, task.seed, task.backend, list(task.strategies), log=task.log, variant=task.variant,
                      move_seconds=task.move_seconds)


def tasks(players: int, games: int, seed: int, backend: str, strategies: Sequence[str],
          log: bool = False, variant: str = STANDARD, move_seconds: float = MOVE_SECONDS) -> list[Task]:
    """The games of a tournament: game i has seed `seed + i` and the strategies rotated by i seats."""
    check_players(players)
    check_variant(variant)
    if games < 1:
        raise InputError(f"--games must be at least 1, not {games}")
    names = list(strategies) or ["random"]
    return [Task(players, seed + index, backend,
                 tuple(names[(seat + index) % len(names)] for seat in range(players)), log, variant, move_seconds)
            for index in range(games)]


@dataclass
class Standing:
    """One strategy's results over all the seats it played."""

    strategy: str
    seats: int = 0
    wins: int = 0
    scores: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The standing as JSON: win rate, mean score and the scores' range.

        Win rate with its 95 % interval (Wilson), mean score with its 95 % interval (`mean_interval`), and
        the range of the scores.
        """
        mean = sum(self.scores) / len(self.scores)
        return {"strategy": self.strategy, "seats": self.seats, "wins": self.wins,
                "win_rate": round(self.wins / self.seats, 4),
                "win_ci95": [round(bound, 4) for bound in wilson(self.wins, self.seats)], "mean_score": round(mean, 3),
                "ci95": [round(bound, 3) for bound in mean_interval(self.scores)],
                "score_range": [min(self.scores), max(self.scores)]}


BOOTSTRAP = 2000  # resamples of the scores for the interval of their mean
BOOTSTRAP_UP_TO = 2000  # at most this many scores are bootstrapped (BOOTSTRAP times as many draws)


def mean_interval(scores: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """The interval of the mean score at `level`.

    The bootstrap percentile interval (the middle `level` of the means of BOOTSTRAP resamples drawn with
    replacement, seeded, so a summary is the same every time). It lies within the scores' range, so a mean
    of scores that are never negative gets no negative bound, as mean +- 1.96 s/sqrt(n) does on few,
    spread scores (0, 0, 0, 0, 60: -11.5 .. 35.5). Past BOOTSTRAP_UP_TO scores, where the mean is normal
    and its interval narrow, mean +- 1.96 s/sqrt(n) kept within the range.
    """
    count, mean = len(scores), sum(scores) / len(scores)
    if count > BOOTSTRAP_UP_TO:
        half = 1.96 * math.sqrt(sum((score - mean) ** 2 for score in scores) / (count - 1) / count)
        return max(mean - half, min(scores)), min(mean + half, max(scores))
    draw = random.Random(0)
    means = sorted(sum(draw.choices(scores, k=count)) / count for _ in range(BOOTSTRAP))
    tail = round(BOOTSTRAP * (1 - level) / 2)
    return means[tail], means[BOOTSTRAP - 1 - tail]


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % for z = 1.96): sound near 0 and 1 and for few trials."""
    rate = successes / trials
    centre = (rate + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(centre - half, 0.0), min(centre + half, 1.0)


def summarise(results: Sequence[MatchResult]) -> dict[str, Any]:
    """Per-strategy standings, game totals and forfeits.

    Per-strategy standings plus game totals (a shared win counts as a win for each winner), and the games
    outside agents forfeited.
    """
    standings: dict[str, Standing] = {}
    for result in results:
        for seat, name in enumerate(result.strategies):
            standing = standings.setdefault(name, Standing(name))
            standing.seats += 1
            standing.wins += seat in result.winners
            standing.scores.append(result.scores[seat])
    summary = {"games": len(results),
               "mean_rounds": round(sum(r.rounds for r in results) / len(results), 3),
               "mean_moves": round(sum(r.moves for r in results) / len(results), 3),
               "strategies": [standing.to_json() for standing in standings.values()]}
    forfeits = [{"seed": result.seed, **result.forfeit} for result in results if result.forfeit]
    if forfeits:  # games an outside agent lost by failing (absent when none did)
        summary["forfeits"] = forfeits
    return summary


BATCH = 8  # unlogged games of the random strategy alone, played here in Prolog: this many per query
CHUNKS_PER_WORKER = 16  # chunks of games a worker is handed over a run: enough to balance, few enough to cost nothing


def run(work: Sequence[Task], executor: Executor | None = None,
        progress: Callable[[MatchResult], None] | None = None) -> list[MatchResult]:
    """Play every task (on `executor`, in chunks; else here), in order.

    Call `progress` after each game (on an executor: as its chunk comes back).
    """
    if executor is None:
        outcomes: Iterator[MatchResult] = played(work)
    else:
        outcomes = _chunked(work, executor, executors.width(executor), progress)
        progress = None  # `_chunked` reports each chunk's games as they come back
    results = []
    for result in outcomes:
        results.append(result)
        if progress:
            progress(result)
    return results


def played(work: Sequence[Task]) -> Iterator[MatchResult]:
    """The results of `work`, played here one after another (Prolog plays random-only games in batches)."""
    batchable = all(_batchable(task) for task in work) and len({(task.players, task.variant) for task in work}) == 1
    return _batched(work) if batchable else map(run_task, work)


def play_chunk(chunk: Sequence[Task]) -> list[MatchResult]:
    """Play a chunk of games in a worker.

    Their results without final states (nor logs unless asked), so that little goes back to the parent.
    """
    return [replace(result, state={}) for result in played(chunk)]


def _chunked(work: Sequence[Task], executor: Executor, workers: int,
             progress: Callable[[MatchResult], None] | None) -> Iterator[MatchResult]:
    """The results of `work` played in chunks on `executor`, in game order; `progress` after each game of a
    chunk as the chunk comes back, whatever its place."""
    pieces = executors.chunks(work, workers * CHUNKS_PER_WORKER)
    futures: dict[Future[list[MatchResult]], int] = {executor.submit(play_chunk, piece): number
                                                     for number, piece in enumerate(pieces)}
    done: list[list[MatchResult]] = [[] for _ in pieces]
    for future in as_completed(futures):
        done[futures[future]] = future.result()
        for result in done[futures[future]]:
            if progress:
                progress(result)
    return (result for chunk in done for result in chunk)


def _batchable(task: Task) -> bool:
    """A task Prolog plays whole, in a batch with others: unlogged, the random strategy on every seat."""
    return task.backend == "prolog" and not task.log and random_only(task.strategies)


def _batched(work: Sequence[Task]) -> Iterator[MatchResult]:
    """The results of batchable tasks (all of the same players and variant), BATCH a query."""
    for start in range(0, len(work), BATCH):
        part = work[start:start + BATCH]
        yield from random_matches(part[0].players, [task.seed for task in part], "prolog", part[0].variant)


