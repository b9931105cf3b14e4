"""Strategies: any callable (state, legal moves, rng) -> one of the moves.

`state` is the canonical snapshot (a mapping read lazily, so strategies that
never look at it cost nothing), `rng` the game's `RandomStream`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pysolve.azul.model import CENTRE, FLOOR_SLOTS, FLOOR_TOTALS, Move, RandomStream, wall_column
from pysolve.azul.python import PythonEngine, tile_score
from pysolve.errors import UnknownName

Strategy = Callable[[Mapping[str, Any], list[Move], RandomStream], Move]


def random_feasible(state: Mapping[str, Any], moves: list[Move], rng: RandomStream) -> Move:
    """The original strategy: uniform among moves putting a tile on a line, else among all."""
    feasible = [move for move in moves if move[2]]
    return rng.choice(feasible or moves)


def move_gain(state: Mapping[str, Any], move: Move) -> int:
    """The change of the mover's score if the round ended right after `move` (line scored, floor lost)."""
    source, colour, destination = move
    board = state["boards"][state["turn"]]
    taken = (state["centre"] if source == CENTRE else state["factories"][source])[colour]
    items = len(board["floor"])
    added = 1 if source == CENTRE and state["marker"] == CENTRE and items < FLOOR_SLOTS else 0
    gain = 0
    if destination:
        row = destination - 1
        count = board["lines"][row][1]
        fits = min(taken, destination - count)
        taken -= fits
        if count + fits == destination:
            wall = [list(cells) for cells in board["wall"]]
            column = wall_column(row, colour)
            wall[row][column] = 1
            gain = tile_score(wall, row, column)
    after = min(items + added + taken, FLOOR_SLOTS)
    return gain - (FLOOR_TOTALS[after] - FLOOR_TOTALS[items])


def _best(moves: list[Move], value: Callable[[Move], float], rng: RandomStream) -> Move:
    """One of the moves of highest value (ties broken by the stream)."""
    values = [value(move) for move in moves]
    top = max(values)
    return rng.choice([move for move, v in zip(moves, values) if v == top])


def greedy(state: Mapping[str, Any], moves: list[Move], rng: RandomStream) -> Move:
    """The move with the best immediate score change; among equals prefer lines, then chance."""
    return _best(moves, lambda move: move_gain(state, move) + (0.5 if move[2] else 0.0), rng)


_ENGINE = PythonEngine()


def lookahead(state: Mapping[str, Any], moves: list[Move], rng: RandomStream) -> Move:
    """One-ply lookahead: own immediate gain minus the next player's best reply gain."""
    snapshot = dict(state)
    if snapshot["over"]:
        return rng.choice(moves)

    def value(move: Move) -> float:
        own = move_gain(snapshot, move) + (0.5 if move[2] else 0.0)
        table = _ENGINE.load(snapshot)
        _ENGINE.apply(table, move)
        if not table.offer:
            return own  # the round ends: no reply to fear
        table.turn = (table.turn + 1) % table.players
        after = _ENGINE.export(table)
        return own - max(move_gain(after, reply) for reply in _ENGINE.legal_moves(table))

    return _best(moves, value, rng)


STRATEGIES: dict[str, Strategy] = {"random": random_feasible, "greedy": greedy, "lookahead": lookahead}


def strategy(name_or_callable: str | Strategy) -> Strategy:
    """A strategy by name (random, greedy, lookahead) or the callable itself."""
    if callable(name_or_callable):
        return name_or_callable
    if name_or_callable not in STRATEGIES:
        raise UnknownName(f"unknown strategy {name_or_callable!r}; known: {', '.join(STRATEGIES)}")
    return STRATEGIES[name_or_callable]


def strategy_name(chosen: str | Strategy) -> str:
    """The name a strategy is reported under."""
    if isinstance(chosen, str):
        return chosen
    for name, known in STRATEGIES.items():
        if known is chosen:
            return name
    return getattr(chosen, "__name__", repr(chosen))
