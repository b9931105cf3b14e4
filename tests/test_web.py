"""`pysolve serve`: every JSON endpoint on a real server (uvicorn on a free port), bad input, budgets, Ctrl-C."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from pysolve import bridge, cli
from pysolve.errors import InputError
from pysolve.hidato import model as hidato_model
from pysolve.web import azul, clients
from pysolve.web.app import create_app
from pysolve.web.core import WORKERS, Store, Workers
from pysolve.web.serve import LOCAL, allowed_hosts

ROOT = Path(__file__).resolve().parent.parent
FIRST_TILING = [("green", 0, 0), ("blue", 0, 2), ("red", 7, 0), ("orange", 0, 7), ("pink", 4, 0), ("yellow", 7, 8)]


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def serving(backend: str) -> Iterator[str]:
    """The application served by uvicorn in a thread on a free port; yields its base URL."""
    port = free_port()
    app = create_app(backend, hosts=list(LOCAL))
    config = clients.config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:  # pytest-timeout's guard ends a server that never starts
        assert thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        app.state.workers.close(bridge.release_thread, 10)  # as `pysolve serve` does: no thread outlives its server


@pytest.fixture(scope="module")
def base(pysolve_backends: list[str]) -> Iterator[str]:
    """One server for this module, its pages' default back end the session's first."""
    with serving(pysolve_backends[0]) as url:
        yield url


@pytest.fixture
def web(base: str) -> Iterator[httpx.Client]:
    """A client of the module's server that sends what the pages send: every POST as JSON ({} for none)."""
    with httpx.Client(base_url=base, timeout=60, headers={"Content-Type": "application/json"}) as client:
        yield client


def error_of(response: httpx.Response, status: int) -> str:
    """The one-line error of a refused request, after checking its status."""
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert message and "\n" not in message and "Traceback" not in message
    return message


# ---------------------------------------------------------------- pages and the common ground

def test_every_page_is_served(web: httpx.Client) -> None:
    for path, title in [("/", "pysolve"), ("/tangram", "Tangram"), ("/squares", "Squares replay"),
                        ("/azul", "Azul"), ("/hidato", "Hidato"), ("/crosscheck", "Cross-check")]:
        page = web.get(path)
        assert page.status_code == 200 and f"<h1>{title}</h1>" in page.text
    assert "svgElement" in web.get("/static/common.js").text


def test_backends_endpoint_names_the_default(web: httpx.Client, pysolve_backends: list[str]) -> None:
    data = web.get("/api/backends").json()
    assert data["default"] == pysolve_backends[0]
    assert set(pysolve_backends) <= set(data["available"])


def test_bad_requests_get_a_clear_4xx(web: httpx.Client) -> None:
    assert "not JSON" in error_of(web.post("/api/tangram/games", content=b"{oops"), 400)
    assert "JSON object" in error_of(web.post("/api/tangram/games", json=[1, 2]), 400)
    assert "unknown back end" in error_of(web.post("/api/tangram/games", json={"backend": "cobol"}), 400).lower()
    assert "'backend' must be str" in error_of(web.post("/api/hidato/solve", json={"backend": 3, "board": "1 2"}), 400)
    assert "limit" in error_of(web.post("/api/hidato/solve", content=b" " * 1_000_001), 413)
    assert error_of(web.get("/api/nothing-here"), 404)
    assert error_of(web.get("/api/tangram/games"), 405)


def test_requests_to_another_host_are_refused(base: str) -> None:
    port = base.rsplit(":", 1)[1]
    refused = httpx.get(f"http://127.0.0.1:{port}/api/backends", headers={"Host": f"evil.example:{port}"})
    assert refused.status_code == 400


# ---------------------------------------------------------------- tangram

def test_tangram_game_won_through_the_api(web: httpx.Client) -> None:
    game = web.post("/api/tangram/games", json={})
    assert game.status_code == 201
    key = game.json()["id"]
    for piece, x, y in FIRST_TILING:
        selected = web.post(f"/api/tangram/games/{key}/moves", json={"action": "select", "piece": piece}).json()
        assert selected["selected"] == piece and [x, y] in selected["option_cells"]
        previewed = web.post(f"/api/tangram/games/{key}/moves", json={"action": "choose", "cell": [x, y]}).json()
        assert previewed["preview"]["x"] == x and previewed["preview"]["y"] == y
        state = web.post(f"/api/tangram/games/{key}/moves", json={"action": "place", "definitive": True}).json()
        assert {"piece": piece, "x": x, "y": y, "fixed": True}.items() <= next(
            p for p in state["board"] if p["piece"] == piece).items()
    assert state["won"] and state["message"].startswith("Solved!")
    after = web.post(f"/api/tangram/games/{key}/moves", json={"action": "select", "piece": "green"}).json()
    assert after == state  # once won, input changes nothing
    assert web.get(f"/api/tangram/games/{key}").json() == state


