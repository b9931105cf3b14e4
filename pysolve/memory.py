"""The memory bound of a run: an address-space limit on the process.

A search that grows too big then fails with MemoryError (answered as status
unknown) instead of being killed by the kernel's OOM killer. Searches look
(`watch`) before the bound is reached: a MemoryError raised with the last
HEADROOM of the bound still free unwinds and says so, where one raised by
the allocator with nothing left may find no memory to report itself in."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import resource
from collections.abc import Iterator

from pysolve.errors import InputError

UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
HEADROOM = 1 / 8  # the share of the bound `watch` keeps free for unwinding and answering
MAX_SIZE = 2**50  # the largest --memory: 1024T, a thousand times any machine's, well within setrlimit's 64 bits


def physical_memory() -> int:
    """Bytes of physical memory on this machine."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def default_limit() -> int:
    """Half the machine's memory: room for the search, and for everything else the machine runs."""
    return physical_memory() // 2


def add_option(parser: argparse.ArgumentParser) -> None:
    """Add --memory, the bound of a command's run, to a parser.

    --memory: the bound of a command's run (`pysolve.cli.main` applies it), past which a search answers
    unknown and any other work stops with one line, instead of growing further."""
    parser.add_argument("--memory", metavar="SIZE", default=None,
                        help=f"memory bound of the run, such as 512M or 4G; a search past it answers unknown "
                             f"(default {describe(default_limit())}, half this machine's; 0: none)")


def parse_size(text: str) -> int:
    """`512M`, `2G`, `1.5G` or a number of bytes; 0 means no limit.

    InputError, quoting an excerpt of `text`, when it is none of those (ASCII digits only), below 64M or
    above MAX_SIZE (which no machine has, and setrlimit could not take much further).
    """
    from pysolve.files import excerpt  # only when a size is given: tempfile and the rest cost every run's start

    match = re.fullmatch(r"\s*([0-9]{1,20}(?:\.[0-9]{1,9})?)\s*([KMGT]?)i?B?\s*", text, re.IGNORECASE)
    if not match:
        raise InputError(f"--memory {excerpt(text)}: give a size such as 512M or 2G (0: no limit)")
    size = int(float(match.group(1)) * UNITS[match.group(2).upper()])
    if 0 < size < 64 * 2**20:
        raise InputError(f"--memory {excerpt(text)}: too small to start a search; give at least 64M")
    if size > MAX_SIZE:
        raise InputError(f"--memory {excerpt(text)}: more than any machine has; give at most "
                         f"{MAX_SIZE // UNITS['T']}T (0: no limit)")
    return size


def describe(size: int) -> str:
    """A size as a person says it, to three digits at most: `2 GB`, `11.8 GB`, `512 MB`."""
    return f"{size / 2**30:.3g} GB" if size >= 2**30 else f"{size / 2**20:.3g} MB"


def limit(size: int) -> None:
    """Bound this process's address space to `size` bytes (0: leave it unbounded)."""
    if size:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        wanted = size if hard == resource.RLIM_INFINITY else min(size, hard)
        resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))


@contextlib.contextmanager
def bounded(size: int) -> Iterator[None]:
    """Bound the address space while the block runs, then restore the bound before.

    Bound the address space to `size` bytes (0: leave it) while the block runs, and give the bound
    before it back after: a CLI run inside a larger program (a test, a notebook) leaves the limit as it
    was, so that what the program starts later (a browser) does not inherit it."""
    before = resource.getrlimit(resource.RLIMIT_AS)
    limit(size)
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, before)


def current_limit() -> int:
    """The address-space bound in force (0: none)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return 0 if soft == resource.RLIM_INFINITY else soft


def watch() -> None:
    """Raise MemoryError when the process's address space is within HEADROOM of the bound in force.

    A look costs a read of /proc/self/statm (microseconds): the budgets look as often as at the clock.
    Nothing is read without a bound, nor where /proc is missing.
    """
    bound = current_limit()
    if not bound:
        return
    try:
        with open("/proc/self/statm", "rb") as statm:
            pages = int(statm.read().split()[0])
    except OSError:
        return
    if pages * _PAGE > bound * (1 - HEADROOM):
        raise MemoryError


_PAGE = os.sysconf("SC_PAGE_SIZE")


def exhausted(what: str) -> str:
    """The reason of a search that ran out of memory, naming the bound when there is one."""
    bound = current_limit()
    return f"{what} ran out of memory" + (f" (the memory bound of {describe(bound)})" if bound else "")
