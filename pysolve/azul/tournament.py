"""Tournaments: many seeded games, seats rotated, statistics per strategy, on any Executor.

Each game is an independent task (players, seed, back end, strategies by seat).
Run here, the games are played one by one; on a `concurrent.futures.Executor`
(a process pool, one SWI-Prolog per process, or a Dask cluster's executor)
they go in chunks, CHUNKS_PER_WORKER per worker: a game of the random
strategy takes about a millisecond, far less than sending it to a process and
its result back, so a worker gets many at once; a game where a seat searches
takes seconds, and goes alone, so that it is logged as it ends (`cut`). What comes back is what the
caller reads: each game's result without the final state (its per-move log
only when asked) from `run`, or from `tallied` only the chunk's `Tally`,
what a summary reads, added up in the worker. Results and tallies come back
in game order, so they are identical whatever ran them.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, as_completed
from dataclasses import dataclass, field, replace
from typing import Any, overload

from pysolve import executors, files
from pysolve.azul import ratings
from pysolve.azul.match import MatchResult, play_match, random_matches, random_only
from pysolve.azul.model import STANDARD, check_players, check_variant
from pysolve.azul.names import PLAYERS
from pysolve.azul.protocol import MOVE_SECONDS
from pysolve.errors import InputError
from pysolve.files import excerpt


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


@dataclass(frozen=True)
class Games(Sequence[Task]):
    """A tournament's games as a sequence of Tasks, each made when it is read.

    Game i has seed `seed + i` and the strategies rotated by i seats; `numbers` are the games' i. A slice is a
    Games of fewer numbers, so a chunk of thousands of games goes to a worker as a few fields: no Task is made
    or pickled in the process that hands the chunks out.
    """

    players: int
    seed: int
    backend: str
    strategies: tuple[Any, ...]  # by seat in game 0: names, or strategies themselves
    log: bool
    variant: str
    move_seconds: float
    numbers: range

    def __len__(self) -> int:
        return len(self.numbers)

    @overload
    def __getitem__(self, index: int) -> Task: ...

    @overload
    def __getitem__(self, index: slice) -> Games: ...

    def __getitem__(self, index: int | slice) -> Task | Games:
        if isinstance(index, slice):
            return replace(self, numbers=self.numbers[index])
        number, names = self.numbers[index], self.strategies
        return Task(self.players, self.seed + number, self.backend,
                    tuple(names[(seat + number) % len(names)] for seat in range(self.players)), self.log,
                    self.variant, self.move_seconds)


def tasks(players: int, games: int, seed: int, backend: str, strategies: Sequence[str],
          log: bool = False, variant: str = STANDARD, move_seconds: float = MOVE_SECONDS) -> Games:
    """The games of a tournament: game i has seed `seed + i` and the strategies rotated by i seats."""
    check_players(players)
    check_variant(variant)
    if games < 1:
        raise InputError(f"--games must be at least 1, not {games}")
    return Games(players, seed, backend, tuple(strategies) or ("random",), log, variant, move_seconds, range(games))


@dataclass
class Standing:
    """One strategy's results over all the seats it played, added up: what its row of the summary reads.

    The scores are kept one by one, in game order, while there are at most BOOTSTRAP_UP_TO (the bootstrap
    interval resamples them); past that, their sum and sum of squares give the normal interval.
    """

    strategy: str
    seats: int = 0
    wins: int = 0
    total: int = 0  # the scores' sum
    squares: int = 0  # the sum of the scores' squares
    low: int = 0
    high: int = 0
    scores: list[int] | None = field(default_factory=list)  # in game order; None past BOOTSTRAP_UP_TO
    name: str = ""  # the name shown: the strategy's, or the one its outside agent announced

    def add(self, score: int, won: bool, name: str) -> None:
        """One more seat played: its score, whether it won, the name shown."""
        self.merge(Standing(self.strategy, 1, int(won), score, score * score, score, score, [score], name))

    def merge(self, other: Standing) -> None:
        """`other`'s seats (of the same strategy, played after these) added to these."""
        if not other.seats:
            return
        self.low = min(self.low, other.low) if self.seats else other.low
        self.high = max(self.high, other.high) if self.seats else other.high
        self.seats += other.seats
        self.wins += other.wins
        self.total += other.total
        self.squares += other.squares
        self.name = other.name
        if self.scores is not None and other.scores is not None and self.seats <= BOOTSTRAP_UP_TO:
            self.scores.extend(other.scores)
        else:
            self.scores = None

    def interval(self) -> tuple[float, float]:
        """The interval of the mean score: `mean_interval`'s, from the scores or, past them, their sums."""
        if self.scores is not None:
            return mean_interval(self.scores)
        mean = self.total / self.seats
        spread = (self.seats * self.squares - self.total * self.total) / (self.seats - 1) / self.seats
        half = 1.96 * math.sqrt(max(spread, 0) / self.seats)
        return max(mean - half, self.low), min(mean + half, self.high)

    def to_json(self) -> dict[str, Any]:
        """The standing as JSON: win rate, mean score and the scores' range.

        Win rate with its 95 % interval (Wilson), mean score with its 95 % interval (`interval`), and
        the range of the scores.
        """
        return {"strategy": self.strategy, "name": self.name or self.strategy, "seats": self.seats, "wins": self.wins,
                "win_rate": round(self.wins / self.seats, 4),
                "win_ci95": [round(bound, 4) for bound in wilson(self.wins, self.seats)],
                "mean_score": round(self.total / self.seats, 3),
                "ci95": [round(bound, 3) for bound in self.interval()], "score_range": [self.low, self.high]}


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


