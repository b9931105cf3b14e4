"""A logged Azul game as one self-contained HTML page: the table drawn at every step of the story
(every move, each tile of a round's tiling, each floor, the bonuses), with play, pause, step back and
forth, a jump to the next round, a speed control, and the steps listed in words (click one to go there).

Each step's picture comes from `svg.parts`; a part that repeats (a board nobody touched) is stored
once, so a whole game stays a few hundred kilobytes.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

from pysolve import files
from pysolve.azul import svg
from pysolve.azul.replay import Step, story
from pysolve.errors import InputError

SCRIPT = r"""
const frames = DATA.frames, parts = DATA.parts, texts = DATA.texts, kinds = DATA.kinds;
const groups = [...document.querySelectorAll('#table g.part')];
const items = [...document.querySelectorAll('#steps li')];
let at = 0, timer = null;
function show(index) {
  at = Math.max(0, Math.min(index, frames.length - 1));
  frames[at].forEach((part, slot) => { if (groups[slot].dataset.part !== String(part)) {
    groups[slot].innerHTML = parts[part]; groups[slot].dataset.part = String(part); } });
  items.forEach((item, i) => item.classList.toggle('now', i === at));
  items[at].scrollIntoView({block: 'nearest'});
  document.getElementById('where').textContent = `step ${at + 1} of ${frames.length}`;
  document.getElementById('now').textContent = texts[at];
  if (at === frames.length - 1) pause();
}
function wait() {  // the tiling goes slower than the moves, so that each score can be read
  const base = 1000 / Number(document.getElementById('speed').value);
  return ['tile', 'floor', 'bonus', 'tiling', 'deal'].includes(kinds[at]) ? 2 * base : base;
}
function tick() { show(at + 1); if (timer) timer = setTimeout(tick, wait()); }
function play() { pause(); if (at === frames.length - 1) show(0); timer = setTimeout(tick, wait()); }
function pause() { if (timer) clearTimeout(timer); timer = null; }
function nextRound() {
  pause();
  for (let i = at + 1; i < frames.length; i++) if (kinds[i] === 'tiling' || kinds[i] === 'end') return show(i);
  show(frames.length - 1);
}
document.getElementById('play').onclick = play;
document.getElementById('pause').onclick = pause;
document.getElementById('back').onclick = () => { pause(); show(at - 1); };
document.getElementById('step').onclick = () => { pause(); show(at + 1); };
document.getElementById('round').onclick = nextRound;
document.getElementById('restart').onclick = () => { pause(); show(0); };
items.forEach((item, i) => { item.onclick = () => { pause(); show(i); }; });
document.addEventListener('keydown', event => {
  if (event.key === ' ') { event.preventDefault(); timer ? pause() : play(); }
  else if (event.key === 'ArrowRight') { pause(); show(at + 1); }
  else if (event.key === 'ArrowLeft') { pause(); show(at - 1); }
});
function linked() {  // a link may name a step: page.html#step=40
  const named = /step=(\d+)/.exec(location.hash);
  return named ? Number(named[1]) - 1 : null;
}
window.addEventListener('hashchange', () => { if (linked() !== null) { pause(); show(linked()); } });
show(linked() ?? 0);
"""

STYLE = """body{font-family:sans-serif;margin:1.5em} button{margin-right:.4em}
#view{display:flex;gap:1.5em;align-items:flex-start} #table{flex:none} #steps{height:640px;overflow-y:auto;font-size:13px;
margin:0;padding-left:2.5em;min-width:26em} #steps li{cursor:pointer;padding:1px 4px}
#steps li.now{background:#ffe8d6;outline:1px solid #e8590c} #steps li.tile,#steps li.floor,
#steps li.bonus{color:#7a3b00} #steps li.deal,#steps li.tiling,#steps li.end{font-weight:bold}
#now{min-height:1.4em;font-weight:bold}"""


def frames(steps: Sequence[Step]) -> tuple[list[str], list[list[int]], tuple[int, int]]:
    """(the distinct parts, each step's part numbers: caption, offer, boards..., the largest picture size)."""
    index: dict[str, int] = {}
    distinct: list[str] = []
    numbered: list[list[int]] = []
    width = height = 0
    for step in steps:
        picture = svg.parts(step.state, step.names, step.text, step.focus, step.seat)
        width, height = max(width, picture.width), max(height, picture.height)
        row = []
        for part in picture.all():
            if part not in index:
                index[part] = len(distinct)
                distinct.append(part)
            row.append(index[part])
        numbered.append(row)
    return distinct, numbered, (width, height)


def page(records: Sequence[dict[str, Any]], title: str = "Azul replay") -> str:
    """The replay page of a game log (the first game of a log that holds several)."""
    steps = page_steps(records)
    distinct, numbered, (width, height) = frames(steps)
    slots = max(len(row) for row in numbered)
    data = json.dumps({"parts": distinct, "frames": numbered, "texts": [step.text for step in steps],
                       "kinds": [step.kind for step in steps]}, separators=(",", ":"))
    listed = "".join(f'<li class="{step.kind}">{html.escape(step.text)}</li>' for step in steps)
    groups = "".join('<g class="part"></g>' for _ in range(slots))
    heading = html.escape(title)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{heading}</title>
<style>{STYLE}</style></head>
<body><h1>{heading}</h1>
<p>Every move, then each round's wall tiling one tile at a time (with the reason for its points), every
floor with its penalty, and the end-of-game bonuses. The tile marked 1 is the first-player marker. Keys:
space plays or pauses, the arrows step; a link ending in #step=N opens step N.</p>
<div><button id="play">play</button><button id="pause">pause</button><button id="back">step back</button>
<button id="step">step</button><button id="round">next round</button><button id="restart">restart</button>
speed <input id="speed" type="range" min="1" max="20" value="3"> <span id="where"></span></div>
<p id="now"></p>
<div id="view"><svg id="table" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"
 width="{width}" height="{height}">{svg.defs()}<rect width="100%" height="100%" fill="#fff"/>{groups}</svg>
<ol id="steps">{listed}</ol></div>
<script>const DATA = {data};{SCRIPT}</script>
</body></html>
"""


def first_game(steps: list[Step]) -> list[Step]:
    """The steps up to the second game's start, if the log holds more than one."""
    starts = [index for index, step in enumerate(steps) if step.kind == "start"]
    return steps[:starts[1]] if len(starts) > 1 else steps


def page_steps(records: Sequence[dict[str, Any]]) -> list[Step]:
    """The steps the page shows and numbers from 1: the first game's, without its title."""
    return [step for step in first_game(story(records)) if step.kind != "start"]


def write_pictures(records: Sequence[dict[str, Any]], page_path: str | None, svg_path: str | None,
                   number: int = 0) -> list[str]:
    """Write the replay page and/or the SVG of step `number` (from 1, as the page numbers them; 0: the last),
    each whole or not at all; the paths written."""
    steps = page_steps(records)
    if not 0 <= number <= len(steps):
        raise InputError(f"--step {number}: the game has steps 1 to {len(steps)}")
    written = []
    if page_path is not None:
        written.append(files.write_text(page_path, page(records), "--html"))
    if svg_path is not None:
        step = steps[number - 1]
        written.append(files.write_text(svg_path, svg.table_svg(step.state, step.names, step.text, step.focus,
                                                                step.seat), "--svg"))
    return written