def test_tangram_temporary_placement_undo_escape_and_hint(web: httpx.Client) -> None:
    key = web.post("/api/tangram/games", json={}).json()["id"]

    def move(**data: object) -> dict:
        return web.post(f"/api/tangram/games/{key}/moves", json=data).json()

    assert move(action="place", definitive=True)["message"] == "select a piece first: press its key"
    move(action="select", piece="green")
    nothing = move(action="place", definitive=True)
    assert nothing["board"] == [] and nothing["message"].startswith("nothing previewed")
    move(action="choose", cell=[0, 0])
    placed = move(action="place", definitive=False)
    assert placed["board"] == [{"piece": "green", "x": 0, "y": 0, "width": 4, "height": 2, "fixed": False}]
    assert placed["can_undo"] and "green" not in placed["waiting"]
    assert move(action="undo")["board"] == []
    move(action="select", piece="blue")
    move(action="place_at", cell=[0, 2])  # Ctrl+click: preview there and place for now
    hinted = move(action="hint")
    assert {p["piece"] for p in hinted["hint"]} == {"green", "red", "orange", "pink", "yellow"}
    move(action="select", piece="red")
    back = move(action="escape")
    assert back["selected"] is None and "red" in back["waiting"]


def test_tangram_gallery_of_every_tiling(web: httpx.Client) -> None:
    key = web.post("/api/tangram/games", json={}).json()["id"]
    gallery = web.get(f"/api/tangram/games/{key}/tilings").json()
    assert gallery["count"] == 36
    assert gallery["svg"].startswith("<svg") and gallery["svg"].count("<g transform") == 36


def test_tangram_bad_input(web: httpx.Client) -> None:
    key = web.post("/api/tangram/games", json={}).json()["id"]
    moves = f"/api/tangram/games/{key}/moves"
    assert "unknown action 'jump'" in error_of(web.post(moves, json={"action": "jump"}), 400)
    assert "unknown piece 'purple'" in error_of(web.post(moves, json={"action": "select", "piece": "purple"}), 400)
    assert "off the 10x10 board" in error_of(web.post(moves, json={"action": "choose", "cell": [10, 0]}), 400)
    assert "two integers" in error_of(web.post(moves, json={"action": "choose", "cell": [1]}), 400)
    assert "'definitive' is required" in error_of(web.post(moves, json={"action": "place"}), 400)
    assert "no tangram game" in error_of(web.post("/api/tangram/games/abc/moves", json={"action": "undo"}), 404)
    assert "no tangram game" in error_of(web.get("/api/tangram/games/abc/tilings"), 404)
    bad_file = error_of(web.post("/api/tangram/games", json={"instance": "board 3 3\npiece 1 a #ff0000 9 9\n"}), 400)
    assert bad_file.startswith("the uploaded instance")


def test_tangram_uploaded_instance_with_turns(web: httpx.Client) -> None:
    """A second click on the same cell turns the previewed piece, when the instance allows turns."""
    text = "board 2 2\nrotations yes\npiece 1 long #ff0000 2 1\npiece 2 other #00ff00 2 1\n"
    game = web.post("/api/tangram/games", json={"instance": text}).json()
    assert game["instance"]["rotations"] and [p["name"] for p in game["instance"]["pieces"]] == ["long", "other"]
    moves = f"/api/tangram/games/{game['id']}/moves"
    web.post(moves, json={"action": "select", "piece": "long"})
    first = web.post(moves, json={"action": "choose", "cell": [0, 0]}).json()["preview"]
    turned = web.post(moves, json={"action": "choose", "cell": [0, 0]}).json()["preview"]
    assert (first["width"], first["height"]) == (2, 1) and (turned["width"], turned["height"]) == (1, 2)


# ---------------------------------------------------------------- hidato