HEAD = 20  # the games a summary shows one by one (`azul simulate`'s first lines)


@dataclass
class Tally:
    """What a tournament's summary reads of its games, added up as they are played.

    The games' count, rounds and moves, each strategy's `Standing`, the first HEAD games and the games an
    outside agent forfeited (without their final states). A worker adds up its chunk of games and sends
    back this instead of every game; the chunks' tallies merged in game order give the tally of the whole.
    """

    games: int = 0
    rounds: int = 0
    moves: int = 0
    standings: dict[str, Standing] = field(default_factory=dict)
    head: list[MatchResult] = field(default_factory=list)
    forfeited: list[MatchResult] = field(default_factory=list)

    def add(self, result: MatchResult) -> None:
        """One more game."""
        self.games += 1
        self.rounds += result.rounds
        self.moves += result.moves
        for seat, name in enumerate(result.strategies):
            standing = self.standings.setdefault(name, Standing(name))
            standing.add(result.scores[seat], seat in result.winners, result.names[seat])
        if len(self.head) < HEAD:
            self.head.append(replace(result, state={}, log=[]))
        if result.forfeit:
            self.forfeited.append(replace(result, state={}, log=[]))

    def merge(self, other: Tally) -> None:
        """`other`'s games (played after these) added to these."""
        self.games += other.games
        self.rounds += other.rounds
        self.moves += other.moves
        for name, standing in other.standings.items():
            self.standings.setdefault(name, Standing(name)).merge(standing)
        self.head = [*self.head, *other.head][:HEAD]
        self.forfeited += other.forfeited

    def summary(self) -> dict[str, Any]:
        """Per-strategy standings, game totals and forfeits (`summarise`)."""
        summary = {"games": self.games, "mean_rounds": round(self.rounds / self.games, 3),
                   "mean_moves": round(self.moves / self.games, 3),
                   "strategies": [standing.to_json() for standing in self.standings.values()]}
        if self.forfeited:  # games an outside agent lost by failing (absent when none did)
            summary["forfeits"] = [{"seed": result.seed, **(result.forfeit or {})} for result in self.forfeited]
        return summary


