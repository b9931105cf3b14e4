"""Azul as a tree to search, modelled as OpenSpiel models a game: a `Game` makes `State`s, a State has children.

A `State` is one position of an engine that works on `Table`s (the Python
engine, or the miniKanren one, which subclasses it). `clone()` copies it,
`child(action)` is the position after one action, and the parent never
changes. Chance is explicit: before the first round the opening seat is
drawn, and every tile of a deal is drawn one at a time; at those nodes
`current_player` is `CHANCE`, `chance_outcomes()` lists what can come out
with its weight (a seat 1 each, a colour the number of its tiles in the
bag), and `apply_chance(outcome)` makes it so. The default chance policy
is the game's seeded `RandomStream` (`sample_chance(stream)`): it draws what
the back ends draw, so a game driven by `child` and the stream is the
seeded game of `play_match`, move by move.

On the grey wall a round's end holds decision nodes too: `is_tiling` is
True while `current_player` chooses the column of its top full pattern
line, and `legal_moves()` are the columns it may take, (WALL, row, column).
"""

from __future__ import annotations

from typing import Any

from pysolve.azul.model import STANDARD, Move, RandomStream, check_players, check_variant
from pysolve.azul.python import PythonEngine, Table, draw
from pysolve.errors import InputError

CHANCE = -2    # current_player while the opening seat or a dealt tile is drawn
TERMINAL = -1  # current_player once the game is over (the canonical state's turn)
OPENING, DEALING, MOVING = "opening", "dealing", "moving"  # what the next action is
PYTHON_ENGINE = PythonEngine()


class Game:
    """Azul for `players` seats on an engine that works on `Table`s.

    Azul for `players` seats on an engine that works on `Table`s (default: the Python engine), of `variant`
    (`standard`, or `grey`: the rulebook's variant, any colour in any wall column).
    """

    def __init__(self, players: int = 2, engine: PythonEngine = PYTHON_ENGINE, variant: str = STANDARD) -> None:
        self.players = check_players(players)
        self.engine = engine
        self.variant = check_variant(variant)

    def new_initial_state(self) -> State:
        """The position before anything happened: a chance node drawing the opening seat."""
        return State(self.engine, Table(self.players, self.variant), OPENING)


class State:
    """One position of a game: a seat to move, a chance node, or the end."""

    __slots__ = ("_moves", "engine", "phase", "table")

    def __init__(self, engine: PythonEngine, table: Table, phase: str) -> None:
        self.engine, self.table, self.phase = engine, table, phase
        self._moves: list[Move] | None = None  # the legal moves, once asked

    @classmethod
    def from_json(cls, state: dict[str, Any], engine: PythonEngine = PYTHON_ENGINE) -> State:
        """The position of a canonical state (checked first): a seat to move, or the end."""
        return cls(engine, engine.load(state), MOVING)

    def to_json(self) -> dict[str, Any]:
        """The canonical, JSON-able state (at a chance node: the tiles dealt so far)."""
        return self.engine.export(self.table)

    def clone(self) -> State:
        """An independent copy: what happens to one does not happen to the other."""
        other = State(self.engine, self.table.copy(), self.phase)
        other._moves = self._moves
        return other

    def child(self, action: int | Move) -> State:
        """The position after `action` (a move, or a chance outcome at a chance node); this one stays."""
        return self.clone().apply(action)

    # -- who acts and how ---------------------------------------------------
    @property
    def current_player(self) -> int:
        """The seat to move, CHANCE while a seat or a tile is drawn, TERMINAL once over."""
        return self.table.turn if self.phase == MOVING else CHANCE

    @property
    def is_chance_node(self) -> bool:
        """True while the opening seat or a tile of a deal is to be drawn."""
        return self.phase != MOVING

    @property
    def is_tiling(self) -> bool:
        """True while a grey wall's owner chooses a column: the moves are (WALL, row, column)."""
        return self.table.tiling

    @property
    def is_terminal(self) -> bool:
        """True once the game is over (bonuses added)."""
        return self.table.over

    def legal_moves(self) -> list[Move]:
        """The moves of the seat to move, in canonical order (none at a chance node or the end)."""
        if self.phase != MOVING:
            return []
        if self._moves is None:
            self._moves = self.engine.legal_moves(self.table)
        return self._moves

    def chance_outcomes(self) -> list[tuple[int, int]]:
        """(outcome, weight) of a chance node: each seat 1 to open; each colour its tiles in the bag."""
        if self.phase == OPENING:
            return [(seat, 1) for seat in range(self.table.players)]
        if self.phase == DEALING:
            return [(colour, count) for colour, count in enumerate(self.engine.deal_bag(self.table)) if count]
        return []

    def sample_chance(self, stream: RandomStream) -> int:
        """The default chance policy: the outcome the stream's next number draws, as on every back end."""
        if self.phase == OPENING:
            return stream.below(self.table.players)
        if self.phase == DEALING:
            return draw(self.engine.deal_bag(self.table), stream.next())
        raise InputError("not a chance node: a seat is to move or the game is over")

    # -- changing this state in place ---------------------------------------------------
    def apply(self, action: int | Move) -> State:
        """Apply a move or, at a chance node, a chance outcome, in place; return this state."""
        if self.phase == MOVING:
            return self.apply_move(action)  # type: ignore[arg-type]
        return self.apply_chance(action)  # type: ignore[arg-type]

    def apply_move(self, move: Move) -> State:
        """Play a legal move in place and return this state.

        Play a legal move in place (the turn passes; the offer's end tiles the walls, a column choice goes on
        tiling them); return this state.
        """
        if move not in self.legal_moves():
            raise InputError(f"illegal move {move!r} in this state")
        self._moves = None
        if self.engine.take_turn(self.table, move):
            self.phase = DEALING
        return self

    def apply_chance(self, outcome: int) -> State:
        """Make a chance node come out as `outcome` (a seat, or a colour in the bag) in place; return this state."""
        table = self.table
        if self.phase == DEALING:
            possible = outcome in range(5) and self.engine.deal_bag(table)[outcome] > 0
        else:
            possible = self.phase == OPENING and outcome in range(table.players)
        if not possible:
            raise InputError(f"{outcome!r} is not an outcome of this chance node")
        if self.phase == OPENING:
            table.turn = table.starter = outcome
            self.phase = DEALING
            return self
        self.engine.deal(table, outcome)
        if not self.engine.dealing(table):
            self.phase = MOVING
        return self

    # -- the score ------------------------------------------------------------------------
    def returns(self) -> list[int]:
        """Every seat's score so far (the final scores once terminal)."""
        return list(self.table.scores)

    def winners(self) -> list[int]:
        """The seats that win (or lead): highest score, then more complete rows, else shared."""
        return self.engine.winners(self.table)

    def __repr__(self) -> str:
        table = self.table
        who = {CHANCE: f"chance ({self.phase})", TERMINAL: "over"}.get(self.current_player,
                                                                     f"seat {self.current_player}")
        return f"<Azul state: round {table.round}, {table.moves} moves, {who}, scores {table.scores}>"

