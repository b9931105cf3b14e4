"""The logged Azul games as one self-contained HTML page.

The table drawn at every step of the story (every move, each tile of a round's tiling, each floor, the
bonuses), with play, pause, step back and forth, a jump to the next round, a speed control, and the
steps listed in words (click one to go there). A log of several games (`simulate --games 10 --log`)
gives a page of all of them, with a choice of game.

Each step's picture comes from `svg.parts`; a part that repeats (a board nobody touched) is stored
once across all the games, so a whole game stays a few hundred kilobytes.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pysolve import files
from pysolve.azul import svg
from pysolve.azul.replay import Step, story
from pysolve.errors import InputError

SCRIPT = r"""
const games = DATA.games, parts = DATA.parts;
const groups = [...document.querySelectorAll('#table g.part')];
const list = document.getElementById('steps'), picker = document.getElementById('game');
let frames = [], texts = [], kinds = [], items = [], at = 0, timer = null;
function choose(number) {  // game `number` (from 0): its steps listed, ready to be shown
  pause();
  const game = games[Math.max(0, Math.min(number, games.length - 1))];
  ({frames, texts, kinds} = game);
  picker.value = String(games.indexOf(game));
  items = texts.map((text, i) => {
    const item = document.createElement('li');
    item.className = kinds[i]; item.textContent = text; item.onclick = () => { pause(); show(i); };
    return item;
  });
  list.replaceChildren(...items);
}
function show(index) {
  at = Math.max(0, Math.min(index, frames.length - 1));
  groups.forEach((group, slot) => {  // a slot this game does not use (fewer players) is emptied
    const part = slot < frames[at].length ? String(frames[at][slot]) : '';
    if (group.dataset.part !== part) { group.innerHTML = part ? parts[Number(part)] : ''; group.dataset.part = part; }
  });
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
picker.onchange = () => { choose(Number(picker.value)); show(0); };
document.addEventListener('keydown', event => {
  if (event.key === ' ') { event.preventDefault(); timer ? pause() : play(); }
  else if (event.key === 'ArrowRight') { pause(); show(at + 1); }
  else if (event.key === 'ArrowLeft') { pause(); show(at - 1); }
});
function linked(name) {  // a link may name a game and a step: page.html#game=3&step=40
  const named = new RegExp(`${name}=(\\d+)`).exec(location.hash);
  return named ? Number(named[1]) - 1 : 0;
}
function follow() { choose(linked('game')); show(linked('step')); }
window.addEventListener('hashchange', follow);
follow();
"""

STYLE = """body{font-family:sans-serif;margin:1.5em} button{margin-right:.4em}
#view{display:flex;gap:1.5em;align-items:flex-start} #table{flex:none} \
#steps{height:640px;overflow-y:auto;font-size:13px;
margin:0;padding-left:2.5em;min-width:26em} #steps li{cursor:pointer;padding:1px 4px}
#steps li.now{background:#ffe8d6;outline:1px solid #e8590c} #steps li.tile,#steps li.floor,
#steps li.bonus{color:#7a3b00} #steps li.deal,#steps li.tiling,#steps li.end{font-weight:bold}
#now{min-height:1.4em;font-weight:bold}"""


@dataclass(frozen=True)
class Game:
    """One logged game as the page shows it: its title (the start step's words) and its numbered steps."""

    title: str
    steps: list[Step]


def frames(games: Sequence[Game]) -> tuple[list[str], list[list[list[int]]], tuple[int, int]]:
    """The distinct picture parts of all the games, and each step as part numbers.

    (the distinct parts of all the games, each game's steps as part numbers: caption, offer, boards...,
    the largest picture size).
    """
    index: dict[str, int] = {}
    distinct: list[str] = []
    numbered: list[list[list[int]]] = []
    width = height = 0
    for game in games:
        rows = []
        for step in game.steps:
            picture = svg.parts(step.state, step.names, step.text, step.focus, step.seat)
            width, height = max(width, picture.width), max(height, picture.height)
            row = []
            for part in picture.all():
                if part not in index:
                    index[part] = len(distinct)
                    distinct.append(part)
                row.append(index[part])
            rows.append(row)
        numbered.append(rows)
    return distinct, numbered, (width, height)


