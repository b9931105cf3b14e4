// The fichas page: one strategy's path replayed move by move, and every strategy compared in a table.
"use strict";

const $ = id => document.getElementById(id);
const CELL = 44, COLOURS = { B: "#ffffff", V: "#2e9e4f" };
let path = [], at = 0, timer = null;
whenRefused(() => { pause(); path = []; at = 0; $("verdict").textContent = ""; drawStep(); $("comparison").replaceChildren(); });

function whole(id) {
  // A number field as the request sends it: null when empty (or no number), which the server refuses as missing.
  const text = $(id).value.trim();
  return text === "" ? null : Number(text);
}

function order() {
  return { m: whole("m"), n: whole("n"), flavour: $("flavour").value, backend: chosenBackend() };
}

function moved(before) {
  // The cell a move filled: where the hole was before it.
  return before.indexOf("H");
}

function drawTokens(board, filled) {
  const svg = $("tokens");
  svg.replaceChildren();
  svg.setAttribute("width", board.length * CELL + 4);
  svg.setAttribute("height", CELL + 4);
  [...board].forEach((token, i) => {
    svgElement("rect", { x: 2 + i * CELL, y: 2, width: CELL, height: CELL, fill: i === filled ? "#ffe8a3" : "#f4f2ec",
      stroke: "#888" }, svg);
    if (token !== "H") {
      svgElement("circle", { cx: 2 + i * CELL + CELL / 2, cy: 2 + CELL / 2, r: CELL / 2 - 6, fill: COLOURS[token],
        stroke: "#333", "stroke-width": 2, class: `token ${token}` }, svg);
    }
  });
}

function drawStep() {
  document.body.dataset.step = String(at);
  if (!path.length) { $("tokens").replaceChildren(); $("where").textContent = ""; $("moves").replaceChildren(); return; }
  drawTokens(path[at], at ? moved(path[at - 1]) : -1);
  $("where").textContent = `move ${at} of ${path.length - 1}: ${path[at]}` + (at === path.length - 1 ? " (the goal)" : "");
  [...$("moves").children].forEach((item, i) => item.classList.toggle("here", i === at));
}

function go(step) {
  at = Math.max(0, Math.min(path.length - 1, step));
  drawStep();
  return at < path.length - 1;
}

function pause() { if (timer) clearInterval(timer); timer = null; }
function play() {
  pause();
  if (at >= path.length - 1) go(0);
  timer = setInterval(() => { if (!go(at + 1)) pause(); }, 1000 / Number($("speed").value));
}

function showPath(answer) {
  pause();
  path = answer.path;
  const reason = answer.reason ? `: ${answer.reason}` : "";
  const cut = answer.cut ? ` (the first ${path.length} boards shown)` : "";
  const states = answer.states === null ? "" : `, ${plural(answer.states, "state")}`;
  $("verdict").textContent = answer.moves === null
    ? `${answer.strategy} on ${answer.backend}: ${answer.status === "solved" ? "no path (the strategy gives up)" : answer.status}${reason}`
    : `${answer.strategy} on ${answer.backend}: a path of ${plural(answer.moves, "move")}${states}, ${answer.seconds} s${cut}`;
  $("verdict").className = answer.moves === null ? "bad" : "ok";
  $("moves").replaceChildren(...path.map((board, i) => {
    const item = document.createElement("li");
    item.textContent = board;
    item.onclick = () => { pause(); go(i); };
    return item;
  }));
  go(0);
}

function cells(row, values, tag) {
  for (const value of values) {
    const cell = document.createElement(tag);
    cell.textContent = value === undefined || value === null ? "" : value;
    row.append(cell);
  }
}

function showComparison(compared) {
  const table = $("comparison");
  table.replaceChildren();
  const caption = table.createCaption();
  caption.textContent = `every strategy on ${compared.backend}, M=${compared.m}, N=${compared.n} (click a row to watch its path)`;
  cells(table.insertRow(), ["strategy", "status", "path length (moves)", "states", "seconds"], "th");
  for (const row of compared.rows) {
    const line = table.insertRow();
    line.dataset.strategy = row.strategy;
    cells(line, [row.strategy, row.reason ? `${row.status}: ${row.reason}` : row.status, row.moves, row.states,
      row.seconds], "td");
    line.onclick = () => { $("strategy").value = row.strategy; solve(); };
  }
}

function solve() {
  return working(async () => showPath(await call("POST", "/api/fichas/solve",
    Object.assign(order(), { strategy: $("strategy").value }))));
}

$("solve").onclick = solve;
$("compare").onclick = () => working(async () => showComparison(await call("POST", "/api/fichas/compare", order())));
$("first").onclick = () => { pause(); go(0); };
$("back").onclick = () => { pause(); go(at - 1); };
$("forward").onclick = () => { pause(); go(at + 1); };
$("last").onclick = () => { pause(); go(path.length - 1); };
$("play").onclick = play;
$("pause").onclick = pause;
$("speed").oninput = () => { if (timer) play(); };

working(async () => {
  const offered = await call("GET", "/api/fichas/options");
  fillSelect("strategy", offered.strategies);
  fillSelect("flavour", offered.flavours);
  for (const id of ["m", "n"]) $(id).max = offered.max_order;
}).then(solve);
