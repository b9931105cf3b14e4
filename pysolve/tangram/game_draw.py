"""Pictures of a tangram game for the terminal: the board and the pieces beside it, as Rich text.

The board is drawn the way people draw it (y upwards, row H - 1 on top),
two characters per cell after a three-character row label: a piece lying
temporarily shows its key on its colour, a piece placed for good its key and `X`,
the preview is a ghost `▒▒` in the piece's colour, hint cells the key in
the piece's colour (over option cells `*`), free cells `.`; the cursor is reversed.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.color import Color

from pysolve.tangram.game import Cell, Game
from pysolve.tangram.model import Instance, Placement

LABEL = 3  # characters of the row label left of the board
CELL_WIDTH = 2  # characters per cell
TRAY_WIDTH = 48  # characters the pieces beside the board may take per shelf
FREE = Style(color="grey50")
OPTION = Style(color="bright_yellow", bold=True)


def piece_style(colour: str) -> Style:
    """Black or white text on the piece's colour, whichever reads better."""
    ink = Color.parse(colour).get_contrast_text(1.0).hex
    return Style(color=ink, bgcolor=colour, bold=True)


def board_size(instance: Instance) -> tuple[int, int]:
    """Width and height in characters of the drawn board (with labels)."""
    return LABEL + CELL_WIDTH * instance.width, instance.height + 1


def cell_at(instance: Instance, column: int, row: int) -> Cell | None:
    """The board cell under a character position of the drawn board, or None (labels, outside)."""
    x, y = (column - LABEL) // CELL_WIDTH, instance.height - 1 - row
    if column < LABEL or not (0 <= x < instance.width and 0 <= y < instance.height):
        return None
    return x, y


def cell_position(instance: Instance, cell: Cell) -> tuple[int, int]:
    """The character position (column, row) of a board cell in the drawn board: where to click it."""
    return LABEL + CELL_WIDTH * cell[0], instance.height - 1 - cell[1]


def _covering(placements: list[Placement] | tuple[Placement, ...]) -> dict[Cell, Placement]:
    return {cell: placement for placement in placements for cell in placement.cells()}


def board_text(game: Game) -> Text:
    """The board with its pieces, preview, options, hint and cursor."""
    lying = _covering(list(game.board.values()))
    ghost = _covering([game.preview] if game.preview else [])
    hinted = _covering(game.hint)
    options = game.option_cells
    text = Text()
    for y in reversed(range(game.instance.height)):
        text.append(f"{y:>2} ", FREE)
        for x in range(game.instance.width):
            look, style = _cell_look(game, (x, y), lying, ghost, hinted, options)
            if (x, y) == game.cursor and not game.won:
                style += Style(reverse=True)
            text.append(look, style)
        text.append("\n")
    text.append(" " * LABEL + "".join(f"{x % 10:<{CELL_WIDTH}}" for x in range(game.instance.width)), FREE)
    return text


def _cell_look(game: Game, cell: Cell, lying: dict[Cell, Placement], ghost: dict[Cell, Placement],
               hinted: dict[Cell, Placement], options: set[Cell]) -> tuple[str, Style]:
    """The two characters and style of one cell."""
    if cell in ghost:
        return "▒▒", Style(color=game.instance.piece(ghost[cell].piece).colour, bold=True)
    if cell in lying:
        piece = game.instance.piece(lying[cell].piece)
        return f"{piece.key}{'X' if piece.name in game.fixed else ' '}", piece_style(piece.colour)
    if cell in hinted:
        piece = game.instance.piece(hinted[cell].piece)
        return f"{piece.key}·", Style(color=piece.colour, italic=True)
    if cell in options:
        return "* ", OPTION
    return ". ", FREE


@dataclass(frozen=True)
class Block:
    """A piece beside the board: its label line and its rectangle of cells."""

    label: str
    key: str
    colour: str
    width: int
    height: int
    selected: bool

    @property
    def columns(self) -> int:
        """Characters the block takes across."""
        return max(len(self.label), CELL_WIDTH * self.width)

    def line(self, row: int) -> tuple[str, Style]:
        """Row `row` of the block: the label, a row of the piece, or blank."""
        if row == 0:
            style = Style(reverse=True, bold=True) if self.selected else Style(bold=True)
            return self.label.ljust(self.columns), style
        if row <= self.height:
            return (f"{self.key} " * self.width).ljust(self.columns), piece_style(self.colour)
        return " " * self.columns, Style()


def status_text(game: Game) -> Text:
    """The selection line, the selected piece's name on its colour."""
    status = game.status()
    if game.selected is None or game.won:
        return Text(status)
    name = f"selected piece: {game.selected}"
    text = Text("selected piece: ")
    text.append(game.selected, piece_style(game.instance.piece(game.selected).colour))
    text.append(status[len(name):])
    return text


def tray_text(game: Game) -> Text:
    """The pieces beside the board, each with its key and name over its shape, packed on shelves."""
    blocks = [Block(f"{p.key} {p.name}", p.key, p.colour, p.width, p.height, p.name == game.selected)
              for p in (game.instance.piece(name) for name in game.waiting)]
    text = Text("beside the board:\n" if blocks else "beside the board: nothing\n", Style(dim=True))
    for shelf in _shelves(blocks):
        for row in range(1 + max(block.height for block in shelf)):
            for block in shelf:
                text.append(*block.line(row))
                text.append(" ")
            text.append("\n")
    return text


def _shelves(blocks: list[Block]) -> list[list[Block]]:
    """Blocks in order, a new shelf whenever the next one would pass TRAY_WIDTH."""
    shelves: list[list[Block]] = []
    used = TRAY_WIDTH
    for block in blocks:
        if used + block.columns + 1 > TRAY_WIDTH:
            shelves.append([])
            used = 0
        shelves[-1].append(block)
        used += block.columns + 1
    return shelves
