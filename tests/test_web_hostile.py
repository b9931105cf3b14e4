"""`pysolve serve` against hostile requests, on a real server over real sockets.

Every refusal is a 4xx with a one-line JSON error, and the keep-alive
connection it came on answers the next request (http.client, one socket);
bodies are counted as they arrive (a chunked 1,000 MB body is refused after
1 MB, the server's peak memory flat); no request reads a path on the server;
POSTs come as JSON from the page's own origin; searches are capped, stopped
when their client leaves, and a full line answers 503 at once. A fuzz of
every endpoint the application has ends the file: the list comes from the
application itself (`ENDPOINTS`), so an endpoint added later is fuzzed too,
and while the fuzz runs every file the server opens is watched (`READS`):
only shipped instances, uploads and the server's own code and pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import logging
import os
import re
import resource
import socket
import string
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient
from test_web import serving, the_command

from pysolve import api, budget, cli
from pysolve.budget import Budget
from pysolve.errors import SearchLimitExceeded, UnknownName
from pysolve.paths import data_dir
from pysolve.web import core, guard
from pysolve.web.app import MAX_MESSAGE, UNUSABLE, create_app
from pysolve.web.core import MAX_SECONDS, WAITING, WORKERS
from pysolve.web.guard import MAX_BODY, MAX_DEPTH, MAX_DIGITS, shipped_file

JSON = {"Content-Type": "application/json"}
SLOW = [  # work of 20 s and more: a search that looks at its budget all the time, a tournament of long games
    ("/api/crosscheck", {"puzzle": "sudoku", "options": {"file": {"text": "." * 81, "name": "empty.txt"},
                                                         "count": 10**9, "seconds": 20}, "backends": ["kanren"]}),
    ("/api/azul/tournament", {"games": 200, "strategies": ["mcts:1000", "mcts:1000"], "backend": "python"}),
]
QUICK = {"puzzle": "fichas", "options": {"m": 1, "n": 1}, "backends": ["kanren", "python"]}


@pytest.fixture(scope="module")
def base(pysolve_backends: list[str]) -> Iterator[str]:
    """One server for this module, its pages' default back end the session's first."""
    with serving(pysolve_backends[0]) as url:
        yield url


class Connection:
    """One keep-alive HTTP/1.1 connection (http.client): `same` says it is still the socket it opened with."""

    def __init__(self, base: str, timeout: float = 60) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.http = http.client.HTTPConnection(host, int(port), timeout=timeout)
        self.http.connect()
        self.socket = self.http.sock

    def ask(self, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any], http.client.HTTPResponse]:
        """Status, JSON answer and response of one request on this connection (JSON sent unless told); an answer
        that is not JSON (an Azul log) as {"text": ...}."""
        self.http.request(method, path, body=body, headers=JSON if headers is None else headers)
        response = self.http.getresponse()
        data = response.read()
        if response.getheader("content-type", "").startswith("application/json"):
            return response.status, json.loads(data), response
        return response.status, {"text": data.decode()}, response

    @property
    def same(self) -> bool:
        return self.http.sock is not None and self.http.sock is self.socket

    def close(self) -> None:
        self.http.close()


def one_line(answer: dict[str, Any]) -> str:
    """The error of a refusal, checked to be one short line and no traceback."""
    message = answer["error"]
    assert message and "\n" not in message and "Traceback" not in message
    assert len(message) <= MAX_MESSAGE + 40
    return message


def nested(depth: int) -> Any:
    """A list nested `depth` deep."""
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def raw(data: Any) -> bytes:
    """`data` as a JSON body; text with a lone surrogate goes as the escape `\\ud800`, as JSON allows."""
    return json.dumps(data).encode()


@pytest.fixture(scope="module")
def games(base: str) -> dict[str, str]:
    """A tangram game and an Azul table to aim at: their ids."""
    connection = Connection(base)
    _, tangram, _ = connection.ask("POST", "/api/tangram/games", b"{}")
    _, azul, _ = connection.ask("POST", "/api/azul/games", raw({"seats": ["you", "random"]}))
    connection.close()
    return {"tangram": tangram["id"], "azul": azul["id"]}


def endpoints() -> dict[str, frozenset[str]]:
    """Every endpoint of the application as `create_app` builds it (path -> methods), pages and the static
    folder aside: the tests below take their lists from here, so that no endpoint can be forgotten."""
    app = create_app("python")
    return {route.path: frozenset(route.methods or ()) for route in app.routes
            if isinstance(route, Route) and route.path.startswith("/api/")}


ENDPOINTS = endpoints()
POSTS = sorted(path for path, methods in ENDPOINTS.items() if "POST" in methods)
GETS = sorted(path for path, methods in ENDPOINTS.items() if "GET" in methods)
PARAMETER = re.compile(r"\{(\w+)(?::\w+)?\}")  # {key}, {name:path}


def url_text(text: str) -> str:
    """`text` quoted for a URL; a lone surrogate goes as its bytes (%ED%A0%80), which are no UTF-8."""
    return quote(text, safe="", errors="surrogatepass")


def filled(path: str, games: dict[str, str], value: str | None = None) -> str:
    """`path` with its parameters given: `value` (quoted) when given, else the id of the game of that page
    (`/api/azul/games/{key}`: the Azul table), else a name no page knows."""
    kind = path.split("/")[2]

    def one(match: re.Match[str]) -> str:
        return url_text(value) if value is not None else games.get(kind, "nothing-of-that-name")

    return PARAMETER.sub(one, path)


def test_the_endpoints_are_those_of_every_page() -> None:
    """The enumeration sees every page's endpoints (each registered page adds its own, the cross-check too)."""
    pages = {path.split("/")[2] for path in ENDPOINTS}
    assert {"azul", "crosscheck", "fichas", "hidato", "squares", "sudoku", "tangram", "backends"} <= pages
    assert {"/api/sudoku/solve", "/api/sudoku/generate", "/api/fichas/solve", "/api/fichas/compare",
            "/api/crosscheck", "/api/hidato/solve", "/api/squares/trace", "/api/tangram/games"} <= set(POSTS)
    assert "/api/hidato/boards/{name:path}" in GETS and "/api/tangram/games/{key}/tilings" in GETS


PATHS = ["/etc/passwd", "../../../../etc/passwd", "/dev/zero", "/dev/stdin", "/proc/self/environ", "~/.bashrc",
         "file:///etc/passwd", "data/hidato/sample.txt", str(data_dir() / "squares" / "insects.txt"), "./insects",
         "insects.txt/../insects.txt", "..", "/", ""]  # paths the server must never open (shipped files by path too)
