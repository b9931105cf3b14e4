// The tangram page: draws the game the server keeps (pysolve.tangram.game.Game) and sends it the moves.
"use strict";

const CELL = 40, TRAY_CELL = 18, LABEL = 22;
let game = null, queue = Promise.resolve(), pending = 0, controlAlone = false;

function setPending(change) {
  pending += change;
  document.body.dataset.pending = String(pending);
}

function send(work) {
  // Moves run one after another, in the order the player made them.
  setPending(1);
  queue = queue.then(work).catch(() => {}).finally(() => setPending(-1));
  return queue;
}

async function start(instanceText) {
  const data = { backend: chosenBackend() };
  if (instanceText !== undefined) data.instance = instanceText;
  document.getElementById("gallery").innerHTML = "";
  game = await call("POST", "/api/tangram/games", data);
  draw();
}

function move(data) {
  return send(async () => {
    if (!game) return;
    game = await call("POST", `/api/tangram/games/${game.id}/moves`, data);
    draw();
  });
}

function piece(name) {
  return game.instance.pieces.find(p => p.name === name);
}

function cellTop(y, height) {
  return (game.instance.height - y - height) * CELL;
}

function drawRect(parent, p, attributes) {
  return svgElement("rect", Object.assign({
    x: LABEL + p.x * CELL, y: cellTop(p.y, p.height), width: p.width * CELL, height: p.height * CELL,
  }, attributes), parent);
}

function centreText(parent, p, text, attributes) {
  const t = svgElement("text", Object.assign({
    x: LABEL + (p.x + p.width / 2) * CELL, y: cellTop(p.y, p.height) + p.height * CELL / 2 + 7,
    "text-anchor": "middle", "font-size": 20, "font-weight": "bold",
  }, attributes), parent);
  t.textContent = text;
  return t;
}

function drawBoard() {
  const { width, height } = game.instance;
  const svg = document.getElementById("board-svg");
  svg.innerHTML = "";
  svg.setAttribute("width", LABEL + width * CELL + 2);
  svg.setAttribute("height", height * CELL + LABEL);
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) {
      svgElement("rect", { x: LABEL + x * CELL, y: (height - 1 - y) * CELL, width: CELL, height: CELL,
        fill: "#f4f4f4", stroke: "#ccc", class: "cell", "data-x": x, "data-y": y }, svg);
    }
    svgElement("text", { x: LABEL + x * CELL + CELL / 2, y: height * CELL + 16, "text-anchor": "middle",
      "font-size": 12, fill: "#888" }, svg).textContent = x;
  }
  for (let y = 0; y < height; y++) {
    svgElement("text", { x: LABEL - 6, y: (height - 1 - y) * CELL + CELL / 2 + 4, "text-anchor": "end",
      "font-size": 12, fill: "#888" }, svg).textContent = y;
  }
  for (const p of game.hint) {
    const colour = piece(p.piece).colour;
    drawRect(svg, p, { fill: colour, "fill-opacity": 0.25, stroke: colour, "stroke-dasharray": "4 3",
      class: "hint", "data-piece": p.piece });
    centreText(svg, p, `${piece(p.piece).key}·`, { fill: colour });
  }
  for (const p of game.board) {
    const info = piece(p.piece);
    drawRect(svg, p, { fill: info.colour, stroke: "#222", "stroke-width": 2, class: p.fixed ? "fixed" : "temporary",
      "data-piece": p.piece });
    if (p.fixed) {
      const left = LABEL + p.x * CELL, top = cellTop(p.y, p.height);
      const right = left + p.width * CELL, bottom = top + p.height * CELL;
      svgElement("path", { d: `M${left},${top} L${right},${bottom} M${right},${top} L${left},${bottom}`,
        stroke: inkOn(info.colour), "stroke-width": 2, "stroke-opacity": 0.6 }, svg);
    }
    const label = centreText(svg, p, info.key, { fill: inkOn(info.colour) });
    if (p.fixed) svgElement("rect", { x: label.getAttribute("x") - 14, y: label.getAttribute("y") - 21,
      width: 28, height: 28, fill: info.colour, stroke: inkOn(info.colour), rx: 4 }, svg).after(label);
  }
  if (game.preview) {
    const info = piece(game.preview.piece);
    drawRect(svg, game.preview, { fill: info.colour, "fill-opacity": 0.55, stroke: info.colour, "stroke-width": 3,
      "stroke-dasharray": "6 4", class: "preview", "data-piece": info.name });
  }
  for (const [x, y] of game.option_cells) {
    svgElement("circle", { cx: LABEL + x * CELL + CELL / 2, cy: (height - 1 - y) * CELL + CELL / 2, r: 7,
      class: "option", "data-x": x, "data-y": y }, svg);
  }
}