def test_hidato_shipped_board_solved_and_unique(web: httpx.Client) -> None:
    assert "sample" in web.get("/api/hidato/boards").json()["boards"]
    board = web.get("/api/hidato/boards/sample").json()
    assert board["text"].startswith("# The well-known")
    answer = web.post("/api/hidato/solve", json={"board": board["text"]}).json()
    assert answer["status"] == "solved" and answer["unique"] is True and answer["count"] == 1
    assert hidato_model.solves(hidato_model.parse(board["text"]), answer["solution"])
    assert "<polyline" in answer["svg"]  # the path from 1 to N


def test_hidato_generated_board_solved(web: httpx.Client) -> None:
    made = web.post("/api/hidato/generate", json={"rows": 5, "cols": 5, "seed": 3}).json()
    assert made["data"]["unique"] and made["text"].startswith("# hidato generated by pysolve: seed 3")
    answer = web.post("/api/hidato/solve", json={"board": made["text"], "backend": "python"}).json()
    assert answer["backend"] == "python" and answer["unique"] is True and answer["solution"] == made["data"]["solution"]


def test_hidato_generated_in_a_shipped_shape(web: httpx.Client) -> None:
    assert web.get("/api/hidato/boards").json()["shapes"] == ["shapes/cross", "shapes/diamond", "shapes/ring"]
    made = web.post("/api/hidato/generate", json={"shape": "shapes/diamond", "seed": 2}).json()
    shape = hidato_model.load_shape(ROOT / "data/hidato/shapes/diamond.txt")
    assert made["data"]["cells"] == shape.size and made["data"]["unique"]
    assert error_of(web.post("/api/hidato/generate", json={"shape": "/etc/hosts"}), 400).startswith(
        "the shape: no shipped instance '/etc/hosts' (this server reads only shipped instances and uploaded text)")


def test_hidato_two_solutions_are_not_unique(web: httpx.Client) -> None:
    answer = web.post("/api/hidato/solve", json={"board": "1 __\n__ 4\n"}).json()
    assert answer["count"] == 2 and answer["unique"] is False
    assert answer["verdict"] == "2 solutions (stopped at the limit)"


def test_hidato_bad_input(web: httpx.Client) -> None:
    assert "line 1, cell 2" in error_of(web.post("/api/hidato/solve", json={"board": "1 ?? 3\n"}), 400)
    assert "'board' is required" in error_of(web.post("/api/hidato/solve", json={}), 400)
    assert "the board: no shipped instance 'nope'" in error_of(web.get("/api/hidato/boards/nope"), 400)
    assert "leave out --rows and --cols" in error_of(web.post("/api/hidato/generate",
                                                              json={"rows": 4, "shape": "shapes/ring"}), 400)
    assert "'rows' must be int" in error_of(web.post("/api/hidato/generate", json={"rows": "5", "cols": 5}), 400)


# ---------------------------------------------------------------- squares

def test_squares_trace_ends_on_every_solution(web: httpx.Client) -> None:
    assert web.get("/api/squares/instances").json()["instances"] == [
        "eternity-3x3", "eternity-4x4", "eternity-5x5", "eternity-6x6", "insects"]  # as `pysolve list squares`
    trace = web.post("/api/squares/trace", json={"instance": "insects"}).json()
    events = trace["events"]
    assert trace["solutions"] == 4 and not trace["truncated"]
    assert {event["e"] for event in events} == {"enter", "backtrack", "solution"}
    on_board: dict[int, tuple[int, int]] = {}
    for event in events:  # replayed as the page does: the board is full at each solution
        if event["e"] == "enter":
            on_board[event["id"]] = (event["move"]["row"], event["move"]["col"])
        elif event["e"] == "backtrack":
            del on_board[event["id"]]
        else:
            assert len(set(on_board.values())) == len(on_board) == 9
    assert 'id="p1"' in trace["defs"]


def test_squares_uploaded_file_and_bad_input(web: httpx.Client) -> None:
    text = (ROOT / "data/squares/eternity/pieces_03x03.txt").read_text()
    trace = web.post("/api/squares/trace", json={"file": text, "name": "mine.txt"}).json()
    assert trace["name"] == "mine.txt" and trace["rows"] == 3 and trace["solutions"] == 16
    passwd = web.post("/api/squares/trace", json={"instance": "/etc/passwd"})
    assert "the instance: no shipped instance '/etc/passwd'" in error_of(passwd, 400)
    assert error_of(web.post("/api/squares/trace", json={"file": "grid 2\n"}), 400).startswith("the uploaded file")