DEEP = b"[" * 100_000 + b"]" * 100_000
SURROGATE = "\ud800"  # a lone surrogate: JSON can carry it, UTF-8 cannot

BAD = [  # (endpoint, body, status, words the error holds)
    *[(path, DEEP, 400, "deeper than 32") for path in POSTS],
    *[(path, raw({"data": nested(MAX_DEPTH + 8)}), 400, "the field 'data") for path in POSTS],
    ("/api/hidato/solve", raw({"board": nested(MAX_DEPTH + 8)}), 400, "the field 'board"),
    ("/api/hidato/solve", raw({"board": nested(20)}), 400, "'board' must be str, not [[[[...]]]]"),
    ("/api/azul/replay", raw({"log": nested(MAX_DEPTH + 8)}), 400, "the field 'log"),
    ("/api/azul/replay", raw({"log": "[" * 200_000}), 400, ""),
    ("/api/tangram/games", raw({"instance": SURROGATE}), 400, "'instance' is not Unicode text"),
    ("/api/tangram/games", raw({"instance": f"board 1 1\npiece 1 {SURROGATE} #ff0000 1 1\n"}), 400, "lone surrogate"),
    ("/api/squares/trace", raw({"file": SURROGATE}), 400, "'file' is not Unicode text"),
    ("/api/azul/replay", raw({"log": SURROGATE}), 400, "'log' is not Unicode text"),
    ("/api/crosscheck", raw({"puzzle": "squares", "options": {"file": SURROGATE}}), 400,
     "'options.file' is not Unicode"),
    ("/api/crosscheck", raw({SURROGATE: 1}), 400, "a key that is not Unicode"),
    ("/api/crosscheck", raw({"puzzle": "squares", "options": {"file": "insects.txt\x00../../etc/passwd"}}), 400,
     "no shipped instance"),
    ("/api/crosscheck", raw({"puzzle": "squares", "options": {"file": {"text": "grid 1 1\n", "name": "a\x00b"}}}),
     400, "one plain file name"),
    ("/api/crosscheck", raw({"puzzle": "squares", "options": {"file": {"text": "grid 1 1\n", "name": "../x"}}}),
     400, "one plain file name"),
    ("/api/azul/tournament", raw({"strategies": ["mcts:nans", "greedy"]}), 400, "not nan"),
    ("/api/azul/tournament", raw({"strategies": ["mcts:infs"]}), 400, "not inf"),
    ("/api/azul/tournament", raw({"strategies": ["mcts:99999999999999999999"]}), 400, "is too large"),
    ("/api/azul/tournament", raw({"strategies": ["mcts:20000"]}), 400, "at most 10000 iterations"),
    ("/api/azul/tournament", raw({"strategies": ["minimax:9"]}), 400, "at most 4 plies"),
    ("/api/azul/tournament", raw({"strategies": ["mcts:" + "9" * 5000]}), 400, ""),
    ("/api/azul/tournament", raw({"games": 10**9}), 400, "1 to 200"),
    ("/api/azul/games", raw({"seats": ["you", "mcts:nans"]}), 400, "not nan"),
    ("/api/azul/tournament", raw({"strategies": ["cmd:touch /tmp/pwned", "greedy"]}), 400,
     "outside agents play only from the command line"),
    ("/api/azul/games", raw({"seats": ["you", "cmd:sh -c 'id'"]}), 400, "outside agents play only"),
    ("/api/azul/tournament", raw({"strategies": ["minimax:5s"]}), 400, "at most 2 s a move"),
    ("/api/crosscheck", b'{"puzzle": "fichas", "options": {"m": 1, "n": 1, "seconds": NaN}}', 400, "NaN"),
    ("/api/crosscheck", b'{"puzzle": "fichas", "options": {"m": 1, "n": 1, "seconds": Infinity}}', 400, "Infinity"),
    ("/api/crosscheck", b'{"puzzle": "fichas", "options": {"m": 1, "n": 1, "seconds": -Infinity}}', 400, "Infinity"),
    ("/api/crosscheck", b'{"puzzle": "fichas", "options": {"m": 1, "n": 1, "seconds": 1e999}}', 400, "too large"),
    ("/api/crosscheck", raw({"puzzle": "fichas", "options": {"m": 1, "n": 1, "seconds": 1e308}}), 400,
     "is more than"),
    ("/api/crosscheck", raw({"puzzle": "fichas", "options": {"m": 1, "n": 1, "seconds": 100}}), 400,
     f"at most {MAX_SECONDS:g} on this server"),
    ("/api/crosscheck", raw({"puzzle": "fichas", "options": {"m": 1, "n": 1, "seconds": "inf"}}), 400, "not a finite"),
    ("/api/crosscheck", raw({"puzzle": "fichas", "options": {"m": 1, "n": 1, "seconds": "nan"}}), 400, "Seconds"),
    ("/api/crosscheck", raw({"puzzle": "fichas", "options": {"m": "x" * 900_000, "n": 1}}), 400, "characters)"),
    ("/api/hidato/solve", b'{"board": "1 2", "n": ' + b"1" * 5000 + b"}", 400,
     "the field 'n' holds an integer of 5,000 digits"),
    ("/api/hidato/solve", b'{"board": "\xff\xfe"}', 400,
     "the field 'board' is not UTF-8 text (it holds the byte 0xff)"),
    ("/api/hidato/generate", raw({"rows": 10**6, "cols": 10**6}), 400, "at most 4096"),
    *[("/api/hidato/generate", raw({"shape": path}), 400, "the shape: no shipped instance") for path in PATHS],
    ("/api/hidato/generate", raw({"rows": 5, "cols": 5, "givens": 1e308}), 400, "not a fraction between 0 and 1"),
    ("/api/hidato/generate", b'{"rows": 5, "cols": 5, "givens": NaN}', 400, "NaN"),
    ("/api/hidato/generate", raw({"rows": 5, "cols": 5, "holes": 10**20}), 400, "not an integer of at most 18 digits"),
    ("/api/hidato/solve", raw({"board": "1 " + "__ " * 5000 + "9999"}), 400, "at most 4096"),
    ("/api/hidato/solve", raw({"board": "/etc/passwd"}), 400, "the board"),
    # Sudoku: a grid is text, never a file; the count, size, difficulty and givens are bounded
    ("/api/sudoku/solve", raw({"grid": nested(20)}), 400, "'grid' must be str, not [[[[...]]]]"),
    ("/api/sudoku/solve", raw({"grid": "/etc/passwd"}), 400, "the grid: line 1: 11 cells"),
    ("/api/sudoku/solve", raw({"grid": "top95"}), 400, "the grid: line 1: 5 cells"),
    ("/api/sudoku/solve", raw({"grid": "x" * 900_000}), 400, "900000 cells"),
    ("/api/sudoku/solve", raw({"grid": SURROGATE}), 400, "'grid' is not Unicode text"),
    ("/api/sudoku/solve", raw({"grid": "." * 81, "count": 10**9}), 400, "K is 1 to 1000"),
    ("/api/sudoku/solve", raw({"grid": "." * 81, "count": 0}), 400, "K is 1 to 1000"),
    ("/api/sudoku/solve", raw({"grid": "." * 81, "count": 1e308}), 400, "'count' must be int"),
    ("/api/sudoku/solve", b'{"grid": "", "count": Infinity}', 400, "Infinity"),
    ("/api/sudoku/solve", raw({"grid": "." * 81, "count": 2, "validate": True}), 400, "takes no count"),
    ("/api/sudoku/solve", raw({"grid": "." * 81, "validate": "yes"}), 400, "'validate' must be bool"),
    ("/api/sudoku/solve", raw({"grid": "." * 81, "strategy": "/etc/passwd"}), 400, "is not one of"),
    ("/api/sudoku/solve", raw({"grid": "." * 81, "backend": "../prolog"}), 400, "../prolog"),
    ("/api/sudoku/solve", raw({"grid": "\n".join(["." * 81] * 2000)}), 400, "2000 puzzles"),
    ("/api/sudoku/generate", raw({"size": 10**30}), 400, "is not one of"),
    ("/api/sudoku/generate", b'{"size": 1e999}', 400, "too large"),
    ("/api/sudoku/generate", raw({"size": 9.0}), 400, "'size' must be int"),
    ("/api/sudoku/generate", raw({"givens": 10**9}), 400, "is not between 0 and 81"),
    ("/api/sudoku/generate", raw({"givens": -1}), 400, "is not between 0 and 81"),
    ("/api/sudoku/generate", raw({"difficulty": ["hard"]}), 400, "'difficulty' must be str"),
    ("/api/sudoku/generate", raw({"difficulty": "/dev/zero"}), 400, "is not one of"),
    ("/api/sudoku/generate", raw({"seed": "1"}), 400, "'seed' must be int"),
    # fichas: the order is bounded, the strategy and flavour are names
    ("/api/fichas/solve", raw({"m": 10**30, "n": 1}), 400, "is out of range"),
    ("/api/fichas/solve", raw({"m": -1, "n": 1}), 400, "is out of range"),
    ("/api/fichas/solve", b'{"m": NaN, "n": 1}', 400, "NaN"),
    ("/api/fichas/solve", raw({"m": True, "n": 1}), 400, "'m' must be int, not True"),
    ("/api/fichas/solve", raw({"m": 1, "n": 1, "strategy": {"dfs": 1}}), 400, "'strategy' must be str"),
    ("/api/fichas/solve", raw({"m": 1, "n": 1, "strategy": "/etc/passwd"}), 400, "unknown strategy"),
    ("/api/fichas/solve", raw({"m": 1}), 400, "'n' is required"),
    ("/api/fichas/compare", raw({"m": 1, "n": 10**30}), 400, "is out of range"),
    ("/api/fichas/compare", raw({"m": 1, "n": 1, "flavour": "../hs"}), 400, "unknown flavour"),
    ("/api/fichas/compare", raw({"m": 1, "n": 1, "flavour": nested(5)}), 400, "'flavour' must be str"),
    # the cross-check's uploads: plain names, text only
    *[("/api/crosscheck", raw({"puzzle": "squares", "options": {"file": {"text": "grid 1 1\n", "name": name}}}),
       400, "one plain file name") for name in ["/etc/passwd", "..", ".", "", "a/b", "x" * 101, "a\nb"]],
    ("/api/crosscheck", raw({"puzzle": "squares", "options": {"file": {"name": "a.txt"}}}), 400, "'text' is required"),
    ("/api/crosscheck", raw({"puzzle": "squares", "options": {"file": {"text": nested(4)}}}), 400,
     "'text' must be str"),
    ("/api/crosscheck", raw({"puzzle": "sudoku", "options": {"file": {"text": "1" * 81}}}), 400, "given twice"),
    ("/api/crosscheck", raw({"puzzle": "hidato", "options": {"file": 5}}), 400, "a shipped instance's name"),
    # the tangram and squares paste boxes: text read as an instance, never as a file name
    ("/api/tangram/games", raw({"instance": "/etc/passwd"}), 400, "unknown statement '/etc/passwd'"),
    ("/api/tangram/games", raw({"instance": "classic"}), 400, "unknown statement 'classic'"),
    ("/api/tangram/games", raw({"instance": "board 100000 100000\npiece 1 a #ff0000 1 1\n"}), 400, "at most 4096"),
    ("/api/tangram/games", raw({"instance": 5}), 400, "'instance' must be str"),
    ("/api/squares/trace", raw({"file": "/dev/zero"}), 400, "the uploaded file:1: cannot read"),
    ("/api/squares/trace", raw({"file": "x" * 900_000}), 400, "(900,000 characters)"),
    ("/api/squares/trace", raw({"file": "grid 1 1\n", "name": ["x"]}), 400, "'name' must be str"),
    *[("/api/squares/trace", raw({"instance": path}), 400, "the instance: no shipped instance") for path in PATHS],
]


