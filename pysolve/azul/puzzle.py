"""Azul as a `Puzzle` for `make demo` and `pysolve solve/crosscheck azul`: one seeded game,
played to its end on each engine; the final state must be the same everywhere."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from pysolve.azul.draw import table
from pysolve.azul.game import play_game
from pysolve.azul.model import check_players
from pysolve.puzzle import Answer, Found, Puzzle, Solver


@dataclass(frozen=True)
class Question:
    """A seeded game with the random-feasible strategy on every seat."""

    players: int = 2
    seed: int = 1


def _solver(engine_name: str) -> Solver:
    """A solver playing the question's game on one engine."""

    def solve(question: Question) -> Found:
        result = play_game(question.players, question.seed, engine_name)
        return Found([result.state], {"rounds": result.rounds, "moves": result.moves,
                                      "scores": result.scores, "winners": result.winners})

    return solve


class Azul(Puzzle):
    """The board game Azul, simulated: a seeded random-feasible game to its end."""

    name = "azul"
    summary = "the board game Azul: a seeded game played on each rule engine (see also `pysolve azul`)"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--players", type=int, default=2, help="2, 3 or 4 (default 2)")
        parser.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")

    def question(self, args: argparse.Namespace) -> Question:
        return Question(check_players(args.players), args.seed)

    def solvers(self, question: Question) -> dict[str, Solver]:
        return {name: _solver(name) for name in ("prolog", "kanren", "python")}

    def canonical(self, answer: Answer) -> Any:
        """The final state (scores, walls, bag, lid, ...)."""
        return answer.solutions

    def summarise(self, answer: Answer) -> str:
        return f"scores {answer.stats['scores']}, winners {answer.stats['winners']}"

    def render(self, answer: Answer) -> str:
        return table(answer.solutions[0]) if answer.solutions else "no game"

    def demo_questions(self) -> list[Question]:
        return [Question(2, 1)]


PUZZLE = Azul()
