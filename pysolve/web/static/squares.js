// The squares page: replays the server's recorded search (placements, backtracks, solutions).
"use strict";

const $ = id => document.getElementById(id);
let trace = null, next = 0, timer = null, solutions = 0, placements = 0, backtracks = 0, cells = [], at = {};

function found() {
  // The solutions replayed so far, out of those the replay holds; a replay cut short holds only the search's first
  // events, so it says so, and what is known of the whole search (a shipped instance's count).
  if (!trace.truncated) return `${solutions} of ${trace.solutions}`;
  const whole = trace.known ? `the whole search finds ${trace.known}` : "the search goes on past them";
  return `${solutions} (the replay is the search's first ${trace.events.length} events, holding ` +
    `${trace.solutions} of its solutions; ${whole})`;
}

function describe() {
  if (!trace) return;
  $("where").textContent = `${trace.name}: event ${next} of ${trace.events.length}; ` +
    `${placements} placements, ${backtracks} backtracks, solutions so far: ${found()}`;
  $("speed-text").textContent = $("speed").value;
  document.body.dataset.event = String(next);
  document.body.dataset.solutions = String(solutions);
  document.body.dataset.finished = String(next >= trace.events.length);
}

function apply(event) {
  // An event of pysolve's trace format: a placement enters a node (its move), a backtrack leaves it.
  const size = trace.size;
  if (event.e === "enter") {
    placements += 1;
    const { row, col, piece, turns } = event.move, pos = (row - 1) * trace.cols + col - 1;
    const place = `translate(${(col - 1) * size} ${(row - 1) * size})`;
    const turned = `${place} rotate(${90 * turns} ${size / 2} ${size / 2})`;
    cells[pos] = [  // the piece's shapes turned, its words at that turn (a group of the defs) upright over them
      svgElement("use", { href: `#p${piece}`, transform: turned }, $("board")),
      svgElement("use", { href: `#n${piece}-${turns}`, transform: place }, $("board"))];
    at[event.id] = pos;
  } else if (event.e === "backtrack") {
    backtracks += 1;
    cells[at[event.id]].forEach(use => use.remove());
    cells[at[event.id]] = null;
    $("board").classList.remove("solved");
    $("found").textContent = "";
  } else if (event.e === "solution") {
    solutions += 1;
    $("board").classList.add("solved");
    $("found").textContent = `solution ${solutions} found` +
      (solutions < trace.solutions ? " (next solution: go on searching)" : "");
  }
}

function step() {
  // One event; false when the replay should stop (a solution, the end, or nothing loaded).
  if (!trace) return false;
  if (next >= trace.events.length) { pause(); describe(); return false; }
  const kind = trace.events[next].e;
  apply(trace.events[next]);
  next += 1;
  describe();
  return kind !== "solution";
}

function pause() { if (timer) clearInterval(timer); timer = null; }
function play() {
  pause();
  timer = setInterval(() => { if (!step()) pause(); }, 1000 / Number($("speed").value));
}
function nextSolution() {
  pause();
  while (step()) { /* on to the next solution or the end */ }
}
function restart() {
  pause();
  next = solutions = placements = backtracks = 0;
  cells.forEach(c => c && c.forEach(use => use.remove()));
  cells = [];
  $("board").classList.remove("solved");
  $("found").textContent = "";
  describe();
}

function show(loaded) {
  pause();
  trace = loaded;
  const size = trace.size, w = trace.cols * size, h = trace.rows * size;
  const board = $("board");
  board.setAttribute("viewBox", `-4 -4 ${w + 8} ${h + 8}`);
  board.setAttribute("width", Math.min(w + 8, 520));
  board.setAttribute("height", Math.min(w + 8, 520) * (h + 8) / (w + 8));
  let slots = "";
  for (let r = 0; r < trace.rows; r++) for (let c = 0; c < trace.cols; c++)
    slots += `<rect x="${c * size}" y="${r * size}" width="${size}" height="${size}" fill="none" stroke="#ccc" stroke-dasharray="4"/>`;
  board.innerHTML = trace.defs + slots;
  cells = [];
  restart();
}

function forget() {
  // A refused load: no replay is shown under the error.
  pause();
  trace = null;
  cells = [];
  for (const id of ["board", "where", "found"]) $(id).replaceChildren();
}

function load(data) {
  pause();
  return working(async () => show(await call("POST", "/api/squares/trace", data)));
}

$("play").onclick = play;
$("pause").onclick = pause;
$("step").onclick = () => { pause(); step(); };
$("next").onclick = nextSolution;
$("restart").onclick = restart;
$("speed").oninput = () => { describe(); if (timer) play(); };
$("load").onclick = () => load({ instance: $("instance").value });
function loadText(text, name) {
  // An instance of one's own: the list of shipped ones shows none of them while it is replayed.
  $("instance").selectedIndex = -1;
  return load({ file: text, name });
}
$("squares-file").onchange = async event => {
  const file = event.target.files[0];
  if (file) loadText(await file.text(), file.name);
};
$("squares-paste").onclick = () => loadText($("squares-text").value, "the pasted instance");
whenRefused(forget);

(async () => {
  const { instances } = await call("GET", "/api/squares/instances");
  for (const name of instances) {
    const option = document.createElement("option");
    option.value = option.textContent = name;
    $("instance").append(option);
  }
  $("instance").value = "insects";  // the one replayed first, shown as chosen
  await load({ instance: $("instance").value });
})();
