"""Where independent tasks run: in this process, on a pool of fresh processes, or on a Dask cluster.

Each task must be picklable and import what it needs itself; a spawned
process starts its own SWI-Prolog, so nothing of this process's engine is
shared (a forked copy of a running engine is not safe).

Ctrl-C is the parent's alone: a pool's processes ignore SIGINT from birth
(a terminal sends it to every process of the group, and a worker would
print a traceback of its own), and the parent kills them at once when an
interrupt or an error leaves the pool, so an interrupted run ends within a
moment instead of when its workers finish.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures import process as process_module
from typing import Any, Generic, TypeVar
from urllib.parse import urlsplit

from pysolve import words
from pysolve.errors import InputError, PysolveError
from pysolve.files import excerpt

T = TypeVar("T")
R = TypeVar("R")
AUTO = "auto"  # --workers auto: one process per core
START_SECONDS = 0.3  # CPU seconds, about, that a worker's start costs: spawned, its back end started
FORKED_START_SECONDS = 0.1  # the same for a forked worker (`start_method`), its back end started
CLUSTER_FORM = "tcp://HOST:PORT"  # the scheduler addresses pysolve connects to (no TLS certificates to pass)


Warm = tuple[Any, ...]  # (function, *arguments): what a worker runs first, e.g. starting its back end


class WorkerPool(ProcessPoolExecutor):
    """A pool of processes that ignore Ctrl-C, started and killed all at once.

    A pool of processes that ignore Ctrl-C, that `start` starts all at once (each running `warm` first) and
    that `kill` stops at once.

    The processes are forked from this one when that is safe (`start_method`), which costs a few
    milliseconds and no imports, else spawned (each starts Python and imports pysolve, a good part of a
    second). They start with SIGINT blocked and keep it blocked all their lives: a Ctrl-C while one imports
    pysolve, before any code of ours runs there, stays pending until `_start_worker` discards it, and none
    reaches Prolog later.
    """

    def __init__(self, workers: int, warm: Warm = ()) -> None:
        super().__init__(max_workers=workers, mp_context=multiprocessing.get_context(start_method()),
                         initializer=_start_worker, initargs=(warm,))

    def start(self) -> None:
        """Start every worker now (each warms up while this process goes on), not as work arrives."""
        sys.stdout.flush()  # a forked worker would write what is still buffered a second time
        sys.stderr.flush()
        for _ in range(self._max_workers):  # type: ignore[attr-defined]  # set by the constructor in every version
            self.submit(int)  # each submit starts a worker while none is idle

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Submit `fn(*args, **kwargs)`, starting a worker for it if one is due, with interrupts held back."""
        with _interrupts_held():
            return super().submit(fn, *args, **kwargs)

    def kill(self) -> None:
        """Kill every worker now and give up the work not done.

        Kill every worker now, whatever it is doing, and give up the work not done (what Python 3.14's
        `kill_workers` does; the pool keeps its workers in `_processes` in every version since 3.8).
        """
        processes = list((self._processes or {}).values())  # None once the pool is shut down
        manager: threading.Thread | None = getattr(self, "_executor_manager_thread", None)  # typeshed: mistyped
        for process in processes:
            process.kill()
        self.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.join()  # reaped: none is left behind as a zombie of this process
        if manager is not None:  # Python's exit must not wake it through a pipe it may be closing (3.11 races there)
            getattr(process_module, "_threads_wakeups", {}).pop(manager, None)


def start_method() -> str:
    """"fork" when this process may be copied safely.

    On Linux, with no thread but this one and no SWI-Prolog started (pyswip starts it on import; a copy of
    a running engine, or of a lock another thread holds, is unsafe); "spawn" otherwise.
    """
    if sys.platform == "linux" and threading.active_count() == 1 and "pyswip" not in sys.modules:
        return "fork"
    return "spawn"