def tally_of(results: Iterable[MatchResult]) -> Tally:
    """The tally of `results`, in their order."""
    tally = Tally()
    for result in results:
        tally.add(result)
    return tally


def summarise(results: Sequence[MatchResult]) -> dict[str, Any]:
    """Per-strategy standings, game totals and forfeits.

    Per-strategy standings plus game totals (a shared win counts as a win for each winner), and the games
    outside agents forfeited.
    """
    return tally_of(results).summary()


BATCH = 8  # unlogged games of the random strategy alone, played here in Prolog: this many per query
CHUNKS_PER_WORKER = 16  # chunks of quick games a worker is handed over a run: enough to balance, cheap to send
MOST_CHUNKS_PER_WORKER = 4096  # games of searches: a game a chunk up to this many chunks a worker


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


def tallied(work: Sequence[Task], executor: Executor | None = None,
            progress: Callable[[int], None] | None = None) -> Tally:
    """The tally of every task's game: on `executor`, each chunk's added up in its worker; else here.

    What a summary needs and no more comes back from a worker, so that the games' results are neither sent
    back nor added up here. Call `progress` with the games played so far: after each game here, after each
    chunk on an executor.
    """
    if executor is None:
        tally = Tally()
        for result in played(work):
            tally.add(result)
            if progress:
                progress(tally.games)
        return tally
    pieces = cut(work, executors.width(executor))
    futures = {executor.submit(tally_chunk, piece): number for number, piece in enumerate(pieces)}
    done = [Tally() for _ in pieces]
    for future in as_completed(futures):
        done[futures[future]] = future.result()
        if progress:
            progress(sum(chunk.games for chunk in done))
    whole = Tally()
    for chunk in done:  # in game order: the standings in the order first played, the scores in game order
        whole.merge(chunk)
    return whole


def cut(work: Sequence[Task], workers: int) -> list[Sequence[Task]]:
    """`work` in chunks for `workers`: many games a chunk where every seat plays quick, else one game a chunk.

    CHUNKS_PER_WORKER each where every seat plays one of the PLAYERS (no search), else a game a chunk (up to
    MOST_CHUNKS_PER_WORKER each). A search's game takes seconds to minutes, against a millisecond to send
    it: each comes back, to the progress line and the log, as it ends, and a run stopped part-way keeps
    every game finished.
    """
    seated = work.strategies if isinstance(work, Games) else {name for task in work for name in task.strategies}
    quick = all(isinstance(name, str) and name.split("+")[0] in PLAYERS for name in seated)
    return executors.chunks(work, workers * (CHUNKS_PER_WORKER if quick else MOST_CHUNKS_PER_WORKER))


def tally_chunk(chunk: Sequence[Task]) -> Tally:
    """Play a chunk of games in a worker and add them up (`tallied`)."""
    return tally_of(played(chunk))


def play_chunk(chunk: Sequence[Task]) -> list[MatchResult]:
    """Play a chunk of games in a worker.

    Their results without final states (nor logs unless asked), so that little goes back to the parent.
    """
    return [replace(result, state={}) for result in played(chunk)]


def _chunked(work: Sequence[Task], executor: Executor, workers: int,
             progress: Callable[[MatchResult], None] | None) -> Iterator[MatchResult]:
    """The results of `work` played in chunks on `executor`, in game order; `progress` after each game of a
    chunk as the chunk comes back, whatever its place."""
    pieces = cut(work, workers)
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




# -- the round robin: every pair head to head ------------------------------------------------------
HEAD_TO_HEAD = 2  # the players of a round robin's game: every pair meets alone
LOG_RECORD = "game"  # the type of a round robin log's records: one finished game each


