"""What every page's endpoints share: the back ends offered, off-loop work, games kept between requests.

Searches (and every move of a game, which asks a back end) run in a worker
thread, never on the event loop, so that other pages stay responsive while
one search runs; they run under the same budgets as on the command line,
each at most MAX_SECONDS, and stop when the client that asked goes away.
Prolog questions go to a pool of engines in worker processes when `pysolve
serve` sets one (`pysolve.engines`), so they too run side by side; without
it the process's one engine answers them in turn (`pysolve.bridge`).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import secrets
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from starlette.exceptions import HTTPException
from starlette.requests import Request

from pysolve import api, backends, budget
from pysolve.answers import SOLVED, Answer
from pysolve.boards.puzzle import BoardPuzzle
from pysolve.files import excerpt
from pysolve.web.guard import field_of

T = TypeVar("T")
WORKERS = 4  # worker threads: searches running at once
WAITING = 4  # searches that may wait for a worker; past that a request is answered 503 at once
MAX_SECONDS = 30.0  # the longest any one search asked by a request runs (each back end of a cross-check)
KEPT_GAMES = 200  # games kept per kind; the oldest goes first


@dataclass(frozen=True)
class Choice:
    """The back ends this server offers, and its default.

    Looked up once, when it starts, because asking again would wait on the Prolog lock, which a running
    Prolog search holds (and block the event loop).
    """

    available: tuple[str, ...]
    default: str

    @classmethod
    def here(cls, default: str | None = None) -> Choice:
        """The back ends available here; `default` (checked to be available) or the usual default."""
        if default is not None:
            backends.check_name(default)
            backends.require(default)
        return cls(tuple(api.available_backends()), default or backends.default())

    def pick(self, data: dict[str, Any]) -> str:
        """The back end a request names (or the default), checked to be known and available here."""
        name = field_of(data, "backend", str) or self.default
        backends.check_name(name)
        if name not in self.available:
            backends.require(name)  # raises, saying why (Prolog is not running: no lock to wait on)
        return name

    def view(self) -> dict[str, Any]:
        """The back ends and the default, for the pages' selectors."""
        return {"available": list(self.available), "default": self.default}


@dataclass(eq=False)
class Job:
    """Blocking work for a worker thread, with its future and its abandonment.

    Blocking work for a worker thread, the future its request awaits, and the event set once the request
    is abandoned (its client went away, or the server is stopping).
    """

    done: asyncio.Future[Any]
    function: Callable[..., Any]
    args: tuple[Any, ...]
    gone: threading.Event = field(default_factory=threading.Event)


@dataclass(frozen=True)
class Finish:
    """The last thing a worker thread is given (see `Workers.close`): run `function`, then end."""

    function: Callable[[], Any]