@pytest.mark.slow
def test_bad_bodies_are_a_one_line_4xx_and_the_connection_goes_on(base: str, games: dict[str, str]) -> None:
    connection = Connection(base)
    for path, body, status, words in BAD:
        got, answer, _ = connection.ask("POST", filled(path, games), body)
        assert (got, words in one_line(answer)) == (status, True), (path, body[:80], answer)
        assert connection.ask("GET", "/api/backends")[0] == 200 and connection.same, (path, body[:80])
    connection.close()


def test_a_foreign_origin_or_a_body_that_is_not_json_is_refused(base: str) -> None:
    port = base.rsplit(":", 1)[1]
    connection = Connection(base)
    refused = [
        ({"Content-Type": "text/plain", "Origin": "http://evil.example"}, 403, "requests from 'http://evil.example'"),
        ({**JSON, "Origin": "http://evil.example"}, 403, "its own pages only"),
        ({**JSON, "Origin": f"http://127.0.0.1:{int(port) + 1}"}, 403, "its own pages only"),
        ({**JSON, "Origin": "null"}, 403, "its own pages only"),
        ({"Content-Type": "text/plain"}, 415, "content type is 'text/plain'"),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415, "application/json"),
        ({}, 415, "content type is none"),
    ]
    for headers, status, words in refused:
        got, answer, _ = connection.ask("POST", "/api/tangram/games", b'{"backend": "python"}', headers)
        assert (got, words in one_line(answer)) == (status, True), (headers, answer)
        assert connection.same
    own = {"Content-Type": "application/json; charset=utf-8", "Origin": f"http://127.0.0.1:{port}"}
    assert connection.ask("POST", "/api/tangram/games", b'{"backend": "python"}', own)[0] == 201
    assert connection.ask("GET", "/api/backends", None, {"Origin": "http://evil.example"})[0] == 200
    assert connection.same
    connection.close()


