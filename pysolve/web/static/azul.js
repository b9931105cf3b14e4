// The Azul page: a table against strategies (moves checked by the server's rules), replays, tournaments.
"use strict";

const $ = id => document.getElementById(id);
const COLOURS = ["blue", "yellow", "red", "black", "white"];
const CENTRE = -1, FLOOR = 0, MARKER = 5, WALL = -2, PENALTIES = [1, 1, 2, 2, 2, 3, 3];
const SCORING = ["tiling", "choose", "tile", "floor", "bonus"];  // the steps that tell a round's scoring
let table = null, source = null, colour = null, strategies = [], person = "you";

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
    box.append(element("span", "source-name", where === CENTRE ? "centre" : String(where + 1)));  // as moves name it
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
  state.factories.forEach((counts, i) => add(i, counts, `factory ${i + 1}`, false));  // "factory 8" in a move
  add(CENTRE, state.centre, "centre", state.marker === CENTRE && !state.over);
  container.append(sources);
}

function drawBoard(state, seat, names, toMove, interactive) {
  const board = state.boards[seat];
  const box = element("div", `panel player${toMove ? " to-move" : ""}`);
  box.dataset.seat = seat;
  box.append(element("h3", "", `seat ${seat}: ${names[seat]} — ${board.score} points`));
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
    if (interactive && legal(m => m[0] === WALL && m[1] === row).length) line.classList.add("tiling");
    board.wall[row].forEach((filled, column) => wallRow.append(state.variant === "grey"  // any colour, any column
      ? (filled ? tile(board.colours[row][column]) : wallChoice(row, column, interactive))
      : tile(wallColour(row, column), filled ? "" : "faint")));
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

function wallChoice(row, column, interactive) {
  // An empty cell of a grey wall; in your tiling phase, a cell your full line's tile may take: click it.
  const cell = element("span", "tile empty");
  if (interactive && legal(m => m[0] === WALL && m[1] === row && m[2] === column).length) {
    cell.classList.add("cell-ok");
    cell.dataset.column = column;
    cell.title = `put line ${row + 1}'s tile in column ${column + 1}`;
    cell.onclick = () => play([WALL, row, column]);
  }
  return cell;
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
  const state = table.state, yours = table.person_to_move;
  drawTable(state, table.seats, table.turn, $("table"), yours);
  const scores = state.boards.map(b => b.score).join(" : ");
  $("turn").textContent = table.over
    ? `Game over after ${state.round} rounds. Scores ${scores}; ` +
      `winner${table.winners.length > 1 ? "s" : ""}: ${table.winners.map(s => `seat ${s} (${table.seats[s]})`).join(", ")}`
    : table.pending ? `Round ${state.round}: your move is on the table: let the others play (space), or take it back (u)`
    : yours && state.phase === "tiling" ? `Round ${state.round}: your wall, seat ${table.turn}: ` +
      "click a marked cell for the tile of your top full line (its column may not hold that colour yet)"
    : yours ? `Round ${state.round}: your move, seat ${table.turn}: ` +
      (source === null ? "click a factory or the centre" : colour === null ? "click a colour" : "click a pattern line or the floor")
    : `Round ${state.round}`;
  $("go-on").hidden = $("take-back").hidden = !table.pending;
  $("download").href = `/api/azul/games/${table.id}/log`;
  document.body.dataset.over = String(table.over);
  document.body.dataset.waiting = String(table.pending);
  const rounds = $("rounds");
  rounds.innerHTML = "<tr><th>round</th>" + table.seats.map((s, i) => `<th>seat ${i} (${s})</th>`).join("") + "</tr>";
  for (const round of table.rounds) {
    const row = element("tr");
    row.append(element("td", "", round.final ? `${round.round} (end, bonuses)` : String(round.round)));
    round.after.forEach((score, seat) => {
      const gain = score - round.before[seat];
      row.append(element("td", "", `${score} (${gain >= 0 ? "+" : ""}${gain})`));
    });
    rounds.append(row);
  }
  const scoring = $("scoring");
  scoring.innerHTML = "";
  for (const step of table.steps.filter(step => SCORING.includes(step.kind))) {
    scoring.append(element(step.kind === "tiling" ? "dt" : "dd", `step-${step.kind}`, step.text));
  }
  scoring.scrollTop = scoring.scrollHeight;  // the latest round in view
  const log = $("log");
  log.innerHTML = "";
  for (const step of table.steps.filter(step => step.kind === "move").slice(-12)) log.append(element("li", "", step.text));
}

function refusals(place, forget) {
  // Where the next refusal stands, and what it takes away: next to the field of `place` it names
  // ("the field 'seed'": the input whose data-field is seed), else after `place`, the part of the page that asked;
  // never at the page's foot under another part's result.
  showError("");  // an earlier refusal, wherever it stands, is of an earlier request
  whenRefused(() => {
    forget();
    const named = /the field '(\w+)'/.exec($("error").textContent);
    const field = named && place.querySelector(`[data-field="${named[1]}"]`);
    (field ? field.closest("label") : place).after($("error"));
  });
}

function seedIn(id) {
  // A seed field's number; one left empty (or holding no number) is sent as "", which the server refuses.
  const text = $(id).value.trim();
  return text === "" ? "" : Number(text);
}

function act(what, data) {
  // A move, taking it back, or letting the others play: one at a time; a refused one leaves the table as it was.
  if (document.body.dataset.pending === "1" || !table) return undefined;
  refusals($("turn").parentElement, () => {});
  return working(async () => {
    try {
      table = await call("POST", `/api/azul/games/${table.id}/${what}`, data);
    } finally {
      source = colour = null;
      redraw();
    }
  });
}

function play(move) { return act("moves", { move }); }

function seatChoices() {
  const players = Number($("players").value), seats = $("seats");
  const before = [...seats.querySelectorAll("select")].map(s => s.value);
  seats.innerHTML = "";
  for (let i = 0; i < players; i++) {
    const label = element("label", "", `seat ${i} `);
    const select = element("select");
    select.className = "seat";
    for (const name of [person, ...strategies]) select.append(new Option(name, name));
    select.value = before[i] || (i === 0 ? person : "greedy");
    label.append(select);
    seats.append(label);
  }
}

function start() {
  refusals($("setup"), () => {});  // the game being played stays: the refusal is of the new one
  return working(async () => {
    table = await call("POST", "/api/azul/games", {
      players: Number($("players").value), seed: seedIn("seed"), backend: chosenBackend(),
      variant: $("variant").value,
      seats: [...document.querySelectorAll("#seats select")].map(s => s.value) });
    source = colour = null;
    redraw();
  });
}

// ---- replays: the story of a logged game, step by step
let steps = [], at = 0;
function drawReplay() {
  if (!steps.length) return;
  const step = steps[at];
  drawTable(step.state, step.names, step.state.turn, $("replay-table"), false);
  $("replay-where").textContent = `step ${at + 1} of ${steps.length}: ${step.text}`;
}
function replayTo(index) {
  at = Math.max(0, Math.min(index, steps.length - 1));
  drawReplay();
}
function forgetReplay() {
  steps = [];
  $("replay-table").replaceChildren();
  $("replay-where").textContent = "";
}
$("log-file").onchange = event => working(async () => {
  const file = event.target.files[0];
  if (!file) return;
  refusals($("replay"), forgetReplay);
  steps = (await call("POST", "/api/azul/replay", { log: await file.text() })).steps;
  replayTo(0);
});
$("replay-prev").onclick = () => replayTo(at - 1);
$("replay-next").onclick = () => replayTo(at + 1);
$("replay-round").onclick = () => {
  const next = steps.findIndex((step, index) => index > at && (step.kind === "tiling" || step.kind === "end"));
  replayTo(next < 0 ? steps.length - 1 : next);
};

// ---- tournaments: the server answers a line as each game ends, then the games played; pysolve.azul.charts draws them
async function reported(url, data, report) {
  // A request answered in JSON lines: each {played} handed to `report` as it comes; the last line, the result,
  // returned. A refusal (its status, or a last line {error}) is shown and thrown, as call() does.
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
                                      body: JSON.stringify(data) }).catch(error => {
    showError(`the server did not answer (${error.message})`);
    throw error;
  });
  if (!response.ok) {  // refused before it began: one JSON error, as call() reads it
    const refused = await response.json().catch(() => ({}));
    showError(refused.error || `${response.status} ${response.statusText}`);
    throw new Error(refused.error);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = "", last = null;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const lines = (rest + read.value).split("\n");
    rest = lines.pop();
    for (const line of lines.filter(Boolean).map(JSON.parse)) {
      if ("error" in line) {
        showError(line.error);
        throw new Error(line.error);
      }
      if ("summary" in line) last = line; else report(line.played);
    }
  }
  if (!last) {  // the connection closed before the result came
    showError("the server's answer ended before its result");
    throw new Error("no result");
  }
  showError("");
  return last;
}

