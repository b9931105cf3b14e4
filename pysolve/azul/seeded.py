"""The puzzle's question answered on one engine: a seeded game of the original strategy, played to its end.

This is what every engine's `solve` shares, so it sits below them: it knows
the model and the `Engine` protocol, never an engine, a match or a face.
`random_feasible` is the original strategy (uniform among the moves that put
a tile on a pattern line, else among all; on a grey wall's tiling, uniform
among the columns), read from the game's stream like every other random
choice, so a seed gives the same game on every engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pysolve.answers import Found
from pysolve.azul.model import Engine, Move, Question, RandomStream, feasible
from pysolve.budget import Budget


def random_feasible(state: Mapping[str, Any], moves: list[Move], rng: RandomStream) -> Move:
    """The original strategy.

    Uniform among moves putting a tile on a line, else among all; uniform among the columns of a tiling
    decision (`state` unread).
    """
    return rng.choice(feasible(moves) or moves)


def played(question: Question, engine: Engine[Any], budget: Budget) -> Found:
    """The question's game played on `engine` move by move, each move spending a node of `budget`."""
    stream = RandomStream(question.seed)
    handle = engine.new_game(question.players, stream.below(question.players), stream, question.variant)
    try:
        while moves := engine.legal_moves(handle):
            budget.spend()
            engine.play(handle, random_feasible({}, moves, stream), stream)
        return final(engine.export(handle), engine.winners(handle))
    finally:
        engine.close(handle)


def final(state: dict[str, Any], winners: list[int]) -> Found:
    """The answer of a finished game: its final state, with its rounds, moves, scores and winners."""
    return Found([state], {"rounds": state["round"], "moves": state["moves"],
                           "scores": [board["score"] for board in state["boards"]], "winners": winners})