# ---------------------------------------------------------------- azul

@pytest.mark.slow
def test_azul_person_plays_a_whole_game_against_strategies(web: httpx.Client) -> None:
    table = web.post("/api/azul/games", json={"players": 3, "seats": ["random", "you", "greedy"], "seed": 4})
    assert table.status_code == 201
    state = table.json()
    key = state["id"]
    assert state["seats"] == ["random", "you", "greedy"] and state["seat"] == 1
    while not state["over"]:
        assert state["person_to_move"] and state["turn"] == 1 and state["moves"] and not state["pending"]
        state = web.post(f"/api/azul/games/{key}/moves", json={"move": state["moves"][0]}).json()
        if not state["over"]:  # the move is on the table until the others are let play
            assert state["pending"] and state["moves"] == [] and not state["person_to_move"]
            state = web.post(f"/api/azul/games/{key}/continue").json()
    assert state["winners"] and state["rounds"][-1]["final"]
    told = [step["kind"] for step in state["steps"]]
    assert told.count("move") == state["state"]["moves"] and told.count("tiling") == state["state"]["round"]
    assert told.count("bonus") == 3 and "tile" in told
    moves = [step["text"] for step in state["steps"] if step["kind"] == "move"]
    assert all(re.match(rf"move {number}, seat [012] \((random|you|greedy)\): ", text)
               for number, text in enumerate(moves, 1))
    assert [r["round"] for r in state["rounds"]] == list(range(1, state["state"]["round"] + 1))
    assert state["rounds"][-1]["after"] == [board["score"] for board in state["state"]["boards"]]
    assert "not your turn" in error_of(web.post(f"/api/azul/games/{key}/moves", json={"move": [0, 0, 0]}), 400)
    log = web.get(f"/api/azul/games/{key}/log")
    assert log.headers["content-disposition"] == f'attachment; filename="azul-{key}.jsonl"'
    replayed = web.post("/api/azul/replay", json={"log": log.text}).json()["steps"]
    assert replayed[-1]["kind"] == "end" and replayed[-1]["state"]["boards"] == state["state"]["boards"]


def test_azul_move_taken_back_before_the_others_play(web: httpx.Client) -> None:
    state = web.post("/api/azul/games", json={"seats": ["you", "greedy"], "seed": 3}).json()
    key, before = state["id"], state
    assert "nothing to take back" in error_of(web.post(f"/api/azul/games/{key}/undo"), 400)
    moved = web.post(f"/api/azul/games/{key}/moves", json={"move": state["moves"][-1]}).json()
    assert moved["pending"] and moved["state"] != before["state"]
    back = web.post(f"/api/azul/games/{key}/undo").json()
    assert back["state"] == before["state"] and back["moves"] == before["moves"] and back["person_to_move"]


def test_games_past_the_kept_number_are_closed_and_forgotten() -> None:
    """The least recently used game goes, its back end's copy freed (Prolog keeps an Azul game as facts)."""
    closed: list[object] = []
    tables = Store("azul", size=2, close=closed.append)
    first, second = object(), object()
    first_key, second_key = tables.add(first), tables.add(second)
    assert tables.get(first_key).game is first and closed == []  # first is now the more recently used
    tables.add(object())
    assert closed == [second] and tables.get(first_key).game is first
    with pytest.raises(HTTPException) as missing:
        tables.get(second_key)
    assert missing.value.status_code == 404 and "no azul game" in missing.value.detail


def test_azul_strategies_offered(web: httpx.Client) -> None:
    offered = web.get("/api/azul/strategies").json()
    assert offered["person"] == "you" and offered["strategies"][:3] == ["random", "greedy", "lookahead"]
    for name in offered["strategies"]:  # each one a strategy a table accepts
        assert web.post("/api/azul/games", json={"seats": ["you", name]}).status_code == 201


