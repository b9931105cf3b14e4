"""Where independent tasks run: in this process, on a pool of fresh processes, or on a Dask cluster.

Each task must be picklable and import what it needs itself; a spawned
process starts its own SWI-Prolog, so nothing of this process's engine is
shared (a forked copy of a running engine is not safe).
"""

from __future__ import annotations

import contextlib
import multiprocessing
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from pysolve.errors import InputError


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
        client, chosen = dask_executor(cluster)
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