class Workers:
    """A few long-lived daemon threads that run blocking work, awaited off the event loop.

    Long-lived, because every thread that asks Prolog gets a Prolog engine of
    its own, kept until the process ends: a fresh thread per request would
    leak one per request. Daemon threads, so that a search still running when
    the server stops does not keep the process alive; `stop()` (on Ctrl-C)
    answers every request still waiting with 503 at once, so the server stops
    without waiting for budgets to run out.

    Bounded: `size` jobs run and `waiting` more wait; a request past that gets
    503 at once. Each job's searches last MAX_SECONDS at most and stop when
    the client that asked goes away (`budget.serving`).
    """

    def __init__(self, size: int = WORKERS, waiting: int = WAITING) -> None:
        self.size, self.waiting = size, waiting
        self.stopping = False
        self._jobs: queue.SimpleQueue[Job | Finish] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._open: set[Job] = set()  # jobs queued or running
        self._lock = threading.Lock()

    async def run(self, request: Request, function: Callable[..., T], *args: Any) -> T:
        """`function(*args)` in a worker thread for `request`; its result or its exception, here."""
        if self.stopping:
            raise stopping_error()
        self._start()
        job = Job(asyncio.get_running_loop().create_future(), function, args)
        with self._lock:
            if len(self._open) >= self.size + self.waiting:
                raise busy_error(self.size, self.waiting)
            self._open.add(job)
        self._jobs.put(job)
        watcher = asyncio.ensure_future(client_gone(request))
        watcher.add_done_callback(lambda ended: abandon(ended, job))
        try:
            return await job.done
        finally:
            watcher.cancel()
            keep_ctrl_c()

    def stop(self) -> None:
        """Abandon every job and answer its request with 503 (from the event loop's thread: a signal handler)."""
        self.stopping = True
        with self._lock:
            jobs = list(self._open)
        for job in jobs:
            job.gone.set()
            job.done.get_loop().call_soon_threadsafe(settle, job.done, None, stopping_error())

    def _start(self, prepare: Callable[[], Any] | None = None) -> None:
        """Start the threads (on first use), each running `prepare()` first; return once all have."""
        with self._lock:
            ready = []
            while len(self._threads) < self.size:
                ready.append(threading.Event())
                thread = threading.Thread(target=self._work, args=(prepare, ready[-1]), daemon=True,
                                          name=f"pysolve-web-worker-{len(self._threads)}")
                thread.start()
                self._threads.append(thread)
            for event in ready:
                event.wait()

    def start(self, prepare: Callable[[], Any]) -> None:
        """Start the threads now.

        Start the threads now, each running `prepare()` before any job (`serve` has each make its first
        Prolog query before uvicorn takes Ctrl-C: a thread's first one installs Prolog's own SIGINT handler).
        """
        self._start(prepare)

    def close(self, finish: Callable[[], Any], seconds: float) -> None:
        """End the threads.

        End the threads, each running `finish()` last once its job is done (`serve`, once stopped, has each give
        back its Prolog engine, so that the process exits without SWI-Prolog's warning); wait `seconds` at most.
        """
        with self._lock:
            threads = list(self._threads)
        for _ in threads:
            self._jobs.put(Finish(finish))
        deadline = time.monotonic() + seconds
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))

    def _work(self, prepare: Callable[[], Any] | None, ready: threading.Event) -> None:
        """Prepare, then run jobs until told to finish; a job already abandoned or answered (503) is skipped."""
        if prepare is not None:
            prepare()
        ready.set()
        while True:
            job = self._jobs.get()
            if isinstance(job, Finish):
                job.function()
                return
            try:
                result, error = (None, abandoned_error()) if job.gone.is_set() or job.done.done() else outcome(job)
            finally:
                with self._lock:
                    self._open.discard(job)
            with contextlib.suppress(RuntimeError):  # the loop is gone: the server stopped meanwhile
                job.done.get_loop().call_soon_threadsafe(settle, job.done, result, error)


def outcome(job: Job) -> tuple[Any, BaseException | None]:
    """(result, None) or (None, the exception) of the job, its searches bounded as the request's (see Workers)."""
    with budget.serving(MAX_SECONDS, job.gone):
        try:
            return job.function(*job.args), None
        except Exception as raised:  # handed to the request
            return None, raised
        except BaseException:  # Ctrl-C's interrupt, which a budget passes on: the server is stopping
            return None, stopping_error()


async def client_gone(request: Request) -> None:
    """Return once the client of `request` has gone away.

    Return once the client of `request` has gone away (its body is read by then, so what the server
    receives next is the disconnection).
    """
    while (await request.receive())["type"] != "http.disconnect":
        pass


def abandon(watcher: asyncio.Future[None], job: Job) -> None:
    """When the watcher of a job's client ended by itself (not cancelled: the answer came first), abandon the job.

    Its searches stop at their next look at the budget.
    """
    if watcher.cancelled():
        return
    watcher.exception()  # an error while listening also means the client cannot be answered
    job.gone.set()


def keep_ctrl_c() -> None:
    """Put the server's SIGINT handler back in place.

    Put Python's SIGINT handler (uvicorn's, which stops the server) back in place, should a worker's
    Prolog call have installed Prolog's own; only the main thread may, so elsewhere (tests) nothing.
    """
    handler = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is threading.main_thread() and handler is not None:
        signal.signal(signal.SIGINT, handler)


def stopping_error() -> HTTPException:
    """What a request waiting on a search gets when the server stops."""
    return HTTPException(503, "the server is stopping; the search was abandoned")


def busy_error(size: int, waiting: int) -> HTTPException:
    """What a request gets when every worker is busy and the line is full."""
    return HTTPException(503, f"the server is busy ({size} searches running, {waiting} waiting); try again in a "
                              "moment", headers={"Retry-After": "5"})


def abandoned_error() -> HTTPException:
    """What a job gets when its request was abandoned before it started (nobody reads it)."""
    return HTTPException(503, "the search was abandoned: its client went away")


