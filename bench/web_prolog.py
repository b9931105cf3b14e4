"""The web server's Prolog side by side: concurrent hard Sudoku requests on 1 engine against N, measured in
one run (not a test).

    .venv/bin/python bench/web_prolog.py [--requests 8] [--engines 2]

Starts `pysolve serve` twice on a free port of this machine, once with one
Prolog engine and once with `--engines` (each a worker process of its own,
`pysolve.engines`), and sends each the same `--requests` requests at once:
POST /api/sudoku/solve of Peter Norvig's hardest puzzles on the prolog back
end, by the plain search (the rules alone, no Python propagation before),
counting to 2 (a solution, and the proof it is unique): 0.03-3.1 CPU s
each. Every engine answers a light puzzle first (started). Meanwhile a
light request, GET /api/backends, is sent every 50 ms. Prints, per server,
the wall seconds until every search answered and the light requests'
latency (median, worst), then the ratio.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HARDEST = ROOT / "data" / "sudoku" / "hardest.txt"


def start(engines: int) -> tuple[subprocess.Popen[str], str]:
    """A `pysolve serve` on a free port with `engines` Prolog engines, and its base URL once it listens."""
    code = f"from pysolve.web.serve import serve; serve('127.0.0.1', 0, 'prolog', engines={engines})"
    server = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert server.stderr is not None
    line = server.stderr.readline()
    match = re.search(r"http://[\d.]+:\d+/", line)
    if not match:
        server.kill()
        raise SystemExit(f"the server did not start: {line}")
    for _ in range(100):  # the line comes as it binds; it answers once uvicorn runs
        try:
            urllib.request.urlopen(match.group(0) + "api/backends", timeout=5).read()
            break
        except OSError:
            time.sleep(0.1)
    return server, match.group(0)


def post(url: str, data: dict[str, object]) -> dict[str, object]:
    request = urllib.request.Request(url, json.dumps(data).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=300) as response:
        return json.loads(response.read())


def light(base: str, stop: threading.Event, latencies: list[float]) -> None:
    """GET /api/backends every 50 ms until `stop`, each latency kept."""
    while not stop.is_set():
        started = time.perf_counter()
        with urllib.request.urlopen(base + "api/backends", timeout=300) as response:
            response.read()
        latencies.append(time.perf_counter() - started)
        stop.wait(0.05)


def ask(base: str, grid: str, strategy: str = "plain") -> dict[str, object]:
    """The server's answer to one Sudoku on the prolog back end, counting to 2."""
    return post(base + "api/sudoku/solve", {"grid": grid, "backend": "prolog", "count": 2, "strategy": strategy})


def measure(engines: int, puzzles: list[str]) -> tuple[float, list[float]]:
    """(wall seconds of every search answered at once, the light requests' latencies) on a fresh server."""
    server, base = start(engines)
    try:
        with concurrent.futures.ThreadPoolExecutor(engines) as pool:  # each engine started: a light puzzle
            list(pool.map(lambda grid: ask(base, grid, "fast"), puzzles[:engines]))
        stop, latencies = threading.Event(), []
        watcher = threading.Thread(target=light, args=(base, stop, latencies))
        started = time.perf_counter()
        watcher.start()
        with concurrent.futures.ThreadPoolExecutor(len(puzzles)) as pool:
            answers = list(pool.map(lambda grid: ask(base, grid), puzzles))
        took = time.perf_counter() - started
        stop.set()
        watcher.join()
        assert all(answer["status"] == "solved" for answer in answers), answers
        return took, latencies
    finally:
        server.terminate()
        server.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=8)
    parser.add_argument("--engines", type=int, default=2)
    args = parser.parse_args()
    grids = [line.strip() for line in HARDEST.read_text().splitlines() if line.strip()]
    puzzles = [grids[number % len(grids)] for number in range(args.requests)]
    results = {}
    for engines in (1, args.engines):
        took, latencies = measure(engines, puzzles)
        results[engines] = took
        print(f"{engines} engine{'s' if engines > 1 else ''}: {args.requests} hard sudoku requests answered in "
              f"{took:.2f} s; /api/backends meanwhile: median {statistics.median(latencies) * 1000:.0f} ms, "
              f"worst {max(latencies) * 1000:.0f} ms over {len(latencies)} requests")
    print(f"speed-up with {args.engines} engines: {results[1] / results[args.engines]:.2f}x")


if __name__ == "__main__":
    main()