def round_robin(strategies: Sequence[str], games: int, seed: int, backend: str, variant: str = STANDARD,
                move_seconds: float = MOVE_SECONDS) -> list[Task]:
    """The games of a round robin: every pair of `strategies` meets in `games` two-player games.

    Game k of a pair has seed `seed + k // 2`, the pair's seats swapped when k is odd: each deal (and each
    draw of the seat that opens) is played from both seats. InputError for fewer than two strategies, a
    strategy named twice, or fewer than one game.
    """
    check_variant(variant)
    if games < 1:
        raise InputError(f"--games must be at least 1, not {games}")
    if len(strategies) < HEAD_TO_HEAD:
        raise InputError("tournament: name at least two strategies to play one another")
    twice = sorted({name for name in strategies if list(strategies).count(name) > 1})
    if twice:
        raise InputError(f"tournament: {', '.join(excerpt(name, 40) for name in twice)} named twice")
    return [Task(HEAD_TO_HEAD, seed + game // 2, backend, (first, second) if game % 2 == 0 else (second, first),
                 variant=variant, move_seconds=move_seconds)
            for first, second in itertools.combinations(strategies, 2) for game in range(games)]


GameKey = tuple[int, str, tuple[str, ...], int]


def game_key(players: int, variant: str, strategies: Sequence[str], seed: int) -> GameKey:
    """What makes a game the same game on any back end: players, variant, strategies by seat, seed."""
    return players, variant, tuple(strategies), seed


def task_key(task: Task) -> GameKey:
    """The key of the game a task plays."""
    return game_key(task.players, task.variant, task.strategies, task.seed)


def result_key(result: MatchResult) -> GameKey:
    """The key of the game a result ends."""
    return game_key(result.players, result.variant, result.strategies, result.seed)


def log_line(result: MatchResult) -> str:
    """A finished game as one line of a round robin's log (JSON: `simulate --json`'s game with its type)."""
    return json.dumps({"type": LOG_RECORD, **result.to_json()}) + "\n"


def read_log(path: str) -> list[MatchResult]:
    """The games a round robin's log at `path` holds (none while it is missing or empty), to play no game twice.

    A last line cut short (the run was stopped while writing it) is left out and the file rewritten without
    it, so that the games played next follow whole lines. InputError for any other line that is not a game.
    """
    if not os.path.exists(path) or (os.path.isfile(path) and os.path.getsize(path) == 0):
        return []
    text = files.read_text(path, "tournament log")
    if text.endswith("\n"):
        return read_games(text, path)
    whole, _, last = text.rpartition("\n")
    games = read_games(whole, path)
    with contextlib.suppress(InputError):  # else the line being written when the run stopped: played again
        games.append(_game(files.parse_json(last, path), path))
    files.write_text(path, "".join(log_line(game) for game in games), "--log")
    return games


def read_games(text: str, where: str) -> list[MatchResult]:
    """The games a round robin's log holds (`log_line`'s); InputError naming `where` and the line of a bad one."""
    games = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            games.append(_game(files.parse_json(line, f"{where}:{number}"), f"{where}:{number}"))
    return games


_FIELDS: dict[str, tuple[type, ...]] = {"seed": (int,), "players": (int,), "engine": (str,), "strategies": (list,),
                                        "scores": (list,), "winners": (list,), "rounds": (int,), "moves": (int,),
                                        "variant": (str,), "names": (list,)}


def _game(record: Any, where: str) -> MatchResult:
    """The result a log record holds; InputError naming `where` when it is no game of a round robin."""
    if not (isinstance(record, dict) and record.get("type") == LOG_RECORD):
        raise InputError(f"{where}: not a game of a tournament log (a line {{\"type\": \"{LOG_RECORD}\", ...}} "
                         "as `azul tournament --log` writes)")
    for key, types in _FIELDS.items():
        if not isinstance(record.get(key), types) or isinstance(record.get(key), bool):
            raise InputError(f"{where}: the game's {key} is missing or not a {types[0].__name__}")
    players = record["players"]
    seats = record["strategies"], record["scores"], record["names"]
    if players != HEAD_TO_HEAD or any(len(part) != players for part in seats) \
            or not all(isinstance(name, str) for name in record["strategies"] + record["names"]) \
            or not all(type(score) is int for score in record["scores"]) \
            or not record["winners"] or not set(record["winners"]) <= set(range(players)):
        raise InputError(f"{where}: not a two-player game's strategies, names, scores and winners")
    forfeit = record.get("forfeit")
    return MatchResult(record["seed"], players, record["engine"], record["strategies"], record["scores"],
                       record["winners"], record["rounds"], record["moves"], variant=record["variant"],
                       forfeit=forfeit if isinstance(forfeit, dict) else None, names=record["names"])


