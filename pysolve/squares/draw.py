"""Pictures of squares: solutions as text and SVG, and the HTML replay of a search trace.

Pieces are drawn as squares. Under the insect rule each edge shows half an
insect in its colour: a head (round, with eyes) or a body (a long striped
abdomen), so a seam matches when a head meets a body of the same colour.
Under the eternity rule each edge is a coloured triangle (grey the frame).
Each piece's shapes are drawn once at turn 0 as an SVG `<g>` (`p<ID>`); a
placed piece is a `<use>` of it, turned about its centre, so the SVG and the
replays (this module's page and the web's) share it. Its words, the edge
labels and the piece's number, are a group for each turn (`n<ID>-<TURNS>`),
placed unturned over it, so that they read upright (a 6 never passes for a
9): the number in a disc at the centre, each label out towards its edge.
"""

from __future__ import annotations

import html
import json
from collections.abc import Collection, Sequence
from typing import Any

from pysolve.squares.model import ETERNITY, FRAME, Grid, Instance, Label, Piece

SIZE = 100  # one piece, in SVG units
PALETTE = ("#d62728", "#7b3fa0", "#f2c81d", "#2ca02c", "#1f77b4", "#ff7f0e",
           "#17becf", "#8c564b", "#e377c2", "#bcbd22", "#393b79", "#637939")
INSECT_COLOURS = {"R": "#d62728", "M": "#7b3fa0", "A": "#f2c81d", "V": "#2ca02c"}
FRAME_COLOUR = "#9a9a9a"
NUMBER_RADIUS = 12  # the disc under a piece's number, about the centre
ETERNITY_LABEL = (50, 20)  # the middle of the North edge's label: inside the triangle, clear of the disc
INSECT_LABEL = (77, 10)  # the middle of the North edge's label: beside the half insect, towards the corner


# ---------------------------------------------------------------- text

def text_grid(instance: Instance, grid: Grid, marks: Collection[tuple[int, int]] = ()) -> str:
    """A solution drawn as boxes of text.

    A solution as boxes: each piece's edges around its id (and its turns after a slash); the cells (row,
    column) in `marks` with a star in each corner (where two solutions differ, in `pysolve check`)."""
    edges = [[instance.piece(p).turned(t) for p, t in row] for row in grid]
    names = [[f"{p}/{t}" for p, t in row] for row in grid]
    side = max(len(str(label)) for label in instance.labels())
    width = max(2 * side + 2 + max(len(name) for row in names for name in row), 7)
    rule = "+" + "+".join("-" * width for _ in grid[0]) + "+"

    def outer(r: int, c: int, label: Label) -> str:  # a top or bottom line of a box: its corners starred if marked
        text = str(label).center(width)
        return f"*{text[1:-1]}*" if (r, c) in marks else text

    lines = [rule]
    for r, (row_edges, row_names) in enumerate(zip(edges, names)):
        lines.append("|" + "|".join(outer(r, c, e[0]) for c, e in enumerate(row_edges)) + "|")
        lines.append("|" + "|".join(
            str(e[3]).ljust(side) + name.center(width - 2 * side) + str(e[1]).rjust(side)
            for e, name in zip(row_edges, row_names)) + "|")
        lines.append("|" + "|".join(outer(r, c, e[2]) for c, e in enumerate(row_edges)) + "|")
        lines.append(rule)
    return "\n".join(lines)


# ---------------------------------------------------------------- SVG pieces

def label_styles(instance: Instance) -> dict[Label, tuple[str, bool]]:
    """Label -> (colour, is a head); eternity colours count as heads (they are drawn alike)."""
    if instance.rule == ETERNITY:
        colours = [label for label in instance.labels() if label != FRAME]
        styles = {label: (PALETTE[i % len(PALETTE)], True) for i, label in enumerate(colours)}
        styles[FRAME] = (FRAME_COLOUR, True)
        return styles
    styles = {}
    for i, (head, body) in enumerate(instance.pairs):
        colour = INSECT_COLOURS.get(str(head), PALETTE[i % len(PALETTE)])
        styles[head], styles[body] = (colour, True), (colour, False)
    return styles