def test_crosscheck_reads_no_path_on_the_server(base: str, tmp_path: Path) -> None:
    """Paths are refused without being opened: a FIFO would block, /dev/zero fill the memory."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    connection = Connection(base, timeout=10)
    for path in ["/etc/passwd", "../../../../etc/hostname", "/dev/zero", str(fifo),
                 str(data_dir() / "tangram/classic.txt"), "eternity/../insects", ""]:
        for puzzle in ("squares", "tangram", "hidato", "sudoku"):
            request = {"puzzle": puzzle, "options": {"file": path}}
            got, answer, _ = connection.ask("POST", "/api/crosscheck", raw(request))
            message = one_line(answer)
            assert got == 400 and "no shipped instance" in message and "root:" not in message, (path, message)
            assert connection.same  # answered within the connection's 10 s: nothing was opened to block on
    connection.close()


def test_crosscheck_takes_shipped_names_and_uploads(base: str) -> None:
    connection = Connection(base)
    _, listed, _ = connection.ask("GET", "/api/crosscheck/puzzles")
    options = {puzzle["name"]: {option["name"]: option for option in puzzle["options"]} for puzzle in listed["puzzles"]}
    assert options["tangram"]["file"]["file"] and "classic.txt" in options["tangram"]["file"]["shipped"]
    assert "eternity/pieces_06x06.txt" in options["squares"]["file"]["shipped"]
    assert not options["tangram"]["count"]["file"] and options["tangram"]["count"]["shipped"] == []

    classic = (data_dir() / "tangram" / "classic.txt").read_text()
    for file in ("classic.txt", {"text": classic, "name": "mine.txt"}):
        request = {"puzzle": "tangram", "options": {"file": file, "count": True}, "backends": ["python"]}
        status, report, _ = connection.ask("POST", "/api/crosscheck", raw(request))
        assert status == 200 and report["results"][0]["summary"] == "36 tilings", report
        assert str(data_dir()) not in json.dumps(report) and "pysolve-upload" not in json.dumps(report)
    upload = {"text": "board 3 3\npiece 1 a #ff0000 9 9\n", "name": "mine.txt"}
    broken = {"puzzle": "tangram", "options": {"file": upload}}
    status, answer, _ = connection.ask("POST", "/api/crosscheck", raw(broken))
    assert (status, one_line(answer)) == (400, "mine.txt: piece a (9x9) does not fit the 3x3 board")
    hidato = {"puzzle": "hidato", "options": {"file": "sample.txt", "count": 2}, "backends": ["python"]}
    status, report, _ = connection.ask("POST", "/api/crosscheck", raw(hidato))
    assert status == 200 and report["question"]["file"] == "sample.txt" and report["results"][0]["summary"]
    connection.close()


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", ["hidato", "squares", "sudoku", "tangram"])
def test_the_server_takes_every_name_the_cli_takes_and_no_path(puzzle: str) -> None:
    """Each shipped instance by its name, its file or an alias (squares' `eternity-6x6`), as `pysolve solve`
    takes it (the catalogue); an existing file by its path, which the CLI reads, is refused."""
    catalogue = api.get_puzzle(puzzle).catalogue()
    for entry in catalogue.entries:
        for name in entry.names:
            assert shipped_file(catalogue, name, "FILE") == entry.path == Path(catalogue.locate(name))
        for path in (str(entry.path), os.path.relpath(entry.path), f"data/{puzzle}/{entry.file}"):
            with pytest.raises(UnknownName, match="^FILE: no shipped instance .*this server reads only"):
                shipped_file(catalogue, path, "FILE")


def test_the_pages_take_the_cli_names(base: str) -> None:
    """The squares and Hidato pages list and take the catalogue's names; the cross-check takes aliases."""
    connection = Connection(base)
    assert connection.ask("GET", "/api/squares/instances")[1]["instances"] == [
        min(entry.names, key=len) for entry in api.get_puzzle("squares").catalogue().entries]
    for name in ("eternity-3x3", "eternity/pieces_03x03", "eternity/pieces_03x03.txt"):
        status, trace, _ = connection.ask("POST", "/api/squares/trace", raw({"instance": name}))
        assert (status, trace.get("name"), trace.get("solutions")) == (200, name, 16), trace
    listed = connection.ask("GET", "/api/hidato/boards")[1]
    names = api.get_puzzle("hidato").catalogue().names()
    assert sorted(listed["boards"] + listed["shapes"]) == sorted(names) and "public/csp_a1_6x6" in listed["boards"]
    for name in ("sample", "sample.txt", "public/csp_a1_6x6", "long/snake_3x50"):
        status, board, _ = connection.ask("GET", f"/api/hidato/boards/{name}")
        assert status == 200 and board["text"].startswith("#"), (name, board)
    status, made, _ = connection.ask("POST", "/api/hidato/generate", raw({"shape": "shapes/ring.txt", "seed": 2}))
    assert status == 200 and made["data"]["cells"] == 64, made
    request = {"puzzle": "squares", "options": {"file": "eternity-3x3", "count": True}, "backends": ["python"]}
    status, report, _ = connection.ask("POST", "/api/crosscheck", raw(request))
    assert status == 200 and report["results"][0]["summary"].startswith("16 solutions"), report
    connection.close()


def test_a_body_declared_past_the_limit_is_refused_unread_and_its_connection_closed(base: str) -> None:
    port = int(base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"POST /api/hidato/solve HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {MAX_BODY + 1}\r\n\r\n{{".encode())
        answer = b""
        while more := sock.recv(65536):  # the answer, then the end of the connection (no body awaited)
            answer += more
    head, _, text = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413 ") and b"connection: close" in head.lower()
    assert one_line(json.loads(text)) == f"the request body is {MAX_BODY + 1} bytes; the limit is {MAX_BODY}"
    assert Connection(base).ask("GET", "/api/backends")[0] == 200  # a new connection is served


def peak_rss(pid: int) -> int:
    """A process's peak resident memory in bytes (VmHWM)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", status)[1]) * 1024  # type: ignore[index]


def chunked_upload(port: int, total: int, chunk: int = 1 << 16) -> tuple[bytes, int]:
    """POST a chunked body of `total` bytes (no Content-Length) until the server answers; (its answer, bytes
    sent)."""
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"POST /api/hidato/solve HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                     f"Transfer-Encoding: chunked\r\n\r\n".encode())
        piece = f"{chunk:x}\r\n".encode() + b" " * chunk + b"\r\n"
        sock.setblocking(False)
        answer = b""
        while sent < total and not answer:
            with contextlib.suppress(BlockingIOError):
                answer = sock.recv(65536)
            try:
                sent += sock.send(piece)
            except BlockingIOError:
                time.sleep(0.01)
            except (BrokenPipeError, ConnectionResetError):
                break
        sock.setblocking(True)
        while b"\r\n\r\n" not in answer or not answer.endswith(b"}"):
            more = sock.recv(65536)
            if not more:
                break
            answer += more
    return answer, sent


@pytest.mark.slow
def test_the_command_counts_a_chunked_body_as_it_arrives_within_its_memory_bound() -> None:
    """A chunked 1,000 MB body: 413 after about 1 MB, the server's peak memory flat; `--memory` in force."""
    with the_command("--backend", "python", "--memory", "2G") as (server, port):
        limits = Path(f"/proc/{server.pid}/limits").read_text()
        assert re.search(r"Max address space\s+2147483648\s", limits)
        declared = socket.create_connection(("127.0.0.1", port), timeout=10)
        declared.sendall(f"POST /api/hidato/solve HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                         f"Content-Type: application/json\r\nContent-Length: {1000 * 10**6}\r\n\r\n{{".encode())
        assert declared.recv(65536).startswith(b"HTTP/1.1 413 ")
        declared.close()
        before = peak_rss(server.pid)
        answer, sent = chunked_upload(port, 1000 * 10**6)
        grown = peak_rss(server.pid) - before
        assert answer.startswith(b"HTTP/1.1 413 ") and b"passed 1000000 bytes" in answer, answer[:200]
        assert sent < 64 * 10**6, sent
        assert grown < 20 * 2**20, grown
        print(f"chunked 1,000 MB body: 413 after {sent / 1e6:.1f} MB sent; server peak RSS "
              f"{before / 2**20:.0f} MB -> {(before + grown) / 2**20:.0f} MB")
        assert Connection(f"http://127.0.0.1:{port}").ask("GET", "/api/backends")[0] == 200


def test_serve_memory_bound_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", "--memory", "lots"]) == 2
    assert capsys.readouterr().err == "pysolve: error: --memory 'lots': give a size such as 512M or 2G (0: no limit)\n"


@pytest.mark.slow
def test_a_full_line_is_503_at_once_and_a_search_whose_client_left_stops() -> None:
    """WORKERS searches and tournaments running and WAITING waiting: the next request is refused at once; once
    their clients leave, they stop (the CPU goes quiet) and the server answers searches again."""
    with serving("python") as url:
        clients = []
        for number in range(WORKERS + WAITING):
            client = Connection(url)
            path, slow = SLOW[number % len(SLOW)]
            client.http.request("POST", path, body=raw(slow), headers=JSON)
            clients.append(client)
        time.sleep(1.5)  # every one accepted: running or waiting
        status, answer, response = Connection(url, timeout=10).ask("POST", "/api/crosscheck", raw(QUICK))
        assert status == 503  # within the connection's 10 s: not queued behind 30 s searches
        assert "the server is busy" in one_line(answer) and response.getheader("retry-after") == "5"
        for client in clients:
            client.close()
        time.sleep(2)  # a move or a budget check away, with four threads sharing the interpreter
        cpu = resource.getrusage(resource.RUSAGE_SELF).ru_utime
        time.sleep(1)
        assert resource.getrusage(resource.RUSAGE_SELF).ru_utime - cpu < 0.3  # no search runs on
        status, report, _ = Connection(url, timeout=10).ask("POST", "/api/crosscheck", raw(QUICK))
        assert status == 200 and report["compared"] and report["agree"]


def test_searches_in_a_worker_are_capped_and_stop_once_abandoned() -> None:
    """What `budget.serving` does to budgets made in its thread, and only there."""
    gone = threading.Event()
    with budget.serving(0.5, gone):
        assert Budget().seconds == 0.5 and Budget(seconds=3600).seconds == 0.5 and Budget(seconds=0.2).seconds == 0.2
        running = Budget(label="a search")
        running.check()
        gone.set()
        assert running.remaining() == 0.0
        with pytest.raises(SearchLimitExceeded, match="a search was stopped: the request that asked for it was "
                                                      "abandoned"):
            running.check()
    assert Budget().seconds == 0 and Budget(seconds=3600).seconds == 3600


# ---------------------------------------------------------------- the fuzz

ROOT = Path(__file__).resolve().parent.parent
READABLE = [data_dir(), ROOT / "pysolve", ROOT / "prolog", Path(sys.prefix), Path(sys.base_prefix),
            Path(tempfile.gettempdir()) / "pysolve-upload-", Path(budget.SCHEDSTAT)]
# what the server may open: shipped instances, uploads, its own code, pages and Prolog files, Python's library,
# and how long its thread waited for a processor (the wall-clock guard's clock)


class Reads:
    """The files the server opens and the folders it lists while `watching`: seen by an audit hook, in every
    thread but the test's own (the server and its workers run in threads of this process)."""

    def __init__(self) -> None:
        self.watching = False
        self.seen: Counter[tuple[str, str]] = Counter()  # (open or list, path)
        self.main = threading.main_thread()
        sys.addaudithook(self.hook)  # for the rest of the process; it costs a test of `watching` per event

    def hook(self, event: str, args: tuple[Any, ...]) -> None:
        if self.watching and event in ("open", "os.listdir", "os.scandir") and args and \
                isinstance(args[0], (str, bytes, os.PathLike)) and threading.current_thread() is not self.main:
            self.seen["open" if event == "open" else "list", os.path.abspath(os.fsdecode(args[0]))] += 1

    def strays(self) -> list[str]:
        """What was opened that is none of READABLE's, or listed that is neither READABLE's nor a folder of
        sys.path (which Python's importer lists when a module loads lazily)."""
        importer = {os.path.abspath(folder or os.curdir) for folder in sys.path}
        return sorted(path for kind, path in self.seen if not any(path.startswith(str(root)) for root in READABLE)
                      and not (kind == "list" and path in importer))


READS = Reads()

FIELDS = ["backend", "instance", "action", "piece", "cell", "definitive", "file", "name", "players", "seats", "seed",
          "variant", "move", "log", "games", "strategies", "board", "rows", "cols", "shape", "holes", "givens",
          "puzzle", "options", "backends", "count", "all", "seconds", "m", "n", "strategy", "text", "grid",
          "validate", "size", "difficulty", "flavour", "index", "traces", "values", "vary"]
WORDS = ["python", "kanren", "prolog", "tangram", "squares", "hidato", "sudoku", "fichas", "azul", "insects",
         "classic.txt", "sample.txt", "sample", "top95", "eternity-3x3", "shapes/ring", "you", "greedy", "random",
         "mcts:5", "minimax:1", "select", "choose", "hint", "undo", "grey", "cross", "green", "dfs", "astar", "hs",
         "hard", "any", SURROGATE, "a\x00b", "1 __\n__ 4\n", "." * 16, "1 2 | . .\n", *PATHS]
NUMBERS = st.integers(-3, 3) | st.sampled_from([2**31, 2**63, 10**30, -10**30]) | st.floats(allow_nan=False,
                                                                                           allow_infinity=False)
# small numbers ask small questions: a valid question must answer quickly (the caps are tested above)
TEXTS = st.sampled_from(WORDS) | st.text() | st.text(alphabet=st.characters(codec=None, categories=["Cs"]), max_size=3)
SCALARS = st.none() | st.booleans() | NUMBERS | TEXTS
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=5), inner, max_size=4),
                      max_leaves=12)
BODIES = st.one_of(
    st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=5).map(raw),  # fields the endpoints read
    VALUES.map(raw),  # any JSON at all
    st.tuples(st.integers(0, 3 * MAX_DEPTH), st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=2))
    .map(lambda pair: raw({"options": json.loads("[" * pair[0] + json.dumps(pair[1]) + "]" * pair[0])})),  # nesting
    st.tuples(st.sampled_from(FIELDS), st.integers(0, MAX_BODY // 2 - 100), st.sampled_from("x. 1\n[")).map(
        lambda item: raw({item[0]: item[2] * item[1], "instance": "squares"})),  # sizes, up to the limit (\n: 2 bytes)
    st.tuples(st.sampled_from(FIELDS), st.integers(0, 100_000)).map(lambda item: raw({item[0]: [1] * item[1]})),
    st.tuples(st.sampled_from(FIELDS), st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1" * 5000,
                                                        "1e-400", "-0.0", "9" * 400 + ".5"]))
    .map(lambda item: f'{{"{item[0]}": {item[1]}, "m": 1, "n": 1}}'.encode()),  # numbers JSON has not, or barely
    st.binary(max_size=40),  # not even JSON
)
TALLY: Counter[str] = Counter()


