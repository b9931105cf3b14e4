"""Azul tables as SVG.

Factories, the centre with the first-player marker drawn and named, and per
player the pattern lines, the wall (empty cells show their colour faintly), the floor with the penalty
of every slot, and the score.

A picture is made of parts (`Parts`: a caption, the offer, one group per board) so that a replay page
can keep the parts that did not change from one step to the next and send each distinct part once.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pysolve.azul.draw import how_far
from pysolve.azul.model import CENTRE, FLOOR_SLOTS, LETTERS, MARKER, wall_colour
from pysolve.azul.replay import SLOT_PENALTIES, is_grey, penalty, tile_colour

TILE = 22          # a tile's side
STEP = TILE + 3    # a tile and the gap after it
FACTORY = 78       # horizontal room of one factory
OFFER_TOP = 50     # the offer's top edge (the heading and the caption are above it)
CENTRE_W, CENTRE_H = 240, 116
RADIUS = FACTORY / 2 - 4
BOARDS_TOP = OFFER_TOP + CENTRE_H + 34
BOARD_W, BOARD_H = 340, 236
FILL = ("#2f6fbd", "#f1c40f", "#d64537", "#2d2d2d", "#f4f4f4")
INK = ("#fff", "#333", "#fff", "#fff", "#333")          # letter colour on each tile
HIGHLIGHT = "#e8590c"
FONT = 'font-family="DejaVu Sans, Verdana, sans-serif"'


def defs() -> str:
    """The tiles (one per colour, a faint one per colour for empty wall cells), the marker, an empty slot.

    Groups drawn at the origin, placed by `<use x y>`.
    """
    shapes = []
    box = f'x="0.5" y="0.5" width="{TILE - 1}" height="{TILE - 1}" rx="3"'
    middle = f'x="{TILE / 2:g}" y="{TILE / 2 + 5:g}" text-anchor="middle"'
    for colour, letter in enumerate(LETTERS):
        shapes.append(f'<g id="t{colour}"><rect {box} fill="{FILL[colour]}" stroke="#555"/><text {middle} '
                      f'font-size="13" font-weight="bold" fill="{INK[colour]}" {FONT}>{letter}</text></g>')
        shapes.append(f'<g id="e{colour}"><rect {box} fill="{FILL[colour]}" fill-opacity="0.22" stroke="#bbb"/>'
                      f'<text {middle} font-size="12" fill="#999" {FONT}>{letter.lower()}</text></g>')
    shapes.append(f'<g id="m"><rect {box} fill="#fff" stroke="#000" stroke-width="2"/><text {middle} '
                  f'font-size="15" font-weight="bold" fill="#000" {FONT}>1</text></g>')
    shapes.append(f'<g id="grey"><rect {box} fill="#d5d5d5" stroke="#aaa"/></g>')
    shapes.append(f'<g id="slot"><rect {box} fill="#fff" stroke="#bbb" stroke-dasharray="3 2"/></g>')
    return f"<defs>{''.join(shapes)}</defs>"


def use(shape: str, x: float, y: float) -> str:
    """One tile (or the marker, or an empty slot) at (x, y)."""
    return f'<use href="#{shape}" x="{x:g}" y="{y:g}"/>'


def text(x: float, y: float, words: str, size: int = 13, anchor: str = "start", weight: str = "normal",
         colour: str = "#222") -> str:
    """A line of text."""
    extra = (f' text-anchor="{anchor}"' if anchor != "start" else "") + \
        (f' font-weight="{weight}"' if weight != "normal" else "")
    return f'<text x="{x:g}" y="{y:g}" font-size="{size}"{extra} fill="{colour}" {FONT}>{html.escape(words)}</text>'


def ring(x: float, y: float, width: float, height: float) -> str:
    """The highlight around what a step is about."""
    return (f'<rect x="{x - 3:g}" y="{y - 3:g}" width="{width + 6:g}" height="{height + 6:g}" rx="5" fill="none" '
            f'stroke="{HIGHLIGHT}" stroke-width="3"/>')


@dataclass(frozen=True)
class Parts:
    """A table's picture in parts.

    The caption, the offer, one group per board, the marks (whose turn, what the step is about);
    and its size.
    """

    caption: str
    offer: str
    boards: tuple[str, ...]
    marks: str
    width: int
    height: int

    def all(self) -> tuple[str, ...]:
        """Every part, in drawing order."""
        return (self.caption, self.offer, *self.boards, self.marks)


def layout(players: int, factories: int) -> tuple[int, int]:
    """(width, height) of a table's picture."""
    width = max(factories * FACTORY + CENTRE_W + 26, 2 * BOARD_W + 20)
    return width, BOARDS_TOP + ((players + 1) // 2) * (BOARD_H + 10) + 6


def factory_centre(index: int) -> tuple[float, float]:
    """The middle of factory `index`."""
    return 10 + index * FACTORY + FACTORY / 2, OFFER_TOP + 10 + RADIUS


def centre_corner(factories: int) -> tuple[float, float]:
    """The top-left corner of the centre."""
    return 10 + factories * FACTORY + 8, OFFER_TOP + 2


def board_corner(seat: int) -> tuple[float, float]:
    """The top-left corner of `seat`'s board (two boards a row)."""
    return 10 + (seat % 2) * (BOARD_W + 10), BOARDS_TOP + (seat // 2) * (BOARD_H + 10)


def board_places(seat: int) -> tuple[float, float, float, float]:
    """(pattern lines' left, lines' and wall's top, wall's left, floor's top) of `seat`'s board."""
    x, y = board_corner(seat)
    left, top = x + 10, y + 32
    return left, top, left + 5 * STEP + 14, top + 5 * STEP + 26


def parts(state: dict[str, Any], names: Sequence[str] = (), caption: str = "",
          focus: tuple[Any, ...] = (), seat: int = -1) -> Parts:
    """The picture of `state` in parts; `focus` (a step's) rings what it is about on `seat`'s board or the offer."""
    width, height = layout(state["players"], len(state["factories"]))
    words = text(10, 20, how_far(state), 15, weight="bold") + text(10, 40, caption, 13)
    boards = tuple(board(state, index, names[index] if index < len(names) else "")
                   for index in range(state["players"]))
    return Parts(words, offer(state), boards, marks(state, focus, seat), width, height)


def offer(state: dict[str, Any]) -> str:
    """The factories in a row, then the centre holding its tiles and, until taken, the marker."""
    out = []
    for index, factory in enumerate(state["factories"]):
        cx, cy = factory_centre(index)
        out.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{RADIUS:g}" fill="#f3ead8" stroke="#a08a5c" stroke-width="2"/>')
        held = [colour for colour, count in enumerate(factory) for _ in range(count)]
        for place, colour in enumerate(held):
            out.append(use(f"t{colour}", cx - STEP + (place % 2) * STEP + 1.5, cy - STEP + (place // 2) * STEP + 1.5))
        out.append(text(cx, cy + RADIUS + 16, f"factory {index + 1}", 11, "middle", colour="#555"))
    x, y = centre_corner(len(state["factories"]))
    out.append(f'<rect x="{x}" y="{y}" width="{CENTRE_W}" height="{CENTRE_H}" rx="10" fill="#efe9df" '
               f'stroke="#a08a5c" stroke-width="2"/>')
    out.append(text(x + CENTRE_W / 2, y + CENTRE_H + 16, "centre", 11, "middle", colour="#555"))
    if state["marker"] == CENTRE and not state["over"]:
        out.append(use("m", x + 8, y + 6))
        out.append(text(x + 8 + STEP + 4, y + 22, "the first-player marker", 12, colour="#000"))
    else:
        holder = "out of play" if state["marker"] == CENTRE else f"taken by seat {state['marker']}"
        out.append(text(x + 8, y + 22, f"first-player marker: {holder}", 12, colour="#777"))
    held = [colour for colour, count in enumerate(state["centre"]) for _ in range(count)]
    per_row = (CENTRE_W - 12) // STEP
    for place, colour in enumerate(held):
        out.append(use(f"t{colour}", x + 8 + (place % per_row) * STEP, y + 6 + (1 + place // per_row) * STEP))
    return "".join(out)


def board(state: dict[str, Any], seat: int, name: str) -> str:
    """One player's board: title and score, pattern lines, wall, floor with the slots' penalties."""
    data = state["boards"][seat]
    x, y = board_corner(seat)
    left, top, wall_left, floor_y = board_places(seat)
    out = [f'<rect x="{x}" y="{y}" width="{BOARD_W}" height="{BOARD_H}" rx="8" fill="#fbf8f2" stroke="#c9bfae" '
           f'stroke-width="1.5"/>',
           text(x + 10, y + 20, f"seat {seat}" + (f" ({name})" if name else ""), 13, weight="bold"),
           text(x + BOARD_W - 10, y + 22, f"score {data['score']}", 17, "end", "bold")]
    for row in range(5):
        colour, count = data["lines"][row]
        row_y = top + row * STEP
        for slot in range(row + 1):
            filled = slot >= row + 1 - count
            out.append(use(f"t{colour}" if filled else "slot", left + (4 - row + slot) * STEP, row_y))
        for column in range(5):
            out.append(use(wall_shape(state, data, row, column), wall_left + column * STEP, row_y))
    out.append(text(left, floor_y - 6, "floor", 11, colour="#555"))
    items = data["floor"]
    for slot in range(FLOOR_SLOTS):
        slot_x = left + 44 + slot * STEP
        out.append(text(slot_x + TILE / 2, floor_y - 6, f"-{SLOT_PENALTIES[slot]}", 10, "middle", colour="#a33"))
        shape = "slot" if slot >= len(items) else ("m" if items[slot] == MARKER else f"t{items[slot]}")
        out.append(use(shape, slot_x, floor_y))
    out.append(text(left + 44 + FLOOR_SLOTS * STEP + 8, floor_y + 16, f"= {-penalty(items)}", 13,
                    colour="#a33", weight="bold"))
    if state["marker"] == seat:
        out.append(text(x + 10, floor_y + 38, "holds the first-player marker (1)", 11, colour="#000"))
    return "".join(out)


def wall_shape(state: dict[str, Any], data: dict[str, Any], row: int, column: int) -> str:
    """The shape of a wall cell: its tile, else the colour printed there faintly (plain grey on a grey wall)."""
    if data["wall"][row][column]:
        return f"t{tile_colour(state, data, row, column)}"
    return "grey" if is_grey(state) else f"e{wall_colour(row, column)}"


def marks(state: dict[str, Any], focus: tuple[Any, ...], seat: int) -> str:
    """The seat to move framed in blue (and named), and a ring around what the step is about."""
    out = []
    if state["turn"] in range(state["players"]):
        x, y = board_corner(state["turn"])
        out.append(f'<rect x="{x}" y="{y}" width="{BOARD_W}" height="{BOARD_H}" rx="8" fill="none" '
                   f'stroke="#2f6fbd" stroke-width="3"/>')
        out.append(text(x + BOARD_W - 10, y + BOARD_H - 8, "to move", 12, "end", "bold", "#2f6fbd"))
    if seat < 0 or not focus:
        return "".join(out)
    left, top, wall_left, floor_y = board_places(seat)
    kind = focus[0]
    if kind == "source":
        source, _, destination = focus[1:]
        if source == CENTRE:
            out.append(ring(*centre_corner(len(state["factories"])), CENTRE_W, CENTRE_H))
        else:
            cx, cy = factory_centre(source)
            out.append(ring(cx - RADIUS, cy - RADIUS, 2 * RADIUS, 2 * RADIUS))
        if destination:
            row = destination - 1
            out.append(ring(left + (4 - row) * STEP, top + row * STEP, (row + 1) * STEP - 3, TILE))
    if kind == "wall":
        out.append(ring(wall_left + focus[2] * STEP, top + focus[1] * STEP, TILE, TILE))
    if kind == "line":  # a full line whose owner chooses its tile's column
        row = focus[1]
        out.append(ring(left + (4 - row) * STEP, top + row * STEP, (row + 1) * STEP - 3, TILE))
    if kind == "floor" or (kind == "source" and focus[3] == 0):
        out.append(ring(left + 44, floor_y, FLOOR_SLOTS * STEP - 3, TILE))
    if kind == "bonus":
        out.append(ring(wall_left, top, 5 * STEP - 3, 5 * STEP - 3))
    return "".join(out)


def document(picture: Parts, title: str = "") -> str:
    """A whole SVG document of a picture's parts."""
    label = f"<title>{html.escape(title)}</title>" if title else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {picture.width} {picture.height}" '
            f'width="{picture.width}" height="{picture.height}">{label}{defs()}'
            f'<rect width="100%" height="100%" fill="#fff"/>{"".join(picture.all())}</svg>\n')


def table_svg(state: dict[str, Any], names: Sequence[str] = (), caption: str = "",
              focus: tuple[Any, ...] = (), seat: int = -1) -> str:
    """The table of `state` as one SVG document."""
    return document(parts(state, names, caption, focus, seat), caption or "Azul")