def choice(games: Sequence[Game]) -> str:
    """The game picker: one option per game (hidden when the log holds one game)."""
    options = "".join(f'<option value="{number}">{number + 1}. {html.escape(game.title)}</option>'
                      for number, game in enumerate(games))
    hidden = " hidden" if len(games) == 1 else ""
    return f'<label{hidden}>{len(games)} games: <select id="game">{options}</select></label>'


def script_data(value: Any) -> str:
    """`value` as JSON that can sit inside a <script> element (a `</` in a logged name cannot close it)."""
    return json.dumps(value, separators=(",", ":")).replace("</", "<\\/")


def page(records: Sequence[dict[str, Any]], title: str = "Azul replay") -> str:
    """The replay page of a game log.

    Every game it holds, one at a time (the first, or the one a link's #game=K names).
    """
    games = logged_games(records)
    distinct, numbered, (width, height) = frames(games)
    slots = max(len(row) for rows in numbered for row in rows)
    data = script_data({"parts": distinct, "games": [
        {"frames": rows, "texts": [step.text for step in game.steps], "kinds": [step.kind for step in game.steps]}
        for game, rows in zip(games, numbered)]})
    groups = "".join('<g class="part"></g>' for _ in range(slots))
    heading = html.escape(title)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{heading}</title>
<style>{STYLE}</style></head>
<body><h1>{heading}</h1>
<p>Every move, then each round's wall tiling one tile at a time (with the reason for its points), every
floor with its penalty, and the end-of-game bonuses. The tile marked 1 is the first-player marker. Keys:
space plays or pauses, the arrows step; a link ending in #step=N opens step N (#game=K&amp;step=N: of game K).</p>
<p>{choice(games)}</p>
<div><button id="play">play</button><button id="pause">pause</button><button id="back">step back</button>
<button id="step">step</button><button id="round">next round</button><button id="restart">restart</button>
speed <input id="speed" type="range" min="1" max="20" value="3"> <span id="where"></span></div>
<p id="now"></p>
<div id="view"><svg id="table" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"
 width="{width}" height="{height}">{svg.defs()}<rect width="100%" height="100%" fill="#fff"/>{groups}</svg>
<ol id="steps"></ol></div>
<script>const DATA = {data};{SCRIPT}</script>
</body></html>
"""


def logged_games(records: Sequence[dict[str, Any]]) -> list[Game]:
    """Each game of a log (a log starts with a start record).

    Its title, and the steps the page shows and numbers from 1, without the title.
    """
    games: list[Game] = []
    for step in story(records):
        if step.kind == "start":
            games.append(Game(step.text, []))
        else:
            games[-1].steps.append(step)
    return games


def page_steps(records: Sequence[dict[str, Any]], game: int = 1) -> list[Step]:
    """The steps --step numbers.

    Those of game `game` of the log (from 1, as the page's #game=K); InputError naming --game when the
    log holds no such game.
    """
    games = logged_games(records)
    if not 1 <= game <= len(games):
        held = "one game (1)" if len(games) == 1 else f"games 1 to {len(games)}"
        raise InputError(f"--game {game}: the log holds {held}")
    return games[game - 1].steps


def write_pictures(records: Sequence[dict[str, Any]], page_path: str | None, svg_path: str | None,
                   number: int = 0, game: int = 1) -> list[str]:
    """Write the replay page and/or the SVG of one step.

    Write the replay page (every game) and/or the SVG of step `number` of game `game` (both from 1, as the
    page numbers them; step 0: the last), each whole or not at all; the paths written.
    """
    steps = page_steps(records, game)
    if not 0 <= number <= len(steps):
        raise InputError(f"--step {number}: game {game} has steps 1 to {len(steps)}")
    written = []
    if page_path is not None:
        written.append(files.write_text(page_path, page(records), "--html"))
    if svg_path is not None:
        step = steps[number - 1]
        written.append(files.write_text(svg_path, svg.table_svg(step.state, step.names, step.text, step.focus,
                                                                step.seat), "--svg"))
    return written