@pytest.fixture(scope="module")
def fuzzed(base: str, games: dict[str, str]) -> Iterator[dict[str, Any]]:
    """One connection for the whole fuzz (bodies past the limit are the tests' above), the files the server
    opens watched meanwhile; the tally printed."""
    own = {**JSON, "Origin": base}
    senders = {"json": JSON, "json from the page": own, "text/plain": {"Content-Type": "text/plain"},
               "json from elsewhere": {**JSON, "Origin": "http://evil.example"}}
    state = {"connection": Connection(base, timeout=MAX_SECONDS + 10), "games": games, "senders": senders}
    READS.watching = True
    try:
        yield state
    finally:
        READS.watching = False
    print(f"fuzz: {sum(TALLY.values())} requests: " + ", ".join(f"{key} {n}" for key, n in sorted(TALLY.items())))
    print(f"fuzz: the server opened {len(READS.seen)} files and folders")


def answered(connection: Connection, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None) -> None:
    """One fuzzed request: answered 2xx or 4xx (a 4xx with a one-line error), within the serving limits (the
    connection's timeout), on the same connection, and nothing opened but READABLE files."""
    status, answer, _ = connection.ask(method, path, body, headers)
    TALLY[f"{method} {status}"] += 1
    assert 200 <= status < 500, (method, path, (body or b"")[:80], status, answer)
    if status >= 400:
        one_line(answer)
    assert connection.same, (method, path, (body or b"")[:80])
    assert not READS.strays(), (method, path, (body or b"")[:80], READS.strays())


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(POSTS), body=BODIES, sender=st.sampled_from(["json", "json", "json from the page",
                                                                        "text/plain", "json from elsewhere"]))
