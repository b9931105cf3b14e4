"""Pictures of tangram boards: a coloured text grid for the terminal, and SVG files.

Both draw the board the way people do: y upwards, so the row y = H - 1 is on
top. Each covered cell shows its piece's key (coloured like the piece on a
colour terminal), free cells `.`, marked cells (options) `*`, and cells two
pieces claim `!`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from html import escape

from pysolve.tangram.model import Instance, Placement

CELL = 32  # SVG pixels per cell
GAP = 24  # SVG pixels between boards
COLUMNS = 6  # boards per SVG row


def use_colour(stream: object = None) -> bool:
    """True when `stream` (default stdout) is a terminal and NO_COLOR is not set."""
    stream = stream or sys.stdout
    return not os.environ.get("NO_COLOR") and hasattr(stream, "isatty") and stream.isatty()


def cell_owners(instance: Instance, placements: Iterable[Placement]) -> dict[tuple[int, int], list[str]]:
    """Cell -> names of the pieces covering it (off-board cells dropped)."""
    owners: dict[tuple[int, int], list[str]] = {}
    for placement in placements:
        for x, y in placement.cells():
            if 0 <= x < instance.width and 0 <= y < instance.height:
                owners.setdefault((x, y), []).append(placement.piece)
    return owners


def paint(text: str, colour: str) -> str:
    """`text` on a 24-bit background colour `#rrggbb`, in black or white for contrast."""
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    ink = "30" if red * 299 + green * 587 + blue * 114 > 128_000 else "97"
    return f"\x1b[{ink};48;2;{red};{green};{blue}m{text}\x1b[0m"


def text_grid(instance: Instance, placements: Iterable[Placement],
              marks: Iterable[tuple[int, int]] = (), colour: bool = False) -> str:
    """The board as text rows, top row first, two characters per cell."""
    owners, marked = cell_owners(instance, placements), set(marks)
    rows = []
    for y in reversed(range(instance.height)):
        cells = [_cell_text(instance, owners.get((x, y), []), (x, y) in marked, colour) for x in range(instance.width)]
        rows.append(f"{y:>2} " + ("".join(cells) if colour else " ".join(cells)))
    rows.append("   " + " ".join(str(x % 10) for x in range(instance.width)))
    return "\n".join(rows)


def _cell_text(instance: Instance, names: list[str], marked: bool, colour: bool) -> str:
    """One cell: the piece's key (painted, two wide, when colour is on), `.`, `*` or `!`."""
    if len(names) > 1 or not names:
        text = "!" if names else "*" if marked else "."
        return text + " " if colour else text
    piece = instance.piece(names[0])
    return paint(piece.key + " ", piece.colour) if colour else piece.key


def legend(instance: Instance, colour: bool = False) -> str:
    """One line naming each piece by key, colour swatch, name and size."""
    parts = []
    for piece in instance.pieces:
        key = paint(f" {piece.key} ", piece.colour) if colour else piece.key
        parts.append(f"{key} {piece.name} {piece.width}x{piece.height}")
    return "   ".join(parts)


def svg(instance: Instance, tilings: list[tuple[Placement, ...]], title: str = "") -> str:
    """An SVG picture of one or more boards, pieces in their colours with their keys on them."""
    columns = max(1, min(COLUMNS, len(tilings)))
    rows = max(1, -(-len(tilings) // columns))
    board_w, board_h = instance.width * CELL, instance.height * CELL
    width, height = columns * (board_w + GAP) + GAP, rows * (board_h + GAP) + GAP + 24
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
             f'<title>{escape(title or instance.name)}</title>',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{GAP}" y="18" font-size="14">{escape(title or instance.name)}</text>']
    for index, tiling in enumerate(tilings or [()]):
        left = GAP + (index % columns) * (board_w + GAP)
        top = 24 + GAP + (index // columns) * (board_h + GAP)
        parts.append(_svg_board(instance, tiling, left, top))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _svg_board(instance: Instance, tiling: tuple[Placement, ...], left: int, top: int) -> str:
    """One board at (left, top): grid, then each piece as a coloured rectangle with its key."""
    board_w, board_h = instance.width * CELL, instance.height * CELL
    parts = [f'<g transform="translate({left},{top})">',
             f'<rect width="{board_w}" height="{board_h}" fill="#f4f4f4" stroke="#999"/>']
    parts += [f'<line x1="{x * CELL}" y1="0" x2="{x * CELL}" y2="{board_h}" stroke="#ddd"/>'
              for x in range(1, instance.width)]
    parts += [f'<line x1="0" y1="{y * CELL}" x2="{board_w}" y2="{y * CELL}" stroke="#ddd"/>'
              for y in range(1, instance.height)]
    for placement in tiling:
        piece = instance.piece(placement.piece)
        x, y = placement.x * CELL, (instance.height - placement.y - placement.height) * CELL
        w, h = placement.width * CELL, placement.height * CELL
        parts.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{piece.colour}" '
                     f'stroke="#222" stroke-width="2"><title>{escape(piece.name)} at '
                     f'({placement.x}, {placement.y})</title></rect>')
        parts.append(f'<text x="{x + w / 2:g}" y="{y + h / 2 + 7:g}" font-size="20" font-weight="bold" '
                     f'text-anchor="middle" fill="#111">{escape(piece.key)}</text>')
    parts.append("</g>")
    return "\n".join(parts)