def _start_worker(warm: Warm) -> None:
    """A worker's first acts: ignore SIGINT, which drops one that arrived while it started, then `warm`. The
    block it was born with (see WorkerPool) stays: SWI-Prolog, once started here, takes SIGINT for itself
    while a goal runs, and would stop the goal (or, on a terminal, ask what to do) when the signal got
    through."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if warm:
        with contextlib.suppress(PysolveError):  # a back end that cannot start: the parent says so, in one line
            warm[0](*warm[1:])


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """While the block runs, SIGINT is blocked in this thread (a process started here inherits the block)
    and, in the main thread, a Ctrl-C raises nothing: it is delivered when the block ends. So the pool
    never loses track of a worker it was starting when KeyboardInterrupt struck, which `kill` would then
    miss and Python's exit would wait on for ever."""
    held: list[int] = []
    in_main_thread = threading.current_thread() is threading.main_thread()
    handler = signal.getsignal(signal.SIGINT) if in_main_thread else None  # None too: one not set from Python
    if handler is not None:
        signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        if handler is not None:
            signal.signal(signal.SIGINT, handler)
        if held:
            signal.raise_signal(signal.SIGINT)  # to the handler the block found, as if it came now


def dask_executor(address: str) -> tuple[Any, Executor]:
    """(client, executor) of an existing Dask cluster at `address` (needs Dask's `distributed`)."""
    try:
        from distributed import Client
    except ImportError:
        raise InputError("--cluster needs Dask's distributed: pip install 'pysolve[dask]'") from None
    try:
        client = Client(address, timeout=10)
    except OSError as error:
        raise InputError(f"cannot reach the Dask cluster at {excerpt(address)}: {error}") from None
    return client, client.get_executor()


def check_cluster(address: str) -> str:
    """`address` when it has the form tcp://HOST:PORT (PORT 1-65535).

    InputError naming --cluster otherwise, before any work is done (Dask answers a malformed address
    with a traceback, and a tls:// address needs certificates that pysolve does not pass).
    """
    problem = _address_problem(address) if isinstance(address, str) else f"a {type(address).__name__}, not a text"
    if problem:
        raise InputError(f"--cluster {excerpt(address)}: {problem}; give a Dask scheduler's address, "
                         f"{CLUSTER_FORM}")
    return address


def _address_problem(address: str) -> str:
    """What is wrong with a scheduler address, or "" when nothing is."""
    try:
        parts = urlsplit(address)
        port = parts.port
    except ValueError as error:  # a port that is no number or out of range, a broken [IPv6] host
        return str(error)
    if parts.scheme != "tcp":
        return f"the protocol is {parts.scheme + '://' if parts.scheme else 'missing'}, not tcp://"
    if not parts.hostname or "@" in parts.netloc:
        return "no host"
    if not port:
        return "no port (or port 0)"
    if parts.path or parts.query or parts.fragment:
        return "more than a host and a port"
    return ""


def useful_workers(workers: int | str, tasks: int) -> int:
    """How many processes help run `tasks` independent tasks when `workers` are asked for ("auto": one per core).

    No more than the tasks, nor than the cores this process may use (more would only queue for the same
    cores, each paying a process's start-up and memory).
    """
    check_workers(workers)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(cores if workers == AUTO else int(workers), tasks, cores))


class Trial(Generic[T]):
    """--workers auto's look at a batch of independent tasks before it starts any worker.

    For a batch whose back ends run here already (or need no start: Python), so that trying costs nothing
    the workers would not pay again. `clock`: the CPU seconds of the work so far (this process's, and any
    child's it waits on). The first tasks run here (`run`) until those after the first have taken
    a worker's start in CPU (`start`: `start_seconds()`); the rest (`left`) goes to workers only when they
    would finish it sooner (`pays`): the rest's CPU, at the mean cost of the tasks tried after the first,
    shared out among the workers, saves more than a worker's start. A batch that runs here so says why in
    one line (`why_here`).
    """

    def __init__(self, items: Sequence[T], processes: int, start: float = START_SECONDS,
                 clock: Callable[[], float] = time.process_time) -> None:
        self.items, self.processes, self.start, self.clock = items, processes, start, clock
        self.done, self.spent, self.first = 0, 0.0, 0.0

    def run(self, run: Callable[[T], R]) -> Iterator[R]:
        """Each of the first tasks' results, run here, until those after the first have taken `start` of CPU."""
        started = self.clock()
        for item in self.items:
            yield run(item)
            self.done += 1
            self.spent = self.clock() - started
            if self.done == 1:
                self.first = self.spent
            elif self.spent - self.first >= self.start:
                return

    @property
    def left(self) -> Sequence[T]:
        """The tasks not run yet."""
        return self.items[self.done:]

    def rest_seconds(self) -> float:
        """The CPU the tasks left would take, at the mean of those tried.

        The first one is left out where there are others: it started this process's back end too."""
        tried, spent = (self.done - 1, self.spent - self.first) if self.done > 1 else (self.done, self.spent)
        return spent / max(1, tried) * len(self.left)

    def pays(self) -> bool:
        """Whether the workers would finish the tasks left sooner than this process alone."""
        return bool(self.left) and self.rest_seconds() * (1 - 1 / self.processes) > self.start

    def why_here(self, unit: str) -> str:
        """Why the whole batch ran in this process, in one line; `unit`: what a task is, in words."""
        took = f"{words.plural(self.done, unit)} took {words.seconds(self.spent)} of CPU"
        if not self.left:
            return f"ran serially (--workers auto): the {took}, less than starting workers costs"
        return (f"ran serially (--workers auto): the first {took}, the other {len(self.left)} would take about "
                f"{words.seconds(self.rest_seconds())}, too little for {self.processes} workers to save their start")