def fuzz_the_posts(fuzzed: dict[str, Any], path: str, body: bytes, sender: str) -> None:
    """Each POST endpoint with a fuzzed body, from each kind of sender."""
    answered(fuzzed["connection"], "POST", filled(path, fuzzed["games"]), body, fuzzed["senders"][sender])


NAMES = st.sampled_from(WORDS) | st.text(max_size=30) | st.text(alphabet="./%~_-a0", max_size=12) \
    | st.integers(0, 2000).map(lambda size: "a" * size)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(GETS), name=st.none() | NAMES, query=st.dictionaries(st.sampled_from(FIELDS), NAMES,
                                                                                max_size=2))
def fuzz_the_gets(fuzzed: dict[str, Any], path: str, name: str | None, query: dict[str, str]) -> None:
    """Each GET endpoint with its parameter (a game id, a board's name) fuzzed, `..` and paths above all, and
    a query string it does not read."""
    query_text = "&".join(f"{url_text(key)}={url_text(value)}" for key, value in query.items())
    target = filled(path, fuzzed["games"], name) + (f"?{query_text}" if query else "")
    answered(fuzzed["connection"], "GET", target, headers={})


@pytest.mark.parametrize("path", sorted(ENDPOINTS))
def test_every_endpoint_refuses_the_methods_it_does_not_take(base: str, games: dict[str, str], path: str) -> None:
    connection = Connection(base)
    for method in ("GET", "POST", "PUT", "DELETE", "PATCH"):
        if method not in ENDPOINTS[path]:
            status, answer, _ = connection.ask(method, filled(path, games), b"{}")
            assert status == 405 and one_line(answer) == "Method Not Allowed" and connection.same, (method, answer)
    connection.close()