function tournamentShown(result) {
  // The games played: all, or those the server's limit left time for (said first, with why it stopped).
  const charts = $("charts"), summary = result.summary;
  charts.replaceChildren();
  if (result.stopped) {
    charts.append(element("p", "stopped", `Stopped at the limit after ${result.played} of ${plural(result.games, "game")}: ` +
      `${result.stopped}. ${result.played ? `The results of the ${result.played} played:` : "No game had ended."}`));
  }
  if (!summary) return;
  charts.append(element("p", "summary", `${plural(summary.games, "game")}, ${summary.mean_rounds} rounds and ` +
    `${summary.mean_moves} moves on average.`));
  charts.insertAdjacentHTML("beforeend", result.chart);
}

$("t-run").onclick = () => working(async () => {
  const games = Number($("t-games").value), charts = $("charts");
  refusals($("tournament"), () => charts.replaceChildren());
  const progress = element("progress");
  progress.max = games;
  progress.value = 0;
  const told = element("span", "keys", ` playing: 0 of ${plural(games, "game")} ended`);
  charts.replaceChildren(element("p", "progress", ""));
  charts.firstChild.append(progress, told);
  const result = await reported("/api/azul/tournament", {
    players: Number($("t-players").value), games, seed: seedIn("t-seed"), backend: chosenBackend(),
    variant: $("t-variant").value, strategies: $("t-strategies").value.split(",").map(s => s.trim()).filter(Boolean) },
    played => {
      progress.value = played;
      told.textContent = ` playing: ${played} of ${plural(games, "game")} ended`;
    });
  tournamentShown(result);
});

$("go-on").onclick = () => act("continue");
$("take-back").onclick = () => act("undo");
document.addEventListener("keydown", event => {
  if (!table || !table.pending || event.target.closest("input, select, textarea")) return;
  if (event.key === " ") { event.preventDefault(); act("continue"); }
  if (event.key === "u") act("undo");
});
$("players").onchange = seatChoices;
$("start").onclick = start;
(async () => {
  const offered = await call("GET", "/api/azul/strategies");
  strategies = offered.strategies;
  person = offered.person;
  $("t-games").max = offered.max_games;  // the server's own maximum, and its limit, said by the field
  $("t-limit").textContent = `At most ${offered.max_games} games; a tournament plays for ` +
    `${offered.tournament_seconds} CPU seconds at most and shows the games it played by then.`;
  for (const select of [$("variant"), $("t-variant")]) {
    for (const name of offered.variants) select.append(new Option(name === "grey" ? "grey (any colour, any column)" : name, name));
  }
  seatChoices();
  await start();
})();
