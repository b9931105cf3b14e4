"""Prolog engines in worker processes, answering queries side by side: the web server's Prolog.

One process holds one SWI-Prolog engine, and pysolve asks it under one lock
(`pysolve.bridge`), so the requests of a server would take turns. An
`EnginePool` keeps a few worker processes, each with an engine of its own,
and answers each query (`bridge.Asked`) on an idle one: requests run side by
side up to the workers. Every worker runs under a memory bound; a query runs
under its CPU limit and wall-clock guard inside Prolog as always, and the
pool adds its own guard from outside (a `budget.GuardClock` on the worker's
schedstat, its waits for a processor left out): a worker that does not answer by then,
or whose request was abandoned (`budget.serving`'s event: its client went
away), is killed and replaced, and nothing else stops. `bridge.answer_on`
hands the bridge a pool.

    pool = EnginePool(2)
    bridge.answer_on(pool)    # every untraced query of this process now runs on the pool
    ...
    bridge.answer_on(None)
    pool.close()
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import signal
import threading
from multiprocessing.connection import Connection
from typing import Any

from pysolve import bridge, budget, memory
from pysolve.errors import PrologError, PysolveError, SearchLimitExceeded

POLL = 0.05  # seconds between looks at an abandoned request while a worker works
MARGIN = 2.0  # seconds past a query's own guard before the pool kills its worker
MEMORY = 2 * 2**30  # each worker's address-space bound, unless the process has a smaller one


class EngineDied(PrologError):
    """A worker's engine died while it answered (killed for memory, a crash): the query has no answer."""


def _serve(connection: Connection, bound: int) -> None:
    """A worker's life: bounded memory, Ctrl-C left to the parent, then each query answered by this process's
    engine until the pool sends None (or goes away)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    memory.limit(bound)
    while True:
        try:
            asked = connection.recv()
        except EOFError:
            return
        if asked is None:
            return
        try:
            reply: tuple[str, Any] = ("answer", bridge.answer_here(asked))
        except PysolveError as error:
            reply = ("error", (type(error).__name__, str(error), getattr(error, "detail", "")))
        connection.send(reply)


class Worker:
    """One worker process and the pipe it answers on."""

    def __init__(self, bound: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.connection, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, bound), daemon=True, name="pysolve-engine")
        self.process.start()
        theirs.close()

    def kill(self) -> None:
        """End the process at once, whatever it is doing."""
        self.process.kill()
        self.process.join()
        self.connection.close()

    def close(self) -> None:
        """Ask the process to end, and make sure it does."""
        with contextlib.suppress(OSError):  # already gone
            self.connection.send(None)
        self.process.join(5)
        if self.process.is_alive():
            self.kill()


class EnginePool:
    """`size` worker processes with an engine each (started on first use), answering `bridge.Asked` queries."""

    def __init__(self, size: int, bound: int = 0) -> None:
        current = memory.current_limit()
        self.size, self.bound = size, bound or (min(MEMORY, current) if current else MEMORY)
        self._idle: queue.LifoQueue[Worker | None] = queue.LifoQueue()
        for _ in range(size):
            self._idle.put(None)  # a place for a worker, started when first needed
        self._busy: set[Worker] = set()
        self._lock = threading.Lock()
        self.replaced = 0  # workers killed and replaced: abandoned, past their guard, or dead

    def ask(self, asked: bridge.Asked) -> bridge.Answered:
        """Answer a query on an idle worker.

        `asked` answered on an idle worker (waiting for one): names, rows, status and message, as
        `bridge.answer_here` gives them; the error it raised, raised here; SearchLimitExceeded when the request
        was abandoned or the worker passed the guard, EngineDied when its engine died."""
        worker = self._idle.get() or Worker(self.bound)
        with self._lock:
            self._busy.add(worker)
        kept: Worker | None = worker
        try:
            worker.connection.send(asked)
            kind, value = self._reply(worker, asked)
        except BaseException:
            worker.kill()
            kept = None
            self.replaced += 1
            raise
        finally:
            with self._lock:
                self._busy.discard(worker)
            self._idle.put(kept)
        if kind == "error":
            raise _rebuilt(*value)
        return value

    def _reply(self, worker: Worker, asked: bridge.Asked) -> tuple[str, Any]:
        """The worker's reply, looked for every POLL seconds; raises when the request is abandoned, the worker
        passes the query's guard (plus MARGIN) or dies."""
        _, gone = budget.request_bounds()
        clock = budget.GuardClock(f"/proc/{worker.process.pid}/schedstat")  # the worker's waits for a core left out
        while not worker.connection.poll(POLL):
            if gone is not None and gone.is_set():
                raise SearchLimitExceeded(f"Prolog goal {asked.goal!r} was stopped: the request that asked for it "
                                          "was abandoned")
            if clock.seconds() > asked.guard + MARGIN:
                raise SearchLimitExceeded(f"Prolog goal {asked.goal!r} passed its "
                                          f"{budget.guard_words(asked.seconds)}")
        try:
            reply: tuple[str, Any] = worker.connection.recv()
        except (EOFError, OSError):  # the pipe closed under the read: the worker is gone
            worker.process.join()
            raise EngineDied(f"the Prolog engine answering {asked.goal!r} died (exit code "
                             f"{worker.process.exitcode}; a worker's memory bound is "
                             f"{memory.describe(self.bound)})") from None
        return reply

    def close(self) -> None:
        """End every worker: idle ones asked to, busy ones killed."""
        with self._lock:
            busy = list(self._busy)
        for worker in busy:
            worker.kill()
        while True:
            try:
                idle = self._idle.get_nowait()
            except queue.Empty:
                return
            if idle is not None:
                idle.close()


def _rebuilt(kind: str, message: str, detail: str) -> PysolveError:
    """The error a worker raised, rebuilt here by its class name (PrologError for any other)."""
    from pysolve import errors

    known = getattr(errors, kind, None)
    if known is PrologError or not (isinstance(known, type) and issubclass(known, PysolveError)):
        return PrologError(message, detail)
    try:
        return known(message)
    except TypeError:  # a class that takes more than a message
        return PrologError(message, detail)
