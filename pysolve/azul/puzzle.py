"""PUZZLE: Azul for `make demo` and `pysolve solve/crosscheck azul` (one seeded game played to its end
on each back end; the final state must be the same everywhere), `pysolve play azul` (a seat at the table),
and the `pysolve azul ...` commands."""

from __future__ import annotations

from typing import Any

from pysolve.azul import cli, play
from pysolve.azul.draw import table
from pysolve.azul.model import FACTORIES, SEED, STANDARD, VARIANTS, Question
from pysolve.options import Option
from pysolve.puzzle import Answer, Puzzle


class Azul(Puzzle):
    """The board game Azul, simulated: a seeded random-feasible game to its end."""

    name = "azul"
    summary = "the board game Azul: a seeded game played on each back end (see also `pysolve azul`)"
    can_play = True
    play_options = play.OPTIONS
    options = (
        Option("players", int, 2, "number of players", choices=tuple(FACTORIES)),
        Option("seed", int, SEED, "the game's seed"),
        play.VARIANT,
    )

    def ask(self, players: int, seed: int, variant: str = STANDARD) -> Question:
        """The seeded game of `players` and `variant` (checked against the choices already)."""
        return Question(players, seed, variant)

    def canonical(self, answer: Answer) -> Any:
        """The final state (scores, walls, bag, lid, ...)."""
        return answer.solutions

    def summarise(self, answer: Answer) -> str:
        return f"scores {answer.stats['scores']}, winners {answer.stats['winners']}"

    def render(self, answer: Answer) -> str:
        return table(answer.solutions[0]) if answer.solutions else "no game"

    def demo_questions(self) -> list[Question]:
        return [Question(2, 1)]

    def start_game(self, backend: str, **values: Any) -> int:
        """A person's seat at the table, the other seats played by strategies, until the person quits."""
        return play.start(backend, **values)

    def add_commands(self, commands: Any) -> None:
        """`pysolve azul simulate|crosscheck|replay|play`: tournaments, lockstep runs, replays, and `play`
        again (the same as `pysolve play azul`)."""
        cli.add_commands(commands, self)


PUZZLE = Azul()
