"""Pictures of squares: solutions as text and SVG, and the HTML replay of a search trace.

Pieces are drawn as squares. Under the insect rule each edge shows half an
insect in its colour: a head (round, with eyes) or a body (a long striped
abdomen), so a seam matches when a head meets a body of the same colour.
Under the eternity rule each edge is a coloured triangle (grey the frame).
Each piece is drawn once at turn 0 as an SVG `<g>`; a placed piece is a
`<use>` of it, turned about its centre, so the SVG and the replay share it.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence

from pysolve.squares.model import ETERNITY, FRAME, Grid, Instance, Label, Piece

SIZE = 100  # one piece, in SVG units
PALETTE = ("#d62728", "#7b3fa0", "#f2c81d", "#2ca02c", "#1f77b4", "#ff7f0e",
           "#17becf", "#8c564b", "#e377c2", "#bcbd22", "#393b79", "#637939")
INSECT_COLOURS = {"R": "#d62728", "M": "#7b3fa0", "A": "#f2c81d", "V": "#2ca02c"}
FRAME_COLOUR = "#9a9a9a"


# ---------------------------------------------------------------- text

def text_grid(instance: Instance, grid: Grid) -> str:
    """A solution as boxes: each piece's edges around its id (and its turns after a slash)."""
    edges = [[instance.piece(p).turned(t) for p, t in row] for row in grid]
    names = [[f"{p}/{t}" for p, t in row] for row in grid]
    side = max(len(str(label)) for label in instance.labels())
    width = max(2 * side + 2 + max(len(name) for row in names for name in row), 7)
    rule = "+" + "+".join("-" * width for _ in grid[0]) + "+"
    lines = [rule]
    for row_edges, row_names in zip(edges, names):
        lines.append("|" + "|".join(str(e[0]).center(width) for e in row_edges) + "|")
        lines.append("|" + "|".join(
            str(e[3]).ljust(side) + name.center(width - 2 * side) + str(e[1]).rjust(side)
            for e, name in zip(row_edges, row_names)) + "|")
        lines.append("|" + "|".join(str(e[2]).center(width) for e in row_edges) + "|")
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
    """A piece at turn 0 as an SVG group with id `p<ID>`."""
    parts = [f'<g id="p{piece.id}"><rect width="{SIZE}" height="{SIZE}" fill="#f7f1e3" stroke="#333"/>']
    for side, label in enumerate(piece.edges):
        colour, head = styles[label]
        shape = north_triangle(colour) if instance.rule == ETERNITY else north_half_insect(colour, head)
        parts.append(f'<g transform="rotate({90 * side} 50 50)">{shape}'
                     f'<text x="50" y="{40 if instance.rule == ETERNITY else 44}" font-size="11" '
                     f'text-anchor="middle" font-family="sans-serif">{html.escape(str(label))}</text></g>')
    parts.append(f'<text x="50" y="56" font-size="14" font-weight="bold" text-anchor="middle" '
                 f'font-family="sans-serif">{piece.id}</text></g>')
    return "".join(parts)


def defs(instance: Instance) -> str:
    """`<defs>` with one group per piece."""
    styles = label_styles(instance)
    return "<defs>" + "".join(piece_group(instance, piece, styles) for piece in instance.pieces) + "</defs>"


def placed(piece: int, turns: int, row: int, col: int) -> str:
    """A `<use>` of a piece turned `turns` quarter turns clockwise in cell (row, col)."""
    return (f'<use href="#p{piece}" transform="translate({col * SIZE} {row * SIZE}) '
            f'rotate({90 * turns} 50 50)"/>')


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
const cells = [];
function show() {
  document.getElementById('where').textContent =
    `event ${next} of ${events.length}, solutions so far: ${found}${note}`;
}
function put(pos, piece, turns) {
  const use = document.createElementNS('http://www.w3.org/2000/svg', 'use');
  use.setAttribute('href', '#p' + piece);
  use.setAttribute('transform', `translate(${(pos % cols) * 100} ${Math.floor(pos / cols) * 100}) rotate(${90 * turns} 50 50)`);
  board.appendChild(use);
  cells[pos] = {use, piece, turns};
}
function clear() { cells.forEach(c => c && c.use.remove()); cells.length = 0; }
function apply(event) {
  const [kind, pos, piece, turns] = event;
  note = '';
  board.classList.remove('solved');
  if (kind === 'place') {
    put(pos, piece, turns);
  } else if (kind === 'back') {
    cells[pos].use.remove();
    cells[pos] = null;
  } else {  // a solution: keep it, show it, and wait for play or step
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


def replay_html(instance: Instance, events: Sequence[tuple], truncated: bool) -> str:
    """A self-contained HTML page that replays a search trace (play, pause, step, speed)."""
    width, height = instance.cols * SIZE, instance.rows * SIZE
    data = json.dumps({"cols": instance.cols, "events": [list(event) for event in events]})
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
