"""A person at the Azul table.

One seat chosen by a person, the others by strategies, the rules asked of one back end (a `Match`),
the person's last move taken back until the next player acts, and a game log that `pysolve azul
replay` reads (rewritten whole after every move).

`Table` holds the match and knows nothing of screens; `play_app.AzulApp` is its Textual face, and the web
page (`pysolve.web.azul`) another.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pysolve import files
from pysolve.azul.match import Match, engine
from pysolve.azul.model import SEED, STANDARD, Move, check_players, check_variant, describe_move
from pysolve.azul.replay import Step, move_steps, story
from pysolve.azul.strategies import strategy as check_strategy
from pysolve.errors import InputError

PERSON = "you"


@dataclass
class Table:
    """A game with a person in seat `seat`: `choose(move)`, `undo()`, `confirm()`, `others_move()`."""

    players: int = 2
    seat: int = 0
    others: Sequence[str] = ("greedy",)
    backend: str = "python"
    seed: int = SEED
    log_path: str | None = None
    variant: str = STANDARD
    match: Match = field(init=False)
    history: list[tuple[Move, int]] = field(init=False, default_factory=list)  # (move, stream numbers used before)
    records: list[dict[str, Any]] = field(init=False, default_factory=list)
    pending: bool = field(init=False, default=False)  # the person moved; the next player has not acted yet
    told: list[list[Step]] = field(init=False, default_factory=list)  # the story, record by record

    def __post_init__(self) -> None:
        check_players(self.players)
        check_variant(self.variant)
        if self.seat not in range(self.players):
            raise InputError(f"--seat: a seat of 0..{self.players - 1}, not {self.seat}")
        if not self.others:
            raise InputError("--strategy: name at least one strategy for the other seats")
        for name in self.others:
            check_strategy(name)  # an unknown name fails here, before the game starts
        engine(self.backend)
        self.match = self._new_match()
        self.records = [{"type": "start", "seed": self.seed, "players": self.players, "engine": self.backend,
                         "variant": self.variant, "strategies": self.names, "state": self.match.state}]
        self.told = [story(self.records)]
        self._save()

    @property
    def names(self) -> list[str]:
        """Who sits where: `you` and the strategies of the others, rotated over their seats."""
        others = iter(self.others[index % len(self.others)] for index in range(self.players - 1))
        return [PERSON if seat == self.seat else next(others) for seat in range(self.players)]

    def _new_match(self) -> Match:
        """The seeded game from its start (the person's seat holds a strategy that is never asked)."""
        names = self.names
        names[self.seat] = "random"
        return Match(self.players, self.seed, self.backend, names, self.variant)

    # -- what the screen asks ------------------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        """The canonical state of the game now."""
        return self.match.state

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.match.over

    @property
    def turn(self) -> int:
        """The seat to move (-1 once over)."""
        return -1 if self.over else self.match.turn

    @property
    def person_to_move(self) -> bool:
        """True when the person may choose a move now."""
        return not self.pending and not self.over and self.turn == self.seat

    @property
    def others_to_move(self) -> bool:
        """True when a strategy's seat is to move and the person has nothing to confirm."""
        return not self.pending and not self.over and self.turn != self.seat

    def legal_moves(self) -> list[Move]:
        """The person's legal moves, from the back end (none when it is not the person's turn)."""
        return list(self.match.legal_moves()) if self.person_to_move else []

    def steps(self) -> list[Step]:
        """The game so far, told step by step (as `replay` tells it; the end is the prompt's)."""
        return [step for steps in self.told for step in steps]

    # -- moves -----------------------------------------------------------------------------------
    def choose(self, move: Move) -> None:
        """The person plays `move` (one of `legal_moves()`); it can be taken back until `confirm`."""
        if not self.person_to_move:
            raise InputError("it is not your turn")
        if move not in self.match.legal_moves():
            raise InputError(f"illegal move {list(move)} ({describe_move(move)})")
        self._play(move)
        self.pending = not self.over

    def undo(self) -> None:
        """Take back the person's move (only before the next player acts): replay the game without it."""
        if not self.pending:
            raise InputError("nothing to take back: only your last move, before the next player acts")
        self.match.close()
        self.history.pop()
        self.records = self.records[:len(self.history) + 1]
        self.told = self.told[:len(self.records)]
        self.match = self._new_match()
        for move, used in self.history:
            self.match.rng.advance(used - self.match.rng.used)
            self.match.play(move)
        self.pending = False
        self._save()

    def confirm(self) -> None:
        """Let the next player act: the person's move stands."""
        self.pending = False

    def others_move(self) -> Move | None:
        """One move of the strategy whose seat is to move (None when it is not a strategy's turn)."""
        if not self.others_to_move:
            return None
        move = self.match.choose()
        self._play(move)
        return move

    def _play(self, move: Move) -> None:
        """Play a move on the back end, log it, and at the end log the result."""
        seat, before = self.turn, self.records[-1]["state"]
        self.history.append((move, self.match.rng.used))
        self.match.play(move)
        record = {"type": "move", "seat": seat, "move": list(move), "state": self.match.state}
        self.records.append(record)
        self.told.append(move_steps(before, record, len(self.history), tuple(self.names)))
        if self.over:
            self.records.append({"type": "end", "scores": self.match.scores, "winners": self.match.winners})
        self._save()

    def _save(self) -> None:
        """The log so far, written whole (a quit mid-game leaves a log that replays to that point)."""
        if self.log_path:
            files.write_text(self.log_path, "".join(json.dumps(record) + "\n" for record in self.records), "--log")

    def close(self) -> None:
        """Free the back end's copy of the match."""
        self.match.close()
