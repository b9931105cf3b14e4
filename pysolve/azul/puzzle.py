"""PUZZLE: Azul for `make demo` and `pysolve solve/crosscheck azul`.

PUZZLE: Azul for `make demo` and `pysolve solve/crosscheck azul` (one seeded game played to its end
on each back end; the final state must be the same everywhere), `pysolve play azul` (a seat at the table),
and the `pysolve azul ...` commands.

Like every puzzle's, its back ends are the modules `python`, `prolog` and `kanren` beside it, each
answering the question with `solve` (found by `Puzzle.solvers`). The faces it starts (the terminal game,
the command group) are imported only when started: they use matches and strategies, never this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pysolve.azul.model import FACTORIES, SEED, STANDARD, VARIANTS, Question
from pysolve.azul.names import KNOWN
from pysolve.options import Option, seed_option
from pysolve.puzzle import Answer, Backend, Puzzle
from pysolve.words import plural

MAX_DELAY = 60.0  # the longest pause between the other seats' moves, in seconds
VARIANT = Option("variant", str, STANDARD, choices=VARIANTS,
                 help="standard: the coloured wall; grey: the grey side of the board, any colour in any column")
PLAY_OPTIONS = (
    Option("players", int, 2, "2, 3 or 4"),
    Option("seat", int, 0, "your seat, from 0 (default 0; who opens is drawn)"),
    Option("strategy", str, "greedy", f"strategies NAME[,NAME...] of the other seats, in turn: {KNOWN}",
           metavar="NAMES"),
    seed_option(SEED, "the game's seed"),
    VARIANT,
    Option("log", metavar="FILE", output=True,
           help="keep the game as JSON lines, rewritten after every move (`pysolve azul replay FILE` tells it)"),
    Option("delay", float, 0.6, "seconds between the other seats' moves", minimum=0, maximum=MAX_DELAY),
)  # `pysolve play azul` and its alias `pysolve azul play`


class Azul(Puzzle):
    """The board game Azul, simulated: a seeded random-feasible game to its end."""

    name = "azul"
    summary = "the board game Azul: a seeded game played on each back end (see also `pysolve azul`)"
    offers: ClassVar[Mapping[str, Backend]] = {"prolog": Backend(), "kanren": Backend(), "python": Backend()}
    faces = frozenset({"play"})
    play_options = PLAY_OPTIONS
    command_groups: ClassVar[Mapping[str, str]] = {
        "azul": "the board game Azul: tournaments, lockstep cross-checks, replays, a seat at the table"}
    options = (
        Option("players", int, 2, "number of players", choices=tuple(FACTORIES)),
        seed_option(SEED, "the game's seed"),
        VARIANT,
    )

    def ask(self, **values: Any) -> Question:
        """The seeded game the checked options name (`players`, `seed`, `variant`: the Question's fields)."""
        return Question(**values)

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
        from pysolve.azul.draw import table  # the pictures load only when an answer is drawn

        stats = answer.stats
        return (f"{table(answer.solutions[0])}\n\n{self.summarise(answer)}, after {plural(stats['rounds'], 'round')} "
                f"and {plural(stats['moves'], 'move')}")

    def demo_questions(self) -> list[Question]:
        """The two-player game of the default seed."""
        return [Question(2, SEED)]

    def play(self, backend: str, **values: Any) -> int:
        """A person's seat at the table, the other seats played by strategies, until the person quits."""
        from pysolve.azul.play_app import start  # Textual loads only when a game really starts

        return start(backend, **values)

    def fill_command_group(self, name: str, parser: Any) -> None:
        """Fill the parser of the `pysolve azul` command group.

        `pysolve azul simulate|crosscheck|agent|replay|record|play` (tournaments, lockstep runs, an outside
        agent, replays, playthroughs, and `pysolve play azul` again), added to its parser when it is used.
        """
        from pysolve.azul.cli import add_commands

        add_commands(parser, self)


PUZZLE = Azul()
