"""The tangram game's state and rules of play, with every legality question put to a back end.

The game never decides itself where a piece may go: the option cells and
the hints (a completion search) are questions put to the puzzle it is given
(`PUZZLE`), on the back end the player chose (Prolog by default). The game
is handed its puzzle rather than importing it, so the puzzle can start the
game without a circle. This module is the game without a screen;
`play_app` is its Textual face (and draws it), `pysolve.web.tangram` its
web face.

Pieces are beside the board, temporarily on it (can be selected and moved
again) or definitively on it (fixed, marked X). A selected piece that was on
the board is *lifted*: its cells are free for its options until it is put
down again, taken off (Escape) or the selection changes (it goes back).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pysolve import backends
from pysolve.errors import InputError, SearchLimitExceeded
from pysolve.puzzle import Puzzle
from pysolve.tangram.model import (
    Instance,
    Placement,
    Question,
    Tiling,
    answered,
    check_partial,
    placement_of,
    tiling_of,
)

HINT_SECONDS = 10.0  # a hint is a bounded completion search
COMMAND_KEYS = {"t": "temporary placement", "h": "hint", "u": "undo", "q": "quit"}
Cell = tuple[int, int]
Board = dict[str, Placement]


def piece_options(puzzle: Puzzle, instance: Instance, placed: tuple[Placement, ...], piece: str,
                  backend: str) -> list[Placement]:
    """Where `piece` can go given the placed pieces, asked of `backend` through `puzzle`: the `*` cells."""
    answer = answered(puzzle.solve(Question(instance, "options", placed=placed, piece=piece), backend))
    return [placement_of(data, instance) for data in answer.solutions]


def completion(puzzle: Puzzle, instance: Instance, placed: tuple[Placement, ...], backend: str,
               seconds: float = HINT_SECONDS) -> Tiling | None:
    """A tiling extending `placed` found on `backend` within `seconds`, or None (a dead end).

    The search fills the first empty cell first; SearchLimitExceeded when it ran out of time."""
    question = Question(instance, "first", "cell", placed=placed, seconds=seconds)
    answer = answered(puzzle.solve(question, backend))
    return tiling_of(instance, answer.solutions[0]) if answer.solutions else None


def check_keys(instance: Instance) -> None:
    """Raise InputError when a piece's key is one of the game's command keys."""
    for piece in instance.pieces:
        if piece.key.lower() in COMMAND_KEYS:
            raise InputError(f"piece {piece.name}'s key {piece.key!r} is the game's key for "
                             f"{COMMAND_KEYS[piece.key.lower()]}; give it another key in {instance.name}")


@dataclass
class Game:
    """One game on an instance: the board, the selection and its options, hints, undo history."""

    puzzle: Puzzle  # answers every legality question (PUZZLE)
    instance: Instance
    backend: str
    board: Board = field(default_factory=dict)  # pieces on the board (not the selected, lifted one)
    fixed: set[str] = field(default_factory=set)  # pieces placed for good
    selected: str | None = None
    lifted: Placement | None = None  # where the selected piece lay before it was selected
    preview: Placement | None = None
    choices: list[Placement] = field(default_factory=list)  # the selected piece's options
    cursor: Cell = (0, 0)
    hint: tuple[Placement, ...] = ()
    message: str = "select a piece with its key"
    history: list[Board] = field(default_factory=list)  # boards to undo back to

    @classmethod
    def start(cls, puzzle: Puzzle, instance: Instance, backend: str) -> Game:
        """A new game of `puzzle` on `instance`, the rules asked of `backend`.

        The file's `place` lines are given pieces, fixed. Bad input raises InputError."""
        check_keys(instance)
        check_partial(instance, instance.placed)
        backends.check_name(backend)
        backends.require(backend)
        game = cls(puzzle, instance, backend, {p.piece: p for p in instance.placed}, {p.piece for p in instance.placed})
        if game.waiting:  # ask the back end once now, so a broken one fails before the screen starts
            piece_options(puzzle, instance, game.placed(), game.waiting[0], backend)
        return game

    # ------------------------------------------------------------ what the screen shows

    @property
    def won(self) -> bool:
        """True when every piece is placed for good."""
        return len(self.fixed) == len(self.instance.pieces)

    @property
    def waiting(self) -> list[str]:
        """Pieces beside the board (not on it and not previewed), in instance order."""
        shown = set(self.board) | ({self.preview.piece} if self.preview else set())
        return [name for name in self.instance.names if name not in shown]

    @property
    def option_cells(self) -> set[Cell]:
        """The bottom-left cells of the selected piece's options (marked `*`)."""
        return {(p.x, p.y) for p in self.choices}

    def placed(self) -> tuple[Placement, ...]:
        """The pieces lying on the board (a lifted piece where it lay), in instance order."""
        pieces = list(self.board.values()) + ([self.lifted] if self.lifted else [])
        return self.instance.sort(pieces)

    def key_of(self, name: str) -> str:
        """The selection key of a piece."""
        return self.instance.piece(name).key

    def status(self) -> str:
        """The selection line: the selected piece, or none (the original game's wording)."""
        if self.won:
            return "selected piece: none - solved"
        if self.selected is None:
            return "selected piece: none"
        return f"selected piece: {self.selected} ({self.key_of(self.selected)}), {len(self.choices)} option(s) marked *"

    # ------------------------------------------------------------ the player's moves

    def piece_for_key(self, character: str) -> str | None:
        """The piece selected by the key `character`, or None."""
        names = [p.name for p in self.instance.pieces if p.key == character]
        return names[0] if names else None

    def select(self, name: str) -> None:
        """Select a piece beside the board or lying temporarily on it; fixed pieces refuse."""
        if self.won or name == self.selected:
            return
        if name in self.fixed:
            self.message = f"{name} is placed for good (X) and cannot be selected"
            return
        self._put_back()
        self.hint = ()
        self.lifted = self.board.pop(name, None)
        self.selected, self.preview = name, self.lifted
        self.choices = piece_options(self.puzzle, self.instance, tuple(self.board.values()), name, self.backend)
        self.message = (f"{name}: click a * (or arrows and space) to preview, then t or Enter" if self.choices
                        else f"{name} fits nowhere on this board: Escape, undo, or move a temporary piece")

    def choose(self, cell: Cell) -> None:
        """Preview the selected piece at an option cell (again: its next orientation); other cells are ignored."""
        if self.won:
            return
        self.cursor = cell
        at_cell = [p for p in self.choices if (p.x, p.y) == cell]
        if self.selected is None:
            self._select_lying(cell)
        elif not at_cell:
            self.message = f"{cell[0]},{cell[1]} is not an option for {self.selected}: choose a * cell"
        else:
            following = at_cell.index(self.preview) + 1 if self.preview in at_cell else 0
            self.preview = at_cell[following % len(at_cell)]
            self.message = f"{self.selected} previewed at {cell[0]},{cell[1]}: t temporary, Enter definitive"

    def place_at(self, cell: Cell) -> None:
        """Ctrl+click: preview the selected piece at an option cell and put it down for now (the original's Ctrl)."""
        if self.won or self.selected is None or cell not in self.option_cells:
            self.choose(cell)
            return
        if self.preview is None or (self.preview.x, self.preview.y) != cell:
            self.choose(cell)
        self.place(definitive=False)

    def _select_lying(self, cell: Cell) -> None:
        """With nothing selected, a click on a piece lying on the board selects it."""
        for placement in self.board.values():
            if cell in placement.cells():
                self.select(placement.piece)
                return
        self.message = "select a piece first: press its key"

    def choose_cursor(self) -> None:
        """Preview at the cursor (the keyboard's click)."""
        self.choose(self.cursor)

    def move_cursor(self, dx: int, dy: int) -> None:
        """Move the cursor one cell (y upwards), staying on the board."""
        if self.won:
            return
        x, y = self.cursor
        self.cursor = (min(max(x + dx, 0), self.instance.width - 1), min(max(y + dy, 0), self.instance.height - 1))

    def place(self, definitive: bool) -> None:
        """Put the previewed piece down, temporarily or for good; with nothing previewed the board stays as it is."""
        if self.won:
            return
        if self.selected is None:
            self.message = "select a piece first: press its key"
            return
        if self.preview is None:
            self.message = (f"nothing previewed: choose a * cell for {self.selected} first "
                            "(click it, or arrows and space)")
            return
        before, piece = self._before(), self.preview
        self.board[piece.piece] = piece
        if definitive:
            self.fixed.add(piece.piece)
            self.history.clear()  # a definitive placement is for good: undo stops here
        else:
            self.history.append(before)
        self._deselect()
        how = "for good" if definitive else "temporarily"
        self.message = "Solved! Every piece is placed for good." if self.won else \
            f"{piece.piece} placed {how} at {piece.x},{piece.y}"

    def escape(self) -> None:
        """Deselect; the selected piece's preview, or its temporary placement, goes back beside the board."""
        if self.won:
            return
        self.hint = ()
        if self.selected is None:
            self.message = "select a piece with its key"
            return
        name = self.selected
        if self.lifted is not None:
            self.history.append(self._before())
        self._deselect()
        self.message = f"{name} is back beside the board"

    def undo(self) -> None:
        """Take back the last temporary placement or removal (definitive placements are for good)."""
        if self.won:
            return
        self._put_back()
        self.hint = ()
        if not self.history:
            self.message = "nothing to undo (definitive placements are for good)"
            return
        self.board = self.history.pop()
        self.message = "undone"

    def ask_hint(self) -> None:
        """Ask the back end whether the board as it lies can still be completed, and show one completion."""
        if self.won:
            return
        placed = self.placed()
        try:
            found = completion(self.puzzle, self.instance, placed, self.backend)
        except SearchLimitExceeded:
            self.hint, self.message = (), f"hint: no answer within {HINT_SECONDS:g} s"
            return
        if found is None:
            self.hint = ()
            self.message = "dead end: the board cannot be completed from here (undo or move a temporary piece)"
            return
        on_board = {p.piece for p in placed}
        self.hint = tuple(p for p in found if p.piece not in on_board)
        where = ", ".join(f"{p.piece} {p.x},{p.y}" for p in self.hint)
        self.message = (f"hint ({self.backend}): it can be completed: {where}" if where
                        else "hint: the board is complete")

    # ------------------------------------------------------------ helpers

    def _before(self) -> Board:
        """The board as it lies (with a lifted piece where it lay): what undo goes back to."""
        return {p.piece: p for p in self.placed()}

    def _put_back(self) -> None:
        """End the selection; a lifted piece goes back where it lay."""
        if self.lifted is not None:
            self.board[self.lifted.piece] = self.lifted
        self._deselect()

    def _deselect(self) -> None:
        self.selected, self.lifted, self.preview, self.choices = None, None, None, []

