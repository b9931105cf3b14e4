"""The Azul pages' endpoints: a person at a table with strategies, replays of logged games, tournaments.

A game is `pysolve.azul.game.AzulGame` on the chosen back end's rules: the
person's moves are checked against its legal moves, the other seats play
their strategies (random, greedy, lookahead, mcts..., minimax...) until it
is a person's turn again or the game is over. Every move is told, and each
round's scoring tile by tile, by `pysolve.azul.replay.story` (the words of
`pysolve azul replay`); a replay is the story of a logged game, and a
tournament is drawn by `pysolve.azul.charts`.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from pysolve.azul import charts, tournament
from pysolve.azul.cli import read_log
from pysolve.azul.game import AzulGame
from pysolve.azul.model import STANDARD, VARIANTS, check_move, check_players, check_variant
from pysolve.azul.replay import story
from pysolve.azul.strategies import strategy
from pysolve.errors import InputError
from pysolve.web.core import Choice, Store, Workers, body, field_of

HUMAN = "human"
CHOICES = ("random", "greedy", "lookahead", "mcts:300", "minimax:2")  # offered by the page; any name works
MAX_GAMES = 200  # games of one tournament from the page


class Table:
    """A game with its seats (a person or a strategy), the story so far and each round's scores."""

    def __init__(self, players: int, seats: list[str], seed: int, backend: str, variant: str = STANDARD) -> None:
        self.seats = seats
        self.game = AzulGame(players, seed, backend, [name if name != HUMAN else "random" for name in seats], variant)
        self.records: list[dict[str, Any]] = [  # the game's log, as `simulate --log` writes it
            {"type": "start", "seed": seed, "players": players, "engine": backend, "strategies": seats,
             "state": self.game.state}]
        self.rounds: list[dict[str, Any]] = []
        self.round_start = self.game.scores

    @property
    def turn(self) -> int | None:
        """The seat to move, None once the game is over."""
        return None if self.game.over else self.game.rules.turn(self.game.handle)

    def human_to_move(self) -> bool:
        """True when a person's seat is to move."""
        return self.turn is not None and self.seats[self.turn] == HUMAN

    def play(self, move: Any = None) -> None:
        """Play one move (a person's, or the strategy's when `move` is None); tell it, keep the round scores."""
        seat, before = self.turn, self.game.state["round"]
        played = self.game.play(move)
        after = self.game.state
        self.records.append({"type": "move", "seat": seat, "move": list(played), "state": after})
        if after["round"] != before or after["over"]:
            scores = [board["score"] for board in after["boards"]]
            self.rounds.append({"round": before, "before": self.round_start, "after": scores,
                                "final": bool(after["over"])})
            self.round_start = scores

    def told(self) -> list[dict[str, Any]]:
        """The game so far as the replay tells it: every move, each round's tiling tile by tile, the deals."""
        return [{"kind": step.kind, "text": step.text} for step in story(self.records)]

    def advance(self) -> None:
        """Let the strategies play until a person is to move or the game is over."""
        while self.turn is not None and not self.human_to_move():
            self.play()

    def view(self, key: str) -> dict[str, Any]:
        """The table as the page draws it."""
        human = self.human_to_move()
        return {"id": key, "backend": self.game.backend, "seats": self.seats, "state": self.game.state,
                "turn": self.turn, "human_to_move": human,
                "moves": [list(move) for move in self.game.legal_moves()] if human else [],
                "over": self.game.over, "winners": self.game.winners if self.game.over else [],
                "rounds": self.rounds, "steps": self.told()}


def seats_of(data: dict[str, Any], players: int) -> list[str]:
    """The request's seats: one name per player, `human` or a strategy; InputError when not."""
    seats = field_of(data, "seats", list, default=[HUMAN] + ["random"] * (players - 1))
    if len(seats) != players or not all(isinstance(name, str) for name in seats):
        raise InputError(f"the field 'seats' must name {players} seats (human or a strategy), not {seats}")
    for name in seats:
        if name != HUMAN:
            strategy(name)  # UnknownName for a strategy that does not exist
    return seats


def replay_steps(text: str) -> list[dict[str, Any]]:
    """An uploaded JSON-lines log told step by step (read and checked as `pysolve azul replay` does)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "uploaded log"
        path.write_text(text, encoding="utf-8")
        records = read_log(path)
    return [{"kind": step.kind, "text": step.text, "state": step.state, "names": list(step.names)}
            for step in story(records)]


def play_tournament(players: int, games: int, seed: int, backend: str, strategies: list[str],
                    variant: str = STANDARD) -> dict[str, Any]:
    """Seeded games with the strategies rotated over the seats: the summary and its chart."""
    work = tournament.tasks(players, games, seed, backend, strategies, variant=variant)
    results = tournament.run(work, None, lambda result: None)
    return {"summary": tournament.summarise(results), "chart": charts.chart(results)}


def routes(workers: Workers, choice: Choice) -> list[Route]:
    """The Azul endpoints: start a table, read it, move; replay a log; run a tournament."""
    tables: Store[Table] = Store("azul", close=lambda table: table.game.close())

    async def start(request: Request) -> JSONResponse:
        data = await body(request)
        backend = choice.pick(data)
        players = check_players(field_of(data, "players", int, default=2))
        seats = seats_of(data, players)
        seed = field_of(data, "seed", int, default=0)
        variant = check_variant(field_of(data, "variant", str, default=STANDARD))

        def begin() -> dict[str, Any]:
            table = Table(players, seats, seed, backend, variant)
            table.advance()
            return table.view(tables.add(table))

        return JSONResponse(await workers.run(begin), status_code=201)

    async def show(request: Request) -> JSONResponse:
        key = request.path_params["key"]
        kept = tables.get(key)

        def locked() -> dict[str, Any]:  # the state comes from the back end (a Prolog query, on Prolog)
            with kept.lock:
                return kept.game.view(key)

        return JSONResponse(await workers.run(locked))

    async def move(request: Request) -> JSONResponse:
        key = request.path_params["key"]
        kept, data = tables.get(key), await body(request)
        chosen = check_move(field_of(data, "move", list, required=True))

        def locked() -> dict[str, Any]:
            with kept.lock:
                table = kept.game
                if not table.human_to_move():
                    raise InputError("it is not a person's turn: the game is over" if table.game.over
                                     else f"it is not a person's turn (seat {table.turn} plays {table.seats[table.turn]})")
                table.play(chosen)
                table.advance()
                return table.view(key)

        return JSONResponse(await workers.run(locked))

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
        return JSONResponse({"strategies": list(CHOICES), "human": HUMAN, "variants": list(VARIANTS)})

    return [
        Route("/api/azul/strategies", options, methods=["GET"]),
        Route("/api/azul/games", start, methods=["POST"]),
        Route("/api/azul/games/{key}", show, methods=["GET"]),
        Route("/api/azul/games/{key}/moves", move, methods=["POST"]),
        Route("/api/azul/replay", replay, methods=["POST"]),
        Route("/api/azul/tournament", tournament_endpoint, methods=["POST"]),
    ]