@dataclass
class Pairing:
    """How the row strategy did against the column strategy: wins, losses and shared wins."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        """The games they played."""
        return self.wins + self.losses + self.draws

    @property
    def points(self) -> float:
        """The row strategy's points: 1 a win, 1/2 a shared one."""
        return self.wins + self.draws / 2


@dataclass
class SeatRecord:
    """One strategy's games in one seat of a round robin."""

    strategy: str
    seat: int
    games: int = 0
    wins: int = 0
    draws: int = 0
    scores: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Games, wins, shared wins, points and the mean score."""
        return {"strategy": self.strategy, "seat": self.seat, "games": self.games, "wins": self.wins,
                "draws": self.draws, "points": self.wins + self.draws / 2,
                "mean_score": round(sum(self.scores) / len(self.scores), 3) if self.scores else None}


def points_of(result: MatchResult, seat: int) -> float:
    """A seat's points in a game: 1 a win, 1/2 a win shared, 0 a loss."""
    return 1 / len(result.winners) if seat in result.winners else 0.0


def round_robin_summary(strategies: Sequence[str], results: Sequence[MatchResult]) -> dict[str, Any]:
    """A round robin's win matrix, Elo ratings with their 95 % intervals, and each strategy's results by seat.

    `matrix[i][j]` is strategy i's record against strategy j (None on the diagonal); `ratings` are sorted
    best first (see `ratings.ratings`); `seats` hold each strategy's games from seat 0 and from seat 1.
    The name shown for a strategy is the one its outside agent announced, where it did.
    """
    pairings = {(row, column): Pairing() for row in strategies for column in strategies if row != column}
    seats = {(name, seat): SeatRecord(name, seat) for name in strategies for seat in range(HEAD_TO_HEAD)}
    shown = {name: name for name in strategies}
    games = []
    for result in results:
        first, second = result.strategies
        games.append((first, second, points_of(result, 0)))
        for seat, name in enumerate(result.strategies):
            other = result.strategies[1 - seat]
            shown[name] = result.names[seat]
            record, pairing = seats[name, seat], pairings[name, other]
            record.games += 1
            record.scores.append(result.scores[seat])
            if len(result.winners) > 1:
                record.draws += 1
                pairing.draws += 1
            elif seat in result.winners:
                record.wins += 1
                pairing.wins += 1
            else:
                pairing.losses += 1
    rated = sorted(ratings.ratings(strategies, games), key=lambda rating: -rating.elo)
    summary: dict[str, Any] = {
        "strategies": [{"strategy": name, "name": shown[name]} for name in strategies], "games": len(results),
        "matrix": [[None if row == column else {"wins": pairings[row, column].wins,
                                                "losses": pairings[row, column].losses,
                                                "draws": pairings[row, column].draws,
                                                "points": pairings[row, column].points}
                    for column in strategies] for row in strategies],
        "ratings": [{"strategy": rating.player, "name": shown[rating.player], "elo": round(rating.elo, 1),
                     "ci95": [round(rating.low, 1), round(rating.high, 1)]} for rating in rated],
        "seats": [seats[name, seat].to_json() for name in strategies for seat in range(HEAD_TO_HEAD)]}
    forfeits = [{"seed": result.seed, **result.forfeit} for result in results if result.forfeit]
    if forfeits:
        summary["forfeits"] = forfeits
    return summary