def settle(done: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    """Give `done` its result or exception, unless it already has one (or was cancelled)."""
    if done.done():
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)


@dataclass
class Kept(Generic[T]):
    """A game kept between requests, with the lock its moves take (one move at a time)."""

    game: T
    lock: threading.Lock = field(default_factory=threading.Lock)
    extra: dict[str, Any] = field(default_factory=dict)


class Store(Generic[T]):
    """Games by id, the oldest dropped past KEPT_GAMES (and closed by `close`); an unknown id is a 404.

    `add` may close a dropped game, which can ask a back end: call it from a worker thread.
    """

    def __init__(self, kind: str, size: int = KEPT_GAMES, close: Callable[[T], None] | None = None) -> None:
        self.kind, self.size, self.close = kind, size, close
        self._games: OrderedDict[str, Kept[T]] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, game: T, **extra: Any) -> str:
        """Keep `game`; return its new id."""
        key = secrets.token_hex(8)
        with self._lock:
            self._games[key] = Kept(game, extra=extra)
            dropped = [self._games.popitem(last=False)[1] for _ in range(len(self._games) - self.size)]
        for kept in dropped:
            if self.close is not None:
                with kept.lock:  # not in the middle of a move
                    self.close(kept.game)
        return key

    def get(self, key: str) -> Kept[T]:
        """The game with id `key`; HTTP 404 when there is none (never made, or dropped)."""
        with self._lock:
            if key not in self._games:
                raise HTTPException(404, f"no {self.kind} game {excerpt(key)} (unknown, or dropped after "
                                         f"{self.size} newer games)")
            self._games.move_to_end(key)
            return self._games[key]


# --- boards (Hidato, Sudoku): an answer as the pages show it ------------------------------------------

Grid = list[list[int]]
DIFFERS = "#ffb347"  # the colour that marks the cells where a second solution differs from the first


def board_puzzle(name: str) -> BoardPuzzle:
    """The board puzzle registered as `name` (Sudoku, Hidato), with its drawing (`svg`) and board reader."""
    puzzle = api.get_puzzle(name)
    assert isinstance(puzzle, BoardPuzzle), f"{name} is not a board puzzle"
    return puzzle


def board_view(puzzle: BoardPuzzle, answer: Answer) -> dict[str, Any]:
    """What a board page shows of an answer.

    Verdict, count, uniqueness, and the first solution drawn (the board itself when there is none); when the
    search found a second one, it too, drawn beside, with the cells where the two differ marked on both
    (`differ`: [row, column] pairs).
    """
    rows = puzzle.rows(answer.asked)
    first, second = (answer.solutions + [None, None])[:2]
    differ = differing(first, second) if first and second else []
    cell = puzzle.drawing.CELL
    return {"backend": answer.backend, "status": answer.status, "count": answer.count,
            "unique": answer.count == 1 if answer.status == SOLVED and answer.asked.count else None,
            "verdict": puzzle.verdict(answer), "puzzle": rows, "solution": first, "second": second,
            "differ": differ, "stats": answer.stats,
            "svg": marked(puzzle.svg(first or rows, rows), differ, cell),
            "second_svg": marked(puzzle.svg(second, rows), differ, cell) if second else None}


def differing(first: Grid, second: Grid) -> list[list[int]]:
    """The [row, column] of every cell where two solutions of one board differ, in reading order."""
    return [[r, c] for r, (one, other) in enumerate(zip(first, second))
            for c, (a, b) in enumerate(zip(one, other)) if a != b]


def marked(svg: str, cells: list[list[int]], size: int) -> str:
    """`svg` with each of `cells` framed and tinted.

    `svg` (a board drawn `size` pixels a cell, cell (r, c) at (c*size, r*size)) with each of `cells` framed and
    tinted over its number (class `differs`, which the browser tests count).
    """
    if not cells:
        return svg
    frames = "".join(f'<rect class="differs" x="{c * size + 2}" y="{r * size + 2}" width="{size - 4}" '
                     f'height="{size - 4}" fill="{DIFFERS}" fill-opacity="0.3" stroke="{DIFFERS}" stroke-width="3"/>'
                     for r, c in cells)
    end = svg.rindex("</svg>")
    return svg[:end] + frames + "\n" + svg[end:]