def ran_on(processes: int, asked: int | str) -> str:
    """The processes a run used, in words, with what was asked for when it was more than helps."""
    ran = f"{processes} process{'es' if processes > 1 else ''}"
    if processes == asked:
        return ran
    if asked == AUTO:
        return f"{ran} (auto: one per core)"
    return f"{ran} (of {asked} asked: at most one per core and per task)"


def chunks(items: Sequence[T], count: int) -> list[Sequence[T]]:
    """`items` cut into at most `count` runs, in order, of near-equal sizes (none empty)."""
    count = max(1, min(len(items), count))
    size, more = divmod(len(items), count)
    bounds = [index * size + min(index, more) for index in range(count + 1)]
    return [items[start:end] for start, end in itertools.pairwise(bounds)]


def width(executor: Executor) -> int:
    """How many tasks `executor` runs at once.

    A pool's processes, a Dask cluster's worker threads (1 for any other executor).
    """
    if isinstance(executor, ProcessPoolExecutor):
        return executor._max_workers  # type: ignore[attr-defined]  # set by the constructor in every version
    client = getattr(executor, "_client", None)  # a Dask ClientExecutor's
    return max(1, sum(client.nthreads().values())) if client is not None else 1


def check_workers(workers: int | str) -> int | str:
    """`workers` when it is "auto" or at least 1; InputError naming --workers otherwise."""
    if workers == AUTO:
        return workers
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise InputError(f"--workers must be a whole number of at least 1 or {AUTO}, not {excerpt(workers)}")
    return workers


def workers_argument(text: str) -> int | str:
    """argparse type of --workers: "auto" or a whole number of at least 1."""
    try:
        return check_workers(AUTO if text.strip() == AUTO else int(text))
    except (ValueError, InputError):
        raise argparse.ArgumentTypeError(f"give a whole number of at least 1, or {AUTO}; not {text!r}") from None


@contextlib.contextmanager
def executor(workers: int | str = 1, cluster: str | None = None, warm: Warm = ()) -> Iterator[Executor | None]:
    """The executor for a Dask cluster or a pool of processes, started.

    The executor for `cluster` (a Dask address) or `workers` processes, started, each worker (of the pool or
    of the cluster) running `warm` first; None means in this process. Shut down (and the cluster's client
    closed) on the way out; a pool's processes are killed at once when an exception (Ctrl-C's
    KeyboardInterrupt included) leaves the block.
    """
    check_workers(workers)
    client, chosen = None, None
    if cluster:
        client, chosen = dask_executor(check_cluster(cluster))
        if warm:
            client.run(*warm)
    elif workers == AUTO or int(workers) > 1:
        chosen = WorkerPool(useful_workers(workers, 1 << 30), warm)
        chosen.start()
    try:
        yield chosen
    except BaseException:
        abandon(chosen)
        raise
    finally:
        if isinstance(chosen, ProcessPoolExecutor):
            chosen.shutdown(cancel_futures=True)  # after an error, parts not started never start
        elif chosen is not None:
            chosen.shutdown()
        if client is not None:
            client.close()


def start_seconds() -> float:
    """What starting a worker would cost a `Trial` now: less where this process can still be forked."""
    return FORKED_START_SECONDS if start_method() == "fork" else START_SECONDS


def abandon(chosen: Executor | None) -> None:
    """Stop a pool's work at once: its processes killed, whatever they do (a cluster's work is left to it)."""
    if isinstance(chosen, WorkerPool):
        chosen.kill()
