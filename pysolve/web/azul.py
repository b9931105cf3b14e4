"""The Azul pages' endpoints: a person at a table with strategies, replays of logged games, tournaments.

The table is `pysolve.azul.play.Table`, the model the terminal face
(`pysolve azul play`) drives too: one seat is the person's, the others
play strategies (random, greedy, lookahead, mcts..., minimax...) on the
chosen back end's rules. The person's move can be taken back until the
others are let play. Every move, and each round's scoring tile by tile, is
told by `pysolve.azul.replay` (the words of `pysolve azul replay`); a replay
is the story of a logged game, and a tournament is drawn by
`pysolve.azul.charts`.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route

from pysolve.azul import charts, tournament
from pysolve.azul.cli import read_log
from pysolve.azul.model import STANDARD, VARIANTS, check_move, check_players, check_variant
from pysolve.azul.play import PERSON, Table
from pysolve.azul.replay import Step, story
from pysolve.azul.strategies import strategy
from pysolve.errors import InputError
from pysolve.web.core import Choice, Store, Workers, body, field_of

CHOICES = ("random", "greedy", "lookahead", "mcts:300", "minimax:2")  # offered by the page; any name works
MAX_GAMES = 200  # games of one tournament from the page


def table_of(data: dict[str, Any], backend: str) -> Table:
    """The table a request asks for: `seats` names `you` once and a strategy for every other seat."""
    players = check_players(field_of(data, "players", int, default=2))
    seats = field_of(data, "seats", list, default=[PERSON] + ["greedy"] * (players - 1))
    if len(seats) != players or not all(isinstance(name, str) for name in seats) or seats.count(PERSON) != 1:
        raise InputError(f"the field 'seats' must name {players} seats: {PERSON!r} once, a strategy for each "
                         f"other seat; not {seats}")
    seat = seats.index(PERSON)
    others = seats[:seat] + seats[seat + 1:]  # in seat order, as the table gives them out
    return Table(players, seat, others, backend, field_of(data, "seed", int, default=0), None,
                 check_variant(field_of(data, "variant", str, default=STANDARD)))


def let_others_play(table: Table) -> None:
    """The person's move stands: the strategies play until the person is to move again or the game ends."""
    table.confirm()
    while table.others_move() is not None:
        pass


def rounds_of(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each finished round's scores, before and after its tiling (the last one with the end's bonuses)."""
    rounds, before = [], [board["score"] for board in records[0]["state"]["boards"]]
    for previous, record in zip(records, records[1:]):
        if record["type"] != "move":
            continue
        state = record["state"]
        if state["round"] != previous["state"]["round"] or state["over"]:
            after = [board["score"] for board in state["boards"]]
            rounds.append({"round": previous["state"]["round"], "before": before, "after": after,
                           "final": state["over"]})
            before = after
    return rounds


def steps_view(steps: list[Step], states: bool = False) -> list[dict[str, Any]]:
    """Steps of a story as the page shows them (with the table at each step, for replays)."""
    return [{"kind": step.kind, "text": step.text, **({"state": step.state, "names": list(step.names)} if states else {})}
            for step in steps]


def table_view(key: str, table: Table) -> dict[str, Any]:
    """The table as the page draws it: state, seats, the person's legal moves, scores by round, the story."""
    over = table.over
    return {"id": key, "backend": table.backend, "seats": table.names, "seat": table.seat, "state": table.state,
            "turn": None if over else table.turn, "person_to_move": table.person_to_move, "pending": table.pending,
            "moves": [list(move) for move in table.legal_moves()], "over": over,
            "winners": table.game.winners if over else [], "rounds": rounds_of(table.records),
            "steps": steps_view(table.steps())}