def test_the_watch_sees_a_file_opened_by_another_thread(tmp_path: Path) -> None:
    stray = tmp_path / "not-ours.txt"
    stray.write_text("secret")
    READS.watching = True
    try:
        reader = threading.Thread(target=stray.read_text)
        reader.start()
        reader.join()
        stray.read_text()  # in the test's own thread: not the server's
    finally:
        READS.watching = False
    assert READS.seen["open", str(stray)] == 1 and str(stray) in READS.strays()
    del READS.seen["open", str(stray)]


@pytest.mark.slow
def test_fuzzed_endpoints_answer_2xx_or_4xx_and_open_only_their_own_files(fuzzed: dict[str, Any]) -> None:
    """Every POST endpoint fuzzed, then every GET one, each request answered as `answered` asks; after both,
    the server opened files (the check is not vacuous), every one of them READABLE. One test, so that one
    process runs both fuzzes and reads what they opened (pytest-xdist spreads tests over processes)."""
    fuzz_the_posts(fuzzed)
    fuzz_the_gets(fuzzed)
    assert any(path.startswith(str(data_dir())) for _, path in READS.seen), READS.seen
    assert READS.strays() == []


# ---------------------------------------------------------------- in process: what every refusal says

PYTHON_WORDS = re.compile(r"Traceback|\b[A-Z]\w*(Error|Exception)\b|codec|Out of range float|\(char \d+\)|"
                          r"Exceeds the limit|set_int_max_str_digits")  # Python's words, never pysolve's
OPTIONS = sorted({option.name for name in api.puzzle_names() for option in api.get_puzzle(name).question_options()})
# what a cross-check's or a live trace's `options` hold: every puzzle's question options, as the API lists them
PLANTED = "\0planted\0"  # stands in a body's JSON for a token json.dumps cannot write (NaN, a byte not UTF-8)
LETTERS = string.ascii_letters + string.digits  # a long value of these is quoted as written: its echo is findable


class Asked:
    """The fields each route reads: every name `field_of` is asked for, by the route of the request asking.

    `watch` puts the spy in every pysolve module that took `field_of`; the fuzz below checks after each request
    that its route read no field but the VOCABULARY it draws from, so that a field a page reads later cannot be
    left out of it.
    """

    def __init__(self) -> None:
        self.route = ""
        self.seen: dict[str, set[str]] = {}

    def watch(self, patch: pytest.MonkeyPatch) -> None:
        original = guard.field_of

        def spy(data: dict[str, Any], name: str, *args: Any, **kwargs: Any) -> Any:
            self.seen.setdefault(self.route, set()).add(name)
            return original(data, name, *args, **kwargs)

        for module in list(sys.modules.values()):
            if module is not None and module.__name__.startswith("pysolve") and \
                    getattr(module, "field_of", None) is original:
                patch.setattr(module, "field_of", spy)

    def unknown(self, route: str) -> set[str]:
        """The fields `route` read that the fuzz does not draw (add them to FIELDS)."""
        return self.seen.get(route, set()) - set(VOCABULARY)


ASKED = Asked()
VOCABULARY = sorted({*FIELDS, *OPTIONS})  # the field names the fuzz draws


@pytest.fixture(scope="module")
def inprocess() -> Iterator[dict[str, Any]]:
    """The application in this process (no sockets), its searches capped at a second, `field_of` watched;
    a game of each kind to aim at, and each POST route asked once with an empty body (its first fields seen)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(core, "MAX_SECONDS", 1.0)
        ASKED.watch(patch)
        app = create_app("python")
        client = TestClient(app, raise_server_exceptions=False, headers=JSON)
        ids = {"tangram": client.post("/api/tangram/games", content=b"{}").json()["id"],
               "azul": client.post("/api/azul/games", json={"seats": ["you", "random"]}).json()["id"]}
        for path in POSTS:
            sent(client, filled(path, ids), content=b"{}")
        yield {"app": app, "client": client, "games": ids}


def sent(client: TestClient, path: str, **request: Any) -> Any:
    """The answer to a POST of `request` to `path`; the fields it read checked to be in the VOCABULARY."""
    ASKED.route = path
    response = client.post(path, **request)
    assert not ASKED.unknown(path), f"{path} reads fields the fuzz never sends: {ASKED.unknown(path)}"
    return response


def refusal_words(response: Any) -> str:
    """The error of a 4xx answer, checked: one line of MAX_MESSAGE characters at most, in pysolve's words."""
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:300])
    message = response.json()["error"]
    assert message and "\n" not in message and len(message) <= MAX_MESSAGE, message
    assert not PYTHON_WORDS.search(message), message
    return message


def planted(field: list[str | int], token: bytes) -> bytes:
    """A JSON object holding `token` (bytes as they go on the wire) at the place `field` names."""
    value: Any = PLANTED
    for key in reversed(field):
        value = [value] if isinstance(key, int) else {key: value}
    return json.dumps(value).replace(json.dumps(PLANTED), "\0").encode().replace(b"\0", token)


def dotted(field: list[str | int]) -> str:
    """`field` as a message names it: options.seconds, seats[0]."""
    return "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in field).lstrip(".")


# (token as sent, what the message says of it)
UNREADABLE = [(b"NaN", "holds NaN, which is not a JSON number"), (b"Infinity", "holds Infinity"),
              (b"-Infinity", "holds -Infinity"), (b"1e999", "holds '1e999', a number too large"),
              (b"-1e999", "a number too large"), (b"9" * 400 + b".5", "a number too large"),
              (b"1" * 5000, "holds an integer of 5,000 digits"), (b"-" + b"7" * (MAX_DIGITS + 1), "digits"),
              (b'"a\xff"', "is not UTF-8 text (it holds the byte 0xff)"),
              (b'"\xe2\x82"', "is not UTF-8 text (it holds the byte 0xe2)"),
              (b'"\\ud800"', "is not Unicode text (it holds a lone surrogate)"),
              (b"[" * (MAX_DEPTH + 2) + b"]" * (MAX_DEPTH + 2), f"deeper than {MAX_DEPTH}")]
PLACES = st.lists(st.integers(0, 0) | st.sampled_from(["options", "seats", "file"]), max_size=3)


@pytest.mark.parametrize("path", POSTS)
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), token=st.sampled_from(UNREADABLE), inner=PLACES)
def test_every_post_names_the_field_of_a_value_json_cannot_carry(inprocess: dict[str, Any], path: str,
                                                                 data: st.DataObject, token: tuple[bytes, str],
                                                                 inner: list[str | int]) -> None:
    """NaN, 1e999, 5,000 digits, a byte that is no UTF-8, a lone surrogate, nesting past MAX_DEPTH: wherever
    it stands in the body of whichever POST, a 400 naming the field it stands in, in pysolve's words."""
    field = [data.draw(st.sampled_from(VOCABULARY)), *inner]
    response = sent(inprocess["client"], filled(path, inprocess["games"]), content=planted(field, token[0]))
    message = refusal_words(response)
    place = f"the field {dotted(field)!r}"[:-1]  # too deep: the field inside it named, up to its first 60 characters
    assert response.status_code == 400 and message.startswith(place) and token[1] in message, (field, message)