function drawTray() {
  const svg = document.getElementById("tray-svg");
  svg.innerHTML = "";
  document.getElementById("tray-label").textContent = game.waiting.length
    ? "beside the board (click one, or press its key):" : "every piece is on the board";
  let x = 0, y = 16, shelf = 0;
  const maxWidth = 360;
  for (const name of game.waiting) {
    const p = piece(name);
    const w = Math.max(p.width * TRAY_CELL, 70), h = p.height * TRAY_CELL;
    if (x + w > maxWidth) { x = 0; y += shelf + 28; shelf = 0; }
    const group = svgElement("g", { class: "piece", "data-piece": name }, svg);
    const label = svgElement("text", { x, y: y - 4, "font-size": 13,
      "font-weight": name === game.selected ? "bold" : "normal" }, group);
    label.textContent = `${p.key} ${p.name}`;
    svgElement("rect", { x, y, width: p.width * TRAY_CELL, height: h, fill: p.colour,
      stroke: name === game.selected ? "#000" : "#444", "stroke-width": name === game.selected ? 4 : 1 }, group);
    group.addEventListener("click", () => move({ action: "select", piece: name }));
    x += w + 16;
    shelf = Math.max(shelf, h);
  }
  svg.setAttribute("width", maxWidth);
  svg.setAttribute("height", y + shelf + 8);
}

function drawStatus() {
  const status = document.getElementById("status");
  status.innerHTML = "";
  if (game.selected && !game.won) {
    const info = piece(game.selected);
    status.append("selected piece: ");
    const name = document.createElement("span");
    name.id = "selected-name";
    name.textContent = info.name;
    name.style.background = info.colour;
    name.style.color = inkOn(info.colour);
    name.style.padding = "0 .4em";
    status.append(name, ` (${info.key}), ${game.options.length} option(s) marked`);
  } else {
    status.textContent = game.status;
  }
  const message = document.getElementById("message");
  message.textContent = game.message;
  message.className = game.won ? "won" : "";
  document.getElementById("undo").disabled = !game.can_undo;
  document.body.dataset.won = String(game.won);
}

function draw() {
  document.getElementById("game").hidden = false;
  drawBoard();
  drawTray();
  drawStatus();
  document.getElementById("piece-keys").textContent = ` (${game.instance.pieces.map(p => p.key).join(", ")})`;
}

function boardCell(event) {
  const svg = document.getElementById("board-svg");
  const box = svg.getBoundingClientRect();
  const x = Math.floor((event.clientX - box.left - LABEL) / CELL);
  const y = game.instance.height - 1 - Math.floor((event.clientY - box.top) / CELL);
  if (x < 0 || y < 0 || x >= game.instance.width || y >= game.instance.height) return null;
  return [x, y];
}

document.getElementById("board-svg").addEventListener("click", event => {
  controlAlone = false;
  const cell = game && boardCell(event);
  if (cell) move({ action: event.ctrlKey ? "place_at" : "choose", cell });
});

document.addEventListener("keydown", event => {
  if (!game || event.target.closest("input, select, textarea")) return;
  if (event.key === "Control") { controlAlone = !event.repeat || controlAlone; return; }
  controlAlone = false;
  const chosen = game.instance.pieces.find(p => p.key === event.key);
  if (chosen && !event.ctrlKey) { move({ action: "select", piece: chosen.name }); event.preventDefault(); return; }
  const actions = {
    Enter: { action: "place", definitive: true }, t: { action: "place", definitive: false },
    Escape: { action: "escape" }, h: { action: "hint" }, u: { action: "undo" },
  };
  if (actions[event.key]) { move(actions[event.key]); event.preventDefault(); }
});

document.addEventListener("keyup", event => {
  // Ctrl pressed and released on its own: the original game's temporary placement.
  if (event.key === "Control" && controlAlone && game) move({ action: "place", definitive: false });
  controlAlone = false;
});

document.getElementById("hint").addEventListener("click", () => move({ action: "hint" }));
document.getElementById("undo").addEventListener("click", () => move({ action: "undo" }));
document.getElementById("new-game").addEventListener("click", () => send(() => start()));
document.getElementById("backend").addEventListener("change", () => send(() => start()));
document.getElementById("instance-file").addEventListener("change", async event => {
  const file = event.target.files[0];
  if (file) { const text = await file.text(); send(() => start(text)); }
});
document.getElementById("instance-start").addEventListener("click",
  () => send(() => start(document.getElementById("instance-text").value)));
whenRefused(() => {
  // A refused start or move: no game is shown under the error, nor the room it took (the new game button
  // starts one again).
  game = null;
  document.getElementById("game").hidden = true;
  for (const id of ["board-svg", "tray-svg", "status", "message", "tray-label", "gallery", "piece-keys"]) {
    document.getElementById(id).replaceChildren();
  }
  document.getElementById("message").className = "";  // a won game's green box goes with its message
});
document.getElementById("gallery-button").addEventListener("click", () => send(async () => {
  const gallery = document.getElementById("gallery");
  gallery.textContent = "searching every tiling ...";
  busy(true);
  try {
    const found = await call("GET", `/api/tangram/games/${game.id}/tilings`);
    gallery.innerHTML = `<h2>All ${found.count} tilings</h2>` + found.svg;
  } catch (error) {
    gallery.textContent = "";
  } finally {
    busy(false);
  }
}));

for (const button of document.querySelectorAll("button")) {
  button.addEventListener("click", () => button.blur());  // the keys go on playing, never re-press a button
}

send(() => start());