def replay_steps(text: str) -> list[dict[str, Any]]:
    """An uploaded JSON-lines log told step by step (read and checked as `pysolve azul replay` does)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "uploaded log"
        path.write_text(text, encoding="utf-8")
        records = read_log(path)
    return steps_view(story(records), states=True)


def play_tournament(players: int, games: int, seed: int, backend: str, strategies: list[str],
                    variant: str = STANDARD) -> dict[str, Any]:
    """Seeded games with the strategies rotated over the seats: the summary and its chart."""
    work = tournament.tasks(players, games, seed, backend, strategies, variant=variant)
    results = tournament.run(work, None, lambda result: None)
    return {"summary": tournament.summarise(results), "chart": charts.chart(results)}


def routes(workers: Workers, choice: Choice) -> list[Route]:
    """The Azul endpoints: start a table, read it, move, take back, let the others play, its log; replays;
    tournaments."""
    tables: Store[Table] = Store("azul", close=Table.close)

    async def start(request: Request) -> JSONResponse:
        data = await body(request)
        backend = choice.pick(data)

        def begin() -> dict[str, Any]:
            table = table_of(data, backend)
            let_others_play(table)
            return table_view(tables.add(table), table)

        return JSONResponse(await workers.run(begin), status_code=201)

    def acting(request: Request, act: Any) -> Any:
        """An endpoint that does `act(table)` to the table in the path (in a worker, one request at a time)."""
        key = request.path_params["key"]
        kept = tables.get(key)

        def locked() -> dict[str, Any]:  # the back end is asked (a Prolog query, on Prolog)
            with kept.lock:
                act(kept.game)
                return table_view(key, kept.game)

        return workers.run(locked)

    async def show(request: Request) -> JSONResponse:
        return JSONResponse(await acting(request, lambda table: None))

    async def move(request: Request) -> JSONResponse:
        chosen = check_move(field_of(await body(request), "move", list, required=True))
        return JSONResponse(await acting(request, lambda table: table.choose(chosen)))

    async def undo(request: Request) -> JSONResponse:
        return JSONResponse(await acting(request, Table.undo))

    async def go_on(request: Request) -> JSONResponse:
        return JSONResponse(await acting(request, let_others_play))

    async def log(request: Request) -> PlainTextResponse:
        key = request.path_params["key"]
        records = tables.get(key).game.records
        return PlainTextResponse("".join(json.dumps(record) + "\n" for record in records),
                                 headers={"Content-Disposition": f'attachment; filename="azul-{key}.jsonl"'})

    async def replay(request: Request) -> JSONResponse:
        data = await body(request)
        return JSONResponse({"steps": await workers.run(replay_steps, field_of(data, "log", str, required=True))})

    async def tournament_endpoint(request: Request) -> JSONResponse:
        data = await body(request)
        backend = choice.pick(data)
        players = check_players(field_of(data, "players", int, default=2))
        games = field_of(data, "games", int, default=20)
        if not 1 <= games <= MAX_GAMES:
            raise InputError(f"the field 'games' must be 1 to {MAX_GAMES}, not {games}")
        names = field_of(data, "strategies", list, default=["random", "greedy"])
        if not names or not all(isinstance(name, str) for name in names):
            raise InputError(f"the field 'strategies' must be a list of strategy names, not {names}")
        for name in names:
            strategy(name)
        seed = field_of(data, "seed", int, default=0)
        variant = check_variant(field_of(data, "variant", str, default=STANDARD))
        return JSONResponse(await workers.run(play_tournament, players, games, seed, backend, names, variant))

    async def options(request: Request) -> JSONResponse:
        return JSONResponse({"strategies": list(CHOICES), "person": PERSON, "variants": list(VARIANTS)})

    return [
        Route("/api/azul/strategies", options, methods=["GET"]),
        Route("/api/azul/games", start, methods=["POST"]),
        Route("/api/azul/games/{key}", show, methods=["GET"]),
        Route("/api/azul/games/{key}/moves", move, methods=["POST"]),
        Route("/api/azul/games/{key}/undo", undo, methods=["POST"]),
        Route("/api/azul/games/{key}/continue", go_on, methods=["POST"]),
        Route("/api/azul/games/{key}/log", log, methods=["GET"]),
        Route("/api/azul/replay", replay, methods=["POST"]),
        Route("/api/azul/tournament", tournament_endpoint, methods=["POST"]),
    ]