BROKEN = st.one_of(
    st.tuples(st.just(b""), st.sampled_from([b"{", b'{"m"', b'{"m":', b'{"m": 1,', b'{"m": 1}}', b'{"m" 1}',
                                             b"{'m': 1}", b'{"m": [1,]}', b'{"m": "a\nb"}', b'{"m": "\\x"}',
                                             b'{"m": tru}', b"nope", b"{} {}"])),
    st.tuples(st.binary(max_size=4).filter(lambda start: not start.strip()), st.binary(min_size=1, max_size=30)),
)


@pytest.mark.parametrize("path", POSTS)
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(broken=BROKEN)
def test_every_post_says_where_a_body_that_is_no_json_goes_wrong(inprocess: dict[str, Any], path: str,
                                                                 broken: tuple[bytes, bytes]) -> None:
    """A body that is not JSON (or not UTF-8 text): 400, saying where, never json's or the codec's own words."""
    body = b"".join(broken)
    assume(body.strip() and not is_json(body))  # an empty body is {}; random bytes may happen to be JSON
    response = sent(inprocess["client"], filled(path, inprocess["games"]), content=body)
    message = refusal_words(response)
    assert response.status_code == 400, message
    assert re.fullmatch(r"the request body (is not JSON: .+ at line \d+, column \d+|must be a JSON object|"
                        r"is not UTF-8 text \(byte 0x[0-9a-f]{2} at offset \d+\))", message), message


def is_json(body: bytes) -> bool:
    try:
        json.loads(body)
    except ValueError:
        return False
    return True


LONG = st.text(alphabet=LETTERS, min_size=200, max_size=3000)
LONG_VALUES = LONG | st.lists(LONG, min_size=1, max_size=3) | st.dictionaries(LONG, LONG, min_size=1, max_size=2)


@pytest.mark.slow
@pytest.mark.parametrize("path", POSTS)
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), value=LONG_VALUES)
def test_every_post_quotes_a_long_value_cut_short(inprocess: dict[str, Any], path: str, data: st.DataObject,
                                                  value: Any) -> None:
    """Each route, any field given a long value: answered below 500, and a refusal quotes the value cut short.

    Slow: a field the route does not read leaves a valid question, answered (within a second: `inprocess`).
    """
    field = data.draw(st.sampled_from(VOCABULARY))
    body = {field: value} if data.draw(st.booleans()) else {"puzzle": "fichas", "options": {field: value}}
    response = sent(inprocess["client"], filled(path, inprocess["games"]), json=body)
    assert response.status_code < 500, (path, field, response.text[:300])
    if response.status_code >= 400:
        message = refusal_words(response)
        longest = max(re.findall(f"[{LETTERS}]+", json.dumps(value)), key=len)
        assert longest[:100] not in message, (path, field, message)


@pytest.mark.parametrize("path", [path for path in GETS if PARAMETER.search(path)])
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(name=LONG | st.text(max_size=30))
def test_every_get_quotes_a_long_name_cut_short(inprocess: dict[str, Any], path: str, name: str) -> None:
    """A route's parameter (a game id, a board's name) of any length: a refusal quotes it cut short."""
    response = inprocess["client"].get(filled(path, inprocess["games"], name))
    if response.status_code >= 400:
        message = refusal_words(response)
        assert len(name) < 100 or name[:100] not in message, message


def test_the_spy_sees_the_fields_a_route_reads(inprocess: dict[str, Any]) -> None:
    """What the fuzz checks after each request: fichas' solve asks for its order first; a field no route
    is fuzzed with would be seen."""
    assert "m" in ASKED.seen["/api/fichas/solve"] and not ASKED.unknown("/api/fichas/solve")
    ASKED.route = "/api/nowhere"
    assert not ASKED.unknown("/api/nowhere")
    sys.modules["pysolve.web.fichas"].field_of({}, "a field of no page", str)
    assert ASKED.unknown("/api/nowhere") == {"a field of no page"}
    del ASKED.seen["/api/nowhere"]


async def left_mid_body(app: Any, path: str) -> list[dict[str, Any]]:
    """POST half a body to `path` (the ASGI app driven directly), then the client goes; what the app sent."""
    arriving = [{"type": "http.request", "body": b'{"m": 1, "n"', "more_body": True}, {"type": "http.disconnect"}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return arriving.pop(0) if arriving else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", b"testserver"), (b"content-type", b"application/json")],
             "client": ("127.0.0.1", 50000), "server": ("testserver", 80)}
    await app(scope, receive, send)
    return sent


@pytest.mark.parametrize("path", POSTS)
def test_a_client_that_leaves_mid_body_is_dropped_quietly(inprocess: dict[str, Any], path: str,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    """Starlette's ClientDisconnect, which uvicorn logged as "Exception in ASGI application" with a 500: now a
    refusal nobody reads, and nothing logged as an error."""
    with caplog.at_level(logging.INFO):
        sent = asyncio.run(left_mid_body(inprocess["app"], filled(path, inprocess["games"])))
    statuses = [message["status"] for message in sent if message["type"] == "http.response.start"]
    assert statuses == [400], statuses
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


@pytest.mark.parametrize("answer", [lambda: {"seconds": float("inf")}, lambda: "\ud800".encode(),
                                    lambda: int("9" * 5000), lambda: json.loads("[" * 100_000)])
def test_python_s_own_words_are_logged_never_sent(answer: Any, caplog: pytest.LogCaptureFixture) -> None:
    """A route that trips on a value (an infinity in its answer, a lone surrogate, 5,000 digits, deep nesting):
    400 in the server's words; Python's ("Out of range float values", the codec's) go to the log."""
    app = create_app("python")

    async def tripping(request: Any) -> Any:
        return JSONResponse(answer())

    app.router.routes.append(Route("/api/trips", tripping, methods=["GET"]))
    with caplog.at_level(logging.WARNING):
        response = TestClient(app, raise_server_exceptions=False).get("/api/trips")
    assert (response.status_code, refusal_words(response)) == (400, UNUSABLE)
    assert [record.levelno for record in caplog.records] == [logging.WARNING] and "/api/trips" in caplog.text
