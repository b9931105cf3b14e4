"""What every page's endpoints share: reading requests, off-loop work, games kept between requests.

Searches (and every move of a game, which asks a back end) run in a worker
thread, never on the event loop, so that other pages stay responsive while
one search runs; they run under the same budgets as on the command line.
The Prolog engine is one per process behind one lock (`pysolve.bridge`), so
Prolog questions queue there while Python and miniKanren ones run beside.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import secrets
import signal
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from starlette.exceptions import HTTPException
from starlette.requests import Request

from pysolve import api, backends
from pysolve.errors import InputError

T = TypeVar("T")
MAX_BODY = 1_000_000  # bytes of a request body (an uploaded file included)
WORKERS = 4  # worker threads: searches running at once (the rest wait in line, off the loop)
KEPT_GAMES = 200  # games kept per kind; the oldest goes first


async def body(request: Request) -> dict[str, Any]:
    """The request's JSON object; InputError (400) when it is not one, 413 when it is too large."""
    declared = request.headers.get("content-length", "0")
    if declared.isdigit() and int(declared) > MAX_BODY:  # refused before it is read
        raise HTTPException(413, f"the request body is {declared} bytes; the limit is {MAX_BODY}")
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise HTTPException(413, f"the request body is {len(raw)} bytes; the limit is {MAX_BODY}")
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise InputError(f"the request body is not JSON ({error})") from None
    if not isinstance(data, dict):
        raise InputError("the request body must be a JSON object")
    return data


def field_of(data: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = None,
             required: bool = False) -> Any:
    """`data[name]` checked to be of `kind` (bool is not an int here); InputError naming the field."""
    if name not in data or data[name] is None:
        if required:
            raise InputError(f"the field {name!r} is required")
        return default
    value = data[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise InputError(f"the field {name!r} must be {names}, not {json.dumps(value)}")
    return value


@dataclass(frozen=True)
class Choice:
    """The back ends this server offers, and its default: looked up once, when it starts, because asking
    again would wait on the Prolog lock, which a running Prolog search holds (and block the event loop)."""

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


class Workers:
    """A few long-lived daemon threads that run blocking work, awaited off the event loop.

    Long-lived, because every thread that asks Prolog gets a Prolog engine of
    its own, kept until the process ends: a fresh thread per request would
    leak one per request. Daemon threads, so that a search still running when
    the server stops does not keep the process alive; `stop()` (on Ctrl-C)
    answers every request still waiting with 503 at once, so the server stops
    without waiting for budgets to run out.
    """

    def __init__(self, size: int = WORKERS) -> None:
        self.size = size
        self.stopping = False
        self._jobs: queue.SimpleQueue[tuple[asyncio.Future[Any], Callable[..., Any], tuple[Any, ...]]] = \
            queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._waiting: set[asyncio.Future[Any]] = set()
        self._lock = threading.Lock()

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """`function(*args)` in a worker thread; its result or its exception, here."""
        if self.stopping:
            raise stopping_error()
        self._start()
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._waiting.add(done)
        self._jobs.put((done, function, args))
        try:
            return await done
        finally:
            self._waiting.discard(done)
            keep_ctrl_c()

    def stop(self) -> None:
        """Answer every request waiting on a worker with 503 (from the event loop's thread: a signal handler)."""
        self.stopping = True
        for done in list(self._waiting):
            done.get_loop().call_soon_threadsafe(settle, done, None, stopping_error())

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
        """Start the threads now, each running `prepare()` before any job (`serve` has each make its first
        Prolog query before uvicorn takes Ctrl-C: a thread's first one installs Prolog's own SIGINT handler)."""
        self._start(prepare)

    def _work(self, prepare: Callable[[], Any] | None, ready: threading.Event) -> None:
        """Prepare, then run jobs for ever; a job whose request is already answered (503, gone) is skipped."""
        if prepare is not None:
            prepare()
        ready.set()
        while True:
            done, function, args = self._jobs.get()
            if done.done():
                continue
            try:
                result, error = function(*args), None
            except Exception as raised:  # handed to the request
                result, error = None, raised
            except BaseException:  # Ctrl-C's interrupt, which a budget passes on: the server is stopping
                result, error = None, stopping_error()
            with contextlib.suppress(RuntimeError):  # the loop is gone: the server stopped meanwhile
                done.get_loop().call_soon_threadsafe(settle, done, result, error)


def keep_ctrl_c() -> None:
    """Put Python's SIGINT handler (uvicorn's, which stops the server) back in place, should a worker's
    Prolog call have installed Prolog's own; only the main thread may, so elsewhere (tests) nothing."""
    handler = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is threading.main_thread() and handler is not None:
        signal.signal(signal.SIGINT, handler)


def stopping_error() -> HTTPException:
    """What a request waiting on a search gets when the server stops."""
    return HTTPException(503, "the server is stopping; the search was abandoned")


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
                raise HTTPException(404, f"no {self.kind} game {key!r} (unknown, or dropped after "
                                         f"{self.size} newer games)")
            self._games.move_to_end(key)
            return self._games[key]