def north_half_insect(colour: str, head: bool) -> str:
    """Half an insect on the North edge of a piece (a head, or a striped body)."""
    mid = SIZE / 2
    if head:
        return (f'<path d="M{mid - 17},0 A17,17 0 0 0 {mid + 17},0 Z" fill="{colour}" stroke="#222"/>'
                f'<circle cx="{mid - 7}" cy="8" r="3" fill="#fff"/><circle cx="{mid + 7}" cy="8" r="3" fill="#fff"/>')
    return (f'<path d="M{mid - 15},0 C{mid - 15},34 {mid + 15},34 {mid + 15},0 Z" fill="{colour}" stroke="#222"/>'
            f'<path d="M{mid - 13},8 H{mid + 13} M{mid - 10},16 H{mid + 10}" stroke="#222" stroke-width="2"/>')


def north_triangle(colour: str) -> str:
    """An eternity-style edge: the triangle from the North edge to the centre."""
    return f'<path d="M0,0 H{SIZE} L{SIZE / 2},{SIZE / 2} Z" fill="{colour}" stroke="#333"/>'


def piece_group(instance: Instance, piece: Piece, styles: dict[Label, tuple[str, bool]]) -> str:
    """A piece's shapes at turn 0 (no words) as an SVG group with id `p<ID>`."""
    parts = [f'<g id="p{piece.id}"><rect width="{SIZE}" height="{SIZE}" fill="#f7f1e3" stroke="#333"/>']
    for side, label in enumerate(piece.edges):
        colour, head = styles[label]
        shape = north_triangle(colour) if instance.rule == ETERNITY else north_half_insect(colour, head)
        parts.append(f'<g transform="rotate({90 * side} 50 50)">{shape}</g>')
    parts.append("</g>")
    return "".join(parts)


def label_place(instance: Instance, side: int) -> tuple[float, float]:
    """The middle of an edge's label.

    The middle of the label of the edge on `side` (0 North, clockwise): the North place turned about the
    centre."""
    north: tuple[float, float] = ETERNITY_LABEL if instance.rule == ETERNITY else INSECT_LABEL
    x, y = north
    half = SIZE / 2
    for _ in range(side):
        x, y = half - (y - half), half + (x - half)  # a quarter turn clockwise (y grows downwards)
    return x, y


def words_group(instance: Instance, piece: Piece, turns: int) -> str:
    """A turned piece's words, upright, as an SVG group.

    The words of a piece turned `turns` times, upright, as an SVG group with id `n<ID>-<TURNS>`: each edge's
    label by its edge, and the piece's number in a disc at the centre."""
    parts = [f'<g id="n{piece.id}-{turns}" font-family="sans-serif" text-anchor="middle">']
    for side, label in enumerate(piece.turned(turns)):
        x, y = label_place(instance, side)
        parts.append(f'<text x="{x:g}" y="{y + 4:g}" font-size="11">{html.escape(str(label))}</text>')
    parts.append(f'<circle cx="50" cy="50" r="{NUMBER_RADIUS}" fill="#fff" fill-opacity="0.9" stroke="#333"/>'
                 f'<text x="50" y="55" font-size="14" font-weight="bold">{piece.id}</text></g>')
    return "".join(parts)


def defs(instance: Instance) -> str:
    """`<defs>` with a group of each piece's shapes (`p<ID>`) and of its words at each turn (`n<ID>-<TURNS>`)."""
    styles = label_styles(instance)
    return "<defs>" + "".join(piece_group(instance, piece, styles)
                              + "".join(words_group(instance, piece, turns) for turns in range(4))
                              for piece in instance.pieces) + "</defs>"


def placed(piece: int, turns: int, row: int, col: int) -> str:
    """A piece turned and placed in a cell, as SVG.

    A piece turned `turns` quarter turns clockwise in cell (row, col): a `<use>` of its shapes, turned, and
    one of its words at that turn, unturned."""
    at = f"translate({col * SIZE} {row * SIZE})"
    return (f'<use href="#p{piece}" transform="{at} rotate({90 * turns} 50 50)"/>'
            f'<use href="#n{piece}-{turns}" transform="{at}"/>')


def svg_grid(instance: Instance, grid: Grid) -> str:
    """A solution as a standalone SVG document."""
    width, height = len(grid[0]) * SIZE, len(grid) * SIZE
    cells = "".join(placed(p, t, r, c) for r, row in enumerate(grid) for c, (p, t) in enumerate(row))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-4 -4 {width + 8} {height + 8}" '
            f'width="{width + 8}" height="{height + 8}">{defs(instance)}{cells}</svg>\n')


# ---------------------------------------------------------------- the replay