@pytest.mark.slow
def test_azul_grey_wall_variant(web: httpx.Client) -> None:
    state = web.post("/api/azul/games", json={"seats": ["you", "greedy"], "variant": "grey", "seed": 2}).json()
    assert state["state"]["variant"] == "grey"
    columns = 0
    while not state["over"]:
        if state["moves"][-1][0] == -2:  # your tiling: the cells your top full line may take
            assert state["state"]["phase"] == "tiling" and all(move[0] == -2 for move in state["moves"])
            wrong = next([-2, row, 0] for row in range(5) if [-2, row, 0] not in state["moves"])
            assert "illegal move" in error_of(web.post(f"/api/azul/games/{state['id']}/moves", json={"move": wrong}),
                                              400)
            columns += 1
        state = web.post(f"/api/azul/games/{state['id']}/moves", json={"move": state["moves"][-1]}).json()
        if state["pending"]:
            state = web.post(f"/api/azul/games/{state['id']}/continue").json()
    assert state["rounds"][-1]["final"] and columns >= 3
    assert re.fullmatch(r"game seed 2: 2 players \(grey wall variant\) on \w+ \(you, greedy\)",
                        state["steps"][0]["text"])
    assert tournament_lines(web, games=2, variant="grey")[-1]["summary"]["games"] == 2
    assert "unknown Azul variant 'pink'" in error_of(web.post("/api/azul/games", json={"variant": "pink"}), 400)


def test_azul_bad_input(web: httpx.Client) -> None:
    assert "2 to 4 players" in error_of(web.post("/api/azul/games", json={"players": 5}), 400)
    assert "unknown strategy 'clever'" in error_of(web.post("/api/azul/games", json={"seats": ["you", "clever"]}), 400)
    assert "must name 2 seats" in error_of(web.post("/api/azul/games", json={"seats": ["you"]}), 400)
    assert "'you' once" in error_of(web.post("/api/azul/games", json={"seats": ["you", "you"]}), 400)
    assert "'you' once" in error_of(web.post("/api/azul/games", json={"seats": ["greedy", "random"]}), 400)
    state = web.post("/api/azul/games", json={"seats": ["you", "random"]}).json()
    moves = f"/api/azul/games/{state['id']}/moves"
    assert "illegal move" in error_of(web.post(moves, json={"move": [0, 0, 9]}), 400)
    assert "a move is (source, colour, destination)" in error_of(web.post(moves, json={"move": [1, 2]}), 400)
    assert "no azul game" in error_of(web.get("/api/azul/games/nope"), 404)
    assert web.get(f"/api/azul/games/{state['id']}").json() == state  # a kept game reads back, unchanged


