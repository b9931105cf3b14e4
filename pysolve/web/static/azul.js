// The Azul page: a table against strategies (moves checked by the server's rules), replays, tournaments.
"use strict";

const $ = id => document.getElementById(id);
const COLOURS = ["blue", "yellow", "red", "black", "white"];
const CENTRE = -1, FLOOR = 0, MARKER = 5, PENALTIES = [1, 1, 2, 2, 2, 3, 3];
let table = null, source = null, colour = null, strategies = [];

function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

function tile(c, extra) {
  const made = element("span", `tile c${c} ${extra || ""}`, c === MARKER ? "1" : "");
  made.title = c === MARKER ? "first-player marker" : COLOURS[c];
  return made;
}

function wallColour(row, column) { return ((column - row) % 5 + 5) % 5; }

function legal(filter) { return (table && table.moves || []).filter(filter); }

function drawSources(state, container, interactive) {
  const sources = element("div");
  const add = (where, counts, label, marker) => {
    const box = element("div", where === CENTRE ? "factory centre" : "factory");
    box.dataset.source = where;
    box.title = label;
    counts.forEach((n, c) => { for (let i = 0; i < n; i++) {
      const ok = interactive && source === where && legal(m => m[0] === where && m[1] === c).length;
      const piece = tile(c, ok ? (colour === c ? "pick picked" : "pick") : "");
      if (ok) piece.onclick = event => { event.stopPropagation(); colour = c; redraw(); };
      box.append(piece);
    } });
    if (marker) box.append(tile(MARKER));
    if (interactive && legal(m => m[0] === where).length) {
      box.classList.add("source-ok");
      if (source === where) box.classList.add("chosen");
      box.onclick = () => { source = where; colour = null; redraw(); };
    }
    sources.append(box);
  };
  state.factories.forEach((counts, i) => add(i, counts, `factory ${i + 1}`, false));
  add(CENTRE, state.centre, "centre", state.marker === CENTRE && !state.over);
  container.append(sources);
}

function drawBoard(state, seat, names, toMove, interactive) {
  const board = state.boards[seat];
  const box = element("div", `panel player${toMove ? " to-move" : ""}`);
  box.dataset.seat = seat;
  box.append(element("h3", "", `seat ${seat + 1}: ${names[seat]} — ${board.score} points`));
  const grid = element("div", "row");
  const lines = element("div"), wall = element("div");
  board.lines.forEach(([c, n], row) => {
    const line = element("div", "line");
    line.dataset.destination = row + 1;
    for (let i = row; i >= 0; i--) line.append(i < n ? tile(c) : element("span", "tile empty"));
    if (interactive && colour !== null && legal(m => m[0] === source && m[1] === colour && m[2] === row + 1).length) {
      line.classList.add("dest-ok");
      line.onclick = () => play([source, colour, row + 1]);
    }
    lines.append(line);
    const wallRow = element("div", "line");
    board.wall[row].forEach((filled, column) => wallRow.append(tile(wallColour(row, column), filled ? "" : "faint")));
    wall.append(wallRow);
  });
  grid.append(lines, wall);
  box.append(grid);
  const floor = element("div", "floor");
  floor.dataset.destination = FLOOR;
  floor.append(element("span", "keys", "floor: "));
  board.floor.forEach(item => floor.append(tile(item)));
  for (let i = board.floor.length; i < 7; i++) floor.append(element("span", "tile empty", `-${PENALTIES[i]}`));
  if (interactive && colour !== null && legal(m => m[0] === source && m[1] === colour && m[2] === FLOOR).length) {
    floor.classList.add("dest-ok");
    floor.onclick = () => play([source, colour, FLOOR]);
  }
  box.append(floor);
  return box;
}

function drawTable(state, names, turn, container, interactive) {
  container.innerHTML = "";
  drawSources(state, container, interactive);
  const boards = element("div");
  state.boards.forEach((_, seat) => boards.append(drawBoard(state, seat, names, seat === turn, interactive && seat === turn)));
  container.append(boards);
}

function redraw() {
  if (!table) return;
  const state = table.state, human = table.human_to_move;
  drawTable(state, table.seats, table.turn, $("table"), human);
  const scores = state.boards.map(b => b.score).join(" : ");
  $("turn").textContent = table.over
    ? `Game over after ${state.round} rounds. Scores ${scores}; ` +
      `winner${table.winners.length > 1 ? "s" : ""}: ${table.winners.map(s => `seat ${s + 1} (${table.seats[s]})`).join(", ")}`
    : human ? `Round ${state.round}: your move, seat ${table.turn + 1}: ` +
      (source === null ? "click a factory or the centre" : colour === null ? "click a colour" : "click a pattern line or the floor")
    : `Round ${state.round}`;
  document.body.dataset.over = String(table.over);
  const rounds = $("rounds");
  rounds.innerHTML = "<tr><th>round</th>" + table.seats.map((s, i) => `<th>seat ${i + 1} (${s})</th>`).join("") + "</tr>";
  for (const round of table.rounds) {
    const row = element("tr");
    row.append(element("td", "", round.final ? `${round.round} (end, bonuses)` : String(round.round)));
    round.after.forEach((score, seat) => {
      const gain = score - round.before[seat];
      row.append(element("td", "", `${score} (${gain >= 0 ? "+" : ""}${gain})`));
    });
    rounds.append(row);
  }
  const log = $("log");
  log.innerHTML = "";
  for (const entry of table.log.slice(-12)) log.append(element("li", "", `seat ${entry.seat + 1}: ${entry.text}`));
}

