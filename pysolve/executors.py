"""Where independent tasks run: in this process, on a pool of fresh processes, or on a Dask cluster.

Each task must be picklable and import what it needs itself; a spawned
process starts its own SWI-Prolog, so nothing of this process's engine is
shared (a forked copy of a running engine is not safe).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any
from urllib.parse import urlsplit

from pysolve.errors import InputError
from pysolve.files import excerpt

CLUSTER_FORM = "tcp://HOST:PORT"  # the scheduler addresses pysolve connects to (no TLS certificates to pass)


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of `workers` fresh processes (spawned: each starts its own SWI-Prolog)."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))


def dask_executor(address: str) -> tuple[Any, Executor]:
    """(client, executor) of an existing Dask cluster at `address` (needs Dask's `distributed`)."""
    try:
        from distributed import Client
    except ImportError:
        raise InputError("--cluster needs Dask's distributed: pip install 'pysolve[dask]'") from None
    try:
        client = Client(address, timeout=10)
    except OSError as error:
        raise InputError(f"cannot reach the Dask cluster at {address!r}: {error}") from None
    return client, client.get_executor()


def check_cluster(address: str) -> str:
    """`address` when it has the form tcp://HOST:PORT (PORT 1-65535); InputError naming --cluster
    otherwise, before any work is done (Dask answers a malformed address with a traceback, and a tls://
    address needs certificates that pysolve does not pass)."""
    problem = _address_problem(address)
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


def useful_workers(workers: int, tasks: int) -> int:
    """How many processes help run `tasks` independent tasks when `workers` are asked for: no more than
    the tasks, nor than the cores this process may use (more would only queue for the same cores, each
    paying a process's start-up and memory)."""
    check_workers(workers)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(workers, tasks, cores))


def check_workers(workers: int) -> int:
    """`workers` when it is at least 1; InputError naming --workers otherwise."""
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise InputError(f"--workers must be a whole number of at least 1, not {workers!r}")
    return workers


@contextlib.contextmanager
def executor(workers: int = 1, cluster: str | None = None) -> Iterator[Executor | None]:
    """The executor for `cluster` (a Dask address) or `workers` processes; None means in this process.
    Shut down (and the cluster's client closed) on the way out."""
    check_workers(workers)
    client, chosen = None, None
    if cluster:
        client, chosen = dask_executor(check_cluster(cluster))
    elif workers > 1:
        chosen = process_pool(workers)
    try:
        yield chosen
    finally:
        if isinstance(chosen, ProcessPoolExecutor):
            chosen.shutdown(cancel_futures=True)  # after Ctrl-C or an error, parts not started never start
        elif chosen is not None:
            chosen.shutdown()
        if client is not None:
            client.close()