REPLAY_SCRIPT = """
const events = DATA.events, cols = DATA.cols, board = document.getElementById('board');
let next = 0, timer = null, found = 0, last = null, note = '';
const cells = [], at = {};  // at: a node's position, for its backtrack
function show() {
  document.getElementById('where').textContent =
    `event ${next} of ${events.length}, solutions so far: ${found}${note}`;
}
function used(href, transform) {
  const use = document.createElementNS('http://www.w3.org/2000/svg', 'use');
  use.setAttribute('href', href);
  use.setAttribute('transform', transform);
  return board.appendChild(use);
}
function put(pos, piece, turns) {  // the piece's shapes turned, its words upright over them
  const at = `translate(${(pos % cols) * 100} ${Math.floor(pos / cols) * 100})`;
  const uses = [used('#p' + piece, `${at} rotate(${90 * turns} 50 50)`), used(`#n${piece}-${turns}`, at)];
  cells[pos] = {uses, piece, turns};
}
function remove(cell) { cell.uses.forEach(use => use.remove()); }
function clear() { cells.forEach(c => c && remove(c)); cells.length = 0; }
function apply(event) {  // an event of pysolve's trace format
  note = '';
  board.classList.remove('solved');
  if (event.e === 'enter') {
    const move = event.move, pos = (move.row - 1) * cols + move.col - 1;
    put(pos, move.piece, move.turns);
    at[event.id] = pos;
  } else if (event.e === 'backtrack') {
    remove(cells[at[event.id]]);
    cells[at[event.id]] = null;
  } else if (event.e === 'solution') {  // a solution: keep it, show it, and wait for play or step
    found += 1;
    last = cells.map(c => [c.piece, c.turns]);
    board.classList.add('solved');
    note = ` (solution ${found}: paused, press play to go on)`;
    pause();
  }
}
function finish() {  // the end of the trace: the board shows the last solution found
  pause();
  clear();
  if (last) { last.forEach(([piece, turns], pos) => put(pos, piece, turns)); board.classList.add('solved'); }
  note = last ? ` (end of the search: the last solution found, ${found} in all)` : ' (end of the search: no solution)';
}
function step() {
  if (next >= events.length) { finish(); show(); return; }
  apply(events[next]); next += 1;
  if (next >= events.length) finish();
  show();
}
function delay() { return 1000 / Number(document.getElementById('speed').value); }
function play() { pause(); if (next >= events.length) restart(); timer = setInterval(step, delay()); }
function pause() { if (timer) clearInterval(timer); timer = null; }
function restart() {
  pause(); next = 0; found = 0; last = null; note = '';
  board.classList.remove('solved'); clear(); show();
}
document.getElementById('play').onclick = play;
document.getElementById('pause').onclick = pause;
document.getElementById('step').onclick = () => { pause(); step(); };
document.getElementById('restart').onclick = restart;
document.getElementById('speed').oninput = () => { if (timer) play(); };
show();
"""


def replay_html(instance: Instance, events: Sequence[dict[str, Any]], truncated: bool) -> str:
    """A self-contained HTML page that replays a search trace.

    A self-contained HTML page that replays a search trace (play, pause, step, speed): the events of
    pysolve's trace format (pysolve.trace), each placement an `enter` with its move."""
    width, height = instance.cols * SIZE, instance.rows * SIZE
    data = json.dumps({"cols": instance.cols, "events": list(events)}, separators=(",", ":"))
    note = (f"<p>The trace was cut after {len(events)} events.</p>" if truncated else "")
    slots = "".join(f'<rect x="{c * SIZE}" y="{r * SIZE}" width="{SIZE}" height="{SIZE}" fill="none" '
                    f'stroke="#ccc" stroke-dasharray="4"/>'
                    for r in range(instance.rows) for c in range(instance.cols))
    title = html.escape(f"{instance.name}: the search, step by step")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;margin:2em}} svg.solved{{outline:6px solid #2ca02c}}
button{{margin-right:.4em}}</style></head>
<body><h1>{title}</h1>
<p>Row by row from the top-left, every unused piece in every rotation; a piece stays while it
matches its left and upper neighbours, and leaves again on backtracking. The replay pauses on
every solution (play or step goes on) and ends on the last solution found.</p>{note}
<div><button id="play">play</button><button id="pause">pause</button><button id="step">step</button>
<button id="restart">restart</button> speed <input id="speed" type="range" min="1" max="400" value="20">
<span id="where"></span></div>
<svg id="board" xmlns="http://www.w3.org/2000/svg" viewBox="-4 -4 {width + 8} {height + 8}"
 width="{width + 8}" height="{height + 8}">{defs(instance)}{slots}</svg>
<script>const DATA = {data};{REPLAY_SCRIPT}</script>
</body></html>
"""