function play(move) {
  if (document.body.dataset.pending === "1") return undefined;  // one move at a time
  return working(async () => {
    try {
      table = await call("POST", `/api/azul/games/${table.id}/moves`, { move });
    } finally {
      source = colour = null;
      redraw();
    }
  });
}

function seatChoices() {
  const players = Number($("players").value), seats = $("seats");
  const before = [...seats.querySelectorAll("select")].map(s => s.value);
  seats.innerHTML = "";
  for (let i = 0; i < players; i++) {
    const label = element("label", "", `seat ${i + 1} `);
    const select = element("select");
    select.className = "seat";
    for (const name of ["human", ...strategies]) select.append(new Option(name, name));
    select.value = before[i] || (i === 0 ? "human" : "random");
    label.append(select);
    seats.append(label);
  }
}

function start() {
  return working(async () => {
    table = await call("POST", "/api/azul/games", {
      players: Number($("players").value), seed: Number($("seed").value), backend: chosenBackend(),
      seats: [...document.querySelectorAll("#seats select")].map(s => s.value) });
    source = colour = null;
    redraw();
  });
}

// ---- replays
let records = [], at = 0;
function drawReplay() {
  if (!records.length) return;
  const record = records[at], start = records.find(r => r.type === "start" && r.game === record.game) || records[0];
  const names = start.strategies || start.state.boards.map((_, i) => `seat ${i + 1}`);
  const state = record.state || records[at - 1].state;
  drawTable(state, names, state.over ? -1 : state.turn, $("replay-table"), false);
  const what = record.type === "move" ? `seat ${record.seat + 1} played [${record.move}]`
    : record.type === "end" ? `end: scores ${record.scores}, winners ${record.winners.map(s => s + 1)}` : "start";
  $("replay-where").textContent = `record ${at + 1} of ${records.length}, game ${record.game ?? 0}, round ${state.round}: ${what}`;
}
$("log-file").onchange = async event => {
  const file = event.target.files[0];
  if (!file) return;
  try {
    records = (await call("POST", "/api/azul/replay", { log: await file.text() })).records;
    at = 0;
    drawReplay();
  } catch (error) { /* shown */ }
};
$("replay-prev").onclick = () => { at = Math.max(at - 1, 0); drawReplay(); };
$("replay-next").onclick = () => { at = Math.min(at + 1, records.length - 1); drawReplay(); };
$("replay-round").onclick = () => {
  const round = (records[at].state || {}).round;
  while (at < records.length - 1 && (records[at].state || {}).round === round) at += 1;
  drawReplay();
};

// ---- tournaments
function barChart(title, rows, value, low, high, maximum, format) {
  const width = 520, bar = 26, left = 130, height = rows.length * (bar + 10) + 40;
  const x = v => left + (width - left - 70) * v / maximum;
  let svg = `<svg xmlns="${SVG_NS}" width="${width}" height="${height}" font-size="12">` +
    `<text x="0" y="14" font-weight="bold">${title}</text>`;
  rows.forEach((row, i) => {
    const y = 26 + i * (bar + 10);
    svg += `<text x="0" y="${y + bar / 2 + 4}">${row.strategy}</text>` +
      `<rect class="bar" x="${left}" y="${y}" width="${x(value(row)) - left}" height="${bar}"/>` +
      `<line class="whisker" x1="${x(low(row))}" x2="${x(high(row))}" y1="${y + bar / 2}" y2="${y + bar / 2}"/>` +
      `<line class="whisker" x1="${x(low(row))}" x2="${x(low(row))}" y1="${y + 6}" y2="${y + bar - 6}"/>` +
      `<line class="whisker" x1="${x(high(row))}" x2="${x(high(row))}" y1="${y + 6}" y2="${y + bar - 6}"/>` +
      `<text x="${x(high(row)) + 6}" y="${y + bar / 2 + 4}">${format(value(row))}</text>`;
  });
  return svg + "</svg>";
}
$("t-run").onclick = () => working(async () => {
  $("charts").textContent = "playing ...";
  try {
    const result = await call("POST", "/api/azul/tournament", {
      players: Number($("t-players").value), games: Number($("t-games").value), seed: Number($("t-seed").value),
      backend: chosenBackend(), strategies: $("t-strategies").value.split(",").map(s => s.trim()).filter(Boolean) });
    const rows = result.summary.strategies;
    const top = Math.max(...rows.map(r => r.ci95[1]), 1);
    $("charts").innerHTML =
      `<p>${result.summary.games} games, ${result.summary.mean_rounds} rounds and ${result.summary.mean_moves} moves on average; bars with 95 % intervals.</p>` +
      barChart("win rate", rows, r => r.win_rate, r => r.win_ci95[0], r => r.win_ci95[1], 1, v => v.toFixed(3)) +
      barChart("mean score", rows, r => r.mean_score, r => r.ci95[0], r => r.ci95[1], top, v => v.toFixed(1));
  } catch (error) {
    $("charts").textContent = "";
  }
});

$("players").onchange = seatChoices;
$("start").onclick = start;
(async () => {
  strategies = (await call("GET", "/api/azul/strategies")).strategies;
  seatChoices();
  await start();
})();
