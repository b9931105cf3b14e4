"""`pysolve serve`: run the web application with uvicorn until Ctrl-C.

It binds 127.0.0.1 by default, so only this machine can reach it, and it
answers only requests addressed to the host it serves (no DNS rebinding),
unless it is told to listen on every address (`--host 0.0.0.0`). Its memory
is bounded as every command's that can grow (`--memory`, which the CLI
applies): a request past the bound gets 503 and the server goes on. Its
requests' Prolog queries run on a pool of worker processes, one engine each
and one per core (`pysolve.engines`), side by side; a query whose client
left, or past its guard, has its worker killed and replaced.
"""

from __future__ import annotations

import os
import socket
import sys

from pysolve import bridge
from pysolve.engines import EnginePool
from pysolve.errors import InputError
from pysolve.files import excerpt

LOCAL = ("127.0.0.1", "localhost", "::1")
WILDCARDS = ("0.0.0.0", "::", "")
GRACE_SECONDS = 2  # how long Ctrl-C waits for requests in flight


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to host:port (port 0: a free one); InputError saying why when it cannot be."""
    if not 0 <= port <= 65535:
        raise InputError(f"--port {port} is not a port number (0-65535)")
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    except socket.gaierror as error:
        raise InputError(f"--host {excerpt(host)}: {error.strerror}") from None
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise InputError(f"cannot serve on {host}:{port}: {error.strerror}") from None
    return sock


def first_prolog_call() -> None:
    """A trivial bounded Prolog query.

    A thread's first one installs SWI-Prolog's own SIGINT handler, so each worker makes it before
    uvicorn installs the handler that stops the server.
    """
    bridge.solutions("pysolve_bridge", bridge.goal("true"))


def default_engines() -> int:
    """How many Prolog engines (worker processes) answer the server's requests.

    One per core it may use, as many as its worker threads at most.
    """
    from pysolve.web.core import WORKERS  # the web stack loads only when it serves

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(cores, WORKERS))


def allowed_hosts(host: str) -> list[str] | None:
    """The host names requests may be addressed to.

    This machine's and `host`; any when `host` is a wildcard (0.0.0.0, ::), which says the
    server is meant to be reached by other names too.
    """
    return None if host in WILDCARDS else [*LOCAL, host]


def serve(host: str = "127.0.0.1", port: int = 8000, backend: str | None = None, engines: int | None = None) -> int:
    """Serve the pages on host:port until Ctrl-C or SIGTERM.

    Serve the pages on host:port until Ctrl-C (or SIGTERM), their Prolog on `engines` worker processes (default:
    `default_engines()`); return the exit code.
    """
    try:
        from pysolve.web import clients
        from pysolve.web.app import Server, create_app
        from pysolve.web.core import WORKERS
    except ImportError as error:
        raise InputError(f"pysolve serve needs the web extra: pip install 'pysolve[web]' ({error.name} is missing)") \
            from None
    if engines is not None and not 1 <= engines <= WORKERS:
        raise InputError(f"--prolog-processes {engines}: 1 to {WORKERS} (one per worker thread of the server)")
    app = create_app(backend, hosts=allowed_hosts(host))
    sock = listen(host, port)
    pool = None
    if "prolog" in app.state.choice.available:  # before uvicorn takes Ctrl-C (see Workers.start)
        app.state.workers.start(first_prolog_call)
        pool = EnginePool(engines or default_engines())
        bridge.answer_on(pool)  # the requests' Prolog side by side, each query on an engine of its own
    config = clients.config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=GRACE_SECONDS)
    server = Server(config, app.state.workers)
    shown = f"[{host}]" if ":" in host else host
    print(f"pysolve serve: http://{shown}:{sock.getsockname()[1]}/ (Ctrl-C stops)", file=sys.stderr, flush=True)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn hands the Ctrl-C it caught back once it has shut down
        pass
    finally:
        sock.close()
        app.state.workers.close(bridge.release_thread, GRACE_SECONDS)  # then Prolog's exit finds no thread to stop
        if pool is not None:
            bridge.answer_on(None)
            pool.close()
    print("pysolve serve: stopped", file=sys.stderr)
    return 0
