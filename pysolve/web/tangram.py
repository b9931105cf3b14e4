"""The tangram page's endpoints: the terminal game's `Game` (one model, two faces) behind JSON.

Every move goes to `pysolve.tangram.play.Game`, which asks the chosen back
end where a piece may go and whether the board can be completed; this
module only reads requests, runs the move off the event loop and sends the
game back as JSON for `static/tangram.js` to draw.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from pysolve.errors import InputError, PysolveError
from pysolve.tangram import api as tangram_api
from pysolve.tangram import draw
from pysolve.tangram.model import Instance, Placement
from pysolve.tangram.play import Game
from pysolve.tangram.puzzle import PUZZLE
from pysolve.tangram.reader import load_instance, parse_instance
from pysolve.web.core import Choice, Store, Workers
from pysolve.web.guard import body, excerpt, field_of

DRAWN = 120  # tilings drawn in the gallery (all are counted)
ACTIONS = ("select", "choose", "place_at", "place", "escape", "undo", "hint")


def placement_view(placement: Placement) -> dict[str, Any]:
    """A placement as the page draws it."""
    return {"piece": placement.piece, "x": placement.x, "y": placement.y,
            "width": placement.width, "height": placement.height}


def instance_view(instance: Instance) -> dict[str, Any]:
    """The board and its pieces (name, key, colour, size) in instance order."""
    return {"name": instance.name, "width": instance.width, "height": instance.height,
            "rotations": instance.rotations, "pieces": [vars(piece) for piece in instance.pieces]}


def game_view(key: str, game: Game) -> dict[str, Any]:
    """Everything the page shows of a game: board, selection, options, preview, hint, message."""
    return {
        "id": key,
        "backend": game.backend,
        "instance": instance_view(game.instance),
        "board": [{**placement_view(p), "fixed": p.piece in game.fixed}
                  for p in game.instance.sort(list(game.board.values()))],
        "selected": game.selected,
        "preview": placement_view(game.preview) if game.preview else None,
        "options": [placement_view(p) for p in game.choices],
        "option_cells": sorted(game.option_cells),
        "hint": [placement_view(p) for p in game.hint],
        "waiting": game.waiting,
        "status": game.status(),
        "message": game.message,
        "won": game.won,
        "can_undo": bool(game.history),
    }


def read_cell(data: dict[str, Any], instance: Instance) -> tuple[int, int]:
    """The request's `cell` [x, y], on the board; InputError otherwise."""
    cell = field_of(data, "cell", list, required=True)
    if len(cell) != 2 or not all(type(value) is int for value in cell):
        raise InputError(f"the field 'cell' must be [x, y] (two integers), not {excerpt(cell)}")
    x, y = cell
    if not (0 <= x < instance.width and 0 <= y < instance.height):
        raise InputError(f"cell {x},{y} is off the {instance.width}x{instance.height} board")
    return x, y


def move_of(data: dict[str, Any], game: Game) -> tuple[Any, tuple[Any, ...]]:
    """The Game method a request names and its arguments, checked before anything is asked of a back end."""
    action = field_of(data, "action", str, required=True)
    if action not in ACTIONS:
        raise InputError(f"unknown action {excerpt(action)}; actions: {', '.join(ACTIONS)}")
    if action == "select":
        return game.select, (game.instance.piece(field_of(data, "piece", str, required=True)).name,)
    if action in ("choose", "place_at"):
        return getattr(game, action), (read_cell(data, game.instance),)
    if action == "place":
        return game.place, (field_of(data, "definitive", bool, required=True),)
    return {"escape": game.escape, "undo": game.undo, "hint": game.ask_hint}[action], ()


def play(game: Game, method: Any, arguments: tuple[Any, ...]) -> None:
    """Make one move; a back-end error mid-game becomes the message, as in the terminal game."""
    try:
        method(*arguments)
    except PysolveError as error:
        game.message = f"back end error: {error}"


def routes(workers: Workers, choice: Choice) -> list[Route]:
    """The tangram endpoints: start a game, read it, move, and the gallery of every tiling."""
    games: Store[Game] = Store("tangram")

    async def start(request: Request) -> JSONResponse:
        data = await body(request)
        backend = choice.pick(data)
        text = field_of(data, "instance", str)
        instance = parse_instance(text, "the uploaded instance") if text is not None else load_instance()
        game = await workers.run(request, Game.start, PUZZLE, instance, backend)
        key = games.add(game)
        return JSONResponse(game_view(key, game), status_code=201)

    async def show(request: Request) -> JSONResponse:
        key = request.path_params["key"]
        return JSONResponse(game_view(key, games.get(key).game))

    async def move(request: Request) -> JSONResponse:
        key = request.path_params["key"]
        kept, data = games.get(key), await body(request)
        method, arguments = move_of(data, kept.game)

        def locked() -> None:
            with kept.lock:
                play(kept.game, method, arguments)

        await workers.run(request, locked)
        return JSONResponse(game_view(key, kept.game))

    async def tilings(request: Request) -> JSONResponse:
        kept = games.get(request.path_params["key"])
        game = kept.game
        if "tilings" not in kept.extra:
            found = await workers.run(request, tangram_api.tilings, game.instance, (), game.backend)
            shown = f", the first {DRAWN} drawn" if len(found) > DRAWN else ""
            title = f"{game.instance.name}: all {len(found)} tilings ({game.backend}{shown})"
            kept.extra["tilings"] = {"count": len(found), "svg": draw.svg(game.instance, found[:DRAWN], title)}
        return JSONResponse(kept.extra["tilings"])

    return [
        Route("/api/tangram/games", start, methods=["POST"]),
        Route("/api/tangram/games/{key}", show, methods=["GET"]),
        Route("/api/tangram/games/{key}/moves", move, methods=["POST"]),
        Route("/api/tangram/games/{key}/tilings", tilings, methods=["GET"]),
    ]
