"""PUZZLE: Azul for `make demo` and `pysolve solve/crosscheck azul` (one seeded game played to its end
on each back end; the final state must be the same everywhere), `pysolve play azul` (a seat at the table),
and the `pysolve azul ...` commands."""

from __future__ import annotations

from typing import Any

from pysolve.azul import cli, play
from pysolve.azul.draw import table
from pysolve.azul.model import FACTORIES, SEED, STANDARD, Question
from pysolve.options import Option
from pysolve.puzzle import Answer, Puzzle
from pysolve.words import plural


class Azul(Puzzle):
    """The board game Azul, simulated: a seeded random-feasible game to its end."""

    name = "azul"
    summary = "the board game Azul: a seeded game played on each back end (see also `pysolve azul`)"
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
        """The scores by seat and who won: `scores 23, 13: seat 0 wins`."""
        stats = answer.stats
        if "scores" not in stats:
            return "no game"
        winners = stats["winners"]
        who = f"seat {winners[0]} wins" if len(winners) == 1 else f"seats {', '.join(map(str, winners))} share the win"
        return f"scores {', '.join(map(str, stats['scores']))}: {who}"

    def render(self, answer: Answer) -> str:
        """The final table, then the scores, the winners and the game's length; or why there is no game."""
        if not answer.solutions:
            return f"no game: {answer.stats.get('reason', 'the back end played none')}"
        stats = answer.stats
        return (f"{table(answer.solutions[0])}\n\n{self.summarise(answer)}, after {plural(stats['rounds'], 'round')} "
                f"and {plural(stats['moves'], 'move')}")

    def demo_questions(self) -> list[Question]:
        return [Question(2, 1)]

    def play(self, backend: str, **values: Any) -> int:
        """A person's seat at the table, the other seats played by strategies, until the person quits."""
        return play.start(backend, **values)

    def add_commands(self, commands: Any) -> None:
        """`pysolve azul simulate|crosscheck|replay|play`: tournaments, lockstep runs, replays, and `play`
        again (the same as `pysolve play azul`)."""
        cli.add_commands(commands, self)


PUZZLE = Azul()