def test_azul_replay_of_a_logged_game(web: httpx.Client, tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    assert cli.main(["azul", "simulate", "--games", "1", "--seed", "2", "--log", str(log)]) == 0
    steps = web.post("/api/azul/replay", json={"log": log.read_text()}).json()["steps"]
    assert steps[0]["kind"] == "start" and steps[-1]["kind"] == "end"
    assert steps[-1]["text"].startswith("final scores ") and steps[-1]["state"]["over"]
    assert {"move", "tiling", "tile", "floor", "bonus", "deal"} <= {step["kind"] for step in steps}
    assert "not JSON" in error_of(web.post("/api/azul/replay", json={"log": "{\n"}), 400)


def tournament_lines(web: httpx.Client, **data: Any) -> list[dict[str, Any]]:
    """The JSON lines a tournament is answered in: `{"played": n}` as each game ends, then its result."""
    response = web.post("/api/azul/tournament", json=data)
    assert response.status_code == 200 and response.headers["content-type"] == "application/x-ndjson", response.text
    return [json.loads(line) for line in response.text.splitlines()]


def test_azul_tournament_summary(web: httpx.Client) -> None:
    *progress, result = tournament_lines(web, games=4, strategies=["random", "greedy"])
    assert progress == [{"played": played} for played in range(1, 5)]  # a line as each game ends
    assert result["summary"]["games"] == result["played"] == result["games"] == 4 and result["stopped"] is None
    assert [s["strategy"] for s in result["summary"]["strategies"]] == ["random", "greedy"]
    assert result["chart"].startswith("<svg") and "greedy" in result["chart"]
    assert "1 to 200" in error_of(web.post("/api/azul/tournament", json={"games": 0}), 400)
    assert "unknown strategy" in error_of(web.post("/api/azul/tournament", json={"strategies": ["x"]}), 400)


def test_azul_tournament_at_its_limit_keeps_the_games_played(web: httpx.Client,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped by its CPU limit (cut here to 0.01 s), a tournament answers the games it played, saying so."""
    monkeypatch.setattr(azul, "TOURNAMENT_SECONDS", 0.01)
    *progress, result = tournament_lines(web, games=200, strategies=["random", "greedy"])
    played = result["played"]
    assert 1 <= played < 200 and progress == [{"played": n} for n in range(1, played + 1)]  # the clock: between games
    assert result["games"] == 200 and result["summary"]["games"] == played and "greedy" in result["chart"]
    assert result["stopped"] == "the tournament of 200 games passed its time limit of 0.01 s"
    *progress, result = tournament_lines(web, games=3, strategies=["mcts:300", "greedy"])  # the clock: every move
    assert progress == [] and result["played"] == 0 and "time limit" in result["stopped"]
    assert result["summary"] is None and result["chart"] == ""


def test_azul_tournament_maximum_is_the_servers(web: httpx.Client) -> None:
    """The page's form is told the server's maximum of games and time limit, the figures it refuses by."""
    offered = web.get("/api/azul/strategies").json()
    assert offered["max_games"] == azul.MAX_GAMES and offered["tournament_seconds"] == azul.TOURNAMENT_SECONDS
    too_many = {"games": azul.MAX_GAMES + 1}
    assert f"'games' must be 1 to {azul.MAX_GAMES}, not" in error_of(web.post("/api/azul/tournament", json=too_many),
                                                                     400)


def reporting(fail: bool, report: Any) -> dict[str, Any]:
    """Work that reports two steps, then ends with a result, or with a refusal when `fail`."""
    report(1)
    report(2)
    if fail:
        raise InputError("the field 'x' broke on the way")
    return {"done": True}


def test_reported_work_answers_its_steps_then_its_result_or_its_refusal() -> None:
    """`reported`: a line a step, then the result; a refusal raised once the answer has begun is its last line; a
    full line of workers is still a 503, before the answer begins."""
    def served(workers: Workers) -> TestClient:
        async def endpoint(request: Request) -> StreamingResponse:
            return await azul.reported(request, workers, reporting, "fail" in request.query_params)
        return TestClient(Starlette(routes=[Route("/", endpoint)]), raise_server_exceptions=False)

    workers = Workers(size=1, waiting=0)
    try:
        client = served(workers)
        assert [json.loads(line) for line in client.get("/").text.splitlines()] == [
            {"played": 1}, {"played": 2}, {"done": True}]
        failed = client.get("/?fail")
        assert failed.status_code == 200 and [json.loads(line) for line in failed.text.splitlines()] == [
            {"played": 1}, {"played": 2}, {"error": "the field 'x' broke on the way"}]
    finally:
        workers.close(lambda: None, 10)
    assert served(Workers(size=0, waiting=0)).get("/").status_code == 503  # refused before its first line


@pytest.mark.parametrize("path", ["/api/azul/games", "/api/azul/tournament"])
def test_azul_seed_negative_or_empty_refused(web: httpx.Client, path: str) -> None:
    assert error_of(web.post(path, json={"seed": -5}), 400) == "the field 'seed' must be 0 or more, not -5"
    empty = error_of(web.post(path, json={"seed": ""}), 400)
    assert empty == "the field 'seed' is empty: give a whole number, 0 or more"
    assert "the field 'seed' must be int" in error_of(web.post(path, json={"seed": "5"}), 400)
    assert web.post(path, json={"seed": 0, "games": 1}).status_code in (200, 201)


# ---------------------------------------------------------------- cross-check

def test_crosscheck_puzzles_come_from_the_registry(web: httpx.Client) -> None:
    puzzles = {p["name"]: p for p in web.get("/api/crosscheck/puzzles").json()["puzzles"]}
    assert set(puzzles) >= {"azul", "fichas", "hidato", "squares", "sudoku", "tangram"}
    assert [o["name"] for o in puzzles["fichas"]["options"]] == ["m", "n", "strategy", "flavour", "seconds"]
    assert "svg" not in [o["name"] for o in puzzles["tangram"]["options"]]  # files to write are no question


def test_crosscheck_every_back_end_agrees(web: httpx.Client, pysolve_backends: list[str]) -> None:
    report = web.post("/api/crosscheck", json={"puzzle": "tangram", "options": {"count": True}}).json()
    assert report["agree"] and report["difference"] is None
    assert {row["backend"] for row in report["results"]} == set(pysolve_backends)
    assert all(row["summary"] == "36 tilings" for row in report["results"])
    assert "36 tilings" in report["drawing"] and "\x1b" not in report["drawing"]


@pytest.mark.slow
def test_a_crosscheck_where_no_back_end_answered_compared_nothing(web: httpx.Client) -> None:
    asked = {"puzzle": "sudoku", "options": {"file": {"text": "." * 81, "name": "empty.txt"}, "count": 10**9,
                                             "seconds": 0.3}, "backends": ["python"]}
    report = web.post("/api/crosscheck", json=asked).json()
    assert (report["compared"], report["agree"], report["results"]) == (False, False, [])
    assert "time limit" in report["skipped"]["python"]


def test_crosscheck_bad_input(web: httpx.Client) -> None:
    assert "unknown puzzle 'chess'" in error_of(web.post("/api/crosscheck", json={"puzzle": "chess"}), 400)
    assert "m is required" in error_of(web.post("/api/crosscheck", json={"puzzle": "fichas"}), 400)
    assert "has no option 'svg'" in error_of(
        web.post("/api/crosscheck", json={"puzzle": "tangram", "options": {"svg": "x.svg"}}), 400)
    assert "'x' is not an integer" in error_of(
        web.post("/api/crosscheck", json={"puzzle": "fichas", "options": {"m": "x", "n": 2}}), 400)
    assert "unknown back end" in error_of(
        web.post("/api/crosscheck", json={"puzzle": "fichas", "options": {"m": 1, "n": 1}, "backends": ["cobol"]}),
        400).lower()
    assert "list of back-end names" in error_of(
        web.post("/api/crosscheck", json={"puzzle": "fichas", "options": {"m": 1, "n": 1}, "backends": [1]}), 400)


# ---------------------------------------------------------------- a search never blocks the server

@pytest.mark.slow
def test_other_requests_are_answered_while_a_search_runs(base: str, pysolve_backends: list[str]) -> None:
    """A 2-second search (its budget) on the session's first back end (Prolog, holding the Prolog lock, when
    available) runs in a worker thread; meanwhile pages, the back ends and a game on Python answer at once."""
    outcome: dict[str, httpx.Response] = {}
    first = pysolve_backends[0]
    question = {"puzzle": "sudoku", "options": {"file": {"text": "." * 81, "name": "empty.txt"}, "count": 10**9,
                                                "seconds": 2}, "backends": [first]}  # every back end takes it

    def search() -> None:
        outcome["search"] = httpx.post(f"{base}/api/crosscheck", json=question, timeout=60)

    searching = threading.Thread(target=search)
    searching.start()
    time.sleep(0.4)
    quick = [httpx.get(f"{base}/api/backends", timeout=60), httpx.get(f"{base}/tangram", timeout=60),
             httpx.post(f"{base}/api/tangram/games", json={"backend": "python"}, timeout=60)]
    assert [response.status_code for response in quick] == [200, 200, 201]
    assert searching.is_alive()  # answered while the search still runs, not after it
    searching.join(60)
    report = outcome["search"].json()
    assert report["results"] == [] and "passed its time limit of 2 s" in report["skipped"][first]


def test_work_runs_on_a_few_long_lived_threads(web: httpx.Client) -> None:
    """Each thread that asks Prolog keeps a Prolog engine: requests reuse the same few worker threads."""
    key = web.post("/api/tangram/games", json={}).json()["id"]
    for _ in range(3 * WORKERS):
        web.post(f"/api/tangram/games/{key}/moves", json={"action": "select", "piece": "green"})
        web.post(f"/api/tangram/games/{key}/moves", json={"action": "escape"})
    workers = [thread for thread in threading.enumerate() if thread.name.startswith("pysolve-web-worker")]
    assert 0 < len(workers) <= WORKERS and all(thread.daemon for thread in workers)


# ---------------------------------------------------------------- the command

def listening_on(port: int) -> list[str]:
    """The IPv4 addresses a socket listens on at `port`, from the kernel's table (/proc/net/tcp)."""
    addresses = []
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, at = local.split(":")
        if state == "0A" and int(at, 16) == port:  # 0A: LISTEN
            addresses.append(socket.inet_ntoa(bytes.fromhex(address)[::-1]))
    return addresses


@contextlib.contextmanager
def the_command(*flags: str) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """`pysolve serve --port 0 FLAGS` in a process of its own, once it answers; yields it and its port."""
    server = subprocess.Popen([sys.executable, "-m", "pysolve.cli", "serve", "--port", "0", *flags],
                              stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert server.stderr is not None
        first = re.fullmatch(r"pysolve serve: http://127\.0\.0\.1:(\d+)/ \(Ctrl-C stops\)\n", server.stderr.readline())
        assert first, "the first line names the address"
        port = int(first[1])
        while True:  # pytest-timeout's guard ends a server that never answers
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/backends", timeout=5)
                break
            except httpx.ConnectError:
                assert server.poll() is None, "the server ended before it answered"
                time.sleep(0.05)
        yield server, port
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


@pytest.mark.subprocess
def test_serve_binds_localhost_and_stops_cleanly_on_ctrl_c(pysolve_backends: list[str]) -> None:
    """On the session's first back end: Prolog, when it runs, answers in worker threads and Ctrl-C still stops."""
    with the_command("--backend", pysolve_backends[0]) as (server, port):
        assert httpx.get(f"http://127.0.0.1:{port}/tangram", timeout=5).status_code == 200
        game = httpx.post(f"http://127.0.0.1:{port}/api/tangram/games", json={}, timeout=60).json()
        assert game["backend"] == pysolve_backends[0]  # its rules asked of the back end, in a worker thread
        assert listening_on(port) == ["127.0.0.1"]
        question = {"puzzle": "squares", "options": {"file": "eternity/pieces_06x06.txt", "count": True, "seconds": 30},
                    "backends": ["python"]}
        abandoned: list[httpx.Response] = []
        searching = threading.Thread(target=lambda: abandoned.append(
            httpx.post(f"http://127.0.0.1:{port}/api/crosscheck", json=question, timeout=60)), daemon=True)
        searching.start()
        time.sleep(0.5)  # a 30-second search is under way: Ctrl-C does not wait for it
        server.send_signal(signal.SIGINT)
        assert server.wait(15) == 0  # well before the search's 30 s
        searching.join(5)
        assert "the server is stopping" in error_of(abandoned[0], 503)
        assert server.stderr is not None
        rest = server.stderr.read()
        assert "pysolve serve: stopped" in rest and "Traceback" not in rest


def test_requests_may_name_the_host_served_or_any_when_listening_everywhere() -> None:
    assert allowed_hosts("127.0.0.1") == ["127.0.0.1", "localhost", "::1", "127.0.0.1"]
    assert allowed_hosts("pysolve.lan")[-1] == "pysolve.lan"
    assert allowed_hosts("0.0.0.0") is None and allowed_hosts("::") is None


def test_serve_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", "--port", "70000"]) == 2
    assert "--port 70000 is not a port number" in capsys.readouterr().err
    assert cli.main(["serve", "--backend", "cobol"]) == 2
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        assert cli.main(["serve", "--port", str(taken.getsockname()[1]), "--backend", "python"]) == 2
    assert "cannot serve on 127.0.0.1" in capsys.readouterr().err


def test_a_minimax_seat_by_depth_thinks_within_the_servers_time_a_move() -> None:
    from pysolve.azul.strategies import strategy
    from pysolve.web.azul import MAX_MOVE_SECONDS, affordable

    capped = strategy(affordable("minimax:4"))  # four plies of a wide position take minutes: not without a clock
    assert (capped.depth, capped.seconds) == (4, MAX_MOVE_SECONDS)
    assert affordable("minimax:2:0.5s") == "minimax:2:0.5s" and affordable("mcts:300") == "mcts:300"


@pytest.mark.slow
def test_slow_clients_are_timed_out(monkeypatch: pytest.MonkeyPatch, pysolve_backends: list[str]) -> None:
    monkeypatch.setattr(clients, "HEAD_SECONDS", 0.5)
    monkeypatch.setattr(clients, "BODY_SECONDS", 0.5)
    with serving(pysolve_backends[0]) as url:
        host, port = url.removeprefix("http://").split(":")
        slow_heads = [socket.create_connection((host, int(port)), timeout=30) for _ in range(8)]
        for number, slow in enumerate(slow_heads):  # half send nothing, half a head that never ends
            if number % 2:
                slow.sendall(b"GET /api/backends HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert [slow.recv(1) for slow in slow_heads] == [b""] * 8  # closed by the server, not by us
        slow_body = socket.create_connection((host, int(port)), timeout=30)
        slow_body.sendall(b"POST /api/sudoku/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          b"Content-Length: 100\r\n\r\n{\"grid\": ")
        answer = slow_body.makefile("rb").read().decode()
        assert answer.startswith("HTTP/1.1 408") and "did not come within 0.5 s" in answer
        assert httpx.get(url + "/api/backends", timeout=30).status_code == 200  # and the server goes on
